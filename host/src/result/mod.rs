//! `AggregatedHookResult`: what one fire produced, and helpers that read it the way a
//! caller applies it (seeds/002 `AggregatedHookResult`, `ProcessedHookResult`).

use std::time::Duration;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

mod execution;
mod explain;
mod guest_log;

pub use execution::{HookExecutionResult, PluginIdentity};
/// Who wrote a log line; only plugins log (`runner/wasm/logging.rs`).
#[cfg(feature = "plugins")]
pub use guest_log::LogOrigin;
pub use guest_log::{GuestLog, GuestLogs};

use crate::output::HookOutput;

/// The result of firing one event.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct AggregatedHookResult {
    /// True when every hook exited 0 (seeds/001 §7.2): false when a hook blocked by
    /// exit 2 (a block, not an error: `errors` stays empty) or failed (crashed, timed
    /// out, exited with another code). Never decide on it: use [`Self::is_blocked`].
    pub success: bool,
    /// The merged answer; empty when no hook ran.
    pub final_output: HookOutput,
    /// Each hook's answer, in plan order (hooks that gave none are absent).
    pub all_outputs: Vec<HookOutput>,
    /// What went wrong, one message per problem.
    pub errors: Vec<String>,
    /// What was odd but did not fail a hook (truncated output, ignored fields).
    pub warnings: Vec<String>,
    /// Wall-clock time of the whole fire.
    pub total_duration: Duration,
    /// Per-hook details, in plan order.
    pub executions: Vec<HookExecutionResult>,
    /// Hooks started in the background (`async`, `asyncRewake`): not waited for,
    /// not in the answer.
    pub background: Vec<BackgroundHook>,
    /// Background hooks matched but were left to another process
    /// ([`crate::BackgroundMode::Defer`]).
    pub background_deferred: bool,
}

/// A hook a fire started in the background.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct BackgroundHook {
    /// The hook's display name.
    pub hook_name: String,
    /// Its type.
    pub hook_type: &'static str,
    /// `"async"` (answer discarded) or `"asyncRewake"` (a block becomes a notice).
    pub mode: &'static str,
    /// Its `statusMessage`.
    pub status_message: Option<String>,
    /// The settings file it comes from (its label) and where in it.
    pub source: String,
}

/// The same as [`AggregatedHookResult::empty`]: no hook ran, so the fire succeeded.
impl Default for AggregatedHookResult {
    fn default() -> Self {
        AggregatedHookResult::empty()
    }
}

impl AggregatedHookResult {
    /// The result of a fire in which no hook ran. Allocates nothing.
    pub fn empty() -> AggregatedHookResult {
        AggregatedHookResult {
            success: true,
            final_output: HookOutput {
                decision: None,
                reason: None,
                continue_: None,
                stop_reason: None,
                suppress_output: None,
                system_message: None,
                hook_specific_output: None,
                extra: serde_json::Map::new(),
            },
            all_outputs: Vec::new(),
            errors: Vec::new(),
            warnings: Vec::new(),
            total_duration: Duration::ZERO,
            executions: Vec::new(),
            background: Vec::new(),
            background_deferred: false,
        }
    }

    /// Whether the operation must not happen.
    pub fn is_blocked(&self) -> bool {
        self.final_output.is_block()
    }

    /// The reason of a block.
    pub fn block_reason(&self) -> Option<&str> {
        self.is_blocked()
            .then(|| self.final_output.effective_reason())
            .flatten()
    }

    /// Whether the agent must stop (`continue: false`).
    pub fn should_stop(&self) -> bool {
        self.final_output.stops()
    }

    /// Why the agent must stop.
    pub fn stop_reason(&self) -> Option<&str> {
        self.final_output.stop_reason.as_deref()
    }

    /// The system message to inject.
    pub fn system_message(&self) -> Option<&str> {
        self.final_output.system_message.as_deref()
    }

    /// Whether the output must be hidden from the user.
    pub fn suppress_output(&self) -> bool {
        self.final_output.suppress_output == Some(true)
    }

    /// Context to append to the tool result or prompt.
    pub fn additional_context(&self) -> Option<&str> {
        self.final_output
            .specific("additionalContext")
            .and_then(Value::as_str)
    }

    /// The replacement `tool_input` (BeforeTool).
    pub fn tool_input(&self) -> Option<&Value> {
        self.final_output.specific("tool_input")
    }

    /// The modified `llm_request` (BeforeModel).
    pub fn llm_request(&self) -> Option<&Value> {
        self.final_output.specific("llm_request")
    }

    /// The synthetic or modified `llm_response` (BeforeModel, AfterModel).
    pub fn llm_response(&self) -> Option<&Value> {
        self.final_output.specific("llm_response")
    }

    /// A `hookSpecificOutput` field read as a typed value, e.g.
    /// `specific_as::<LlmResponse>("llm_response")`; `None` when absent or of
    /// another shape.
    pub fn specific_as<T: serde::de::DeserializeOwned>(&self, key: &str) -> Option<T> {
        serde_json::from_value(self.final_output.specific(key)?.clone()).ok()
    }

    /// The merged `toolConfig` (BeforeToolSelection).
    pub fn tool_config(&self) -> Option<&Value> {
        self.final_output.specific("toolConfig")
    }
}

impl Serialize for AggregatedHookResult {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("success", &self.success)?;
        map.serialize_entry("finalOutput", &self.final_output)?;
        map.serialize_entry("allOutputs", &self.all_outputs)?;
        map.serialize_entry("errors", &self.errors)?;
        if !self.warnings.is_empty() {
            map.serialize_entry("warnings", &self.warnings)?;
        }
        map.serialize_entry("totalDuration", &millis(self.total_duration))?;
        map.serialize_entry("hooks", &Hooks(&self.executions))?;
        if !self.background.is_empty() {
            let background: Vec<Value> = self
                .background
                .iter()
                .map(|b| {
                    serde_json::json!({
                        "name": b.hook_name,
                        "type": b.hook_type,
                        "mode": b.mode,
                        "statusMessage": b.status_message,
                        "source": b.source,
                    })
                })
                .collect();
            map.serialize_entry("background", &background)?;
        }
        if self.background_deferred {
            map.serialize_entry("backgroundDetached", &true)?;
        }
        map.end()
    }
}

/// The `hooks` array, serialised from the borrowed executions.
struct Hooks<'a>(&'a [HookExecutionResult]);

impl Serialize for Hooks<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(ExecutionSummary))
    }
}

fn millis(d: Duration) -> f64 {
    (d.as_secs_f64() * 1_000_000.0).round() / 1000.0
}

/// The per-hook entry of the `hooks` array (a hookhost extension of the contract),
/// also one line of the trace: serialised straight from the borrowed result, with
/// no `Value` built on the way (`serve` writes one per hook of every answer).
pub struct ExecutionSummary<'a>(pub &'a HookExecutionResult);

impl Serialize for ExecutionSummary<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let e = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("name", &e.hook_name)?;
        map.serialize_entry("type", e.hook_type)?;
        map.serialize_entry("source", &e.source)?;
        map.serialize_entry("location", &e.location)?;
        map.serialize_entry("matcher", &e.matcher)?;
        map.serialize_entry("success", &e.success)?;
        map.serialize_entry("exitCode", &e.exit_code)?;
        map.serialize_entry("duration", &millis(e.duration))?;
        map.serialize_entry("blocked", &e.blocks())?;
        if let Some(error) = &e.error {
            map.serialize_entry("error", error)?;
        }
        if !e.queued.is_zero() {
            // Waiting for a process or pool slot; not part of `duration` or the timeout.
            map.serialize_entry("queuedMs", &millis(e.queued))?;
        }
        if let Some(fuel) = e.fuel_used {
            map.serialize_entry("fuelUsed", &fuel)?;
        }
        if e.monitor {
            map.serialize_entry("mode", "monitor")?;
            map.serialize_entry("wouldBlock", &e.is_block())?;
        }
        if let Some(plugin) = &e.plugin {
            map.serialize_entry("pluginDigest", &plugin.digest)?;
            if let Some(reference) = &plugin.reference {
                map.serialize_entry("pluginSource", reference)?;
            }
        }
        if !e.logs.lines.is_empty() {
            map.serialize_entry("logs", &LogLines(&e.logs.lines))?;
        }
        if e.logs.dropped > 0 {
            map.serialize_entry("logsDropped", &e.logs.dropped)?;
        }
        map.end()
    }
}

/// A plugin's log lines as `[{"level", "origin", "context", "message"}]`
/// (`origin`: `plugin` or `hookhost`, [`LogOrigin`]).
struct LogLines<'a>(&'a [GuestLog]);

impl Serialize for LogLines<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for line in self.0 {
            seq.serialize_element(&serde_json::json!({
                "level": line.level,
                "origin": line.origin.as_str(),
                "context": line.context,
                "message": line.message,
            }))?;
        }
        seq.end()
    }
}

/// [`ExecutionSummary`] as a JSON object, for callers that add fields to it.
pub fn execution_summary(e: &HookExecutionResult) -> Value {
    // Serialising into a `Value` cannot fail: every key is a string.
    serde_json::to_value(ExecutionSummary(e)).unwrap_or(Value::Null)
}
