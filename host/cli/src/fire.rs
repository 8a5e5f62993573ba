//! `hookhost fire EVENT`: one event from stdin, the aggregated result on stdout.
//! What goes to stderr for a human (diagnostics, notes, `--explain`, the env file
//! hooks wrote) is [`terminal_safe`]; stdout is JSON.

use std::io::{Read, Write};
use std::process::ExitCode;

use anyhow::Context;
use hookhost::dialect::Dialect;
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
    let (bytes, mut input) = read_input().map_err(Failure::chain)?;
    let notes = prepare(event, dialect, &mut input);
    for note in &notes {
        eprintln!("hookhost: warning: {}", terminal_safe(note));
    }
    let mode = crate::detach::mode(run_background);
    Ok(match fire(event, settings, input, explain, notes, mode) {
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

/// Makes an input given in `dialect` canonical before it is fired as `event`;
/// returns what the caller should be told (for the result's `warnings`).
pub fn prepare(event: HookEvent, dialect: Dialect, input: &mut Map<String, Value>) -> Vec<String> {
    let mut notes = Vec::new();
    notes.extend(event_name_mismatch(event, dialect, input));
    notes.extend(dialect.prepare_input(event, input));
    notes
}

/// A body whose `hook_event_name` names another event than the one fired: the
/// hooks would read the wrong event from their stdin. The fired event wins, said.
fn event_name_mismatch(
    event: HookEvent,
    dialect: Dialect,
    input: &mut Map<String, Value>,
) -> Option<String> {
    let given = input.get("hook_event_name")?.as_str()?.to_owned();
    let fired = dialect.event_name(event).unwrap_or(event.as_str());
    if given == fired {
        return None;
    }
    input.insert("hook_event_name".to_owned(), Value::from(fired));
    Some(format!(
        "the input's hook_event_name is {given:?} but {fired} was fired; hooks see {fired:?}"
    ))
}

/// The event's input from stdin, as read and as one JSON object (read as JavaScript
/// wrote it, see [`hookhost::json_input`]), or nothing (`{}`).
fn read_input() -> anyhow::Result<(Vec<u8>, Map<String, Value>)> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .context("cannot read the event from stdin")?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok((bytes, Map::new()));
    }
    match hookhost::json_input::parse(&bytes).context("stdin is not valid JSON")? {
        Value::Object(map) => Ok((bytes, map)),
        _ => anyhow::bail!("stdin must be one JSON object with the event's fields"),
    }
}

fn fire(
    event: HookEvent,
    settings: &SettingsArgs,
    input: Map<String, Value>,
    explain: bool,
    notes: Vec<String>,
    background: hookhost::BackgroundMode,
) -> anyhow::Result<(bool, bool)> {
    let system = settings
        .builder()
        .only_event(event)
        .background(background)
        .build();
    let result = fire_built(&system, event, input, notes)?;
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

/// Reports load errors (stderr and `errors`) and fires once.
fn fire_built(
    system: &HookSystem,
    event: HookEvent,
    input: Map<String, Value>,
    notes: Vec<String>,
) -> anyhow::Result<AggregatedHookResult> {
    for diagnostic in system.diagnostics() {
        eprintln!("hookhost: {}", terminal_safe(&diagnostic.to_string()));
    }
    let runtime = super::fire_runtime(system.hook_count(event))?;
    let result = runtime.block_on(fire_on(system, event, input, notes));
    // Hooks may still hold the runtime's worker threads (e.g. a plugin past its
    // deadline); do not wait for them.
    runtime.shutdown_background();
    Ok(result)
}

/// The result `hookhost fire` prints, fired on a built `system` (also `serve
/// --http`'s `POST /fire/EVENT`): the load errors first in `errors`, so that a
/// policy that never ran is not mistaken for one that allowed, and `notes` (from
/// [`prepare`]) first in `warnings`.
pub async fn fire_on(
    system: &HookSystem,
    event: HookEvent,
    input: Map<String, Value>,
    notes: Vec<String>,
) -> AggregatedHookResult {
    let load_errors = system.load_errors();
    let mut result = system.fire(event, input).await;
    if !load_errors.is_empty() {
        result.errors.splice(0..0, load_errors);
    }
    result.warnings.splice(0..0, notes);
    result
}
