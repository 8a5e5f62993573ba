//! What hookhost's own integration tests, fuzz targets and benchmarks reach below
//! [`crate::HookSystem`]: a single plugin call, the engine's memory layout, raw
//! outcomes, a hook built by hand. Compiled only with the `internals` feature (a
//! dev-dependency feature: the shipped binary is built without it); not API, no
//! stability promise. Everything else of the library stays private to it.

pub use crate::aggregate::{Strategy, merge};
pub use crate::config::{
    CommandConfig, FailurePolicy, HookEntry, HookKind, HookSpec, PluginConfig, Shell,
    parse_settings,
};
#[cfg(feature = "plugins")]
pub use crate::config::{DEFAULT_FUEL, DEFAULT_MEMORY_LIMIT};
#[cfg(feature = "plugins")]
pub use crate::runner::wasm::{
    CacheStatus, Plugin, WasmEngine,
    runtime::{DEFAULT_SLOTS, MemoryLayout, pool_memory_size, wasmtime_config},
    stamp::SETTLE,
};
pub use crate::runner::{
    Captured, CommandLine, DEFAULT_OUTPUT_CAP, HookFailure, KILL_GRACE, PluginDirs, RawOutcome,
    RunContext, RunnableHook, Runner, Status,
};
