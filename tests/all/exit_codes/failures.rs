//! Failures fail open with an error naming the cause: other exit codes, timeouts,
//! signals, a missing or non-executable command, a process that cannot start — and
//! they hide no other hook's answer. `failurePolicy: "block"` turns a failure into a
//! block and leaves a healthy hook alone.

use serde_json::json;

use super::write_file;
use crate::common::{Project, cmd, cmd_timeout, group};

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
fn command_not_found_fails_open() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![cmd("hookhost-no-such-command-xyz --flag")])]}));
    let fired = p.fire("BeforeTool", write_file());
    assert_eq!(fired.code, 0, "{fired:#?}");
    assert!(!fired.success());
    assert_eq!(fired.final_output(), &json!({}));
    fired.run_error_after_missing_program(&[
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
    fired.run_error_after_missing_program(&[
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
