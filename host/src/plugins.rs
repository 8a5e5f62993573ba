//! Loading plugin hooks while a [`crate::HookSystem`] is built.
//!
//! With the `plugins` feature (the default) one Wasm engine is created — only when
//! hooks are enabled and at least one plugin is admitted by the trust gate — sized
//! to the largest `memoryLimit` of the admitted plugins (an unapproved plugin never
//! sizes it), and every plugin is loaded through it. Without the feature
//! (`default-features = false`, e.g. for an agent that wants no wasmtime in its
//! binary) every plugin hook is a failed hook whose error says so.

use crate::config::{Diagnostic, HookEntry, HookKind, PluginConfig};
use crate::runner::{HookFailure, Runner};

#[cfg(feature = "plugins")]
pub use crate::runner::wasm::EngineOptions;

/// Options of the Wasm engine; without the `plugins` feature there are none.
#[cfg(not(feature = "plugins"))]
#[derive(Debug, Clone, Default)]
pub struct EngineOptions {}

/// Loads the plugins of one build.
pub struct PluginLoader {
    #[cfg(feature = "plugins")]
    engine: Option<Result<crate::runner::wasm::WasmEngine, HookFailure>>,
    #[cfg(feature = "plugins")]
    project_dir: std::path::PathBuf,
}

impl PluginLoader {
    /// Creates the engine if `enabled` and any entry is a plugin.
    pub fn new(
        enabled: bool,
        entries: &[HookEntry],
        options: &EngineOptions,
        project_dir: &std::path::Path,
    ) -> PluginLoader {
        let mut plugins = entries.iter().filter_map(|e| match &e.spec.kind {
            HookKind::Plugin(p) => Some(p),
            HookKind::Command { .. } => None,
        });
        #[cfg(feature = "plugins")]
        {
            let engine = match plugins.next() {
                Some(first) if enabled => {
                    let mut options = options.clone();
                    options.max_memory = plugins
                        .map(|p| p.memory_limit)
                        .fold(options.max_memory.max(first.memory_limit), u64::max);
                    Some(crate::runner::wasm::WasmEngine::new(&options))
                }
                _ => None,
            };
            PluginLoader {
                engine,
                project_dir: project_dir.to_path_buf(),
            }
        }
        #[cfg(not(feature = "plugins"))]
        {
            let _ = (enabled, options, plugins.next(), project_dir);
            PluginLoader {}
        }
    }

    /// The runner of one plugin hook; problems become diagnostics.
    pub fn load(
        &self,
        config: &PluginConfig,
        entry: &HookEntry,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Runner {
        if let Some(problem) = config.source.as_ref().and_then(|s| s.problem.as_ref()) {
            let failure = HookFailure::Load(problem.clone());
            diagnostics.push(Diagnostic::error(format!(
                "{}: {}: {failure}",
                entry.source, entry.location
            )));
            return Runner::Broken(failure);
        }
        #[cfg(feature = "plugins")]
        match &self.engine {
            Some(Ok(engine)) => {
                match crate::runner::wasm::preopen::checked(config, &self.project_dir)
                    .map_err(|e| HookFailure::Load(format!("{}: {e}", config.path.display())))
                    .and_then(|config| engine.load(&config))
                {
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
                    Err(failure) => {
                        diagnostics.push(Diagnostic::error(format!(
                            "{}: {}: {failure}",
                            entry.source, entry.location
                        )));
                        Runner::Broken(failure)
                    }
                }
            }
            Some(Err(failure)) => Runner::Broken(failure.clone()),
            None => Runner::Broken(HookFailure::Load(
                "not loaded: hooks are disabled".to_owned(),
            )),
        }
        #[cfg(not(feature = "plugins"))]
        {
            let failure = HookFailure::Load(format!(
                "{}: hookhost was built without plugin support (feature \"plugins\")",
                config.path.display()
            ));
            diagnostics.push(Diagnostic::error(format!(
                "{}: {}: {failure}",
                entry.source, entry.location
            )));
            Runner::Broken(failure)
        }
    }

    /// Reports an engine that could not be created.
    pub fn finish(self, diagnostics: &mut Vec<Diagnostic>) {
        #[cfg(feature = "plugins")]
        match &self.engine {
            Some(Err(failure)) => diagnostics.push(Diagnostic::error(format!(
                "the Wasm engine is unavailable: {failure}"
            ))),
            Some(Ok(engine)) => {
                if let Some(problem) = engine.cache_refused() {
                    diagnostics.push(Diagnostic::warning(problem.to_owned()));
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
        #[cfg(not(feature = "plugins"))]
        let _ = diagnostics;
    }
}
