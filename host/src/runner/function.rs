//! Function hooks (seeds/003 "Executors: Function"): a Rust closure registered by
//! an embedder, run in-process with the same input and the same meaning of its
//! answer as a command's exit code and stdout — so it is planned, chained and
//! aggregated like every other hook.

use std::sync::Arc;
use std::time::Instant;

use serde_json::{Map, Value};

use super::{Captured, HookFailure, RawOutcome, Status};

/// What a function hook answers.
#[derive(Debug, Clone, PartialEq)]
pub enum FunctionAnswer {
    /// Nothing to say: the operation proceeds (a command's exit 0 with no output).
    Continue,
    /// The hook's JSON answer (a command's exit 0 with this on stdout).
    Answer(Value),
    /// Block with this reason (a command's exit 2 with it on stderr).
    Block(String),
    /// The hook failed (a command's other exit codes): `failurePolicy` applies.
    Fail(String),
}

/// The closure of a function hook: it gets the hook's input (in the hook's
/// dialect) and must not block — it runs on the fire's task.
pub type HookFn = dyn Fn(&Map<String, Value>) -> FunctionAnswer + Send + Sync;

/// A function hook's closure, shareable and printable.
#[derive(Clone)]
pub struct FunctionHook(pub Arc<HookFn>);

impl std::fmt::Debug for FunctionHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FunctionHook(..)")
    }
}

/// Runs `hook` with the serialised `input`.
pub(crate) fn run(hook: &FunctionHook, input: &[u8]) -> RawOutcome {
    let start = Instant::now();
    let map = match serde_json::from_slice::<Value>(input) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    };
    let text = |s: String| {
        let bytes = s.into_bytes();
        Captured {
            total: bytes.len() as u64,
            bytes,
        }
    };
    let (status, stdout, stderr) = match (hook.0)(&map) {
        FunctionAnswer::Continue => (Status::Exited(0), Captured::default(), Captured::default()),
        FunctionAnswer::Answer(value) => (
            Status::Exited(0),
            text(value.to_string()),
            Captured::default(),
        ),
        FunctionAnswer::Block(reason) => (Status::Exited(2), Captured::default(), text(reason)),
        FunctionAnswer::Fail(why) => (
            Status::Failed(HookFailure::Request(format!("the function failed: {why}"))),
            Captured::default(),
            Captured::default(),
        ),
    };
    RawOutcome {
        status,
        stdout,
        stderr,
        duration: start.elapsed(),
        queued: std::time::Duration::ZERO,
        fuel_used: None,
        logs: Default::default(),
    }
}
