//! Claude Code 2.1.331 as it is today (issue 27): its matcher rules (comma lists,
//! exact hyphenated names), the events beyond the eleven shared ones with their
//! own matcher fields, and the answer fields hookhost passes on (`defer`,
//! `updatedToolOutput`, Elicitation's `action`, WorktreeCreate's path). Each test
//! drives `hookhost hook --claude-settings` with Claude's stdin, as Claude does.

use serde_json::{Value, json};

use crate::common::{Project, Run, claude_deny_reason, run};

/// Claude's stdin for `event` plus `fields`.
fn claude_input(p: &Project, event: &str, fields: Value) -> Value {
    let mut input = json!({
        "session_id": "s-27", "transcript_path": "/tmp/t.jsonl", "cwd": p.dir(),
        "permission_mode": "default", "hook_event_name": event,
    });
    if let (Value::Object(input), Value::Object(fields)) = (&mut input, fields) {
        input.extend(fields);
    }
    input
}

/// `hookhost hook --claude-settings` given Claude's stdin for `event` plus `fields`.
fn claude_hook(p: &Project, event: &str, fields: Value) -> Run {
    p.claude_hook(&claude_input(p, event, fields), &[])
}

fn answer(run: &Run) -> Value {
    serde_json::from_slice(run.stdout.trim_ascii())
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {run:?}"))
}

/// A command hook that appends `tag` to `ran.log` and prints `answer`.
fn logging(tag: &str, answer: &Value) -> Value {
    json!({"type": "command", "command": format!(
        "echo {tag} >> ran.log; printf '%s' '{}'", answer.to_string().replace('\'', "'\\''")
    )})
}

fn ran(p: &Project) -> Vec<String> {
    std::fs::read_to_string(p.path("ran.log"))
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Seen 0 and 2: `"Write,Bash"` is a list (Claude 2.1.191), so both calls are
/// denied; `code-reviewer` is an exact name (2.1.195), so it does not select
/// `senior-code-reviewer`.
#[test]
fn a_comma_matcher_selects_each_tool_it_lists_and_hyphenated_names_are_exact() {
    let p = Project::new();
    p.claude_settings(json!({
        "PreToolUse": [{"matcher": "Write,Bash", "hooks": [{"type": "command",
            "command": "echo 'no writes, no shell' >&2; exit 2"}]}],
        "SubagentStart": [{"matcher": "code-reviewer", "hooks": [
            logging("reviewer", &json!({}))]}],
    }));
    for (tool, tool_input) in [
        ("Bash", json!({"command": "rm -rf build"})),
        ("Write", json!({"file_path": "a.txt", "content": "x"})),
    ] {
        let out = claude_hook(
            &p,
            "PreToolUse",
            json!({"tool_name": tool, "tool_input": tool_input}),
        );
        assert_eq!(
            claude_deny_reason(&out).as_deref(),
            Some("no writes, no shell"),
            "{tool}: {out:?}"
        );
    }
    let read = claude_hook(
        &p,
        "PreToolUse",
        json!({"tool_name": "Read", "tool_input": {"file_path": "a.txt"}}),
    );
    assert_eq!(claude_deny_reason(&read), None, "{read:?}");

    for agent in ["senior-code-reviewer", "code-reviewer"] {
        let out = claude_hook(
            &p,
            "SubagentStart",
            json!({"agent_id": "a1", "agent_type": agent}),
        );
        assert_eq!(out.code, 0, "{out:?}");
    }
    assert_eq!(ran(&p), ["reviewer"], "only the exact name ran the hook");
}

/// Seen 3: FileChanged's matcher is tested against the changed file's name, not a
/// `tool_name` (which it has none of), so a `.env` group runs for `/repo/.env`.
/// Events without a matcher field in Claude (TaskCreated, Stop, …) run every
/// group whatever its matcher says.
#[test]
fn claude_only_events_match_on_their_own_field() {
    let p = Project::new();
    p.claude_settings(json!({
        "FileChanged": [{"matcher": ".env", "hooks": [logging("env", &json!({}))]}],
        "ConfigChange": [{"matcher": "project_settings", "hooks": [
            {"type": "command", "command": "echo 'settings are frozen' >&2; exit 2"}]}],
        "TaskCreated": [{"matcher": "whatever", "hooks": [logging("task", &json!({}))]}],
        "UserPromptExpansion": [{"matcher": "deploy,release", "hooks": [
            logging("expansion", &json!({}))]}],
    }));
    let changed = |path: &str| {
        claude_hook(
            &p,
            "FileChanged",
            json!({"file_path": path, "event": "change"}),
        )
    };
    assert_eq!(changed(&p.path(".env").display().to_string()).code, 0);
    assert_eq!(
        changed(&p.path("src/main.rs").display().to_string()).code,
        0
    );
    let task = claude_hook(
        &p,
        "TaskCreated",
        json!({"task_id": "1", "task_subject": "x"}),
    );
    assert_eq!(task.code, 0, "{task:?}");
    for command in ["release", "status"] {
        let out = claude_hook(
            &p,
            "UserPromptExpansion",
            json!({"expansion_type": "slash_command", "command_name": command,
                   "command_args": "", "prompt": "/x"}),
        );
        assert_eq!(out.code, 0, "{out:?}");
    }
    assert_eq!(ran(&p), ["env", "task", "expansion"]);

    let blocked = claude_hook(
        &p,
        "ConfigChange",
        json!({"source": "project_settings", "file_path": ".claude/settings.json"}),
    );
    assert_eq!(blocked.code, 2, "exit 2 blocks the change: {blocked:?}");
    assert!(
        blocked.stderr.contains("settings are frozen"),
        "{blocked:?}"
    );
    let other = claude_hook(&p, "ConfigChange", json!({"source": "user_settings"}));
    assert_eq!(other.code, 0, "{other:?}");
}

/// Seen 4: `defer` is an answer of its own, and among several hooks deny > defer
/// > ask > allow (Claude 2.1.331's precedence).
#[test]
fn defer_ranks_below_deny_and_above_ask() {
    let decision = |value: &str| {
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": value, "permissionDecisionReason": value}})
    };
    let cases: [(&[&str], &str); 4] = [
        (&["allow", "defer", "ask"], "defer"),
        (&["defer", "deny"], "deny"),
        (&["ask", "allow"], "ask"),
        (&["allow"], "allow"),
    ];
    for (decisions, expected) in cases {
        let p = Project::new();
        let hooks: Vec<Value> = decisions
            .iter()
            .enumerate()
            .map(|(i, d)| logging(&format!("h{i}"), &decision(d)))
            .collect();
        p.claude_settings(json!({"PreToolUse": [{"matcher": "Bash", "hooks": hooks}]}));
        let out = claude_hook(
            &p,
            "PreToolUse",
            json!({"tool_name": "Bash", "tool_input": {"command": "make"}}),
        );
        assert_eq!(out.code, 0, "{out:?}");
        assert_eq!(
            answer(&out)["hookSpecificOutput"]["permissionDecision"],
            expected,
            "{decisions:?}: {out:?}"
        );
    }
}

/// Seen 3 and 4: event answers Claude reads are passed on — PostToolUse
/// `updatedToolOutput` (the later hook wins, as in Claude), Elicitation's `action`
/// and `content`, SessionStart's `sessionTitle`; WorktreeCreate's path is printed
/// alone, as a Claude command hook prints it.
#[test]
fn event_answers_reach_claude_as_claude_reads_them() {
    let p = Project::new();
    let worktree = p.path("wt/feature-x").display().to_string();
    p.claude_settings(json!({
        "PostToolUse": [{"matcher": "Bash", "hooks": [
            logging("first", &json!({"hookSpecificOutput": {"hookEventName": "PostToolUse",
                "updatedToolOutput": {"stdout": "first", "stderr": ""}}})),
            logging("second", &json!({"hookSpecificOutput": {"hookEventName": "PostToolUse",
                "updatedToolOutput": {"stdout": "[redacted]", "stderr": ""}}})),
        ]}],
        "Elicitation": [{"matcher": "github", "hooks": [logging("elicit", &json!({
            "hookSpecificOutput": {"hookEventName": "Elicitation", "action": "accept",
                "content": {"org": "acme"}}}))]}],
        "WorktreeCreate": [{"hooks": [{"type": "command",
            "command": format!("mkdir -p '{worktree}' && echo '{worktree}'")}]}],
    }));
    let post = claude_hook(
        &p,
        "PostToolUse",
        json!({"tool_name": "Bash", "tool_input": {"command": "cat .env"},
               "tool_response": {"stdout": "SECRET=1", "stderr": ""}}),
    );
    assert_eq!(post.code, 0, "{post:?}");
    assert_eq!(
        answer(&post)["hookSpecificOutput"]["updatedToolOutput"],
        json!({"stdout": "[redacted]", "stderr": ""}),
        "{post:?}"
    );
    let elicit = claude_hook(
        &p,
        "Elicitation",
        json!({"mcp_server_name": "github", "message": "Which org?", "mode": "form"}),
    );
    let specific = &answer(&elicit)["hookSpecificOutput"];
    assert_eq!(specific["hookEventName"], "Elicitation", "{elicit:?}");
    assert_eq!(specific["action"], "accept", "{elicit:?}");
    assert_eq!(specific["content"], json!({"org": "acme"}), "{elicit:?}");
    let created = claude_hook(&p, "WorktreeCreate", json!({"name": "feature-x"}));
    assert_eq!(created.code, 0, "{created:?}");
    assert_eq!(created.stdout_text().trim(), worktree, "{created:?}");
    assert!(p.path("wt/feature-x").is_dir());
}

/// Issue 37 item 4: Claude reads a `WorktreeCreate` hook's stdout as the path of
/// the worktree it made, and fails the creation on a non-zero exit. A hook that
/// failed, blocked or gave no path fails the creation — never exit 0 with JSON
/// that Claude would take for a path.
#[test]
fn a_failed_worktree_hook_fails_the_creation() {
    for (command, code) in [
        ("echo cannot make it >&2; exit 1", 1),
        ("true", 1),
        ("echo 'no worktrees here' >&2; exit 2", 2),
    ] {
        let p = Project::new();
        p.claude_settings(json!({"WorktreeCreate": [{"hooks": [
            {"type": "command", "command": command}]}]}));
        let created = claude_hook(&p, "WorktreeCreate", json!({"name": "feature-x"}));
        assert_eq!(created.code, code, "{command}: {created:?}");
        assert!(
            created.stdout.trim_ascii().is_empty(),
            "{command}: {created:?}"
        );
        assert!(
            !created.stderr.trim().is_empty(),
            "{command}: no cause: {created:?}"
        );
    }
    // A path and a failing second hook: the worktree may be half made.
    let p = Project::new();
    p.claude_settings(json!({"WorktreeCreate": [{"hooks": [
        {"type": "command", "command": "echo /tmp/wt"},
        {"type": "command", "command": "exit 1"}]}]}));
    let created = claude_hook(&p, "WorktreeCreate", json!({"name": "feature-x"}));
    assert_eq!(created.code, 1, "{created:?}");
    assert!(created.stdout.trim_ascii().is_empty(), "{created:?}");
}

/// Claude Code's `onFailure` (2.1.331): "block" makes a failed hook a block, as
/// `failurePolicy: "block"` does; Claude ignores it on Stop (a block there would
/// keep the agent going), and so does hookhost, saying so; one that disagrees
/// with `failurePolicy` is an error naming the key.
#[test]
fn on_failure_is_claudes_failure_policy() {
    let p = Project::new();
    p.claude_settings(json!({
        "PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "exit 1", "onFailure": "block"}]}],
        "Stop": [{"hooks": [
            {"type": "command", "command": "exit 1", "onFailure": "block"}]}],
    }));
    let out = claude_hook(
        &p,
        "PreToolUse",
        json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}),
    );
    let reason = claude_deny_reason(&out).unwrap_or_else(|| panic!("{out:?}"));
    assert!(reason.contains("failed"), "{reason}");
    let stop = claude_hook(&p, "Stop", json!({"stop_hook_active": false}));
    assert_eq!(stop.code, 0, "{stop:?}");
    assert!(answer(&stop)["decision"].is_null(), "fails open: {stop:?}");
    let mut check = p.command();
    check
        .args(["check", "--claude-settings", "--project-dir"])
        .arg(p.dir());
    let check = run(check, b"");
    assert!(
        check.stderr.contains("hooks.Stop[0].hooks[0].onFailure")
            && check.stderr.contains("ignored for AfterAgent"),
        "{check:?}"
    );

    p.claude_settings(
        json!({"PreToolUse": [{"hooks": [{"type": "command", "command": "true",
            "onFailure": "continue", "failurePolicy": "block"}]}]}),
    );
    let mut check = p.command();
    check
        .args(["check", "--claude-settings", "--project-dir"])
        .arg(p.dir());
    let check = run(check, b"");
    assert_eq!(check.code, 1, "{check:?}");
    assert!(
        check
            .stderr
            .contains("onFailure: says otherwise than failurePolicy"),
        "{check:?}"
    );
}

/// `hookhost hook --claude-settings` with Claude's managed settings in `managed`.
fn claude_hook_managed(p: &Project, managed: &std::path::Path) -> Run {
    let input = claude_input(
        p,
        "PreToolUse",
        json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}),
    );
    p.claude_hook(&input, &[("HOOKHOST_CLAUDE_MANAGED_DIR", managed)])
}

/// Seen 4: Claude's managed settings as Claude Code 2.1.331 resolves them —
/// `allowManagedHooksOnly` in the managed file leaves only its hooks (a project
/// cannot set it); a project's `disableAllHooks` switches off every non-managed
/// Claude hook but not the managed ones; managed `disableAllHooks` switches off all.
#[test]
fn managed_settings_decide_whose_hooks_run() {
    let managed_hooks = |extra: Value| {
        let mut file = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            logging("managed", &json!({}))]}]}});
        if let (Value::Object(file), Value::Object(extra)) = (&mut file, extra) {
            file.extend(extra);
        }
        file
    };
    let setup = |managed: Value, local: Value| {
        let p = Project::new();
        p.claude_settings(
            json!({"PreToolUse": [{"matcher": "Bash", "hooks": [logging("project", &json!({}))]}]}),
        );
        p.write(".claude/settings.local.json", local.to_string());
        p.write("managed/managed-settings.json", managed.to_string());
        p
    };

    let p = setup(
        managed_hooks(json!({"allowManagedHooksOnly": true})),
        json!({"allowManagedHooksOnly": false}),
    );
    let out = claude_hook_managed(&p, &p.path("managed"));
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(ran(&p), ["managed"], "only the managed hook: {out:?}");
    // Issue 37 item 4: the hooks that did not run are named, inside the agent
    // (systemMessage, once) and by `check`.
    let message = answer(&out)["systemMessage"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        message.contains("allowManagedHooksOnly")
            && message.contains("hooks.PreToolUse[0].hooks[0]")
            && message.contains("settings.json"),
        "{out:?}"
    );
    assert_eq!(
        message.matches("allowManagedHooksOnly").count(),
        1,
        "{message}"
    );
    let mut check = p.command();
    check
        .args(["check", "--claude-settings", "--project-dir"])
        .arg(p.dir())
        .env("HOOKHOST_CLAUDE_MANAGED_DIR", p.path("managed"));
    let checked = crate::common::run(check, b"");
    let stderr = &checked.stderr;
    assert!(
        stderr.contains("allowManagedHooksOnly") && stderr.contains("hooks.PreToolUse[0].hooks[0]"),
        "{stderr}"
    );

    let p = setup(managed_hooks(json!({})), json!({"disableAllHooks": true}));
    let out = claude_hook_managed(&p, &p.path("managed"));
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(ran(&p), ["managed"], "the project's hooks are off: {out:?}");

    let p = setup(managed_hooks(json!({"disableAllHooks": true})), json!({}));
    let out = claude_hook_managed(&p, &p.path("managed"));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(ran(&p).is_empty(), "no Claude hook runs: {out:?}");

    // Without managed settings, a project's allowManagedHooksOnly changes nothing.
    let p = setup(json!({}), json!({"allowManagedHooksOnly": true}));
    let out = claude_hook_managed(&p, &p.path("managed"));
    assert_eq!(ran(&p), ["project"], "{out:?}");
}

/// CONTRACT §5: `tools.allowManagedHooksOnly` in hookhost's system settings leaves
/// only system hooks; in a project file it is ignored, with a warning.
#[test]
fn hookhosts_own_managed_only_switch_lives_in_the_system_settings() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [{"hooks": [logging("project", &json!({}))]}]}));
    let system = p.path("system-settings.json");
    p.write(
        &system,
        json!({"tools": {"enableHooks": true, "allowManagedHooksOnly": true},
               "hooks": {"BeforeTool": [{"hooks": [logging("system", &json!({}))]}]}})
        .to_string(),
    );
    let system = system.display().to_string();
    let fired = p.fire_with(
        "BeforeTool",
        json!({"tool_name": "run_shell_command", "tool_input": {"command": "ls"}}),
        &[],
        &[("LLXPRT_SYSTEM_SETTINGS_PATH", &system)],
    );
    assert_eq!(fired.code, 0, "{fired:#?}");
    assert_eq!(ran(&p), ["system"], "{fired:#?}");
    assert!(
        fired.stderr.contains("allowManagedHooksOnly"),
        "{}",
        fired.stderr
    );

    let p = Project::new();
    p.settings_raw(
        &json!({"tools": {"enableHooks": true, "allowManagedHooksOnly": true},
        "hooks": {"BeforeTool": [{"hooks": [logging("project", &json!({}))]}]}}),
    );
    let fired = p.fire(
        "BeforeTool",
        json!({"tool_name": "run_shell_command", "tool_input": {"command": "ls"}}),
    );
    assert_eq!(ran(&p), ["project"], "{fired:#?}");
    assert!(fired.stderr.contains("ignored here"), "{}", fired.stderr);
}

/// Seen 4: Claude Code saves a hook's text over 10,000 characters to a file and
/// gives the model a `<persisted-output>` preview; a Claude hook run by hookhost
/// is capped the same way, and a hook of hookhost's own files is not.
#[test]
fn context_over_claudes_cap_is_saved_to_a_file_with_a_preview() {
    let p = Project::new();
    let long = "python3 -c \"print('context line\\n' * 1000, end='')\"";
    p.claude_settings(json!({"SessionStart": [{"hooks": [{"type": "command", "command": long}]}]}));
    let out = claude_hook(&p, "SessionStart", json!({"source": "startup"}));
    assert_eq!(out.code, 0, "{out:?}");
    let context = answer(&out)["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        context.starts_with("<persisted-output>\nOutput too large (")
            && context.ends_with("...\n</persisted-output>")
            && context.len() < 2_500,
        "{context}"
    );
    let path = context
        .lines()
        .find_map(|l| l.split("Full output saved to: ").nth(1))
        .unwrap_or_else(|| panic!("{context}"));
    let saved = std::fs::read_to_string(path).unwrap();
    assert_eq!(saved, "context line\n".repeat(1000).trim());

    p.settings(json!({"SessionStart": [{"hooks": [{"type": "command", "command": long}]}]}));
    let fired = p.fire("SessionStart", json!({"source": "startup"}));
    let message = fired.final_output()["systemMessage"]
        .as_str()
        .unwrap_or_default()
        .len();
    assert!(
        message > 12_000,
        "hookhost's own hooks are not capped: {message}"
    );
}

/// Seen 4: a Claude plugin's options reach its hooks as Claude Code 2.1.331 gives
/// them — `CLAUDE_PLUGIN_OPTION_<KEY>` (the `userConfig` default, or the value
/// chosen in `pluginConfigs[id].options`), `${user_config.KEY}` in exec-form
/// arguments (one argument, whatever it holds) but refused in a shell-form command;
/// `${CLAUDE_PLUGIN_DATA}` is Claude's own data directory of the plugin.
#[test]
fn plugin_options_and_data_follow_claude_code() {
    let p = Project::new();
    let plugin = p.path("lint-plugin");
    p.write(
        plugin.join(".claude-plugin/plugin.json"),
        json!({"name": "lint", "userConfig": {
            "apiUrl": {"type": "string", "title": "API", "description": "d", "default": "https://default"},
            "log-level": {"type": "number", "title": "L", "description": "d", "default": 2},
        }})
        .to_string(),
    );
    p.write(
        plugin.join("hooks/hooks.json"),
        json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "echo \"$CLAUDE_PLUGIN_OPTION_APIURL $CLAUDE_PLUGIN_OPTION_LOG_LEVEL $CLAUDE_PLUGIN_DATA\" >> ran.log"},
                {"type": "command", "command": "python3", "args": ["-c",
                    "import sys; open('ran.log', 'a').write(sys.argv[1] + '\\n')", "${user_config.apiUrl}"]},
            ]}],
            "PostToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "curl ${user_config.apiUrl}"}]}],
        }})
        .to_string(),
    );
    p.claude_settings(json!({}));
    let mut file: Value =
        serde_json::from_slice(&std::fs::read(p.path(".claude/settings.json")).unwrap()).unwrap();
    file["pluginConfigs"] =
        json!({"lint": {"options": {"apiUrl": "https://chosen $(touch pwned)"}}});
    p.write(".claude/settings.json", file.to_string());

    let fired = p.fire_flags(
        "PreToolUse",
        json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}),
        &[
            "--claude-settings",
            "--claude-plugin",
            plugin.to_str().unwrap(),
        ],
    );
    assert_eq!(fired.code, 0, "{fired:#?}");
    let data = p.home().join(".claude/plugins/data/lint");
    let mut lines = ran(&p);
    lines.sort();
    assert_eq!(
        lines,
        [
            "https://chosen $(touch pwned)".to_owned(),
            format!("https://chosen $(touch pwned) 2 {}", data.display()),
        ],
        "{fired:#?}"
    );
    assert!(!p.exists("pwned"));

    let mut check = p.command();
    check
        .args(["check", "--claude-settings", "--project-dir"])
        .arg(p.dir())
        .args(["--claude-plugin", plugin.to_str().unwrap()]);
    let check = run(check, b"");
    assert!(
        check
            .stderr
            .contains("hooks.PostToolUse[0].hooks[0].command")
            && check
                .stderr
                .contains("${user_config.*} in a shell-form command"),
        "{check:?}"
    );
}
