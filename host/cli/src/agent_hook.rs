//! `hookhost hook`: hookhost as *one* hook inside any agent.
//!
//! Register `hookhost hook` as a command hook in Claude Code, Gemini CLI or LLxprt
//! Code. It reads the agent's hook stdin, takes the event from `hook_event_name`
//! (Claude or LLxprt/Gemini names; a name hookhost does not know runs the hooks
//! registered under it, generically), runs the hooks hookhost is configured with —
//! shell and Wasm — and answers exactly as a single hook of that agent would.
//! The call is read and answered by [`hookhost::dialect::AgentCall`] and fired by
//! [`HookSystem::fire_call`], as every door does; this file is the I/O.
//!
//! What reaches stderr matters: Claude Code passes a blocking hook's stderr to the
//! model as the reason. So hookhost's own diagnostics never go there; they travel
//! in `systemMessage` (shown to the user, not the model) and the log. Failures are
//! visible: a hook that failed (could not load, crashed, ran out of fuel or time,
//! broken settings) is reported in `systemMessage`, or — when nothing else is to be
//! said — as the non-blocking error (exit 1, the cause on stderr) of an agent
//! that shows no `systemMessage` (LLxprt Code; see `hookhost::dialect::reply`).
//! `--fail-closed` turns any failure into a deny naming the cause — an input it
//! cannot read too (not JSON, nested too deep, over [`MAX_INPUT`], empty): the block
//! of the event the input names as far as it can be read, where exit 1 would be a
//! non-blocking error and the tool call would run. The input is read as JavaScript
//! wrote it ([`hookhost::input::json`]: a lone surrogate escape is U+FFFD).
//!
//! Run *inside* a hook of hookhost (`HOOKHOST_ACTIVE` names its parent or, through
//! `sh -c`, its grandparent), it answers `{}` at once instead of recursing. Any other
//! value — inherited by an agent that a hook started, or set by hand — is ignored:
//! the hooks run.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use hookhost::dialect::{AgentCall, CallSource};
use hookhost::{AggregatedHookResult, HookEvent, HookSystem, NESTED_ENV};
use serde_json::{Map, Value};

use crate::{Failure, Outcome, SettingsArgs};

pub fn run(settings: &SettingsArgs, fail_closed: bool, run_background: bool) -> Outcome {
    if let Some(value) = std::env::var_os(NESTED_ENV) {
        if crate::nested::runs_inside_hookhost(&value.to_string_lossy()) {
            tracing::info!("`hookhost hook` runs as a hook of hookhost; not recursing");
            println!("{{}}");
            return Ok(ExitCode::SUCCESS);
        }
        tracing::info!(
            "ignoring {NESTED_ENV}={:?}: it does not name the process that started this one",
            value.to_string_lossy()
        );
    }
    let bytes = read_stdin();
    let parsed = match &bytes {
        Ok(bytes) => AgentCall::parse(bytes, CallSource::Stdin).map_err(|e| e.message),
        Err(cause) => Err(cause.clone()),
    };
    let (call, input) = match parsed {
        Ok(parsed) => parsed,
        Err(cause) => {
            let bytes = bytes.as_deref().unwrap_or_default();
            return unreadable(settings, fail_closed, bytes, cause);
        }
    };
    let project_dir = default_project_dir(&input);
    let mode = crate::detach::mode(run_background);
    let (result, fail_closed) = match fire(settings, project_dir, &call, input, mode) {
        Ok((result, by_settings)) => (result, fail_closed || by_settings),
        Err(e) => (
            failed(format!("hookhost could not run the hooks: {e:#}")),
            fail_closed,
        ),
    };
    let deferred = result.background_deferred;
    log_warnings(&result);
    let code = answer(call.reply(result, fail_closed, started_by_llxprt_code()));
    if deferred && let Ok(bytes) = &bytes {
        crate::detach::hand_over(bytes);
    }
    Ok(code)
}

/// The most of stdin read: as much as a request of `hookhost serve` may hold.
pub const MAX_INPUT: usize = hookhost::bus::MAX_LINE;

/// The agent's hook input: stdin, up to [`MAX_INPUT`] bytes.
fn read_stdin() -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(MAX_INPUT as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read the event from stdin: {e}"))?;
    if bytes.len() > MAX_INPUT {
        return Err(format!("stdin is longer than {MAX_INPUT} bytes"));
    }
    Ok(bytes)
}

/// The answer to an input that cannot be read (`cause`). Fail-closed (the flag, or
/// `tools.hookFailClosed` in the settings): the block a hook of the agent gives
/// for the event `bytes` name as far as they can be read ([`AgentCall::guess`]) —
/// exit 1 would be a non-blocking error, and the tool call would run. Otherwise
/// that non-blocking error, as always.
fn unreadable(settings: &SettingsArgs, fail_closed: bool, bytes: &[u8], cause: String) -> Outcome {
    if !(fail_closed || settings_fail_closed(settings)) {
        return Err(Failure::of(HOOK, cause));
    }
    let result = failed(format!("cannot read the agent's hook input: {cause}"));
    let call = AgentCall::guess(bytes);
    Ok(answer(call.reply(result, true, started_by_llxprt_code())))
}

/// Whether the settings turn fail-closed on (`tools.hookFailClosed`), read without
/// an input: the project dir from the agent's environment, else the working dir.
fn settings_fail_closed(settings: &SettingsArgs) -> bool {
    let project_dir = default_project_dir(&Map::new());
    settings
        .builder_in(project_dir)
        .only_event(HookEvent::Other)
        .build()
        .fail_closed()
}

/// Writes `reply` (stderr first, as a hook does) and gives its exit code.
fn answer(reply: hookhost::dialect::Reply) -> ExitCode {
    if let Some(line) = &reply.stderr {
        eprintln!("{line}");
    }
    if let Some(line) = &reply.stdout {
        let _ = writeln!(std::io::stdout(), "{line}");
    }
    ExitCode::from(reply.exit_code)
}

/// Whether LLxprt Code started this hook: it sets `LLXPRT_PROJECT_DIR` for every
/// hook (Gemini CLI, which shares the dialect, does not), and shows a hook that
/// exits 1 but never a `systemMessage`.
fn started_by_llxprt_code() -> bool {
    std::env::var_os("LLXPRT_PROJECT_DIR").is_some()
}

/// How this command's failures are prefixed.
const HOOK: &str = "hookhost hook";

/// Logs the load report (never on stderr: Claude Code would show it to the model).
fn log_report(system: &HookSystem) {
    for d in system.report().diagnostics() {
        if d.fails() || d.shown {
            tracing::warn!("{d}");
        } else {
            tracing::info!("{d}");
        }
    }
}

/// Logs a result's warnings (never on stderr, as [`log_report`]).
pub fn log_warnings(result: &AggregatedHookResult) {
    for warning in &result.warnings {
        tracing::warn!("{warning}");
    }
}

/// A result that holds nothing but `cause` as its failure (the hooks could not be
/// run at all): answered as any failure is, a deny when fail-closed.
pub fn failed(cause: String) -> AggregatedHookResult {
    let mut result = AggregatedHookResult::empty();
    result.success = false;
    result.errors.push(cause);
    result
}

/// Builds the system for this one call and fires it. Also says whether the
/// settings ask for fail-closed (`tools.hookFailClosed`).
fn fire(
    settings: &SettingsArgs,
    project_dir: PathBuf,
    call: &AgentCall,
    input: Map<String, Value>,
    background: hookhost::BackgroundMode,
) -> anyhow::Result<(AggregatedHookResult, bool)> {
    let system = settings
        .builder_in(project_dir)
        .only_event(call.event())
        .background(background)
        .build();
    log_report(&system);
    let runtime = super::fire_runtime(system.hook_count(call))?;
    let result = runtime.block_on(system.fire_call(call, input));
    runtime.shutdown_background();
    let fail_closed = system.fail_closed();
    // A one-shot process: the system's memory goes with it. Dropping it unmaps
    // every compiled plugin one by one (~3 % of a five-builtin process, perf);
    // nothing in it has to be flushed or closed.
    std::mem::forget(system);
    Ok((result, fail_closed))
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
