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
//! Run *inside* a hook of hookhost (`HOOKHOST_ACTIVE` set), it answers `{}` at once
//! instead of recursing.

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
    if std::env::var_os(NESTED_ENV).is_some() {
        eprintln!("hookhost: `hookhost hook` runs inside a hookhost hook; not recursing");
        println!("{{}}");
        return ExitCode::SUCCESS;
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
    let project_dir = default_project_dir(&input);
    let result = match fire_once(settings.builder_in(project_dir), event, input) {
        Ok(result) => result,
        Err(e) => {
            // Fail open, as a broken hook would.
            eprintln!("hookhost: {e:#}");
            return ExitCode::SUCCESS;
        }
    };
    answer(event, dialect, &result)
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
