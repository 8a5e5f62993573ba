//! What a hook process sees: environment, command expansion, cwd, and the stdin
//! object with its base fields (seeds/001 §4.1, §7.6; CONTRACT §1), for all 11 events.

use std::time::{Duration, SystemTime};

use serde_json::{Value, json};

use crate::common::{Project, cmd, group};

#[test]
fn hooks_see_the_three_project_dir_variables_and_the_parent_environment() {
    let p = Project::new();
    let hook = p.script(
        "env.sh",
        r#"printf '%s|%s|%s|%s' "$LLXPRT_PROJECT_DIR" "$GEMINI_PROJECT_DIR" "$CLAUDE_PROJECT_DIR" "$HOOKHOST_TEST_PARENT_VAR""#,
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    // A stale value in the parent environment is overridden.
    let fired = p.fire_with(
        "BeforeTool",
        json!({"tool_name": "t"}),
        &[],
        &[
            ("HOOKHOST_TEST_PARENT_VAR", "passed through"),
            ("LLXPRT_PROJECT_DIR", "/stale/value"),
        ],
    );
    fired.assert_clean();
    let dir = p.dir().display().to_string();
    assert_eq!(
        fired.final_output()["systemMessage"],
        format!("{dir}|{dir}|{dir}|passed through").as_str()
    );
}

#[test]
fn project_dir_variables_and_tilde_are_expanded_in_commands() {
    let p = Project::new();
    let a = p.script("a.sh", "echo a-ran");
    let b = p.script("b.sh", "echo b-ran");
    let c = p.script("c.sh", "echo c-ran");
    p.executable(p.home().join("bin/d.sh"), "#!/bin/sh\necho d-ran\n");
    p.settings(json!({"BeforeTool": [group(vec![
        cmd(&format!("$LLXPRT_PROJECT_DIR/{a}")),
        cmd(&format!("${{GEMINI_PROJECT_DIR}}/{b}")),
        cmd(&format!("\"$CLAUDE_PROJECT_DIR\"/{c}")),
        cmd("~/bin/d.sh"),
        cmd("echo '$HOME stays literal in single quotes'"),
    ])]}));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    fired.assert_clean();
    assert_eq!(
        fired.final_output()["systemMessage"],
        "a-ran\nb-ran\nc-ran\nd-ran\n$HOME stays literal in single quotes"
    );
}

#[test]
fn quoted_expansion_works_in_a_project_dir_with_spaces() {
    let p = Project::named("my project dir");
    let hook = p.script("x.sh", "echo \"ran in $(pwd -P)\"");
    p.settings(
        json!({"BeforeTool": [group(vec![cmd(&format!("\"$LLXPRT_PROJECT_DIR/{hook}\""))])]}),
    );
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    fired.assert_clean();
    assert_eq!(
        fired.final_output()["systemMessage"],
        format!("ran in {}", p.dir().display()).as_str()
    );
}

#[test]
fn hooks_run_in_the_project_dir() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![cmd("pwd -P")])]}));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    fired.assert_clean();
    assert_eq!(
        fired.final_output()["systemMessage"],
        p.dir().display().to_string().as_str(),
        "the CLI ran elsewhere ({}); the hook must run in --project-dir",
        p.outside().display()
    );
}

#[test]
fn the_project_dir_defaults_to_the_current_directory() {
    let p = Project::new();
    let hook = p.script(
        "x.sh",
        "cat > seen.json\nprintf '%s' \"$LLXPRT_PROJECT_DIR\"",
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let mut command = p.command();
    command.current_dir(p.dir()).args(["fire", "BeforeTool"]);
    let run = crate::common::run(command, br#"{"tool_name":"t"}"#);
    assert_eq!(run.code, 0, "{run:#?}");
    let out: Value = serde_json::from_slice(&run.stdout).expect("JSON");
    let dir = p.dir().display().to_string();
    assert_eq!(out["finalOutput"]["systemMessage"], dir.as_str());
    assert_eq!(p.read_json("seen.json")["cwd"], dir.as_str());
}

#[test]
fn a_relative_project_dir_is_made_absolute() {
    let p = Project::new();
    let hook = p.script(
        "x.sh",
        "cat > seen.json\nprintf '%s' \"$LLXPRT_PROJECT_DIR\"",
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let name = p.dir().file_name().expect("a name").to_owned();
    let mut command = p.command();
    // The CLI runs in the parent of the project dir.
    command
        .args(["fire", "BeforeTool", "--project-dir"])
        .arg(&name);
    let run = crate::common::run(command, br#"{"tool_name":"t"}"#);
    assert_eq!(run.code, 0, "{run:#?}");
    let out: Value = serde_json::from_slice(&run.stdout).expect("JSON");
    let dir = p.dir().display().to_string();
    assert_eq!(out["finalOutput"]["systemMessage"], dir.as_str());
    assert_eq!(p.read_json("seen.json")["cwd"], dir.as_str());
}

fn record_stdin(p: &Project, event: &str) {
    p.settings(json!({event: [group(vec![cmd("cat > seen.json")])]}));
}

#[test]
fn base_fields_are_added_and_given_fields_pass_through_unchanged() {
    let p = Project::new();
    record_stdin(&p, "BeforeTool");
    let input = json!({
        "tool_name": "write_file",
        "tool_input": {
            "file_path": "/home/user/project/file.txt",
            "content": "Hello, wörld! \u{1F600}\n\t\"quoted\"",
            "nested": {"list": [1, -2, 3.5, true, null, {"deep": []}], "empty": {}},
            "big": 9_007_199_254_740_993_u64
        },
        "extra_field": "kept"
    });
    let before = SystemTime::now();
    p.fire("BeforeTool", input.clone()).assert_clean();
    let seen = p.read_json("seen.json");
    for (key, value) in input.as_object().expect("object") {
        assert_eq!(
            &seen[key], value,
            "field {key} changed on its way to the hook"
        );
    }
    assert_eq!(seen["hook_event_name"], "BeforeTool");
    assert_eq!(seen["cwd"], p.dir().display().to_string().as_str());
    assert_eq!(seen["transcript_path"], "");
    let session = seen["session_id"].as_str().expect("session_id is a string");
    assert!(!session.is_empty());
    let timestamp = seen["timestamp"].as_str().expect("timestamp is a string");
    let parsed = humantime::parse_rfc3339(timestamp)
        .unwrap_or_else(|e| panic!("timestamp {timestamp:?} is not ISO 8601 / RFC 3339: {e}"));
    let slack = Duration::from_secs(120);
    assert!(
        parsed + slack >= before && parsed <= SystemTime::now() + slack,
        "timestamp {timestamp} is not now"
    );
    assert_eq!(
        seen.as_object().expect("object").len(),
        input.as_object().expect("object").len() + 5,
        "exactly the five base fields are added: {seen}"
    );
}

#[test]
fn base_fields_given_by_the_caller_are_kept() {
    let p = Project::new();
    record_stdin(&p, "AfterTool");
    let input = json!({
        "session_id": "abc123",
        "transcript_path": "/tmp/transcript.jsonl",
        "cwd": "/home/user/project",
        "timestamp": "2025-02-18T16:30:00.000Z",
        "tool_name": "read_file",
        "tool_input": {"path": "a"},
        "tool_response": {"llmContent": "text"}
    });
    p.fire("AfterTool", input.clone()).assert_clean();
    let seen = p.read_json("seen.json");
    let mut expected = input.as_object().expect("object").clone();
    expected.insert("hook_event_name".to_owned(), json!("AfterTool"));
    assert_eq!(seen, Value::Object(expected));
}

fn event_input(event: &str) -> Value {
    match event {
        "BeforeTool" => json!({"tool_name": "write_file", "tool_input": {"a": 1}}),
        "AfterTool" => {
            json!({"tool_name": "write_file", "tool_input": {"a": 1}, "tool_response": {"ok": true}})
        }
        "BeforeModel" | "BeforeToolSelection" => {
            json!({"llm_request": {"model": "m", "messages": []}})
        }
        "AfterModel" => json!({"llm_request": {"model": "m"}, "llm_response": {"text": "hi"}}),
        "BeforeAgent" => json!({"prompt": "do it"}),
        "AfterAgent" => {
            json!({"prompt": "do it", "prompt_response": "done", "stop_hook_active": false})
        }
        "SessionStart" => json!({"source": "startup"}),
        "SessionEnd" => json!({"reason": "exit"}),
        "PreCompress" => json!({"trigger": "auto"}),
        "Notification" => json!({"notification_type": "ToolPermission", "message": "allow?"}),
        other => panic!("no input for {other}"),
    }
}

#[test]
fn each_of_the_eleven_events_fires_its_hook_with_its_name() {
    const EVENTS: [&str; 11] = [
        "BeforeTool",
        "AfterTool",
        "BeforeAgent",
        "AfterAgent",
        "BeforeModel",
        "AfterModel",
        "BeforeToolSelection",
        "SessionStart",
        "SessionEnd",
        "PreCompress",
        "Notification",
    ];
    let p = Project::new();
    let hooks: serde_json::Map<String, Value> = EVENTS
        .iter()
        .map(|event| {
            let command =
                format!("cat > stdin-{event}.json; echo '{{\"systemMessage\":\"{event} ok\"}}'");
            ((*event).to_owned(), json!([group(vec![cmd(&command)])]))
        })
        .collect();
    p.settings(json!(hooks));
    for (i, event) in EVENTS.iter().enumerate() {
        let input = event_input(event);
        let fired = p.fire(event, input.clone());
        fired.assert_clean();
        assert_eq!(
            fired.final_output()["systemMessage"],
            format!("{event} ok").as_str()
        );
        let seen = p.read_json(&format!("stdin-{event}.json"));
        assert_eq!(seen["hook_event_name"], *event);
        for (key, value) in input.as_object().expect("object") {
            assert_eq!(&seen[key], value, "{event}: field {key}");
        }
        // Only this event's hook ran.
        for (j, other) in EVENTS.iter().enumerate() {
            assert_eq!(
                p.exists(&format!("stdin-{other}.json")),
                j <= i,
                "after firing {event}, the hook of {other} ran: {}",
                j > i
            );
        }
    }
}

/// CONTRACT §5 `tools.scrubHookEnv` (issue 29): command hooks get a minimal
/// environment plus their own `env`, not the agent's API keys; any settings file
/// can turn it on and none — a repository least of all — can turn it off.
#[test]
fn scrub_hook_env_keeps_secrets_from_command_hooks() {
    let p = Project::new();
    let hook = json!({"type": "command",
        "command": "printf '%s|%s|%s|%s' \"$SECRET_API_KEY\" \"$OWN\" \"$LLXPRT_PROJECT_DIR\" \"${PATH:+path}\"",
        "env": {"OWN": "mine"}});
    let fire = |p: &Project| {
        let fired = p.fire_with(
            "BeforeTool",
            json!({"tool_name": "t"}),
            &[],
            &[("SECRET_API_KEY", "sk-live-123")],
        );
        fired.assert_clean();
        fired.final_output()["systemMessage"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    let dir = p.dir().display().to_string();
    p.settings(json!({"BeforeTool": [group(vec![hook.clone()])]}));
    assert_eq!(fire(&p), format!("sk-live-123|mine|{dir}|path"));

    // The user's file turns it on; the project's `false` does not turn it off.
    p.write(
        p.home().join(".llxprt/settings.json"),
        json!({"tools": {"scrubHookEnv": true}}).to_string(),
    );
    p.settings_raw(
        &json!({"tools": {"enableHooks": true, "scrubHookEnv": false},
        "hooks": {"BeforeTool": [group(vec![hook])]}}),
    );
    assert_eq!(fire(&p), format!("|mine|{dir}|path"));
}
