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
fn before_model_a_later_continue_true_replaces_an_earlier_false() {
    // Field replacement covers `continue` too (seeds/001 §7.3); `stopReason`, which
    // the later hook does not set, survives.
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
    assert_eq!(fired.final_output()["continue"], true);
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
fn before_model_and_after_model_last_hook_wins_each_field_even_the_decision() {
    // seeds/001 §7.3, §8.1 and both references' "should use field replacement
    // strategy": a later `allow` replaces an earlier `block`; what the later hook does
    // not set survives; `hookSpecificOutput` is shallow-merged.
    for event in ["BeforeModel", "AfterModel"] {
        let p = Project::new();
        let a = answer(
            &p,
            "a.sh",
            &json!({"decision": "block", "reason": "cached", "systemMessage": "from a",
                    "suppressOutput": true,
                    "hookSpecificOutput": {"llm_response": {"text": "synthetic answer"},
                                           "llm_request": {"model": "from-a"}}}),
        );
        let b = answer(
            &p,
            "b.sh",
            &json!({"decision": "allow", "reason": "looks fine",
                    "hookSpecificOutput": {"llm_request": {"model": "from-b"}}}),
        );
        p.settings(json!({event: [group(vec![a, b])]}));
        let input = json!({"llm_request": llm_request(), "llm_response": {"text": "real"}});
        let fired = p.fire(event, input.clone());
        fired.assert_clean();
        assert_eq!(
            fired.final_output(),
            &json!({"decision": "allow", "reason": "looks fine", "systemMessage": "from a",
                    "suppressOutput": true,
                    "hookSpecificOutput": {"llm_response": {"text": "synthetic answer"},
                                           "llm_request": {"model": "from-b"}}}),
            "{event}"
        );

        // The other way round, the later block wins (and blocks).
        let c = answer(&p, "c.sh", &json!({"decision": "allow"}));
        let d = answer(&p, "d.sh", &json!({"decision": "block", "reason": "no"}));
        p.settings(json!({event: [group(vec![c, d])]}));
        let fired = p.fire(event, input);
        assert_eq!(fired.code, 2, "{event}: {fired:#?}");
        assert!(fired.success(), "a JSON block is success: true");
        assert_eq!(
            fired.final_output(),
            &json!({"decision": "block", "reason": "no"})
        );
    }
}

#[test]
fn before_model_a_claude_style_decision_is_replaced_like_a_decision() {
    // `permissionDecision` stands for the decision of a hook without one, so it is
    // replaced (and replaces) with its reason, as a `decision` would be.
    let p = Project::new();
    let a = answer(&p, "a.sh", &json!({"decision": "allow", "reason": "fine"}));
    let b = answer(
        &p,
        "b.sh",
        &json!({"hookSpecificOutput": {"permissionDecision": "deny",
                "permissionDecisionReason": "claude-style deny"}}),
    );
    p.settings(json!({"BeforeModel": [group(vec![a, b])]}));
    let fired = p.fire("BeforeModel", json!({"llm_request": llm_request()}));
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(fired.final_output()["decision"], "deny");
    assert_eq!(fired.final_output()["reason"], "claude-style deny");
}

#[test]
fn before_model_a_failure_policy_block_is_not_replaced_by_a_later_allow() {
    // A failed hook's `failurePolicy: "block"` is the host's verdict, not an answer:
    // field replacement does not let the next hook's `allow` undo it.
    let p = Project::new();
    let broken = p.script("broken.sh", "exit 1");
    let allow = answer(&p, "allow.sh", &json!({"decision": "allow"}));
    p.settings(json!({"BeforeModel": [group(vec![
        json!({"type": "command", "command": broken, "failurePolicy": "block"}),
        allow
    ])]}));
    let fired = p.fire("BeforeModel", json!({"llm_request": llm_request()}));
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(fired.final_output()["decision"], "block");
    let reason = fired.final_output()["reason"].as_str().expect("reason");
    assert!(
        reason.contains("broken.sh") && reason.contains("failurePolicy"),
        "{reason}"
    );
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

#[test]
fn after_agent_clear_context_is_an_or() {
    // Both aggregators: any `clearContext: true` wins; a later `false` does not undo it.
    let p = Project::new();
    let a = answer(
        &p,
        "a.sh",
        &json!({"hookSpecificOutput": {"hookEventName": "AfterAgent", "clearContext": true}}),
    );
    let b = answer(
        &p,
        "b.sh",
        &json!({"hookSpecificOutput": {"hookEventName": "AfterAgent", "clearContext": false,
                "additionalContext": "b"}}),
    );
    let c = answer(&p, "c.sh", &json!({"systemMessage": "c"}));
    p.settings(json!({"AfterAgent": [group(vec![a, b, c])]}));
    let input = json!({"prompt": "p", "prompt_response": "r", "stop_hook_active": false});
    let fired = p.fire("AfterAgent", input.clone());
    fired.assert_clean();
    assert_eq!(fired.specific("clearContext"), true, "{fired:#?}");
    assert_eq!(fired.specific("additionalContext"), "b");

    // Nobody asked: nothing is cleared.
    let d = answer(
        &p,
        "d.sh",
        &json!({"hookSpecificOutput": {"clearContext": false}}),
    );
    let e = answer(&p, "e.sh", &json!({"systemMessage": "e"}));
    p.settings(json!({"AfterAgent": [group(vec![d, e])]}));
    let fired = p.fire("AfterAgent", input);
    fired.assert_clean();
    assert_ne!(fired.specific("clearContext"), true, "{fired:#?}");
}

#[test]
fn sticky_hook_blocks_keeps_a_before_model_block_and_stop_from_any_settings_file() {
    let p = Project::new();
    let a = answer(
        &p,
        "a.sh",
        &json!({"decision": "block", "reason": "no model", "continue": false, "stopReason": "halt"}),
    );
    let b = answer(
        &p,
        "b.sh",
        &json!({"decision": "allow", "reason": "fine", "continue": true, "systemMessage": "b"}),
    );
    let hooks = json!({"BeforeModel": [group(vec![a, b])]});
    let input = json!({"llm_request": llm_request()});
    // Off by default: the later hook wins.
    let settings = p.settings(hooks);
    assert_eq!(p.fire("BeforeModel", input.clone()).code, 0);

    // On in a second, lower-priority file: the block and the stop stay.
    let sticky = p.outside().join("sticky.json");
    std::fs::write(
        &sticky,
        json!({"tools": {"stickyHookBlocks": true}}).to_string(),
    )
    .unwrap();
    let fired = p.fire_settings("BeforeModel", input, &[&settings, &sticky]);
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert!(fired.errors().is_empty(), "{fired:#?}");
    assert_eq!(
        fired.final_output(),
        &json!({"decision": "block", "reason": "no model", "continue": false,
                "stopReason": "halt", "systemMessage": "b"})
    );
}
