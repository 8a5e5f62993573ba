//! What a tool call gives this policy to check, whatever agent sent it: shell
//! command lines (`run_shell_command`, Claude's and Codex's `Bash`, a Codex
//! `command` array) and Codex patches (`apply_patch`, whose `*** Delete File:`
//! and `*** Move to:` headers delete and move files).

use hookhost_guest::{Map, ToolCall, Value};
use hookhost_policy_common::calls::{SHELL_TOOLS, argv, shell_lines};

/// One thing to check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Work {
    /// A shell command line.
    Shell(String),
    /// A Codex patch's text.
    Patch(String),
}

/// Marks the start of a Codex patch.
const PATCH_START: &str = "*** Begin Patch";

/// The shell lines and patches of the call of `name` with `input`.
pub fn work(name: &str, input: &Map<String, Value>) -> Vec<Work> {
    let mut out = Vec::new();
    let argv = input.get("command").and_then(argv);
    if name == "apply_patch" || name == "applypatch" {
        let text = ["patch", "input"]
            .iter()
            .find_map(|k| input.get(*k).and_then(Value::as_str).map(str::to_owned))
            .or_else(|| {
                input
                    .get("command")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            })
            .or_else(|| {
                argv.as_ref()
                    .and_then(|a| a.iter().find(|w| w.contains(PATCH_START)).cloned())
            })
            .or_else(|| argv.as_ref().and_then(|a| a.last().cloned()));
        out.extend(text.map(Work::Patch));
        return out;
    }
    // `["apply_patch", PATCH]` given to a shell tool is a patch, not a line.
    let patch_argv = argv.filter(|words| {
        SHELL_TOOLS.contains(&name)
            && words
                .first()
                .is_some_and(|w| w == "apply_patch" || w == "applypatch")
            && ToolCall::new(name, input).shell_command().is_none()
    });
    if let Some(words) = patch_argv {
        out.extend(words.get(1).cloned().map(Work::Patch));
        out.extend(
            input
                .get("cmd")
                .and_then(Value::as_str)
                .map(|c| Work::Shell(c.to_owned())),
        );
    } else {
        out.extend(shell_lines(name, input).into_iter().map(Work::Shell));
    }
    // `apply_patch <<'EOF' … EOF` run through the shell.
    let patches: Vec<Work> = out
        .iter()
        .filter_map(|w| match w {
            Work::Shell(line) if line.contains(PATCH_START) => Some(Work::Patch(line.clone())),
            _ => None,
        })
        .collect();
    out.extend(patches);
    out
}

/// The paths a patch deletes or moves (a move removes its source and
/// replaces its destination).
pub fn patch_targets(patch: &str) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let mut updating: Option<&str> = None;
    for line in patch.lines() {
        let line = line.trim_end_matches('\r');
        if let Some(path) = line.strip_prefix("*** Delete File: ") {
            out.push(("deletes", path.trim().to_owned()));
        } else if let Some(path) = line.strip_prefix("*** Update File: ") {
            updating = Some(path.trim());
        } else if let Some(dest) = line.strip_prefix("*** Move to: ") {
            out.extend(updating.map(|from| ("moves", from.to_owned())));
            out.push(("moves onto", dest.trim().to_owned()));
        } else if line.starts_with("*** ") {
            updating = None;
        }
    }
    out
}
