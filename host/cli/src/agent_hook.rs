//! `hookhost hook`: hookhost as *one* hook inside any agent.
//!
//! Register `hookhost hook` as a command hook in Claude Code, Gemini CLI or LLxprt
//! Code. It reads the agent's hook stdin, takes the event from `hook_event_name`
//! (Claude or LLxprt/Gemini names; a name hookhost does not know runs the hooks
//! registered under it, generically), runs the hooks hookhost is configured with —
//! shell and Wasm — and answers exactly as a single hook of that agent would.
//! The mapping per event is [`hookhost::dialect::reply`]'s.
//!
//! What reaches stderr matters: Claude Code passes a blocking hook's stderr to the
//! model as the reason. So hookhost's own diagnostics never go there; they travel
//! in `systemMessage` (shown to the user, not the model) and the log. Failures are
//! visible: a hook that failed (could not load, crashed, ran out of fuel or time,
//! broken settings) is reported in `systemMessage`, or — when nothing else is to be
//! said — as Claude's non-blocking error (exit 1, the cause on stderr).
//! `--fail-closed` turns any failure into a deny naming the cause.
//!
//! Run *inside* a hook of hookhost (`HOOKHOST_ACTIVE` names its parent or, through
//! `sh -c`, its grandparent), it answers `{}` at once instead of recursing. Any other
//! value — inherited by an agent that a hook started, or set by hand — is ignored:
//! the hooks run.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use hookhost::NESTED_ENV;
use hookhost::dialect::{Dialect, parse_event, reply};
use hookhost::{AggregatedHookResult, HookEvent};
use serde_json::{Map, Value};

use super::fire::read_input;
use crate::{Failure, Outcome, SettingsArgs};

pub fn run(settings: &SettingsArgs, fail_closed: bool) -> Outcome {
    if let Some(value) = std::env::var_os(NESTED_ENV) {
        if runs_inside_hookhost(&value.to_string_lossy()) {
            tracing::info!("`hookhost hook` runs as a hook of hookhost; not recursing");
            println!("{{}}");
            return Ok(ExitCode::SUCCESS);
        }
        tracing::info!(
            "ignoring {NESTED_ENV}={:?}: it does not name the process that started this one",
            value.to_string_lossy()
        );
    }
    let input = read_input().map_err(|e| Failure::of(HOOK, format_args!("{e:#}")))?;
    if input.is_empty() {
        return Err(Failure::of(
            HOOK,
            "stdin is empty; expected the agent's hook input (a JSON object with \
             hook_event_name) — register `hookhost hook` as a command hook of the agent",
        ));
    }
    let name = match input.get("hook_event_name").and_then(Value::as_str) {
        Some(name) if !name.is_empty() => name.to_owned(),
        _ => {
            return Err(Failure::of(
                HOOK,
                "the input has no hook_event_name; is `hookhost hook` registered as a hook of \
                 Claude Code, Gemini CLI or LLxprt Code?",
            ));
        }
    };
    let (event, dialect) = match parse_event(&name) {
        // Names both dialects share (SessionStart …) are ambiguous; Claude's stdin
        // has `permission_mode`.
        Some((event, _)) if input.contains_key("permission_mode") => (event, Dialect::Claude),
        Some(known) => known,
        None if input.contains_key("permission_mode") => (HookEvent::Other, Dialect::Claude),
        None => (HookEvent::Other, Dialect::Llxprt),
    };
    let project_dir = default_project_dir(&input);
    let result = fire(settings, project_dir, event, dialect, &name, input);
    let (result, fail_closed) = match result {
        Ok((result, by_settings)) => (result, fail_closed || by_settings),
        Err(e) => {
            let cause = format!("hookhost could not run the hooks: {e:#}");
            let mut result = AggregatedHookResult::empty();
            result.success = false;
            result.errors.push(cause);
            (result, fail_closed)
        }
    };
    Ok(answer(event, dialect, &name, result, fail_closed))
}

/// How this command's failures are prefixed.
const HOOK: &str = "hookhost hook";

/// Builds the system and fires once; load problems are logged, and the errors among
/// them (a file that does not parse, hooks that will not run) join `errors`. Also
/// says whether the settings ask for fail-closed (`tools.hookFailClosed`).
fn fire(
    settings: &SettingsArgs,
    project_dir: PathBuf,
    event: HookEvent,
    dialect: Dialect,
    name: &str,
    mut input: Map<String, Value>,
) -> anyhow::Result<(AggregatedHookResult, bool)> {
    let system = settings.builder_in(project_dir).only_event(event).build();
    let mut load_errors = Vec::new();
    for d in system.diagnostics() {
        if d.is_error() || d.unenforced {
            tracing::warn!("{d}");
            load_errors.push(d.message.clone());
        } else {
            tracing::info!("{d}");
        }
    }
    let runtime = super::fire_runtime(system.hook_count(name))?;
    let mut result = if event == HookEvent::Other {
        runtime.block_on(system.fire(name, input))
    } else {
        let note = dialect.prepare_input(event, &mut input);
        let mut result = runtime.block_on(system.fire(event, input));
        result.warnings.extend(note);
        result
    };
    runtime.shutdown_background();
    result.errors.splice(0..0, load_errors);
    Ok((result, system.fail_closed()))
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

fn answer(
    event: HookEvent,
    dialect: Dialect,
    name: &str,
    result: AggregatedHookResult,
    fail_closed: bool,
) -> ExitCode {
    for warning in &result.warnings {
        tracing::warn!("{warning}");
    }
    let reply = reply(event, dialect, name, result, fail_closed);
    if let Some(line) = &reply.stderr {
        eprintln!("{line}");
    }
    if let Some(line) = &reply.stdout {
        let _ = writeln!(std::io::stdout(), "{line}");
    }
    ExitCode::from(reply.exit_code)
}
