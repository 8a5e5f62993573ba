//! The wasmtime side of a [`super::WasmEngine`]: the [`Engine`] with its
//! configuration, pooling allocator, epoch ticker, linkers and compile cache — what
//! compiling a file ([`super::module`]) and running a guest need, and nothing that
//! knows about files or hooks.
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
//!   (`ulimit -v`: only the limit reserved). If no pooled engine can be created, an
//!   on-demand engine is used and [`Runtime::pool_error`] says why (a warning
//!   diagnostic). A semaphore with one permit per slot queues calls instead of
//!   failing them when the pool is full; the wait is not part of a call's timeout.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;
use wasmtime::{Config, Engine, InstanceAllocationStrategy, OptLevel, PoolingAllocationConfig};

use super::cache::{CacheError, CompileCache, default_dir};
use super::linker::{component_linker, module_linker};
use super::sandbox::{ComponentState, ModuleState};
use crate::runner::{HookFailure, LoadError};

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
/// `POOL_MEMORY_CEILING`, at least 1 MiB.
pub fn pool_memory_size(max_memory: u64) -> u64 {
    round_up_to_page(max_memory.clamp(1 << 20, POOL_MEMORY_CEILING))
}

/// Why a Wasm engine cannot be created, or runs without the pooling allocator.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// wasmtime refuses the on-demand configuration.
    #[error("cannot create the Wasm engine: {0}")]
    Create(#[source] wasmtime::Error),
    /// The WASI imports cannot be linked.
    #[error("cannot link WASI: {0}")]
    Link(#[source] wasmtime::Error),
    /// No pooled engine can be created (the error of the last layout tried, with
    /// its causes); an on-demand engine is used instead.
    #[error("{0:#}")]
    Pool(#[source] wasmtime::Error),
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
    /// Where plugins granted `state` keep their stores (`HOOKHOST_STATE_DIR`
    /// overrides the default, see [`crate::state::state_dir`]); `None`: nowhere,
    /// and such a plugin's `open` fails with an error value.
    pub state_dir: Option<std::path::PathBuf>,
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
            state_dir: crate::state::state_dir(),
        }
    }
}

/// The wasmtime engine of a [`super::WasmEngine`] and what every compile and call
/// on it shares.
pub struct Runtime {
    engine: Engine,
    options: EngineOptions,
    /// Read by the tests (through `internals`): which layout the pool got.
    #[cfg_attr(not(feature = "internals"), allow(dead_code))]
    layout: MemoryLayout,
    /// The largest linear memory this engine can give a guest (unbounded on
    /// demand: the limiter decides).
    memory_capacity: u64,
    pool_error: Option<EngineError>,
    slots: Arc<Semaphore>,
    component_linker: wasmtime::component::Linker<ComponentState>,
    /// Made on first use: most processes load no preview-1 module, and linking
    /// WASI preview 1 was ~1 % of a `hookhost hook` process with plugins (perf).
    module_linker: std::sync::OnceLock<wasmtime::Linker<ModuleState>>,
    cache: Option<CompileCache>,
    cache_refused: Option<CacheError>,
}

impl Runtime {
    /// Creates the engine (pooled if possible), linkers and ticker.
    pub fn new(options: &EngineOptions) -> Result<Runtime, HookFailure> {
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
                let engine = Engine::new(&wasmtime_config(layout, pool_memory, None))
                    .map_err(|e| engine_failure(EngineError::Create(e)))?;
                (engine, layout, u64::MAX)
            }
        };
        let link_error = |e: wasmtime::Error| engine_failure(EngineError::Link(e));
        let component_linker = component_linker(&engine).map_err(link_error)?;
        spawn_ticker(&engine);
        let (cache, cache_refused) = match options.cache_dir.clone() {
            Some(dir) => match CompileCache::new(dir, &engine) {
                Ok(cache) => (Some(cache), None),
                Err(problem) => (None, Some(problem)),
            },
            None => (None, None),
        };
        Ok(Runtime {
            engine,
            options: options.clone(),
            layout,
            memory_capacity,
            pool_error,
            slots: Arc::new(Semaphore::new(options.slots.max(1) as usize)),
            component_linker,
            module_linker: std::sync::OnceLock::new(),
            cache,
            cache_refused,
        })
    }

    /// The options it was created with.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// The largest linear memory it can give a guest (`u64::MAX` on demand).
    pub fn memory_capacity(&self) -> u64 {
        self.memory_capacity
    }

    /// How it lays out linear memories.
    #[cfg(feature = "internals")]
    pub fn memory_layout(&self) -> MemoryLayout {
        self.layout
    }

    /// Why the configured compile cache is not used, if it is not.
    pub fn cache_refused(&self) -> Option<&CacheError> {
        self.cache_refused.as_ref()
    }

    /// Why the pooling allocator could not be used although it was asked for
    /// (always [`EngineError::Pool`]).
    pub fn pool_error(&self) -> Option<&EngineError> {
        self.pool_error.as_ref()
    }

    /// The wasmtime engine.
    pub fn wasmtime(&self) -> &Engine {
        &self.engine
    }

    /// Permits for concurrent calls (one per pool slot).
    pub fn slots(&self) -> &Arc<Semaphore> {
        &self.slots
    }

    /// The compile cache, if one is used.
    pub fn cache(&self) -> Option<&CompileCache> {
        self.cache.as_ref()
    }

    /// The linker for components.
    pub fn component_linker(&self) -> &wasmtime::component::Linker<ComponentState> {
        &self.component_linker
    }

    /// The linker for preview-1 modules (made on first use).
    pub fn module_linker(&self) -> wasmtime::Result<&wasmtime::Linker<ModuleState>> {
        if let Some(linker) = self.module_linker.get() {
            return Ok(linker);
        }
        let linker = module_linker(&self.engine)?;
        Ok(self.module_linker.get_or_init(|| linker))
    }
}

impl std::fmt::Debug for Runtime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runtime")
            .field("pooled", &(self.memory_capacity != u64::MAX))
            .field("cache", &self.cache)
            .finish_non_exhaustive()
    }
}

/// The failure of every plugin when the engine cannot be created.
fn engine_failure(error: EngineError) -> HookFailure {
    HookFailure::Load(LoadError::Engine(Arc::new(error)))
}

fn round_up_to_page(bytes: u64) -> u64 {
    const PAGE: u64 = 64 * 1024;
    bytes.div_ceil(PAGE).saturating_mul(PAGE)
}

/// A pooled engine of `slots` slots whose memories hold up to `max_memory`:
/// [`MemoryLayout::Guarded`] if the address space allows, else
/// [`MemoryLayout::Checked`]; the error of the last attempt if neither.
fn pooled_engine(max_memory: u64, slots: u32) -> Result<(Engine, MemoryLayout), EngineError> {
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
        .map_err(EngineError::Pool)
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
