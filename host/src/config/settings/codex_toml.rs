//! Codex's `config.toml` as a hooks file: its `[hooks]` tables are the same
//! vocabulary as Codex's (and Claude Code's) `hooks.json` — `[[hooks.PreToolUse]]`
//! is one `{matcher, hooks}` group, `[[hooks.PreToolUse.hooks]]` one handler — so
//! the TOML is turned into that JSON shape and read like it. `[hooks.state]` is
//! Codex's own bookkeeping (per-hook trust), not an event, and is dropped;
//! `[features] hooks = false` (or the deprecated `codex_hooks = false`) switches
//! the file's hooks off, as `disableAllHooks` does in a JSON file.

use serde_json::{Map, Value};

/// Why a Codex `config.toml` gives no hooks.
#[derive(Debug, thiserror::Error)]
pub(super) enum CodexTomlError {
    /// Not TOML.
    #[error("{0}")]
    Toml(#[from] toml::de::Error),
    /// A value JSON cannot hold.
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    /// Not a table at the top.
    #[error("the top level is not a table")]
    NotATable,
}

/// The JSON root of the hooks of a Codex `config.toml`; `Err` names why the TOML
/// does not parse.
pub(super) fn json_root(text: &str) -> Result<Map<String, Value>, CodexTomlError> {
    let table: toml::Table = toml::from_str(text)?;
    let Value::Object(mut root) = serde_json::to_value(table)? else {
        return Err(CodexTomlError::NotATable);
    };
    let mut out = Map::new();
    if let Some(Value::Object(mut hooks)) = root.remove("hooks") {
        hooks.remove("state");
        out.insert("hooks".to_owned(), Value::Object(hooks));
    }
    let features = root.get("features");
    let off = ["hooks", "codex_hooks"]
        .iter()
        .any(|key| features.and_then(|f| f.get(*key)) == Some(&Value::Bool(false)));
    if off {
        out.insert("disableAllHooks".to_owned(), Value::Bool(true));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hooks_tables_become_the_json_shape_and_state_is_dropped() {
        let root = json_root(
            r#"
model = "gpt"
[features]
hooks = true
[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "guard.sh"
timeout = 5
[hooks.state]
trusted = ["x"]
"#,
        )
        .unwrap();
        assert_eq!(
            Value::Object(root),
            serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "guard.sh", "timeout": 5}
            ]}]}})
        );
        let off = json_root("[features]\ncodex_hooks = false\n").unwrap();
        assert_eq!(off["disableAllHooks"], true);
        assert!(json_root("[[hooks").is_err());
    }
}
