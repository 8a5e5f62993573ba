//! Decisions on tool events: allow and block is a block (a policy violation), a block
//! wins whatever the order and the reasons join, every parallel hook runs, a
//! `permissionDecision: deny` blocks, `ask` never does.

use serde_json::json;

use super::answer;
use crate::common::{Project, cmd, group};

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
