//! Which of a plan's hooks run for this call: those whose `if` rule matches (or
//! cannot be decided) and whose `once` has not been claimed in the session; and,
//! after the run, the allows of hooks whose `if` could not be decided withheld.
//!
//! An `if` that cannot be decided (a shell command the shared reading is not sure
//! of: an expansion as the program, an unparsable line) fails toward enforcement
//! both ways: the hook runs, so a deny-scoped (or ask-scoped) guard sees the call;
//! and an allow it answers is not applied, so a rule that could not be read never
//! lets a call through.

use std::path::Path;

use serde_json::{Map, Value};

use super::once;
use crate::condition::Verdict;
use crate::config::HookAt;
use crate::output::Decision;
use crate::planner::Plan;
use crate::result::HookExecutionResult;
use crate::runner::RunnableHook;

/// A hook that runs although its `if` could not be decided: where it is
/// configured (its execution carries the same place).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Unsure(Option<HookAt>);

/// Drops from `plan` the hooks whose `if` rule does not match the call, then
/// those with `once` that already ran in this session (claiming the others); the
/// hooks kept on an undecidable `if`.
pub(super) fn select(
    plan: &mut Plan<RunnableHook>,
    input: &Map<String, Value>,
    project_dir: &Path,
    session_id: &str,
) -> Vec<Unsure> {
    let tool_name = input.get("tool_name").and_then(Value::as_str);
    let empty = Map::new();
    let tool_input = input
        .get("tool_input")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let mut unsure = Vec::new();
    plan.hooks.retain(|hook| {
        let Some(rule) = &hook.entry.spec.condition else {
            return true;
        };
        // No tool call, nothing for the rule to match.
        let Some(name) = tool_name else {
            return false;
        };
        match rule.verdict(name, tool_input, project_dir) {
            Verdict::Yes => true,
            Verdict::No => false,
            Verdict::Unsure => {
                unsure.push(Unsure(hook.entry.at.clone()));
                true
            }
        }
    });
    if plan.hooks.iter().any(|hook| hook.entry.spec.once) {
        let session = input
            .get("session_id")
            .and_then(Value::as_str)
            .unwrap_or(session_id);
        plan.hooks
            .retain(|hook| !hook.entry.spec.once || once::claim(session, &once_key(hook)));
    }
    unsure
}

/// Takes the allow out of the answers of hooks kept on an undecidable `if`, with a
/// warning that says so.
pub(super) fn withhold_allows(executions: &mut [HookExecutionResult], unsure: &[Unsure]) {
    if unsure.is_empty() {
        return;
    }
    for execution in executions {
        // Only a settings file's hook has an `if`, so it has a place.
        let kept_unsure = execution.at.is_some() && unsure.iter().any(|u| u.0 == execution.at);
        let Some(output) = execution.output.as_mut().filter(|_| kept_unsure) else {
            continue;
        };
        let mut withheld = false;
        if matches!(output.decision, Some(Decision::Allow | Decision::Approve)) {
            output.decision = None;
            withheld = true;
        }
        if let Some(specific) = &mut output.hook_specific_output
            && specific.get("permissionDecision").and_then(Value::as_str) == Some("allow")
        {
            specific.remove("permissionDecision");
            specific.remove("permissionDecisionReason");
            withheld = true;
        }
        if withheld {
            execution.warnings.push(format!(
                "{} at {}: its `if` could not be decided for this command, so its allow is not \
                 applied",
                execution.hook_name, execution.location
            ));
        }
    }
}

/// What identifies a hook for `once`: where it is configured and what it runs.
fn once_key(hook: &RunnableHook) -> String {
    let entry = &hook.entry;
    format!(
        "{}\n{}\n{}\n{}",
        entry.source.path.display(),
        entry.event,
        entry.location(),
        entry.spec.dedup_key()
    )
}
