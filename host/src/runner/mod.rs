//! Running one hook: the interface every hook type implements.
//!
//! A runner turns (hook, stdin bytes) into a [`RawOutcome`]: the exit status (or the
//! failure that stands for one) and the captured stdout and stderr. [`interpret`]
//! then gives that outcome its meaning (seeds/001 §4.3, §9) — the same code for a
//! subprocess and for a Wasm guest, so the two types cannot drift apart — and
//! [`apply_policy`] applies the hook's settings (dialect, failure policy, monitor
//! mode) to it.
//!
//! `http` and `prompt` hooks report in the same terms: a 2xx body is an exit-0
//! stdout, a model's block an exit 2 with the reason on stderr, and a request that
//! got no usable answer a [`HookFailure`].

mod capture;
mod command;
mod command_line;

mod failure;
mod function;
mod hook_env;
mod http;
mod interpret;
mod policy;
mod prompt;
pub mod reaper;
mod runnable;
pub mod slots;
#[cfg(feature = "plugins")]
pub mod wasm;
mod web;

use std::path::PathBuf;

use std::time::Duration;

pub use crate::result::GuestLogs;
pub use crate::result::HookExecutionResult;
pub use capture::{Captured, DEFAULT_OUTPUT_CAP};
#[cfg(feature = "internals")]
pub use command::KILL_GRACE;
pub use command::{NESTED_ENV, TOKEN_ENV, run_command};
#[cfg(feature = "internals")]
pub use command_line::{CommandLine, PluginDirs};
pub use failure::{HookFailure, LoadError};
pub use function::{FunctionAnswer, FunctionHook, HookFn};
pub use interpret::interpret;
pub use policy::apply_policy;
pub use runnable::{RunnableHook, Runner};

use crate::config::{HookModel, PROJECT_DIR_VARS};

/// How a hook ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    /// It exited with this code (a Wasm guest's exit code counts the same).
    Exited(i32),
    /// It did not exit normally.
    Failed(HookFailure),
}

/// Everything a runner observed.
#[derive(Debug, Clone)]
pub struct RawOutcome {
    /// How it ended.
    pub status: Status,
    /// Its stdout.
    pub stdout: Captured,
    /// Its stderr.
    pub stderr: Captured,
    /// Wall-clock time from start to end (waiting for a slot not included).
    pub duration: Duration,
    /// Time spent waiting for a process or pool slot before it started.
    pub queued: Duration,
    /// Fuel a plugin burned (none for commands).
    pub fuel_used: Option<u64>,
    /// Lines a plugin logged (and hookhost's lines about its grants).
    pub logs: GuestLogs,
}

impl RawOutcome {
    /// An outcome for a hook that could not even start.
    pub fn failed(failure: HookFailure) -> RawOutcome {
        RawOutcome {
            status: Status::Failed(failure),
            stdout: Captured::default(),
            stderr: Captured::default(),
            duration: Duration::ZERO,
            queued: Duration::ZERO,
            fuel_used: None,
            logs: GuestLogs::default(),
        }
    }
}

/// What every run shares: the project and the caps.
#[derive(Debug)]
pub struct RunContext {
    /// The project dir: cwd of command hooks, value of the project-dir variables.
    pub project_dir: PathBuf,
    /// The three project-dir variables as text, ready to hand to a guest (command
    /// hooks get the project dir's raw bytes instead).
    #[cfg_attr(not(feature = "plugins"), allow(dead_code))]
    pub project_env: Vec<(String, String)>,
    /// The cap on each of stdout and stderr.
    pub output_cap: usize,
    /// More variables for command hooks only (`CLAUDE_ENV_FILE`).
    pub command_env: Vec<(String, String)>,
    /// `tools.hookModel` of the user's settings: the endpoint prompt hooks ask
    /// (without it, the environment's).
    pub hook_model: Option<HookModel>,
    /// `tools.scrubHookEnv`: command hooks get `hook_env::KEPT_ENV` of the
    /// environment, not all of it.
    pub scrub_env: bool,
}

impl RunContext {
    /// A context for `project_dir` with the given output cap.
    pub fn new(project_dir: PathBuf, output_cap: usize) -> RunContext {
        let dir = project_dir.to_string_lossy().into_owned();
        RunContext {
            project_env: PROJECT_DIR_VARS
                .iter()
                .map(|name| ((*name).to_owned(), dir.clone()))
                .collect(),
            project_dir,
            output_cap,
            command_env: Vec::new(),
            hook_model: None,
            scrub_env: false,
        }
    }
}
