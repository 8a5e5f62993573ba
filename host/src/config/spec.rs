//! The validated configuration of one hook: what runs, its limits, and how its
//! failures count.

use std::path::PathBuf;
use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;

/// Default wall-clock timeout of a hook (seeds/001 §6.2).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_millis(60_000);
/// Default fuel (roughly, Wasm instructions) a plugin may burn per call.
pub const DEFAULT_FUEL: u64 = 10_000_000_000;
/// Default cap on a plugin's linear memory, in bytes.
pub const DEFAULT_MEMORY_LIMIT: u64 = 128 * 1024 * 1024;

/// What a failed hook (crash, timeout, limit, bad exit code) means for the operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FailurePolicy {
    /// Fail open: warn and proceed (the spec's behaviour).
    #[default]
    Allow,
    /// Fail closed: block, with a reason naming the failure.
    Block,
}

/// Whether a hook's decisions are enforced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum HookMode {
    /// Its blocks block and its stops stop (the default).
    #[default]
    Enforce,
    /// It runs and its would-be block or stop is reported (in `allOutputs`, the
    /// `hooks` entry, `--explain` and the trace) but not enforced: roll a new policy
    /// out before enforcing it.
    Monitor,
}

/// A directory a plugin may see.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Preopen {
    /// The host directory (after expansion; relative paths resolved).
    pub host: PathBuf,
    /// Where the guest sees it, e.g. `/project`.
    pub guest: String,
    /// Whether the guest may write; read-only otherwise.
    pub writable: bool,
}

/// Where a plugin's module comes from when the hook gives `source` (an OCI
/// reference) instead of `path`: [`crate::distribution`] resolves it to a file of
/// the module store before the hook is built.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ModuleSource {
    /// The reference as configured, `oci://REGISTRY/REPO[:TAG][@sha256:…]`.
    pub reference: String,
    /// The public key (PEM) a cosign signature of the module must verify with.
    pub verify_key: Option<PathBuf>,
    /// The manifest digest used (pinned in the reference or locked), once resolved.
    pub digest: Option<String>,
    /// Why the module cannot run (not locked, not pulled, unsigned …), once resolved.
    pub problem: Option<String>,
}

/// `tools.verifyPlugins` in user or system settings: every `source` under `prefix`
/// must carry a cosign signature that verifies with `key` (unless the hook names its
/// own `verify` key).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyRule {
    /// A reference prefix, e.g. `oci://ghcr.io/acme/`.
    pub prefix: String,
    /// The public key (PEM), resolved.
    pub key: PathBuf,
}

/// The settings of a `plugin` hook (CONTRACT §2).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PluginConfig {
    /// The `.wasm` file (component or preview-1 module), resolved; for a `source`
    /// hook, the module's file in the module store.
    pub path: PathBuf,
    /// The OCI reference the module comes from, if the hook gives `source`.
    pub source: Option<Box<ModuleSource>>,
    /// The pinned SHA-256 of the file, if any.
    pub sha256: Option<[u8; 32]>,
    /// The fuel budget per call.
    pub fuel: u64,
    /// The cap on linear memory, in bytes.
    pub memory_limit: u64,
    /// Environment variables granted, besides the three project-dir variables.
    pub env: Vec<(String, String)>,
    /// Directories granted.
    pub preopens: Vec<Preopen>,
    /// Arguments (after the program name).
    pub args: Vec<String>,
}

/// What a hook runs.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum HookKind {
    /// A shell command.
    Command {
        /// The command line, run by `sh -c`.
        command: String,
    },
    /// A WASI component or preview-1 module run in wasmtime.
    Plugin(PluginConfig),
}

/// One validated hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookSpec {
    /// A display name: `name` from settings, else the command or the file name.
    pub name: String,
    /// An optional description, shown by `hookhost check`.
    pub description: Option<String>,
    /// What runs.
    pub kind: HookKind,
    /// Wall-clock timeout.
    pub timeout: Duration,
    /// What a failure of this hook means.
    pub failure_policy: FailurePolicy,
    /// Whether its decisions are enforced.
    pub mode: HookMode,
}

impl HookSpec {
    /// `"command"` or `"plugin"`.
    pub fn type_name(&self) -> &'static str {
        match self.kind {
            HookKind::Command { .. } => "command",
            HookKind::Plugin(_) => "plugin",
        }
    }

    /// The deduplication key (seeds/001 §7.9): the command string for commands; for
    /// plugins the path and every setting, since the same module with other limits or
    /// grants is a different hook.
    pub fn dedup_key(&self) -> String {
        match &self.kind {
            HookKind::Command { command } => format!("command:{command}"),
            HookKind::Plugin(p) => format!("plugin:{p:?}"),
        }
    }
}
