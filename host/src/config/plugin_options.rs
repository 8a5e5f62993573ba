//! A Claude Code plugin's options and data directory, as Claude Code 2.1.331 gives
//! them to the plugin's hooks: `userConfig` in `.claude-plugin/plugin.json`
//! declares options (with defaults); the values the user chose are in Claude's
//! settings under `pluginConfigs["name@marketplace"].options` (sensitive ones sit
//! in Claude's secure storage, which hookhost does not read); hooks get each as
//! `CLAUDE_PLUGIN_OPTION_<KEY>` and exec-form arguments may name it as
//! `${user_config.KEY}`. The data directory is Claude's own
//! (`~/.claude/plugins/data/<id>`), so state is shared with Claude.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The Claude settings files that parse, as JSON, in the order given (highest
/// priority first): read once for everything plugins take from them (which are
/// enabled, their options).
pub fn read_claude_settings(files: &[PathBuf]) -> Vec<Value> {
    files.iter().filter_map(|f| read(f)).collect()
}

fn read(path: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// The options of the plugin `id` in `dir`: `userConfig` defaults, overridden by
/// `pluginConfigs[id].options` of the first Claude settings file (highest
/// priority first, [`read_claude_settings`]) that has them. Keys as declared;
/// values as Claude turns them into strings (`String(value)`: arrays comma-joined).
pub fn options(dir: &Path, id: &str, claude_settings: &[Value]) -> Vec<(String, String)> {
    let mut options: Vec<(String, String)> = Vec::new();
    let mut set = |key: &str, value: &Value| {
        let Some(text) = as_text(value) else { return };
        match options.iter_mut().find(|(k, _)| k == key) {
            Some((_, v)) => *v = text,
            None => options.push((key.to_owned(), text)),
        }
    };
    if let Some(manifest) = read(&dir.join(".claude-plugin").join("plugin.json"))
        && let Some(Value::Object(declared)) = manifest.get("userConfig")
    {
        for (key, spec) in declared {
            if let Some(default) = spec.get("default") {
                set(key, default);
            }
        }
    }
    let chosen = claude_settings.iter().find_map(|s| {
        s.get("pluginConfigs")?
            .get(id)?
            .get("options")?
            .as_object()
            .cloned()
    });
    for (key, value) in chosen.iter().flatten() {
        set(key, value);
    }
    options
}

/// The environment variable of an option: `CLAUDE_PLUGIN_OPTION_` and the key
/// upper-cased, other characters than `[A-Za-z0-9_]` as `_`.
pub fn env_name(key: &str) -> String {
    let key: String = key
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("CLAUDE_PLUGIN_OPTION_{key}")
}

/// Claude Code's data directory of the plugin `id`:
/// `$CLAUDE_CODE_PLUGIN_CACHE_DIR/data/<id>` or `~/.claude/plugins/data/<id>`, the
/// id with every character but `[A-Za-z0-9_-]` as `-`.
pub fn claude_data_dir(id: &str) -> Option<PathBuf> {
    let base = match std::env::var_os("CLAUDE_CODE_PLUGIN_CACHE_DIR").filter(|d| !d.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => dirs::home_dir()?.join(".claude").join("plugins"),
    };
    let name: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    Some(base.join("data").join(name))
}

fn as_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Array(items) => Some(
            items
                .iter()
                .filter_map(as_text)
                .collect::<Vec<_>>()
                .join(","),
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_claude_code() {
        assert_eq!(env_name("apiKey"), "CLAUDE_PLUGIN_OPTION_APIKEY");
        assert_eq!(env_name("log-level"), "CLAUDE_PLUGIN_OPTION_LOG_LEVEL");
        assert!(
            claude_data_dir("lint@acme tools")
                .is_some_and(|d| d.ends_with("plugins/data/lint-acme-tools"))
        );
        assert_eq!(
            as_text(&serde_json::json!(["a", "b"])).as_deref(),
            Some("a,b")
        );
    }
}
