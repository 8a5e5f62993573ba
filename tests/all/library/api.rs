//! Firing through the library: a block and a rewrite, `has_hooks` as the fast path,
//! `fire_blocking` without a runtime, events parsed from their names, typed inputs and
//! answers, and a borrowed input.

use std::path::PathBuf;

use hookhost::{Decision, HookEvent, HookSystem};
use serde_json::json;

use super::{build, object};
use crate::common::{Project, cmd, group};

/// A project with a BeforeTool guard for `write_file` that rewrites the path and blocks
/// writes to /etc, and an AfterTool context hook.
fn guarded_project() -> (Project, PathBuf) {
    let p = Project::new();
    let guard = p.python(
        "guard.py",
        r#"import json, sys
event = json.load(sys.stdin)
path = event["tool_input"].get("file_path", "")
if path.startswith("/etc/"):
    print(json.dumps({"decision": "block", "reason": "Writing to /etc is prohibited"}))
else:
    print(json.dumps({"decision": "allow", "hookSpecificOutput": {"tool_input": {"file_path": "/sandbox" + path}}}))"#,
    );
    let settings = p.settings(json!({
        "BeforeTool": [{"matcher": "write_file", "hooks": [cmd(&guard)]}],
        "AfterTool": [group(vec![cmd("echo '{\"hookSpecificOutput\":{\"additionalContext\":\"checked\"}}'")])]
    }));
    (p, settings)
}

#[tokio::test]
async fn fire_block_and_rewrite_through_the_library() {
    let (p, settings) = guarded_project();
    let hooks = build(&p, &settings);
    assert!(hooks.is_enabled());
    assert!(
        hooks.report().diagnostics().is_empty(),
        "{:?}",
        hooks.report().diagnostics()
    );

    let blocked = hooks
        .fire(
            HookEvent::BeforeTool,
            object(json!({"tool_name": "write_file", "tool_input": {"file_path": "/etc/passwd"}})),
        )
        .await;
    assert!(blocked.is_blocked());
    assert!(blocked.success);
    assert_eq!(
        blocked.block_reason(),
        Some("Writing to /etc is prohibited")
    );
    assert_eq!(blocked.final_output.decision, Some(Decision::Block));
    assert_eq!(blocked.tool_input(), None);

    let allowed = hooks
        .fire(
            HookEvent::BeforeTool,
            object(json!({"tool_name": "write_file", "tool_input": {"file_path": "/tmp/x"}})),
        )
        .await;
    assert!(!allowed.is_blocked());
    assert_eq!(allowed.block_reason(), None);
    assert_eq!(
        allowed.tool_input(),
        Some(&json!({"file_path": "/sandbox/tmp/x"}))
    );
    assert_eq!(allowed.executions.len(), 1);
    assert_eq!(allowed.executions[0].exit_code, Some(0));

    let after = hooks
        .fire(
            HookEvent::AfterTool,
            object(json!({"tool_name": "write_file", "tool_input": {}, "tool_response": {}})),
        )
        .await;
    assert_eq!(after.additional_context(), Some("checked"));
    assert!(!after.should_stop());
}

#[tokio::test]
async fn has_hooks_is_the_fast_path_check() {
    let (p, settings) = guarded_project();
    let hooks = build(&p, &settings);
    assert!(hooks.has_hooks(HookEvent::BeforeTool, Some("write_file")));
    assert!(!hooks.has_hooks(HookEvent::BeforeTool, Some("read_file")));
    assert!(!hooks.has_hooks(HookEvent::BeforeTool, None));
    assert!(hooks.has_hooks(HookEvent::AfterTool, Some("anything")));
    assert!(!hooks.has_hooks(HookEvent::BeforeModel, None));

    // A fire that matches nothing runs nothing and reports nothing.
    let result = hooks
        .fire(
            HookEvent::BeforeTool,
            object(json!({"tool_name": "read_file"})),
        )
        .await;
    assert!(result.success);
    assert!(result.executions.is_empty());
    assert_eq!(result.final_output, hookhost::HookOutput::default());
}

#[test]
fn fire_blocking_works_without_a_runtime() {
    let (p, settings) = guarded_project();
    let hooks = build(&p, &settings);
    let result = hooks.fire_blocking(
        HookEvent::BeforeTool,
        object(json!({"tool_name": "write_file", "tool_input": {"file_path": "/etc/shadow"}})),
    );
    assert!(result.is_blocked());
    assert_eq!(result.block_reason(), Some("Writing to /etc is prohibited"));
}

#[test]
fn events_parse_from_their_names() {
    for event in HookEvent::LLXPRT {
        assert_eq!(event.as_str().parse::<HookEvent>(), Ok(event));
    }
    let err = "Stop".parse::<HookEvent>().expect_err("not an event");
    assert!(err.to_string().contains("Stop"));
}

/// Typed inputs in, typed answers out (`hookhost::input`).
#[tokio::test]
async fn typed_inputs_and_typed_answers() {
    use hookhost::input::{BeforeToolSelectionInput, HookInput, LlmRequest, ToolConfig, ToolMode};
    let p = Project::new();
    let settings = p.settings(serde_json::json!({"BeforeToolSelection": [{"hooks": [{"type": "command",
        "command": "echo '{\"hookSpecificOutput\":{\"toolConfig\":{\"mode\":\"ANY\",\"allowedFunctionNames\":[\"read_file\"]}}}'"}]}]}));
    let system = hookhost::HookSystem::builder()
        .project_dir(p.dir())
        .settings_files([settings])
        .build();
    let input = HookInput::BeforeToolSelection(BeforeToolSelectionInput {
        llm_request: LlmRequest {
            model: Some("m".into()),
            ..Default::default()
        },
        ..Default::default()
    });
    let (event, map) = hookhost::input::into_fire(&input).unwrap();
    let result = system.fire(event, map).await;
    let config: ToolConfig = result.specific_as("toolConfig").unwrap();
    assert_eq!(config.mode, Some(ToolMode::Any));
    assert_eq!(
        config.allowed_function_names,
        Some(vec!["read_file".to_owned()])
    );
}

/// `fire` also borrows the input, and gives the same result.
#[tokio::test]
async fn fire_borrows_the_input() {
    let p = Project::new();
    let settings = p.settings(json!({"BeforeTool": [{"matcher": "write_file", "hooks": [cmd("echo '{\"decision\":\"block\",\"reason\":\"r\"}'")]}]}));
    let system = HookSystem::builder()
        .project_dir(p.dir())
        .settings_files([settings])
        .build();
    let hit = json!({"tool_name": "write_file", "tool_input": {}})
        .as_object()
        .cloned()
        .unwrap();
    let miss = json!({"tool_name": "read_file", "tool_input": {}})
        .as_object()
        .cloned()
        .unwrap();
    assert!(system.fire(HookEvent::BeforeTool, &hit).await.is_blocked());
    let result = system.fire(HookEvent::BeforeTool, &miss).await;
    assert!(result.executions.is_empty() && !result.is_blocked());
    assert_eq!(
        hit.get("tool_name"),
        Some(&json!("write_file")),
        "the caller keeps its input"
    );
}
