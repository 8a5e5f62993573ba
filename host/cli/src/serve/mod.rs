//! `hookhost serve`: the MessageBus contract (seeds/002) as JSON Lines on
//! stdin/stdout ([`stdio`]) or a Unix socket ([`socket`]), and agent hooks over
//! HTTP ([`http`]).
//!
//! Requests are fired concurrently and answered as they finish (out of order), at
//! most `--max-in-flight` per stream (over HTTP: over all connections): past that
//! the server stops reading until one is answered, so a fast client cannot queue
//! unbounded work. Command hooks of all requests share one cap on processes
//! (`--max-processes`, see [`hookhost::set_max_processes`]), plugins the engine's
//! pool slots; time waiting for either is reported as `queuedMs`, not counted
//! against a hook's timeout. Plugins stay compiled for the life of the process;
//! settings reload on change ([`reload`]). A malformed request gets an error answer
//! and serving goes on; a fire that panics is answered `INTERNAL`. SIGTERM or
//! SIGINT drains: no new requests, the ones in flight are answered, exit 0.

mod admission;
mod http;
mod listener;
mod reload;
mod reply;
mod session;
mod socket;
mod stdio;
mod token;
mod watched;

use std::path::PathBuf;
use std::time::Duration;

use hookhost::HookSystemBuilder;

pub use http::HttpRequest;

/// Default `--max-in-flight`: requests of one stream fired or awaiting their write.
pub const DEFAULT_MAX_IN_FLIGHT: usize = 64;
/// The environment variable that sets `--max-in-flight` when the flag is absent.
pub const MAX_IN_FLIGHT_ENV: &str = "HOOKHOST_MAX_IN_FLIGHT";
/// How long a shutdown waits for answers to be written once every fire is done (a
/// client that stops reading must not keep the server alive).
pub const WRITE_LIMIT: Duration = Duration::from_secs(10);

/// Where requests come from.
#[derive(Debug, Clone)]
pub enum Listen {
    /// JSON Lines on stdin/stdout.
    Stdio,
    /// JSON Lines on this Unix socket.
    Socket(PathBuf),
    /// HTTP (`--http ADDR` and its companions).
    Http(HttpRequest),
}

/// How to serve.
#[derive(Debug, Clone)]
pub struct Options {
    /// Requests of one stream (over HTTP: of the whole server) in flight at most.
    pub max_in_flight: usize,
    /// The cap on concurrent hook processes (default: see `runner::slots`).
    pub max_processes: Option<usize>,
}

/// What the command line and environment asked for; the settings fill the rest.
#[derive(Debug, Clone)]
pub struct Requested {
    listen: Listen,
    max_in_flight: Option<usize>,
    max_processes: Option<usize>,
}

impl Requested {
    /// The flags, with the environment where a flag is absent.
    pub fn resolve(
        listen: Listen,
        max_in_flight: Option<usize>,
        max_processes: Option<usize>,
    ) -> Requested {
        let env = |name: &str| std::env::var(name).ok().and_then(|v| v.trim().parse().ok());
        Requested {
            listen,
            max_in_flight: max_in_flight.or_else(|| env(MAX_IN_FLIGHT_ENV)),
            max_processes: max_processes.or_else(|| env(hookhost::MAX_PROCESSES_ENV)),
        }
    }

    /// Flags and environment first, then `serve.*` in the user's settings, then the
    /// defaults.
    fn with_settings(&self, settings: hookhost::ServeLimits) -> Options {
        Options {
            max_in_flight: self
                .max_in_flight
                .or(settings.max_in_flight)
                .unwrap_or(DEFAULT_MAX_IN_FLIGHT)
                .max(1),
            max_processes: self.max_processes.or(settings.max_processes),
        }
    }
}

pub async fn run(builder: HookSystemBuilder, requested: Requested) -> anyhow::Result<()> {
    let mut term = Terminate::install();
    // A refused address or a missing token is said before anything is built.
    let http = match &requested.listen {
        Listen::Http(request) => Some(http::Bound::bind(request)?),
        Listen::Stdio | Listen::Socket(_) => None,
    };
    if let Err(e) = hookhost::start_reaper() {
        eprintln!(
            "hookhost: cannot start the reaper ({e}); what hooks start may outlive a killed server"
        );
    }
    let system = reload::Shared::build(&builder).await?;
    // Settings are read once for the limits: a reload does not resize a running server.
    let options = requested.with_settings(system.current().serve_limits());
    if let Some(max) = options.max_processes {
        hookhost::set_max_processes(max);
    }
    let reloader = tokio::spawn(reload::reload_loop(builder, system.clone()));
    let served = match (http, &requested.listen) {
        (Some(bound), _) => {
            // On a runtime worker, not the thread in `block_on`: a connection task
            // spawned from a worker starts on that worker (tokio's LIFO slot)
            // without waking another thread — on these VMs a wake-up of an idle
            // thread is a large part of a round trip (docs/PERFORMANCE.md, 5b).
            let options = options.clone();
            tokio::spawn(async move { http::serve(system, &options, bound, &mut term).await })
                .await?
        }
        (None, Listen::Socket(path)) => socket::serve(system, &options, path, &mut term).await,
        (None, _) => stdio::serve(system, &options, &mut term).await,
    };
    reloader.abort();
    served
}

/// SIGTERM and SIGINT, caught from start-up on (so an early one drains instead of
/// killing).
pub struct Terminate(Vec<tokio::signal::unix::Signal>);

impl Terminate {
    fn install() -> Terminate {
        use tokio::signal::unix::{SignalKind, signal};
        let kinds = [
            (SignalKind::terminate(), "SIGTERM"),
            (SignalKind::interrupt(), "SIGINT"),
        ];
        let signals = kinds
            .into_iter()
            .filter_map(|(kind, name)| {
                signal(kind)
                    .map_err(|e| tracing::warn!("cannot handle {name}: {e}"))
                    .ok()
            })
            .collect();
        Terminate(signals)
    }

    /// Resolves at SIGTERM or SIGINT (never, if no handler could be installed).
    pub async fn recv(&mut self) {
        if self.0.is_empty() {
            return std::future::pending().await;
        }
        let each = self.0.iter_mut().map(|signal| Box::pin(signal.recv()));
        futures::future::select_all(each).await;
    }
}
