//! [`WasmEngine`], the one Wasm engine of a hook system: the wasmtime [`Engine`]
//! with its configuration, pooling allocator, epoch ticker, linkers and compile
//! cache, and the modules compiled for it (one per file, however many hooks name
//! it — [`Compiled`]; a hook's own settings over it are a [`super::Plugin`]).
//!
//! * **Fuel** is on for every store (the per-call budget is the hook's `fuel`).
//! * **Epochs** tick every [`EPOCH_TICK`] on a thread that holds the engine weakly
//!   (it ends when the engine is dropped). Each store yields to the async executor at
//!   every tick, so the `tokio::time::timeout` around a call can fire even while the
//!   guest spins; a guest blocked in a host call (sleeping in `wasi:clocks`) is a
//!   pending future that the timeout simply drops. An epoch deadline alone would not
//!   interrupt that sleep.
//! * **Pooling**: instances come from pre-reserved slots, so instantiation makes no
//!   syscalls. The pool is sized to real concurrency ([`EngineOptions::slots`],
//!   default 32), not wasmtime's default of 1000 slots; a memory may grow to the
//!   largest configured `memoryLimit` up to [`POOL_MEMORY_CEILING`]
//!   ([`pool_memory_size`]). Each memory slot is laid out [`MemoryLayout::Guarded`]
//!   (4 GiB of address space and guard pages, so compiled code has no bounds
//!   checks) when the address space allows it, else [`MemoryLayout::Checked`]
//!   (`ulimit -v`: only the limit reserved). A plugin whose limit is above the
//!   pool's runs on a second, on-demand `WasmEngine` created when first needed. If
//!   no pooled engine can be created, an on-demand engine is used and
//!   [`WasmEngine::pool_error`] says why (a warning diagnostic).
//!   A semaphore with one permit per slot queues calls instead of failing them when
//!   the pool is full; the wait is not part of a call's timeout.
//! * **Loading** many files is spread over the cores ([`WasmEngine::preload`]):
//!   compiling 100 plugins on a cold cache must not take 100 × one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use tokio::sync::Semaphore;
use wasmtime::{Config, Engine, InstanceAllocationStrategy, OptLevel, PoolingAllocationConfig};

use super::cache::{CompileCache, default_dir};
use super::linker::{component_linker, module_linker};
use super::module::Compiled;
use super::plugin::Plugin;
use super::sandbox::{ComponentState, ModuleState};
use crate::config::PluginConfig;
use crate::runner::HookFailure;

/// How often the epoch advances; the granularity of deadline checks for a spinning
/// guest.
pub const EPOCH_TICK: Duration = Duration::from_millis(5);
/// Default number of plugin calls that may be in flight at once (pool slots).
pub const DEFAULT_SLOTS: u32 = 32;
/// Memory kept resident between uses of a pool slot, so a reused slot needs no
/// page faults for a typical small guest. Resetting it costs a `memset` per call
/// unless the kernel reports dirty pages (`pagemap_scan`, Linux ≥ 6.7): keep it small.
pub const KEEP_RESIDENT: usize = 1024 * 1024;

/// The largest linear memory a pool slot holds: twice the default `memoryLimit`.
/// Laid out [`MemoryLayout::Checked`], 32 slots × 2 memories reserve 16 GiB of
/// address space at most (reserved, not committed).
pub const POOL_MEMORY_CEILING: u64 = 2 * crate::config::DEFAULT_MEMORY_LIMIT;

/// Address space of a [`MemoryLayout::Guarded`] memory: every address a 32-bit
/// guest can form (index and static offset) lands in it.
const GUARDED_RESERVATION: u64 = 1 << 32;
/// Guard pages after a guarded memory: accesses whose static offset is below it
/// need no bounds check either (wasmtime's default on 64-bit hosts).
const GUARDED_GUARD: u64 = 32 << 20;

/// How each linear memory sits in address space; decides the compiled code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemoryLayout {
    /// 4 GiB reserved per memory, then guard pages: an out-of-bounds access hits
    /// an unmapped page and traps, so Cranelift emits no bounds checks (nor their
    /// Spectre guards). Measured on the echo-policy: artifact 1,017,904 → 866,352
    /// bytes (−15 %); a bare call 18.9 → 17.6 µs in one run, 19.2 → 19.0 µs in
    /// the next: no speed gain claimed (docs/PERFORMANCE.md, "Memory layout").
    /// 32 slots × 2 memories take ~260 GiB of address space — reserved, never
    /// committed.
    Guarded,
    /// Only `bytes` reserved per memory (the pool's largest memory): every load
    /// and store checks its bounds. For address spaces that cannot hold the
    /// guarded layout (`ulimit -v`), and for on-demand engines.
    Checked(u64),
}

/// The memory size of a pool slot for plugins whose largest `memoryLimit` is
/// `max_memory`: that, rounded up to whole Wasm pages, at most
/// [`POOL_MEMORY_CEILING`], at least 1 MiB.
pub fn pool_memory_size(max_memory: u64) -> u64 {
    round_up_to_page(max_memory.clamp(1 << 20, POOL_MEMORY_CEILING))
}

/// Options of the Wasm engine.
#[derive(Debug, Clone)]
pub struct EngineOptions {
    /// Use the pooling allocator (default true; `HOOKHOST_POOLING=0` turns it off).
    pub pooling: bool,
    /// Concurrent plugin calls (pool slots).
    pub slots: u32,
    /// The compile cache dir; `None` disables the cache (`HOOKHOST_CACHE_DIR`
    /// overrides the default, `HOOKHOST_CACHE_DIR=` empty disables it).
    pub cache_dir: Option<std::path::PathBuf>,
    /// The largest linear memory any plugin may have, in bytes; the pool reserves
    /// this much address space per memory slot. Set by the hook system from the
    /// plugins' `memoryLimit`s.
    pub max_memory: u64,
}

impl Default for EngineOptions {
    fn default() -> Self {
        let cache_dir = match std::env::var_os("HOOKHOST_CACHE_DIR") {
            Some(dir) if dir.is_empty() => None,
            Some(dir) => Some(dir.into()),
            None => default_dir(),
        };
        EngineOptions {
            pooling: std::env::var("HOOKHOST_POOLING").map_or(true, |v| v != "0"),
            slots: DEFAULT_SLOTS,
            cache_dir,
            max_memory: crate::config::DEFAULT_MEMORY_LIMIT,
        }
    }
}

/// The Wasm engine of a hook system. Cheap to clone (one shared state).
#[derive(Clone)]
pub struct WasmEngine(Arc<State>);

struct State {
    engine: Engine,
    options: EngineOptions,
    /// Read by the tests (through `internals`): which layout the pool got.
    #[cfg_attr(not(feature = "internals"), allow(dead_code))]
    layout: MemoryLayout,
    /// The largest linear memory this engine can give a guest (unbounded on
    /// demand: the limiter decides).
    memory_capacity: u64,
    pool_error: Option<String>,
    slots: Arc<Semaphore>,
    component_linker: wasmtime::component::Linker<ComponentState>,
    module_linker: wasmtime::Linker<ModuleState>,
    cache: Option<CompileCache>,
    cache_refused: Option<String>,
    /// The on-demand engine for plugins whose `memoryLimit` is above a pool slot,
    /// created when first needed (so one big plugin does not size every slot).
    large: OnceLock<Result<WasmEngine, HookFailure>>,
    /// Compiled files; a failure is remembered too, so a broken file is reported
    /// by every hook that names it without being read again.
    modules: Mutex<HashMap<PathBuf, Result<Arc<Compiled>, String>>>,
}

impl std::fmt::Debug for WasmEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WasmEngine")
            .field("pooled", &self.is_pooled())
            .field("cache", &self.0.cache)
            .finish_non_exhaustive()
    }
}

impl WasmEngine {
    /// Creates the engine (pooled if possible), linkers and ticker.
    pub fn new(options: &EngineOptions) -> Result<WasmEngine, HookFailure> {
        let pool_memory = pool_memory_size(options.max_memory);
        let mut pool_error = None;
        let pooled = if options.pooling {
            pooled_engine(pool_memory, options.slots)
                .map_err(|e| pool_error = Some(e))
                .ok()
        } else {
            None
        };
        let (engine, layout, memory_capacity) = match pooled {
            Some((engine, layout)) => (engine, layout, pool_memory),
            None => {
                // On demand, a memory reserves the same modest size and moves when
                // it grows past it, so one big plugin does not make every call
                // reserve its limit (which `ulimit -v` may not allow).
                let layout = MemoryLayout::Checked(pool_memory);
                let engine =
                    Engine::new(&wasmtime_config(layout, pool_memory, None)).map_err(|e| {
                        HookFailure::Load(format!("cannot create the Wasm engine: {e}"))
                    })?;
                (engine, layout, u64::MAX)
            }
        };
        let link_error = |e: wasmtime::Error| HookFailure::Load(format!("cannot link WASI: {e}"));
        let component_linker = component_linker(&engine).map_err(link_error)?;
        let module_linker = module_linker(&engine).map_err(link_error)?;
        spawn_ticker(&engine);
        let (cache, cache_refused) = match options.cache_dir.clone() {
            Some(dir) => match CompileCache::new(dir, &engine) {
                Ok(cache) => (Some(cache), None),
                Err(problem) => (None, Some(problem)),
            },
            None => (None, None),
        };
        Ok(WasmEngine(Arc::new(State {
            engine,
            options: options.clone(),
            layout,
            memory_capacity,
            pool_error,
            slots: Arc::new(Semaphore::new(options.slots.max(1) as usize)),
            component_linker,
            module_linker,
            cache,
            cache_refused,
            large: OnceLock::new(),
            modules: Mutex::default(),
        })))
    }

    /// Whether the pooling allocator is in use.
    pub fn is_pooled(&self) -> bool {
        self.0.memory_capacity != u64::MAX
    }

    /// How this engine lays out linear memories.
    #[cfg(feature = "internals")]
    pub fn memory_layout(&self) -> MemoryLayout {
        self.0.layout
    }

    /// Why the configured compile cache is not used, if it is not.
    pub fn cache_refused(&self) -> Option<&str> {
        self.0.cache_refused.as_deref()
    }

    /// Why the pooling allocator could not be used although it was asked for.
    pub fn pool_error(&self) -> Option<&str> {
        self.0.pool_error.as_deref()
    }

    /// Loads a plugin; its file is compiled only the first time any hook names it.
    pub fn load(&self, config: &PluginConfig) -> Result<Arc<Plugin>, HookFailure> {
        let compiled = self
            .for_memory(config.memory_limit)?
            .compiled(&config.path)
            .map_err(|e| HookFailure::Load(format!("{}: {e}", config.path.display())))?;
        Plugin::new(compiled, config).map(Arc::new)
    }

    /// Compiles (or maps from the cache) the files of `configs` not loaded yet,
    /// several at once on all cores; [`WasmEngine::load`] then finds them loaded.
    /// One file is left to `load` (no thread for it).
    pub fn preload<'a>(&self, configs: impl IntoIterator<Item = &'a PluginConfig>) {
        let mut todo: Vec<(WasmEngine, &Path)> = Vec::new();
        for config in configs {
            let Ok(engine) = self.for_memory(config.memory_limit) else {
                continue;
            };
            let path = config.path.as_path();
            let seen = todo
                .iter()
                .any(|(e, p)| *p == path && Arc::ptr_eq(&e.0, &engine.0));
            if !seen && !engine.lock_modules().contains_key(path) {
                todo.push((engine, path));
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
                    while let Some((engine, path)) =
                        todo.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                    {
                        let _ = engine.compiled(path);
                    }
                });
            }
        });
    }

    /// This engine, or the on-demand one when `memory_limit` is above a pool slot.
    fn for_memory(&self, memory_limit: u64) -> Result<WasmEngine, HookFailure> {
        if memory_limit <= self.0.memory_capacity {
            return Ok(self.clone());
        }
        self.0
            .large
            .get_or_init(|| {
                WasmEngine::new(&EngineOptions {
                    pooling: false,
                    max_memory: self.0.options.max_memory.max(memory_limit),
                    ..self.0.options.clone()
                })
            })
            .clone()
    }

    /// The compiled file at `path`, loading it the first time. The lock is not
    /// held while loading, so [`WasmEngine::preload`]'s threads load in parallel.
    fn compiled(&self, path: &Path) -> Result<Arc<Compiled>, String> {
        if let Some(done) = self.lock_modules().get(path) {
            return done.clone();
        }
        let loaded = Compiled::load(self, path).map(Arc::new);
        self.lock_modules()
            .entry(path.to_path_buf())
            .or_insert(loaded)
            .clone()
    }

    fn lock_modules(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Result<Arc<Compiled>, String>>> {
        match self.0.modules.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// The wasmtime engine.
    pub(super) fn wasmtime(&self) -> &Engine {
        &self.0.engine
    }

    /// Permits for concurrent calls (one per pool slot).
    pub(super) fn slots(&self) -> &Arc<Semaphore> {
        &self.0.slots
    }

    /// The compile cache, if one is used.
    pub(super) fn cache(&self) -> Option<&CompileCache> {
        self.0.cache.as_ref()
    }

    /// The linker for components.
    pub(super) fn component_linker(&self) -> &wasmtime::component::Linker<ComponentState> {
        &self.0.component_linker
    }

    /// The linker for preview-1 modules.
    pub(super) fn module_linker(&self) -> &wasmtime::Linker<ModuleState> {
        &self.0.module_linker
    }
}

fn round_up_to_page(bytes: u64) -> u64 {
    const PAGE: u64 = 64 * 1024;
    bytes.div_ceil(PAGE).saturating_mul(PAGE)
}

/// A pooled engine of `slots` slots whose memories hold up to `max_memory`:
/// [`MemoryLayout::Guarded`] if the address space allows, else
/// [`MemoryLayout::Checked`]; the error of the last attempt if neither.
fn pooled_engine(max_memory: u64, slots: u32) -> Result<(Engine, MemoryLayout), String> {
    let guarded = MemoryLayout::Guarded;
    let guarded_error = match Engine::new(&wasmtime_config(guarded, max_memory, Some(slots))) {
        Ok(engine) => return Ok((engine, guarded)),
        Err(e) => e,
    };
    // Still a pool, only slower code: worth a trace, not a warning.
    tracing::debug!(
        "plugins: no address space for guarded memories ({guarded_error:#}); \
         compiling with bounds checks"
    );
    let checked = MemoryLayout::Checked(max_memory);
    Engine::new(&wasmtime_config(checked, max_memory, Some(slots)))
        .map(|engine| (engine, checked))
        .map_err(|e| format!("{e:#}"))
}

/// The wasmtime configuration of an engine whose memories are laid out as
/// `layout` and, in a pool of `pool_slots` slots (`None` = on demand), hold up to
/// `max_memory`. Public so that a benchmark can run bare wasmtime under the very
/// same settings (`host/benches/fire/bare.rs`, `floor/*`).
pub fn wasmtime_config(layout: MemoryLayout, max_memory: u64, pool_slots: Option<u32>) -> Config {
    let mut config = Config::new();
    config
        .consume_fuel(true)
        .epoch_interruption(true)
        .cranelift_opt_level(OptLevel::Speed);
    match layout {
        MemoryLayout::Guarded => {
            config
                .memory_reservation(GUARDED_RESERVATION)
                .memory_guard_size(GUARDED_GUARD);
        }
        // Reserve only what the largest plugin may use (up to the ceiling). On
        // demand, a memory that grows past it is moved.
        MemoryLayout::Checked(bytes) => {
            config
                .memory_reservation(bytes)
                .memory_reservation_for_growth(0)
                .memory_guard_size(64 * 1024);
        }
    }
    config
        // Errors on the exit path must not capture host backtraces
        // (RUST_BACKTRACE=1 would add microseconds to every call).
        .wasm_backtrace_details(wasmtime::WasmBacktraceDetails::Disable)
        .wasm_backtrace_max_frames(None)
        // With wasm backtraces off, nothing reads the native→wasm address map or
        // the native unwind tables (wasmtime walks frame pointers; host panics do
        // not unwind through guest frames). Left out, an artifact is smaller and
        // loading it registers no `.eh_frame` (libgcc registers every function's
        // entry, slow for a CPython-sized guest and quadratic with many modules).
        .generate_address_map(false)
        .native_unwind_info(false);
    if let Some(slots) = pool_slots {
        let mut pool = PoolingAllocationConfig::new();
        let memory = usize::try_from(max_memory).unwrap_or(usize::MAX);
        pool.total_component_instances(slots)
            .total_core_instances(slots.saturating_mul(16))
            .total_memories(slots.saturating_mul(2))
            .total_tables(slots.saturating_mul(4))
            .total_stacks(slots)
            .max_memory_size(memory)
            .max_memories_per_component(4)
            .max_tables_per_component(8)
            .linear_memory_keep_resident(KEEP_RESIDENT)
            // Reset only the pages a guest dirtied (measured: dropping a store was
            // two thirds of a one-plugin fire with a full 4 MiB reset).
            .pagemap_scan(wasmtime::Enabled::Auto)
            .table_keep_resident(64 * 1024);
        config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    }
    config
}

/// Advances the engine's epoch until the engine is gone.
fn spawn_ticker(engine: &Engine) {
    let weak = engine.weak();
    let spawned = std::thread::Builder::new()
        .name("hookhost-epoch".to_owned())
        .spawn(move || {
            while let Some(engine) = weak.upgrade() {
                engine.increment_epoch();
                drop(engine);
                std::thread::sleep(EPOCH_TICK);
            }
        });
    if let Err(e) = spawned {
        tracing::warn!("cannot start the epoch ticker ({e}); plugin deadlines rely on timers only");
    }
}
