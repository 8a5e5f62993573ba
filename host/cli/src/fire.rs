//! `hookhost fire EVENT`: one event from stdin, the aggregated result on stdout.
//! What goes to stderr for a human (diagnostics, notes, `--explain`, the env file
//! hooks wrote) is [`terminal_safe`]; stdout is JSON.

use std::io::{Read, Write};
use std::process::ExitCode;

use anyhow::Context;
use hookhost::dialect::{AgentCall, CallSource, Dialect};
use hookhost::{AggregatedHookResult, HookEvent, HookSystem, terminal_safe};
use serde_json::{Map, Value};

use crate::{Failure, Outcome, SettingsArgs};

pub fn run(
    event: HookEvent,
    dialect: Dialect,
    settings: &SettingsArgs,
    explain: bool,
    run_background: bool,
) -> Outcome {
    let (bytes, input) = read_input().map_err(Failure::chain)?;
    let call = AgentCall::fired(event, dialect);
    let mode = crate::detach::mode(run_background);
    Ok(match fire(&call, settings, input, explain, mode) {
        Ok((blocked, deferred)) => {
            if deferred {
                crate::detach::hand_over(&bytes);
            }
            ExitCode::from(if blocked { 2 } else { 0 })
        }
        Err(e) => {
            // Infrastructure errors fail open (seeds/001 §9), like a failed hook.
            eprintln!("hookhost: {}", terminal_safe(&format!("{e:#}")));
            let fallback = serde_json::json!({"success": false, "finalOutput": {},
                "allOutputs": [], "errors": [format!("{e:#}")], "totalDuration": 0});
            let _ = writeln!(std::io::stdout(), "{fallback}");
            ExitCode::SUCCESS
        }
    })
}

/// The event's input from stdin, as read and as one JSON object (read as JavaScript
/// wrote it, see [`hookhost::input::json`]), or nothing (`{}`).
fn read_input() -> anyhow::Result<(Vec<u8>, Map<String, Value>)> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .context("cannot read the event from stdin")?;
    let input = AgentCall::fired_input(&bytes, CallSource::Stdin)?;
    Ok((bytes, input))
}

fn fire(
    call: &AgentCall,
    settings: &SettingsArgs,
    input: Map<String, Value>,
    explain: bool,
    background: hookhost::BackgroundMode,
) -> anyhow::Result<(bool, bool)> {
    let system = settings
        .builder()
        .only_event(call.event())
        .background(background)
        .build();
    let result = fire_built(&system, call, input)?;
    report_env_file(&system);
    if explain {
        eprint!("{}", result.explain());
    }
    let mut stdout = std::io::stdout().lock();
    serde_json::to_writer(&mut stdout, &result)?;
    writeln!(stdout)?;
    stdout.flush()?;
    Ok((result.is_blocked(), result.background_deferred))
}

/// What SessionStart hooks wrote to the `CLAUDE_ENV_FILE` hookhost made, on stderr:
/// outside Claude Code nobody else would read it.
fn report_env_file(system: &HookSystem) {
    let Some(path) = system.env_file() else {
        return;
    };
    match std::fs::read_to_string(path) {
        // The hooks' lines, one per line as written, each made safe.
        Ok(text) if !text.trim().is_empty() => eprintln!(
            "hookhost: hooks wrote to CLAUDE_ENV_FILE {}:\n{}",
            path.display(),
            text.trim_end()
                .split('\n')
                .map(terminal_safe)
                .collect::<Vec<_>>()
                .join("\n")
        ),
        _ => {}
    }
}

/// Prints the load report and fires once; prints the result's warnings (the
/// call's notes first) for the human at the terminal.
fn fire_built(
    system: &HookSystem,
    call: &AgentCall,
    input: Map<String, Value>,
) -> anyhow::Result<AggregatedHookResult> {
    for diagnostic in system.report().diagnostics() {
        eprintln!("hookhost: {}", terminal_safe(&diagnostic.to_string()));
    }
    let runtime = super::fire_runtime(system.hook_count(call))?;
    let result = runtime.block_on(system.fire_call(call, input));
    // Hooks may still hold the runtime's worker threads (e.g. a plugin past its
    // deadline); do not wait for them.
    runtime.shutdown_background();
    for warning in &result.warnings {
        eprintln!("hookhost: warning: {}", terminal_safe(warning));
    }
    Ok(result)
}
