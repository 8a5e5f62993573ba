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
//! Builtin hooks that may share an instance of the pack are one *job*
//! ([`crate::plugins::run_together`]): claimed, run and reported together.
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

use crate::runner::{
    HookExecutionResult, HookFailure, RawOutcome, RunContext, RunnableHook, Runner,
};

/// The hooks of one parallel fire, their inputs, the jobs they make (the hooks
/// each runs, most one hook) and the next job to claim.
struct Batch {
    hooks: Vec<Arc<RunnableHook>>,
    inputs: Vec<Arc<[u8]>>,
    ctx: Arc<RunContext>,
    jobs: Vec<Vec<usize>>,
    next: AtomicUsize,
}

type Done = Vec<(usize, HookExecutionResult)>;
type Running = Pin<Box<dyn Future<Output = Done> + Send>>;

impl Batch {
    fn claim(&self) -> Option<usize> {
        let j = self.next.fetch_add(1, Ordering::Relaxed);
        (j < self.jobs.len()).then_some(j)
    }

    fn start(self: &Arc<Self>, j: usize) -> Running {
        let batch = Arc::clone(self);
        Box::pin(async move {
            let job = &batch.jobs[j];
            let input = Arc::clone(&batch.inputs[job[0]]);
            let plugins: Vec<&crate::plugins::Plugin> = job
                .iter()
                .filter_map(|&i| match &batch.hooks[i].runner {
                    Runner::Plugin(plugin) => Some(&**plugin),
                    _ => None,
                })
                .collect();
            if job.len() < 2 || plugins.len() != job.len() {
                // One hook, or (never made by `jobs`) not all plugins: each on its own.
                let mut done = Vec::with_capacity(job.len());
                for &i in job {
                    let input = Arc::clone(&batch.inputs[i]);
                    done.push((i, batch.hooks[i].execute(input, &batch.ctx).await));
                }
                return done;
            }
            let timeout = batch.hooks[job[0]].entry.spec.timeout;
            let outcomes = crate::plugins::run_together(&plugins, input, timeout, &batch.ctx).await;
            job.iter()
                .zip(outcomes)
                .map(|(&i, raw)| (i, batch.hooks[i].settle(raw)))
                .collect()
        })
    }

    fn panicked(&self, j: usize) -> Done {
        self.jobs[j]
            .iter()
            .map(|&i| (i, self.panicked_hook(i)))
            .collect()
    }

    fn panicked_hook(&self, i: usize) -> HookExecutionResult {
        let raw = RawOutcome::failed(HookFailure::Trap("the hook panicked".into()));
        self.hooks[i].settle(raw)
    }
}

/// The jobs of a batch: each builtin hook joins the first job of builtins it may
/// share an instance with (same input, same timeout, [`runs_with`]); every other
/// hook is a job of its own.
///
/// [`runs_with`]: crate::plugins::Plugin::runs_with
fn jobs(hooks: &[Arc<RunnableHook>], inputs: &[Arc<[u8]>]) -> Vec<Vec<usize>> {
    let plugin = |i: usize| match &hooks[i].runner {
        Runner::Plugin(plugin) => Some(plugin),
        _ => None,
    };
    let mut jobs: Vec<Vec<usize>> = Vec::with_capacity(hooks.len());
    for i in 0..hooks.len() {
        let joins = plugin(i).and_then(|p| {
            jobs.iter().position(|job| {
                let first = job[0];
                plugin(first).is_some_and(|q| q.runs_with(p))
                    && Arc::ptr_eq(&inputs[first], &inputs[i])
                    && hooks[first].entry.spec.timeout == hooks[i].entry.spec.timeout
            })
        });
        match joins {
            Some(j) => jobs[j].push(i),
            None => jobs.push(vec![i]),
        }
    }
    jobs
}

/// Runs `hooks` (each with its input) at once; results in the hooks' order.
pub(crate) async fn run(
    hooks: &[Arc<RunnableHook>],
    inputs: Vec<Arc<[u8]>>,
    ctx: &Arc<RunContext>,
) -> Vec<HookExecutionResult> {
    let batch = Arc::new(Batch {
        hooks: hooks.to_vec(),
        jobs: jobs(hooks, &inputs),
        inputs,
        ctx: Arc::clone(ctx),
        next: AtomicUsize::new(0),
    });
    let mut helpers = tokio::task::JoinSet::new();
    for _ in 0..helper_count(batch.jobs.len()) {
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
        .map(|(i, execution)| execution.unwrap_or_else(|| batch.panicked_hook(i)))
        .collect()
}

/// Helpers beside the firing task: one per other worker, no more than the jobs
/// left for them.
fn helper_count(jobs: usize) -> usize {
    let workers = tokio::runtime::Handle::try_current()
        .map(|runtime| runtime.metrics().num_workers())
        .unwrap_or(1);
    workers.saturating_sub(1).min(jobs.saturating_sub(1))
}

/// Claims and runs jobs until none is left unstarted and all it started ended.
async fn work(batch: &Arc<Batch>) -> Done {
    let mut running: Vec<(usize, Running)> = Vec::new();
    let mut finished = Vec::new();
    poll_fn(|cx| {
        let mut poll = |j: usize, job: &mut Running| match catch_unwind(AssertUnwindSafe(|| {
            job.as_mut().poll(cx)
        })) {
            Ok(Poll::Ready(done)) => Some(done),
            Ok(Poll::Pending) => None,
            Err(_) => Some(batch.panicked(j)),
        };
        running.retain_mut(|(j, job)| match poll(*j, job) {
            Some(done) => {
                finished.extend(done);
                false
            }
            None => true,
        });
        while let Some(j) = batch.claim() {
            let mut job = batch.start(j);
            match poll(j, &mut job) {
                Some(done) => finished.extend(done),
                None => running.push((j, job)),
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
