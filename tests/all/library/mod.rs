//! The Rust API (CONTRACT §3): build a `HookSystem` once, fire many times.
//!
//! One file per subject, the helpers they share here:
//! * `api` — firing: blocks and rewrites, the fast-path check, `fire_blocking`, typed
//!   inputs, borrowed inputs, event names;
//! * `builder` — the builder's switches: `enable_hooks`, session and transcript, the
//!   output cap, sticky blocks; diagnostics and the hook listing;
//! * `concurrency` — one system fired concurrently, one `.wasm` shared by many hooks,
//!   polling, overlapping and cancelled parallel fires;
//! * `functions` — function hooks on the builder and for the session;
//! * `report` — the load report, `fire_call`, and event names detected as agents send them.

mod api;
mod builder;
mod concurrency;
mod functions;
mod report;

use std::path::PathBuf;

use hookhost::HookSystem;
use serde_json::{Map, Value};

use crate::common::Project;

fn object(v: Value) -> Map<String, Value> {
    v.as_object().cloned().expect("a JSON object")
}

fn build(p: &Project, settings: &PathBuf) -> HookSystem {
    HookSystem::builder()
        .project_dir(p.dir())
        .settings_files([settings])
        .build()
}
