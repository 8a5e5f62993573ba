//! The result of one hook run as a fire reports it: who ran, what happened, and
//! what its answer means once policy is applied.

use std::time::Duration;

use crate::output::HookOutput;

/// The interpreted result of one hook run.
#[derive(Debug, Clone)]
pub struct HookExecutionResult {
    /// The hook's display name.
    pub hook_name: String,
    /// `"command"`, `"plugin"`, `"http"`, `"prompt"`, or a type not run.
    pub hook_type: &'static str,
    /// The settings file it came from (its label).
    pub source: String,
    /// Where in the file, e.g. `hooks.BeforeTool[0].hooks[1]`.
    pub location: String,
    /// Where it is configured (`None` for a function hook): the same place as its
    /// load diagnostics', so a caller tells a load problem's run failure from another.
    pub at: Option<crate::config::HookAt>,
    /// The matcher that selected it (`*` for all).
    pub matcher: String,
    /// `true` for a hook in monitor mode: its block or stop is reported, not enforced.
    pub monitor: bool,
    /// Fuel a plugin burned.
    pub fuel_used: Option<u64>,
    /// Whether the hook exited 0 (false for a block by exit 2, and for failures).
    pub success: bool,
    /// Its answer, if it gave one that counts.
    pub output: Option<HookOutput>,
    /// Its exit code, when it exited.
    pub exit_code: Option<i32>,
    /// Its stdout, decoded.
    pub stdout: String,
    /// Its stderr, decoded.
    pub stderr: String,
    /// How long it ran.
    pub duration: Duration,
    /// How long it waited for a process or pool slot before it started.
    pub queued: Duration,
    /// Why it failed, when it did.
    pub error: Option<String>,
    /// Things worth a warning that did not make it fail.
    pub warnings: Vec<String>,
    /// Its `statusMessage`: what the agent shows while it runs.
    pub status_message: Option<String>,
    /// For a plugin hook: which module ran (for a rollout's review: the trace,
    /// `--explain`, OpenTelemetry).
    pub plugin: Option<PluginIdentity>,
    /// Lines a plugin logged through `wasi:logging` (and hookhost's lines about
    /// its grants, such as a denied request), bounded per call.
    pub logs: super::GuestLogs,
}

/// Which Wasm module a plugin hook ran.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginIdentity {
    /// The module file's SHA-256, `sha256:<hex>`.
    pub digest: String,
    /// The `oci://` reference it was installed from, for a `source` hook.
    pub reference: Option<String>,
}

impl HookExecutionResult {
    /// A short excerpt of stderr, for reports.
    pub fn stderr_excerpt(&self) -> &str {
        crate::text::prefix(self.stderr.trim(), 160)
    }

    /// Whether the hook's answer blocks (or, in monitor mode, would block).
    pub fn is_block(&self) -> bool {
        self.output.as_ref().is_some_and(HookOutput::is_block)
    }

    /// Whether the answer is enforced: it blocks and the hook is not monitoring.
    pub fn blocks(&self) -> bool {
        !self.monitor && self.is_block()
    }

    /// The answer as it counts for aggregation and chaining: a monitor-mode hook's
    /// blocks and stops are removed (they are only reported).
    pub fn enforced_output(&self) -> Option<HookOutput> {
        let mut output = self.output.clone()?;
        if self.monitor {
            if output.is_block() {
                output.reason = None;
            }
            output.decision = None;
            output.continue_ = None;
            output.stop_reason = None;
            if let Some(specific) = &mut output.hook_specific_output {
                specific.remove("permissionDecision");
            }
        }
        Some(output)
    }
}
