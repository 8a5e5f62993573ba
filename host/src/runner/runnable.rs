//! One hook: the entry as configured, and what runs, built from it once.

use std::sync::Arc;

use super::command_line::{CommandLine, PluginDirs};
use super::function::FunctionHook;
use super::hook_env::Visible;
use super::{HookFailure, RawOutcome, RunContext, apply_policy, interpret, run_command};
use crate::config::{HookEntry, HookKind, HttpConfig, PromptConfig};
use crate::result::HookExecutionResult;

/// The executable part of a hook.
#[derive(Debug)]
pub enum Runner {
    /// A command (shell command line or exec form).
    Command(CommandLine),
    /// A loaded Wasm plugin (never made without the `plugins` feature, where
    /// [`crate::plugins::Plugin`] has no values).
    #[cfg_attr(not(feature = "plugins"), allow(dead_code))]
    Plugin(Arc<crate::plugins::Plugin>),
    /// An HTTP endpoint.
    Http(HttpConfig),
    /// An LLM verdict.
    Prompt(PromptConfig),
    /// A closure of the embedder.
    Function(FunctionHook),
    /// A hook that cannot run (a plugin that could not be loaded, a type hookhost
    /// does not run …); every run fails with this.
    Broken(HookFailure),
}

impl Runner {
    /// The runner of a hook that is not a plugin (plugins are loaded by the
    /// builder, which owns the engine).
    pub fn build(kind: &HookKind, entry: &HookEntry) -> Runner {
        match kind {
            HookKind::Command(config) => {
                Runner::Command(CommandLine::prepare(config, &plugin_dirs(entry)))
            }
            HookKind::Http(config) => Runner::Http(config.clone()),
            HookKind::Prompt(config) => Runner::Prompt(config.clone()),
            HookKind::Unsupported(u) => Runner::Broken(HookFailure::NotRun(format!(
                "type {:?}: {}",
                u.type_name, u.reason
            ))),
            HookKind::Plugin(_) => Runner::Broken(HookFailure::NotRun(
                "a plugin is loaded by the hook system's builder".to_owned(),
            )),
            HookKind::Function(name) => Runner::Broken(HookFailure::NotRun(format!(
                "function {name:?} has no closure"
            ))),
        }
    }
}

/// The plugin directories of the file `entry` comes from: an extension's or a
/// Claude Code plugin's directory and its data directory.
fn plugin_dirs(entry: &HookEntry) -> PluginDirs {
    let source = &entry.source;
    let root = match &source.kind {
        crate::config::SourceKind::Extension(_) => Some(source.base_dir.clone()),
        _ => source.plugin_root.clone(),
    };
    let data = root.as_ref().and_then(|_| source.plugin_data_dir());
    PluginDirs {
        root,
        data,
        options: source.plugin_options.clone(),
    }
}

/// One hook, ready to run: its entry (event, matcher, settings, where it was
/// configured — for planning and reports) and its runner. Running needs only the
/// runner, the timeout and the run context; the rest is applied after
/// (`apply_policy`).
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
            Runner::Command(line) => run_command(line, timeout, &input, ctx).await,
            Runner::Plugin(plugin) => plugin.run(input, timeout, ctx).await,
            Runner::Http(config) => {
                let visible = Visible::for_headers(ctx.scrub_env, &self.entry);
                super::http::run(config, timeout, &input, ctx, visible).await
            }
            Runner::Prompt(config) => super::prompt::run(config, timeout, &input, ctx).await,
            Runner::Function(function) => super::function::run(function, &input),
            Runner::Broken(failure) => RawOutcome::failed(failure.clone()),
        }
    }

    /// Runs the hook, interprets the outcome and applies its settings.
    pub async fn execute(&self, input: Arc<[u8]>, ctx: &RunContext) -> HookExecutionResult {
        let raw = self.run(input, ctx).await;
        self.settle(raw)
    }

    /// Which module a plugin hook runs; `None` for other hooks (and a plugin that
    /// could not be loaded).
    pub fn plugin_identity(&self) -> Option<crate::result::PluginIdentity> {
        let Runner::Plugin(plugin) = &self.runner else {
            return None;
        };
        let reference = match &self.entry.spec.kind {
            HookKind::Plugin(config) => config.source.as_ref().map(|s| s.reference.clone()),
            _ => None,
        };
        Some(crate::result::PluginIdentity {
            digest: plugin.digest(),
            reference,
        })
    }

    /// Interprets an outcome of this hook and applies its settings.
    pub fn settle(&self, raw: RawOutcome) -> HookExecutionResult {
        let plugin = matches!(self.entry.spec.kind, HookKind::Plugin(_));
        apply_policy(self, interpret(raw, &self.describe(), plugin))
    }

    /// The dialect of the hook's stdin and of its answer. A plugin always speaks
    /// hookhost's canonical one (LLxprt's event and tool names), whatever file
    /// declares it: the guest SDK has one input contract, and a policy written once
    /// cannot fail open because a Claude file referenced it (issue 28). Its matcher
    /// still reads the declaring file's names ([`HookEntry::dialect`]).
    pub fn io_dialect(&self) -> crate::dialect::Dialect {
        match self.entry.spec.kind {
            HookKind::Plugin(_) => crate::dialect::Dialect::Llxprt,
            _ => self.entry.dialect,
        }
    }

    /// A short description for messages: `command hook "x.sh"`, `plugin hook
    /// "guard.wasm"`, `http hook "…"`.
    pub fn describe(&self) -> String {
        let spec = &self.entry.spec;
        format!("{} hook {:?}", spec.type_name(), spec.name)
    }
}
