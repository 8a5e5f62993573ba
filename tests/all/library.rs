//! The Rust API (CONTRACT §3): build a `HookSystem` once, fire many times.

use std::path::PathBuf;

use hookhost::{Decision, HookEvent, HookSystem};
use serde_json::{Map, Value, json};

use crate::common::{Project, cmd, group, say};

fn object(v: Value) -> Map<String, Value> {
    v.as_object().cloned().expect("a JSON object")
}

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

fn build(p: &Project, settings: &PathBuf) -> HookSystem {
    HookSystem::builder()
        .project_dir(p.dir())
        .settings_files([settings])
        .build()
}

#[tokio::test]
async fn fire_block_and_rewrite_through_the_library() {
    let (p, settings) = guarded_project();
    let hooks = build(&p, &settings);
    assert!(hooks.is_enabled());
    assert!(hooks.diagnostics().is_empty(), "{:?}", hooks.diagnostics());

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
    let locations: Vec<&str> = hooks
        .hooks(HookEvent::BeforeTool)
        .map(|h| h.entry.location.as_str())
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
async fn one_system_fires_concurrently() {
    let p = Project::new();
    let settings = p.settings(json!({"BeforeTool": [group(vec![cmd(
        "python3 -c 'import json,sys; e=json.load(sys.stdin); print(json.dumps({\"systemMessage\": e[\"tool_name\"]}))'"
    )])]}));
    let hooks = build(&p, &settings);
    let fires = (0..8).map(|i| {
        let hooks = &hooks;
        async move {
            let result = hooks
                .fire(
                    HookEvent::BeforeTool,
                    object(json!({"tool_name": format!("tool-{i}")})),
                )
                .await;
            (i, result)
        }
    });
    for (i, result) in futures::future::join_all(fires).await {
        assert_eq!(
            result.system_message(),
            Some(format!("tool-{i}").as_str()),
            "{:?}",
            result.errors
        );
    }
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

/// Issue 9: one `.wasm` named by 32 hooks (different args, so no dedup) is read,
/// compiled, mapped and pre-instantiated once; every hook still runs with its own
/// settings.
#[tokio::test]
async fn one_wasm_named_by_many_hooks_is_loaded_once() {
    let p = Project::new();
    std::fs::copy(hookhost_tests::ECHO_POLICY, p.path("policy.wasm")).unwrap();
    let hooks: Vec<Value> = (0..32)
        .map(|i| json!({"type": "plugin", "path": "policy.wasm", "args": [format!("hook-{i}")]}))
        .collect();
    let settings = p.settings(json!({"BeforeTool": [{"hooks": hooks}]}));
    let system = build(&p, &settings);
    let plugins: Vec<&hookhost::runner::wasm::Plugin> = system
        .hooks(HookEvent::BeforeTool)
        .filter_map(|hook| match &hook.runner {
            hookhost::runner::Runner::Plugin(plugin) => Some(plugin.as_ref()),
            _ => None,
        })
        .collect();
    assert_eq!(plugins.len(), 32, "{:?}", system.diagnostics());
    assert!(plugins.iter().all(|p| p.shares_module_with(plugins[0])));
    let result = system
        .fire(
            HookEvent::BeforeTool,
            object(json!({"tool_name": "write_file", "tool_input": {"echo_args": true}})),
        )
        .await;
    let message = result.system_message().unwrap_or_default().to_owned();
    assert!(
        message.contains("hook-0") && message.contains("hook-31"),
        "{message}"
    );
}

/// Issue 9: a plugin that does not wait for anything finishes in the first poll of
/// its fire — it is not parked on the executor and resumed by another thread (which
/// is what `serve` answers inline on). Before `set_epoch_deadline`, every call's
/// first epoch check found the deadline (epoch 0) passed and yielded once: not one
/// of the fires finished in its first poll. An epoch tick during a call (every 5 ms)
/// still yields, and a loaded machine may stretch any call over one, so the test
/// asks for some, not all.
#[tokio::test]
async fn a_plugin_that_does_not_wait_finishes_in_the_first_poll() {
    let p = Project::new();
    std::fs::copy(hookhost_tests::ECHO_POLICY, p.path("policy.wasm")).unwrap();
    let settings = p.settings(json!({"BeforeTool": [{"hooks": [
        {"type": "plugin", "path": "policy.wasm"}
    ]}]}));
    let system = build(&p, &settings);
    let input = object(json!({"tool_name": "write_file", "tool_input": {"path": "/etc/x"}}));
    let mut first_poll = 0;
    for _ in 0..20 {
        let mut fire = std::pin::pin!(system.fire(HookEvent::BeforeTool, &input));
        let polled = fire
            .as_mut()
            .poll(&mut std::task::Context::from_waker(std::task::Waker::noop()));
        let result = match polled {
            std::task::Poll::Ready(result) => {
                first_poll += 1;
                result
            }
            std::task::Poll::Pending => fire.await,
        };
        assert!(result.is_blocked(), "{result:?}");
    }
    assert!(
        first_poll >= 1,
        "{first_poll} of 20 fires finished in the first poll"
    );
}

/// Issue 9 (fan-out): the hooks of a parallel fire are shared by the firing task and
/// helpers that each run one hook at a time when it computes — but a hook that waits
/// must not hold the others back. On a one-thread runtime (`fire_blocking`) four
/// sleeping command hooks and two plugins still overlap.
#[test]
fn parallel_hooks_overlap_on_a_one_thread_runtime() {
    let p = Project::new();
    std::fs::copy(hookhost_tests::ECHO_POLICY, p.path("policy.wasm")).unwrap();
    let mut hooks: Vec<Value> = (0..4)
        .map(|i| {
            cmd(&format!(
                "sleep 0.5; echo '{{\"systemMessage\": \"slept {i}\"}}'"
            ))
        })
        .collect();
    hooks.insert(
        1,
        json!({"type": "plugin", "path": "policy.wasm", "args": ["a"]}),
    );
    hooks.push(json!({"type": "plugin", "path": "policy.wasm", "args": ["b"]}));
    let settings = p.settings(json!({"BeforeTool": [{"hooks": hooks}]}));
    let system = build(&p, &settings);
    let started = std::time::Instant::now();
    let result = system.fire_blocking(
        HookEvent::BeforeTool,
        object(json!({"tool_name": "read_file", "tool_input": {"path": "notes.md"}})),
    );
    let took = started.elapsed();
    assert_eq!(result.executions.len(), 6, "{:?}", result.errors);
    assert!(result.executions.iter().all(|e| e.success), "{result:?}");
    let message = result.system_message().unwrap_or_default();
    assert!(
        (0..4).all(|i| message.contains(&format!("slept {i}"))),
        "{message}"
    );
    assert!(
        took < std::time::Duration::from_millis(1500),
        "four 0.5 s hooks took {took:?}: they ran one after another"
    );
}

/// Dropping a parallel fire (an agent's own timeout, a cancelled request) kills the
/// hooks it started, whichever worker was running them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_a_parallel_fire_kills_its_hooks() {
    let p = Project::new();
    std::fs::create_dir(p.path("pids")).unwrap();
    let hooks: Vec<Value> = (0..4)
        .map(|i| cmd(&format!("echo $$ > pids/{i}; exec sleep 30")))
        .collect();
    let settings = p.settings(json!({"BeforeTool": [{"hooks": hooks}]}));
    let system = build(&p, &settings);
    let fire = system.fire(HookEvent::BeforeTool, object(json!({"tool_name": "x"})));
    let pids_dir = p.path("pids");
    let all_started = async {
        while std::fs::read_dir(&pids_dir).map_or(0, |d| d.count()) < 4 {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        // A pid file is written before it is flushed to its end: give it a moment.
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    tokio::select! {
        _ = fire => panic!("the hooks sleep 30 s; the fire cannot end first"),
        _ = all_started => {}
    }
    // The fire is dropped here.
    for i in 0..4 {
        let pid = crate::common::read_pid(&p, &format!("pids/{i}"));
        assert!(
            crate::common::wait_gone(pid, std::time::Duration::from_secs(5)),
            "hook {i} (pid {pid}) outlived its dropped fire"
        );
    }
}
