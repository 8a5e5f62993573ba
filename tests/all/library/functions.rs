//! Function hooks (seeds/003): closures on the builder and session hooks added,
//! removed and cleared at run time — planned and aggregated like any hook.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use hookhost::{FunctionAnswer, HookEvent, HookSystem};
use serde_json::json;

use super::object;
use crate::common::{Project, group, say};

#[tokio::test]
async fn builder_and_session_function_hooks_run_with_the_settings_hooks() {
    let p = Project::new();
    let settings =
        p.settings(json!({"BeforeTool": [group(vec![crate::common::cmd(&say("from settings"))])]}));
    let calls = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&calls);
    let system = HookSystem::builder()
        .project_dir(p.dir())
        .settings_files([&settings])
        .function_hook(
            HookEvent::BeforeTool,
            "write_file",
            "no-etc",
            move |input| {
                counted.fetch_add(1, Ordering::SeqCst);
                let path = input["tool_input"]["file_path"].as_str().unwrap_or("");
                if path.starts_with("/etc") {
                    FunctionAnswer::Block(format!("no writes to {path}"))
                } else {
                    FunctionAnswer::Continue
                }
            },
        )
        .build();
    assert!(
        system.report().failures().next().is_none(),
        "{:?}",
        system.report().diagnostics()
    );
    let write =
        |path: &str| object(json!({"tool_name": "write_file", "tool_input": {"file_path": path}}));
    let blocked = system
        .fire(HookEvent::BeforeTool, write("/etc/passwd"))
        .await;
    assert!(blocked.is_blocked());
    assert_eq!(blocked.block_reason(), Some("no writes to /etc/passwd"));
    assert_eq!(blocked.executions[1].hook_type, "function");
    let read = system
        .fire(
            HookEvent::BeforeTool,
            object(json!({"tool_name": "read_file"})),
        )
        .await;
    assert!(!read.is_blocked());
    assert_eq!(
        calls.load(Ordering::SeqCst),
        1,
        "the matcher did not select read_file"
    );

    let id = system
        .add_session_function_hook(HookEvent::BeforeTool, "*", "context", |_| {
            FunctionAnswer::Answer(json!({"systemMessage": "session says hi"}))
        })
        .expect("a valid matcher");
    let with_session = system.fire(HookEvent::BeforeTool, write("a.txt")).await;
    let message = with_session
        .final_output
        .system_message
        .clone()
        .unwrap_or_default();
    assert!(
        message.contains("from settings") && message.contains("session says hi"),
        "{message}"
    );
    assert!(system.remove_session_function_hook(id));
    assert!(!system.remove_session_function_hook(id));
    let without = system.fire(HookEvent::BeforeTool, write("a.txt")).await;
    assert!(
        !without
            .final_output
            .system_message
            .unwrap_or_default()
            .contains("session")
    );

    system
        .add_session_function_hook(HookEvent::AfterTool, "*", "fails", |_| {
            FunctionAnswer::Fail("database down".into())
        })
        .expect("a valid matcher");
    let failed = system
        .fire(HookEvent::AfterTool, object(json!({"tool_name": "x"})))
        .await;
    assert!(!failed.is_blocked(), "a failed function fails open");
    assert!(
        failed.errors[0].contains("database down"),
        "{:?}",
        failed.errors
    );
    system.clear_session_hooks();
    let none = system
        .fire(HookEvent::AfterTool, object(json!({"tool_name": "x"})))
        .await;
    assert!(none.executions.is_empty());
    assert!(
        system
            .add_session_function_hook(HookEvent::AfterTool, "(", "bad", |_| {
                FunctionAnswer::Continue
            })
            .is_err()
    );
}
