//! Broken settings: `hookhost check` names file, event, group, hook and field and exits
//! 1, while everything that is valid still loads and `fire` still runs it.

use serde_json::{Value, json};

use crate::common::{Project, cmd, group, say};

#[test]
fn a_broken_hook_is_named_precisely_and_its_neighbours_still_run() {
    let p = Project::new();
    let good = p.script("good.sh", "echo '{\"systemMessage\":\"good hook ran\"}'");
    p.settings(json!({"BeforeTool": [group(vec![
        cmd(&good),
        json!({"type": "command", "command": "hooks/never.sh", "timeout": "5s"}),
    ])]}));
    let expected = "project settings .llxprt/settings.json: hooks.BeforeTool[0].hooks[1].timeout: \
                    expected a positive number of milliseconds, got \"5s\"; the hook is skipped";

    let check = p.check(&[]);
    assert_eq!(check.code, 1, "{check:#?}");
    assert!(
        check.stderr.contains(&format!("error: {expected}")),
        "{expected:?} not in stderr:\n{}",
        check.stderr
    );
    assert!(check.stderr.contains("1 error(s)"), "{}", check.stderr);
    let listing = check.stdout_text();
    assert!(listing.contains("hooks are enabled"), "{listing}");
    assert!(listing.contains("command: hooks/good.sh"), "{listing}");
    assert!(
        listing.contains("hooks.BeforeTool[0].hooks[0]"),
        "{listing}"
    );
    assert!(!listing.contains("never.sh"), "{listing}");

    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    assert_eq!(fired.code, 0, "{fired:#?}");
    assert_eq!(fired.final_output()["systemMessage"], "good hook ran");
    assert_eq!(fired.errors(), [expected]);
    assert!(fired.stderr.contains(expected), "{}", fired.stderr);
}

/// A settings file whose `BeforeTool` part is `before_tool`, plus one valid AfterTool
/// hook that must still load.
fn with_valid_neighbour(before_tool: Value) -> Value {
    json!({
        "tools": {"enableHooks": true},
        "hooks": {
            "BeforeTool": before_tool,
            "AfterTool": [group(vec![cmd(&say("neighbour"))])]
        }
    })
}

/// A wrong BeforeTool part at the group level, and the error it must give.
fn wrong_group_fields() -> Vec<(Value, &'static str)> {
    vec![
        (
            json!({}),
            "hooks.BeforeTool: expected an array of hook groups, got an object",
        ),
        (
            json!([5]),
            "hooks.BeforeTool[0]: expected a hook group object, got 5",
        ),
        (
            json!([{"matcher": 5, "hooks": [cmd("x")]}]),
            "hooks.BeforeTool[0].matcher: expected a regular expression string, got 5; the group is skipped",
        ),
        (
            json!([{"sequential": "yes", "hooks": [cmd("x")]}]),
            "hooks.BeforeTool[0].sequential: expected true or false, got \"yes\"; the group is skipped",
        ),
        (
            json!([{"matcher": "x"}]),
            "hooks.BeforeTool[0].hooks: missing (required)",
        ),
        (
            json!([{"hooks": {"type": "command"}}]),
            "hooks.BeforeTool[0].hooks: expected an array of hooks, got an object",
        ),
    ]
}

/// A wrong BeforeTool part at the hook level, and the error it must give.
fn wrong_hook_fields() -> Vec<(Value, &'static str)> {
    vec![
        (
            json!([{"hooks": ["echo hi"]}]),
            "hooks.BeforeTool[0].hooks[0]: expected a hook object, got \"echo hi\"; the hook is skipped",
        ),
        (
            json!([{"hooks": [{"command": "x"}]}]),
            "hooks.BeforeTool[0].hooks[0].type: missing (required: \"command\", \"plugin\", \"http\" or \"prompt\")",
        ),
        (
            json!([{"hooks": [{"type": "shell", "command": "x"}]}]),
            "hooks.BeforeTool[0].hooks[0].type: expected \"command\", \"plugin\", \"http\" or \"prompt\", got \"shell\"",
        ),
        (
            json!([{"hooks": [{"type": "command"}]}]),
            "hooks.BeforeTool[0].hooks[0].command: missing (required for a command hook, or commandLinux on this OS)",
        ),
        (
            json!([{"hooks": [{"type": "command", "command": 5}]}]),
            "hooks.BeforeTool[0].hooks[0].command: expected a command string, got 5",
        ),
        (
            json!([{"hooks": [{"type": "command", "command": "  "}]}]),
            "hooks.BeforeTool[0].hooks[0].command: is empty",
        ),
        (
            json!([{"hooks": [{"type": "command", "command": "x", "timeout": -1}]}]),
            "hooks.BeforeTool[0].hooks[0].timeout: expected a positive number of milliseconds, got -1",
        ),
        (
            json!([{"hooks": [{"type": "command", "command": "x", "timeout": 0}]}]),
            "hooks.BeforeTool[0].hooks[0].timeout: expected a positive number of milliseconds, got 0",
        ),
        (
            json!([{"hooks": [{"type": "command", "command": "x", "timeout": 1.5}]}]),
            "hooks.BeforeTool[0].hooks[0].timeout: expected a positive number of milliseconds, got 1.5",
        ),
        (
            json!([{"hooks": [{"type": "command", "command": "x", "failurePolicy": "maybe"}]}]),
            "hooks.BeforeTool[0].hooks[0].failurePolicy: expected \"allow\" or \"block\", got \"maybe\"",
        ),
        (
            json!([{"hooks": [{"type": "command", "command": "x", "name": 3}]}]),
            "hooks.BeforeTool[0].hooks[0].name: expected a string, got 3",
        ),
        (
            json!([group(vec![cmd("true"), cmd("true --2")]), {"hooks": [cmd("true --fine"), {"type": "command", "command": "x", "description": []}]}]),
            "hooks.BeforeTool[1].hooks[1].description: expected a string, got an array",
        ),
    ]
}

#[test]
fn wrong_types_at_group_and_hook_fields() {
    for (before_tool, expected) in wrong_group_fields().into_iter().chain(wrong_hook_fields()) {
        let p = Project::new();
        p.settings_raw(&with_valid_neighbour(before_tool.clone()));
        let check = p.check(&[]);
        assert_eq!(check.code, 1, "case {before_tool}: {check:#?}");
        let error_lines: Vec<&str> = check
            .stderr
            .lines()
            .filter(|l| l.starts_with("error:"))
            .collect();
        assert_eq!(error_lines.len(), 1, "case {before_tool}: {}", check.stderr);
        assert!(
            error_lines[0].starts_with("error: project settings .llxprt/settings.json: "),
            "case {before_tool}: {}",
            error_lines[0]
        );
        assert!(
            error_lines[0].contains(expected),
            "case {before_tool}: expected {expected:?} in {:?}",
            error_lines[0]
        );
        assert!(
            check.stdout_text().contains("AfterTool:"),
            "case {before_tool}: the valid neighbour did not load:\n{}",
            check.stdout_text()
        );
        // `fire` still runs the neighbour and lists the error; it fails open.
        let fired = p.fire(
            "AfterTool",
            json!({"tool_name": "t", "tool_input": {}, "tool_response": {}}),
        );
        assert_eq!(fired.code, 0, "case {before_tool}: {fired:#?}");
        assert_eq!(
            fired.final_output()["systemMessage"],
            "neighbour",
            "case {before_tool}"
        );
        let errors = fired.errors();
        assert_eq!(errors.len(), 1, "case {before_tool}: {errors:?}");
        assert!(
            errors[0].contains(expected),
            "case {before_tool}: {errors:?}"
        );
    }
}

#[test]
fn every_bad_field_of_one_hook_is_reported() {
    let p = Project::new();
    p.settings_raw(&with_valid_neighbour(json!([{"hooks": [
        {"type": "command", "command": 7, "timeout": "soon", "failurePolicy": true}
    ]}])));
    let check = p.check(&[]);
    assert_eq!(check.code, 1);
    for field in [
        "hooks[0].command",
        "hooks[0].timeout",
        "hooks[0].failurePolicy",
    ] {
        assert!(
            check
                .stderr
                .contains(&format!("hooks.BeforeTool[0].{field}:")),
            "{field} not reported:\n{}",
            check.stderr
        );
    }
    assert!(check.stderr.contains("3 error(s)"), "{}", check.stderr);
}

#[test]
fn file_level_problems() {
    let cases: Vec<(&str, Option<&str>)> = vec![
        ("", None),
        ("  \n\t\n", None),
        (
            "{ not json",
            Some("project settings .llxprt/settings.json: not valid JSON"),
        ),
        (
            "[1, 2]",
            Some("expected a JSON object at the top level, got an array"),
        ),
        (
            "\"hooks\"",
            Some("expected a JSON object at the top level, got a string"),
        ),
        (
            r#"{"hooks": []}"#,
            Some("hooks: expected an object of events, got an array"),
        ),
        (r#"{"tools": 5}"#, Some("tools: expected an object, got 5")),
        (
            r#"{"tools": {"enableHooks": "yes"}}"#,
            Some("tools.enableHooks: expected true or false, got \"yes\""),
        ),
    ];
    for (text, expected) in cases {
        let p = Project::new();
        p.settings_text(text);
        let check = p.check(&[]);
        match expected {
            None => {
                assert_eq!(
                    check.code, 0,
                    "{text:?} is an empty configuration: {check:#?}"
                );
                assert!(
                    !check.stderr.contains("error"),
                    "{text:?}: {}",
                    check.stderr
                );
            }
            Some(expected) => {
                assert_eq!(check.code, 1, "{text:?}: {check:#?}");
                assert!(
                    check.stderr.contains(expected),
                    "{text:?}: expected {expected:?} in {}",
                    check.stderr
                );
                let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
                assert_eq!(fired.code, 0, "{text:?}: {fired:#?}");
                assert_eq!(fired.final_output(), &json!({}));
                fired.single_error(&[expected]);
            }
        }
    }
}

#[test]
fn an_unknown_event_is_an_error_and_the_known_ones_load() {
    let p = Project::new();
    p.settings(json!({
        "BeforeToool": [group(vec![cmd("touch typo.marker")])],
        "BeforeTool": [group(vec![cmd(&say("known event"))])]
    }));
    let check = p.check(&[]);
    assert_eq!(check.code, 1);
    assert!(
        check
            .stderr
            .contains("hooks.BeforeToool: unknown event \"BeforeToool\""),
        "{}",
        check.stderr
    );
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    assert_eq!(fired.code, 0);
    assert_eq!(fired.final_output()["systemMessage"], "known event");
    fired.single_error(&["BeforeToool"]);
    assert!(!p.exists("typo.marker"));
}

#[test]
fn unknown_keys_are_warnings_not_errors() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [
        {"matchr": "write", "hooks": [{"type": "command", "command": "echo hi", "timout": 5}]}
    ]}));
    let check = p.check(&[]);
    assert_eq!(check.code, 0, "{check:#?}");
    assert!(check.stderr.contains("warning: project settings .llxprt/settings.json: hooks.BeforeTool[0].matchr: unknown key, ignored"), "{}", check.stderr);
    assert!(
        check
            .stderr
            .contains("hooks.BeforeTool[0].hooks[0].timout: unknown key"),
        "{}",
        check.stderr
    );
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    fired.assert_clean();
    assert_eq!(fired.final_output()["systemMessage"], "hi");
}

#[test]
fn check_names_an_explicit_file_by_its_path() {
    let p = Project::new();
    let bad = p.extra_settings(
        "team.json",
        json!({"AfterTool": [{"hooks": [{"type": "command"}]}]}),
    );
    let check = p.check(&[&bad]);
    assert_eq!(check.code, 1);
    assert!(
        check.stderr.contains(&format!(
            "error: settings {}: hooks.AfterTool[0].hooks[0].command: missing",
            bad.display()
        )),
        "{}",
        check.stderr
    );
}

#[test]
fn check_lists_hooks_in_execution_order_with_their_settings() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [
        {"matcher": "write_.*", "hooks": [
            {"type": "command", "command": "hooks/a.sh", "timeout": 1500, "name": "guard", "description": "Blocks writes to /etc"}
        ]},
        group(vec![cmd("hooks/b.sh")])
    ]}));
    p.executable("hooks/a.sh", "#!/bin/sh\n");
    p.executable("hooks/b.sh", "#!/bin/sh\n");
    let check = p.check(&[]);
    assert_eq!(check.code, 0, "{check:#?}");
    let listing = check.stdout_text();
    let first = listing
        .find("1. guard [command]  matcher write_.*  timeout 1500 ms")
        .unwrap_or_else(|| panic!("{listing}"));
    let second = listing
        .find("2. hooks/b.sh [command]  matcher *  timeout 60000 ms")
        .unwrap_or_else(|| panic!("{listing}"));
    assert!(first < second);
    assert!(listing.contains("Blocks writes to /etc"));
}

#[test]
fn check_reports_disabled_hooks_and_missing_files() {
    let p = Project::new();
    let check = p.check(&[]);
    assert_eq!(check.code, 0);
    assert!(
        check.stdout_text().contains("hooks are disabled"),
        "{}",
        check.stdout_text()
    );
    assert!(check.stdout_text().contains("no settings files found"));

    let missing = p.outside().join("nope.json");
    let check = p.check(&[&missing]);
    assert_eq!(check.code, 1);
    assert!(
        check.stderr.contains("nope.json: cannot read"),
        "{}",
        check.stderr
    );
}

/// Issue 28: a policy wired under the other agent's tool names never runs.
/// `check` says so for each name and names the one the agent sends: a Claude
/// file's `run_shell_command`, an LLxprt file's `Bash`.
#[test]
fn check_warns_about_matchers_in_the_other_agents_tool_names() {
    let p = Project::new();
    p.executable("hooks/a.sh", "#!/bin/sh\n");
    p.settings(json!({"BeforeTool": [
        {"matcher": "Bash|write_file", "hooks": [cmd("hooks/a.sh")]}
    ]}));
    p.claude_settings(json!({"PreToolUse": [
        {"matcher": "run_shell_command", "hooks": [cmd("hooks/a.sh")]}
    ]}));
    let mut command = p.command();
    command
        .args(["check", "--claude-settings", "--project-dir"])
        .arg(p.dir());
    let check = crate::common::run(command, b"");
    let listing = check.stdout_text();
    assert!(
        listing.contains(
            "warning: matcher names \"Bash\", Claude Code's name for \"run_shell_command\""
        ) && listing.contains("write \"run_shell_command\""),
        "{listing}"
    );
    assert!(
        listing.contains(
            "warning: matcher names \"run_shell_command\", LLxprt's and Gemini CLI's name for \
             Claude Code's \"Bash\""
        ) && listing.contains("write \"Bash\""),
        "{listing}"
    );
    assert!(!listing.contains("\"write_file\", Claude"), "{listing}");
}
