//! Adversarial hooks, plugins and inputs: each test pins the exact outcome (decision,
//! error text, exit code, elapsed bound, leftover processes).
//!
//! One file per subject, the helpers they share here:
//! * `process` — command hooks: fork bombs, early-closed pipes, huge or garbled output;
//! * `plugin_limits` — plugin fuel, memory and time limits at and just past their bounds,
//!   memory and table bombs, huge data sections;
//! * `plugin_modules` — crafted plugin files: out-of-bounds accesses, a module importing
//!   all of preview 1, crafted and truncated modules, FIFOs and devices as plugin paths;
//! * `inputs` — settings files and events: devices, huge and deeply nested ones.
//!
//! The crafted core modules are written as WAT text and compiled by the `wat` crate;
//! only files that are deliberately not valid Wasm are written as raw bytes.
//!
//! Covered elsewhere, not repeated here:
//! * a hook that ignores SIGTERM and never exits — `crate::process::a_hook_that_ignores_sigterm_is_killed_after_the_grace`;
//! * a daemon that keeps the pipes — `crate::process::a_background_child_holding_the_pipes_does_not_hold_the_answer`
//!   (and one that detached its stdio: `crate::process::a_daemon_that_detached_its_stdio_is_left_alone`);
//! * 20 MiB on stdout / stderr, endless output, invalid UTF-8 — `crate::process`;
//! * a non-wasm file, a truncated component, a directory as plugin path —
//!   `plugin::files::missing_non_wasm_and_directory_paths_fail_with_their_cause`;
//! * the sockets fixture (every socket call denied) — `plugin::sandbox::sockets_are_denied`;
//! * deadlines of spinning and sleeping guests — `plugin::limits::deadline_*`;
//! * empty / non-JSON / non-object settings files — `check::file_level_problems`;
//!   wrong types at every field — `check::wrong_types_at_group_and_hook_fields`;
//!   unknown events — `check::an_unknown_event_is_an_error_and_the_known_ones_load`;
//!   invalid regexes — `matchers::an_invalid_regex_matches_the_tool_name_exactly_and_warns`;
//! * event input that is not an object — `cli::stdin_that_is_not_a_json_object_is_a_usage_error`.

mod inputs;
mod plugin_limits;
mod plugin_modules;
mod process;

use std::path::Path;
use std::time::Duration;

use hookhost::EngineOptions;
use hookhost::internals::WasmEngine;
use hookhost::{HookEvent, HookSystem};
use serde_json::{Map, Value, json};

use crate::common::{Project, group};

/// The SIGTERM → SIGKILL grace.
const KILL_GRACE: Duration = Duration::from_secs(5);
/// A generous allowance for a loaded machine.
const MARGIN: Duration = Duration::from_secs(10);

fn object(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap()
}

fn write_file(path: &str) -> Map<String, Value> {
    object(json!({"tool_name": "write_file", "tool_input": {"path": path}}))
}

/// A marker unique to this test process and call, for finding processes by argv.
fn marker(what: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!("hookhost-{what}-{}-{nanos}", std::process::id())
}

fn build(p: &Project, settings: &Path, cache: bool) -> HookSystem {
    HookSystem::builder()
        .project_dir(p.dir())
        .settings_files([settings])
        .session_id("adversarial")
        .engine_options(EngineOptions {
            cache_dir: cache
                .then(|| format!("{}/plugin-cache", env!("CARGO_TARGET_TMPDIR")).into()),
            ..EngineOptions::default()
        })
        .build()
}

fn engine() -> WasmEngine {
    WasmEngine::new(&EngineOptions {
        cache_dir: Some(format!("{}/plugin-cache", env!("CARGO_TARGET_TMPDIR")).into()),
        ..EngineOptions::default()
    })
    .unwrap()
}

/// Writes `bytes` as `name` in the project and fires one plugin hook on it.
async fn fire_module(
    p: &Project,
    name: &str,
    bytes: &[u8],
    extra: Value,
) -> hookhost::AggregatedHookResult {
    let path = p.write(name, bytes);
    let mut hook = json!({"type": "plugin", "path": path});
    for (k, v) in extra.as_object().unwrap() {
        hook[k] = v.clone();
    }
    let settings = p.settings(json!({"BeforeTool": [group(vec![hook])]}));
    let system = build(p, &settings, false);
    system.fire(HookEvent::BeforeTool, write_file("a")).await
}

fn only_error(result: &hookhost::AggregatedHookResult) -> &str {
    assert!(!result.is_blocked(), "{:?}", result.final_output);
    assert_eq!(result.errors.len(), 1, "{:?}", result.errors);
    &result.errors[0]
}

/// `bytes` as a WAT string literal, every byte escaped (`"\a5\01…"`), for data
/// segments of arbitrary bytes.
fn wat_bytes(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(3 * bytes.len() + 2);
    text.push('"');
    for byte in bytes {
        text.push('\\');
        text.push(char::from(HEX[usize::from(byte >> 4)]));
        text.push(char::from(HEX[usize::from(byte & 0x0f)]));
    }
    text.push('"');
    text
}

fn make_fifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}
