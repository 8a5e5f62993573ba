//! Plugin hooks: WASI 0.2 components and WASI preview-1 modules in wasmtime, with the
//! same stdin/stdout/exit-code semantics as command hooks.
//!
//! * [`engine`] — the one engine per hook system: fuel, epochs, pooling, linkers.
//! * [`plugin`] — loading (pin, detection, compile cache, pre-instantiation) and one
//!   call under the hook's limits.
//! * [`sandbox`] — the capabilities a guest gets; [`linker`] — the imports linked.
//! * [`limits`], [`pipe`], [`cache`], [`detect`] — the pieces they use.
//!
//! Exit status: a component's `wasi:cli/run` returning `ok` is exit 0 and `err` is
//! exit 1; `wasi:cli/exit.exit-with-code(n)` (and preview-1 `proc_exit(n)`) is exit
//! `n`. Rust's `std::process::exit(2)` on wasm32-wasip2 calls `exit(err)` and
//! arrives as 1 — which is why the guest SDK exits through `exit-with-code`.

pub mod cache;
pub mod detect;
pub mod engine;
pub mod limits;
pub mod linker;
pub mod module;
pub mod pipe;
pub mod plugin;
pub mod preopen;
pub mod sandbox;

use std::sync::Arc;

pub use cache::CacheStatus;
pub use detect::WasmKind;
pub use engine::EngineOptions;
pub use plugin::Plugin;

use super::HookFailure;
use crate::config::PluginConfig;

/// The engine shared by every plugin of a hook system, plus — created when first
/// needed — an on-demand engine for plugins whose `memoryLimit` is larger than a
/// pool slot (so one big plugin does not size every slot).
#[derive(Debug, Clone)]
pub struct WasmEngine {
    shared: Arc<engine::Shared>,
    options: EngineOptions,
    large: Arc<std::sync::OnceLock<Result<Arc<engine::Shared>, HookFailure>>>,
    modules: Arc<std::sync::Mutex<Modules>>,
}

/// Compiled modules by engine (pooled or large) and file: one per file, however
/// many hooks run it. A failure is remembered too, so a broken file is reported by
/// every hook that names it without being read again.
type Modules =
    std::collections::HashMap<(bool, std::path::PathBuf), Result<Arc<module::Compiled>, String>>;

impl WasmEngine {
    /// Creates the engine.
    pub fn new(options: &EngineOptions) -> Result<WasmEngine, HookFailure> {
        engine::Shared::new(options)
            .map(|shared| WasmEngine {
                shared: Arc::new(shared),
                options: options.clone(),
                large: Arc::default(),
                modules: Arc::default(),
            })
            .map_err(HookFailure::Load)
    }

    /// Whether the pooling allocator is in use.
    pub fn is_pooled(&self) -> bool {
        self.shared.pooled
    }

    /// Why the configured compile cache is not used, if it is not.
    pub fn cache_refused(&self) -> Option<&str> {
        self.shared.cache_refused.as_deref()
    }

    /// Why the pooling allocator could not be used although it was asked for.
    pub fn pool_error(&self) -> Option<&str> {
        self.shared.pool_error.as_deref()
    }

    /// Loads a plugin; its file is compiled only the first time any hook names it.
    pub fn load(&self, config: &PluginConfig) -> Result<Arc<Plugin>, HookFailure> {
        let large = config.memory_limit > self.shared.memory_capacity;
        let shared = if !large {
            &self.shared
        } else {
            self.large
                .get_or_init(|| {
                    let options = EngineOptions {
                        pooling: false,
                        max_memory: self.options.max_memory.max(config.memory_limit),
                        ..self.options.clone()
                    };
                    engine::Shared::new(&options)
                        .map(Arc::new)
                        .map_err(HookFailure::Load)
                })
                .as_ref()
                .map_err(Clone::clone)?
        };
        let compiled = {
            let mut modules = match self.modules.lock() {
                Ok(guard) => guard,
                Err(poisoned) => poisoned.into_inner(),
            };
            modules
                .entry((large, config.path.clone()))
                .or_insert_with(|| module::Compiled::load(shared, &config.path).map(Arc::new))
                .clone()
        };
        let compiled =
            compiled.map_err(|e| HookFailure::Load(format!("{}: {e}", config.path.display())))?;
        Plugin::new(compiled, config).map(Arc::new)
    }
}
