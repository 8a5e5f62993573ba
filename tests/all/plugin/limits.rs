//! A plugin's limits: fuel, deadlines (spinning and sleeping guests), memory limits,
//! traps and 10 MiB of stdout fail open naming the cause; `failurePolicy: "block"`
//! turns a limit into a block; `check` lists the limits.

use std::time::Duration;

use hookhost_tests as guests;
use serde_json::json;

use super::{adversary, before_tool, errors, fire, plugin, with};
use crate::common::{Project, group};

#[test]
fn exhausted_fuel_fails_open_naming_the_limit() {
    let p = Project::new();
    p.settings(
        json!({"BeforeTool": [group(vec![with(adversary("spin"), json!({"fuel": 50_000_000}))])]}),
    );
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert_eq!(fired.code, 0);
    assert_eq!(fired.out["success"], false);
    assert!(
        errors(&fired).contains("ran out of fuel (limit 50000000 units)"),
        "{}",
        errors(&fired)
    );
}

#[test]
fn enough_fuel_is_obeyed() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![with(plugin(guests::ECHO_POLICY), json!({"fuel": 50_000_000}))])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({"path": "/etc/a"})));
    assert_eq!(fired.code, 2, "{}", fired.out);
}

#[test]
fn deadline_stops_a_spinning_guest() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![with(adversary("spin"),
        json!({"fuel": 1_000_000_000_000_000u64, "timeout": 500}))])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert_eq!(fired.code, 0);
    assert!(
        errors(&fired).contains("timed out after 500 ms"),
        "{}",
        errors(&fired)
    );
    let hook_ms = fired.out["hooks"][0]["duration"].as_f64().unwrap();
    assert!(
        (500.0..3000.0).contains(&hook_ms),
        "the hook ran {hook_ms} ms"
    );
}

#[test]
fn deadline_stops_a_guest_sleeping_in_a_host_call() {
    let p = Project::new();
    p.settings(
        json!({"BeforeTool": [group(vec![with(adversary("sleep"), json!({"timeout": 500}))])]}),
    );
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert!(
        errors(&fired).contains("timed out after 500 ms"),
        "{}",
        errors(&fired)
    );
    let hook_ms = fired.out["hooks"][0]["duration"].as_f64().unwrap();
    assert!(
        (500.0..3000.0).contains(&hook_ms),
        "the hook ran {hook_ms} ms"
    );
    assert!(
        fired.elapsed < Duration::from_secs(30),
        "a 60 s sleep was not interrupted"
    );
}

#[test]
fn memory_limit_refuses_growth_and_names_the_limit() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![with(adversary("membomb"), json!({"memoryLimit": 16_777_216}))])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert_eq!(fired.code, 0);
    assert!(
        errors(&fired).contains("exceeded its memory limit of 16777216 bytes"),
        "{}",
        errors(&fired)
    );
}

#[test]
fn a_memory_limit_too_small_to_start_fails_open() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![with(plugin(guests::ECHO_POLICY), json!({"memoryLimit": 65536}))])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({"path": "/etc/x"})));
    assert_eq!(
        fired.code, 0,
        "a plugin that cannot start must not block: {}",
        fired.out
    );
    assert_eq!(fired.out["success"], false);
}

#[test]
fn traps_fail_open_with_the_cause() {
    for (mode, expected) in [("trap", "trapped"), ("stackoverflow", "trapped")] {
        let p = Project::new();
        p.settings(json!({"BeforeTool": [group(vec![adversary(mode)])]}));
        let fired = fire(&p, "BeforeTool", before_tool(json!({})));
        assert_eq!(fired.code, 0, "{mode}");
        assert_eq!(fired.out["success"], false, "{mode}");
        assert!(
            errors(&fired).contains(expected),
            "{mode}: {}",
            errors(&fired)
        );
    }
}

#[test]
fn ten_mebibytes_of_stdout_are_captured() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![adversary("bigout")])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert_eq!(fired.code, 0);
    let message = fired.out["finalOutput"]["systemMessage"].as_str().unwrap();
    assert_eq!(message.len(), 10 * 1024 * 1024);
}

#[test]
fn failure_policy_block_turns_a_limit_into_a_block() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![with(adversary("spin"),
        json!({"fuel": 10_000_000, "failurePolicy": "block"}))])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert_eq!(fired.code, 2, "{}", fired.out);
    let reason = fired.out["finalOutput"]["reason"].as_str().unwrap();
    assert!(
        reason.contains("ran out of fuel (limit 10000000 units)"),
        "{reason}"
    );
}

#[test]
fn check_lists_plugin_limits() {
    let p = Project::new();
    p.settings(
        json!({"BeforeTool": [group(vec![with(plugin(guests::ECHO_POLICY),
        json!({"fuel": 777, "memoryLimit": 8_388_608, "timeout": 1234}))])]}),
    );
    let run = p.check(&[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = run.stdout_text();
    assert!(text.contains("fuel 777"), "{text}");
    assert!(text.contains("memoryLimit 8388608"), "{text}");
    assert!(text.contains("timeout 1234 ms"), "{text}");
    assert!(text.contains("[plugin]"), "{text}");
}
