//! Several builtin hooks of one call in one instance of the pack.
//!
//! Every builtin hook runs the pack ([`crate::builtin::PACK`]) with the arguments
//! `NAME COUNT ARGS…` ([`super::plugin::pack_args`]). Given several such groups, the pack reads
//! the input once, runs each policy, and writes one JSON line per group,
//! `{"exit":N,"stdout":"…","stderr":"…"}`: what that policy alone would have
//! written and exited with. [`run_together`] starts one instance for hooks that
//! may share it ([`Plugin::runs_with`]) and hands each hook its own outcome, so
//! the aggregator, traces and each hook's `failurePolicy` see five hooks as before.
//!
//! Why: a plugin call costs ~30 µs before the guest does anything (store, WASI
//! context, instance), and five different components of ~380 KB evict each
//! other's code from the caches. Measured in process (`cargo bench … builtins`):
//! five builtin hooks as five instances 354 µs, sharing one instance of the pack
//! 129 µs (docs/PERFORMANCE.md, "Builtin policies", third round).
//!
//! The instance runs under the hooks' common limits with their fuel and their
//! timeouts added up (the work of n hooks in one instance, so a large call that
//! each hook alone answers in time is not cut short by sharing) and their
//! (read-only) directories together. Anything but a clean answer for every group —
//! a trap, fuel or memory exhausted, output cut at the cap or not of the expected
//! shape — runs each hook again on its own, so every hook still gets exactly the
//! answer, or the failure, it would get alone. Only a timeout is shared: running
//! them again would make the agent wait twice (and a builtin does not wait: its
//! work is bounded by its fuel).

use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;

use super::plugin::{Call, Plugin};
use crate::config::Preopen;
use crate::runner::Captured;
use crate::runner::{HookFailure, RawOutcome, RunContext, Status};

/// One group's answer on the pack's stdout.
#[derive(Deserialize)]
struct Answer {
    exit: i32,
    stdout: String,
    stderr: String,
}

/// Runs `plugins` (builtin hooks that [run with](Plugin::runs_with) one another)
/// in one instance of the pack, each on `input`: their outcomes, in order.
pub async fn run_together(
    plugins: &[&Plugin],
    input: Arc<[u8]>,
    timeout: Duration,
    ctx: &RunContext,
) -> Vec<RawOutcome> {
    let [first, ..] = plugins else {
        return Vec::new();
    };
    if plugins.len() == 1 {
        return vec![first.run(input, timeout, ctx).await];
    }
    let args: Vec<String> = plugins.iter().flat_map(|p| p.args().to_vec()).collect();
    let mut preopens: Vec<Preopen> = Vec::new();
    for dir in plugins.iter().flat_map(|p| p.preopens()) {
        if !preopens.contains(dir) {
            preopens.push(dir.clone());
        }
    }
    let call = Call {
        args: &args,
        fuel: plugins
            .iter()
            .fold(0u64, |sum, p| sum.saturating_add(p.fuel())),
        preopens: &preopens,
    };
    let n = u32::try_from(plugins.len()).unwrap_or(u32::MAX);
    let outcome = first
        .run_as(call, Arc::clone(&input), timeout.saturating_mul(n), ctx)
        .await;
    if let Status::Failed(HookFailure::Timeout(_)) = outcome.status {
        return plugins.iter().map(|_| outcome.clone()).collect();
    }
    if let Some(answers) = split(&outcome, plugins.len()) {
        let mut logs = Some(outcome.logs);
        return answers
            .into_iter()
            .map(|answer| RawOutcome {
                status: Status::Exited(answer.exit),
                stdout: captured(answer.stdout),
                stderr: captured(answer.stderr),
                duration: outcome.duration,
                queued: outcome.queued,
                fuel_used: None,
                logs: logs.take().unwrap_or_default(),
            })
            .collect();
    }
    let mut outcomes = Vec::with_capacity(plugins.len());
    for plugin in plugins {
        outcomes.push(plugin.run(Arc::clone(&input), timeout, ctx).await);
    }
    outcomes
}

/// The `n` answers of a clean run of the pack, or `None`.
fn split(outcome: &RawOutcome, n: usize) -> Option<Vec<Answer>> {
    if !matches!(outcome.status, Status::Exited(0)) || outcome.stdout.truncated() {
        return None;
    }
    let text = std::str::from_utf8(&outcome.stdout.bytes).ok()?;
    let answers: Vec<Answer> = text
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()
        .ok()?;
    (answers.len() == n).then_some(answers)
}

fn captured(text: String) -> Captured {
    let total = u64::try_from(text.len()).unwrap_or(u64::MAX);
    Captured {
        bytes: text.into_bytes(),
        total,
    }
}
