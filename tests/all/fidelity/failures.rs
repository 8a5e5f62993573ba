//! Failures are visible: in hook mode with the guest's own words (and a deny with
//! `--fail-closed` or `tools.hookFailClosed`), in `hookhost test` for a hook that did not
//! load, on empty stdin, and for a plugin's debug prints before its answer.

use hookhost_tests as guests;
use serde_json::json;

use super::{claude_input, hook};
use crate::common::{Project, cache_dir, claude_deny_reason, run};

/// Seen 9, 11: failures inside Claude are visible, with the guest's own words, and
/// `--fail-closed` turns them into a deny. Issue 27 seen 1: Claude Code headless
/// shows an exit-0 `systemMessage` and never a non-blocking error's stderr, so the
/// cause travels there; LLxprt shows an exit 1 and no `systemMessage` (it sets
/// `LLXPRT_PROJECT_DIR`, Gemini CLI does not and shows a `systemMessage`).
#[test]
fn failures_are_visible_in_hook_mode_and_fail_closed_denies() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [{"hooks": [{"type": "plugin", "path": "missing.wasm"}]}]}));
    let input = claude_input(
        &p,
        "PreToolUse",
        json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}),
    );
    let out = hook(&p, &input, &[], &[]);
    assert_eq!(out.code, 0, "a systemMessage, as Claude shows one: {out:?}");
    let message = system_message(&out.stdout);
    assert!(message.contains("missing.wasm"), "{out:?}");
    // Seen (issue 29, item 6): the load error and the run error said the same
    // cause twice. Said once, with where the hook is.
    assert_eq!(
        message.matches("No such file or directory").count(),
        1,
        "{message}"
    );
    assert!(
        message.contains("hooks.BeforeTool[0].hooks[0]"),
        "{message}"
    );
    assert!(
        out.stderr.is_empty(),
        "nothing the model could read: {out:?}"
    );
    let llxprt_input = json!({
        "hook_event_name": "BeforeTool", "session_id": "s", "cwd": p.dir(),
        "tool_name": "run_shell_command", "tool_input": {"command": "ls"},
    });
    let dir = p.dir().display().to_string();
    let llxprt = hook(&p, &llxprt_input, &[], &[("LLXPRT_PROJECT_DIR", &dir)]);
    assert_eq!(llxprt.code, 1, "LLxprt warns of an exit 1: {llxprt:?}");
    assert!(llxprt.stderr.contains("missing.wasm"), "{llxprt:?}");
    let gemini = hook(&p, &llxprt_input, &[], &[]);
    assert_eq!(gemini.code, 0, "Gemini shows a systemMessage: {gemini:?}");
    assert!(
        system_message(&gemini.stdout).contains("missing.wasm"),
        "{gemini:?}"
    );
    let closed = hook(&p, &input, &["--fail-closed"], &[]);
    let reason = claude_deny_reason(&closed).unwrap_or_else(|| panic!("{closed:?}"));
    assert!(
        reason.contains("fail-closed") && reason.contains("missing.wasm"),
        "{reason}"
    );

    // Broken settings.
    let p = Project::new();
    p.settings_text("{\"tools\": {\"enableHooks\": true}, \"hooks\": {");
    let out = hook(
        &p,
        &claude_input(
            &p,
            "PreToolUse",
            json!({"tool_name": "Bash", "tool_input": {}}),
        ),
        &[],
        &[],
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        system_message(&out.stdout).contains("not valid JSON"),
        "{out:?}"
    );

    // A guest's panic message and a Python exception's last line.
    let p = Project::new();
    p.settings(json!({"BeforeTool": [{"hooks": [
        {"type": "plugin", "path": guests::ADVERSARY, "args": ["trap"]},
        {"type": "command", "command": "python3 -c 'raise ValueError(\"boom\")'"}
    ]}]}));
    let cache = cache_dir();
    let fired = p.fire_with(
        "BeforeTool",
        json!({"tool_name": "write_file"}),
        &[],
        &[("HOOKHOST_CACHE_DIR", &cache)],
    );
    let errors = fired.errors().join("\n");
    assert!(errors.contains("deliberate trap"), "{errors}");
    assert!(errors.contains("ValueError: boom"), "{errors}");
}

/// The `systemMessage` of a Claude answer on stdout ("" when there is none).
fn system_message(stdout: &[u8]) -> String {
    serde_json::from_slice::<serde_json::Value>(stdout.trim_ascii())
        .ok()
        .and_then(|v| v["systemMessage"].as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// Seen 13: `hookhost test` fails a case whose policy never ran.
#[test]
fn hookhost_test_fails_a_case_whose_hook_did_not_load() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [{"hooks": [{"type": "plugin", "path": "policy.wasm"}]}]}));
    p.write("cases/allow.json", json!({"event": "BeforeTool", "input": {"tool_name": "read_file"}, "expect": {"decision": "allow"}}).to_string());
    let mut command = p.command();
    command
        .arg("test")
        .arg(p.path("cases"))
        .arg("--project-dir")
        .arg(p.dir());
    let out = run(command, b"");
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stdout_text()
            .contains("FAIL allow.json: a hook failed or did not load"),
        "{}",
        out.stdout_text()
    );
}

/// Seen 15: empty stdin in hook mode says what is wrong.
#[test]
fn empty_stdin_in_hook_mode_says_what_is_expected() {
    let p = Project::new();
    let mut command = p.command();
    command.arg("hook");
    let out = run(command, b"");
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("stdin is empty"), "{}", out.stderr);
}

/// Seen 12: a plugin's `print()` debugging before its answer neither replaces the
/// policy's reason on a block nor passes silently.
#[test]
fn a_plugins_debug_prints_keep_its_reason_and_are_flagged() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [{"hooks": [
        {"type": "plugin", "path": guests::ADVERSARY, "args": ["debugprint"]}]}]}));
    let cache = cache_dir();
    let fired = p.fire_with(
        "BeforeTool",
        json!({"tool_name": "write_file"}),
        &[],
        &[("HOOKHOST_CACHE_DIR", &cache)],
    );
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(
        fired.final_output()["reason"],
        "adversary: the policy's own words"
    );
    assert!(
        fired.out["warnings"]
            .to_string()
            .contains("text before its JSON answer"),
        "{}",
        fired.out
    );
}

/// `tools.hookFailClosed` in settings does what `--fail-closed` does.
#[test]
fn the_fail_closed_setting_denies_on_failure() {
    let p = Project::new();
    p.settings_raw(
        &json!({"tools": {"enableHooks": true, "hookFailClosed": true},
        "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "exit 3"}]}]}}),
    );
    let input = claude_input(
        &p,
        "PreToolUse",
        json!({"tool_name": "Bash", "tool_input": {}}),
    );
    let out = hook(&p, &input, &[], &[]);
    let reason = claude_deny_reason(&out).unwrap_or_else(|| panic!("{out:?}"));
    assert!(reason.contains("exited with code 3"), "{reason}");
    assert!(!reason.contains("failing open"), "{reason}");
}
