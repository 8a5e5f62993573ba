//! The `plugins` feature on (the default): one [`WasmEngine`] per build, sized to
//! the admitted plugins, their files loaded on all cores, a runner per hook.

use std::path::Path;
use std::sync::Arc;

use super::{Engine, failed};
use crate::config::{Diagnostic, HookEntry, PluginConfig};
use crate::runner::{HookFailure, LoadError, Runner};

pub use super::resolve::resolve_entries;
pub use crate::runner::wasm::{EngineOptions, Plugin, WasmEngine, run_together};

/// Creates the engine for `plugins` (none when hooks are off) and loads their files.
pub fn engine(
    enabled: bool,
    plugins: &[&PluginConfig],
    options: &EngineOptions,
    one_fire: bool,
) -> Engine {
    if !enabled {
        return None;
    }
    let mut options = options.clone();
    if one_fire {
        let hooks = u32::try_from(plugins.len()).unwrap_or(u32::MAX);
        options.slots = options.slots.min(hooks);
    }
    options.max_memory = plugins
        .iter()
        .map(|p| p.memory_limit)
        .fold(options.max_memory, u64::max);
    let engine = WasmEngine::new(&options);
    if let Ok(engine) = &engine {
        engine.preload(plugins.iter().copied());
    }
    Some(engine)
}

/// The runner of one plugin hook from a working engine; problems become diagnostics.
pub fn load(
    engine: &WasmEngine,
    config: &PluginConfig,
    entry: &HookEntry,
    project_dir: &Path,
    diagnostics: &mut Vec<Diagnostic>,
) -> Runner {
    let loaded = crate::runner::wasm::preopen::checked(config, project_dir)
        .map_err(|e| {
            HookFailure::Load(LoadError::Preopen {
                path: config.path.clone(),
                source: Arc::new(e),
            })
        })
        .and_then(|config| engine.load(&config));
    match loaded {
        Ok(plugin) => {
            let warning = |message: String| Diagnostic::warning(message).at(entry.at.clone());
            if !plugin.ungranted_imports().is_empty() {
                diagnostics.push(warning(format!(
                    "{}: {}: {} imports {}, which hookhost denies (every call fails)",
                    entry.source,
                    entry.location(),
                    config.path.display(),
                    plugin.ungranted_imports().join(", ")
                )));
            }
            if plugin.grants_unusable() {
                diagnostics.push(warning(format!(
                    "{}: {}: {} is a preview-1 module: \"allowedHosts\" and \"state\" are \
                     WASI 0.2 interfaces it cannot use (build a component to use them)",
                    entry.source,
                    entry.location(),
                    config.path.display(),
                )));
            }
            for (setting, imports) in plugin.missing_grants() {
                diagnostics.push(warning(format!(
                    "{}: {}: {} imports {} but the hook does not grant it: every call \
                     fails (add {setting} to the hook to grant it)",
                    entry.source,
                    entry.location(),
                    config.path.display(),
                    imports.join(", "),
                )));
            }
            Runner::Plugin(plugin)
        }
        Err(failure) => failed(entry, failure, diagnostics),
    }
}

/// A plugin hook's failure when the engine could not be created: the engine's
/// failure, which [`report`] says once for all of them.
pub fn without_engine(failure: &HookFailure, _config: &PluginConfig) -> (HookFailure, bool) {
    (failure.clone(), false)
}

/// Reports an engine that could not be created, or runs without its cache or pool.
pub fn report(engine: &Engine, diagnostics: &mut Vec<Diagnostic>) {
    match engine {
        Some(Err(failure)) => diagnostics.push(Diagnostic::error(format!(
            "the Wasm engine is unavailable: {failure}"
        ))),
        Some(Ok(engine)) => {
            if let Some(problem) = engine.cache_refused() {
                diagnostics.push(Diagnostic::warning(problem.to_string()));
            }
            if let Some(cause) = engine.pool_error() {
                diagnostics.push(Diagnostic::warning(format!(
                    "plugins: the pooling allocator is unavailable ({cause}); \
                     using on-demand allocation (slower instantiation)"
                )));
            }
        }
        None => {}
    }
}
