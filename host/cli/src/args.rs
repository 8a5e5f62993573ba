//! The command line as clap reads it: subcommands, their flags, and where settings
//! come from.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use hookhost::dialect::{Dialect, parse_event};
use hookhost::{HookEvent, HookSystem, HookSystemBuilder};

#[derive(Debug, Parser)]
#[command(
    name = "hookhost",
    version,
    long_version = LONG_VERSION,
    about = "Run AI coding agents' hooks: shell commands and sandboxed WASI plugins",
    arg_required_else_help = false
)]
pub(super) struct Cli {
    #[command(subcommand)]
    pub(super) command: Option<Command>,
}

/// `hookhost --version`: the version, the commit, the wasmtime it embeds and the
/// features compiled in.
macro_rules! long_version {
    ($features:literal) => {
        concat!(
            env!("CARGO_PKG_VERSION"),
            "\ncommit: ",
            env!("HOOKHOST_COMMIT"),
            "\nwasmtime: ",
            env!("HOOKHOST_WASMTIME"),
            "\nfeatures: plugins, oci, http",
            $features,
        )
    };
}
#[cfg(feature = "otel")]
const LONG_VERSION: &str = long_version!(", otel");
#[cfg(not(feature = "otel"))]
const LONG_VERSION: &str = long_version!("");

#[derive(Debug, Subcommand)]
pub(super) enum Command {
    /// Fire one event: the event's JSON on stdin, the aggregated result on stdout;
    /// exit 2 when blocked, 0 otherwise.
    Fire {
        /// The event: BeforeTool, AfterTool, BeforeModel, AfterModel,
        /// BeforeToolSelection, BeforeAgent, AfterAgent, SessionStart, SessionEnd,
        /// PreCompress or Notification — or a Claude Code name (PreToolUse,
        /// PostToolUse, UserPromptSubmit, Stop, SubagentStop, PermissionRequest, …,
        /// see docs/EVENTS.md), whose input then uses Claude's tool names.
        #[arg(value_parser = parse_event_arg)]
        event: (HookEvent, Dialect),
        /// Also print a table of every hook run on stderr: source, matcher, type,
        /// outcome, time, fuel, decision, reason or error, stderr excerpt.
        #[arg(long)]
        explain: bool,
        #[command(flatten)]
        settings: SettingsArgs,
        /// The detached process that runs the background hooks (crate::detach).
        #[arg(long = "run-background", hide = true)]
        run_background: bool,
    },
    /// Validate the settings and list the hooks of each event in execution order;
    /// exit 1 on any error.
    Check {
        #[command(flatten)]
        settings: SettingsArgs,
        /// Instead: for each agent found, whether `hookhost hook` is wired into it,
        /// whether the agent will run it (and why not), and the command that fixes
        /// it; exit 1 when a wired agent will not run it.
        #[arg(long)]
        agents: bool,
    },
    /// Wire `hookhost hook` into agents (claude, codex, gemini, llxprt, copilot,
    /// qwen, droid, opencode, kilo; default: every agent found), in each agent's
    /// user-level file and format, with what it needs to run (Codex's trust).
    Setup {
        /// The agents (default: every agent whose directory or program is found).
        agents: Vec<String>,
        /// Print the changes as a diff; write nothing.
        #[arg(long)]
        dry_run: bool,
        /// Take out exactly what setup added (a file it made is deleted, a file it
        /// edited gets its bytes back when nothing else changed it).
        #[arg(long)]
        remove: bool,
    },
    /// Serve fires over JSON Lines on stdin/stdout (the MessageBus request/response
    /// contract), a Unix socket, or HTTP, keeping plugins compiled; settings reload
    /// when their files change.
    Serve(ServeArgs),
    /// Act as one hook inside an agent (Claude Code, Gemini CLI, LLxprt Code): read
    /// the agent's hook stdin, run the configured hooks, answer in the agent's dialect
    /// (exit 2 on block).
    Hook {
        #[command(flatten)]
        settings: SettingsArgs,
        /// Any failure of a hook (could not load, crashed, timed out, broken
        /// settings) becomes a deny naming the cause, instead of a visible warning.
        #[arg(long)]
        fail_closed: bool,
        /// The detached process that runs the background hooks (crate::detach).
        #[arg(long = "run-background", hide = true)]
        run_background: bool,
    },
    /// Approve the hooks of the project's settings and extensions (needed when
    /// `tools.requireHookTrust` is on): each hook as written, with the content of
    /// the scripts it names (plugins with their module's SHA-256 and grants).
    Trust {
        #[command(flatten)]
        settings: SettingsArgs,
        /// Only list the hooks that are not approved yet, and why.
        #[arg(long)]
        list: bool,
        /// Also approve hooks whose code cannot be pinned (a sourced file or `-c`
        /// script computed at run time): hookhost cannot notice when that code
        /// changes, so approve again on every change.
        #[arg(long, conflicts_with = "list")]
        unpinned: bool,
    },
    /// Set up a project: `.llxprt/settings.json` with hooks enabled and a working
    /// example hook.
    Init {
        /// The project directory (default: the current directory).
        #[arg(long, value_name = "DIR", default_value = ".")]
        project_dir: PathBuf,
        /// Replace an existing `.llxprt/settings.json`.
        #[arg(long)]
        force: bool,
    },
    /// Scaffold a plugin project (Rust, Python, JavaScript, Go or C) that builds, passes
    /// its own test, and comes with settings and replay cases.
    New {
        /// The language: rust, python, js, go or c.
        #[arg(long = "lang", value_name = "LANG", default_value = "rust")]
        language: String,
        /// The hook's name (default: the directory's name).
        #[arg(long)]
        name: Option<String>,
        /// The directory to create.
        dir: PathBuf,
    },
    /// Replay recorded events (a directory of JSON cases with expected decisions)
    /// against the configured hooks; exit 1 if any case fails.
    Test {
        /// The directory of `*.json` cases.
        dir: PathBuf,
        #[command(flatten)]
        settings: SettingsArgs,
    },
    /// Resolve every plugin `source` of the effective settings to a digest, fetch
    /// it into the module store, and write `hookhost.lock` beside the project
    /// settings (`.llxprt/hookhost.lock`). A locked tag is kept (even if it moved in
    /// the registry) unless `--update` is given.
    Lock {
        #[command(flatten)]
        settings: SettingsArgs,
        /// Re-resolve tags that are already locked.
        #[arg(long)]
        update: bool,
        /// Drop lock entries no hook of the settings read refers to (kept otherwise:
        /// a lock run without `--claude-settings` must not wipe the Claude hooks'
        /// entries).
        #[arg(long)]
        prune: bool,
        #[command(flatten)]
        registry: super::registry::RegistryArgs,
    },
    /// Fetch every plugin `source` of the effective settings into the module store,
    /// exactly at the digests `hookhost.lock` (or the reference itself) names;
    /// writes nothing. What a fresh clone runs before its first fire.
    Install {
        #[command(flatten)]
        settings: SettingsArgs,
        #[command(flatten)]
        registry: super::registry::RegistryArgs,
    },
    /// Summarise an audit trace (HOOKHOST_TRACE or tools.trace): per hook, runs,
    /// blocks, would-blocks (monitor mode), failures and p50/p95 time — the review
    /// before a monitored policy is enforced.
    Trace {
        /// The trace file (default: $HOOKHOST_TRACE).
        file: Option<PathBuf>,
    },
    /// The builtin policies (`"source": "builtin:NAME"`): list, show.
    Policy {
        #[command(subcommand)]
        command: super::policy::PolicyCommand,
    },
    /// Plugins' persistent stores (the `state` grant): list, show, clear.
    State {
        #[command(subcommand)]
        command: super::state::StateCommand,
    },
    /// Plugin tools.
    Plugin {
        #[command(subcommand)]
        command: PluginCommand,
    },
}

#[derive(Debug, Subcommand)]
pub(super) enum PluginCommand {
    /// Show what a .wasm file is, what it imports, and whether hookhost can run it.
    Inspect {
        /// The .wasm file.
        file: PathBuf,
    },
    /// Publish a component or preview-1 module as a Wasm OCI artifact (config
    /// `application/vnd.wasm.config.v0+json`, layer `application/wasm`).
    Push {
        /// The .wasm file, or `builtin:NAME` for the bytes of a builtin policy.
        file: PathBuf,
        /// Where: `oci://REGISTRY/REPO:TAG`.
        reference: String,
        #[command(flatten)]
        registry: super::registry::RegistryArgs,
    },
    /// Fetch a module (and its cosign signature, if any) into the module store.
    Pull {
        /// `oci://REGISTRY/REPO[:TAG][@sha256:…]`.
        reference: String,
        #[command(flatten)]
        registry: super::registry::RegistryArgs,
    },
    /// Sign a published module with an ECDSA P-256 key, cosign-compatibly (the
    /// signature is pushed as `sha256-<digest>.sig` in the same repository).
    Sign {
        /// `oci://REGISTRY/REPO[:TAG][@sha256:…]`.
        reference: String,
        /// The private key (PEM, PKCS#8 or SEC1, unencrypted).
        #[arg(long, value_name = "FILE")]
        key: PathBuf,
        #[command(flatten)]
        registry: super::registry::RegistryArgs,
    },
}

/// Where settings come from (CONTRACT §1).
#[derive(Debug, Args)]
pub struct SettingsArgs {
    /// Use exactly these settings files, first = highest priority, instead of discovery.
    #[arg(long = "settings", value_name = "FILE")]
    pub(super) files: Vec<PathBuf>,
    /// The project directory (default: the current directory; for `hook`, the agent's
    /// project-dir variable or the input's `cwd`).
    #[arg(long, value_name = "DIR")]
    pub(super) project_dir: Option<PathBuf>,
    /// Also read Claude Code's settings (`.claude/settings.json`,
    /// `.claude/settings.local.json`, `~/.claude/settings.json`), in Claude's dialect.
    #[arg(long)]
    pub(super) claude_settings: bool,
    /// Also read Gemini CLI's settings (`.gemini/settings.json`,
    /// `~/.gemini/settings.json`) and extensions (`.gemini/extensions/`).
    #[arg(long)]
    pub(super) gemini_settings: bool,
    /// Also read Codex's hooks (`.codex/hooks.json` and the `[hooks]` tables of
    /// `.codex/config.toml`, in the project and in `$CODEX_HOME`, default
    /// `~/.codex`), in Claude's format and dialect.
    #[arg(long)]
    pub(super) codex_settings: bool,
    /// Also read the hooks of this Claude Code plugin directory
    /// (`.claude-plugin/plugin.json` + `hooks/hooks.json`); repeatable.
    #[arg(long = "claude-plugin", value_name = "DIR")]
    pub(super) claude_plugins: Vec<PathBuf>,
    /// Run hooks from project settings and extensions only if approved with
    /// `hookhost trust` (as `tools.requireHookTrust` in user settings).
    #[arg(long)]
    pub(super) require_trust: bool,
}

impl SettingsArgs {
    /// A builder for these settings.
    pub fn builder(&self) -> HookSystemBuilder {
        let project_dir = self
            .project_dir
            .clone()
            .unwrap_or_else(|| PathBuf::from("."));
        self.builder_in(project_dir)
    }

    /// A builder for these settings with a default project dir.
    pub fn builder_in(&self, default_project_dir: PathBuf) -> HookSystemBuilder {
        let project_dir = self.project_dir.clone().unwrap_or(default_project_dir);
        let mut builder = HookSystem::builder()
            .project_dir(project_dir)
            .claude_settings(self.claude_settings)
            .gemini_settings(self.gemini_settings)
            .codex_settings(self.codex_settings)
            .claude_plugins(self.claude_plugins.iter().cloned());
        if self.require_trust {
            builder = builder.require_trust(true);
        }
        #[cfg(feature = "otel")]
        if let Some(observer) = crate::telemetry::observer() {
            builder = builder.observer(observer);
        }
        if self.files.is_empty() {
            builder
        } else {
            builder.settings_files(self.files.iter().cloned())
        }
    }
}

pub(super) fn parse_event_arg(name: &str) -> Result<(HookEvent, Dialect), String> {
    parse_event(name).ok_or_else(|| {
        let claude: Vec<&str> = hookhost::dialect::CLAUDE_EVENTS
            .iter()
            .map(|(n, _)| *n)
            .collect();
        format!(
            "{}, or a Claude Code name ({})",
            hookhost::UnknownEvent(name.to_owned()),
            claude.join(", ")
        )
    })
}

/// The options of `hookhost serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub settings: SettingsArgs,
    /// Serve on this Unix socket (created 0600; peers of another uid refused)
    /// instead of stdin/stdout; many clients at once. SIGTERM drains and exits.
    #[arg(long, value_name = "PATH", conflicts_with = "http")]
    pub socket: Option<PathBuf>,
    /// Serve HTTP on ADDR (e.g. 127.0.0.1:7878; port 0 picks a free one, printed
    /// on stdout): `POST /hook` answers as `hookhost hook`, `POST /fire/EVENT` as
    /// `hookhost fire`. Every request needs `Authorization: Bearer TOKEN`
    /// (--token-file or HOOKHOST_TOKEN). Loopback only unless --http-public.
    #[arg(long, value_name = "ADDR")]
    pub http: Option<String>,
    /// Allow --http on an address that is not loopback (reachable from other
    /// machines: the token is then all that guards the hooks).
    #[arg(long, requires = "http")]
    pub http_public: bool,
    /// The bearer token of --http, read from FILE (surrounding whitespace
    /// removed) [default: HOOKHOST_TOKEN].
    #[arg(long, value_name = "FILE", requires = "http")]
    pub token_file: Option<PathBuf>,
    /// With --http: `POST /hook` answers as `hookhost hook --fail-closed` (any
    /// failure of a hook becomes a deny naming the cause).
    #[arg(long, requires = "http")]
    pub fail_closed: bool,
    /// Requests of one stream (stdin, or one socket client; with --http, of all
    /// connections together) fired at once; past it reading pauses [default:
    /// 64, or HOOKHOST_MAX_IN_FLIGHT].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_in_flight: Option<u32>,
    /// Hook processes running at once, over every request [default: 4 × cores,
    /// at most 64, or HOOKHOST_MAX_PROCESSES].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub max_processes: Option<u32>,
}
