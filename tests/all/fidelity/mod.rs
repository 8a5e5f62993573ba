//! Issue 11: Claude Code and Gemini CLI hooks run unchanged and are never silently
//! unenforced. The corpus under `tests/corpus/claude` is written the way people
//! publish hooks (bash with grep, Python exiting 2, Node, a Stop hook that loops, a
//! SessionStart hook writing `CLAUDE_ENV_FILE`, a Gemini `decision: deny`); each runs
//! directly, through `fire` and through `hook`, and must decide the same.
//!
//! One file per subject, the helpers they share here:
//! * `corpus` — the corpus scripts run by hand, through `fire` and through `hook`;
//! * `events` — Claude-only and unknown events, exact Claude matchers, `approve`, a body
//!   naming another event;
//! * `mistakes` — settings mistakes that are said and fail `check`, with the fix; the
//!   Rust scaffold's settings following `CARGO_TARGET_DIR`;
//! * `failures` — failures visible in hook mode, fail-closed, `hookhost test`, a plugin's
//!   debug prints;
//! * `plugins` — Claude Code plugin directories and installed, enabled plugins.

mod corpus;
mod events;
mod failures;
mod mistakes;
mod plugins;

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::common::{Project, Run, run};

fn corpus(name: &str) -> PathBuf {
    crate::common::repo().join("tests/corpus/claude").join(name)
}

fn claude_settings(p: &Project, hooks: Value) -> PathBuf {
    p.claude_settings(hooks)
}

fn claude_group(matcher: &str, command: &str) -> Value {
    json!([{"matcher": matcher, "hooks": [{"type": "command", "command": command, "timeout": 30}]}])
}

/// Claude Code's stdin for `event`.
fn claude_input(p: &Project, event: &str, fields: Value) -> Value {
    let mut input = json!({"session_id": "s1", "transcript_path": "/tmp/t.jsonl",
        "cwd": p.dir(), "permission_mode": "default", "hook_event_name": event});
    for (k, v) in fields.as_object().unwrap() {
        input[k] = v.clone();
    }
    input
}

/// `hookhost hook --claude-settings FLAGS…` as Claude Code runs it.
fn hook(p: &Project, input: &Value, flags: &[&str], env: &[(&str, &str)]) -> Run {
    let mut command = p.command();
    command
        .arg("hook")
        .arg("--claude-settings")
        .args(flags)
        .env("CLAUDE_PROJECT_DIR", p.dir());
    for (k, v) in env {
        command.env(k, v);
    }
    run(command, input.to_string().as_bytes())
}

/// `hook` of `event` with Claude Code's stdin made of `fields`, no flags.
fn hook_event(p: &Project, event: &str, fields: Value) -> Run {
    hook(p, &claude_input(p, event, fields), &[], &[])
}

/// `hookhost check FLAGS… --project-dir <project>`.
fn check_with(p: &Project, flags: &[&str]) -> Run {
    let mut check = p.command();
    check
        .arg("check")
        .args(flags)
        .arg("--project-dir")
        .arg(p.dir());
    run(check, b"")
}

fn answer(out: &Run) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:?}"))
}
