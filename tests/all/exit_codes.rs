//! seeds/001 §9, row by row: what each way a hook can end means, and that failures
//! fail open (or closed with `failurePolicy: "block"`).

use serde_json::json;

use crate::common::{Project, cmd, cmd_timeout, group};

fn write_file() -> serde_json::Value {
    json!({"tool_name": "write_file", "tool_input": {"file_path": "/etc/passwd", "content": "x"}})
}

#[test]
fn disabled_hooks_spawn_no_process() {
    let p = Project::new();
    let hook = p.script(
        "marker.sh",
        "touch ran.marker\necho '{\"decision\":\"block\"}'",
    );
    p.settings_raw(&json!({
        "tools": {"enableHooks": false},
        "hooks": {"BeforeTool": [group(vec![cmd(&hook)])]}
    }));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert_eq!(fired.final_output(), &json!({}));
    assert!(fired.all_outputs().is_empty());
    assert!(fired.hooks().is_empty());
    assert!(
        !p.exists("ran.marker"),
        "a disabled hook system spawned a hook"
    );
}

#[test]
fn enable_hooks_defaults_to_false() {
    let p = Project::new();
    let hook = p.script("marker.sh", "touch ran.marker");
    p.settings_raw(&json!({"hooks": {"BeforeTool": [group(vec![cmd(&hook)])]}}));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert!(fired.hooks().is_empty());
    assert!(!p.exists("ran.marker"));
    // The same settings with the switch on do run it: the test can fail.
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    p.fire("BeforeTool", write_file()).assert_clean();
    assert!(p.exists("ran.marker"));
}

#[test]
fn no_hooks_configured_for_the_event() {
    let p = Project::new();
    let hook = p.script("marker.sh", "touch ran.marker");
    p.settings(json!({"AfterTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert_eq!(fired.final_output(), &json!({}));
    assert!(fired.hooks().is_empty());
    assert!(!p.exists("ran.marker"));

    let empty = Project::new();
    empty.settings(json!({}));
    let fired = empty.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert_eq!(fired.out["finalOutput"], json!({}));
    assert_eq!(fired.out["allOutputs"], json!([]));
}

#[test]
fn no_settings_file_at_all() {
    let p = Project::new();
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert_eq!(fired.final_output(), &json!({}));
}

#[test]
fn matcher_that_does_not_match_runs_nothing() {
    let p = Project::new();
    let hook = p.script("marker.sh", "touch ran.marker\nexit 2");
    p.settings(json!({"BeforeTool": [{"matcher": "run_shell_command", "hooks": [cmd(&hook)]}]}));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert!(fired.hooks().is_empty());
    assert!(!p.exists("ran.marker"));
}

#[test]
fn exit_0_with_json_is_the_answer() {
    let p = Project::new();
    let hook = p.script(
        "answer.sh",
        r#"echo '{"decision":"allow","reason":"fine","systemMessage":"hello","custom":{"k":[1,2]}}'"#,
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert_eq!(
        fired.final_output(),
        &json!({"decision": "allow", "reason": "fine", "systemMessage": "hello", "custom": {"k": [1, 2]}})
    );
    assert_eq!(fired.all_outputs().len(), 1);
    assert_eq!(fired.all_outputs()[0]["custom"], json!({"k": [1, 2]}));
    assert_eq!(fired.hooks()[0]["exitCode"], 0);
    assert_eq!(fired.hooks()[0]["success"], true);
    assert_eq!(fired.hooks()[0]["blocked"], false);
}

#[test]
fn exit_0_with_a_block_decision_blocks() {
    let p = Project::new();
    let hook = p.script(
        "deny.sh",
        r#"echo '{"decision":"deny","reason":"Writing to /etc is prohibited"}'"#,
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert!(fired.success(), "a block is not a failure");
    assert!(fired.errors().is_empty());
    assert_eq!(fired.final_output()["decision"], "deny");
    assert_eq!(
        fired.final_output()["reason"],
        "Writing to /etc is prohibited"
    );
}

#[test]
fn exit_0_with_plain_text_becomes_a_system_message() {
    let p = Project::new();
    let hook = p.script("text.sh", "echo 'just some text'\necho 'second line'");
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert_eq!(
        fired.final_output(),
        &json!({"systemMessage": "just some text\nsecond line"})
    );
}

#[test]
fn exit_0_with_json_that_is_not_an_object_is_plain_text() {
    let p = Project::new();
    let hook = p.script("array.sh", r#"echo '["block"]'"#);
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert_eq!(
        fired.final_output(),
        &json!({"systemMessage": "[\"block\"]"})
    );
}

#[test]
fn exit_0_with_empty_stdout_allows_without_changes() {
    let p = Project::new();
    let hook = p.script("silent.sh", "exit 0");
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert_eq!(fired.final_output(), &json!({}));
    assert!(fired.all_outputs().is_empty());
    assert_eq!(fired.hooks().len(), 1, "the hook ran");
    assert_eq!(fired.hooks()[0]["exitCode"], 0);
}

#[test]
fn exit_2_takes_the_reason_from_stdout_json() {
    let p = Project::new();
    let hook = p.script(
        "block.sh",
        "echo '{\"reason\":\"no writes to /etc\"}'\necho 'stderr is not the reason' >&2\nexit 2",
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(fired.final_output()["decision"], "block");
    assert_eq!(fired.final_output()["reason"], "no writes to /etc");
    assert!(
        !fired.success(),
        "exit 2 is success: false (seeds/001 §7.2)"
    );
    assert!(fired.errors().is_empty(), "a block is not an error");
    assert_eq!(fired.hooks()[0]["exitCode"], 2);
    assert_eq!(fired.hooks()[0]["blocked"], true);
}

#[test]
fn exit_2_is_success_false_while_a_json_block_on_exit_0_is_success_true() {
    // seeds/001 §7.2 and llxprt-code's hookRunner.exitCode tests: only exit 0 is
    // `success: true`; the block itself is the same either way.
    let p = Project::new();
    let by_exit = p.script("by-exit.sh", "echo 'denied by policy' >&2\nexit 2");
    let by_json = p.script(
        "by-json.sh",
        r#"echo '{"decision":"deny","reason":"denied by JSON"}'"#,
    );
    let quiet = p.script("quiet.sh", "exit 0");
    for (hooks, success, reason) in [
        (vec![cmd(&by_exit)], false, "denied by policy"),
        (vec![cmd(&by_json)], true, "denied by JSON"),
        (vec![cmd(&quiet), cmd(&by_exit)], false, "denied by policy"),
    ] {
        let n = hooks.len();
        p.settings(json!({"BeforeTool": [group(hooks)]}));
        let fired = p.fire("BeforeTool", write_file());
        assert_eq!(fired.code, 2, "still blocked: {fired:#?}");
        assert_eq!(fired.success(), success, "{fired:#?}");
        assert!(fired.errors().is_empty(), "{fired:#?}");
        assert_eq!(fired.final_output()["reason"], reason);
        let last = &fired.hooks()[n - 1];
        assert_eq!(last["success"], success, "{last}");
        assert_eq!(last["blocked"], true, "{last}");
        assert!(last.get("error").is_none(), "{last}");
        if n == 2 {
            assert_eq!(fired.hooks()[0]["success"], true);
        }
    }
}

#[test]
fn double_encoded_json_on_exit_0_is_decoded_once_more() {
    // hookRunner.test.ts "should handle double-encoded JSON string" (both references).
    let p = Project::new();
    let answer = json!({"decision": "block", "reason": "decoded twice", "systemMessage": "m"});
    let encoded = serde_json::to_string(&answer.to_string()).unwrap();
    let hook = p.script("double.sh", &format!("cat <<'EOF'\n{encoded}\nEOF"));
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert!(fired.success(), "a JSON answer on exit 0: {fired:#?}");
    assert_eq!(fired.final_output(), &answer);
    assert_eq!(fired.all_outputs(), &vec![answer]);

    // A JSON string holding anything but an object stays plain text, quotes and all.
    for stdout in [
        r#""just words""#,
        r#""[\"block\"]""#,
        r#""42""#,
        r#""\"{}\"""#,
    ] {
        let hook = p.script("string.sh", &format!("cat <<'EOF'\n{stdout}\nEOF"));
        p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
        let fired = p.fire("BeforeTool", write_file());
        fired.assert_clean();
        assert_eq!(
            fired.final_output(),
            &json!({"systemMessage": stdout}),
            "{stdout}"
        );
    }
}

#[test]
fn exit_2_takes_the_reason_from_stderr() {
    let p = Project::new();
    let hook = p.script(
        "block.sh",
        "echo 'plain stdout is no answer on exit 2'\necho 'Writing to /etc is prohibited' >&2\nexit 2",
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(
        fired.final_output(),
        &json!({"decision": "block", "reason": "Writing to /etc is prohibited"})
    );
}

#[test]
fn exit_2_without_any_reason_still_blocks_with_a_generated_one() {
    let p = Project::new();
    let hook = p.script("block.sh", "exit 2");
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    assert_eq!(fired.code, 2);
    assert_eq!(fired.final_output()["decision"], "block");
    let reason = fired.final_output()["reason"].as_str().expect("a reason");
    assert!(
        reason.contains("exit code 2") && reason.contains("block.sh"),
        "{reason}"
    );
}

#[test]
fn exit_2_blocks_even_when_stdout_says_allow() {
    let p = Project::new();
    let hook = p.script(
        "block.sh",
        "echo '{\"decision\":\"allow\",\"reason\":\"contradiction\"}'\nexit 2",
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    assert_eq!(fired.code, 2);
    assert_eq!(fired.final_output()["decision"], "block");
    assert_eq!(fired.final_output()["reason"], "contradiction");
}

#[test]
fn exit_1_and_exit_42_fail_open_with_an_error_naming_the_code() {
    for code in [1, 42] {
        let p = Project::new();
        // The block printed before failing must not count: a failed hook has no answer.
        let hook = p.script(
            "fail.sh",
            &format!("echo '{{\"decision\":\"block\",\"reason\":\"ignored\"}}'\necho 'boom happened' >&2\nexit {code}"),
        );
        p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
        let fired = p.fire("BeforeTool", write_file());
        assert_eq!(fired.code, 0, "exit {code} must fail open: {fired:#?}");
        assert!(!fired.success());
        assert_eq!(fired.final_output(), &json!({}));
        assert!(fired.all_outputs().is_empty());
        fired.single_error(&[
            &format!("exited with code {code}"),
            "fail.sh",
            "boom happened",
            "failing open",
        ]);
        assert_eq!(fired.hooks()[0]["exitCode"], code);
        assert_eq!(fired.hooks()[0]["success"], false);
    }
}

#[test]
fn timeout_fails_open() {
    let p = Project::new();
    let hook = p.script(
        "slow.sh",
        "echo '{\"decision\":\"block\",\"reason\":\"too late\"}'\nsleep 20",
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd_timeout(&hook, 300)])]}));
    let fired = p.fire("BeforeTool", write_file());
    assert_eq!(fired.code, 0, "{fired:#?}");
    assert!(!fired.success());
    assert_eq!(fired.final_output(), &json!({}));
    fired.single_error(&["slow.sh", "timed out after 300 ms", "failing open"]);
    assert!(fired.elapsed.as_secs() < 20, "the hook was not waited out");
}

#[test]
fn crash_by_signal_fails_open() {
    let p = Project::new();
    // `$$` is the `sh -c` itself: the hook process dies of SIGKILL.
    p.settings(json!({"BeforeTool": [group(vec![
        cmd("echo '{\"decision\":\"block\"}'; kill -9 $$")
    ])]}));
    let fired = p.fire("BeforeTool", write_file());
    assert_eq!(fired.code, 0, "{fired:#?}");
    assert!(!fired.success());
    assert_eq!(fired.final_output(), &json!({}));
    fired.single_error(&["killed by signal 9", "failing open"]);
    assert_eq!(fired.hooks()[0]["exitCode"], serde_json::Value::Null);
}

#[test]
fn a_script_killed_by_a_signal_fails_open_too() {
    // A script run by `sh -c` may be a child of the shell, which then exits 137.
    let p = Project::new();
    let hook = p.script("crash.sh", "echo '{\"decision\":\"block\"}'\nkill -SEGV $$");
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    assert_eq!(fired.code, 0, "{fired:#?}");
    assert_eq!(fired.final_output(), &json!({}));
    let error = fired.single_error(&["crash.sh", "failing open"]);
    assert!(
        error.contains("killed by signal 11") || error.contains("exited with code 139"),
        "{error}"
    );
}

#[test]
fn stderr_on_exit_0_does_not_affect_the_decision() {
    let p = Project::new();
    let hook = p.script(
        "noisy.sh",
        "echo '{\"decision\":\"block\",\"reason\":\"from stderr\"}' >&2\necho 'warning: lots of noise' >&2\necho '{\"systemMessage\":\"ok\"}'",
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert_eq!(fired.final_output(), &json!({"systemMessage": "ok"}));
}

#[test]
fn json_parse_error_becomes_a_system_message() {
    let p = Project::new();
    let hook = p.script("broken.sh", r#"printf '{"decision": "block", "reason": '"#);
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert_eq!(
        fired.final_output(),
        &json!({"systemMessage": "{\"decision\": \"block\", \"reason\":"})
    );
}

#[test]
fn wrongly_typed_output_fields_are_dropped_but_the_rest_counts() {
    let p = Project::new();
    let hook = p.script(
        "typed.sh",
        r#"echo '{"decision":"maybe","continue":"no","systemMessage":"kept"}'"#,
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert_eq!(fired.final_output(), &json!({"systemMessage": "kept"}));
}

#[test]
fn command_not_found_fails_open() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![cmd("hookhost-no-such-command-xyz --flag")])]}));
    let fired = p.fire("BeforeTool", write_file());
    assert_eq!(fired.code, 0, "{fired:#?}");
    assert!(!fired.success());
    assert_eq!(fired.final_output(), &json!({}));
    fired.single_error(&[
        "exited with code 127 (command not found)",
        "hookhost-no-such-command-xyz",
        "not found",
        "failing open",
    ]);
}

#[test]
fn script_that_is_not_executable_fails_open() {
    let p = Project::new();
    p.write(
        "hooks/plain.sh",
        "#!/bin/sh\necho '{\"decision\":\"block\"}'\n",
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd("hooks/plain.sh")])]}));
    let fired = p.fire("BeforeTool", write_file());
    assert_eq!(fired.code, 0, "{fired:#?}");
    fired.single_error(&[
        "exited with code 126 (command not executable)",
        "failing open",
    ]);
}

#[test]
fn spawn_failure_fails_open() {
    // The project dir (the hook's cwd) does not exist: the process cannot start.
    let p = Project::new();
    let settings = p.extra_settings(
        "settings.json",
        json!({"BeforeTool": [group(vec![cmd("echo '{\"decision\":\"block\"}'")])]}),
    );
    let mut command = p.command();
    let missing = p.outside().join("missing-project");
    command
        .args(["fire", "BeforeTool", "--settings"])
        .arg(&settings)
        .arg("--project-dir")
        .arg(&missing);
    let run = crate::common::run(command, br#"{"tool_name":"write_file"}"#);
    assert_eq!(run.code, 0, "{run:#?}");
    let out: serde_json::Value = serde_json::from_slice(&run.stdout).expect("JSON");
    assert_eq!(out["success"], false);
    assert_eq!(out["finalOutput"], json!({}));
    let errors = out["errors"].as_array().expect("errors");
    assert_eq!(errors.len(), 1, "{out}");
    let error = errors[0].as_str().expect("string");
    assert!(error.contains("could not start"), "{error}");
    assert!(error.contains("missing-project"), "{error}");
    assert!(error.contains("failing open"), "{error}");
}

#[test]
fn a_failure_does_not_hide_the_other_hooks_answers() {
    let p = Project::new();
    let ok = p.script("ok.sh", r#"echo '{"decision":"block","reason":"policy"}'"#);
    let bad = p.script("bad.sh", "exit 3");
    let slow = p.script("slow.sh", "sleep 20");
    p.settings(json!({"BeforeTool": [group(vec![cmd(&bad), cmd(&ok), cmd_timeout(&slow, 300)])]}));
    let fired = p.fire("BeforeTool", write_file());
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert!(!fired.success());
    assert_eq!(
        fired.final_output(),
        &json!({"decision": "block", "reason": "policy"})
    );
    let errors = fired.errors();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].contains("bad.sh") && errors[0].contains("exited with code 3"));
    assert!(errors[1].contains("slow.sh") && errors[1].contains("timed out after 300 ms"));
}

#[test]
fn failure_policy_block_turns_a_failure_into_a_block() {
    let p = Project::new();
    let bad = p.script("bad.sh", "echo 'db unreachable' >&2\nexit 1");
    p.settings(json!({"BeforeTool": [group(vec![
        json!({"type": "command", "command": bad, "failurePolicy": "block"})
    ])]}));
    let fired = p.fire("BeforeTool", write_file());
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert!(!fired.success());
    assert_eq!(fired.final_output()["decision"], "block");
    let reason = fired.final_output()["reason"].as_str().expect("reason");
    assert!(reason.contains("bad.sh"), "{reason}");
    assert!(reason.contains("exited with code 1"), "{reason}");
    assert!(reason.contains("failurePolicy"), "{reason}");
    fired.single_error(&[
        "exited with code 1",
        "db unreachable",
        "failurePolicy block",
    ]);
}

#[test]
fn failure_policy_block_on_timeout_and_crash() {
    let p = Project::new();
    let slow = p.script("slow.sh", "sleep 20");
    p.settings(json!({"BeforeTool": [group(vec![
        json!({"type": "command", "command": slow, "timeout": 300, "failurePolicy": "block"}),
        json!({"type": "command", "command": "kill -9 $$", "failurePolicy": "block"})
    ])]}));
    let fired = p.fire("BeforeTool", write_file());
    assert_eq!(fired.code, 2, "{fired:#?}");
    let reason = fired.final_output()["reason"].as_str().expect("reason");
    assert!(reason.contains("timed out after 300 ms"), "{reason}");
    assert!(reason.contains("killed by signal 9"), "{reason}");
}

#[test]
fn failure_policy_block_does_not_block_a_healthy_hook() {
    let p = Project::new();
    let ok = p.script("ok.sh", r#"echo '{"systemMessage":"fine"}'"#);
    p.settings(json!({"BeforeTool": [group(vec![
        json!({"type": "command", "command": ok, "failurePolicy": "block"})
    ])]}));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert_eq!(fired.final_output(), &json!({"systemMessage": "fine"}));
}
