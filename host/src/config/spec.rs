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
    /// The public key (PEM) a cosign signature of the module must verify with: the
    /// hook's own `verify`.
    pub verify_key: Option<PathBuf>,
    /// The key the user's or system's `tools.verifyPlugins` requires for this
    /// reference's prefix. It always applies: a hook's own `verify` adds a key, it
    /// never replaces this one (a repository must not swap the security team's key).
    pub required_key: Option<PathBuf>,
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
    /// The builtin policy a `"source": "builtin:NAME"` hook runs (its name), in the
    /// pack ([`crate::builtin::PACK`]); `path` is then its file in the cache, for
    /// people and tools, and is never read to run it.
    pub builtin: Option<&'static str>,
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
    /// Network and state granted (`allowedHosts`, `state`).
    pub grants: super::Grants,
}

/// Which shell runs a command hook's `command` (`"shell"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Shell {
    /// `/bin/sh -c` (the default).
    #[default]
    Sh,
    /// `bash -c`.
    Bash,
    /// `pwsh -Command` (or `powershell`), where one is installed.
    Powershell,
}

/// A command hook: a shell command line, or a program with arguments (exec form).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CommandConfig {
    /// The command line (the OS's `commandLinux`/`commandDarwin`/`commandWindows` when
    /// given), or with `args` the program. `${…}` variables are not replaced here:
    /// see the runner's command line preparation.
    pub command: String,
    /// Exec form: the program's arguments; no shell runs and nothing is expanded.
    pub args: Option<Vec<String>>,
    /// The shell that runs `command` (ignored in exec form).
    pub shell: Shell,
    /// Variables set for the hook's process (`env`), besides what it inherits.
    pub env: Vec<(String, String)>,
}

impl CommandConfig {
    /// The command as one line: the command line, or the program and its arguments
    /// quoted as a shell would need them; a shell other than `sh` is named first.
    /// What a reviewer approves and `hookhost check` shows.
    pub fn line(&self) -> String {
        let line = match &self.args {
            None => self.command.clone(),
            Some(args) => {
                let words =
                    std::iter::once(self.command.as_str()).chain(args.iter().map(String::as_str));
                shlex::try_join(words).unwrap_or_else(|_| {
                    // A NUL byte cannot be quoted; show it debug-escaped instead.
                    format!("{:?} {args:?}", self.command)
                })
            }
        };
        match (self.shell, &self.args) {
            (Shell::Sh, _) | (_, Some(_)) => line,
            (Shell::Bash, None) => format!("bash: {line}"),
            (Shell::Powershell, None) => format!("powershell: {line}"),
        }
    }
}

impl HookKind {
    /// What a reviewer approves for a hook that is not a plugin (whose key is its
    /// digest and grants): the command line, or the request or prompt it sends.
    pub fn review_text(&self) -> Option<String> {
        match self {
            HookKind::Command(c) => Some(c.line()),
            HookKind::Plugin(_) => None,
            HookKind::Http(h) => Some(format!(
                "http POST {} headers {:?} env {:?}",
                h.url, h.headers, h.allowed_env_vars
            )),
            HookKind::Prompt(p) => Some(format!("prompt {:?} model {:?}", p.prompt, p.model)),
            HookKind::Unsupported(u) => Some(format!("{} hook", u.type_name)),
            HookKind::Function(name) => Some(format!("function {name}")),
        }
    }
}

/// An `http` hook: the input is POSTed to `url`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HttpConfig {
    /// The endpoint (`http://` or `https://`).
    pub url: String,
    /// Request headers as written; `$VAR` / `${VAR}` in a value are replaced at run
    /// time, only for names in `allowed_env_vars`.
    pub headers: Vec<(String, String)>,
    /// The environment variables a header value may use.
    pub allowed_env_vars: Vec<String>,
}

/// A `prompt` hook: an LLM judges the call.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PromptConfig {
    /// The prompt; `$ARGUMENTS` is replaced by the input JSON.
    pub prompt: String,
    /// The model, overriding the endpoint's default.
    pub model: Option<String>,
    /// `continueOnBlock`: whether an `ok: false` lets the turn go on; `None` =
    /// the dialect's default ([`PromptConfig::ends_turn_on_block`]).
    pub continue_on_block: Option<bool>,
}

impl PromptConfig {
    /// Whether the model's `ok: false` also ends the turn (`continue: false`):
    /// Claude Code does so unless `continueOnBlock` is true, except on Stop and
    /// SubagentStop, where a block is what makes the agent go on (2.1.331);
    /// hookhost's own files keep seeds/003's plain block unless
    /// `continueOnBlock: false` asks for it.
    pub fn ends_turn_on_block(&self, event: crate::HookEvent, claude: bool) -> bool {
        let stop_event = matches!(
            event,
            crate::HookEvent::AfterAgent | crate::HookEvent::SubagentStop
        );
        !stop_event && !self.continue_on_block.unwrap_or(!claude)
    }
}

/// A hook type hookhost recognises but does not run (`agent`, `mcp_tool`): every
/// run fails with the reason, subject to the hook's failure policy.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UnsupportedConfig {
    /// The type as written.
    pub type_name: &'static str,
    /// Why hookhost does not run it.
    pub reason: String,
}

/// What a hook runs.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum HookKind {
    /// A shell command, or a program with arguments.
    Command(CommandConfig),
    /// A WASI component or preview-1 module run in wasmtime.
    Plugin(PluginConfig),
    /// An HTTP endpoint.
    Http(HttpConfig),
    /// One LLM completion.
    Prompt(PromptConfig),
    /// A type hookhost does not run.
    Unsupported(UnsupportedConfig),
    /// A Rust closure registered by the embedder (never from a settings file); the
    /// name it was registered with.
    Function(String),
}

/// When the fire waits for a hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Execution {
    /// The fire waits and merges the answer (the default).
    #[default]
    Sync,
    /// `async`: the hook runs in the background; its answer is discarded.
    Async,
    /// `asyncRewake`: in the background; a block becomes a notice
    /// ([`crate::HookSystem::take_notices`]).
    AsyncRewake,
}

/// One validated hook.
#[derive(Debug, Clone)]
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
    /// `if`: the permission rule a tool call must match for the hook to run.
    pub condition: Option<std::sync::Arc<crate::condition::Rule>>,
    /// Whether the fire waits for it.
    pub execution: Execution,
    /// `once`: at most one run per session.
    pub once: bool,
    /// `statusMessage`: what is shown while it runs.
    pub status_message: Option<String>,
}

impl PartialEq for HookSpec {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && self.description == other.description
            && self.kind == other.kind
            && self.timeout == other.timeout
            && self.failure_policy == other.failure_policy
            && self.mode == other.mode
            && self.condition.as_ref().map(ToString::to_string)
                == other.condition.as_ref().map(ToString::to_string)
            && self.execution == other.execution
            && self.once == other.once
            && self.status_message == other.status_message
    }
}

impl HookSpec {
    /// A hook of `kind` with every other setting at its default.
    pub fn new(name: impl Into<String>, kind: HookKind) -> HookSpec {
        HookSpec {
            name: name.into(),
            description: None,
            kind,
            timeout: DEFAULT_TIMEOUT,
            failure_policy: FailurePolicy::default(),
            mode: HookMode::default(),
            condition: None,
            execution: Execution::default(),
            once: false,
            status_message: None,
        }
    }

    /// `"command"`, `"plugin"`, `"http"`, `"prompt"`, or the unsupported type.
    pub fn type_name(&self) -> &'static str {
        match &self.kind {
            HookKind::Command(_) => "command",
            HookKind::Plugin(_) => "plugin",
            HookKind::Http(_) => "http",
            HookKind::Prompt(_) => "prompt",
            HookKind::Unsupported(u) => u.type_name,
            HookKind::Function(_) => "function",
        }
    }

    /// The deduplication key (seeds/001 §7.9): the command string for commands (with
    /// its exec-form arguments and shell when given); for the other types every
    /// setting of what runs, since the same module, URL or prompt with other limits,
    /// grants or headers is a different hook. The `if` rule is part of the key: the
    /// same command guarded by two rules is two hooks.
    pub fn dedup_key(&self) -> String {
        let condition = self
            .condition
            .as_ref()
            .map(|rule| format!(" if:{rule}"))
            .unwrap_or_default();
        let kind = match &self.kind {
            HookKind::Command(CommandConfig {
                command,
                args: None,
                shell: Shell::Sh,
                env,
            }) if env.is_empty() => format!("command:{command}"),
            HookKind::Command(c) => {
                format!("command:{:?}", (&c.command, &c.args, c.shell, &c.env))
            }
            HookKind::Plugin(p) => format!("plugin:{p:?}"),
            HookKind::Http(h) => format!("http:{h:?}"),
            HookKind::Prompt(p) => format!("prompt:{p:?}"),
            HookKind::Unsupported(u) => format!("{}:{}", u.type_name, self.name),
            HookKind::Function(name) => format!("function:{name}"),
        };
        kind + &condition
    }
}
