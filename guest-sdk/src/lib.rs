//! Write hookhost hooks in Rust.
//!
//! A hook reads one JSON object on stdin (the event), may write one JSON
//! object on stdout (its [`HookOutput`]), and exits with 0 (ok), 2 (block) or
//! anything else (failed; the agent proceeds). This crate gives that contract
//! types and one entry point:
//!
//! - [`HookInput`]: the event, one typed struct per event, parsed leniently
//!   (missing fields default, unknown fields and events are kept);
//! - [`HookOutput`]: the answer, with builders such as [`HookOutput::block`]
//!   and [`HookOutput::tool_input`];
//! - [`run`] / [`register_hook!`]: read, parse, call your handler, print,
//!   exit with the right status.
//!
//! The same source builds as a WebAssembly plugin
//! (`cargo build --release --target wasm32-wasip2`, or `wasm32-wasip1`) and as
//! a native command hook (`cargo build --release`).
//!
//! # Example
//!
//! A `BeforeTool` policy that refuses writes under `/etc` and tags everything
//! else:
//!
//! ```no_run
//! use hookhost_guest::{HookInput, HookOutput, HookResult, register_hook};
//!
//! fn guard(input: HookInput) -> HookResult {
//!     let HookInput::BeforeTool(call) = input else {
//!         // Not our event: say nothing, which means "proceed".
//!         return Ok(HookOutput::allow());
//!     };
//!     let path = call
//!         .tool_input
//!         .get("file_path")
//!         .and_then(|v| v.as_str())
//!         .unwrap_or_default();
//!     if path.starts_with("/etc/") {
//!         // Written to stdout as {"decision":"block","reason":…}; exit status 2.
//!         return Ok(HookOutput::block(format!("{path}: writing under /etc is not allowed")));
//!     }
//!     Ok(HookOutput::allow().system_message(format!("{} checked", call.tool_name)))
//! }
//!
//! register_hook!(guard);
//! ```
//!
//! # Policy helpers
//!
//! The SDK knows the shapes a policy looks for, so a policy need not scan
//! strings:
//!
//! - [`HookInput::tool_call`] gives one [`ToolCall`] view of a tool call from
//!   any agent: [`ToolCall::shell_command`] for `run_shell_command` and
//!   Claude's `Bash`, [`ToolCall::file_write`] for `write_file`, `replace`,
//!   `Write`, `Edit`, `MultiEdit` and `NotebookEdit`;
//! - [`shell::parse`] parses a command line into pipelines, commands, words,
//!   redirections and nested commands (`$(…)`, `<(…)`, `sh -c '…'`), and
//!   answers questions such as [`shell::ShellCommand::pipes_download_into_shell`];
//! - [`secrets::find_secret`] and [`secrets::find_private_key`] find private
//!   keys and access tokens, not mentions of them.
//!
//! ```no_run
//! use hookhost_guest::{HookInput, HookOutput, HookResult, register_hook, secrets, shell};
//!
//! fn policy(input: HookInput) -> HookResult {
//!     let Some(call) = input.tool_call() else {
//!         return Ok(HookOutput::allow());
//!     };
//!     if let Some(command) = call.shell_command() {
//!         // `curl … | sudo bash`, `c=curl; $c x | sh`, `bash <(curl …)`, …
//!         if let Some(reason) = shell::parse(command).download_into_shell() {
//!             return Ok(HookOutput::block(format!("blocked: {reason}")));
//!         }
//!         // Any command that runs `rm` with `-rf`, wherever it is nested.
//!         let parsed = shell::parse(command);
//!         let rm_rf = parsed.simple_commands().any(|c| {
//!             c.program() == Some("rm") && c.args().iter().any(|a| a.text == "-rf")
//!         });
//!         if rm_rf {
//!             return Ok(HookOutput::block("rm -rf needs a human"));
//!         }
//!     }
//!     if let Some(write) = call.file_write()
//!         && let Some(kind) = secrets::find_secret(&write.content)
//!     {
//!         return Ok(HookOutput::block(format!("{}: would write {kind}", write.path)));
//!     }
//!     Ok(HookOutput::allow())
//! }
//!
//! register_hook!(policy);
//! ```
//!
//! Returning `Err` (any error type, thanks to `?` and [`HookResult`]) prints
//! the error on stderr and exits with status 1: the hook failed and the agent
//! proceeds (fail-open). Only a block output exits with status 2.
//!
//! Handlers are plain functions, so they can be unit-tested natively with
//! [`handle`], which does everything [`run`] does except the I/O and the exit.
//!
//! # Capabilities
//!
//! A plugin has no state and no network unless its hook's settings grant
//! them; logging needs no grant. Each wrapper imports its WASI interface only
//! when the plugin calls it, so a plugin's import list shows what it uses:
//!
//! | module    | WASI interface (world)                                        | grant in the hook's settings            |
//! |-----------|---------------------------------------------------------------|-----------------------------------------|
//! | [`log`]   | `wasi:logging/logging@0.1.0-draft` (`hook`)                   | none                                    |
//! | [`state`] | `wasi:keyvalue/store@0.2.0-draft` (`hook-with-state`)         | `"state": true` or `{"maxBytes": N}`    |
//! | `http`    | `wasi:http/outgoing-handler@0.2.12` (`hook-with-http`)        | `"allowedHosts": ["api.example.com"]`   |
//!
//! - [`log::info`] and friends write structured lines to the host's trace
//!   (stderr `[info] context: message` on other targets);
//! - [`state::Bucket`] is a private, persistent key-value store, with text,
//!   JSON and counter helpers; without the grant it fails with
//!   [`state::StateError::AccessDenied`], whose message names the setting;
//! - `http::get` and `http::Request` send requests to the allowed hosts; a
//!   request to any other host fails with `HttpError::Denied`, and redirects
//!   are not followed. This module needs the crate's `http` feature (off by
//!   default; see the module's docs for why).
//!
//! State and HTTP exist only in `wasm32-wasip2` builds: natively and on
//! `wasm32-wasip1` every call returns an error saying so, so a policy can
//! decide what a missing capability means (fail open, fail closed).
//!
//! ```no_run
//! use hookhost_guest::{HookInput, HookOutput, HookResult, log, register_hook, state::Bucket};
//!
//! fn count_shell_calls(input: HookInput) -> HookResult {
//!     let Some(command) = input.tool_call().and_then(|c| c.shell_command()) else {
//!         return Ok(HookOutput::allow());
//!     };
//!     let key = format!("shell:{}", input.base().session_id);
//!     let n = Bucket::open("")?.increment(&key)?;
//!     log::info("count", &format!("shell call {n}: {command}"));
//!     Ok(HookOutput::allow())
//! }
//!
//! register_hook!(count_shell_calls);
//! ```
//!
//! # Exit status on `wasm32-wasip2`
//!
//! Do not call `std::process::exit(2)` on `wasm32-wasip2`: Rust's standard
//! library maps every non-zero code to `wasi:cli/exit.exit(err)`, which the
//! host sees as status 1, a failed hook rather than a block. [`run`] and
//! [`exit`] call `wasi:cli/exit.exit-with-code` instead.

#![deny(missing_docs)]

mod exit;
#[cfg(feature = "http")]
pub mod http;
mod input;
mod llm;
pub mod log;
mod output;
pub mod secrets;
pub mod shell;
pub mod state;
#[cfg(test)]
mod tests;

use std::fmt::Display;
use std::io::{Read, Write};

pub use input::{
    AfterAgentInput, AfterModelInput, AfterToolInput, Base, BeforeAgentInput, BeforeModelInput,
    BeforeToolInput, BeforeToolSelectionInput, EVENT_FIELD, FileWrite, HookInput,
    NotificationInput, OtherInput, PreCompressInput, SessionEndInput, SessionStartInput, ToolCall,
};
pub use llm::{
    Candidate, CandidateContent, GenerationConfig, LlmMessage, LlmRequest, LlmResponse, Part,
    SafetyRating, ToolConfig, UsageMetadata,
};
pub use output::{Decision, HookOutput, ToolMode};
/// Re-exported so hooks can build and inspect JSON without their own dependency.
pub use serde_json::{self, Map, Value, json};

/// Exit status: success, stdout is the hook's output.
pub const EXIT_OK: u8 = 0;
/// Exit status: the hook failed; the agent proceeds (fail-open).
pub const EXIT_FAILED: u8 = 1;
/// Exit status: block the operation.
pub const EXIT_BLOCK: u8 = 2;

/// What a handler returns: an output, or any error (reported on stderr,
/// exit status 1).
pub type HookResult = Result<HookOutput, Box<dyn std::error::Error>>;

/// Everything a hook run produces, before any I/O: see [`handle`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// What goes to stdout: the output JSON and a newline, or nothing on failure.
    pub stdout: String,
    /// What goes to stderr: the error message on failure, else nothing.
    pub stderr: String,
    /// The exit status: [`EXIT_OK`], [`EXIT_BLOCK`] or [`EXIT_FAILED`].
    pub exit_code: u8,
}

/// Parses `stdin`, calls `handler` and decides stdout, stderr and the exit
/// status, without touching the real streams. [`run`] is this plus I/O.
pub fn handle<F, E>(stdin: &[u8], handler: F) -> Outcome
where
    F: FnOnce(HookInput) -> Result<HookOutput, E>,
    E: Display,
{
    let failed = |message: String| Outcome {
        stdout: String::new(),
        stderr: format!("{message}\n"),
        exit_code: EXIT_FAILED,
    };
    let input = match HookInput::from_json(stdin) {
        Ok(input) => input,
        Err(e) => return failed(format!("hook input is not a valid event JSON object: {e}")),
    };
    let event = input.event_name().to_owned();
    answer(&event, handler(input))
}

/// The outcome of a handler's `result` on an event named `event`: what
/// [`handle`] does after parsing the input. For a program that answers for
/// several handlers from one parse of its input (hookhost's builtin pack).
pub fn answer<E: Display>(event: &str, result: Result<HookOutput, E>) -> Outcome {
    let mut output = match result {
        Ok(output) => output,
        Err(e) => {
            return Outcome {
                stdout: String::new(),
                stderr: format!("hook failed: {e}\n"),
                exit_code: EXIT_FAILED,
            };
        }
    };
    // The spec's event-specific outputs carry `hookEventName`; filling it here
    // spares every handler from repeating the event it was called for.
    if let Some(specific) = output.hook_specific_output.as_mut()
        && !event.is_empty()
        && !specific.contains_key("hookEventName")
    {
        specific.insert("hookEventName".to_owned(), Value::String(event.to_owned()));
    }
    Outcome {
        stdout: format!("{}\n", output.to_json()),
        stderr: String::new(),
        exit_code: if output.is_block() {
            EXIT_BLOCK
        } else {
            EXIT_OK
        },
    }
}

/// The buffer `run` reads stdin into before it has to grow.
const INPUT_CAPACITY: usize = 16 * 1024;

/// The hook's `main`: reads all of stdin, parses it, calls `handler`, writes
/// the output JSON to stdout and exits — with 2 if the output blocks, 0
/// otherwise, and 1 (fail-open) after printing the error to stderr when the
/// input does not parse or the handler returns `Err`.
pub fn run<F, E>(handler: F) -> !
where
    F: FnOnce(HookInput) -> Result<HookOutput, E>,
    E: Display,
{
    // Room for a typical event up front: on wasm32-wasip2 every read is a host call
    // (`blocking-read`), and `read_to_end` into an empty `Vec` probes with 32 bytes
    // and then reads once per doubling of the buffer; with room, a typical event
    // takes two calls (the data, then end of input).
    let mut stdin = Vec::with_capacity(INPUT_CAPACITY);
    if let Err(e) = std::io::stdin().read_to_end(&mut stdin) {
        eprintln!("hook could not read stdin: {e}");
        exit(EXIT_FAILED);
    }
    let outcome = handle(&stdin, handler);
    // Write errors (a closed pipe) cannot be reported better than by the
    // status we are about to return.
    let _ = std::io::stdout().write_all(outcome.stdout.as_bytes());
    let _ = std::io::stderr().write_all(outcome.stderr.as_bytes());
    exit(outcome.exit_code)
}

/// Flushes stdout and stderr and ends the hook with `code`, correctly on every
/// target (on `wasm32-wasip2` through `wasi:cli/exit.exit-with-code`, so 2
/// reaches the host as 2).
pub fn exit(code: u8) -> ! {
    exit::exit(code)
}

/// Defines `fn main` that runs `handler` with [`run`].
///
/// `handler` is any `fn(HookInput) -> Result<HookOutput, E>` with `E: Display`,
/// typically returning [`HookResult`].
///
/// ```no_run
/// use hookhost_guest::{HookInput, HookOutput, HookResult, register_hook};
///
/// fn audit(input: HookInput) -> HookResult {
///     eprintln!("saw {}", input.event_name());
///     Ok(HookOutput::allow())
/// }
/// register_hook!(audit);
/// ```
#[macro_export]
macro_rules! register_hook {
    ($handler:path) => {
        fn main() {
            $crate::run($handler)
        }
    };
}
