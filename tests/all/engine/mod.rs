//! The rest of the hook engine (seeds/003, seeds/004, Claude Code's per-hook keys):
//! `if` conditions, the exec form, shells and per-OS commands, variables, the
//! background modes, `once`, `statusMessage`, and the types hookhost recognises
//! but does not run.

mod commands;
mod conditions;
mod modes;
mod types;

use serde_json::{Value, json};

use crate::common::{Project, Run};

/// `hookhost hook --claude-settings` as Claude Code runs it, with `stdin`.
fn claude_hook(p: &Project, stdin: Value) -> Run {
    p.claude_hook(&stdin, &[("XDG_STATE_HOME", &p.home().join(".state"))])
}

/// Claude Code's PreToolUse stdin for a Bash call of `command`.
fn bash_call(p: &Project, command: &str) -> Value {
    json!({"session_id": "s-1", "transcript_path": "/tmp/t.jsonl", "cwd": p.dir(),
           "permission_mode": "default", "hook_event_name": "PreToolUse",
           "tool_name": "Bash", "tool_input": {"command": command}})
}

/// The `permissionDecision` of a Claude answer (`None` when the answer has none).
fn permission(run: &Run) -> Option<String> {
    let answer: Value = serde_json::from_slice(&run.stdout).ok()?;
    answer["hookSpecificOutput"]["permissionDecision"]
        .as_str()
        .map(str::to_owned)
}
