//! Several hooks of one fire at once, spread over the runtime's worker threads.
//!
//! A task per hook (what this replaced) makes every hook a wake-up of a parked
//! worker, and leaves the firing thread asleep until the last one ends. On a small
//! VM a wake-up of an idle vCPU costs about as much as a plugin call, so 8 plugins
//! spawned as 8 tasks ran only ~1.2× faster than one after another (wasmtime alone
//! scaled no better through `tokio::spawn`; docs/PERFORMANCE.md, fan-out).
//!
//! Here the firing task and at most one helper task per other worker share the
//! hooks: each *claims* the next hook nobody has started and polls it at once.
//! A plugin call that runs to its end is done before its worker claims the next
//! one; a hook that waits (a command, a sleeping or yielding guest) stays pending
//! in its worker's set while the worker claims more. So every hook still starts
//! without waiting for another to finish, each keeps its own timeout, and a
//! CPU-bound batch is shared by whichever workers are free — one wake-up per
//! helper, and none when the helper finds the work already taken.
//!
//! Dropping the fire drops what the firing task runs and aborts the helpers (their
//! pending hooks are dropped, command hooks' process groups killed). A hook that
//! panics is caught where it is polled and reported as that hook's failure; the
//! others go on.

use std::future::{Future, poll_fn};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::Poll;

use crate::runner::{HookExecutionResult, HookFailure, RawOutcome, RunContext, RunnableHook};

/// The hooks of one parallel fire, their inputs, and the next one to claim.
struct Batch {
    hooks: Vec<Arc<RunnableHook>>,
    inputs: Vec<Arc<[u8]>>,
    ctx: Arc<RunContext>,
    next: AtomicUsize,
}

type Running = Pin<Box<dyn Future<Output = HookExecutionResult> + Send>>;

impl Batch {
    fn claim(&self) -> Option<usize> {
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        (i < self.hooks.len()).then_some(i)
    }

    fn start(self: &Arc<Self>, i: usize) -> Running {
        let batch = Arc::clone(self);
        Box::pin(async move {
            let input = Arc::clone(&batch.inputs[i]);
            batch.hooks[i].execute(input, &batch.ctx).await
        })
    }

    fn panicked(&self, i: usize) -> HookExecutionResult {
        self.hooks[i].settle(RawOutcome::failed(HookFailure::Trap(
            "the hook panicked".into(),
        )))
    }
}

/// Runs `hooks` (each with its input) at once; results in the hooks' order.
pub(crate) async fn run(
    hooks: &[Arc<RunnableHook>],
    inputs: Vec<Arc<[u8]>>,
    ctx: &Arc<RunContext>,
) -> Vec<HookExecutionResult> {
    let batch = Arc::new(Batch {
        hooks: hooks.to_vec(),
        inputs,
        ctx: Arc::clone(ctx),
        next: AtomicUsize::new(0),
    });
    let mut helpers = tokio::task::JoinSet::new();
    for _ in 0..helper_count(hooks.len()) {
        let batch = Arc::clone(&batch);
        helpers.spawn(async move { work(&batch).await });
    }
    let mut done: Vec<Option<HookExecutionResult>> = vec![None; hooks.len()];
    for (i, execution) in work(&batch).await {
        done[i] = Some(execution);
    }
    while let Some(joined) = helpers.join_next().await {
        // A helper cannot panic (each poll of a hook is caught); a hook it held is
        // reported below if it somehow did.
        for (i, execution) in joined.unwrap_or_default() {
            done[i] = Some(execution);
        }
    }
    done.into_iter()
        .enumerate()
        .map(|(i, execution)| execution.unwrap_or_else(|| batch.panicked(i)))
        .collect()
}

/// Helpers beside the firing task: one per other worker, no more than the hooks
/// left for them.
fn helper_count(hooks: usize) -> usize {
    let workers = tokio::runtime::Handle::try_current()
        .map(|runtime| runtime.metrics().num_workers())
        .unwrap_or(1);
    workers.saturating_sub(1).min(hooks.saturating_sub(1))
}

/// Claims and runs hooks until none is left unstarted and all it started ended.
async fn work(batch: &Arc<Batch>) -> Vec<(usize, HookExecutionResult)> {
    let mut running: Vec<(usize, Running)> = Vec::new();
    let mut finished = Vec::new();
    poll_fn(|cx| {
        let mut poll = |i: usize, hook: &mut Running| match catch_unwind(AssertUnwindSafe(|| {
            hook.as_mut().poll(cx)
        })) {
            Ok(Poll::Ready(execution)) => Some(execution),
            Ok(Poll::Pending) => None,
            Err(_) => Some(batch.panicked(i)),
        };
        running.retain_mut(|(i, hook)| match poll(*i, hook) {
            Some(execution) => {
                finished.push((*i, execution));
                false
            }
            None => true,
        });
        while let Some(i) = batch.claim() {
            let mut hook = batch.start(i);
            match poll(i, &mut hook) {
                Some(execution) => finished.push((i, execution)),
                None => running.push((i, hook)),
            }
        }
        if running.is_empty() {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    })
    .await;
    finished
}
