//! `async`, `asyncRewake`, `once` and `statusMessage`.

use std::time::Duration;

use serde_json::json;

use crate::common::{Project, eventually, group, processes_with, read_pid, run, wait_gone};

fn background(command: &str, mode: &str, timeout_ms: u64) -> serde_json::Value {
    json!({"type": "command", "command": command, mode: true, "timeout": timeout_ms})
}

/// Three `async` hooks of 5 s each: the one-shot process answers and exits without
/// them (issue 37: an agent waits for its hook process), and they still run to the
/// end — in a detached process that got the same input.
#[test]
fn async_hooks_do_not_delay_the_answer_and_still_run() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![
        background("sleep 5; cat > a.json", "async", 30_000),
        background("sleep 5; echo b > b.txt", "async", 30_000),
        background("sleep 5; echo c > c.txt", "async", 30_000),
        json!({"type": "command", "command": "echo sync", "statusMessage": "checking…"}),
    ])]}));
    let fired = p.fire_flags("BeforeTool", json!({"tool_name": "t"}), &["--explain"]);
    fired.assert_clean();
    // The process has exited; the hooks sleep 5 s before they write.
    for file in ["a.json", "b.txt", "c.txt"] {
        assert!(
            !p.exists(file),
            "{file}: the fire waited for its background hooks"
        );
    }
    assert_eq!(fired.final_output()["systemMessage"], "sync");
    assert_eq!(fired.out["backgroundDetached"], true, "{:#?}", fired.out);
    assert!(
        fired.stderr.contains("run in a detached process"),
        "{}",
        fired.stderr
    );
    assert!(
        fired.stderr.contains("status: checking…"),
        "{}",
        fired.stderr
    );
    let missing = eventually(Duration::from_secs(30), || {
        ["a.json", "b.txt", "c.txt"]
            .into_iter()
            .filter(|f| !p.exists(f))
            .collect::<Vec<_>>()
    });
    assert!(
        missing.is_empty(),
        "background hooks never wrote {missing:?}"
    );
    // `cat > a.json` creates the file before it writes it.
    let unread = eventually(Duration::from_secs(5), || {
        serde_json::from_str::<serde_json::Value>(&p.read("a.json")).is_err()
    });
    assert!(!unread, "a.json: {}", p.read("a.json"));
    let input: serde_json::Value =
        serde_json::from_str(&p.read("a.json")).expect("the hook's stdin");
    assert_eq!(input["tool_name"], "t", "{input}");
    assert_eq!(input["hook_event_name"], "BeforeTool", "{input}");
}

/// Inside an agent (`hookhost hook`, the case): the answer comes while the
/// `async` hook still runs, in a session of its own (the agent's kill of its hook's
/// process group does not reach it), with no pipe of the agent held.
#[test]
fn an_async_hook_does_not_hold_the_agents_turn() {
    let p = Project::new();
    p.claude_settings(json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "echo $$ > pid.txt; awk '{print $6}' /proc/self/stat > sid.txt; sleep 4; echo done > done.txt", "async": true, "timeout": 30},
        {"type": "command", "command": "echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"permissionDecision\": \"deny\", \"permissionDecisionReason\": \"NO\"}}'"},
    ]}]}));
    let stdin = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "ls"}, "session_id": "s", "cwd": p.dir(),
        "permission_mode": "default", "transcript_path": ""});
    let out = p.claude_hook(&stdin, &[]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        !p.exists("done.txt"),
        "the answer waited for the async hook"
    );
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON answer");
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecision"], "deny",
        "{answer}"
    );
    let gone = eventually(Duration::from_secs(30), || !p.exists("done.txt"));
    assert!(!gone, "the async hook never finished");
    let own = std::fs::read_to_string("/proc/self/stat").expect("own stat");
    let own_sid = own
        .rsplit(')')
        .next()
        .and_then(|r| r.split_whitespace().nth(3))
        .map(str::to_owned);
    let hook_sid = p.read("sid.txt").trim().to_owned();
    assert_ne!(
        Some(hook_sid.clone()),
        own_sid,
        "the async hook stayed in the caller's session"
    );
    // Nothing is left once it ended: neither the hook nor the detached hookhost.
    let pid = read_pid(&p, "pid.txt");
    assert!(
        wait_gone(pid, Duration::from_secs(10)),
        "the hook process {pid} is still there"
    );
    let left = eventually(Duration::from_secs(10), || {
        processes_with("--run-background")
            .into_iter()
            .filter(|(_, cmd)| cmd.contains("--claude-settings"))
            .count()
    });
    assert_eq!(left, 0, "a detached hookhost is still running");
}

/// An `async` hook that never ends is still killed at its timeout, by the detached
/// process, which then exits too.
#[test]
fn an_async_hook_that_never_ends_is_killed_at_its_timeout() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![
        background("echo $$ > pid.txt; sleep 60; echo late > late.txt", "async", 500),
    ])]}));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    fired.assert_clean();
    let absent = eventually(Duration::from_secs(10), || !p.exists("pid.txt"));
    assert!(!absent, "the background hook never started");
    let pid = read_pid(&p, "pid.txt");
    // 500 ms timeout + at most the 5 s kill grace, with a generous margin.
    assert!(
        wait_gone(pid, Duration::from_secs(20)),
        "the hook outlived its timeout"
    );
    assert!(!p.exists("late.txt"));
    let dir = p.dir().to_string_lossy().into_owned();
    let left = eventually(Duration::from_secs(10), || {
        processes_with("--run-background")
            .into_iter()
            .filter(|(_, cmd)| cmd.contains(&dir))
            .count()
    });
    assert_eq!(left, 0, "the detached hookhost did not exit");
}

/// An `asyncRewake` block does not block the fire; the hook runs after the answer
/// (a one-shot process cannot wake the agent: `hookhost serve` delivers it).
#[test]
fn an_async_rewake_block_is_reported_not_enforced() {
    let p = Project::new();
    p.settings(json!({"Stop": [group(vec![
        background("touch ran.txt; echo found a vulnerability >&2; exit 2", "asyncRewake", 10_000),
    ])]}));
    let fired = p.fire("Stop", json!({}));
    assert!(fired.final_output()["decision"].is_null(), "{fired:#?}");
    assert_eq!(fired.code, 0, "{fired:#?}");
    let absent = eventually(Duration::from_secs(10), || !p.exists("ran.txt"));
    assert!(!absent, "the asyncRewake hook never ran");
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
