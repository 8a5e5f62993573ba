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
//! Beside the root items, four modules: [`dialect`] (Claude Code's and Gemini CLI's
//! names and answers, and [`dialect::AgentCall`], one agent's call as every door
//! reads it), [`distribution`] (OCI references, the module store, lock files,
//! signatures, the registry client), [`bus`] (the wire format of `hookhost serve`)
//! and [`input`] (typed inputs per event, and [`input::json`]: parsing what agents
//! send, as JavaScript wrote it). [`HookSystem::hook_listing`] and
//! [`AggregatedHookResult::explain`] are what `hookhost check` and `--explain` print.
//!
//! What the settings say and how hooks behave is the user's guide
//! (`docs/guide/` in the repository); this page is the Rust API.
//!
//! # Firing
//!
//! ```no_run
//! # async fn demo() {
//! use hookhost::{HookEvent, HookSystem};
//! use serde_json::json;
//!
//! let hooks = HookSystem::builder().project_dir("/path/to/project").build(); // once
//! let input = json!({"tool_name": "write_file", "tool_input": {"file_path": "/etc/passwd"}});
//! let result = hooks.fire(HookEvent::BeforeTool, input.as_object().cloned().unwrap_or_default()).await;
//! if result.is_blocked() {
//!     println!("blocked: {}", result.block_reason().unwrap_or_default());
//! }
//! let tool_input = result.tool_input(); // the rewritten input, if a hook changed it
//! # let _ = tool_input;
//! # }
//! ```
//!
//! There are two ways to fire: [`HookSystem::fire`] (async; needs a tokio runtime) and
//! [`HookSystem::fire_blocking`] (runs on a private one). Both take the event as a
//! [`HookEvent`] or as the name an agent gave it (`fire("PreToolUse", input)`: a Claude
//! name's input is made canonical; a name hookhost does not know runs the hooks
//! registered under it in Claude/Gemini files), and the input moved in (`Map`) or
//! borrowed (`&Map`). Accessors on the result: `is_blocked`, `block_reason`,
//! `should_stop`, `stop_reason`, `system_message`, `suppress_output`,
//! `additional_context`, `tool_input`, `llm_request`, `llm_response`, `tool_config`;
//! `result.specific_as::<T>(key)` reads a typed answer.
//!
//! With hooks disabled or no matching hook a fire is a check that allocates nothing;
//! `fire(event, &input)` borrows the input and clones it only when a hook matches, so
//! a miss does not even drop the caller's map. [`HookSystem::has_hooks`] answers the
//! same question without firing.
//!
//! # Answering an agent's hook call, and the load report
//!
//! What `hookhost hook` and every other door of the command line do: read the
//! agent's hook input as a [`dialect::AgentCall`] (its event, the dialect it
//! speaks, the agent where it changes the answer), fire it with
//! [`HookSystem::fire_call`] — which folds the [`LoadReport`] in: the settings'
//! failures first in `errors`, each cause once — and answer as one hook of that
//! agent would:
//!
//! ```no_run
//! # async fn demo(stdin: &[u8]) -> Result<(), hookhost::dialect::InputError> {
//! use hookhost::HookSystem;
//! use hookhost::dialect::{AgentCall, CallSource};
//!
//! let hooks = HookSystem::builder().project_dir("/path/to/project").build();
//! for problem in hooks.report().diagnostics() {
//!     eprintln!("{problem}"); // each names file, event, group, hook and field
//! }
//! let (call, input) = AgentCall::parse(stdin, CallSource::Stdin)?;
//! let result = hooks.fire_call(&call, input).await;
//! let reply = call.reply(result, false, false); // stdout, stderr, exit code
//! # let _ = reply;
//! # Ok(())
//! # }
//! ```
//!
//! # Function hooks
//!
//! A Rust closure is a hook like any other (seeds/003) — planned by its matcher,
//! aggregated by the event's rules, after the settings' hooks:
//!
//! ```no_run
//! # fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use hookhost::{FunctionAnswer, HookEvent, HookSystem};
//!
//! let hooks = HookSystem::builder()
//!     .function_hook(HookEvent::BeforeTool, "write_file", "no-etc", |input| {
//!         match input.get("tool_input").and_then(|t| t["file_path"].as_str()) {
//!             Some(p) if p.starts_with("/etc") => FunctionAnswer::Block(format!("no writes to {p}")),
//!             _ => FunctionAnswer::Continue, // or Answer(json), or Fail(why): failurePolicy applies
//!         }
//!     })
//!     .build();
//! let id = hooks.add_session_function_hook(HookEvent::AfterTool, "*", "audit", |_| FunctionAnswer::Continue)?;
//! hooks.remove_session_function_hook(id); // or hooks.clear_session_hooks() on a session change
//! # Ok(())
//! # }
//! ```
//!
//! # Background hooks
//!
//! `async`/`asyncRewake` hooks run on a runtime of hookhost's own, so `fire` returns
//! without them whatever runtime called it; [`HookSystem::take_notices`] returns what
//! `asyncRewake` hooks blocked on afterwards, and a one-shot process calls
//! [`wait_for_background`]`(limit)` before it exits.
//!
//! # Typed inputs, dialects and the CLI's building blocks
//!
//! Typed inputs and the LLM formats (`LlmRequest`, `LlmResponse`, `ToolConfig`, which
//! round-trip unknown fields) are in `hookhost::input`; `input::into_fire(&HookInput)`
//! gives the event and fields to fire. `hookhost::dialect::reply` turns a result into
//! the stdout, stderr and exit code one hook of Claude Code or Gemini CLI would answer.
//! `hooks.hook_listing()` is what `hookhost check` prints (every hook per event in
//! execution order, duplicates marked), `result.explain()` the table of
//! `fire --explain`, `hookhost::inspect_plugin` the report of `plugin inspect`, and
//! `hookhost::distribution::fetch` the algorithm of `lock` and `install`.
//!
//! # Crates and features
//!
//! The library is the crate `hookhost` (`host/`); the command line is the crate
//! `hookhost-cli` (`host/cli/`, binary `hookhost`), so the library never depends on an
//! argument parser, a log subscriber or `anyhow`. Its features:
//!
//! ```text
//! plugins  wasmtime: plugin hooks                                   (default)
//! http     the HTTP client of `http` and `prompt` hooks:
//!          reqwest over hyper, rustls + ring                        (default)
//! oci      the registry client; implies `plugins` and `http`        (default)
//! ```
//!
//! Build with `default-features = false, features = ["plugins"]` to embed it without
//! an HTTP client (`source` plugins still load from the module store; http and prompt
//! hooks fail with a clear error), `features = ["plugins", "http"]` to keep those
//! hooks without the registry client, and with `default-features = false` alone to
//! leave wasmtime out too (plugin hooks then fail with a clear error). The `internals`
//! feature exists for hookhost's own tests, fuzz targets and benchmarks (the runner's
//! parts below [`HookSystem`]); it is not API and carries no stability promise.

pub mod bus;
pub mod dialect;
pub mod distribution;
pub mod input;

#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod internals;

mod aggregate;
mod bounded_read;
mod builtin;
mod chain;
mod condition;
mod config;
mod env_file;
mod env_names;
mod event;
mod listing;
mod observer;
mod output;
mod planner;
mod plugins;
// Only the compile cache, the known-files record and the module store (all behind
// `plugins`) keep private files.
#[cfg(feature = "plugins")]
mod private_file;
mod result;
mod runner;
#[cfg(feature = "plugins")]
mod state;
mod suggest;
mod system;
mod text;
mod trace;
mod trust;

pub use builtin::{
    BUILTINS, Builtin, BuiltinError, PACK as BUILTIN_PACK, Pack as BuiltinPack,
    SCHEME as BUILTIN_SCHEME, cache_dir as builtin_cache_dir, find as find_builtin,
};
pub use config::{
    DEFAULT_STATE_MAX_BYTES, Diagnostic, Grants, HookAt, HostPattern, HostPatternError,
    MAX_STATE_MAX_BYTES, ServeLimits, SettingsFormat, SettingsSource, Severity, SourceKind,
    StateGrant, is_hookhost_itself, is_hookhost_program, settings_schema,
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
#[cfg(feature = "plugins")]
pub use state::{
    Store as StateStore, StoreError as StateStoreError, StoreIdentity, StoreSummary, state_dir,
};
pub use system::{
    BackgroundMode, FireEvent, FireInput, FunctionHookError, HookSystem, HookSystemBuilder,
    LoadReport, MAX_NOTICES, Notice, background_running, take_all_notices, wait_for_background,
};
pub use text::terminal_safe;
pub use trace::TraceSink;
pub use trust::{TrustError, TrustKey, TrustStore};
