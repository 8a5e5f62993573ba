//! Collecting the executions of one fire into the aggregated result: errors and
//! warnings gathered and logged, enforced answers merged per event, every answer
//! kept for `allOutputs`.

use serde_json::{Map, Value};

use crate::aggregate;
use crate::event::HookEvent;
use crate::output::HookOutput;
use crate::result::AggregatedHookResult;
use crate::runner::HookExecutionResult;

/// Merges the executions of one fire into the aggregated result.
pub(crate) fn collect(
    event: HookEvent,
    executions: Vec<HookExecutionResult>,
    sticky_blocks: bool,
) -> AggregatedHookResult {
    let mut result = AggregatedHookResult::empty();
    for execution in &executions {
        result.success &= execution.success;
        result.errors.extend(execution.error.iter().cloned());
        // Truncated output, ignored fields: worth seeing, though the answer counted.
        result.warnings.extend(execution.warnings.iter().cloned());
        for warning in &execution.warnings {
            tracing::warn!("{warning}");
        }
        if let Some(error) = &execution.error {
            tracing::warn!("{error}");
        } else if !execution.stderr.trim().is_empty() {
            tracing::info!(hook = %execution.hook_name, "stderr: {}", execution.stderr.trim());
        }
    }
    let enforced: Vec<HookOutput> = executions
        .iter()
        .filter_map(|e| e.enforced_output())
        .collect();
    result.final_output = aggregate::merge(event, &enforced.iter().collect::<Vec<_>>());
    aggregate::keep_blocks(&executions, &mut result.final_output, sticky_blocks);
    // allOutputs shows what each hook said, monitor-mode blocks included (marked).
    result.all_outputs = executions
        .iter()
        .filter_map(|e| {
            let mut output = e.output.clone()?;
            if e.monitor {
                output.extra.insert("monitor".to_owned(), Value::Bool(true));
            }
            Some(output)
        })
        .collect();
    result.executions = executions;
    result
}

/// After a sequential chain, the chained input *is* the final modification: report it
/// whole, so that partial `tool_input` / `llm_request` patches from several hooks are
/// not lost.
pub(crate) fn carry_chained_fields(
    event: HookEvent,
    input: &Map<String, Value>,
    output: &mut HookOutput,
) {
    let key = match event {
        HookEvent::BeforeTool => "tool_input",
        HookEvent::BeforeModel => "llm_request",
        HookEvent::AfterModel => "llm_response",
        _ => return,
    };
    if output.specific(key).is_some()
        && let Some(value) = input.get(key)
    {
        output.set_specific(key, value.clone());
    }
}
