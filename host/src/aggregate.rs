//! Merging the answers of several hooks into one (seeds/001 §7.3, §8.1; seeds/002
//! "Aggregation Strategies").
//!
//! * **OR logic** — BeforeTool, AfterTool, and the six other events (BeforeAgent,
//!   AfterAgent, SessionStart, SessionEnd, PreCompress, Notification): any block wins
//!   (the first blocking hook's `block`/`deny`), else `ask` if any hook asked, else the
//!   last explicit allow; `reason`, `systemMessage`, `stopReason` and
//!   `hookSpecificOutput.additionalContext` are joined with newlines in plan order;
//!   `suppressOutput` is OR; `continue: false` wins; other `hookSpecificOutput` fields
//!   are shallow-merged, later hooks winning.
//! * **Field replacement** — BeforeModel, AfterModel: later hooks override earlier
//!   ones field by field and `hookSpecificOutput` is shallow-merged. Two exceptions
//!   keep a policy from being undone by a later hook: a block stays a block (its
//!   reasons are kept), and `continue: false` stays.
//! * **Union** — BeforeToolSelection: `allowedFunctionNames` are unioned and sorted;
//!   the mode is the most restrictive (`NONE` > `ANY` > `AUTO`); with `NONE` the list
//!   is empty. Common fields follow OR logic.
//!
//! A hook's decision is its top-level `decision`, or, when that is absent, its
//! `hookSpecificOutput.permissionDecision` — for every hook, not only a single one,
//! so a Claude-style deny is never lost in a merge.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use crate::event::HookEvent;
use crate::output::{Decision, HookOutput};

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
        _ => merge_common(outputs, strategy),
    };
    if strategy == Strategy::ToolSelectionUnion {
        // Also for a single hook: the list is sorted and NONE empties it.
        merge_tool_config(outputs, &mut merged);
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

fn merge_common(outputs: &[&HookOutput], strategy: Strategy) -> HookOutput {
    let replace = strategy == Strategy::FieldReplacement;
    let mut merged = HookOutput::default();
    let decisions: Vec<Option<Decision>> = outputs.iter().map(|o| o.effective_decision()).collect();
    let first_block = decisions.iter().flatten().copied().find(|d| d.is_block());
    merged.decision = first_block.or_else(|| {
        if replace {
            decisions.iter().rev().flatten().copied().next()
        } else if decisions.contains(&Some(Decision::Ask)) {
            Some(Decision::Ask)
        } else {
            decisions.iter().rev().flatten().copied().next()
        }
    });
    let mut reasons = outputs.iter().zip(&decisions).filter_map(|(o, d)| {
        // With replacement, a block keeps only the blocking hooks' reasons.
        let keep = !(replace && first_block.is_some()) || d.is_some_and(Decision::is_block);
        keep.then(|| o.effective_reason()).flatten()
    });
    merged.reason = if replace && first_block.is_none() {
        reasons.next_back().map(str::to_owned)
    } else {
        join(reasons)
    };
    merged.system_message = if replace {
        outputs.iter().rev().find_map(|o| o.system_message.clone())
    } else {
        join(outputs.iter().filter_map(|o| o.system_message.as_deref()))
    };
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
    if !replace {
        let contexts = join(
            outputs
                .iter()
                .filter_map(|o| o.specific("additionalContext").and_then(Value::as_str)),
        );
        if let (Some(contexts), Some(specific)) = (contexts, specific.as_mut()) {
            specific.insert("additionalContext".to_owned(), Value::String(contexts));
        }
    }
    merged.hook_specific_output = specific;
    merged
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
    fn before_model_later_fields_win_but_a_block_sticks() {
        let a =
            out(json!({"hookSpecificOutput": {"llm_request": {"config": {"temperature": 0.0}}}}));
        let b =
            out(json!({"hookSpecificOutput": {"llm_request": {"config": {"temperature": 1.0}}}}));
        let m = merge(HookEvent::BeforeModel, &[&a, &b]);
        assert_eq!(
            m.specific("llm_request"),
            Some(&json!({"config": {"temperature": 1.0}}))
        );
        let c = out(json!({"decision": "block", "reason": "no model"}));
        let d = out(json!({"decision": "allow", "reason": "fine"}));
        let m = merge(HookEvent::BeforeModel, &[&c, &d]);
        assert!(m.is_block());
        assert_eq!(m.reason.as_deref(), Some("no model"));
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
