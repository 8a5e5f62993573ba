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

/// The engine shared by every plugin of a hook system.
#[derive(Debug, Clone)]
pub struct WasmEngine {
    shared: Arc<engine::Shared>,
}

impl WasmEngine {
    /// Creates the engine.
    pub fn new(options: &EngineOptions) -> Result<WasmEngine, HookFailure> {
        engine::Shared::new(options)
            .map(|shared| WasmEngine {
                shared: Arc::new(shared),
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

    /// Loads a plugin.
    pub fn load(&self, config: &PluginConfig) -> Result<Arc<Plugin>, HookFailure> {
        Plugin::load(&self.shared, config).map(Arc::new)
    }
}
