//! hookhost runs the lifecycle hooks of AI coding agents — shell commands and
//! sandboxed WebAssembly plugins — exactly as the LLxprt Code / Gemini CLI hook
//! contract specifies.
//!
//! The pipeline is *load → plan → run → aggregate*:
//!
//! 1. [`config`] discovers and validates settings files once (project > user >
//!    system > extensions) into hook entries, naming every problem precisely.
//! 2. [`planner`] selects the hooks of one fire: matchers, dedup, sequential or not.
//! 3. [`runner`] runs each hook — a subprocess ([`runner::run_command`]) or a Wasm
//!    guest ([`runner::wasm`]) — and [`runner::interpret`] gives the exit status and
//!    stdout their meaning, identically for both.
//! 4. [`aggregate`] merges the answers per event; [`chain`] carries answers forward
//!    in sequential plans.
//!
//! [`HookSystem`] ties them together: build it once, fire many times.
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

// The API: the modules an embedder, the `hookhost` binary and the fuzzers use,
// and the re-exports below. Everything else is private to the crate.
pub mod aggregate;
pub mod bus;
pub mod config;
pub mod dialect;
pub mod distribution;
pub mod input;
pub mod output;
pub mod runner;
pub mod trust;

mod bounded_read;
mod chain;
mod env_file;
mod event;
mod planner;
mod plugins;
// Only the compile cache, the known-files record and the module store (all behind
// `plugins`) keep private files.
#[cfg(feature = "plugins")]
mod private_file;
mod result;
mod suggest;
mod system;
mod text;
mod trace;

pub use event::{EVENT_COUNT, HookEvent, UnknownEvent};
pub use output::{Decision, HookOutput};
pub use planner::Matcher;
pub use result::AggregatedHookResult;
pub use system::{FireEvent, FireInput, HookSystem, HookSystemBuilder};
pub use trace::TraceSink;
