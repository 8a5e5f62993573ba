//! What `hookhost hook` changes in a Claude-form answer for the agent that asked:
//! Claude Code 2.1.332's `PreSkillShellCommand` answered under its own name, and
//! Codex's rewrites given the explicit allow Codex needs.

use serde_json::Value;

/// Codex 0.171 applies a PreToolUse `updatedInput` only beside
/// `permissionDecision: "allow"` (measured by the agent suite: a bare rewrite, even
/// from a native hook, is ignored). Claude would read that allow as skipping its
/// permission prompt, so only Codex's answers get it.
pub fn with_codex_allow(line: &str) -> String {
    let Ok(Value::Object(mut answer)) = serde_json::from_str::<Value>(line) else {
        return line.to_owned();
    };
    if let Some(Value::Object(specific)) = answer.get_mut("hookSpecificOutput")
        && specific.contains_key("updatedInput")
        && !specific.contains_key("permissionDecision")
    {
        specific.insert("permissionDecision".into(), Value::from("allow"));
    }
    Value::Object(answer).to_string()
}

/// Claude Code 2.1.332's event for a skill's inline shell line (`` !`cmd` ``).
pub const PRE_SKILL_SHELL: &str = "PreSkillShellCommand";

/// A PreToolUse answer as the answer to `PreSkillShellCommand`: its own event name.
/// Claude stops the line on a deny, an ask or defer, and on any `updatedInput`.
pub fn as_pre_skill_shell(line: &str) -> String {
    let Ok(Value::Object(mut answer)) = serde_json::from_str::<Value>(line) else {
        return line.to_owned();
    };
    if let Some(Value::Object(specific)) = answer.get_mut("hookSpecificOutput") {
        specific.insert("hookEventName".into(), Value::from(PRE_SKILL_SHELL));
    }
    Value::Object(answer).to_string()
}
