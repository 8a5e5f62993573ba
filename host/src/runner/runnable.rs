//! One hook: the entry as configured, and what runs, built from it once.

use std::sync::Arc;

use super::{HookFailure, RawOutcome, RunContext, apply_policy, interpret, run_command};
use crate::config::{HookEntry, HookKind};
use crate::result::HookExecutionResult;

/// The executable part of a hook.
#[derive(Debug)]
pub enum Runner {
    /// A shell command.
    Command(String),
    /// A loaded Wasm plugin (never made without the `plugins` feature, where
    /// [`crate::plugins::Plugin`] has no values).
    #[cfg_attr(not(feature = "plugins"), allow(dead_code))]
    Plugin(Arc<crate::plugins::Plugin>),
    /// A plugin that could not be loaded; every run fails with this.
    Broken(HookFailure),
}

/// One hook, ready to run: its entry (event, matcher, settings, where it was
/// configured — for planning and reports) and its runner. Running needs only the
/// runner, the timeout and the run context; the rest is applied after
/// ([`apply_policy`]).
#[derive(Debug)]
pub struct RunnableHook {
    /// The hook as configured.
    pub entry: HookEntry,
    /// What runs.
    pub runner: Runner,
}

impl RunnableHook {
    /// Runs the hook once with `input` on stdin: what happened.
    pub async fn run(&self, input: Arc<[u8]>, ctx: &RunContext) -> RawOutcome {
        let timeout = self.entry.spec.timeout;
        match &self.runner {
            Runner::Command(command) => run_command(command, timeout, &input, ctx).await,
            Runner::Plugin(plugin) => plugin.run(input, timeout, ctx).await,
            Runner::Broken(failure) => RawOutcome::failed(failure.clone()),
        }
    }

    /// Runs the hook, interprets the outcome and applies its settings.
    pub async fn execute(&self, input: Arc<[u8]>, ctx: &RunContext) -> HookExecutionResult {
        let raw = self.run(input, ctx).await;
        self.settle(raw)
    }

    /// Interprets an outcome of this hook and applies its settings.
    pub fn settle(&self, raw: RawOutcome) -> HookExecutionResult {
        let plugin = matches!(self.entry.spec.kind, HookKind::Plugin(_));
        apply_policy(self, interpret(raw, &self.describe(), plugin))
    }

    /// A short description for messages: `command "x.sh"` or `plugin "guard.wasm"`.
    pub fn describe(&self) -> String {
        let spec = &self.entry.spec;
        match &spec.kind {
            HookKind::Command { .. } => format!("command hook {:?}", spec.name),
            HookKind::Plugin(_) => format!("plugin hook {:?}", spec.name),
        }
    }
}
