//! Loading plugin hooks while a [`crate::HookSystem`] is built.
//!
//! With the `plugins` feature (the default) one [`WasmEngine`] is created — only
//! when hooks are enabled and at least one plugin is admitted by the trust gate —
//! sized to the largest `memoryLimit` of the admitted plugins (an unapproved plugin
//! never sizes it), their files are loaded on all cores, and each plugin hook gets
//! its runner from it. Without the feature (`default-features = false`, e.g. for an
//! agent that wants no wasmtime in its binary) there is no engine and every plugin
//! hook is a failed hook whose error says so.

use std::path::Path;

use crate::config::{Diagnostic, HookEntry, HookKind, PluginConfig};
use crate::runner::{HookFailure, LoadError, Runner};

#[cfg(feature = "plugins")]
pub use crate::runner::wasm::{EngineOptions, WasmEngine};

/// Options of the Wasm engine; without the `plugins` feature there are none.
#[cfg(not(feature = "plugins"))]
#[derive(Debug, Clone, Default)]
pub struct EngineOptions {}

/// Without the `plugins` feature there is no Wasm engine.
#[cfg(not(feature = "plugins"))]
#[derive(Debug, Clone)]
pub enum WasmEngine {}

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
    #[cfg(feature = "plugins")]
    {
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
            engine.preload(plugins);
        }
        Some(engine)
    }
    #[cfg(not(feature = "plugins"))]
    {
        // Every plugin hook says so, whether hooks are on or not.
        let _ = (enabled, options, one_fire);
        Some(Err(HookFailure::Load(LoadError::Unsupported)))
    }
}

/// The runner of one plugin hook; problems become diagnostics.
pub fn load(
    engine: &Engine,
    config: &PluginConfig,
    entry: &HookEntry,
    project_dir: &Path,
    diagnostics: &mut Vec<Diagnostic>,
) -> Runner {
    let failed = |failure: HookFailure, diagnostics: &mut Vec<Diagnostic>| {
        diagnostics.push(Diagnostic::error(format!(
            "{}: {}: {failure}",
            entry.source, entry.location
        )));
        Runner::Broken(failure)
    };
    if let Some(problem) = config.source.as_ref().and_then(|s| s.problem.as_ref()) {
        return failed(
            HookFailure::Load(LoadError::Source(problem.clone())),
            diagnostics,
        );
    }
    let engine = match engine {
        Some(Ok(engine)) => engine,
        #[cfg(feature = "plugins")]
        Some(Err(failure)) => return Runner::Broken(failure.clone()),
        #[cfg(not(feature = "plugins"))]
        Some(Err(_)) => {
            let failure = HookFailure::Load(LoadError::UnsupportedFile(config.path.clone()));
            return failed(failure, diagnostics);
        }
        None => {
            return Runner::Broken(HookFailure::Load(LoadError::Disabled));
        }
    };
    #[cfg(feature = "plugins")]
    {
        let loaded = crate::runner::wasm::preopen::checked(config, project_dir)
            .map_err(|e| {
                HookFailure::Load(LoadError::Preopen {
                    path: config.path.clone(),
                    source: std::sync::Arc::new(e),
                })
            })
            .and_then(|config| engine.load(&config));
        match loaded {
            Ok(plugin) => {
                if !plugin.ungranted_imports().is_empty() {
                    diagnostics.push(Diagnostic::warning(format!(
                        "{}: {}: {} imports {}, which hookhost denies (every call fails)",
                        entry.source,
                        entry.location,
                        config.path.display(),
                        plugin.ungranted_imports().join(", ")
                    )));
                }
                Runner::Plugin(plugin)
            }
            Err(failure) => failed(failure, diagnostics),
        }
    }
    #[cfg(not(feature = "plugins"))]
    {
        let _ = project_dir;
        match *engine {}
    }
}

/// Reports an engine that could not be created, or runs without its cache or pool.
pub fn report(engine: &Engine, diagnostics: &mut Vec<Diagnostic>) {
    // Without the feature, every plugin hook already said why it cannot run.
    #[cfg(not(feature = "plugins"))]
    let _ = (engine, diagnostics);
    #[cfg(feature = "plugins")]
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
