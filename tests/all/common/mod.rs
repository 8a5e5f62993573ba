//! Shared helpers: a throw-away project with its own settings, hook scripts and HOME,
//! and runs of the real `hookhost` binary against it.
//!
//! Every CLI run gets `HOME` = a private temp dir and `LLXPRT_SYSTEM_SETTINGS_PATH` = a
//! file that does not exist, so no settings or extensions of the machine leak in, and
//! its working directory is *outside* the project, so only `--project-dir` can point
//! hooks at the project.
//!
//! The one home of helpers used by more than one test module; here the hook builders,
//! and by subject:
//! * `project` — [`Project`]: the project, its files and CLI runs against it;
//! * `run` — running the CLI with a hang limit: [`Run`], [`Fired`];
//! * `process` — processes and memory seen through `/proc`, bounded waits, sampling;
//! * `server` — [`Server`]: `hookhost serve` over stdin and stdout;
//! * `endpoint` — [`Endpoint`]: an HTTP server on 127.0.0.1 that records what
//!   http and prompt hooks send it;
//! * `http` — [`HttpServer`]: `hookhost serve --http`, and a raw HTTP/1.1 client;
//! * `registry` — [`Registry`]: a real OCI registry.

mod endpoint;
mod http;
mod process;
mod project;
mod registry;
mod run;
mod server;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

pub use endpoint::{Endpoint, Reply, Request as EndpointRequest};
pub use http::{HttpReply, HttpServer, TOKEN, post_bytes, request, signal_term, token_file};
pub use process::{
    MaxSampler, eventually, kill_pid, process_alive, processes_with, read_pid, rss_kib, wait_gone,
};
pub use project::Project;
pub use registry::Registry;
pub use run::{Fired, Run, claude_deny_reason, exit_within, run, run_within};
pub use server::Server;

/// The CLI under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_hookhost");

/// A CLI run that lasts longer than this is a hang (a bug), not slowness: it is
/// killed and the test fails.
pub const RUN_LIMIT: Duration = Duration::from_secs(120);

/// The repository root: the test binary belongs to `host/cli`.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The plugin compile cache every test shares (under the target dir), so each guest is
/// compiled once per test run, not once per test.
pub fn cache_dir() -> String {
    format!("{}/plugin-cache", env!("CARGO_TARGET_TMPDIR"))
}

/// A `{"type": "command", "command": …}` hook.
pub fn cmd(command: &str) -> Value {
    json!({"type": "command", "command": command})
}

/// A command hook with a timeout in milliseconds.
pub fn cmd_timeout(command: &str, timeout_ms: u64) -> Value {
    json!({"type": "command", "command": command, "timeout": timeout_ms})
}

/// A group of hooks without matcher.
pub fn group(hooks: Vec<Value>) -> Value {
    json!({"hooks": hooks})
}

/// A command that prints `text` (plain text, so it becomes the hook's `systemMessage`).
pub fn say(text: &str) -> String {
    format!("echo {text}")
}
