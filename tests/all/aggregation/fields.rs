//! The other fields: additional context and system messages are joined, `continue:
//! false` stops without blocking, `suppressOutput` and `clearContext` are an OR, and
//! hooks in several groups aggregate like one list.

use serde_json::json;

use super::answer;
use crate::common::{Project, group};

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
