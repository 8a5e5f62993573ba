//! Matchers (seeds/001 §3.1, §6.2): unanchored regexes against `tool_name`, `*` and
//! empty for every tool, an invalid regex as an exact name, none for model events;
//! SessionStart, SessionEnd and PreCompress compare theirs with `source`, `reason`
//! and `trigger`.

use serde_json::{Value, json};

use crate::common::{Project, cmd, say};

fn matcher_project() -> Project {
    let p = Project::new();
    let groups: Vec<Value> = [
        (Some("file"), "m-file"),
        (Some("^write_"), "m-anchored"),
        (Some("*"), "m-star"),
        (Some(""), "m-empty"),
        (None, "m-none"),
        (Some("write_file|replace"), "m-alt"),
        (Some("Write"), "m-case"),
    ]
    .into_iter()
    .map(|(matcher, name)| match matcher {
        Some(m) => json!({"matcher": m, "hooks": [cmd(&say(name))]}),
        None => json!({"hooks": [cmd(&say(name))]}),
    })
    .collect();
    p.settings(json!({"BeforeTool": groups}));
    p
}

fn ran(p: &Project, tool: &str) -> String {
    let fired = p.fire("BeforeTool", json!({"tool_name": tool, "tool_input": {}}));
    fired.assert_clean();
    fired.final_output()["systemMessage"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn regex_matchers_are_unanchored_and_case_sensitive() {
    let p = matcher_project();
    assert_eq!(
        ran(&p, "write_file"),
        "m-file\nm-anchored\nm-star\nm-empty\nm-none\nm-alt"
    );
    // "overwrite_file" contains "write_file": unanchored alternation matches.
    assert_eq!(
        ran(&p, "overwrite_file"),
        "m-file\nm-star\nm-empty\nm-none\nm-alt"
    );
    assert_eq!(ran(&p, "replace"), "m-star\nm-empty\nm-none\nm-alt");
    assert_eq!(ran(&p, "glob"), "m-star\nm-empty\nm-none");
    assert_eq!(ran(&p, "Write"), "m-star\nm-empty\nm-none\nm-case");
}

#[test]
fn after_tool_matchers_work_the_same() {
    let p = Project::new();
    p.settings(json!({"AfterTool": [
        {"matcher": "shell", "hooks": [cmd(&say("shell-hook"))]},
        {"matcher": "read_.*", "hooks": [cmd(&say("read-hook"))]}
    ]}));
    let fired = p.fire(
        "AfterTool",
        json!({"tool_name": "run_shell_command", "tool_input": {}, "tool_response": {}}),
    );
    assert_eq!(fired.final_output()["systemMessage"], "shell-hook");
    let fired = p.fire(
        "AfterTool",
        json!({"tool_name": "read_many_files", "tool_input": {}, "tool_response": {}}),
    );
    assert_eq!(fired.final_output()["systemMessage"], "read-hook");
}

#[test]
fn a_tool_event_without_tool_name_runs_only_unmatched_groups() {
    let p = matcher_project();
    let fired = p.fire("BeforeTool", json!({"tool_input": {}}));
    fired.assert_clean();
    assert_eq!(
        fired.final_output()["systemMessage"],
        "m-star\nm-empty\nm-none"
    );
}

#[test]
fn an_invalid_regex_matches_the_tool_name_exactly_and_warns() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [{"matcher": "write_file(", "hooks": [cmd(&say("exact"))]}]}));
    let fired = p.fire(
        "BeforeTool",
        json!({"tool_name": "write_file(", "tool_input": {}}),
    );
    fired.assert_clean();
    assert_eq!(fired.final_output()["systemMessage"], "exact");
    let fired = p.fire(
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {}}),
    );
    fired.assert_clean();
    assert!(fired.hooks().is_empty(), "{fired:#?}");

    let check = p.check(&[]);
    assert_eq!(check.code, 0, "a warning is not an error: {check:#?}");
    let warning = check
        .stderr
        .lines()
        .find(|l| l.starts_with("warning:"))
        .unwrap_or_else(|| panic!("no warning in {:?}", check.stderr));
    for part in [
        "project settings .llxprt/settings.json",
        "hooks.BeforeTool[0].matcher",
        "invalid regular expression \"write_file(\"",
        "exactly",
    ] {
        assert!(warning.contains(part), "{part:?} missing from {warning:?}");
    }
}

#[test]
fn matchers_are_ignored_for_model_events() {
    let p = Project::new();
    p.settings(json!({
        "BeforeModel": [{"matcher": "never_matches_anything", "hooks": [cmd(&say("model hook ran"))]}],
        "BeforeToolSelection": [{"matcher": "nope", "hooks": [cmd(&say("selection hook ran"))]}]
    }));
    let fired = p.fire(
        "BeforeModel",
        json!({"llm_request": {"model": "m"}, "tool_name": "other"}),
    );
    fired.assert_clean();
    assert_eq!(fired.final_output()["systemMessage"], "model hook ran");
    let fired = p.fire(
        "BeforeToolSelection",
        json!({"llm_request": {"model": "m"}}),
    );
    assert_eq!(fired.final_output()["systemMessage"], "selection hook ran");

    let check = p.check(&[]);
    assert_eq!(check.code, 0);
    assert!(
        check.stderr.contains(
            "hooks.BeforeModel[0].matcher: BeforeModel has no tool name; the matcher is ignored"
        ),
        "{}",
        check.stderr
    );
}

#[test]
fn session_start_matchers_compare_the_source_exactly() {
    // Both references' planners ("should match trigger for session events"): the
    // matcher of SessionStart is compared with `source`, of SessionEnd with `reason`,
    // of PreCompress with `trigger` — exactly, not as a regex.
    let p = Project::new();
    let groups = |names: &[&str]| -> Vec<Value> {
        let mut groups: Vec<Value> = names
            .iter()
            .map(|m| json!({"matcher": m, "hooks": [cmd(&say(&format!("on-{m}")))]}))
            .collect();
        groups.push(json!({"matcher": "*", "hooks": [cmd(&say("on-star"))]}));
        groups.push(json!({"hooks": [cmd(&say("on-any"))]}));
        groups
    };
    p.settings(json!({
        "SessionStart": groups(&["startup", "resume", "start"]),
        "SessionEnd": groups(&["exit", "logout"]),
        "PreCompress": groups(&["manual", "auto"]),
    }));
    let ran = |event: &str, input: Value| {
        let fired = p.fire(event, input);
        fired.assert_clean();
        fired.final_output()["systemMessage"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    for (event, field, value, expected) in [
        (
            "SessionStart",
            "source",
            "startup",
            "on-startup\non-star\non-any",
        ),
        (
            "SessionStart",
            "source",
            "resume",
            "on-resume\non-star\non-any",
        ),
        ("SessionStart", "source", "clear", "on-star\non-any"),
        ("SessionEnd", "reason", "exit", "on-exit\non-star\non-any"),
        // `exit` is not a regex: it does not match `prompt_input_exit`.
        (
            "SessionEnd",
            "reason",
            "prompt_input_exit",
            "on-star\non-any",
        ),
        ("PreCompress", "trigger", "auto", "on-auto\non-star\non-any"),
    ] {
        assert_eq!(
            ran(event, json!({ field: value })),
            expected,
            "{event} {field}={value}"
        );
    }
    // Without the field, only the groups without a matcher run (as for tool events).
    assert_eq!(ran("SessionStart", json!({})), "on-star\non-any");

    let check = p.check(&[]);
    assert_eq!(check.code, 0, "{check:#?}");
    assert!(
        !check.stderr.contains("matcher is ignored"),
        "{}",
        check.stderr
    );
    assert!(!check.stderr.contains("warning"), "{}", check.stderr);
}
