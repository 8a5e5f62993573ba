//! The ways a hook can fail without giving an answer. Each one is fail-open unless the
//! hook's `failurePolicy` is `block`; each message names the cause and, for limits,
//! the limit's value.

use std::path::PathBuf;
#[cfg(feature = "plugins")]
use std::sync::Arc;
use std::time::Duration;

#[cfg(feature = "plugins")]
use super::wasm::{
    module::PluginLoadError, preopen::PreopenError, runtime::EngineError, sandbox::SandboxError,
};

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
    Load(LoadError),
    /// An http or prompt hook's request failed, or its answer is not one: the
    /// message names the URL and what came back.
    #[error("{0}")]
    Request(String),
    /// The hook is not run: a type hookhost does not run, or a URL the user's
    /// settings do not allow.
    #[error("not run: {0}")]
    NotRun(String),
}

/// Why a plugin could not be loaded or instantiated ([`HookFailure::Load`]).
///
/// A failure is cloned to every hook that shares it, so causes that cannot be
/// cloned (I/O and wasmtime errors) are shared behind an [`Arc`]; and since they
/// have no equality of their own, two load errors are equal when they read the same.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LoadError {
    /// hookhost was built without the `plugins` feature.
    #[cfg_attr(feature = "plugins", allow(dead_code))]
    #[error("hookhost was built without plugin support (feature \"plugins\")")]
    Unsupported,
    /// hookhost was built without the `plugins` feature; the plugin file.
    #[cfg_attr(feature = "plugins", allow(dead_code))]
    #[error("{0}: hookhost was built without plugin support (feature \"plugins\")")]
    UnsupportedFile(PathBuf),
    /// Hooks are disabled, so no plugin was loaded.
    #[error("not loaded: hooks are disabled")]
    Disabled,
    /// The hook's `source` does not resolve to a module in the store: the
    /// resolver's message, which names the reference and the command that fixes it.
    #[error("{0}")]
    Source(String),
    /// The Wasm engine is shutting down: no call slot is left.
    #[cfg_attr(not(feature = "plugins"), allow(dead_code))]
    #[error("the engine is shutting down")]
    ShuttingDown,
    /// The file is not the one its `sha256` pins.
    #[cfg_attr(not(feature = "plugins"), allow(dead_code))]
    #[error(
        "{path}: sha256 mismatch: settings pin {}, the file has {}",
        hex::encode(.pinned),
        hex::encode(.actual)
    )]
    Sha256Mismatch {
        /// The plugin file.
        path: PathBuf,
        /// The digest in settings.
        pinned: [u8; 32],
        /// The file's digest.
        actual: [u8; 32],
    },
    /// The Wasm engine cannot be created.
    #[cfg(feature = "plugins")]
    #[error(transparent)]
    Engine(Arc<EngineError>),
    /// The plugin file cannot be read, compiled or linked.
    #[cfg(feature = "plugins")]
    #[error("{path}: {source}")]
    Module {
        /// The plugin file.
        path: PathBuf,
        /// Why.
        source: Arc<PluginLoadError>,
    },
    /// A preopen grant is refused.
    #[cfg(feature = "plugins")]
    #[error("{path}: {source}")]
    Preopen {
        /// The plugin file.
        path: PathBuf,
        /// Why.
        source: Arc<PreopenError>,
    },
    /// The WASI context of a call cannot be built.
    #[cfg(feature = "plugins")]
    #[error(transparent)]
    Sandbox(Arc<SandboxError>),
}

impl PartialEq for LoadError {
    fn eq(&self, other: &LoadError) -> bool {
        self.to_string() == other.to_string()
    }
}

impl Eq for LoadError {}

fn exit_hint(code: i32) -> &'static str {
    match code {
        126 => " (command not executable)",
        127 => " (command not found)",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_errors_read_as_before_and_compare_by_text() {
        let mismatch = LoadError::Sha256Mismatch {
            path: "p.wasm".into(),
            pinned: [0xab; 32],
            actual: [0xcd; 32],
        };
        assert_eq!(
            HookFailure::Load(mismatch.clone()).to_string(),
            format!(
                "cannot load plugin: p.wasm: sha256 mismatch: settings pin {}, the file has {}",
                "ab".repeat(32),
                "cd".repeat(32)
            )
        );
        assert_eq!(
            LoadError::UnsupportedFile("p.wasm".into()).to_string(),
            "p.wasm: hookhost was built without plugin support (feature \"plugins\")"
        );
        assert_eq!(
            LoadError::Source("not locked".to_owned()),
            LoadError::Source("not locked".to_owned())
        );
        assert_ne!(mismatch, LoadError::Disabled);
    }
}
