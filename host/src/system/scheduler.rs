//! Running the hooks of one plan: all at once, or one after another with each
//! answer chained into the next hook's input (seeds/001 §7.5).
//!
//! The scheduler sits below [`super::HookSystem`]: it takes the hooks and the run
//! context as arguments and knows nothing of settings, trust or aggregation.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::chain;
use crate::dialect::Dialect;
use crate::event::HookEvent;
use crate::runner::{HookExecutionResult, RunContext, RunnableHook};

/// Runs `hooks` concurrently; results in the hooks' order.
///
/// One hook runs inline; several are shared by the firing task and the other
/// workers ([`super::fanout`]).
pub(crate) async fn run_parallel(
    event: HookEvent,
    hooks: &[Arc<RunnableHook>],
    input: &Map<String, Value>,
    ctx: &Arc<RunContext>,
) -> Vec<HookExecutionResult> {
    if let [hook] = hooks {
        return vec![hook.execute(serialize_for(hook, event, input), ctx).await];
    }
    // Serialise once per dialect, not once per hook.
    let llxprt = serialize(input);
    let mut claude: Option<Arc<[u8]>> = None;
    let inputs = hooks
        .iter()
        .map(|hook| match hook.io_dialect() {
            Dialect::Llxprt => Arc::clone(&llxprt),
            Dialect::Claude => {
                Arc::clone(claude.get_or_insert_with(|| serialize_for(hook, event, input)))
            }
        })
        .collect();
    super::fanout::run(hooks, inputs, ctx).await
}

/// Runs `hooks` one after another: each hook's enforced answer rewrites `input` for
/// the next, and a block ends the chain.
pub(crate) async fn run_sequential(
    event: HookEvent,
    hooks: &[Arc<RunnableHook>],
    input: &mut Map<String, Value>,
    ctx: &RunContext,
) -> Vec<HookExecutionResult> {
    let mut executions = Vec::with_capacity(hooks.len());
    for hook in hooks {
        let execution = hook.execute(serialize_for(hook, event, input), ctx).await;
        let blocked = execution.blocks();
        if let Some(output) = &execution.enforced_output()
            && chain::apply_to_input(event, input, output)
        {
            tracing::debug!(hook = %execution.hook_name, "the next hook's input is rewritten");
        }
        executions.push(execution);
        if blocked {
            break;
        }
    }
    executions
}

/// The stdin bytes for `hook`: the input in the hook's dialect.
pub(crate) fn serialize_for(
    hook: &RunnableHook,
    event: HookEvent,
    input: &Map<String, Value>,
) -> Arc<[u8]> {
    match hook.io_dialect().input_for_hook(event, input) {
        Some(translated) => serialize(&translated),
        None => serialize(input),
    }
}

fn serialize(input: &Map<String, Value>) -> Arc<[u8]> {
    // Serialising a `Map` of `Value`s cannot fail (keys are strings).
    serde_json::to_vec(input).unwrap_or_default().into()
}
