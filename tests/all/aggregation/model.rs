//! Tool selection and the model events: `NONE` beats an allow list and lists are
//! unioned; for BeforeModel and AfterModel the later hook in plan order wins each field,
//! even the decision (unless a failure-policy or sticky block), and `continue: true`
//! replaces an earlier false.

use serde_json::{Value, json};

use super::answer;
use crate::common::{Project, cmd, group};

fn llm_request() -> Value {
    json!({
        "model": "gemini-2.5-pro",
        "messages": [{"role": "user", "content": "hi"}],
        "config": {"temperature": 0.5, "maxOutputTokens": 1024}
    })
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
