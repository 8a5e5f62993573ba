//! hookhost runs the lifecycle hooks of AI coding agents — shell commands and
//! sandboxed WebAssembly plugins — exactly as the LLxprt Code / Gemini CLI hook
//! contract specifies.
//!
//! The pipeline is *load → plan → run → aggregate*: settings files are discovered and
//! validated once (project > user > system > extensions) into hook entries, every
//! problem named as a [`Diagnostic`]; a fire selects its hooks (matchers, dedup,
//! sequential or parallel); each hook runs — a subprocess or a Wasm guest — and one
//! interpretation gives the exit status and stdout their meaning for both; the answers
//! are merged per event into an [`AggregatedHookResult`] (sequential plans carry each
//! answer into the next hook's input). [`HookSystem`] ties them together: build it
//! once with [`HookSystemBuilder`], fire many times.
//!
//! Beside the root items: [`dialect`] (Claude Code's and Gemini CLI's names and
//! answers), [`distribution`] (OCI references, the module store, lock files,
//! signatures, the registry client), [`bus`] (the wire format of `hookhost serve`),
//! [`input`] (typed inputs per event) and [`json_input`] (parsing what agents send, as
//! JavaScript wrote it). [`HookSystem::hook_listing`] and
//! [`AggregatedHookResult::explain`] are what `hookhost check` and `--explain` print.
//!
//! ```no_run
//! # async fn demo() {
//! use hookhost::{HookEvent, HookSystem};
//! use serde_json::json;
//!
//! let hooks = HookSystem::builder().project_dir("/path/to/project").build();
//! let input = json!({"tool_name": "write_file", "tool_input": {"file_path": "/etc/passwd"}});
//! let result = hooks.fire(HookEvent::BeforeTool, input.as_object().cloned().unwrap_or_default()).await;
//! if result.is_blocked() {
//!     println!("blocked: {}", result.block_reason().unwrap_or_default());
//! }
//! # }
//! ```

/// Declares a module private to the crate, or public (and hidden from the docs) with
/// the `internals` feature: hookhost's own integration tests, fuzz targets and
/// benchmarks reach the runner's parts below [`HookSystem`] through it; the API is the
/// list of re-exports below.
macro_rules! internal_mod {
    ($($name:ident),* $(,)?) => {$(
        #[cfg(feature = "internals")]
        #[doc(hidden)]
        pub mod $name;
        #[cfg(not(feature = "internals"))]
        mod $name;
    )*};
}

pub mod bus;
pub mod dialect;
pub mod distribution;
pub mod input;
pub mod json_input;

internal_mod!(aggregate, config, output, runner, trust);

mod bounded_read;
mod builtin;
mod chain;
mod env_file;
mod event;
mod listing;
mod observer;
mod planner;
mod plugins;
// Only the compile cache, the known-files record and the module store (all behind
// `plugins`) keep private files.
#[cfg(feature = "plugins")]
mod private_file;
mod result;
#[cfg(feature = "plugins")]
pub mod state;
mod suggest;
mod system;
mod text;
mod trace;

pub use builtin::{
    BUILTINS, Builtin, BuiltinError, SCHEME as BUILTIN_SCHEME, cache_dir as builtin_cache_dir,
    find as find_builtin,
};
pub use config::{
    DEFAULT_STATE_MAX_BYTES, Diagnostic, Grants, HostPattern, HostPatternError,
    MAX_STATE_MAX_BYTES, ServeLimits, SettingsFormat, SettingsSource, Severity, SourceKind,
    StateGrant, is_hookhost_itself, settings_schema,
};
pub use event::{EVENT_COUNT, HookEvent, UnknownEvent};
pub use listing::{HookListing, ListedEvent, ListedHook, ListedKind};
pub use observer::FireObserver;
pub use output::{Decision, FieldWarning, HookOutput};
pub use planner::{Matcher, Standing};
pub use plugins::EngineOptions;
pub use result::{AggregatedHookResult, BackgroundHook, HookExecutionResult, PluginIdentity};
#[cfg(feature = "plugins")]
pub use runner::wasm::{
    WasmKind,
    inspect::{PluginInspection, inspect_plugin},
};
pub use runner::{
    FunctionAnswer, HookFn, NESTED_ENV, TOKEN_ENV, reaper::start as start_reaper,
    slots::MAX_PROCESSES_ENV, slots::set_max_processes,
};
pub use system::{
    BackgroundMode, FireEvent, FireInput, FunctionHookError, HookSystem, HookSystemBuilder,
    MAX_NOTICES, Notice, background_running, take_all_notices, wait_for_background,
};
pub use text::terminal_safe;
pub use trace::TraceSink;
pub use trust::{TrustError, TrustKey, TrustStore};
