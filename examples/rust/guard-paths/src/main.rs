//! `guard-paths`: a `BeforeTool` policy that keeps file writes inside the
//! project and away from secrets, and refuses obviously destructive shell
//! commands.
//!
//! - Write-like tools (`write_file`, `replace`, `edit`, … any tool whose name
//!   contains `write` or `edit`): the target path (`file_path`, `path` or
//!   `absolute_path` in `tool_input`) is resolved against the project dir
//!   (`LLXPRT_PROJECT_DIR`), normalised lexically (`.` and `..`), and blocked
//!   when it leaves the project or names a sensitive file (`.env`, `.git/`,
//!   `.ssh/`, `id_rsa*`, `*.pem`).
//! - `run_shell_command`: blocks `rm -rf` of `/`, `~` or `$HOME`, `mkfs`,
//!   `dd of=/dev/…` and the classic fork bomb.
//!
//! Everything else is allowed without comment.

mod paths;
mod shell;

use hookhost_guest::{HookInput, HookOutput, HookResult, Value, register_hook};

/// Tools that write files, beyond the `*write*` / `*edit*` name heuristic.
const WRITE_TOOLS: &[&str] = &[
    "replace",
    "create_file",
    "delete_file",
    "insert",
    "move_file",
];

/// The `tool_input` keys that carry the target path, in order of preference.
const PATH_KEYS: &[&str] = &["file_path", "path", "absolute_path"];

fn is_write_tool(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.contains("write") || lower.contains("edit") || WRITE_TOOLS.contains(&lower.as_str())
}

/// The project directory: the host's variable, then its aliases, then the
/// input's `cwd` (the same directory when run by hookhost).
fn project_dir(cwd: &str) -> String {
    [
        "LLXPRT_PROJECT_DIR",
        "GEMINI_PROJECT_DIR",
        "CLAUDE_PROJECT_DIR",
    ]
    .iter()
    .find_map(|name| std::env::var(name).ok().filter(|v| !v.is_empty()))
    .unwrap_or_else(|| cwd.to_owned())
}

fn guard(input: HookInput) -> HookResult {
    let HookInput::BeforeTool(call) = input else {
        return Ok(HookOutput::allow());
    };
    if call.tool_name == "run_shell_command" {
        let command = call
            .tool_input
            .get("command")
            .and_then(Value::as_str)
            .unwrap_or("");
        return Ok(match shell::destructive(command) {
            Some(why) => {
                HookOutput::block(format!("guard-paths: refusing to run `{command}`: {why}"))
            }
            None => HookOutput::allow(),
        });
    }
    if !is_write_tool(&call.tool_name) {
        return Ok(HookOutput::allow());
    }
    let Some(target) = PATH_KEYS
        .iter()
        .find_map(|key| call.tool_input.get(*key).and_then(Value::as_str))
    else {
        return Ok(HookOutput::allow());
    };
    let project = project_dir(&call.base.cwd);
    Ok(match paths::check(&project, target) {
        Ok(()) => HookOutput::allow(),
        Err(why) => HookOutput::block(format!(
            "guard-paths: {} may not write {target}: {why}",
            call.tool_name
        )),
    })
}

register_hook!(guard);
