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

pub mod aggregate;
mod bounded_read;
pub mod bus;
pub mod chain;
pub mod config;
pub mod dialect;
pub mod distribution;
pub mod env_file;
pub mod event;
pub mod input;
pub mod output;
pub mod planner;
pub mod plugins;
pub mod result;
pub mod runner;
pub mod suggest;
mod system;
pub mod trace;
pub mod trust;

pub use event::{HookEvent, UnknownEvent};
pub use output::{Decision, HookOutput};
pub use result::AggregatedHookResult;
pub use system::{HookSystem, HookSystemBuilder};
