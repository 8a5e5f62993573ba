//! Merging several hooks' answers (seeds/001 §7.3 and every example of §8.1).

use serde_json::{Value, json};

use crate::common::{Project, cmd, group};

fn llm_request() -> Value {
    json!({
        "model": "gemini-2.5-pro",
        "messages": [{"role": "user", "content": "hi"}],
        "config": {"temperature": 0.5, "maxOutputTokens": 1024}
    })
}

/// A hook that prints `answer` as JSON.
fn answer(p: &Project, name: &str, answer: &Value) -> Value {
    let script = p.script(name, &format!("cat <<'EOF'\n{answer}\nEOF"));
    cmd(&script)
}

#[test]
fn tool_selection_none_beats_an_allow_list() {
    let p = Project::new();
    let a = answer(
        &p,
        "a.sh",
        &json!({"hookSpecificOutput": {"toolConfig": {"mode": "NONE"}}}),
    );
    let b = answer(
        &p,
        "b.sh",
        &json!({"hookSpecificOutput": {"toolConfig": {"mode": "AUTO", "allowedFunctionNames": ["read_file", "write_file"]}}}),
    );
    p.settings(json!({"BeforeToolSelection": [group(vec![a, b])]}));
    let fired = p.fire("BeforeToolSelection", json!({"llm_request": llm_request()}));
    fired.assert_clean();
    assert_eq!(
        fired.specific("toolConfig"),
        &json!({"mode": "NONE", "allowedFunctionNames": []})
    );
}

#[test]
fn tool_selection_unions_sorts_and_picks_the_most_restrictive_mode() {
    let p = Project::new();
    let a = answer(
        &p,
        "a.sh",
        &json!({"hookSpecificOutput": {"toolConfig": {"mode": "AUTO", "allowedFunctionNames": ["write_file", "glob"]}}}),
    );
    let b = answer(
        &p,
        "b.sh",
        &json!({"hookSpecificOutput": {"toolConfig": {"mode": "ANY", "allowedFunctionNames": ["read_file", "glob"]}}}),
    );
    p.settings(json!({"BeforeToolSelection": [group(vec![a, b])]}));
    let fired = p.fire("BeforeToolSelection", json!({"llm_request": llm_request()}));
    fired.assert_clean();
    assert_eq!(
        fired.specific("toolConfig"),
        &json!({"mode": "ANY", "allowedFunctionNames": ["glob", "read_file", "write_file"]})
    );
    assert_eq!(fired.code, 0, "tool selection cannot block");
}

#[test]
fn before_model_parallel_later_hook_wins_temperature_1() {
    let p = Project::new();
    let a = answer(
        &p,
        "a.sh",
        &json!({"hookSpecificOutput": {"llm_request": {"config": {"temperature": 0.0}}}}),
    );
    let b = answer(
        &p,
        "b.sh",
        &json!({"hookSpecificOutput": {"llm_request": {"config": {"temperature": 1.0}}}}),
    );
    p.settings(json!({"BeforeModel": [group(vec![a, b])]}));
    let fired = p.fire("BeforeModel", json!({"llm_request": llm_request()}));
    fired.assert_clean();
    assert_eq!(
        fired.specific("llm_request")["config"]["temperature"].as_f64(),
        Some(1.0)
    );
    // The per-hook answers are both reported, in plan order.
    let temps: Vec<_> = fired
        .all_outputs()
        .iter()
        .map(|o| o["hookSpecificOutput"]["llm_request"]["config"]["temperature"].as_f64())
        .collect();
    assert_eq!(temps, [Some(0.0), Some(1.0)]);
}

#[test]
fn before_model_order_follows_the_plan_not_finishing_order() {
    // Hook A finishes last but is first in the plan: B still wins.
    let p = Project::new();
    let a = p.script(
        "a.sh",
        "sleep 0.5\necho '{\"hookSpecificOutput\":{\"llm_request\":{\"model\":\"from-a\"}}}'",
    );
    let b = answer(
        &p,
        "b.sh",
        &json!({"hookSpecificOutput": {"llm_request": {"model": "from-b"}}}),
    );
    p.settings(json!({"BeforeModel": [group(vec![cmd(&a), b])]}));
    let fired = p.fire("BeforeModel", json!({"llm_request": llm_request()}));
    fired.assert_clean();
    assert_eq!(fired.specific("llm_request")["model"], "from-b");
}

#[test]
fn before_tool_allow_and_block_is_blocked_with_policy_violation() {
    let p = Project::new();
    let a = answer(&p, "a.sh", &json!({"decision": "allow"}));
    let b = answer(
        &p,
        "b.sh",
        &json!({"decision": "block", "reason": "Policy violation"}),
    );
    p.settings(json!({"BeforeTool": [group(vec![a, b])]}));
    let fired = p.fire(
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {}}),
    );
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert!(fired.success());
    assert_eq!(
        fired.final_output(),
        &json!({"decision": "block", "reason": "Policy violation"})
    );
}

#[test]
fn before_tool_block_wins_whatever_the_order_and_reasons_join() {
    let p = Project::new();
    let a = answer(&p, "a.sh", &json!({"decision": "deny", "reason": "first"}));
    let b = answer(
        &p,
        "b.sh",
        &json!({"decision": "allow", "reason": "fine by me"}),
    );
    let c = answer(&p, "c.sh", &json!({"decision": "block", "reason": "third"}));
    p.settings(json!({"BeforeTool": [group(vec![a, b, c])]}));
    let fired = p.fire(
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {}}),
    );
    assert_eq!(fired.code, 2);
    assert_eq!(fired.final_output()["decision"], "deny");
    assert_eq!(fired.final_output()["reason"], "first\nfine by me\nthird");
}

#[test]
fn parallel_hooks_all_run_even_when_one_blocks() {
    let p = Project::new();
    let blocker = p.script("block.sh", "exit 2");
    let marker = p.script("marker.sh", "sleep 0.2\ntouch ran.marker");
    p.settings(json!({"BeforeTool": [group(vec![cmd(&blocker), cmd(&marker)])]}));
    let fired = p.fire(
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {}}),
    );
    assert_eq!(fired.code, 2);
    assert_eq!(fired.hooks().len(), 2);
    assert!(
        p.exists("ran.marker"),
        "a parallel hook does not stop its siblings"
    );
}

#[test]
fn after_tool_additional_context_and_system_messages_are_joined() {
    let p = Project::new();
    let a = answer(
        &p,
        "a.sh",
        &json!({"systemMessage": "m1", "hookSpecificOutput": {"hookEventName": "AfterTool", "additionalContext": "first context"}}),
    );
    let b = answer(&p, "b.sh", &json!({"systemMessage": "m2"}));
    let c = answer(
        &p,
        "c.sh",
        &json!({"hookSpecificOutput": {"hookEventName": "AfterTool", "additionalContext": "second context"}}),
    );
    p.settings(json!({"AfterTool": [group(vec![a, b, c])]}));
    let fired = p.fire(
        "AfterTool",
        json!({"tool_name": "read_file", "tool_input": {}, "tool_response": {"content": "x"}}),
    );
    fired.assert_clean();
    assert_eq!(
        fired.specific("additionalContext"),
        "first context\nsecond context"
    );
    assert_eq!(fired.specific("hookEventName"), "AfterTool");
    assert_eq!(fired.final_output()["systemMessage"], "m1\nm2");
    assert_eq!(fired.all_outputs().len(), 3);
}

#[test]
fn continue_false_stops_with_the_stop_reason_but_does_not_block() {
    let p = Project::new();
    let a = answer(&p, "a.sh", &json!({"continue": true}));
    let b = answer(
        &p,
        "b.sh",
        &json!({"continue": false, "stopReason": "budget exhausted"}),
    );
    p.settings(json!({"AfterTool": [group(vec![a, b])]}));
    let fired = p.fire(
        "AfterTool",
        json!({"tool_name": "read_file", "tool_input": {}, "tool_response": {}}),
    );
    fired.assert_clean();
    assert_eq!(fired.final_output()["continue"], false);
    assert_eq!(fired.final_output()["stopReason"], "budget exhausted");
    assert!(fired.final_output().get("decision").is_none());
}

#[test]
fn continue_false_sticks_in_before_model_even_if_a_later_hook_says_true() {
    let p = Project::new();
    let a = answer(
        &p,
        "a.sh",
        &json!({"continue": false, "stopReason": "halt"}),
    );
    let b = answer(&p, "b.sh", &json!({"continue": true}));
    p.settings(json!({"BeforeModel": [group(vec![a, b])]}));
    let fired = p.fire("BeforeModel", json!({"llm_request": llm_request()}));
    fired.assert_clean();
    assert_eq!(fired.final_output()["continue"], false);
    assert_eq!(fired.final_output()["stopReason"], "halt");
}

#[test]
fn suppress_output_is_an_or() {
    let p = Project::new();
    let a = answer(&p, "a.sh", &json!({"suppressOutput": false}));
    let b = answer(&p, "b.sh", &json!({"suppressOutput": true}));
    let c = answer(&p, "c.sh", &json!({}));
    p.settings(json!({"AfterTool": [group(vec![a, b, c])]}));
    let input = json!({"tool_name": "read_file", "tool_input": {}, "tool_response": {}});
    let fired = p.fire("AfterTool", input.clone());
    fired.assert_clean();
    assert_eq!(fired.final_output()["suppressOutput"], true);

    let q = Project::new();
    let a = answer(&q, "a.sh", &json!({"suppressOutput": false}));
    q.settings(json!({"AfterTool": [group(vec![a])]}));
    let fired = q.fire("AfterTool", input);
    assert_eq!(fired.final_output()["suppressOutput"], false);
}

#[test]
fn before_model_block_is_sticky_and_keeps_the_synthetic_response() {
    let p = Project::new();
    let a = answer(
        &p,
        "a.sh",
        &json!({"decision": "block", "reason": "cached",
                "hookSpecificOutput": {"llm_response": {"text": "synthetic answer",
                    "candidates": [{"content": {"role": "model", "parts": ["synthetic answer"]}, "finishReason": "STOP"}]}}}),
    );
    let b = answer(
        &p,
        "b.sh",
        &json!({"decision": "allow", "reason": "looks fine"}),
    );
    p.settings(json!({"BeforeModel": [group(vec![a, b])]}));
    let fired = p.fire("BeforeModel", json!({"llm_request": llm_request()}));
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(fired.final_output()["decision"], "block");
    assert_eq!(fired.final_output()["reason"], "cached");
    assert_eq!(fired.specific("llm_response")["text"], "synthetic answer");
}

#[test]
fn before_model_later_system_message_replaces_the_earlier_one() {
    let p = Project::new();
    let a = answer(&p, "a.sh", &json!({"systemMessage": "one"}));
    let b = answer(&p, "b.sh", &json!({"systemMessage": "two"}));
    p.settings(json!({"BeforeModel": [group(vec![a, b])]}));
    let fired = p.fire("BeforeModel", json!({"llm_request": llm_request()}));
    assert_eq!(fired.final_output()["systemMessage"], "two");
}

#[test]
fn permission_decision_deny_counts_for_every_hook() {
    let p = Project::new();
    let a = answer(&p, "a.sh", &json!({"decision": "allow"}));
    let b = answer(
        &p,
        "b.sh",
        &json!({"hookSpecificOutput": {"hookEventName": "BeforeTool", "permissionDecision": "deny",
                "permissionDecisionReason": "claude-style deny"}}),
    );
    p.settings(json!({"BeforeTool": [group(vec![a, b])]}));
    let fired = p.fire(
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {}}),
    );
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(fired.final_output()["decision"], "deny");
    assert_eq!(fired.final_output()["reason"], "claude-style deny");
}

#[test]
fn a_single_permission_decision_deny_blocks() {
    let p = Project::new();
    let a = answer(
        &p,
        "a.sh",
        &json!({"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "no"}}),
    );
    p.settings(json!({"BeforeTool": [group(vec![a])]}));
    let fired = p.fire(
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {}}),
    );
    assert_eq!(fired.code, 2);
    assert_eq!(fired.final_output()["decision"], "deny");
    assert_eq!(fired.final_output()["reason"], "no");
}

#[test]
fn ask_never_blocks() {
    let p = Project::new();
    let a = answer(
        &p,
        "a.sh",
        &json!({"decision": "ask", "reason": "are you sure?"}),
    );
    let b = answer(&p, "b.sh", &json!({"decision": "allow"}));
    p.settings(json!({"BeforeTool": [group(vec![a, b])]}));
    let fired = p.fire(
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {}}),
    );
    fired.assert_clean();
    assert_eq!(fired.final_output()["decision"], "ask");
}

#[test]
fn hooks_in_several_groups_aggregate_like_one_list() {
    let p = Project::new();
    let a = answer(&p, "a.sh", &json!({"systemMessage": "group 0"}));
    let b = answer(&p, "b.sh", &json!({"systemMessage": "group 1"}));
    p.settings(json!({"BeforeTool": [
        {"matcher": "write_file", "hooks": [a]},
        {"matcher": "write", "hooks": [b]}
    ]}));
    let fired = p.fire(
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {}}),
    );
    fired.assert_clean();
    assert_eq!(fired.final_output()["systemMessage"], "group 0\ngroup 1");
}
