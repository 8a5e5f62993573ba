//! Command-line parsing, logging set-up, and the mapping of outcomes to exit codes:
//! 0 ok, 2 blocked (`fire`), 1 usage errors and `check` failures.

mod check;
mod fire;
mod inspect;
mod serve;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use hookhost::{HookEvent, HookSystem, HookSystemBuilder};

/// The environment variable that sets the log filter (e.g. `HOOKHOST_LOG=debug`).
pub const LOG_ENV: &str = "HOOKHOST_LOG";

#[derive(Debug, Parser)]
#[command(
    name = "hookhost",
    version,
    about = "Run AI coding agents' hooks: shell commands and sandboxed WASI plugins"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Fire one event: the event's JSON on stdin, the aggregated result on stdout;
    /// exit 2 when blocked, 0 otherwise.
    Fire {
        /// The event: BeforeTool, AfterTool, BeforeModel, AfterModel,
        /// BeforeToolSelection, BeforeAgent, AfterAgent, SessionStart, SessionEnd,
        /// PreCompress or Notification.
        event: HookEvent,
        #[command(flatten)]
        settings: SettingsArgs,
    },
    /// Validate the settings and list the hooks of each event in execution order;
    /// exit 1 on any error.
    Check {
        #[command(flatten)]
        settings: SettingsArgs,
    },
    /// Serve fires over JSON Lines on stdin/stdout (the MessageBus request/response
    /// contract), keeping plugins compiled; settings reload when their files change.
    Serve {
        #[command(flatten)]
        settings: SettingsArgs,
    },
    /// Plugin tools.
    Plugin {
        #[command(subcommand)]
        command: PluginCommand,
    },
}

#[derive(Debug, Subcommand)]
enum PluginCommand {
    /// Show what a .wasm file is, what it imports, and whether hookhost can run it.
    Inspect {
        /// The .wasm file.
        file: PathBuf,
    },
}

/// Where settings come from (CONTRACT §1).
#[derive(Debug, Args)]
pub struct SettingsArgs {
    /// Use exactly these settings files, first = highest priority, instead of discovery.
    #[arg(long = "settings", value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The project directory (default: the current directory).
    #[arg(long, value_name = "DIR", default_value = ".")]
    project_dir: PathBuf,
}

impl SettingsArgs {
    /// A builder for these settings.
    pub fn builder(&self) -> HookSystemBuilder {
        let builder = HookSystem::builder().project_dir(&self.project_dir);
        if self.files.is_empty() {
            builder
        } else {
            builder.settings_files(self.files.iter().cloned())
        }
    }
}

/// Runs the command line.
pub fn main() -> ExitCode {
    init_logging();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let usage_error = e.use_stderr();
            let _ = e.print();
            return if usage_error {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli.command {
        Command::Fire { event, settings } => fire::run(event, &settings),
        Command::Check { settings } => check::run(&settings),
        Command::Serve { settings } => {
            match runtime().and_then(|rt| rt.block_on(serve::run(settings.builder()))) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("hookhost: {e:#}");
                    ExitCode::from(1)
                }
            }
        }
        Command::Plugin {
            command: PluginCommand::Inspect { file },
        } => inspect::run(&file),
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
pub fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?)
}
