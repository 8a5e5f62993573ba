//! Where hooks come from: discovery, priority, deduplication, extensions
//! (seeds/001 §6.3–6.4, §7.9; CONTRACT §1–2).
//!
//! One file per subject, the helpers they share here:
//! * `dedup` — the same command runs once per event, its highest-priority instance;
//! * `discovery` — the files found and their ranks: explicit files, project, user,
//!   system, extensions;
//! * `files` — which file's `enableHooks` counts, broken and missing files, comments.

mod dedup;
mod discovery;
mod files;

use serde_json::{Value, json};

fn tool(name: &str) -> Value {
    json!({"tool_name": name, "tool_input": {}})
}
