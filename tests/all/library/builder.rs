//! The builder's switches and what it reports: `enable_hooks(false)`, the session id and
//! transcript path, the output cap, sticky blocks and session matchers; diagnostics and
//! the hook listing.

use hookhost::{HookEvent, HookSystem};
use serde_json::json;

use super::{build, object};
use crate::common::{Project, cmd, group, say};

#[tokio::test]
async fn enable_hooks_false_overrides_the_settings() {
    let p = Project::new();
    let settings =
        p.settings(json!({"BeforeTool": [group(vec![cmd("touch ran.marker; exit 2")])]}));
    let hooks = HookSystem::builder()
        .project_dir(p.dir())
        .settings_files([&settings])
        .enable_hooks(false)
        .build();
    assert!(!hooks.is_enabled());
    assert!(hooks.enabled_in_settings());
    assert!(!hooks.has_hooks(HookEvent::BeforeTool, Some("t")));
    let result = hooks
        .fire(HookEvent::BeforeTool, object(json!({"tool_name": "t"})))
        .await;
    assert!(!result.is_blocked());
    assert!(result.executions.is_empty());
    assert!(!p.exists("ran.marker"));
}

#[tokio::test]
async fn builder_session_and_transcript_reach_the_hook() {
    let p = Project::new();
    let settings = p.settings(json!({"SessionStart": [group(vec![cmd("cat > seen.json")])]}));
    let hooks = HookSystem::builder()
        .project_dir(p.dir())
        .settings_files([&settings])
        .session_id("session-42")
        .transcript_path("/tmp/transcript.jsonl")
        .build();
    let result = hooks
        .fire(HookEvent::SessionStart, object(json!({"source": "resume"})))
        .await;
    assert!(result.success, "{:?}", result.errors);
    let seen = p.read_json("seen.json");
    assert_eq!(seen["session_id"], "session-42");
    assert_eq!(seen["transcript_path"], "/tmp/transcript.jsonl");
    assert_eq!(seen["source"], "resume");
    assert_eq!(seen["hook_event_name"], "SessionStart");
    assert_eq!(seen["cwd"], p.dir().display().to_string().as_str());
}

#[tokio::test]
async fn the_output_cap_is_configurable() {
    let p = Project::new();
    let settings = p.settings(json!({"AfterTool": [group(vec![cmd(
        "printf '{\"systemMessage\":\"'; head -c 5000 /dev/zero | tr '\\0' y; printf '\"}'"
    )])]}));
    let hooks = HookSystem::builder()
        .project_dir(p.dir())
        .settings_files([&settings])
        .output_cap(1024)
        .build();
    let result = hooks
        .fire(
            HookEvent::AfterTool,
            object(json!({"tool_name": "t", "tool_input": {}, "tool_response": {}})),
        )
        .await;
    // The cut JSON is no answer: the hook failed (fail-open), nothing reaches the
    // final output.
    assert_eq!(result.system_message(), None);
    assert_eq!(result.executions[0].stdout.len(), 1024);
    assert!(
        result.errors.len() == 1 && result.errors[0].contains("1024-byte output cap"),
        "{:?}",
        result.errors
    );
    let warnings = &result.executions[0].warnings;
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("stdout truncated to 1024 of 5020 bytes")),
        "{warnings:?}"
    );
}

#[tokio::test]
async fn diagnostics_and_hook_listing() {
    let p = Project::new();
    let settings = p.settings(json!({"BeforeTool": [
        group(vec![cmd(&say("first")), json!({"type": "command", "command": "x", "timeout": "1s"})]),
        {"matcher": "(", "hooks": [cmd(&say("second"))]}
    ]}));
    let hooks = build(&p, &settings);
    let messages: Vec<String> = hooks
        .report()
        .diagnostics()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages[0].starts_with("error: ")
            && messages[0].contains("hooks.BeforeTool[0].hooks[1].timeout")
    );
    assert!(
        messages[1].starts_with("warning: ") && messages[1].contains("hooks.BeforeTool[1].matcher")
    );
    let names: Vec<&str> = hooks
        .hooks(HookEvent::BeforeTool)
        .map(|h| h.entry.spec.name.as_str())
        .collect();
    assert_eq!(names, ["echo first", "echo second"]);
    let locations: Vec<String> = hooks
        .hooks(HookEvent::BeforeTool)
        .map(|h| h.entry.location())
        .collect();
    assert_eq!(
        locations,
        [
            "hooks.BeforeTool[0].hooks[0]",
            "hooks.BeforeTool[1].hooks[0]"
        ]
    );
}

#[tokio::test]
async fn sticky_blocks_and_session_matchers_through_the_library() {
    let p = Project::new();
    let settings = p.settings(json!({
        "BeforeModel": [group(vec![
            cmd("echo '{\"decision\":\"block\",\"reason\":\"no\"}'"),
            cmd("echo '{\"decision\":\"allow\"}'"),
        ])],
        "SessionStart": [{"matcher": "resume", "hooks": [cmd(&say("resumed"))]}]
    }));
    let build = |sticky: Option<bool>| {
        let builder = HookSystem::builder()
            .project_dir(p.dir())
            .settings_files([&settings]);
        match sticky {
            Some(sticky) => builder.sticky_blocks(sticky),
            None => builder,
        }
        .build()
    };
    let input = object(json!({"llm_request": {"model": "m"}}));
    let replaced = build(None)
        .fire(HookEvent::BeforeModel, input.clone())
        .await;
    assert!(!replaced.is_blocked(), "{:?}", replaced.final_output);
    assert!(replaced.success);
    let sticky = build(Some(true)).fire(HookEvent::BeforeModel, input).await;
    assert_eq!(sticky.block_reason(), Some("no"));

    let hooks = build(None);
    assert!(hooks.has_hooks(HookEvent::SessionStart, Some("resume")));
    assert!(!hooks.has_hooks(HookEvent::SessionStart, Some("startup")));
    let resumed = hooks
        .fire(HookEvent::SessionStart, object(json!({"source": "resume"})))
        .await;
    assert_eq!(resumed.system_message(), Some("resumed"));
}
