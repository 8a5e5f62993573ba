//! Watching fires from outside: an embedder's [`FireObserver`] sees every fire's
//! input and result as soon as the aggregate is known — how `hookhost` exports
//! OpenTelemetry spans without the library depending on an exporter.

use std::time::SystemTime;

use serde_json::{Map, Value};

use crate::event::HookEvent;
use crate::result::AggregatedHookResult;

/// Told about every fire of a [`crate::HookSystem`] that ran hooks, after its
/// result is aggregated and before it is returned. It runs on the firing task:
/// it must not block (hand work to a queue or another thread).
pub trait FireObserver: Send + Sync + std::fmt::Debug {
    /// `event` fired at `started` with `input` (the fire's input with the base
    /// fields completed: the agent's `session_id`, `tool_name`, `tool_input`)
    /// gave `result`.
    fn fired(
        &self,
        event: HookEvent,
        started: SystemTime,
        input: &Map<String, Value>,
        result: &AggregatedHookResult,
    );
}
