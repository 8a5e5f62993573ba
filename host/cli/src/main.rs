//! The `hookhost` command: argument parsing, logging set-up, and the mapping of
//! outcomes to exit codes: 0 ok, 2 blocked (`fire`), 1 usage errors and `check`
//! failures. Every command is a thin layer over the `hookhost` library.

mod agent_hook;
mod args;
mod check;
mod detach;
mod fire;
mod init;
mod inspect;
mod nested;
mod new;
mod policy;
mod registry;
mod replay;
mod serve;
mod setup;
mod state;
#[cfg(feature = "otel")]
mod telemetry;
mod trace_report;
mod trust;

use std::process::ExitCode;

use clap::Parser;
use hookhost::distribution::fetch::FetchMode;

pub use args::SettingsArgs;
use args::{Cli, Command, PluginCommand, ServeArgs};

/// musl's allocator is slow under many threads and returns memory eagerly: the
/// static binary uses mimalloc (glibc builds keep glibc's).
#[cfg(target_env = "musl")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The environment variable that sets the log filter (e.g. `HOOKHOST_LOG=debug`).
pub const LOG_ENV: &str = "HOOKHOST_LOG";

fn main() -> ExitCode {
    init_logging();
    raise_descriptor_limit();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let usage_error = e.use_stderr();
            let _ = e.print();
            if usage_error && let Some(hint) = flag_value_hint() {
                eprintln!("\n{hint}");
            }
            return if usage_error {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    // A server may take its time to hand its last spans over; a one-shot
    // process must not (telemetry::FLUSH_AT_EXIT).
    #[cfg(feature = "otel")]
    let Some(command) = cli.command else {
        write_stdout(START);
        return ExitCode::SUCCESS;
    };
    let flush = if matches!(command, Command::Serve { .. }) {
        telemetry::set_long_running();
        std::time::Duration::from_secs(2)
    } else {
        telemetry::flush_at_exit()
    };
    let code = run(command).unwrap_or_else(|failure| {
        // Messages quote settings and registries: one line, made safe.
        eprintln!(
            "{}: {}",
            failure.command,
            hookhost::terminal_safe(&failure.message)
        );
        ExitCode::from(1)
    });
    finish_background();
    #[cfg(feature = "otel")]
    telemetry::flush(flush);
    code
}

/// `hookhost` with no arguments: where to start, not a wall of flags.
const START: &str = "\
hookhost runs AI coding agents' hooks - shell commands, sandboxed Wasm policies and five
builtin guards - from one place, for Claude Code, Codex, Gemini CLI, LLxprt Code, Copilot
CLI, Qwen Code, Factory Droid, opencode and Kilo.

Start:
  hookhost setup --dry-run     wire `hookhost hook` into every agent found (a diff first)
  hookhost setup               write it; hookhost check --agents says whether each agent runs it
  hookhost policy list         the builtin guards; switch one on in ~/.llxprt/settings.json
  hookhost check               validate your settings and list the hooks of each event

Every command: hookhost --help. The guide: docs/guide in hookhost's source;
`hookhost policy show NAME` describes one guard.
";

/// A one-shot command has answered; hooks it started in the background would die
/// with the process, so it stays until they end (each is bounded by its own
/// timeout). `hook` and `fire` leave theirs to a detached process ([`detach`]),
/// which is the one that waits here. An `asyncRewake` block found now can no
/// longer reach the agent through this process: it is logged on stderr (`hookhost
/// serve` delivers it as a notice instead).
fn finish_background() {
    let running = hookhost::background_running();
    if running == 0 {
        return;
    }
    tracing::info!("waiting for {running} background hook(s) to finish after answering");
    // Each hook's own timeout ends it long before this.
    hookhost::wait_for_background(std::time::Duration::from_secs(25 * 60 * 60));
    for notice in hookhost::take_all_notices() {
        eprintln!(
            "hookhost: asyncRewake hook {:?} ({}) blocks after the answer was given: {} \
             (a one-shot hookhost cannot wake the agent; `hookhost serve` delivers this as a notice)",
            notice.hook,
            hookhost::terminal_safe(&notice.event),
            hookhost::terminal_safe(&notice.reason)
        );
    }
}

/// Runs one command.
fn run(command: Command) -> Outcome {
    match command {
        Command::Fire {
            event: (event, dialect),
            explain,
            settings,
            run_background,
        } => {
            if run_background {
                detach::leave_agent_session();
            }
            fire::run(event, dialect, &settings, explain, run_background)
        }
        Command::Hook {
            settings,
            fail_closed,
            run_background,
        } => {
            if run_background {
                detach::leave_agent_session();
            }
            agent_hook::run(&settings, fail_closed, run_background)
        }
        Command::Trust {
            settings,
            list,
            unpinned,
        } => trust::run(&settings, list, unpinned),
        Command::Init { project_dir, force } => init::run(&project_dir, force),
        Command::New {
            language,
            name,
            dir,
        } => {
            let name = name.unwrap_or_else(|| {
                dir.file_name()
                    .map_or_else(|| "policy".to_owned(), |n| n.to_string_lossy().into_owned())
            });
            new::run(&language, &dir, &name)
        }
        Command::Test { dir, settings } => replay::run(&dir, &settings),
        Command::Check { settings, agents } => {
            if agents {
                check::agents()
            } else {
                check::run(&settings)
            }
        }
        Command::Setup {
            agents,
            dry_run,
            remove,
        } => setup::run(&agents, dry_run, remove),
        Command::Trace { file } => trace_report::run(file.as_deref()),
        Command::State { command } => state::run(&command),
        Command::Policy { command } => policy::run(&command),
        Command::Serve(args) => serve_command(args),
        Command::Lock {
            settings,
            update,
            prune,
            registry,
        } => registry::fetch(&settings, FetchMode::Lock { update, prune }, &registry),
        Command::Install { settings, registry } => {
            registry::fetch(&settings, FetchMode::Install, &registry)
        }
        Command::Plugin { command } => plugin(command),
    }
}

/// `hookhost serve`: where it listens, and its limits.
fn serve_command(args: ServeArgs) -> Outcome {
    let listen = match (args.socket, args.http) {
        (Some(path), _) => serve::Listen::Socket(path),
        (None, Some(addr)) => serve::Listen::Http(serve::HttpRequest {
            addr,
            public: args.http_public,
            token_file: args.token_file,
            fail_closed: args.fail_closed,
        }),
        (None, None) => serve::Listen::Stdio,
    };
    let options = serve::Requested::resolve(
        listen,
        args.max_in_flight.map(|n| n as usize),
        args.max_processes.map(|n| n as usize),
    );
    serve(args.settings, options)
}

/// `hookhost plugin …`.
fn plugin(command: PluginCommand) -> Outcome {
    match command {
        PluginCommand::Inspect { file } => inspect::run(&file),
        PluginCommand::Push {
            file,
            reference,
            registry,
        } => registry::push(&file, &reference, &registry),
        PluginCommand::Pull {
            reference,
            registry,
        } => registry::pull(&reference, &registry),
        PluginCommand::Sign {
            reference,
            key,
            registry,
        } => registry::sign(&reference, &key, &registry),
    }
}

/// What a command ends with: its exit code, or a [`Failure`] that [`main`] — the one
/// place that prints a command's error — prints and exits 1 for.
pub type Outcome = Result<ExitCode, Failure>;

/// A command's error, printed as `hookhost: MESSAGE` (or `hookhost hook: …`).
pub struct Failure {
    command: &'static str,
    message: String,
}

impl Failure {
    /// A failure of `hookhost COMMAND` (its messages say which command failed).
    pub fn of(command: &'static str, message: impl std::fmt::Display) -> Failure {
        Failure {
            command,
            message: message.to_string(),
        }
    }

    /// An `anyhow` error with its whole chain of causes.
    pub fn chain(error: anyhow::Error) -> Failure {
        Failure::from(format_args!("{error:#}"))
    }
}

/// Any error's message (`Failure` itself is not `Display`, which keeps this from
/// overlapping `From<Failure> for Failure`).
impl<E: std::fmt::Display> From<E> for Failure {
    fn from(error: E) -> Failure {
        Failure::of("hookhost", error)
    }
}

/// `hookhost serve` on a multi-threaded runtime.
fn serve(settings: SettingsArgs, options: serve::Requested) -> Outcome {
    let rt = runtime()?;
    let served = rt.block_on(serve::run(settings.builder(), options));
    // A thread still blocked writing to a client that stopped reading must not hold
    // the exit up (dropping the runtime would wait for it).
    rt.shutdown_timeout(std::time::Duration::from_secs(1));
    served.map_err(Failure::chain)?;
    Ok(ExitCode::SUCCESS)
}

/// `--claude-settings FILE`: the flag takes no value, and clap only says
/// "unexpected argument". Say what was probably meant.
fn flag_value_hint() -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.windows(2).find_map(|pair| {
        let flag = pair[0].as_str();
        let value = &pair[1];
        let agent_flag = matches!(flag, "--claude-settings" | "--gemini-settings");
        (agent_flag && !value.starts_with('-')).then(|| {
            format!(
                "hint: {flag} takes no value: it reads that agent's settings files of the project \
                 and home directory. To read one file, use --settings {value} (a Claude or Gemini \
                 file is recognised and read in its dialect)."
            )
        })
    })
}

/// Raises the soft limit on open descriptors to the hard limit: plugins (each call
/// may hold up to `MAX_GUEST_HANDLES` files) and hook pipes share the process's
/// descriptors, and the usual soft limit of 1024 is a relic of `select(2)`, which
/// hookhost does not use.
fn raise_descriptor_limit() {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    if limit.current < limit.maximum {
        limit.current = limit.maximum;
        let _ = setrlimit(Resource::Nofile, limit);
    }
}

fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env(LOG_ENV)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("off"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .init();
}

/// A multi-threaded runtime for the hooks.
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
}

/// The runtime for one fire that may run `hooks` hooks (`hookhost fire`, `hookhost
/// hook`): one hook runs on the calling thread alone — starting and stopping the
/// worker threads it would not use was ~0.2 ms of kernel time in every such process
/// (docs/PERFORMANCE.md, "Process start") — several on a multi-threaded runtime, so
/// that they run in parallel.
pub fn fire_runtime(hooks: usize) -> std::io::Result<tokio::runtime::Runtime> {
    if hooks > 1 {
        return runtime();
    }
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
}

/// Writes `text` to stdout in one go; a closed stdout (`| head`) must not panic.
pub fn write_stdout(text: &str) {
    use std::io::Write as _;
    let _ = std::io::stdout().write_all(text.as_bytes());
}
