//! `async`, `asyncRewake`, `once` and `statusMessage`.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::{Project, group, run};

fn background(command: &str, mode: &str, timeout_ms: u64) -> serde_json::Value {
    json!({"type": "command", "command": command, mode: true, "timeout": timeout_ms})
}

/// Three `async` hooks of 1 s each: the answer does not wait for them (its own
/// duration is far below theirs), they run to the end after it, and the
/// one-shot process stays until they did.
#[test]
fn async_hooks_do_not_delay_the_answer_and_still_run() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![
        background("sleep 1; echo a > a.txt", "async", 10_000),
        background("sleep 1; echo b > b.txt", "async", 10_000),
        background("sleep 1; echo c > c.txt", "async", 10_000),
        json!({"type": "command", "command": "echo sync", "statusMessage": "checking…"}),
    ])]}));
    let start = Instant::now();
    let fired = p.fire_flags("BeforeTool", json!({"tool_name": "t"}), &["--explain"]);
    fired.assert_clean();
    let took = fired.out["totalDuration"].as_f64().unwrap_or(f64::MAX);
    assert!(took < 900.0, "the fire waited {took} ms");
    assert_eq!(fired.final_output()["systemMessage"], "sync");
    assert_eq!(
        fired.out["background"].as_array().map(Vec::len),
        Some(3),
        "{:#?}",
        fired.out
    );
    for file in ["a.txt", "b.txt", "c.txt"] {
        assert!(
            p.exists(file),
            "{file}: the background hook did not finish before exit"
        );
    }
    assert!(start.elapsed() < Duration::from_secs(30));
    assert!(
        fired.stderr.contains("started in the background (async"),
        "{}",
        fired.stderr
    );
    assert!(
        fired.stderr.contains("status: checking…"),
        "{}",
        fired.stderr
    );
}

/// An `async` hook that never ends is still killed at its timeout, after the fire
/// returned.
#[test]
fn an_async_hook_that_never_ends_is_killed_at_its_timeout() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![
        background("sleep 60; echo late > late.txt", "async", 500),
    ])]}));
    let start = Instant::now();
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    fired.assert_clean();
    // 500 ms timeout + at most the 5 s kill grace, with a generous margin.
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "took {:?}",
        start.elapsed()
    );
    assert!(!p.exists("late.txt"));
}

/// An `asyncRewake` block does not block the fire; a one-shot process says on
/// stderr that it came too late to reach the agent.
#[test]
fn an_async_rewake_block_is_reported_not_enforced() {
    let p = Project::new();
    p.settings(json!({"Stop": [group(vec![
        background("echo found a vulnerability >&2; exit 2", "asyncRewake", 10_000),
    ])]}));
    let fired = p.fire("Stop", json!({}));
    assert!(fired.final_output()["decision"].is_null(), "{fired:#?}");
    assert!(
        fired.stderr.contains("asyncRewake hook") && fired.stderr.contains("found a vulnerability"),
        "{}",
        fired.stderr
    );
}

/// `once`: one run per session, also across separate processes.
#[test]
fn once_runs_once_per_session_across_processes() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![
        json!({"type": "command", "command": "echo x >> runs.txt", "once": true}),
    ])]}));
    let state = p.home().join(".state");
    let fire = |session: &str| {
        let mut command = p.command();
        command
            .args(["fire", "BeforeTool", "--project-dir"])
            .arg(p.dir())
            .env("XDG_STATE_HOME", &state);
        let input = json!({"tool_name": "t", "session_id": session});
        let out = run(command, input.to_string().as_bytes());
        assert_eq!(out.code, 0, "{out:?}");
    };
    fire("session-a");
    fire("session-a");
    fire("session-a");
    assert_eq!(p.read("runs.txt").lines().count(), 1);
    fire("session-b");
    assert_eq!(p.read("runs.txt").lines().count(), 2);
}
