//! Soak: 10,000 fires through one `HookSystem` (the library API), mixing plugin hooks
//! (most of them: healthy, blocking, trapping, failing, out of fuel), command hooks
//! (healthy, blocking, failing) and a few timeouts of both kinds — then no leftover
//! process, no zombie, no file-descriptor growth and bounded resident memory.
//!
//! Every fire's outcome is checked exactly too, so the soak is also a correctness test
//! under load (8 fires in flight at a time).
//!
//! Measurements are process-wide (`/proc/self`) while other tests of this binary run
//! in parallel threads, hence the slack in the bounds and the polling for zombies.

use std::path::Path;
use std::time::{Duration, Instant};

use futures::future::join_all;
use hookhost::EngineOptions;
use hookhost::{AggregatedHookResult, HookEvent, HookSystem};
use hookhost_tests as guests;
use serde_json::{Map, Value, json};

use crate::common::{Project, cache_dir, cmd, cmd_timeout, eventually, processes_with, rss_kib};

/// Total fires; the first [`WARM_UP`] are not measured.
const FIRES: usize = 10_000;
const WARM_UP: usize = 500;
/// Fires in flight at once.
const CONCURRENCY: usize = 8;
/// Allowed growth of open file descriptors (other tests run in parallel).
const FD_SLACK: usize = 24;
/// Allowed growth of resident memory after the warm-up.
const RSS_SLACK_KIB: u64 = 64 * 1024;

/// What one kind of fire must produce.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Expect {
    /// Allowed, clean (optionally with this system message).
    Allow(Option<&'static str>),
    /// Blocked with this reason.
    Block(&'static str),
    /// Failed open with an error containing this text.
    Fail(&'static str),
}

/// The tool names (each selects one hook group) and how often each is fired out of
/// 10,000. Command hooks: 500; timeouts: 6; the rest plugins.
const MIX: &[(&str, usize, Expect)] = &[
    ("echo_allow", 4_494, Expect::Allow(None)),
    (
        "echo_block",
        3_000,
        Expect::Block("echo-policy: writing to /etc/passwd is prohibited"),
    ),
    ("trap", 800, Expect::Fail("trapped")),
    ("exit1", 800, Expect::Fail("exited with code 1")),
    (
        "spin",
        200,
        Expect::Fail("ran out of fuel (limit 2000000 units)"),
    ),
    ("exit2", 200, Expect::Block("adversary: exit2")),
    ("cmd_ok", 300, Expect::Allow(Some("soak ok"))),
    ("cmd_block", 100, Expect::Block("soak block")),
    ("cmd_fail", 100, Expect::Fail("exited with code 3")),
    ("cmd_slow", 3, Expect::Fail("timed out after 200 ms")),
    ("plugin_sleep", 3, Expect::Fail("timed out after 200 ms")),
];

fn marker() -> String {
    format!("hookhost-soak-{}", std::process::id())
}

fn settings(p: &Project) -> std::path::PathBuf {
    let marker = marker();
    let adversary =
        |mode: &str| json!({"type": "plugin", "path": guests::ADVERSARY, "args": [mode]});
    let mut spin = adversary("spin");
    spin["fuel"] = json!(2_000_000);
    let mut sleep = adversary("sleep");
    sleep["timeout"] = json!(200);
    let echo = json!({"type": "plugin", "path": guests::ECHO_POLICY});
    let groups = [
        ("^echo_", echo),
        ("^trap$", adversary("trap")),
        ("^exit1$", adversary("exit1")),
        ("^spin$", spin),
        ("^exit2$", adversary("exit2")),
        ("^plugin_sleep$", sleep),
        (
            "^cmd_ok$",
            cmd(&format!(
                r#"echo '{{"systemMessage":"soak ok"}}' # {marker}"#
            )),
        ),
        (
            "^cmd_block$",
            cmd(&format!(
                r#"echo '{{"decision":"block","reason":"soak block"}}'; exit 2 # {marker}"#
            )),
        ),
        (
            "^cmd_fail$",
            cmd(&format!("echo failing >&2; exit 3 # {marker}")),
        ),
        // `sleep 31.4159`: a distinctive argv to look for afterwards.
        (
            "^cmd_slow$",
            cmd_timeout(&format!("sleep 31.4159 # {marker}"), 200),
        ),
    ];
    let groups: Vec<Value> = groups
        .into_iter()
        .map(|(matcher, hook)| json!({"matcher": matcher, "hooks": [hook]}))
        .collect();
    p.settings(json!({"BeforeTool": groups}))
}

fn input(tool: &str) -> Map<String, Value> {
    let path = if tool == "echo_block" {
        "/etc/passwd"
    } else {
        "src/lib.rs"
    };
    json!({"tool_name": tool, "tool_input": {"path": path}})
        .as_object()
        .cloned()
        .unwrap()
}

fn check(tool: &str, expect: Expect, result: &AggregatedHookResult) {
    let what = || format!("{tool}: {:?} / {:?}", result.final_output, result.errors);
    assert_eq!(result.executions.len(), 1, "{}", what());
    match expect {
        Expect::Allow(message) => {
            assert!(!result.is_blocked(), "{}", what());
            assert!(result.errors.is_empty(), "{}", what());
            assert_eq!(
                result.final_output.system_message.as_deref(),
                message,
                "{}",
                what()
            );
        }
        Expect::Block(reason) => {
            assert!(result.is_blocked(), "{}", what());
            assert_eq!(result.block_reason(), Some(reason), "{}", what());
            assert!(result.errors.is_empty(), "{}", what());
        }
        Expect::Fail(text) => {
            assert!(!result.is_blocked(), "{}", what());
            assert!(!result.success, "{}", what());
            assert_eq!(result.errors.len(), 1, "{}", what());
            assert!(result.errors[0].contains(text), "{}", what());
            assert!(result.errors[0].ends_with("(failing open)"), "{}", what());
        }
    }
}

/// The schedule: every kind spread evenly over the run (a deterministic interleave).
fn schedule() -> Vec<(&'static str, Expect)> {
    let total: usize = MIX.iter().map(|(_, n, _)| n).sum();
    assert_eq!(total, FIRES);
    let mut keyed: Vec<(u64, &'static str, Expect)> = Vec::with_capacity(total);
    for (tool, n, expect) in MIX {
        for i in 0..*n {
            // Position i of n spread over [0, 1), offset by the kind.
            let key = ((i as u64 * 2 + 1) << 32) / (*n as u64 * 2) + tool.len() as u64;
            keyed.push((key, tool, *expect));
        }
    }
    keyed.sort_by_key(|(key, tool, _)| (*key, *tool));
    keyed.into_iter().map(|(_, t, e)| (t, e)).collect()
}

fn fd_count() -> usize {
    std::fs::read_dir("/proc/self/fd").unwrap().count()
}

/// Zombie children of this process that ran `comm` (e.g. `sh`).
fn zombie_children(comm: &str) -> Vec<i32> {
    let me = std::process::id().to_string();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().filter_map(Result::ok) {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid …
        let Some((head, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let name = head.split_once('(').map(|(_, n)| n).unwrap_or_default();
        let mut fields = rest.split_whitespace();
        let (state, ppid) = (fields.next(), fields.next());
        if name == comm && state == Some("Z") && ppid == Some(me.as_str()) {
            found.extend(
                head.split_whitespace()
                    .next()
                    .and_then(|p| p.parse::<i32>().ok()),
            );
        }
    }
    found
}

fn build(p: &Project, settings: &Path) -> HookSystem {
    HookSystem::builder()
        .project_dir(p.dir())
        .settings_files([settings])
        .session_id("soak")
        .engine_options(EngineOptions {
            cache_dir: Some(cache_dir().into()),
            ..EngineOptions::default()
        })
        .build()
}

#[tokio::test(flavor = "multi_thread")]
async fn ten_thousand_mixed_fires_leak_nothing() {
    let start = Instant::now();
    let p = Project::new();
    let settings = settings(&p);
    let system = build(&p, &settings);
    assert!(
        system.report().diagnostics().is_empty(),
        "{:?}",
        system.report().diagnostics()
    );
    let schedule = schedule();
    let mut baseline = None;
    let mut done = 0;
    let mut slowest = Duration::ZERO;
    for batch in schedule.chunks(CONCURRENCY) {
        if done >= WARM_UP && baseline.is_none() {
            baseline = Some((fd_count(), rss_kib()));
        }
        let fires = batch.iter().map(|(tool, _)| {
            let system = &system;
            async move {
                let t = Instant::now();
                let result = system.fire(HookEvent::BeforeTool, input(tool)).await;
                (result, t.elapsed())
            }
        });
        for ((tool, expect), (result, took)) in batch.iter().zip(join_all(fires).await) {
            check(tool, *expect, &result);
            slowest = slowest.max(took);
        }
        done += batch.len();
    }
    assert_eq!(done, FIRES);
    let (fds_before, rss_before) = baseline.unwrap();
    drop(system);

    let marker = marker();
    let leftovers = eventually(Duration::from_secs(3), || {
        let mut left = processes_with(&marker);
        left.extend(processes_with("sleep 31.4159"));
        left
    });
    assert!(leftovers.is_empty(), "processes left behind: {leftovers:?}");
    let zombies = eventually(Duration::from_secs(3), || zombie_children("sh"));
    assert!(zombies.is_empty(), "zombie hook processes: {zombies:?}");
    let fd_growth = eventually(Duration::from_secs(3), || {
        fd_count().saturating_sub(fds_before + FD_SLACK)
    });
    assert_eq!(
        fd_growth,
        0,
        "open fds grew from {fds_before} to {}",
        fd_count()
    );
    let rss_after = rss_kib();
    assert!(
        rss_after < rss_before + RSS_SLACK_KIB,
        "RSS grew from {rss_before} KiB to {rss_after} KiB over {} fires",
        FIRES - WARM_UP
    );
    eprintln!(
        "soak: {FIRES} fires in {:?} (slowest {slowest:?}); fds {fds_before} -> {}; RSS {rss_before} -> {rss_after} KiB",
        start.elapsed(),
        fd_count()
    );
}
