//! [`WasmEngine`], the one Wasm engine of a hook system: a [`Runtime`] (wasmtime,
//! pool, linkers, cache) and the files compiled on it — one [`Compiled`] per file,
//! however many hooks name it; a hook's own settings over it are a [`Plugin`]. The
//! loader on top of the layers runtime ← compiled module ← plugin.
//!
//! A plugin whose `memoryLimit` is above a pool slot runs on a second, on-demand
//! `WasmEngine` created when first needed. **Loading** many files is spread over the
//! cores ([`WasmEngine::preload`]): compiling 100 plugins on a cold cache must not
//! take 100 × one.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use super::cache::CacheError;
use super::module::{Compiled, PluginLoadError};
use super::plugin::Plugin;
#[cfg(feature = "internals")]
use super::runtime::MemoryLayout;
use super::runtime::{EngineError, EngineOptions, Runtime};
use crate::config::PluginConfig;
use crate::runner::{HookFailure, LoadError};

/// The Wasm engine of a hook system. Cheap to clone (one shared state).
#[derive(Clone)]
pub struct WasmEngine(Arc<State>);

struct State {
    runtime: Runtime,
    /// The on-demand engine for plugins whose `memoryLimit` is above a pool slot,
    /// created when first needed (so one big plugin does not size every slot).
    large: OnceLock<Result<WasmEngine, HookFailure>>,
    /// Compiled files; a failure is remembered too, so a broken file is reported
    /// by every hook that names it without being read again.
    modules: Mutex<HashMap<PathBuf, Loaded>>,
    /// The builtins' pack, compiled once for every builtin hook.
    pack: OnceLock<Loaded>,
}

/// A file compiled, or why it cannot be (shared by every hook that names it).
type Loaded = Result<Arc<Compiled>, Arc<PluginLoadError>>;

impl std::fmt::Debug for WasmEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WasmEngine")
            .field("runtime", &self.0.runtime)
            .finish_non_exhaustive()
    }
}

impl WasmEngine {
    /// Creates the engine (pooled if possible), linkers and ticker.
    pub fn new(options: &EngineOptions) -> Result<WasmEngine, HookFailure> {
        Ok(WasmEngine(Arc::new(State {
            runtime: Runtime::new(options)?,
            large: OnceLock::new(),
            modules: Mutex::default(),
            pack: OnceLock::new(),
        })))
    }

    /// How this engine lays out linear memories.
    #[cfg(feature = "internals")]
    pub fn memory_layout(&self) -> MemoryLayout {
        self.0.runtime.memory_layout()
    }

    /// Why the configured compile cache is not used, if it is not.
    pub fn cache_refused(&self) -> Option<&CacheError> {
        self.0.runtime.cache_refused()
    }

    /// Why the pooling allocator could not be used although it was asked for
    /// (always [`EngineError::Pool`]).
    pub fn pool_error(&self) -> Option<&EngineError> {
        self.0.runtime.pool_error()
    }

    /// Loads a plugin; its file is compiled only the first time any hook names it.
    pub fn load(&self, config: &PluginConfig) -> Result<Arc<Plugin>, HookFailure> {
        let compiled = self
            .for_memory(config.memory_limit)?
            .compiled(config)
            .map_err(|source| {
                HookFailure::Load(LoadError::Module {
                    path: config.path.clone(),
                    source,
                })
            })?;
        Plugin::new(compiled, config)
            .map(|plugin| plugin.with_state_dir(self.0.runtime.options().state_dir.as_deref()))
            .map(Arc::new)
    }

    /// Compiles (or maps from the cache) the files of `configs` not loaded yet,
    /// several at once on all cores; [`WasmEngine::load`] then finds them loaded.
    /// One file is left to `load` (no thread for it).
    pub fn preload<'a>(&self, configs: impl IntoIterator<Item = &'a PluginConfig>) {
        let mut todo: Vec<(WasmEngine, &PluginConfig)> = Vec::new();
        for config in configs {
            let Ok(engine) = self.for_memory(config.memory_limit) else {
                continue;
            };
            // All builtins are one module: the pack.
            let same = |c: &PluginConfig| match (c.builtin, config.builtin) {
                (None, None) => c.path == config.path,
                (Some(_), Some(_)) => true,
                _ => false,
            };
            let seen = todo
                .iter()
                .any(|(e, c)| same(c) && Arc::ptr_eq(&e.0, &engine.0));
            let loaded = match config.builtin {
                Some(_) => engine.0.pack.get().is_some(),
                None => engine.lock_modules().contains_key(&config.path),
            };
            if !seen && !loaded {
                todo.push((engine, config));
            }
        }
        if todo.len() < 2 {
            return;
        }
        let workers = std::thread::available_parallelism()
            .map_or(1, usize::from)
            .min(todo.len());
        let next = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|| {
                    while let Some((engine, config)) =
                        todo.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                    {
                        let _ = engine.compiled(config);
                    }
                });
            }
        });
    }

    /// This engine, or the on-demand one when `memory_limit` is above a pool slot.
    fn for_memory(&self, memory_limit: u64) -> Result<WasmEngine, HookFailure> {
        if memory_limit <= self.0.runtime.memory_capacity() {
            return Ok(self.clone());
        }
        self.0
            .large
            .get_or_init(|| {
                let options = self.0.runtime.options();
                WasmEngine::new(&EngineOptions {
                    pooling: false,
                    max_memory: options.max_memory.max(memory_limit),
                    ..options.clone()
                })
            })
            .clone()
    }

    /// The compiled file at `path`, loading it the first time. The lock is not
    /// held while loading, so [`WasmEngine::preload`]'s threads load in parallel.
    fn compiled(&self, config: &PluginConfig) -> Loaded {
        // Every builtin runs the one pack.
        if config.builtin.is_some() {
            return self
                .0
                .pack
                .get_or_init(|| {
                    Compiled::load_pack(&self.0.runtime)
                        .map(Arc::new)
                        .map_err(Arc::new)
                })
                .clone();
        }
        let path = config.path.as_path();
        if let Some(done) = self.lock_modules().get(path) {
            return done.clone();
        }
        let loaded = Compiled::load(&self.0.runtime, path)
            .map(Arc::new)
            .map_err(Arc::new);
        self.lock_modules()
            .entry(path.to_path_buf())
            .or_insert(loaded)
            .clone()
    }

    fn lock_modules(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Loaded>> {
        match self.0.modules.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        }
    }
}
