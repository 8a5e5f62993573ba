//! The ways a hook can fail without giving an answer. Each one is fail-open unless the
//! hook's `failurePolicy` is `block`; each message names the cause and, for limits,
//! the limit's value.

use std::time::Duration;

/// Why a hook produced no usable answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HookFailure {
    /// It exited with a code other than 0 and 2.
    #[error("exited with code {code}{}", exit_hint(*code))]
    ExitCode {
        /// The exit code.
        code: i32,
    },
    /// It was killed by a signal it did not get from hookhost.
    #[error("killed by signal {0}")]
    Signal(i32),
    /// It ran past its timeout and was killed (or, for a plugin, interrupted).
    #[error("timed out after {} ms", .0.as_millis())]
    Timeout(Duration),
    /// The process could not be started.
    #[error("could not start: {0}")]
    Spawn(String),
    /// The host itself ran out of a resource (descriptors, processes, memory) while
    /// starting or running the hook: the hook did not get to decide. Reported as
    /// such so that it is not mistaken for a broken hook; `failurePolicy` governs it.
    #[error("could not run: the host ran out of resources ({0})")]
    HostResources(String),
    /// A plugin used up its fuel.
    #[cfg_attr(not(feature = "plugins"), allow(dead_code))]
    #[error("ran out of fuel (limit {0} units)")]
    FuelExhausted(u64),
    /// A plugin tried to grow its memory past its limit.
    #[cfg_attr(not(feature = "plugins"), allow(dead_code))]
    #[error("exceeded its memory limit of {0} bytes")]
    MemoryLimit(u64),
    /// A plugin trapped (panic, unreachable, stack overflow, …).
    #[error("trapped: {0}")]
    Trap(String),
    /// It exited 0 but wrote more to stdout than the output cap: the answer is cut off.
    #[error(
        "wrote {total} bytes to stdout, more than the {kept}-byte output cap; its answer was cut off and is ignored"
    )]
    TruncatedOutput {
        /// The bytes kept (the cap).
        kept: usize,
        /// The bytes written.
        total: u64,
    },
    /// A plugin could not be loaded or instantiated.
    #[error("cannot load plugin: {0}")]
    Load(String),
}

fn exit_hint(code: i32) -> &'static str {
    match code {
        126 => " (command not executable)",
        127 => " (command not found)",
        _ => "",
    }
}
