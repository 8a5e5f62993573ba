//! Structured log lines for the host's trace.
//!
//! A hook's stdout is its answer and its stderr is a block reason or a
//! failure message, so neither is the place for "what did the policy decide
//! and why". These functions are: on `wasm32-wasip2` they go through
//! `wasi:logging/logging@0.1.0-draft`, which every hookhost plugin may import
//! without a grant, and the host records each line (bounded in count and size)
//! in its trace, in `hookhost fire --explain` and in the OpenTelemetry export.
//! On other targets (a native command hook, a `wasm32-wasip1` module) a line
//! goes to stderr as `[info] context: message`.
//!
//! `context` groups related lines (a rule name, a subsystem); `message` is the
//! text.
//!
//! ```no_run
//! use hookhost_guest::log;
//!
//! log::info("allowlist", "npm install left-pad: allowed");
//! log::log(log::Level::Warn, "allowlist", "service slow to answer");
//! ```

use std::fmt;

/// How important a line is (the levels of `wasi:logging`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Values of variables and the flow of control.
    Trace,
    /// Of interest to someone debugging the hook.
    Debug,
    /// Of interest to someone monitoring the hook.
    Info,
    /// A hazardous situation.
    Warn,
    /// A serious error.
    Error,
    /// A fatal error.
    Critical,
}

impl Level {
    /// The level's name in lower case: `trace`, `debug`, `info`, `warn`,
    /// `error`, `critical`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Trace => "trace",
            Self::Debug => "debug",
            Self::Info => "info",
            Self::Warn => "warn",
            Self::Error => "error",
            Self::Critical => "critical",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(all(target_os = "wasi", target_env = "p2"))]
mod bindings {
    // Only `wasi:logging/logging`: a world of its own keeps the component's
    // imports to what the plugin calls (see `exit.rs`).
    wit_bindgen::generate!({
        inline: "
            package hookhost:guest-sdk-log;
            world log-only {
                import wasi:logging/logging@0.1.0-draft;
            }
        ",
        path: "wit",
        world: "hookhost:guest-sdk-log/log-only",
        generate_all,
    });
}

/// Emits one line at `level`.
pub fn log(level: Level, context: &str, message: &str) {
    #[cfg(all(target_os = "wasi", target_env = "p2"))]
    {
        use bindings::wasi::logging::logging;
        let level = match level {
            Level::Trace => logging::Level::Trace,
            Level::Debug => logging::Level::Debug,
            Level::Info => logging::Level::Info,
            Level::Warn => logging::Level::Warn,
            Level::Error => logging::Level::Error,
            Level::Critical => logging::Level::Critical,
        };
        logging::log(level, context, message);
    }
    #[cfg(not(all(target_os = "wasi", target_env = "p2")))]
    {
        use std::io::Write;
        // Nothing useful can be done when stderr is gone.
        let _ = std::io::stderr().write_all(stderr_line(level, context, message).as_bytes());
    }
}

/// The stderr line of the fallback: `[info] context: message` (or
/// `[info] message` without a context), with a newline.
#[cfg_attr(all(target_os = "wasi", target_env = "p2"), allow(dead_code))]
pub(crate) fn stderr_line(level: Level, context: &str, message: &str) -> String {
    if context.is_empty() {
        format!("[{level}] {message}\n")
    } else {
        format!("[{level}] {context}: {message}\n")
    }
}

/// Emits a [`Level::Trace`] line.
pub fn trace(context: &str, message: &str) {
    log(Level::Trace, context, message);
}

/// Emits a [`Level::Debug`] line.
pub fn debug(context: &str, message: &str) {
    log(Level::Debug, context, message);
}

/// Emits a [`Level::Info`] line.
pub fn info(context: &str, message: &str) {
    log(Level::Info, context, message);
}

/// Emits a [`Level::Warn`] line.
pub fn warn(context: &str, message: &str) {
    log(Level::Warn, context, message);
}

/// Emits a [`Level::Error`] line.
pub fn error(context: &str, message: &str) {
    log(Level::Error, context, message);
}
