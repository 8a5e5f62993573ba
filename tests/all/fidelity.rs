//! Issue 11: Claude Code and Gemini CLI hooks run unchanged and are never silently
//! unenforced. The corpus under `tests/corpus/claude` is written the way people
//! publish hooks (bash with grep, Python exiting 2, Node, a Stop hook that loops, a
//! SessionStart hook writing `CLAUDE_ENV_FILE`, a Gemini `decision: deny`); each runs
//! directly, through `fire` and through `hook`, and must decide the same.

use std::path::PathBuf;
use std::process::Command;

use hookhost_tests as guests;
use serde_json::{Value, json};

use crate::common::{Project, Run, claude_deny_reason, run};

fn corpus(name: &str) -> PathBuf {
    crate::common::repo().join("tests/corpus/claude").join(name)
}

/// Copies a corpus script into the project's `.claude/hooks/` and returns the
/// command Claude users write for it.
fn install(p: &Project, name: &str) -> String {
    let text = std::fs::read_to_string(corpus(name)).unwrap();
    p.executable(format!(".claude/hooks/{name}"), &text);
    format!("\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/{name}")
}

fn claude_settings(p: &Project, hooks: Value) -> PathBuf {
    p.write(
        ".claude/settings.json",
        serde_json::to_vec_pretty(&json!({"hooks": hooks})).unwrap(),
    )
}

fn claude_group(matcher: &str, command: &str) -> Value {
    json!([{"matcher": matcher, "hooks": [{"type": "command", "command": command, "timeout": 30}]}])
}

/// Claude Code's stdin for `event`.
fn claude_input(p: &Project, event: &str, fields: Value) -> Value {
    let mut input = json!({"session_id": "s1", "transcript_path": "/tmp/t.jsonl",
        "cwd": p.dir(), "permission_mode": "default", "hook_event_name": event});
    for (k, v) in fields.as_object().unwrap() {
        input[k] = v.clone();
    }
    input
}

/// `hookhost hook --claude-settings FLAGS…` as Claude Code runs it.
fn hook(p: &Project, input: &Value, flags: &[&str], env: &[(&str, &str)]) -> Run {
    let mut command = p.command();
    command
        .arg("hook")
        .arg("--claude-settings")
        .args(flags)
        .env("CLAUDE_PROJECT_DIR", p.dir());
    for (k, v) in env {
        command.env(k, v);
    }
    run(command, input.to_string().as_bytes())
}

/// The script run by hand, as Claude Code would run it.
fn direct(p: &Project, name: &str, input: &Value) -> Run {
    let mut command = Command::new(p.path(&format!(".claude/hooks/{name}")));
    command
        .current_dir(p.dir())
        .env("CLAUDE_PROJECT_DIR", p.dir());
    run(command, input.to_string().as_bytes())
}

/// What a Claude hook's own answer means for PreToolUse: the deny reason, if any.
fn direct_deny_reason(out: &Run) -> Option<String> {
    match out.code {
        2 => Some(out.stderr.trim().to_owned()),
        0 => claude_deny_reason(out),
        other => panic!("hook failed with {other}: {out:?}"),
    }
}

fn answer(out: &Run) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:?}"))
}

#[test]
fn corpus_guards_decide_the_same_directly_through_fire_and_through_hook() {
    if Command::new("node").arg("--version").output().is_err() {
        eprintln!("skipping: node is not installed");
        return;
    }
    let cases: [(&str, &str, Value, Option<&str>); 6] = [
        (
            "block-rm-rf.sh",
            "Bash",
            json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}),
            Some("Blocked: rm -rf is not allowed here"),
        ),
        (
            "block-rm-rf.sh",
            "Bash",
            json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}),
            None,
        ),
        (
            "protect-env.py",
            "Write|Edit|Read",
            json!({"tool_name": "Read", "tool_input": {"file_path": "/p/.env"}}),
            Some("Refusing to touch secrets file /p/.env"),
        ),
        (
            "protect-env.py",
            "Write|Edit|Read",
            json!({"tool_name": "Edit", "tool_input": {"file_path": "src/a.rs"}}),
            None,
        ),
        (
            "bash-guard.js",
            "Bash",
            json!({"tool_name": "Bash", "tool_input": {"command": "git push origin --force"}}),
            Some("force-push is forbidden (rule X)"),
        ),
        (
            "bash-guard.js",
            "Bash",
            json!({"tool_name": "Bash", "tool_input": {"command": "git push"}}),
            None,
        ),
    ];
    for (script, matcher, fields, want) in cases {
        let p = Project::new();
        let command = install(&p, script);
        claude_settings(&p, json!({"PreToolUse": claude_group(matcher, &command)}));
        let input = claude_input(&p, "PreToolUse", fields.clone());
        let by_hand = direct(&p, script, &input);
        assert_eq!(
            direct_deny_reason(&by_hand).as_deref(),
            want,
            "{script} by hand"
        );
        let fired = p.fire_flags("PreToolUse", fields.clone(), &["--claude-settings"]);
        assert_eq!(
            fired.code,
            if want.is_some() { 2 } else { 0 },
            "{script}: {fired:#?}"
        );
        assert_eq!(
            fired.final_output()["reason"].as_str(),
            want,
            "{script} through fire: {fired:#?}"
        );
        let hooked = hook(&p, &input, &[], &[]);
        assert_eq!(hooked.code, 0, "{script}: {hooked:?}");
        assert_eq!(
            claude_deny_reason(&hooked).as_deref(),
            want,
            "{script} through hook"
        );
        assert_eq!(
            hooked.stderr, "",
            "{script}: nothing on stderr in hook mode"
        );
        if script == "bash-guard.js" && want.is_some() {
            // Seen 2: the deny's systemMessage is not lost on a block.
            assert_eq!(answer(&hooked)["systemMessage"], "rule X matched");
        }
    }
}

/// Seen 2: a Stop hook's block keeps its reason and message in hook mode.
#[test]
fn a_stop_hook_that_loops_keeps_reason_and_message_and_stops_looping() {
    let p = Project::new();
    let command = install(&p, "stop-loop.sh");
    claude_settings(
        &p,
        json!({"Stop": [{"hooks": [{"type": "command", "command": command}]}]}),
    );
    let first = claude_input(&p, "Stop", json!({"stop_hook_active": false}));
    let by_hand = direct(&p, "stop-loop.sh", &first);
    let hooked = hook(&p, &first, &[], &[]);
    assert_eq!(hooked.code, 0, "{hooked:?}");
    assert_eq!(hooked.stderr, "");
    assert_eq!(answer(&hooked), answer(&by_hand));
    assert_eq!(
        answer(&hooked),
        json!({"decision": "block", "reason": "keep going: tests still fail", "systemMessage": "iteration 2"})
    );
    let fired = p.fire_flags(
        "Stop",
        json!({"stop_hook_active": false}),
        &["--claude-settings"],
    );
    assert_eq!(fired.code, 2);
    assert_eq!(
        fired.final_output()["reason"],
        "keep going: tests still fail"
    );
    let again = claude_input(&p, "Stop", json!({"stop_hook_active": true}));
    let hooked = hook(&p, &again, &[], &[]);
    assert_eq!((hooked.code, answer(&hooked)), (0, json!({})), "{hooked:?}");
}

/// Seen 1: Claude-only events are accepted in Claude files, fired, and answered in
/// Claude's form; an event hookhost does not know runs generically with a warning.
#[test]
fn claude_only_and_unknown_events_run() {
    let p = Project::new();
    claude_settings(
        &p,
        json!({
            "SubagentStop": claude_group("Explore", "echo '{\"decision\":\"block\",\"reason\":\"explore more\"}'"),
            "SubagentStart": claude_group("", "echo started > subagent.marker"),
            "PermissionRequest": claude_group("Bash", "echo 'no shell today' >&2; exit 2"),
            "PostToolUseFailure": claude_group("Bash", "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUseFailure\",\"additionalContext\":\"try again\"}}'"),
            "Setup": claude_group("init", "echo setup > setup.marker"),
            "TeammateIdle2": claude_group("", "echo future > future.marker"),
        }),
    );
    let mut check = p.command();
    check
        .arg("check")
        .arg("--claude-settings")
        .arg("--project-dir")
        .arg(p.dir());
    let check = run(check, b"");
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

    let explore = claude_input(
        &p,
        "SubagentStop",
        json!({"agent_type": "Explore", "stop_hook_active": false}),
    );
    let out = hook(&p, &explore, &[], &[]);
    assert_eq!(
        (out.code, answer(&out)),
        (0, json!({"decision": "block", "reason": "explore more"})),
        "{out:?}"
    );
    let plan = claude_input(&p, "SubagentStop", json!({"agent_type": "Plan"}));
    assert_eq!(answer(&hook(&p, &plan, &[], &[])), json!({}));

    let permission = claude_input(
        &p,
        "PermissionRequest",
        json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}),
    );
    let out = hook(&p, &permission, &[], &[]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        answer(&out)["hookSpecificOutput"],
        json!({"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": "no shell today"}})
    );

    let failure = claude_input(
        &p,
        "PostToolUseFailure",
        json!({"tool_name": "Bash", "tool_input": {}, "error": "exit 1"}),
    );
    let out = hook(&p, &failure, &[], &[]);
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

    let future = claude_input(&p, "TeammateIdle2", json!({}));
    let out = hook(&p, &future, &[], &[]);
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

/// Seen 3 and 4: plain-text stdout of SessionStart is context; a `set -u` script
/// under dash appending to `CLAUDE_ENV_FILE` works in `fire`, which reports it.
#[test]
fn session_start_context_and_claude_env_file() {
    let p = Project::new();
    let command = install(&p, "session-env.sh");
    claude_settings(
        &p,
        json!({"SessionStart": claude_group("startup", &command)}),
    );
    let fired = p.fire_flags(
        "SessionStart",
        json!({"source": "startup"}),
        &["--claude-settings"],
    );
    assert_eq!(fired.code, 0, "{fired:#?}");
    fired.assert_clean();
    assert_eq!(
        fired.final_output()["hookSpecificOutput"]["additionalContext"],
        "Project rules: run the tests before every commit."
    );
    assert!(
        fired.final_output().get("systemMessage").is_none(),
        "{fired:#?}"
    );
    assert!(
        fired.stderr.contains("export PROJECT_MODE=strict"),
        "{}",
        fired.stderr
    );

    let env_file = p.outside().join("claude-env.sh");
    std::fs::write(&env_file, "").unwrap();
    let input = claude_input(&p, "SessionStart", json!({"source": "startup"}));
    let out = hook(
        &p,
        &input,
        &[],
        &[("CLAUDE_ENV_FILE", env_file.to_str().unwrap())],
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        answer(&out)["hookSpecificOutput"]["additionalContext"],
        "Project rules: run the tests before every commit."
    );
    assert_eq!(
        std::fs::read_to_string(&env_file).unwrap(),
        "export PROJECT_MODE=strict\n"
    );
}

/// Seen 5: a Gemini settings file without `hooksConfig.enabled` runs its hooks.
#[test]
fn gemini_hooks_run_without_hooks_config_enabled() {
    let p = Project::new();
    let text = std::fs::read_to_string(corpus("gemini-deny-force-push.sh")).unwrap();
    p.executable(".gemini/hooks/deny.sh", &text);
    p.write(
        ".gemini/settings.json",
        json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command",
            "hooks": [{"type": "command", "command": "\"$GEMINI_PROJECT_DIR\"/.gemini/hooks/deny.sh"}]}]}})
        .to_string(),
    );
    let input =
        json!({"tool_name": "run_shell_command", "tool_input": {"command": "git push --force"}});
    let fired = p.fire_flags("BeforeTool", input.clone(), &["--gemini-settings"]);
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(fired.final_output()["reason"], "no force pushes");
    let mut command = p.command();
    command
        .arg("hook")
        .arg("--gemini-settings")
        .env("GEMINI_PROJECT_DIR", p.dir());
    let mut stdin = input;
    stdin["hook_event_name"] = json!("BeforeTool");
    let out = run(command, stdin.to_string().as_bytes());
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(answer(&out)["decision"], "deny");
}

/// Seen 6 and 14: declared hooks that will not run are said, and `check` fails
/// with the fix.
#[test]
fn settings_mistakes_are_never_silent() {
    // A Claude file passed with --settings is read as Claude's.
    let p = Project::new();
    let claude = claude_settings(
        &p,
        json!({"PreToolUse": claude_group("Bash", "echo nope >&2; exit 2")}),
    );
    let fired = p.fire_settings(
        "PreToolUse",
        json!({"tool_name": "Bash", "tool_input": {}}),
        &[&claude],
    );
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert!(
        fired.stderr.contains("read as Claude Code settings"),
        "{}",
        fired.stderr
    );

    // --settings X --claude-settings reads both.
    let p = Project::new();
    let mine = p.extra_settings(
        "mine.json",
        json!({"BeforeTool": [{"hooks": [{"type": "command", "command": "touch mine.marker"}]}]}),
    );
    claude_settings(
        &p,
        json!({"PreToolUse": claude_group("", "touch claude.marker")}),
    );
    let mut command = p.command();
    command
        .arg("fire")
        .arg("BeforeTool")
        .arg("--settings")
        .arg(&mine)
        .arg("--claude-settings")
        .arg("--project-dir")
        .arg(p.dir());
    let out = run(command, br#"{"tool_name": "write_file", "tool_input": {}}"#);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(p.exists("mine.marker") && p.exists("claude.marker"));

    // Hooks copied into .llxprt/settings.json without tools.enableHooks.
    let p = Project::new();
    p.settings_raw(
        &json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "exit 2"}]}]}}),
    );
    let fired = p.fire("BeforeTool", json!({"tool_name": "write_file"}));
    assert_eq!(fired.code, 0);
    assert!(
        fired.stderr.contains("NONE of them runs"),
        "{}",
        fired.stderr
    );
    assert!(
        fired.stderr.contains("\"enableHooks\": true"),
        "{}",
        fired.stderr
    );
    let check = p.check(&[]);
    assert_eq!(check.code, 1, "{check:#?}");

    // A Claude-style timeout in seconds, copied into a millisecond file.
    let p = Project::new();
    p.settings(
        json!({"BeforeTool": [{"hooks": [{"type": "command", "command": "true", "timeout": 10}]}]}),
    );
    let check = p.check(&[]);
    assert_eq!(check.code, 1, "{check:#?}");
    assert!(
        check.stderr.contains("did you mean 10000?"),
        "{}",
        check.stderr
    );

    // A misspelt switch.
    let p = Project::new();
    p.settings_raw(&json!({"tools": {"enabledHooks": true}, "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "true"}]}]}}));
    let check = p.check(&[]);
    assert_eq!(check.code, 1);
    assert!(
        check
            .stderr
            .contains("tools.enabledHooks: unknown setting; did you mean \"enableHooks\"?"),
        "{}",
        check.stderr
    );

    // A command whose program does not exist.
    let p = Project::new();
    p.settings(json!({"BeforeTool": [{"hooks": [{"type": "command", "command": "uv run hooks/guard.py"}]}]}));
    let check = p.check(&[]);
    if !check.stderr.contains("program \"uv\" not found") {
        assert!(which("uv"), "{}", check.stderr);
    } else {
        assert_eq!(check.code, 1);
    }
}

fn which(program: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {program}"))
        .output()
        .is_ok_and(|o| o.status.success())
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

/// Seen 9, 11: failures inside Claude are visible, with the guest's own words, and
/// `--fail-closed` turns them into a deny.
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
    assert_eq!(
        out.code, 1,
        "a non-blocking error, as Claude shows one: {out:?}"
    );
    assert!(out.stderr.contains("missing.wasm"), "{}", out.stderr);
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
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("not valid JSON"), "{}", out.stderr);

    // A guest's panic message and a Python exception's last line.
    let p = Project::new();
    p.settings(json!({"BeforeTool": [{"hooks": [
        {"type": "plugin", "path": guests::ADVERSARY, "args": ["trap"]},
        {"type": "command", "command": "python3 -c 'raise ValueError(\"boom\")'"}
    ]}]}));
    let cache = format!("{}/plugin-cache", env!("CARGO_TARGET_TMPDIR"));
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
    let cache = format!("{}/plugin-cache", env!("CARGO_TARGET_TMPDIR"));
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

/// Seen 15: `--claude-settings FILE` explains itself.
#[test]
fn claude_settings_with_a_value_gets_a_hint() {
    let p = Project::new();
    let mut command = p.command();
    command.arg("check").arg("--claude-settings").arg("x.json");
    let out = run(command, b"");
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("use --settings x.json"),
        "{}",
        out.stderr
    );
}

/// Seen 14: `check --claude-settings` marks `hookhost hook` itself.
#[test]
fn check_marks_hookhost_itself() {
    let p = Project::new();
    claude_settings(
        &p,
        json!({"PreToolUse": claude_group("*", "hookhost hook --fail-closed || exit 2")}),
    );
    let mut command = p.command();
    command
        .arg("check")
        .arg("--claude-settings")
        .arg("--project-dir")
        .arg(p.dir());
    let out = run(command, b"");
    assert!(
        out.stdout_text().contains("this is hookhost itself"),
        "{}",
        out.stdout_text()
    );
}

/// A Claude Code plugin directory loads with `--claude-plugin DIR`:
/// `hooks/hooks.json` in Claude's format, `${CLAUDE_PLUGIN_ROOT}` its directory.
#[test]
fn a_claude_code_plugin_directory_loads() {
    let p = Project::new();
    let dir = p.outside().join("my plugin");
    std::fs::create_dir_all(dir.join(".claude-plugin")).unwrap();
    std::fs::write(
        dir.join(".claude-plugin/plugin.json"),
        r#"{"name": "rm-guard", "version": "1.0.0"}"#,
    )
    .unwrap();
    p.executable(
        dir.join("scripts/block-rm-rf.sh"),
        &std::fs::read_to_string(corpus("block-rm-rf.sh")).unwrap(),
    );
    std::fs::create_dir_all(dir.join("hooks")).unwrap();
    std::fs::write(
        dir.join("hooks/hooks.json"),
        json!({"description": "no rm -rf", "hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/scripts/block-rm-rf.sh\"", "timeout": 10}]}]}})
        .to_string(),
    )
    .unwrap();
    let plugin = dir.to_str().unwrap();
    let fields = json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf build"}});
    let fired = p.fire_flags("PreToolUse", fields.clone(), &["--claude-plugin", plugin]);
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(
        fired.final_output()["reason"],
        "Blocked: rm -rf is not allowed here"
    );
    let out = hook(
        &p,
        &claude_input(&p, "PreToolUse", fields),
        &["--claude-plugin", plugin],
        &[],
    );
    assert_eq!(
        claude_deny_reason(&out).as_deref(),
        Some("Blocked: rm -rf is not allowed here"),
        "{out:?}"
    );
    let mut check = p.command();
    check
        .arg("check")
        .arg("--claude-plugin")
        .arg(plugin)
        .arg("--project-dir")
        .arg(p.dir());
    let check = run(check, b"");
    assert_eq!(check.code, 0, "{check:#?}");
    assert!(
        check.stdout_text().contains("claude plugin rm-guard"),
        "{}",
        check.stdout_text()
    );
}

/// Seen 14: the Rust scaffold's settings follow `CARGO_TARGET_DIR`, where cargo
/// puts the plugin.
#[test]
fn the_rust_scaffold_follows_cargo_target_dir() {
    let p = Project::new();
    let target = p.outside().join("shared-target");
    let mut command = p.command();
    command
        .arg("new")
        .arg("--lang")
        .arg("rust")
        .arg(p.path("policy"))
        .env("CARGO_TARGET_DIR", &target);
    let out = run(command, b"");
    assert_eq!(out.code, 0, "{out:?}");
    let settings = p.read_json("policy/settings.json");
    assert_eq!(
        settings["hooks"]["BeforeTool"][0]["hooks"][0]["path"],
        format!("{}/wasm32-wasip2/release/policy.wasm", target.display())
    );
}

/// Claude Code's installed plugins load with `--claude-settings` when a Claude
/// settings file enables them.
#[test]
fn installed_and_enabled_claude_plugins_load() {
    let p = Project::new();
    let dir = p.home().join(".claude/plugins/cache/market/rm-guard/1.0.0");
    p.executable(
        dir.join("scripts/block-rm-rf.sh"),
        &std::fs::read_to_string(corpus("block-rm-rf.sh")).unwrap(),
    );
    p.write(
        dir.join(".claude-plugin/plugin.json"),
        r#"{"name": "rm-guard"}"#,
    );
    p.write(
        dir.join("hooks/hooks.json"),
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/scripts/block-rm-rf.sh"}]}]}})
        .to_string(),
    );
    p.write(
        p.home().join(".claude/plugins/installed_plugins.json"),
        json!({"version": 2, "plugins": {"rm-guard@market": [{"scope": "user", "installPath": dir, "version": "1.0.0"}]}})
            .to_string(),
    );
    let fields = json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}});
    for (enabled, code) in [(false, 0), (true, 2)] {
        p.write(
            p.home().join(".claude/settings.json"),
            json!({"enabledPlugins": {"rm-guard@market": enabled}}).to_string(),
        );
        let fired = p.fire_flags("PreToolUse", fields.clone(), &["--claude-settings"]);
        assert_eq!(fired.code, code, "enabled {enabled}: {fired:#?}");
    }
}
