//! Codex's hook trust, written the way Codex's own approval writes it.
//!
//! Codex 0.171 runs a hook of `$CODEX_HOME/hooks.json` only when
//! `[hooks.state."<file>:<event>:<group>:<handler>"]` in the user's `config.toml`
//! holds `trusted_hash` equal to the hook's current hash; `codex exec` skips any
//! other hook without a word (issue 37 item 1). The key is positional (0-based
//! raw indices; the event in snake case); the hash is
//! `sha256:` + hex SHA-256 of the compact JSON, keys sorted, of
//! `{"event_name", "hooks": [{"async", "command", "statusMessage"?, "timeout",
//! "type"}], "matcher"?}` — timeout defaulted to 600 (SessionEnd: 1, at most 3),
//! the matcher dropped for events without one. Measured against Codex 0.171.0's
//! `hooks/list` (`currentHash`) for 29 hooks; test vectors below are Codex's own.
//!
//! serde_json here keeps insertion order (`preserve_order`), so the canonical text
//! is written in sorted key order by hand.

use std::path::Path;

use serde_json::Value;
use sha2::{Digest, Sha256};

/// Codex's key label of a hooks.json event name; `None`: Codex ignores the event.
pub fn label(event: &str) -> Option<&'static str> {
    Some(match event {
        "PreToolUse" => "pre_tool_use",
        "PermissionRequest" => "permission_request",
        "PostToolUse" => "post_tool_use",
        "PreCompact" => "pre_compact",
        "PostCompact" => "post_compact",
        "SessionStart" => "session_start",
        "SessionEnd" => "session_end",
        "UserPromptSubmit" => "user_prompt_submit",
        "SubagentStart" => "subagent_start",
        "SubagentStop" => "subagent_stop",
        "Stop" => "stop",
        "Interrupt" => "interrupt",
        "PreModelRequest" => "pre_model_request",
        "PostModelRequest" => "post_model_request",
        _ => return None,
    })
}

/// The `hooks.state` key of a hook of `file`.
pub fn key(file: &Path, event: &str, group: usize, hook: usize) -> Option<String> {
    Some(format!(
        "{}:{}:{group}:{hook}",
        file.display(),
        label(event)?
    ))
}

/// The trusted hash of a command hook (`hook` as written in the file) in a group
/// with `matcher`, under `event`. `None` for what Codex does not hash this way
/// (another event or handler type, a timeout that is no integer).
pub fn hash(event: &str, matcher: Option<&Value>, hook: &Value) -> Option<String> {
    let label = label(event)?;
    if hook.get("type").and_then(Value::as_str) != Some("command") {
        return None;
    }
    let command = hook.get("command")?.as_str()?;
    let short = matches!(event, "SessionEnd" | "Interrupt");
    let timeout = match hook.get("timeout") {
        None | Some(Value::Null) => {
            if short {
                1
            } else {
                600
            }
        }
        Some(t) => {
            let t = t.as_u64()?;
            if short { t.clamp(1, 3) } else { t.max(1) }
        }
    };
    let asynchronous = hook.get("async").and_then(Value::as_bool).unwrap_or(false);
    let quoted = |s: &str| Value::from(s).to_string();
    let mut handler = String::from("{");
    let context_events = [
        "PreToolUse",
        "PostToolUse",
        "SessionStart",
        "UserPromptSubmit",
        "SubagentStart",
    ];
    if let Some(limit) = hook.get("additionalContextLimit").and_then(Value::as_u64)
        && limit != 2500
        && context_events.contains(&event)
    {
        handler += &format!("\"additionalContextLimit\":{limit},");
    }
    handler += &format!("\"async\":{asynchronous},\"command\":{},", quoted(command));
    if let Some(status) = hook.get("statusMessage").and_then(Value::as_str) {
        handler += &format!("\"statusMessage\":{},", quoted(status));
    }
    handler += &format!("\"timeout\":{timeout},\"type\":\"command\"}}");
    let mut identity = format!("{{\"event_name\":{},\"hooks\":[{handler}]", quoted(label));
    let no_matcher = [
        "UserPromptSubmit",
        "Stop",
        "Interrupt",
        "PreModelRequest",
        "PostModelRequest",
    ];
    if !no_matcher.contains(&event)
        && let Some(matcher) = matcher.and_then(Value::as_str)
    {
        identity += &format!(",\"matcher\":{}", quoted(matcher));
    }
    identity.push('}');
    Some(format!(
        "sha256:{}",
        hex::encode(Sha256::digest(identity.as_bytes()))
    ))
}

/// The `trusted_hash` records of `config` (a config.toml's text).
pub fn records(config: &str) -> Result<toml_edit::DocumentMut, toml_edit::TomlError> {
    config.parse::<toml_edit::DocumentMut>()
}

/// The trusted hash recorded for `key`, if any.
pub fn trusted(doc: &toml_edit::DocumentMut, key: &str) -> Option<String> {
    doc.get("hooks")?
        .get("state")?
        .get(key)?
        .get("trusted_hash")?
        .as_str()
        .map(str::to_owned)
}

/// Records `hash` for `key` (`[hooks.state."KEY"] trusted_hash = …`), keeping
/// everything else of the document; whether it changed.
pub fn set_trusted(doc: &mut toml_edit::DocumentMut, key: &str, hash: &str) -> bool {
    if trusted(doc, key).as_deref() == Some(hash) {
        return false;
    }
    let hooks = doc
        .entry("hooks")
        .or_insert_with(implicit_table)
        .as_table_like_mut();
    let Some(hooks) = hooks else {
        return false;
    };
    let state = hooks.entry("state").or_insert(implicit_table());
    let Some(state) = state.as_table_like_mut() else {
        return false;
    };
    let record = state
        .entry(key)
        .or_insert(toml_edit::Item::Table(toml_edit::Table::new()));
    let Some(record) = record.as_table_like_mut() else {
        return false;
    };
    record.insert("trusted_hash", toml_edit::value(hash));
    true
}

/// Removes the record of `key`, and `hooks.state` / `hooks` when that leaves
/// them empty; whether anything was removed.
pub fn remove_trusted(doc: &mut toml_edit::DocumentMut, key: &str) -> bool {
    let Some(hooks) = doc.get_mut("hooks").and_then(|h| h.as_table_like_mut()) else {
        return false;
    };
    let Some(state) = hooks.get_mut("state").and_then(|s| s.as_table_like_mut()) else {
        return false;
    };
    if state.remove(key).is_none() {
        return false;
    }
    if state.is_empty() {
        hooks.remove("state");
    }
    if hooks.is_empty() {
        doc.remove("hooks");
    }
    true
}

fn implicit_table() -> toml_edit::Item {
    let mut table = toml_edit::Table::new();
    table.set_implicit(true);
    toml_edit::Item::Table(table)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Codex 0.171.0's own `currentHash` values (`hooks/list`).
    #[test]
    fn hashes_are_codexs() {
        let hook =
            json!({"type": "command", "command": "/usr/local/bin/hookhost hook", "timeout": 60});
        assert_eq!(
            hash("PreToolUse", Some(&json!("Bash")), &hook).as_deref(),
            Some("sha256:2b0657d961f5fbffba12fee15a7f4546f423f62ee187b92008861d979e407156")
        );
        assert_eq!(
            hash("PostToolUse", None, &hook).as_deref(),
            Some("sha256:f3564b9322a7d00dc5916fc9404d02bb11dae4e8463f56b66253aa3241888abe")
        );
        let all = json!({"type": "command", "command": "/usr/local/bin/hookhost hook --all"});
        assert_eq!(
            hash("PreToolUse", Some(&json!("*")), &all).as_deref(),
            Some("sha256:5e1064dc851174fd2224fa660451bbad77b0768676b5bbb3a8d02ba957e3d106")
        );
        let status = json!({"type": "command", "command": "echo second", "timeout": 5, "statusMessage": "checking"});
        assert_eq!(
            hash("PreToolUse", Some(&json!("*")), &status).as_deref(),
            Some("sha256:1a41739a8b1e1aac3590ffd17f97d3fcd8e17d6a8575169e18d1127c025b52bc")
        );
        let edge = json!({"type": "command", "command": "hookhost pre", "async": true,
            "commandWindows": "hookhost.exe pre", "additionalContextLimit": 2500, "foo": "bar"});
        assert_eq!(
            hash("PreToolUse", Some(&json!("^Bash$")), &edge).as_deref(),
            Some("sha256:fcf4d4e716b8b4c27e38a856933e96a9bab03b91d3bc804531a2658b1a14add0")
        );
        assert_eq!(hash("Notification", None, &hook), None);
        assert_eq!(
            hash(
                "PreToolUse",
                None,
                &json!({"type": "command", "command": "x", "timeout": 60.0})
            ),
            None
        );
    }

    #[test]
    fn records_keep_the_rest_of_the_file() {
        let text = "# mine\nmodel = \"gpt-5\"\n\n[projects.\"/p\"]\ntrust_level = \"trusted\"\n";
        let mut doc = records(text).unwrap_or_default();
        let key = "/h/.codex/hooks.json:pre_tool_use:1:0";
        assert!(set_trusted(&mut doc, key, "sha256:ab"));
        assert!(!set_trusted(&mut doc, key, "sha256:ab"));
        let written = doc.to_string();
        assert!(written.starts_with(text), "{written}");
        assert!(
            written.contains("[hooks.state.\"/h/.codex/hooks.json:pre_tool_use:1:0\"]\ntrusted_hash = \"sha256:ab\""),
            "{written}"
        );
        assert_eq!(
            trusted(&records(&written).unwrap_or_default(), key).as_deref(),
            Some("sha256:ab")
        );
        assert!(remove_trusted(&mut doc, key));
        assert_eq!(doc.to_string(), text);
    }
}
