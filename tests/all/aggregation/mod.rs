//! Merging several hooks' answers (seeds/001 §7.3 and every example of §8.1).
//!
//! One file per subject, the helpers they share here:
//! * `model` — tool selection and the model events: last hook wins, plan order, sticky
//!   blocks;
//! * `blocking` — decisions on tool events: a block wins, every hook runs, permission
//!   decisions, `ask`;
//! * `fields` — the other fields: additional context, `continue`, `suppressOutput`,
//!   `clearContext`, several groups.

mod blocking;
mod fields;
mod model;

use serde_json::Value;

use crate::common::{Project, cmd};

/// A hook that prints `answer` as JSON.
fn answer(p: &Project, name: &str, answer: &Value) -> Value {
    let script = p.script(name, &format!("cat <<'EOF'\n{answer}\nEOF"));
    cmd(&script)
}
