//! `hookhost hook`: hookhost as *one* hook inside any agent.
//!
//! Register `hookhost hook` as a command hook in Claude Code, Gemini CLI or LLxprt
//! Code. It reads the agent's hook stdin, takes the event from `hook_event_name`
//! (Claude or LLxprt/Gemini names), runs the hooks hookhost is configured with —
//! shell and Wasm — and answers exactly as a single hook of that agent would:
//!
//! * Claude Code: on block, the reason on stderr and exit 2 (Claude shows it to the
//!   model); otherwise exit 0 with Claude's JSON (`continue`, `stopReason`,
//!   `systemMessage`, `suppressOutput`, and `hookSpecificOutput` with
//!   `hookEventName`, `permissionDecision`, `updatedInput`, `additionalContext`).
//! * LLxprt / Gemini CLI: the merged HookOutput on stdout; exit 2 on block (the
//!   reason also on stderr).
//!
//! Run *inside* a hook of hookhost (`HOOKHOST_ACTIVE` names its parent or, through
//! `sh -c`, its grandparent), it answers `{}` at once instead of recursing. Any other
//! value — inherited by an agent that a hook started, or set by hand — is ignored
//! (with a note on stderr): the hooks run.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use hookhost::dialect::{Dialect, parse_event};
use hookhost::runner::NESTED_ENV;
use hookhost::{AggregatedHookResult, HookEvent};
use serde_json::{Map, Value, json};

use super::SettingsArgs;
use super::fire::{fire_once, read_input};

pub fn run(settings: &SettingsArgs) -> ExitCode {
    if let Some(value) = std::env::var_os(NESTED_ENV) {
        if runs_inside_hookhost(&value.to_string_lossy()) {
            eprintln!(
                "hookhost: `hookhost hook` runs as a hook of hookhost (pid {}); not recursing",
                value.to_string_lossy()
            );
            println!("{{}}");
            return ExitCode::SUCCESS;
        }
        eprintln!(
            "hookhost: ignoring {NESTED_ENV}={:?}: it does not name the process that started this one",
            value.to_string_lossy()
        );
    }
    let mut input = match read_input() {
        Ok(input) => input,
        Err(e) => {
            eprintln!("hookhost: {e:#}");
            return ExitCode::from(1);
        }
    };
    let name = input
        .get("hook_event_name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let Some((event, dialect)) = parse_event(name) else {
        eprintln!("hookhost: hook_event_name {name:?} is not an event hookhost knows");
        return ExitCode::from(1);
    };
    // Names both dialects share (SessionStart …) are ambiguous; Claude's stdin has
    // `permission_mode`.
    let dialect = if input.contains_key("permission_mode") {
        Dialect::Claude
    } else {
        dialect
    };
    dialect.canonicalize_input(event, &mut input);
    let note = dialect.unknown_tool_note(&input);
    let project_dir = default_project_dir(&input);
    let result = match fire_once(settings.builder_in(project_dir), event, input) {
        Ok(mut result) => {
            // Not on stderr: Claude would show it to the model as part of a reason.
            result.warnings.extend(note);
            result
        }
        Err(e) => {
            // Fail open, as a broken hook would.
            eprintln!("hookhost: {e:#}");
            return ExitCode::SUCCESS;
        }
    };
    answer(event, dialect, &result)
}

/// Whether `value` is the pid of our parent or grandparent (a hook runs as
/// `sh -c COMMAND`; the shell may or may not exec the command).
fn runs_inside_hookhost(value: &str) -> bool {
    let Ok(pid) = value.trim().parse::<u32>() else {
        return false;
    };
    let Some(parent) = rustix::process::getppid() else {
        return false;
    };
    let parent = parent.as_raw_nonzero().get().unsigned_abs();
    parent == pid || parent_of(parent) == Some(pid)
}

/// The parent pid of `pid`, from `/proc/PID/stat` (Linux).
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (comm) state ppid …`; comm may contain spaces and parentheses.
    let after_comm = &stat[stat.rfind(')')? + 1..];
    after_comm.split_whitespace().nth(1)?.parse().ok()
}

fn default_project_dir(input: &Map<String, Value>) -> PathBuf {
    [
        "CLAUDE_PROJECT_DIR",
        "GEMINI_PROJECT_DIR",
        "LLXPRT_PROJECT_DIR",
    ]
    .iter()
    .find_map(|var| std::env::var_os(var).filter(|v| !v.is_empty()))
    .map(PathBuf::from)
    .or_else(|| input.get("cwd").and_then(Value::as_str).map(PathBuf::from))
    .unwrap_or_else(|| PathBuf::from("."))
}

fn answer(event: HookEvent, dialect: Dialect, result: &AggregatedHookResult) -> ExitCode {
    let blocked = result.is_blocked();
    if blocked {
        eprintln!(
            "{}",
            result
                .block_reason()
                .unwrap_or("blocked by a hookhost hook")
        );
    }
    let stdout = match dialect {
        Dialect::Claude if blocked => None,
        Dialect::Claude => Some(claude_output(event, result)),
        Dialect::Llxprt => Some(result.final_output.to_value()),
    };
    if let Some(value) = stdout {
        let _ = writeln!(std::io::stdout(), "{value}");
    }
    ExitCode::from(if blocked { 2 } else { 0 })
}

/// The merged answer in Claude Code's output format.
fn claude_output(event: HookEvent, result: &AggregatedHookResult) -> Value {
    let out = &result.final_output;
    let mut answer = Map::new();
    if result.should_stop() {
        answer.insert("continue".into(), Value::Bool(false));
        if let Some(reason) = result.stop_reason() {
            answer.insert("stopReason".into(), Value::from(reason));
        }
    }
    if result.suppress_output() {
        answer.insert("suppressOutput".into(), Value::Bool(true));
    }
    if let Some(message) = result.system_message() {
        answer.insert("systemMessage".into(), Value::from(message));
    }
    let mut specific = Map::new();
    if let Some(decision) = out.effective_decision() {
        let decision = match decision {
            hookhost::Decision::Ask => "ask",
            _ => "allow",
        };
        if event == HookEvent::BeforeTool {
            specific.insert("permissionDecision".into(), Value::from(decision));
            if let Some(reason) = out.effective_reason() {
                specific.insert("permissionDecisionReason".into(), Value::from(reason));
            }
        }
    }
    if event == HookEvent::BeforeTool
        && let Some(tool_input) = result.tool_input()
    {
        specific.insert("updatedInput".into(), tool_input.clone());
    }
    if let Some(context) = result.additional_context() {
        specific.insert("additionalContext".into(), Value::from(context));
    }
    if !specific.is_empty()
        && let Some(name) = Dialect::Claude.event_name(event)
    {
        specific.insert("hookEventName".into(), Value::from(name));
        answer.insert("hookSpecificOutput".into(), Value::Object(specific));
    }
    if answer.is_empty() {
        json!({})
    } else {
        Value::Object(answer)
    }
}
