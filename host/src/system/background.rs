//! Hooks the fire does not wait for (`async`, `asyncRewake`, seeds/003 "Execution
//! Modes"): they run on a runtime of hookhost's own, so that a fire returns at once
//! whatever runtime called it — even [`crate::HookSystem::fire_blocking`], whose
//! private runtime ends with the call.
//!
//! A background hook keeps its timeout: the command runner kills it when the
//! timeout passes, after the fire returned. It dies with the process (like every
//! hook, see [`crate::runner`]'s command docs), so a one-shot process that wants
//! them to finish calls [`wait_for_background`] after it has answered.
//! `asyncRewake` hooks whose answer blocks leave a [`Notice`].

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::event::HookEvent;
use crate::runner::{RunContext, RunnableHook};

/// Where a hook system runs the `async` and `asyncRewake` hooks of its fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum BackgroundMode {
    /// On hookhost's own runtime in this process: the fire returns at once, the
    /// hooks go on (a server, an embedding agent).
    #[default]
    InProcess,
    /// Not at all: the fire runs the synchronous hooks only and says, in
    /// [`crate::AggregatedHookResult::background_deferred`], that a background hook
    /// matched — for a one-shot process that answers, hands the call to a
    /// detached process of its own and exits, so that the agent does not wait.
    Defer,
    /// Only them (the detached process of [`BackgroundMode::Defer`]): the
    /// synchronous hooks are skipped; the caller waits for the background hooks
    /// with [`wait_for_background`].
    Only,
}

/// The most notices kept unread; older ones are dropped first (with a warning in
/// the log).
pub const MAX_NOTICES: usize = 1024;

/// An `asyncRewake` hook blocked after its fire returned: what the agent should be
/// told (seeds/003: the notice wakes the model).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Notice {
    /// The event the hook ran for.
    pub event: String,
    /// The hook's name.
    pub hook: String,
    /// Why it blocks.
    pub reason: String,
    /// The session of the fire.
    pub session_id: String,
}

/// The notices of every hook system of the process, oldest first, each with the
/// id of the system whose fire started the hook.
static NOTICES: Mutex<VecDeque<(u64, Notice)>> = Mutex::new(VecDeque::new());

/// A new id for a hook system's notices.
pub(crate) fn new_system_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

fn push_notice(system: u64, notice: Notice) {
    tracing::warn!(
        hook = %notice.hook,
        "asyncRewake hook blocks after its {} fire returned: {}",
        notice.event,
        notice.reason
    );
    let Ok(mut queue) = NOTICES.lock() else {
        return;
    };
    if queue.len() == MAX_NOTICES
        && let Some((_, old)) = queue.pop_front()
    {
        tracing::warn!(hook = %old.hook, "a notice nobody took is dropped: {}", old.reason);
    }
    queue.push_back((system, notice));
}

/// The notices of the system `system` (every system's when `None`), oldest first;
/// they leave the queue.
pub(crate) fn take_notices_of(system: Option<u64>) -> Vec<Notice> {
    let Ok(mut queue) = NOTICES.lock() else {
        return Vec::new();
    };
    let (taken, kept): (VecDeque<_>, VecDeque<_>) = std::mem::take(&mut *queue)
        .into_iter()
        .partition(|(id, _)| system.is_none_or(|s| s == *id));
    *queue = kept;
    taken.into_iter().map(|(_, notice)| notice).collect()
}

/// Every notice not taken yet, of every hook system of the process (a one-shot
/// process reports them after [`wait_for_background`]).
pub fn take_all_notices() -> Vec<Notice> {
    take_notices_of(None)
}

/// The runtime background hooks run on: one worker (hooks mostly wait on
/// processes and sockets), started on first use.
fn runtime() -> Option<&'static tokio::runtime::Runtime> {
    static RUNTIME: OnceLock<Option<tokio::runtime::Runtime>> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .thread_name("hookhost-background")
                .enable_all()
                .build()
                .ok()
        })
        .as_ref()
}

/// How many background hooks are running, and a signal when that changes.
static RUNNING: (Mutex<usize>, Condvar) = (Mutex::new(0), Condvar::new());

/// Counts one running hook while alive.
struct Running;

impl Running {
    fn start() -> Running {
        if let Ok(mut n) = RUNNING.0.lock() {
            *n += 1;
        }
        Running
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Ok(mut n) = RUNNING.0.lock() {
            *n = n.saturating_sub(1);
        }
        RUNNING.1.notify_all();
    }
}

/// What a background run needs besides the hook.
pub(crate) struct Launch {
    pub(crate) event: HookEvent,
    pub(crate) input: Arc<[u8]>,
    pub(crate) ctx: Arc<RunContext>,
    pub(crate) session_id: String,
    /// For a rewake hook: the id of the system its notice belongs to.
    pub(crate) notices: Option<u64>,
}

/// No runtime for background hooks could be made.
#[derive(Debug, thiserror::Error)]
#[error("cannot start the background runtime")]
pub(crate) struct NoRuntime;

/// Starts `hook` in the background; `Err` when no runtime can be made.
pub(crate) fn spawn(hook: Arc<RunnableHook>, launch: Launch) -> Result<(), NoRuntime> {
    let Some(runtime) = runtime() else {
        return Err(NoRuntime);
    };
    let running = Running::start();
    runtime.spawn(async move {
        let _running = running;
        let result = hook.execute(launch.input, &launch.ctx).await;
        if let Some(error) = &result.error {
            tracing::warn!(hook = %result.hook_name, "background hook: {error}");
        }
        if let Some(system) = launch.notices
            && result.blocks()
        {
            let reason = result
                .output
                .as_ref()
                .and_then(|o| o.effective_reason())
                .unwrap_or("blocked")
                .to_owned();
            push_notice(
                system,
                Notice {
                    event: launch.event.to_string(),
                    hook: result.hook_name.clone(),
                    reason,
                    session_id: launch.session_id,
                },
            );
        }
    });
    Ok(())
}

/// Waits until no background hook runs, or `limit` has passed; whether none runs.
/// For a one-shot process after it has answered (each hook is bounded by its own
/// timeout anyway).
pub fn wait_for_background(limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    let Ok(mut running) = RUNNING.0.lock() else {
        return false;
    };
    while *running > 0 {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        match RUNNING.1.wait_timeout(running, left) {
            Ok((guard, _)) => running = guard,
            Err(_) => return false,
        }
    }
    true
}

/// How many background hooks are running now.
pub fn background_running() -> usize {
    RUNNING.0.lock().map(|n| *n).unwrap_or(0)
}
