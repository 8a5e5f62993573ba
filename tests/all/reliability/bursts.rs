//! Bursts through `hookhost serve`: the hook processes of all requests share one cap and
//! a stream's requests in flight are capped, queued guard plugins wait before their
//! timeout starts, and a 64 MiB line is refused while serving goes on.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use hookhost_tests as guests;
use serde_json::{Value, json};

use crate::common::{MaxSampler, Project, Server, cache_dir, cmd, group};

/// A command hook that marks itself running in `running/` while it sleeps, so a
/// sampler can count how many run at once.
fn counting_hook(p: &Project, seconds: &str) -> String {
    std::fs::create_dir_all(p.path("running")).unwrap();
    p.script(
        "count.sh",
        &format!(
            "d='{}/running'\n: > \"$d/$$\"\nsleep {seconds}\nrm -f \"$d/$$\"\necho counted",
            p.dir().display()
        ),
    )
}

/// Samples the number of entries of a directory until stopped.
fn sample_entries(dir: PathBuf) -> MaxSampler {
    MaxSampler::start(Duration::from_millis(2), move || {
        std::fs::read_dir(&dir).map_or(0, Iterator::count)
    })
}

/// Sends `n` requests at once, then reads `n` answers; checks each id is answered
/// exactly once and returns the answers by id.
fn burst(server: &mut Server, n: usize, input: &Value) -> HashMap<String, Value> {
    let mut lines = String::new();
    for i in 0..n {
        let request =
            json!({"correlationId": format!("r{i}"), "eventName": "BeforeTool", "input": input});
        lines.push_str(&request.to_string());
        lines.push('\n');
    }
    server.send_line(lines.trim_end());
    let mut answers = HashMap::new();
    for _ in 0..n {
        let answer = server.next();
        let id = answer["correlationId"].as_str().unwrap().to_owned();
        assert!(
            answers.insert(id.clone(), answer).is_none(),
            "{id} answered twice"
        );
    }
    answers
}

/// Issue 14, seen 1: 2,000 lines at once with a `sleep 2` hook ran 1,331 `sleep`s at
/// the same moment. Now the hook processes of all requests share one cap, and a
/// stream's requests in flight are capped too (reading pauses).
#[test]
fn a_burst_never_runs_more_hook_processes_than_the_cap() {
    let p = Project::new();
    let hook = counting_hook(&p, "0.2");
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));

    let mut server = Server::start_with(&p, &["--max-processes", "3"], &[]);
    let sampler = sample_entries(p.path("running"));
    let answers = burst(&mut server, 60, &json!({"tool_name": "t"}));
    let max = sampler.max();
    assert!(max <= 3, "{max} hook processes ran at once; the cap is 3");
    assert!(
        max >= 2,
        "the hooks did not run concurrently at all ({max})"
    );
    let mut queued = 0;
    for answer in answers.values() {
        assert_eq!(answer["success"], true, "{answer}");
        assert_eq!(answer["output"]["finalOutput"]["systemMessage"], "counted");
        let hook = &answer["output"]["hooks"][0];
        // The time spent waiting is reported apart from the run.
        if hook["queuedMs"].as_f64().is_some_and(|ms| ms > 50.0) {
            queued += 1;
            assert!(hook["duration"].as_f64().unwrap() < 2_000.0, "{hook}");
        }
    }
    assert!(queued > 30, "only {queued} of 60 answers report queueing");
    assert_eq!(server.finish().0, 0);

    // --max-in-flight bounds the requests of the stream being fired at once.
    let mut server = Server::start_with(&p, &["--max-in-flight", "2", "--max-processes", "8"], &[]);
    let sampler = sample_entries(p.path("running"));
    let answers = burst(&mut server, 12, &json!({"tool_name": "t"}));
    let max = sampler.max();
    assert!(max <= 2, "{max} requests in flight; --max-in-flight is 2");
    assert_eq!(answers.len(), 12);
    assert_eq!(server.finish().0, 0);
}

/// Issue 14, seen 2: 400 requests at once for a 40 ms guard plugin with `timeout:
/// 400` — 112 timed out waiting for a pool slot, and a timeout fails open. Now the
/// wait comes before the timeout starts: every request is blocked by the guard.
#[test]
fn queued_guard_plugins_do_not_time_out() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![json!({
        "type": "plugin", "path": guests::ADVERSARY, "args": ["nap"], "timeout": 400
    })])]}));
    let cache = cache_dir();
    // All 400 in flight at once (past the default cap of 64, which alone would keep
    // the queue short): the 32 pool slots are the only bound.
    let mut server = Server::start_with(
        &p,
        &["--max-in-flight", "1000"],
        &[("HOOKHOST_CACHE_DIR", &cache)],
    );
    let answers = burst(
        &mut server,
        400,
        &json!({"tool_name": "t", "tool_input": {"ms": "40"}}),
    );
    let mut queued = 0;
    for answer in answers.values() {
        let output = &answer["output"];
        assert_eq!(output["errors"], json!([]), "{answer}");
        assert_eq!(output["finalOutput"]["decision"], "block", "{answer}");
        assert_eq!(output["finalOutput"]["reason"], "adversary: nap");
        if output["hooks"][0]["queuedMs"].as_f64().is_some() {
            queued += 1;
        }
    }
    assert!(
        queued > 0,
        "no call waited for a pool slot: the test proves nothing"
    );
    assert_eq!(server.finish().0, 0);
}

/// A 64 MiB request line is answered LINE_TOO_LONG (not buffered for ever, not a
/// crash) and the next request is served.
#[test]
fn a_sixty_four_mib_line_is_refused_and_serving_goes_on() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![cmd("echo fine")])]}));
    let mut server = Server::start(&p);
    let huge = format!(
        "{{\"correlationId\":\"huge\",\"eventName\":\"BeforeTool\",\"input\":{{\"x\":\"{}\"}}}}",
        "x".repeat(64 * 1024 * 1024)
    );
    server.send_line(&huge);
    let refused = server.next();
    assert_eq!(refused["error"]["code"], "LINE_TOO_LONG", "{refused}");
    server.send("after", "BeforeTool", json!({"tool_name": "t"}));
    let answer = server.next();
    assert_eq!(answer["correlationId"], "after");
    assert_eq!(answer["output"]["finalOutput"]["systemMessage"], "fine");
    assert_eq!(server.finish().0, 0);
}
