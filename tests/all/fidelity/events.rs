//! Claude's events and matchers: Claude-only and unknown events load, fire and answer in
//! Claude's form; a plain matcher is exact and Notification filters on its type;
//! `approve` is `allow`; a body naming another event is corrected, and said.

use serde_json::json;

use super::{answer, check_with, claude_group, claude_input, claude_settings, hook, hook_event};
use crate::common::Project;

/// Claude settings with a hook for each Claude-only event, and one for an event
/// hookhost does not know (`TeammateIdle2`).
fn claude_only_settings(p: &Project) {
    claude_settings(
        p,
        json!({
            "SubagentStop": claude_group("Explore", "echo '{\"decision\":\"block\",\"reason\":\"explore more\"}'"),
            "SubagentStart": claude_group("", "echo started > subagent.marker"),
            "PermissionRequest": claude_group("Bash", "echo 'no shell today' >&2; exit 2"),
            "PostToolUseFailure": claude_group("Bash", "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUseFailure\",\"additionalContext\":\"try again\"}}'"),
            "Setup": claude_group("init", "echo setup > setup.marker"),
            "TeammateIdle2": claude_group("", "echo future > future.marker"),
        }),
    );
}

/// Seen 1: Claude-only events are accepted in Claude files, fired, and answered in
/// Claude's form; an event hookhost does not know runs generically with a warning.
#[test]
fn claude_only_and_unknown_events_run() {
    let p = Project::new();
    claude_only_settings(&p);
    let check = check_with(&p, &["--claude-settings"]);
    assert_eq!(check.code, 0, "{check:#?}");
    assert!(
        check
            .stderr
            .contains("\"TeammateIdle2\" is not one hookhost knows"),
        "{}",
        check.stderr
    );
    let listing = check.stdout_text();
    for event in [
        "SubagentStop:",
        "PermissionRequest:",
        "PostToolUseFailure:",
        "Setup:",
        "TeammateIdle2:",
    ] {
        assert!(listing.contains(event), "{event}: {listing}");
    }

    let out = hook_event(
        &p,
        "SubagentStop",
        json!({"agent_type": "Explore", "stop_hook_active": false}),
    );
    assert_eq!(
        (out.code, answer(&out)),
        (0, json!({"decision": "block", "reason": "explore more"})),
        "{out:?}"
    );
    let plan = claude_input(&p, "SubagentStop", json!({"agent_type": "Plan"}));
    assert_eq!(answer(&hook(&p, &plan, &[], &[])), json!({}));

    let out = hook_event(
        &p,
        "PermissionRequest",
        json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}),
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        answer(&out)["hookSpecificOutput"],
        json!({"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": "no shell today"}})
    );

    let out = hook_event(
        &p,
        "PostToolUseFailure",
        json!({"tool_name": "Bash", "tool_input": {}, "error": "exit 1"}),
    );
    assert_eq!(
        answer(&out)["hookSpecificOutput"]["additionalContext"],
        "try again",
        "{out:?}"
    );

    let setup = claude_input(&p, "Setup", json!({"trigger": "maintenance"}));
    assert_eq!(hook(&p, &setup, &[], &[]).code, 0);
    assert!(!p.exists("setup.marker"), "the Setup matcher is `init`");
    let setup = claude_input(&p, "Setup", json!({"trigger": "init"}));
    assert_eq!(hook(&p, &setup, &[], &[]).code, 0);
    assert!(p.exists("setup.marker"));

    let out = hook_event(&p, "TeammateIdle2", json!({}));
    assert_eq!((out.code, out.stderr.as_str()), (0, ""), "{out:?}");
    assert!(p.exists("future.marker"), "an unknown event's hooks run");

    let fired = p.fire_flags(
        "SubagentStart",
        json!({"agent_type": "Explore"}),
        &["--claude-settings"],
    );
    fired.assert_clean();
    assert!(p.exists("subagent.marker"));
}

/// Seen 7: a plain Claude matcher is exact; Notification filters on its type.
#[test]
fn claude_matchers_are_exact_and_filter_on_each_events_field() {
    let p = Project::new();
    claude_settings(
        &p,
        json!({
            "PreToolUse": claude_group("Bash", "echo x >> bash.marker"),
            "Notification": claude_group("idle_prompt", "echo x >> idle.marker"),
        }),
    );
    let out = hook(
        &p,
        &claude_input(
            &p,
            "PreToolUse",
            json!({"tool_name": "BashOutput", "tool_input": {}}),
        ),
        &[],
        &[],
    );
    assert_eq!(out.code, 0);
    assert!(!p.exists("bash.marker"), "`Bash` matched BashOutput");
    hook(
        &p,
        &claude_input(
            &p,
            "PreToolUse",
            json!({"tool_name": "Bash", "tool_input": {}}),
        ),
        &[],
        &[],
    );
    assert!(p.exists("bash.marker"));
    hook(
        &p,
        &claude_input(
            &p,
            "Notification",
            json!({"notification_type": "permission_prompt", "message": "m"}),
        ),
        &[],
        &[],
    );
    assert!(!p.exists("idle.marker"));
    hook(
        &p,
        &claude_input(
            &p,
            "Notification",
            json!({"notification_type": "idle_prompt", "message": "m"}),
        ),
        &[],
        &[],
    );
    assert!(p.exists("idle.marker"));
}

/// Seen 8.
#[test]
fn approve_is_allow_in_the_aggregated_decision() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [{"hooks": [{"type": "command", "command": "echo '{\"decision\":\"approve\"}'"}]}]}));
    let fired = p.fire("BeforeTool", json!({"tool_name": "write_file"}));
    fired.assert_clean();
    assert_eq!(fired.final_output()["decision"], "allow");
}

/// Seen 14: a body naming another event than the one fired is said, and the hooks
/// see the fired event.
#[test]
fn a_body_for_another_event_is_corrected_and_said() {
    let p = Project::new();
    p.settings(
        json!({"BeforeTool": [{"hooks": [{"type": "command", "command": "cat > seen.json"}]}]}),
    );
    let fired = p.fire(
        "BeforeTool",
        json!({"hook_event_name": "PreToolUse", "tool_name": "write_file"}),
    );
    assert!(
        fired
            .stderr
            .contains("hook_event_name is \"PreToolUse\" but BeforeTool was fired"),
        "{}",
        fired.stderr
    );
    assert_eq!(p.read_json("seen.json")["hook_event_name"], "BeforeTool");
}
