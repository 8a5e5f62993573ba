//! Plugin hooks: real wasmtime, guests built from source (`hookhost_tests`).
//!
//! Every CLI run shares one compile cache (under the target dir) so each guest is
//! compiled once per test run, not once per test.
//!
//! One file per subject, the helpers they share here:
//! * `semantics` — what a plugin's answer and exit mean, alone and beside command hooks,
//!   in chains, deduplicated, concurrent; the example policies;
//! * `limits` — fuel, deadlines, memory limits, traps, big output, `failurePolicy`;
//! * `sandbox` — preopens, environment, args and sockets a guest may (not) reach;
//! * `files` — plugin files: sha256 pins, bad paths, relative paths, the compile cache.

mod files;
mod limits;
mod one_policy;
mod sandbox;
mod semantics;

use hookhost_tests as guests;
use serde_json::{Value, json};

use crate::common::{Fired, Project, cache_dir};

fn plugin(path: &str) -> Value {
    json!({"type": "plugin", "path": path})
}

fn adversary(mode: &str) -> Value {
    json!({"type": "plugin", "path": guests::ADVERSARY, "args": [mode]})
}

fn with(mut hook: Value, extra: Value) -> Value {
    for (k, v) in extra.as_object().unwrap() {
        hook[k] = v.clone();
    }
    hook
}

fn fire(project: &Project, event: &str, input: Value) -> Fired {
    let cache = cache_dir();
    project.fire_with(event, input, &[], &[("HOOKHOST_CACHE_DIR", &cache)])
}

fn before_tool(tool_input: Value) -> Value {
    json!({"tool_name": "write_file", "tool_input": tool_input})
}

fn errors(fired: &Fired) -> String {
    fired.out["errors"].to_string()
}
