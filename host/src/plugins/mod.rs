//! Plugin hooks while a [`crate::HookSystem`] is built: `source` resolution, the one
//! Wasm engine of a build, a runner per plugin hook, and what to report about them.
//!
//! This module is the only place that chooses between the builds with and without
//! the `plugins` feature: [`with_wasm`] (the default) creates one engine — only when
//! hooks are enabled and at least one plugin is admitted by the trust gate — sized
//! to the largest `memoryLimit` of the admitted plugins (an unapproved plugin never
//! sizes it), loads their files on all cores and gives each plugin hook its runner;
//! [`without_wasm`] (`default-features = false`, an agent that wants no wasmtime in
//! its binary) has no engine, and every plugin hook is a failed hook whose error
//! says so. Both offer the same items; the rest of the crate uses them without a
//! `cfg`.

#[cfg(feature = "plugins")]
mod resolve;
#[cfg(feature = "plugins")]
mod with_wasm;
#[cfg(not(feature = "plugins"))]
mod without_wasm;

#[cfg(feature = "plugins")]
use with_wasm as imp;
#[cfg(not(feature = "plugins"))]
use without_wasm as imp;

use std::path::Path;

pub use imp::{EngineOptions, Plugin, WasmEngine, report, resolve_entries, run_together};

use crate::config::{Diagnostic, HookEntry, HookKind, PluginConfig};
use crate::runner::{HookFailure, LoadError, Runner};

/// The engine of one build: none when hooks are off or no plugin was admitted,
/// or the reason it could not be created.
pub type Engine = Option<Result<WasmEngine, HookFailure>>;

/// Creates the engine if `enabled` and any entry is a plugin, and loads the
/// entries' files (in parallel). `one_fire`: the system fires one event once
/// ([`crate::HookSystemBuilder::only_event`]), so no more plugin calls can be in
/// flight than there are plugin hooks, and the pool is sized to them: a 32-slot
/// pool reserves and guard-protects 32 stacks and instance slots at every process
/// start (`PoolingInstanceAllocator::new` and its drop were ~5 % of a whole
/// `hookhost fire`, docs/PERFORMANCE.md "Process start").
pub fn engine(
    enabled: bool,
    entries: &[HookEntry],
    options: &EngineOptions,
    one_fire: bool,
) -> Engine {
    let plugins: Vec<&PluginConfig> = entries
        .iter()
        .filter_map(|e| match &e.spec.kind {
            HookKind::Plugin(p) if p.source.as_ref().is_none_or(|s| s.problem.is_none()) => Some(p),
            _ => None,
        })
        .collect();
    if plugins.is_empty() {
        return None;
    }
    imp::engine(enabled, &plugins, options, one_fire)
}

/// The runner of one plugin hook; problems become diagnostics.
pub fn load(
    engine: &Engine,
    config: &PluginConfig,
    entry: &HookEntry,
    project_dir: &Path,
    diagnostics: &mut Vec<Diagnostic>,
) -> Runner {
    if let Some(problem) = config.source.as_ref().and_then(|s| s.problem.as_ref()) {
        let failure = HookFailure::Load(LoadError::Source(problem.clone()));
        return failed(entry, failure, diagnostics);
    }
    match engine {
        Some(Ok(engine)) => imp::load(engine, config, entry, project_dir, diagnostics),
        Some(Err(failure)) => match imp::without_engine(failure, config) {
            (failure, true) => failed(entry, failure, diagnostics),
            (failure, false) => Runner::Broken(failure),
        },
        None => Runner::Broken(HookFailure::Load(LoadError::Disabled)),
    }
}

/// A hook that cannot run, said as an error diagnostic naming where it is configured.
fn failed(entry: &HookEntry, failure: HookFailure, diagnostics: &mut Vec<Diagnostic>) -> Runner {
    diagnostics.push(
        Diagnostic::error(format!("{}: {}: {failure}", entry.source, entry.location()))
            .at(entry.at.clone()),
    );
    Runner::Broken(failure)
}
