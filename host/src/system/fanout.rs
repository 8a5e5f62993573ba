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

use crate::plugins::Plugin;
use crate::runner::{
    HookExecutionResult, HookFailure, RawOutcome, RunContext, RunnableHook, Runner,
};

/// The hooks of one parallel fire, their inputs, the jobs they make and the next
/// job to claim.
struct Batch {
    hooks: Vec<Arc<RunnableHook>>,
    inputs: Vec<Arc<[u8]>>,
    ctx: Arc<RunContext>,
    jobs: Vec<Job>,
    next: AtomicUsize,
}

/// What one claim runs: a hook, or builtin hooks sharing one instance of the pack
/// (their indices and plugins).
enum Job {
    One(usize),
    Together(Vec<(usize, Arc<Plugin>)>),
}

impl Job {
    fn hooks(&self) -> Vec<usize> {
        match self {
            Job::One(i) => vec![*i],
            Job::Together(members) => members.iter().map(|(i, _)| *i).collect(),
        }
    }
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
            let members = match &batch.jobs[j] {
                Job::One(i) => {
                    let input = Arc::clone(&batch.inputs[*i]);
                    return vec![(*i, batch.hooks[*i].execute(input, &batch.ctx).await)];
                }
                Job::Together(members) => members,
            };
            let first = members[0].0;
            let plugins: Vec<&Plugin> = members.iter().map(|(_, p)| &**p).collect();
            let input = Arc::clone(&batch.inputs[first]);
            let timeout = batch.hooks[first].entry.spec.timeout;
            let outcomes = crate::plugins::run_together(&plugins, input, timeout, &batch.ctx).await;
            members
                .iter()
                .zip(outcomes)
                .map(|((i, _), raw)| (*i, batch.hooks[*i].settle(raw)))
                .collect()
        })
    }

    fn panicked(&self, j: usize) -> Done {
        self.jobs[j]
            .hooks()
            .into_iter()
            .map(|i| (i, self.panicked_hook(i)))
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
fn jobs(hooks: &[Arc<RunnableHook>], inputs: &[Arc<[u8]>]) -> Vec<Job> {
    let mut jobs: Vec<Job> = Vec::with_capacity(hooks.len());
    for (i, hook) in hooks.iter().enumerate() {
        let Runner::Plugin(p) = &hook.runner else {
            jobs.push(Job::One(i));
            continue;
        };
        let joins = jobs.iter_mut().find_map(|job| match job {
            Job::Together(members) => {
                let (first, q) = &members[0];
                (q.runs_with(p)
                    && Arc::ptr_eq(&inputs[*first], &inputs[i])
                    && hooks[*first].entry.spec.timeout == hook.entry.spec.timeout)
                    .then_some(members)
            }
            Job::One(_) => None,
        });
        match joins {
            Some(members) => members.push((i, Arc::clone(p))),
            None => jobs.push(Job::Together(vec![(i, Arc::clone(p))])),
        }
    }
    // A plugin that shares with nobody runs as any hook does.
    for job in &mut jobs {
        if let Job::Together(members) = job
            && let [(i, _)] = members.as_slice()
        {
            *job = Job::One(*i);
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
