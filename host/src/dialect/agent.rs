//! The agents of Claude's dialect that read its answers their own way: which agent
//! sent a call (from what its input carries), and what its answer changes for it —
//! Claude Code 2.1.332's `PreSkillShellCommand` answered under its own name,
//! Codex's rewrites given the explicit allow Codex needs, and Copilot CLI's own
//! format ([`super::copilot`]).

use serde_json::{Map, Value};

/// Claude Code 2.1.332's event for a skill's inline shell line (`` !`cmd` ``).
pub const PRE_SKILL_SHELL: &str = "PreSkillShellCommand";

/// Who sent a call, where it changes the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Agent {
    /// Any agent that reads its dialect's answer as written.
    #[default]
    Any,
    /// GitHub Copilot CLI in its own format (no `hook_event_name`).
    Copilot,
    /// Codex (its stdin carries `turn_id`).
    Codex,
}

impl Agent {
    /// The agent whose input `input` is, by what it carries.
    pub(super) fn of(input: &Map<String, Value>) -> Agent {
        if super::copilot::is_copilot(input) {
            Agent::Copilot
        } else if input.contains_key("turn_id") {
            Agent::Codex
        } else {
            Agent::Any
        }
    }
}

/// Codex 0.171 applies a PreToolUse `updatedInput` only beside
/// `permissionDecision: "allow"` (measured by the agent suite: a bare rewrite, even
/// from a native hook, is ignored). Claude would read that allow as skipping its
/// permission prompt, so only Codex's answers get it.
pub(super) fn with_codex_allow(answer: &mut Value) {
    if let Some(Value::Object(specific)) = answer.get_mut("hookSpecificOutput")
        && specific.contains_key("updatedInput")
        && !specific.contains_key("permissionDecision")
    {
        specific.insert("permissionDecision".into(), Value::from("allow"));
    }
}

/// A PreToolUse answer as the answer to `PreSkillShellCommand`: its own event name.
/// Claude stops the line on a deny, an ask or defer, and on any `updatedInput`.
pub(super) fn as_pre_skill_shell(answer: &mut Value) {
    if let Some(Value::Object(specific)) = answer.get_mut("hookSpecificOutput") {
        specific.insert("hookEventName".into(), Value::from(PRE_SKILL_SHELL));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn only_a_rewrite_without_a_decision_gets_codexs_allow() {
        let mut rewrite = json!({"hookSpecificOutput": {"updatedInput": {"command": "ls"}}});
        with_codex_allow(&mut rewrite);
        assert_eq!(rewrite["hookSpecificOutput"]["permissionDecision"], "allow");
        let mut deny = json!({"hookSpecificOutput": {"permissionDecision": "deny",
            "updatedInput": {}}});
        with_codex_allow(&mut deny);
        assert_eq!(deny["hookSpecificOutput"]["permissionDecision"], "deny");
        let mut bare = json!({"systemMessage": "x"});
        with_codex_allow(&mut bare);
        assert_eq!(bare, json!({"systemMessage": "x"}));
    }
}
