//! Merging the answers of several hooks into one (seeds/001 §7.3, §8.1; seeds/002
//! "Aggregation Strategies").
//!
//! * **OR logic** — BeforeTool, AfterTool, and the six other events (BeforeAgent,
//!   AfterAgent, SessionStart, SessionEnd, PreCompress, Notification): any block wins
//!   (the first blocking hook's `block`/`deny`), else Claude's `defer` if any hook
//!   deferred, else `ask` if any hook asked, else the last explicit allow; `reason`, `systemMessage`, `stopReason` and
//!   `hookSpecificOutput.additionalContext` are joined with newlines in plan order;
//!   `suppressOutput` is OR; `continue: false` wins; `hookSpecificOutput.clearContext`
//!   is OR (AfterAgent: any `true` wins, as in both reference aggregators); other
//!   `hookSpecificOutput` fields are shallow-merged, later hooks winning.
//! * **Field replacement** — BeforeModel, AfterModel: the last hook in execution
//!   order wins for each field it sets, the decision and `continue` included (a later
//!   `allow` replaces an earlier `block`, seeds/001 §7.3, §8.1); fields it does not
//!   set survive; `hookSpecificOutput` is shallow-merged. [`keep_blocks`] then puts
//!   back what must not be replaced: a `failurePolicy: "block"` block, and with
//!   `tools.stickyHookBlocks` every block and `continue: false`.
//! * **Union** — BeforeToolSelection: `allowedFunctionNames` are unioned and sorted;
//!   the mode is the most restrictive (`NONE` > `ANY` > `AUTO`); with `NONE` the list
//!   is empty. Common fields follow OR logic.
//!
//! A hook's decision is its top-level `decision`, or, when that is absent, its
//! `hookSpecificOutput.permissionDecision` (with `permissionDecisionReason` as its
//! reason) — for every hook, not only a single one, so a Claude-style deny is never
//! lost in a merge.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use crate::event::HookEvent;
use crate::output::{Decision, HookOutput};
use crate::result::HookExecutionResult;

/// How an event's outputs are merged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Any block wins; texts are joined.
    Or,
    /// Later hooks override earlier ones.
    FieldReplacement,
    /// Tool lists are unioned, the most restrictive mode wins.
    ToolSelectionUnion,
}

impl Strategy {
    /// The strategy of an event.
    pub fn of(event: HookEvent) -> Strategy {
        match event {
            HookEvent::BeforeModel | HookEvent::AfterModel => Strategy::FieldReplacement,
            HookEvent::BeforeToolSelection => Strategy::ToolSelectionUnion,
            _ => Strategy::Or,
        }
    }
}

/// Merges outputs given in plan order.
pub fn merge(event: HookEvent, outputs: &[&HookOutput]) -> HookOutput {
    let strategy = Strategy::of(event);
    let mut merged = match outputs {
        [] => return HookOutput::default(),
        [single] => normalized(single),
        _ if strategy == Strategy::FieldReplacement => merge_replacing(outputs),
        _ => merge_common(outputs),
    };
    if strategy == Strategy::ToolSelectionUnion {
        // Also for a single hook: the list is sorted and NONE empties it.
        merge_tool_config(outputs, &mut merged);
    }
    // `approve` is the deprecated spelling of `allow`; the merged answer speaks the
    // current one, as the reference aggregator does.
    if merged.decision == Some(Decision::Approve) {
        merged.decision = Some(Decision::Allow);
    }
    merged
}

/// A single output, with its compatibility decision made explicit.
fn normalized(output: &HookOutput) -> HookOutput {
    let mut output = output.clone();
    if output.decision.is_none() {
        output.decision = output.effective_decision();
        if output.reason.is_none() && output.decision.is_some() {
            output.reason = output.effective_reason().map(str::to_owned);
        }
    }
    output
}

/// Field replacement: each hook's fields, its decision made explicit, overwrite the
/// earlier ones; `hookSpecificOutput` and unknown fields merge key by key.
fn merge_replacing(outputs: &[&HookOutput]) -> HookOutput {
    let mut merged = HookOutput::default();
    for output in outputs {
        let output = normalized(output);
        replace(&mut merged.decision, output.decision);
        replace(&mut merged.reason, output.reason);
        replace(&mut merged.continue_, output.continue_);
        replace(&mut merged.stop_reason, output.stop_reason);
        replace(&mut merged.suppress_output, output.suppress_output);
        replace(&mut merged.system_message, output.system_message);
        if let Some(fields) = output.hook_specific_output {
            merged
                .hook_specific_output
                .get_or_insert_with(Map::new)
                .extend(fields);
        }
        merged.extra.extend(output.extra);
    }
    merged
}

/// OR logic (also the common fields of tool selection).
fn merge_common(outputs: &[&HookOutput]) -> HookOutput {
    let mut merged = HookOutput::default();
    let decisions: Vec<Option<Decision>> = outputs.iter().map(|o| o.effective_decision()).collect();
    let first_block = decisions.iter().flatten().copied().find(|d| d.is_block());
    merged.decision = first_block.or_else(|| {
        if decisions.contains(&Some(Decision::Defer)) {
            Some(Decision::Defer)
        } else if decisions.contains(&Some(Decision::Ask)) {
            Some(Decision::Ask)
        } else {
            decisions.iter().rev().flatten().copied().next()
        }
    });
    merged.reason = join(outputs.iter().filter_map(|o| o.effective_reason()));
    merged.system_message = join(outputs.iter().filter_map(|o| o.system_message.as_deref()));
    if outputs.iter().any(|o| o.stops()) {
        merged.continue_ = Some(false);
    } else if outputs.iter().any(|o| o.continue_ == Some(true)) {
        merged.continue_ = Some(true);
    }
    merged.stop_reason = join(outputs.iter().filter_map(|o| o.stop_reason.as_deref()));
    if outputs.iter().any(|o| o.suppress_output == Some(true)) {
        merged.suppress_output = Some(true);
    } else if outputs.iter().any(|o| o.suppress_output.is_some()) {
        merged.suppress_output = Some(false);
    }
    let mut specific: Option<Map<String, Value>> = None;
    for output in outputs {
        if let Some(fields) = &output.hook_specific_output {
            let target = specific.get_or_insert_with(Map::new);
            for (k, v) in fields {
                target.insert(k.clone(), v.clone());
            }
        }
        for (k, v) in &output.extra {
            merged.extra.insert(k.clone(), v.clone());
        }
    }
    if let Some(specific) = specific.as_mut() {
        let contexts = join(
            outputs
                .iter()
                .filter_map(|o| o.specific("additionalContext").and_then(Value::as_str)),
        );
        if let Some(contexts) = contexts {
            specific.insert("additionalContext".to_owned(), Value::String(contexts));
        }
        // A hook that asked to clear the context is not overruled by a later one.
        if outputs
            .iter()
            .any(|o| o.specific("clearContext") == Some(&Value::Bool(true)))
        {
            specific.insert("clearContext".to_owned(), Value::Bool(true));
        }
    }
    merged.hook_specific_output = specific;
    merged
}

/// Blocks a later answer must not undo under field replacement (BeforeModel,
/// AfterModel; under OR logic every block and stop is kept anyway): the block of a
/// failed hook with `failurePolicy: "block"` — the host's verdict, not an answer — and,
/// with `tools.stickyHookBlocks`, every enforced block and `continue: false`.
pub fn keep_blocks(executions: &[HookExecutionResult], output: &mut HookOutput, sticky: bool) {
    let enforced = || {
        executions
            .iter()
            .filter(|e| !e.monitor)
            .filter_map(|e| Some((e, e.output.as_ref()?)))
    };
    if !output.is_block() {
        let kept: Vec<&HookOutput> = enforced()
            .filter(|(e, o)| (sticky || e.error.is_some()) && o.is_block())
            .map(|(_, o)| o)
            .collect();
        if let Some(first) = kept.first() {
            output.decision = first.effective_decision();
            output.reason = join(kept.iter().filter_map(|o| o.effective_reason()));
        }
    }
    if sticky
        && !output.stops()
        && let Some((_, stop)) = enforced().find(|(_, o)| o.stops())
    {
        output.continue_ = Some(false);
        if stop.stop_reason.is_some() {
            output.stop_reason.clone_from(&stop.stop_reason);
        }
    }
}

fn replace<T>(field: &mut Option<T>, value: Option<T>) {
    if value.is_some() {
        *field = value;
    }
}

fn merge_tool_config(outputs: &[&HookOutput], merged: &mut HookOutput) {
    let configs: Vec<&Map<String, Value>> = outputs
        .iter()
        .filter_map(|o| o.specific("toolConfig").and_then(Value::as_object))
        .collect();
    if configs.is_empty() {
        return;
    }
    let rank = |mode: &str| match mode {
        "NONE" => 3,
        "ANY" => 2,
        "AUTO" => 1,
        _ => 0,
    };
    let mode = configs
        .iter()
        .filter_map(|c| c.get("mode").and_then(Value::as_str))
        .max_by_key(|m| rank(m))
        .unwrap_or("AUTO")
        .to_owned();
    let names: BTreeSet<&str> = configs
        .iter()
        .filter_map(|c| c.get("allowedFunctionNames").and_then(Value::as_array))
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let any_list = configs
        .iter()
        .any(|c| c.contains_key("allowedFunctionNames"));
    let mut config = Map::new();
    if mode == "NONE" {
        config.insert("mode".to_owned(), Value::from("NONE"));
        config.insert("allowedFunctionNames".to_owned(), Value::Array(Vec::new()));
    } else {
        config.insert("mode".to_owned(), Value::from(mode));
        if any_list {
            config.insert(
                "allowedFunctionNames".to_owned(),
                names.into_iter().map(Value::from).collect(),
            );
        }
    }
    merged.set_specific("toolConfig", Value::Object(config));
}

fn join<'a>(parts: impl Iterator<Item = &'a str>) -> Option<String> {
    let parts: Vec<&str> = parts.filter(|p| !p.is_empty()).collect();
    (!parts.is_empty()).then(|| parts.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn out(v: Value) -> HookOutput {
        HookOutput::from_json_object(v.as_object().cloned().unwrap()).0
    }

    #[test]
    fn approve_becomes_allow_in_the_merged_answer() {
        let approve = HookOutput {
            decision: Some(Decision::Approve),
            ..HookOutput::default()
        };
        assert_eq!(
            merge(HookEvent::BeforeTool, &[&approve]).decision,
            Some(Decision::Allow)
        );
        assert_eq!(
            merge(HookEvent::BeforeTool, &[&approve, &approve]).decision,
            Some(Decision::Allow)
        );
    }

    #[test]
    fn before_tool_any_block_wins_and_texts_join_in_order() {
        let a = out(
            json!({"decision": "allow", "systemMessage": "a", "hookSpecificOutput": {"additionalContext": "x"}}),
        );
        let b = out(
            json!({"decision": "block", "reason": "Policy violation", "systemMessage": "b", "suppressOutput": true, "hookSpecificOutput": {"additionalContext": "y"}}),
        );
        let m = merge(HookEvent::BeforeTool, &[&a, &b]);
        assert_eq!(m.decision, Some(Decision::Block));
        assert_eq!(m.reason.as_deref(), Some("Policy violation"));
        assert_eq!(m.system_message.as_deref(), Some("a\nb"));
        assert_eq!(m.suppress_output, Some(true));
        assert_eq!(m.specific("additionalContext"), Some(&json!("x\ny")));
    }

    #[test]
    fn tool_selection_none_wins_over_an_allow_list() {
        let a = out(json!({"hookSpecificOutput": {"toolConfig": {"mode": "NONE"}}}));
        let b = out(
            json!({"hookSpecificOutput": {"toolConfig": {"mode": "AUTO", "allowedFunctionNames": ["read_file", "write_file"]}}}),
        );
        let m = merge(HookEvent::BeforeToolSelection, &[&a, &b]);
        assert_eq!(
            m.specific("toolConfig"),
            Some(&json!({"mode": "NONE", "allowedFunctionNames": []}))
        );
    }

    #[test]
    fn tool_selection_unions_and_sorts_names() {
        let a = out(
            json!({"hookSpecificOutput": {"toolConfig": {"mode": "AUTO", "allowedFunctionNames": ["write_file", "glob"]}}}),
        );
        let b = out(
            json!({"hookSpecificOutput": {"toolConfig": {"mode": "ANY", "allowedFunctionNames": ["read_file", "glob"]}}}),
        );
        let m = merge(HookEvent::BeforeToolSelection, &[&a, &b]);
        assert_eq!(
            m.specific("toolConfig"),
            Some(
                &json!({"mode": "ANY", "allowedFunctionNames": ["glob", "read_file", "write_file"]})
            )
        );
    }

    #[test]
    fn before_model_last_hook_wins_each_field_even_the_decision() {
        let a =
            out(json!({"hookSpecificOutput": {"llm_request": {"config": {"temperature": 0.0}}}}));
        let b =
            out(json!({"hookSpecificOutput": {"llm_request": {"config": {"temperature": 1.0}}}}));
        let m = merge(HookEvent::BeforeModel, &[&a, &b]);
        assert_eq!(
            m.specific("llm_request"),
            Some(&json!({"config": {"temperature": 1.0}}))
        );
        let c = out(
            json!({"decision": "block", "reason": "no model", "continue": false, "systemMessage": "c"}),
        );
        let d = out(json!({"decision": "allow", "reason": "fine", "continue": true}));
        let m = merge(HookEvent::BeforeModel, &[&c, &d]);
        assert!(!m.is_block());
        assert_eq!(m.reason.as_deref(), Some("fine"));
        assert!(!m.stops());
        assert_eq!(
            m.system_message.as_deref(),
            Some("c"),
            "unset fields survive"
        );
        let m = merge(HookEvent::AfterModel, &[&d, &c]);
        assert!(m.is_block());
        assert_eq!(m.reason.as_deref(), Some("no model"));
    }

    #[test]
    fn clear_context_is_an_or() {
        let a = out(json!({"hookSpecificOutput": {"clearContext": true}}));
        let b = out(json!({"hookSpecificOutput": {"clearContext": false}}));
        for outputs in [[&a, &b], [&b, &a]] {
            let m = merge(HookEvent::AfterAgent, &outputs);
            assert_eq!(m.specific("clearContext"), Some(&json!(true)));
        }
        let m = merge(HookEvent::AfterAgent, &[&b, &b]);
        assert_eq!(m.specific("clearContext"), Some(&json!(false)));
    }

    #[test]
    fn permission_decision_deny_is_not_lost_among_several_hooks() {
        let a = out(json!({"decision": "allow"}));
        let b = out(
            json!({"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "claude says no"}}),
        );
        let m = merge(HookEvent::BeforeTool, &[&a, &b]);
        assert_eq!(m.decision, Some(Decision::Deny));
        assert_eq!(m.reason.as_deref(), Some("claude says no"));
    }
}
