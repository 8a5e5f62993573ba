//! Adversarial inputs: settings files that are a device, a FIFO or a directory, huge
//! and deeply nested settings, a huge and a deeply nested event.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{MARGIN, make_fifo};
use crate::common::{Project, cmd, group};

/// `--settings` naming a device, a FIFO or a directory is an error naming the file —
/// without reading it (`/dev/zero` never ends, a FIFO blocks) — and the other
/// settings still load.
#[test]
fn settings_that_are_a_device_a_fifo_or_a_directory_do_not_hang() {
    let p = Project::new();
    let fifo = p.outside().join("settings.fifo");
    make_fifo(&fifo);
    let dir = p.outside().join("settings.d");
    std::fs::create_dir_all(&dir).unwrap();
    let good = p.extra_settings(
        "good.json",
        json!({"BeforeTool": [group(vec![cmd("echo ok")])]}),
    );
    for bad in [Path::new("/dev/zero"), &fifo, &dir] {
        let check = p.check(&[bad]);
        assert_eq!(check.code, 1, "{}: {check:#?}", bad.display());
        assert!(
            check.elapsed < MARGIN,
            "{}: {:?}",
            bad.display(),
            check.elapsed
        );
        let expected = format!("settings {}: not a regular file", bad.display());
        assert!(check.stderr.contains(&expected), "{}", check.stderr);
        let fired = p.fire_settings("BeforeTool", json!({"tool_name": "t"}), &[bad, &good]);
        assert_eq!(fired.code, 0, "{fired:#?}");
        assert_eq!(fired.final_output()["systemMessage"], "ok");
        fired.single_error(&[&expected]);
    }
}

/// A 10 MB settings file (one hook and a 10 MB unknown key) loads and runs; one past
/// the 16 MiB limit is refused naming the limit.
#[test]
fn ten_megabyte_settings_load_and_seventeen_are_refused() {
    let p = Project::new();
    let padding = "x".repeat(10_000_000);
    p.settings_raw(&json!({
        "tools": {"enableHooks": true},
        "padding": padding,
        "hooks": {"BeforeTool": [group(vec![cmd("echo big settings")])]},
    }));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    fired.assert_clean();
    assert_eq!(fired.final_output()["systemMessage"], "big settings");
    assert!(fired.elapsed < MARGIN, "{:?}", fired.elapsed);

    let padding = "x".repeat(17 * 1024 * 1024);
    let path = p.settings_raw(&json!({
        "tools": {"enableHooks": true},
        "padding": padding,
        "hooks": {"BeforeTool": [group(vec![cmd("echo big settings")])]},
    }));
    let size = std::fs::metadata(&path).unwrap().len();
    let check = p.check(&[]);
    assert_eq!(check.code, 1);
    assert!(
        check.stderr.contains(&format!(
            "project settings .llxprt/settings.json: file is {size} bytes, larger than the 16777216-byte limit"
        )),
        "{}",
        check.stderr
    );
}

/// A 10 MB settings file of 100,000 distinct hooks (none fired): loading and
/// `hookhost check` stay fast.
#[test]
fn a_settings_file_of_a_hundred_thousand_hooks_loads_in_reasonable_time() {
    let p = Project::new();
    let hooks: Vec<Value> = (0..100_000)
        .map(|i| cmd(&format!("echo hook number {i:06} of the big settings")))
        .collect();
    let path = p.settings(json!({"BeforeTool": [{"matcher": "^never$", "hooks": hooks}]}));
    assert!(std::fs::metadata(&path).unwrap().len() > 9_000_000);
    let start = Instant::now();
    let check = p.check(&[]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "check of 100,000 hooks took {:?}",
        start.elapsed()
    );
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    fired.assert_clean();
    assert!(fired.hooks().is_empty());
}

/// Settings nested 10,000 arrays deep are invalid JSON (serde_json's recursion
/// limit), reported as such — not a stack overflow.
#[test]
fn deeply_nested_settings_are_invalid_json() {
    let p = Project::new();
    let deep = format!(
        r#"{{"tools": {{"enableHooks": true}}, "hooks": {}{}}}"#,
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    p.settings_text(&deep);
    let check = p.check(&[]);
    assert_eq!(check.code, 1, "{check:#?}");
    assert!(
        check.stderr.contains(
            "project settings .llxprt/settings.json: not valid JSON: recursion limit exceeded"
        ),
        "{}",
        check.stderr
    );
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    assert_eq!(fired.code, 0);
    fired.single_error(&["not valid JSON: recursion limit exceeded"]);
}

/// A 10 MB event reaches the hook whole.
#[test]
fn a_ten_megabyte_event_reaches_the_hook() {
    let p = Project::new();
    let hook = p.script("size.sh", "wc -c > size.txt\necho '{}'");
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let content = "y".repeat(10_000_000);
    let fired = p.fire(
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {"content": content}}),
    );
    fired.assert_clean();
    let size: usize = p.read("size.txt").trim().parse().unwrap();
    assert!((10_000_000..10_001_000).contains(&size), "{size}");
}

/// An event nested 100,000 levels deep is refused as invalid JSON with exit 1 —
/// no crash, and no hook runs.
#[test]
fn a_deeply_nested_event_is_a_usage_error() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![cmd("touch ran")])]}));
    let deep = format!(
        r#"{{"tool_name": "t", "tool_input": {}{}}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let mut command = p.command();
    command
        .arg("fire")
        .arg("BeforeTool")
        .arg("--project-dir")
        .arg(p.dir());
    let run = crate::common::run(command, deep.as_bytes());
    assert_eq!(run.code, 1, "{run:#?}");
    assert!(
        run.stderr.contains("stdin is not valid JSON") && run.stderr.contains("recursion limit"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty());
    assert!(!p.exists("ran"));
}
