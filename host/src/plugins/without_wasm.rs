//! The `plugins` feature off (`default-features = false`, an agent that wants no
//! wasmtime in its binary): there is no engine, no plugin ever loads, and every
//! plugin hook is a failed hook whose error says so.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use crate::config::{Diagnostic, HookEntry, PluginConfig, VerifyRule};
use crate::runner::{HookFailure, LoadError, RawOutcome, RunContext, Runner};

/// Options of the Wasm engine; without the `plugins` feature there are none.
#[derive(Debug, Clone, Default)]
pub struct EngineOptions {}

/// Without the `plugins` feature there is no Wasm engine.
#[derive(Debug, Clone)]
pub enum WasmEngine {}

/// Without the `plugins` feature no plugin is ever loaded: no value of this type exists.
#[derive(Debug)]
pub enum Plugin {}

impl Plugin {
    /// Never called: there is no plugin.
    pub fn digest(&self) -> String {
        match *self {}
    }

    /// Never called: there is no plugin to run.
    pub async fn run(
        &self,
        _input: Arc<[u8]>,
        _timeout: Duration,
        _ctx: &RunContext,
    ) -> RawOutcome {
        match *self {}
    }

    pub fn runs_with(&self, _other: &Plugin) -> bool {
        match *self {}
    }
}

pub async fn run_together(
    plugins: &[&Plugin],
    _input: Arc<[u8]>,
    _timeout: Duration,
    _ctx: &RunContext,
) -> Vec<RawOutcome> {
    plugins.iter().map(|p| match **p {}).collect()
}

/// `source` plugins need the module store, which comes with the feature: their
/// hooks fail like any other plugin hook.
pub fn resolve_entries(_entries: &mut [HookEntry], _rules: &[VerifyRule], _project_dir: &Path) {}

/// Every plugin hook says that plugins are not supported, whether hooks are on or not.
pub fn engine(
    _enabled: bool,
    _plugins: &[&PluginConfig],
    _options: &EngineOptions,
    _one_fire: bool,
) -> super::Engine {
    Some(Err(HookFailure::Load(LoadError::Unsupported)))
}

/// The failure of every plugin hook.
pub fn load(
    engine: &WasmEngine,
    _config: &PluginConfig,
    _entry: &HookEntry,
    _project_dir: &Path,
    _diagnostics: &mut Vec<Diagnostic>,
) -> Runner {
    match *engine {}
}

/// Without an engine there is nothing to report: every plugin hook already said why
/// it cannot run.
pub fn report(_engine: &super::Engine, _diagnostics: &mut Vec<Diagnostic>) {}

/// A plugin hook's failure: the file it names cannot run in this build, said as a
/// diagnostic for each hook.
pub fn without_engine(_failure: &HookFailure, config: &PluginConfig) -> (HookFailure, bool) {
    (
        HookFailure::Load(LoadError::UnsupportedFile(config.path.clone())),
        true,
    )
}
