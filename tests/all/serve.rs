//! `hookhost serve`: the MessageBus contract over JSON Lines (CONTRACT §1b) — requests
//! answered concurrently and out of order, errors that keep the server going, EOF that
//! drains, settings reloaded on change — and the Node.js client of `examples/node`.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{Project, Server, cmd, exit_within, group, say};

fn message(response: &Value) -> &str {
    response["output"]["finalOutput"]["systemMessage"]
        .as_str()
        .unwrap_or_else(|| panic!("no systemMessage in {response}"))
}

fn slow_and_fast(project: &Project) {
    project.settings(json!({
        "BeforeTool": [
            {"matcher": "slow_tool", "hooks": [cmd("sleep 1; echo slow")]},
            {"matcher": "fast_tool", "hooks": [cmd(&say("fast"))]},
        ]
    }));
}

#[test]
fn concurrent_requests_are_answered_out_of_order() {
    let project = Project::new();
    slow_and_fast(&project);
    let mut server = Server::start(&project);
    server.send("slow-1", "BeforeTool", json!({"tool_name": "slow_tool"}));
    server.send("fast-2", "BeforeTool", json!({"tool_name": "fast_tool"}));
    let first = server.next();
    let second = server.next();
    assert_eq!(first["correlationId"], "fast-2", "{first}");
    assert_eq!(message(&first), "fast");
    assert_eq!(second["correlationId"], "slow-1", "{second}");
    assert_eq!(message(&second), "slow");
    assert_eq!(first["success"], true);
    assert_eq!(server.finish().0, 0);
}

/// A waiting client's request is tried inline on the reading thread (issue 9), but
/// a hook that has to wait must not stop the reading: a request sent while a slow
/// hook runs is answered first.
#[test]
fn a_slow_hook_does_not_hold_up_the_next_request() {
    let project = Project::new();
    slow_and_fast(&project);
    let mut server = Server::start(&project);
    server.send("slow-1", "BeforeTool", json!({"tool_name": "slow_tool"}));
    // Long enough that the server has read the first line alone and started it.
    std::thread::sleep(Duration::from_millis(300));
    server.send("fast-2", "BeforeTool", json!({"tool_name": "fast_tool"}));
    let first = server.next();
    assert_eq!(first["correlationId"], "fast-2", "{first}");
    assert_eq!(message(&first), "fast");
    let second = server.next();
    assert_eq!(second["correlationId"], "slow-1", "{second}");
    assert_eq!(server.finish().0, 0);
}

#[test]
fn malformed_line_gets_an_error_and_serving_continues() {
    let project = Project::new();
    project.settings(json!({"BeforeTool": [group(vec![cmd(&say("ok"))])]}));
    let mut server = Server::start(&project);
    server.send_line("{not json");
    let error = server.next();
    assert_eq!(error["success"], false, "{error}");
    assert_eq!(error["error"]["code"], "INVALID_JSON", "{error}");
    assert!(error["correlationId"].is_null(), "{error}");
    server.send_line(r#"{"eventName": "BeforeTool"}"#);
    let error = server.next();
    assert_eq!(error["error"]["code"], "INVALID_REQUEST", "{error}");
    server.send("after", "BeforeTool", json!({"tool_name": "x"}));
    let answer = server.next();
    assert_eq!(answer["correlationId"], "after");
    assert_eq!(answer["success"], true);
    assert_eq!(message(&answer), "ok");
    assert_eq!(server.finish().0, 0);
}

#[test]
fn unknown_event_is_an_error_with_the_correlation_id() {
    let project = Project::new();
    project.settings(json!({}));
    let mut server = Server::start(&project);
    server.send("id-7", "BeforeLunch", json!({}));
    let error = server.next();
    assert_eq!(error["correlationId"], "id-7", "{error}");
    assert_eq!(error["success"], false, "{error}");
    assert_eq!(error["error"]["code"], "UNKNOWN_EVENT", "{error}");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("BeforeLunch"),
        "{error}"
    );
    // A numeric correlation id comes back as it was sent.
    server.send_line(r#"{"correlationId": 42, "eventName": "Notification", "input": {}}"#);
    let answer = server.next();
    assert_eq!(answer["correlationId"], 42, "{answer}");
    assert_eq!(answer["success"], true, "{answer}");
    assert_eq!(server.finish().0, 0);
}

#[test]
fn eof_drains_in_flight_requests_and_exits_zero() {
    let project = Project::new();
    project.settings(json!({
        "BeforeTool": [group(vec![cmd("sleep 0.5; echo drained")])]
    }));
    let mut server = Server::start(&project);
    server.send("a", "BeforeTool", json!({"tool_name": "x"}));
    server.send("b", "BeforeTool", json!({"tool_name": "y"}));
    let (code, responses) = server.finish();
    assert_eq!(code, 0);
    let mut ids: Vec<&str> = responses
        .iter()
        .map(|r| r["correlationId"].as_str().unwrap())
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, ["a", "b"], "{responses:?}");
    for response in &responses {
        assert_eq!(message(response), "drained");
    }
}

#[test]
fn settings_reload_when_the_file_changes() {
    let project = Project::new();
    project.settings(json!({"BeforeTool": [group(vec![cmd(&say("before"))])]}));
    let mut server = Server::start(&project);
    server.send("1", "BeforeTool", json!({"tool_name": "x"}));
    assert_eq!(message(&server.next()), "before");
    // Different length as well as a later mtime, so coarse timestamps cannot hide it.
    project.settings(json!({"BeforeTool": [group(vec![cmd(&say("after-the-reload"))])]}));
    let deadline = Instant::now() + Duration::from_secs(10);
    std::thread::sleep(Duration::from_millis(1200));
    let mut seen;
    loop {
        server.send("2", "BeforeTool", json!({"tool_name": "x"}));
        seen = message(&server.next()).to_owned();
        if seen == "after-the-reload" || Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(seen, "after-the-reload");
    assert_eq!(server.finish().0, 0);
}

/// The Node.js client of `examples/node` against the real binary: responses resolve
/// the right promises when they arrive out of order, and errors reject with a code.
#[test]
fn node_client_resolves_out_of_order_responses() {
    if Command::new("node").arg("--version").output().is_err() {
        println!("SKIPPED node_client_resolves_out_of_order_responses: `node` is not installed");
        return;
    }
    let project = Project::new();
    slow_and_fast(&project);
    let client = crate::common::repo()
        .join("examples/node/hookhost-client.mjs")
        .canonicalize()
        .expect("examples/node/hookhost-client.mjs");
    let driver = project.write(
        "driver.mjs",
        format!(
            r#"import {{ HookhostClient }} from {client:?};
const hooks = new HookhostClient({{ bin: process.env.HOOKHOST_BIN, projectDir: process.env.PROJECT }});
const order = [];
const slow = hooks.fire('BeforeTool', {{ tool_name: 'slow_tool' }}).then((r) => {{ order.push('slow'); return r; }});
const fast = hooks.fire('BeforeTool', {{ tool_name: 'fast_tool' }}).then((r) => {{ order.push('fast'); return r; }});
const unknown = hooks.fire('BeforeLunch', {{}}).then(() => 'resolved', (e) => e.code);
const [s, f, u] = await Promise.all([slow, fast, unknown]);
const exit = await hooks.close();
console.log(JSON.stringify({{ order, slow: s.finalOutput.systemMessage, fast: f.finalOutput.systemMessage, unknown: u, exit }}));
"#,
            client = client.display().to_string()
        ),
    );
    let mut command = project.command();
    command
        .env("HOOKHOST_BIN", crate::common::BIN)
        .env("PROJECT", project.dir());
    let mut command_node = Command::new("node");
    command_node.arg(&driver);
    for (k, v) in command.get_envs() {
        match v {
            Some(v) => command_node.env(k, v),
            None => command_node.env_remove(k),
        };
    }
    command_node.current_dir(project.outside());
    let run = crate::common::run(command_node, b"");
    assert_eq!(run.code, 0, "node driver failed: {}", run.stderr);
    let out: Value = serde_json::from_slice(&run.stdout)
        .unwrap_or_else(|e| panic!("driver output is not JSON ({e}): {}", run.stdout_text()));
    assert_eq!(out["order"], json!(["fast", "slow"]), "{out}");
    assert_eq!(out["slow"], "slow");
    assert_eq!(out["fast"], "fast");
    assert_eq!(out["unknown"], "UNKNOWN_EVENT");
    assert_eq!(out["exit"]["code"], 0, "{out}");
}

/// `serve.maxInFlight` in the user's settings bounds concurrency like the flag: a hook
/// that fails when it overlaps itself never overlaps with the limit at 1, and does
/// without it (so the test can fail).
#[test]
fn serve_limits_come_from_the_users_settings() {
    let overlaps = |limit: Option<u64>| {
        let p = Project::new();
        let mut settings = json!({"tools": {"enableHooks": true}, "hooks": {"BeforeTool": [group(vec![cmd(
            "mkdir \"$LLXPRT_PROJECT_DIR/lock\" || exit 3; sleep 0.3; rmdir \"$LLXPRT_PROJECT_DIR/lock\"",
        )])]}});
        if let Some(limit) = limit {
            settings["serve"] = json!({"maxInFlight": limit});
        }
        let dir = p.home().join(".llxprt");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("settings.json"), settings.to_string()).unwrap();
        let mut server = Server::start(&p);
        for id in ["a", "b", "c"] {
            server.send(id, "BeforeTool", json!({"tool_name": "t"}));
        }
        let failed = (0..3)
            .map(|_| server.next())
            .filter(|answer| {
                !answer["output"]["errors"]
                    .as_array()
                    .is_none_or(Vec::is_empty)
            })
            .count();
        server.finish();
        failed
    };
    assert_eq!(
        overlaps(Some(1)),
        0,
        "maxInFlight 1 must serialise the requests"
    );
    assert!(overlaps(None) > 0, "without the limit the requests overlap");
}

/// A client that pipelines requests and stops reading its answers: stdout fills, the
/// answers cannot be written. SIGTERM must still end the server — within the 10 s
/// it grants the answers (WRITE_LIMIT) plus a margin — instead of waiting for ever
/// on a write nobody will read.
#[test]
fn a_pipelining_client_that_stops_reading_does_not_stop_the_shutdown() {
    let project = Project::new();
    std::fs::copy(hookhost_tests::ECHO_POLICY, project.path("policy.wasm")).unwrap();
    project.settings(json!({"BeforeTool": [{"hooks": [
        {"type": "plugin", "path": "policy.wasm"}
    ]}]}));
    let mut child = project
        .command()
        .arg("serve")
        .arg("--project-dir")
        .arg(project.dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn hookhost serve");
    // Kept open and never read: the server's writes block once the pipe is full.
    let _stdout = child.stdout.take();
    let mut stdin = child.stdin.take().expect("stdin");
    // Thousands of ~1 KiB answers, far more than a pipe holds; the writer thread
    // blocks too once the server stops reading its input (backpressure).
    std::thread::spawn(move || {
        for i in 0..5_000 {
            let request = json!({"correlationId": i, "eventName": "BeforeTool",
                "input": {"tool_name": "write_file", "tool_input": {"path": "/tmp/x"}}});
            if writeln!(stdin, "{request}").is_err() {
                break;
            }
        }
        stdin
    });
    std::thread::sleep(Duration::from_secs(2));
    let pid = rustix::process::Pid::from_raw(child.id() as i32).expect("a pid");
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).expect("SIGTERM");
    let limit = Duration::from_secs(10 + 15);
    let Some(status) = exit_within(&mut child, Instant::now(), limit) else {
        panic!("hookhost serve still running {limit:?} after SIGTERM");
    };
    assert!(status.code().is_some(), "{status:?}");
}

/// `asyncRewake` (seeds/003): the answer does not wait for the hook, and when it
/// blocks later the server writes a `{"notice": …}` line for the agent to wake its
/// model with.
#[test]
fn an_async_rewake_block_becomes_a_notice_line() {
    let project = Project::new();
    project.settings(json!({"AfterAgent": [group(vec![json!({
        "type": "command", "asyncRewake": true, "timeout": 10_000,
        "command": "sleep 0.3; echo found a vulnerability >&2; exit 2",
    })])]}));
    let mut server = Server::start(&project);
    server.send("s-1", "AfterAgent", json!({"session_id": "sess-9"}));
    let answer = server.next();
    assert_eq!(answer["correlationId"], "s-1", "{answer}");
    assert!(
        answer["output"]["finalOutput"]["decision"].is_null(),
        "{answer}"
    );
    assert_eq!(
        answer["output"]["background"][0]["mode"], "asyncRewake",
        "{answer}"
    );
    let notice = server.next();
    assert_eq!(notice["notice"]["event"], "AfterAgent", "{notice}");
    assert_eq!(notice["notice"]["sessionId"], "sess-9", "{notice}");
    assert!(
        notice["notice"]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("found a vulnerability")),
        "{notice}"
    );
    let (code, _) = server.finish();
    assert_eq!(code, 0);
}
