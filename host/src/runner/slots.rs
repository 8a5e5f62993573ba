//! The process-wide cap on concurrent hook processes.
//!
//! Every command hook of every fire of every [`crate::HookSystem`] in this process
//! takes one permit before it spawns, so a burst of requests (a fast `serve` client,
//! many socket clients, a settings reload while old fires finish) cannot fork the
//! machine to death: past the cap, hooks wait in FIFO order. The wait is not part of
//! the hook's `timeout` — a hook's clock starts when it starts — and is reported as
//! `queuedMs`.
//!
//! The cap is a small multiple of the core count (hooks mostly wait on I/O or
//! sleep), never above [`MAX_PROCESSES_CEILING`]. `HOOKHOST_MAX_PROCESSES`,
//! `hookhost serve --max-processes` or [`set_max_processes`] (before the first
//! fire) override it.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use tokio::sync::{Semaphore, SemaphorePermit};

/// The cap can never be set above this.
pub const MAX_PROCESSES_CEILING: usize = 64;
/// The environment variable that sets the cap (when nothing set it before).
pub const MAX_PROCESSES_ENV: &str = "HOOKHOST_MAX_PROCESSES";
/// Hook processes per core by default.
pub const PROCESSES_PER_CORE: usize = 4;

struct Slots {
    permits: Semaphore,
    cap: usize,
}

static SLOTS: OnceLock<Slots> = OnceLock::new();

/// The default cap: [`PROCESSES_PER_CORE`] × cores, at most [`MAX_PROCESSES_CEILING`].
pub fn default_max_processes() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    cores
        .saturating_mul(PROCESSES_PER_CORE)
        .clamp(1, MAX_PROCESSES_CEILING)
}

fn init(cap: usize) -> Slots {
    Slots {
        permits: Semaphore::new(cap),
        cap,
    }
}

/// Sets the cap (clamped to 1..=`MAX_PROCESSES_CEILING` (64)); returns the cap in force,
/// which is the earlier one if hooks already ran or it was set before.
pub fn set_max_processes(max: usize) -> usize {
    SLOTS
        .get_or_init(|| init(max.clamp(1, MAX_PROCESSES_CEILING)))
        .cap
}

fn slots() -> &'static Slots {
    SLOTS.get_or_init(|| {
        let from_env = std::env::var(MAX_PROCESSES_ENV)
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok());
        init(from_env.map_or_else(default_max_processes, |max| {
            max.clamp(1, MAX_PROCESSES_CEILING)
        }))
    })
}

/// Waits for a process slot; returns it with the time spent waiting. The semaphore
/// is never closed, so the wait always ends with a permit.
pub async fn acquire_process_slot() -> (Option<SemaphorePermit<'static>>, Duration) {
    let queued_at = Instant::now();
    let permit = slots().permits.acquire().await.ok();
    (permit, queued_at.elapsed())
}
