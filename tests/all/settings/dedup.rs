//! Deduplication: the same command in two files or twice in one runs once per event,
//! as its highest-priority instance, after matcher filtering.

use serde_json::json;

use super::tool;
use crate::common::{Project, cmd, cmd_timeout, group};

#[test]
fn same_command_in_two_settings_files_runs_once() {
    let p = Project::new();
    let counter = cmd("echo run >> count.txt");
    let project = p.settings(json!({"BeforeTool": [group(vec![counter.clone()])]}));
    let other = p.extra_settings("other.json", json!({"BeforeTool": [group(vec![counter])]}));
    let fired = p.fire_settings("BeforeTool", tool("write_file"), &[&project, &other]);
    fired.assert_clean();
    assert_eq!(
        p.read("count.txt"),
        "run\n",
        "a duplicate command ran twice"
    );
    assert_eq!(fired.hooks().len(), 1);
    // `check` shows the duplicate as not run.
    let check = p.check(&[&project, &other]);
    assert_eq!(check.code, 0, "{check:#?}");
    assert!(
        check.stdout_text().contains("duplicate of an earlier hook"),
        "{}",
        check.stdout_text()
    );
}

#[test]
fn same_command_twice_in_one_file_runs_once() {
    let p = Project::new();
    let counter = cmd("echo run >> count.txt");
    p.settings(json!({"AfterTool": [
        group(vec![counter.clone(), counter.clone()]),
        {"matcher": "read", "hooks": [counter]}
    ]}));
    p.fire(
        "AfterTool",
        json!({"tool_name": "read_file", "tool_input": {}, "tool_response": {}}),
    )
    .assert_clean();
    assert_eq!(p.read("count.txt"), "run\n");
}

#[test]
fn dedup_keeps_the_highest_priority_instance() {
    // Same command string, different timeouts: the first file's 300 ms must apply.
    let p = Project::new();
    let first = p.extra_settings(
        "first.json",
        json!({"BeforeTool": [group(vec![cmd_timeout("sleep 10", 300)])]}),
    );
    let second = p.extra_settings(
        "second.json",
        json!({"BeforeTool": [group(vec![cmd_timeout("sleep 10", 60_000)])]}),
    );
    let fired = p.fire_settings("BeforeTool", tool("write_file"), &[&first, &second]);
    assert_eq!(fired.code, 0);
    assert_eq!(fired.hooks().len(), 1, "{fired:#?}");
    fired.single_error(&["timed out after 300 ms"]);
}

#[test]
fn dedup_applies_after_matcher_filtering() {
    // The higher-priority instance does not match this tool, so the lower one runs.
    let p = Project::new();
    let counter = "echo run >> count.txt";
    let first = p.extra_settings(
        "first.json",
        json!({"BeforeTool": [{"matcher": "write_file", "hooks": [cmd(counter)]}]}),
    );
    let second = p.extra_settings(
        "second.json",
        json!({"BeforeTool": [{"matcher": "read_file", "hooks": [cmd(counter)]}]}),
    );
    p.fire_settings("BeforeTool", tool("read_file"), &[&first, &second])
        .assert_clean();
    assert_eq!(p.read("count.txt"), "run\n");
}

#[test]
fn same_command_for_two_events_runs_for_each() {
    let p = Project::new();
    let counter = cmd("echo run >> count.txt");
    p.settings(
        json!({"BeforeTool": [group(vec![counter.clone()])], "AfterTool": [group(vec![counter])]}),
    );
    p.fire("BeforeTool", tool("t")).assert_clean();
    p.fire(
        "AfterTool",
        json!({"tool_name": "t", "tool_input": {}, "tool_response": {}}),
    )
    .assert_clean();
    assert_eq!(p.read("count.txt"), "run\nrun\n");
}
