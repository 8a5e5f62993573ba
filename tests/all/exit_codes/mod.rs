//! seeds/001 §9, row by row: what each way a hook can end means, and that failures
//! fail open (or closed with `failurePolicy: "block"`).
//!
//! One file per subject:
//! * `nothing_runs` — hooks disabled, none configured, no settings, no match;
//! * `exit_0` — exit 0 with JSON, a block, plain text, nothing, double-encoded or
//!   broken JSON, and stderr;
//! * `exit_2` — exit 2 blocks, its reason from stdout JSON or stderr;
//! * `failures` — other exits, timeouts, signals and spawn failures fail open;
//!   `failurePolicy: "block"` fails closed.

mod exit_0;
mod exit_2;
mod failures;
mod nothing_runs;

use serde_json::json;

fn write_file() -> serde_json::Value {
    json!({"tool_name": "write_file", "tool_input": {"file_path": "/etc/passwd", "content": "x"}})
}
