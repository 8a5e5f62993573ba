//! Claude Code compatibility: hooks written for Claude Code run unchanged, and
//! `hookhost hook` answers inside Claude Code, Gemini CLI and LLxprt Code as one hook.
//!
//! The hook scripts are written the way Claude users write them: POSIX sh and
//! python3, no jq.

use serde_json::{Value, json};

use crate::common::{BIN, Project, Run, repo, run};

/// A python3 Claude hook that records its stdin to `seen.json` and prints `answer`.
fn recording_hook(p: &Project, name: &str, answer: Value) -> String {
    p.python(
        name,
        &format!(
            "import json, sys\nd = json.load(sys.stdin)\nopen('seen.json', 'w').write(json.dumps(d))\nprint({:?})\n",
            answer.to_string()
        ),
    )
}

fn claude_settings(p: &Project, file: &str, hooks: Value) {
    p.write(
        format!(".claude/{file}"),
        serde_json::to_vec_pretty(&json!({"hooks": hooks})).unwrap(),
    );
}

fn fire_claude(p: &Project, event: &str, input: Value) -> crate::common::Fired {
    p.fire_flags(event, input, &["--claude-settings"])
}

/// A row of the table: Claude event, its LLxprt event, Claude-style hook, input,
/// expected exit, expected finalOutput fields.
struct Case {
    claude_event: &'static str,
    event: &'static str,
    matcher: &'static str,
    script: &'static str,
    input: Value,
    exit: i32,
    expect: Value,
}

/// PreToolUse hooks: a block by exit 2, a deny and an allow with updated input.
fn pre_tool_use_cases() -> [Case; 3] {
    [
        Case {
            claude_event: "PreToolUse",
            event: "BeforeTool",
            matcher: "Write|Edit",
            script: r#"#!/bin/sh
input=$(cat)
case "$input" in
  *'"tool_name": "Write"'*|*'"tool_name":"Write"'*) ;;
  *) echo "expected Claude's tool name, got: $input" >&2; exit 1 ;;
esac
echo "Blocked: writes are frozen" >&2
exit 2"#,
            input: json!({"tool_name": "write_file", "tool_input": {"file_path": "a.txt"}}),
            exit: 2,
            expect: json!({"decision": "block", "reason": "Blocked: writes are frozen"}),
        },
        Case {
            claude_event: "PreToolUse",
            event: "BeforeTool",
            matcher: "Bash",
            script: r#"#!/usr/bin/env python3
import json, sys
d = json.load(sys.stdin)
cmd = d["tool_input"].get("command", "")
if "rm -rf" in cmd:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "no rm -rf"}}))
else:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "allow", "updatedInput": {"command": cmd + " --dry-run"}}}))
"#,
            input: json!({"tool_name": "run_shell_command", "tool_input": {"command": "rm -rf /"}}),
            exit: 2,
            expect: json!({"decision": "deny", "reason": "no rm -rf"}),
        },
        Case {
            claude_event: "PreToolUse",
            event: "BeforeTool",
            matcher: "Bash",
            script: r#"#!/usr/bin/env python3
import json, sys
d = json.load(sys.stdin)
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
    "permissionDecision": "allow", "updatedInput": {"command": d["tool_input"]["command"] + " --dry-run"}}}))
"#,
            input: json!({"tool_name": "run_shell_command", "tool_input": {"command": "make deploy"}}),
            exit: 0,
            expect: json!({"decision": "allow", "hookSpecificOutput": {"tool_input": {"command": "make deploy --dry-run"}}}),
        },
    ]
}

/// PostToolUse, UserPromptSubmit and Stop hooks.
fn other_event_cases() -> [Case; 3] {
    [
        Case {
            claude_event: "PostToolUse",
            event: "AfterTool",
            matcher: "Read",
            script: r#"#!/bin/sh
cat > /dev/null
printf '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"file was read"}}\n'"#,
            input: json!({"tool_name": "read_file", "tool_input": {"file_path": "a"}, "tool_response": {"content": "x"}}),
            exit: 0,
            expect: json!({"hookSpecificOutput": {"additionalContext": "file was read"}}),
        },
        Case {
            claude_event: "UserPromptSubmit",
            event: "BeforeAgent",
            matcher: "",
            script: r#"#!/usr/bin/env python3
import json, sys
d = json.load(sys.stdin)
if "password" in d["prompt"]:
    print(json.dumps({"decision": "block", "reason": "prompt contains a password"}))
"#,
            input: json!({"prompt": "my password is hunter2"}),
            exit: 2,
            expect: json!({"decision": "block", "reason": "prompt contains a password"}),
        },
        Case {
            claude_event: "Stop",
            event: "AfterAgent",
            matcher: "",
            script: r#"#!/bin/sh
cat > /dev/null
echo '{"continue": false, "stopReason": "tests are failing"}'"#,
            input: json!({"prompt": "p", "prompt_response": "r", "stop_hook_active": false}),
            exit: 0,
            expect: json!({"continue": false, "stopReason": "tests are failing"}),
        },
    ]
}

/// Table: (Claude event, its LLxprt event, Claude-style hook, input, expected exit,
/// expected finalOutput fields).
#[test]
fn claude_hooks_run_unchanged_under_their_own_event_names() {
    for case in pre_tool_use_cases().into_iter().chain(other_event_cases()) {
        let p = Project::new();
        p.executable(".claude/hooks/hook", case.script);
        claude_settings(
            &p,
            "settings.json",
            json!({case.claude_event: [{"matcher": case.matcher,
            "hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/hook", "timeout": 10}]}]}),
        );
        let fired = fire_claude(&p, case.event, case.input.clone());
        assert_eq!(
            fired.code, case.exit,
            "{}: {}\n{}",
            case.claude_event, fired.out, fired.stderr
        );
        for (key, value) in case.expect.as_object().unwrap() {
            if key == "hookSpecificOutput" {
                for (k, v) in value.as_object().unwrap() {
                    assert_eq!(fired.specific(k), v, "{}: {}", case.claude_event, fired.out);
                }
            } else {
                assert_eq!(
                    &fired.final_output()[key],
                    value,
                    "{}: {}",
                    case.claude_event,
                    fired.out
                );
            }
        }
        // seeds/001 §7.2: a block by exit 2 is `success: false`, any other answer true.
        let exited_2 = fired.out["hooks"][0]["exitCode"] == 2;
        assert_eq!(
            fired.out["success"], !exited_2,
            "{}: {}",
            case.claude_event, fired.out
        );
    }
}

#[test]
fn claude_hooks_receive_claudes_stdin_shape() {
    let p = Project::new();
    let hook = recording_hook(&p, "record.py", json!({}));
    claude_settings(
        &p,
        "settings.json",
        json!({"PreToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": hook}]}]}),
    );
    let fired = fire_claude(
        &p,
        "BeforeTool",
        json!({"tool_name": "replace", "tool_input": {"file_path": "x", "old_string": "a", "new_string": "b"}}),
    );
    assert_eq!(fired.code, 0, "{}", fired.stderr);
    let seen = p.read_json("seen.json");
    assert_eq!(seen["hook_event_name"], "PreToolUse");
    assert_eq!(seen["tool_name"], "Edit");
    assert_eq!(seen["permission_mode"], "default");
    assert_eq!(seen["tool_input"]["old_string"], "a");
    assert_eq!(seen["cwd"], p.dir().to_string_lossy().as_ref());
}

#[test]
fn claude_matchers_use_claude_tool_names() {
    let p = Project::new();
    claude_settings(
        &p,
        "settings.json",
        json!({"PreToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "echo matched"}]}]}),
    );
    let write = fire_claude(
        &p,
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {}}),
    );
    assert_eq!(write.final_output()["systemMessage"], "matched");
    let read = fire_claude(
        &p,
        "BeforeTool",
        json!({"tool_name": "read_file", "tool_input": {}}),
    );
    assert_eq!(read.final_output(), &json!({}));
}

#[test]
fn claude_settings_are_read_only_when_asked_and_local_wins() {
    let p = Project::new();
    claude_settings(
        &p,
        "settings.json",
        json!({"PreToolUse": [{"hooks": [{"type": "command", "command": "echo shared"}]}]}),
    );
    claude_settings(
        &p,
        "settings.local.json",
        json!({"PreToolUse": [{"hooks": [{"type": "command", "command": "echo local"}]}]}),
    );
    let without = p.fire(
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {}}),
    );
    assert_eq!(
        without.final_output(),
        &json!({}),
        "Claude settings must not be read by default"
    );
    let with = fire_claude(
        &p,
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {}}),
    );
    assert_eq!(with.final_output()["systemMessage"], "local\nshared");
}

#[test]
fn claude_timeouts_are_seconds() {
    let p = Project::new();
    claude_settings(
        &p,
        "settings.json",
        json!({"PreToolUse": [{"hooks": [{"type": "command", "command": "sleep 3; echo late", "timeout": 1}]}]}),
    );
    let fired = fire_claude(
        &p,
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {}}),
    );
    assert!(
        fired.out["errors"]
            .to_string()
            .contains("timed out after 1000 ms"),
        "{}",
        fired.out
    );
}

#[test]
fn claude_event_names_are_accepted_on_the_cli_and_in_hookhost_settings() {
    let p = Project::new();
    let hook = recording_hook(&p, "record.py", json!({"decision": "block", "reason": "r"}));
    p.settings(json!({"PreToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": hook}]}]}));
    let mut command = p.command();
    command
        .arg("fire")
        .arg("PreToolUse")
        .arg("--project-dir")
        .arg(p.dir());
    let run = run(
        command,
        br#"{"tool_name": "Write", "tool_input": {"file_path": "a"}}"#,
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    let seen = p.read_json("seen.json");
    assert_eq!(seen["tool_name"], "Write");
    assert_eq!(seen["hook_event_name"], "PreToolUse");
}

fn hook_cmd(p: &Project, stdin: Value, env: &[(&str, &str)]) -> Run {
    let mut command = p.command();
    command.arg("hook");
    command.env("CLAUDE_PROJECT_DIR", p.dir());
    for (k, v) in env {
        command.env(k, v);
    }
    run(command, &serde_json::to_vec(&stdin).unwrap())
}

/// `hookhost hook` driven the way Claude Code drives a hook: Claude's stdin, and
/// Claude's JSON on exit 0 — a block is `permissionDecision: "deny"` with its
/// reason, nothing on stderr.
#[test]
fn hookhost_hook_answers_claude_code_like_a_claude_hook() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [{"matcher": "write_file", "hooks": [
        {"type": "command", "command": r#"python3 -c 'import json,sys; d=json.load(sys.stdin); p=d["tool_input"]["file_path"]; print(json.dumps({"decision":"block","reason":"no "+p}) if p.startswith("/etc") else json.dumps({"hookSpecificOutput":{"tool_input":{"file_path":p+".bak"}}}))'"#}
    ]}]}));
    let claude_stdin = |path: &str| {
        json!({"session_id": "abc", "transcript_path": "/tmp/t.jsonl", "cwd": p.dir(),
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Write",
        "tool_input": {"file_path": path, "content": "x"}})
    };
    let blocked = hook_cmd(&p, claude_stdin("/etc/passwd"), &[]);
    assert_eq!(
        crate::common::claude_deny_reason(&blocked).as_deref(),
        Some("no /etc/passwd"),
        "{blocked:?}"
    );
    assert_eq!(blocked.stderr, "");
    let allowed = hook_cmd(&p, claude_stdin("a.txt"), &[]);
    assert_eq!(allowed.code, 0, "{}", allowed.stderr);
    let answer: Value = serde_json::from_slice(&allowed.stdout).unwrap();
    assert_eq!(answer["hookSpecificOutput"]["hookEventName"], "PreToolUse");
    assert_eq!(
        answer["hookSpecificOutput"]["updatedInput"],
        json!({"file_path": "a.txt.bak"})
    );
}

/// `hookhost hook` driven the way Gemini CLI / LLxprt drive a hook.
#[test]
fn hookhost_hook_answers_gemini_cli_like_a_gemini_hook() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [{"hooks": [{"type": "command", "command": "echo '{\"decision\":\"deny\",\"reason\":\"frozen\"}'"}]}],
        "AfterTool": [{"hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\":{\"additionalContext\":\"ctx\"}}'"}]}]}));
    let blocked = hook_cmd(
        &p,
        json!({"hook_event_name": "BeforeTool", "session_id": "s", "cwd": p.dir(),
        "timestamp": "2025-01-01T00:00:00Z", "transcript_path": "", "tool_name": "write_file", "tool_input": {}}),
        &[],
    );
    assert_eq!(blocked.code, 2);
    let out: Value = serde_json::from_slice(&blocked.stdout).unwrap();
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "frozen");
    let after = hook_cmd(
        &p,
        json!({"hook_event_name": "AfterTool", "tool_name": "read_file", "tool_input": {}, "tool_response": {}}),
        &[],
    );
    assert_eq!(after.code, 0);
    let out: Value = serde_json::from_slice(&after.stdout).unwrap();
    assert_eq!(out["hookSpecificOutput"]["additionalContext"], "ctx");
}

#[test]
fn hookhost_hook_does_not_recurse() {
    // HOOKHOST_ACTIVE names the hookhost that started this process (here: the test
    // process stands in for it); only then is `hookhost hook` a no-op.
    let p = Project::new();
    p.settings(json!({"BeforeTool": [{"hooks": [{"type": "command", "command": "echo '{\"decision\":\"deny\"}'"}]}]}));
    let parent = std::process::id().to_string();
    let run = hook_cmd(
        &p,
        json!({"hook_event_name": "BeforeTool", "tool_name": "x"}),
        &[("HOOKHOST_ACTIVE", &parent)],
    );
    assert_eq!(run.code, 0);
    assert_eq!(run.stdout_text().trim(), "{}");
}

/// Installed from npm, `hookhost` is a Node launcher that spawns the binary
/// (packaging/npm/hookhost.js): one process more between a hookhost and the
/// `hookhost hook` it runs as a hook of an agent file it reads. Seen: it did not
/// know it ran inside hookhost and ran itself until the hook timed out.
#[test]
fn hookhost_hook_through_the_npm_launcher_does_not_recurse() {
    if std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: no node");
        return;
    }
    let p = Project::new();
    // The layout `npm install -g` gives: the launcher and the platform package.
    let modules = p.dir().join("npm/lib/node_modules");
    let launcher = modules.join("hookhost/bin/hookhost.js");
    let platform = modules.join("@hookhost/linux-x64");
    std::fs::create_dir_all(launcher.parent().unwrap()).unwrap();
    std::fs::create_dir_all(platform.join("bin")).unwrap();
    std::fs::copy(repo().join("packaging/npm/hookhost.js"), &launcher).unwrap();
    std::fs::write(
        platform.join("package.json"),
        r#"{"name": "@hookhost/linux-x64"}"#,
    )
    .unwrap();
    std::os::unix::fs::symlink(
        std::fs::canonicalize(BIN).unwrap(),
        platform.join("bin/hookhost"),
    )
    .unwrap();
    let command = format!("node '{}' hook --codex-settings", launcher.display());
    p.write(
        ".codex/hooks.json",
        json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
            {"type": "command", "command": "echo '{\"decision\":\"block\",\"reason\":\"no\"}'"},
            {"type": "command", "command": command, "timeout": 30}
        ]}]}})
        .to_string(),
    );
    let stdin = json!({"session_id": "s", "turn_id": "t", "transcript_path": null, "cwd": p.dir(),
        "hook_event_name": "PreToolUse", "model": "m", "permission_mode": "default",
        "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "u"});
    let mut outer = std::process::Command::new("node");
    outer
        .arg(&launcher)
        .args(["hook", "--codex-settings"])
        .current_dir(p.dir())
        .env("HOME", p.home())
        .env_remove("HOOKHOST_ACTIVE")
        .env_remove("HOOKHOST_LAUNCHER");
    let started = std::time::Instant::now();
    let out = run(outer, &serde_json::to_vec(&stdin).unwrap());
    let text = out.stdout_text();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!text.contains("timed out"), "{text}");
    assert!(
        text.contains(r#""permissionDecisionReason":"no""#),
        "{text}"
    );
    // The nested run answers at once; the recursion ran into the 30 s timeout.
    assert!(
        started.elapsed() < std::time::Duration::from_secs(25),
        "{text}"
    );
}
