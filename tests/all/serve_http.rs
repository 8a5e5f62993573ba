//! `hookhost serve --http` (CONTRACT §5, issue 26) as a real process driven over real
//! TCP: `POST /hook` answers as `hookhost hook` with every block a JSON decision
//! and status 200, `POST /fire/EVENT` as `hookhost fire`; the bearer token guards
//! every request (401, no hook runs); loopback only unless `--http-public`; named
//! errors (400, 404, 405, 413); a failed hook is a message, or a deny with
//! `--fail-closed`; a client that vanishes mid-request costs nothing; the settings
//! reload; SIGTERM and SIGINT drain; `--max-in-flight` bounds concurrency.

use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{
    HttpServer, Project, TOKEN, cmd, exit_within, group, post_bytes, request, say, signal_term,
};

/// A BeforeTool guard (Claude's `Write` is LLxprt's `write_file`): a `file_path`
/// under /etc blocks with "no PATH", anything else allows with `{}`.
fn guard(project: &Project) {
    project.settings(json!({"BeforeTool": [{"matcher": "write_file", "hooks": [cmd(
        r#"python3 -c 'import json,sys; p=json.load(sys.stdin)["tool_input"]["file_path"]; print(json.dumps({"decision":"block","reason":"no "+p}) if p.startswith("/etc") else "{}")'"#,
    )]}]}));
}

/// Claude Code's stdin for a PreToolUse of `Write` to `path`.
fn claude_write(path: &str) -> String {
    json!({"session_id": "s-1", "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp",
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Write",
        "tool_input": {"file_path": path, "content": "x"}})
    .to_string()
}

#[test]
fn a_claude_deny_is_a_json_decision_with_status_200_and_an_allow_is_too() {
    let project = Project::new();
    guard(&project);
    let server = HttpServer::start(&project, &[]);
    let denied = server.post_ok("/hook", &claude_write("/etc/passwd"));
    assert_eq!(denied.status, 200, "{denied:?}");
    let specific = &denied.body["hookSpecificOutput"];
    assert_eq!(specific["permissionDecision"], "deny", "{denied:?}");
    assert_eq!(specific["permissionDecisionReason"], "no /etc/passwd");
    assert_eq!(specific["hookEventName"], "PreToolUse");
    assert!(
        denied.headers.contains("content-type: application/json"),
        "{denied:?}"
    );
    let allowed = server.post_ok("/hook", &claude_write("src/a.rs"));
    assert_eq!(allowed.status, 200, "{allowed:?}");
    assert_eq!(allowed.body, json!({}), "{allowed:?}");
    assert!(server.terminate().success());
}

/// Where a command hook would exit 2 (Claude has no JSON form of a SessionStart
/// block), the HTTP answer is still 200 with a decision: a non-2xx would be a
/// non-blocking error to Claude.
#[test]
fn a_block_without_a_claude_json_form_is_still_a_decision() {
    let project = Project::new();
    project.settings(json!({"SessionStart": [group(vec![cmd("echo later >&2; exit 2")])]}));
    let server = HttpServer::start(&project, &[]);
    let input = json!({"hook_event_name": "SessionStart", "permission_mode": "default",
        "session_id": "s", "source": "startup"});
    let reply = server.post_ok("/hook", &input.to_string());
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body, json!({"decision": "block", "reason": "later"}));
}

#[test]
fn fire_answers_the_fire_result_and_names_an_unknown_event() {
    let project = Project::new();
    guard(&project);
    let server = HttpServer::start(&project, &[]);
    let input = json!({"tool_name": "write_file", "tool_input": {"file_path": "/etc/shadow"}});
    let fired = server.post_ok("/fire/BeforeTool", &input.to_string());
    assert_eq!(fired.status, 200, "{fired:?}");
    assert_eq!(fired.body["finalOutput"]["decision"], "block", "{fired:?}");
    assert_eq!(fired.body["finalOutput"]["reason"], "no /etc/shadow");
    assert_eq!(fired.body["hooks"].as_array().map(Vec::len), Some(1));
    // A Claude name, with Claude's tool name, as `hookhost fire PreToolUse` takes it.
    let claude = json!({"tool_name": "Write", "tool_input": {"file_path": "/etc/x"}});
    let fired = server.post_ok("/fire/PreToolUse", &claude.to_string());
    assert_eq!(fired.body["finalOutput"]["decision"], "block", "{fired:?}");
    let unknown = server.post_ok("/fire/BeforeLunch", "{}");
    assert_eq!(unknown.status, 404, "{unknown:?}");
    assert_eq!(unknown.code(), "UNKNOWN_EVENT");
    assert!(
        unknown.body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("BeforeLunch")),
        "{unknown:?}"
    );
}

/// No token, a wrong one, a prefix of the right one, another scheme: 401 with a JSON
/// error, and the hook never runs (its marker file stays absent) — until the right
/// token comes, which proves the marker would have appeared.
#[test]
fn requests_without_the_token_are_401_and_run_no_hook() {
    let project = Project::new();
    project
        .settings(json!({"BeforeTool": [group(vec![cmd("touch \"$LLXPRT_PROJECT_DIR/ran\"")])]}));
    let server = HttpServer::start(&project, &[]);
    let input = json!({"hook_event_name": "BeforeTool", "tool_name": "x"}).to_string();
    let prefix = &TOKEN[..TOKEN.len() - 1];
    for token in [None, Some("wrong"), Some(prefix), Some("")] {
        for path in ["/hook", "/fire/BeforeTool", "/nowhere"] {
            let reply = server.post(path, token, &input);
            assert_eq!(reply.status, 401, "{token:?} {path}: {reply:?}");
            assert_eq!(reply.code(), "UNAUTHORIZED", "{reply:?}");
            assert!(
                reply.headers.contains("www-authenticate: Bearer"),
                "{reply:?}"
            );
        }
    }
    let basic = format!(
        "POST /hook HTTP/1.1\r\nHost: x\r\nAuthorization: Basic {TOKEN}\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{input}",
        input.len()
    );
    assert_eq!(request(server.addr, basic.as_bytes()).status, 401);
    std::thread::sleep(Duration::from_millis(300));
    assert!(!project.exists("ran"), "a hook ran without the token");
    let reply = server.post_ok("/hook", &input);
    assert_eq!(reply.status, 200, "{reply:?}");
    assert!(project.exists("ran"), "the hook did not run with the token");
}

/// The server refuses to start on a non-loopback address without `--http-public`
/// and without a token, naming the fix; with both it serves.
#[test]
fn non_loopback_needs_http_public_and_every_server_needs_a_token() {
    let project = Project::new();
    project.settings(json!({}));
    let token = crate::common::token_file(&project);
    let start = |args: &[&str], env_token: Option<&str>| {
        let mut command = project.command();
        command
            .args(["serve", "--project-dir"])
            .arg(project.dir())
            .args(args)
            .env_remove("HOOKHOST_TOKEN");
        if let Some(t) = env_token {
            command.env("HOOKHOST_TOKEN", t);
        }
        crate::common::run(command, b"")
    };
    let token = token.to_str().unwrap();
    let public = start(&["--http", "0.0.0.0:0", "--token-file", token], None);
    assert_eq!(public.code, 1, "{public:?}");
    assert!(public.stderr.contains("--http-public"), "{public:?}");
    assert!(
        public.stderr.contains("not a loopback address"),
        "{public:?}"
    );
    let tokenless = start(&["--http", "127.0.0.1:0"], None);
    assert_eq!(tokenless.code, 1, "{tokenless:?}");
    assert!(tokenless.stderr.contains("HOOKHOST_TOKEN"), "{tokenless:?}");
    assert!(tokenless.stderr.contains("--token-file"), "{tokenless:?}");
    let empty = start(&["--http", "127.0.0.1:0"], Some("  "));
    assert_eq!(empty.code, 1, "{empty:?}");
    // With --http-public (and HOOKHOST_TOKEN) it serves; reached over loopback.
    let mut command = project.command();
    command
        .args([
            "serve",
            "--http",
            "0.0.0.0:0",
            "--http-public",
            "--project-dir",
        ])
        .arg(project.dir())
        .env("HOOKHOST_TOKEN", "from-the-env")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
    let mut child = command.spawn().unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    let port: u16 = line.trim().rsplit(':').next().unwrap().parse().unwrap();
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let reply = request(
        addr,
        &post_bytes("/fire/Notification", Some("from-the-env"), "{}"),
    );
    assert_eq!(reply.status, 200, "{reply:?}");
    signal_term(&child);
    assert!(exit_within(&mut child, Instant::now(), Duration::from_secs(30)).is_some());
}

#[test]
fn bad_requests_get_named_errors() {
    let project = Project::new();
    guard(&project);
    let server = HttpServer::start(&project, &[]);
    let missing = server.post_ok("/hooks", "{}");
    assert_eq!((missing.status, missing.code()), (404, "NOT_FOUND"));
    let get = request(
        server.addr,
        format!("GET /hook HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    );
    assert_eq!((get.status, get.code()), (405, "METHOD_NOT_ALLOWED"));
    assert!(get.headers.contains("allow: POST"), "{get:?}");
    let broken = server.post_ok("/hook", "{\"hook_event_name\": ");
    assert_eq!(
        (broken.status, broken.code()),
        (400, "INVALID_JSON"),
        "{broken:?}"
    );
    let nameless = server.post_ok("/hook", "{\"tool_name\": \"Write\"}");
    assert_eq!(
        (nameless.status, nameless.code()),
        (400, "INVALID_REQUEST"),
        "{nameless:?}"
    );
    let empty = server.post_ok("/hook", "");
    assert_eq!((empty.status, empty.code()), (400, "INVALID_REQUEST"));
    let array = server.post_ok("/fire/BeforeTool", "[1]");
    assert_eq!((array.status, array.code()), (400, "INVALID_REQUEST"));
    // A declared length over the limit is refused before a byte of it is read.
    let huge = format!(
        "POST /hook HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        64 * 1024 * 1024 + 1
    );
    let too_large = request(server.addr, huge.as_bytes());
    assert_eq!(
        (too_large.status, too_large.code()),
        (413, "BODY_TOO_LARGE"),
        "{too_large:?}"
    );
    // The server is still fine.
    let ok = server.post_ok("/hook", &claude_write("/etc/x"));
    assert_eq!(ok.body["hookSpecificOutput"]["permissionDecision"], "deny");
}

/// Clients that go away — mid-body, or while their hook runs — cost nothing: with
/// `--max-in-flight 1`, a slot they kept would leave the next request waiting for
/// ever (the client's bounded wait would fail).
#[test]
fn a_client_that_vanishes_mid_request_does_not_stop_the_server() {
    let project = Project::new();
    project.settings(json!({"BeforeTool": [group(vec![cmd("sleep 0.5; echo done")])]}));
    let server = HttpServer::start(&project, &["--max-in-flight", "1"]);
    let input = json!({"hook_event_name": "BeforeTool", "tool_name": "x"}).to_string();
    for _ in 0..3 {
        let mut cut = TcpStream::connect(server.addr).unwrap();
        let whole = post_bytes("/hook", Some(TOKEN), &input);
        cut.write_all(&whole[..whole.len() - 10]).unwrap();
        drop(cut);
        let mut gone = TcpStream::connect(server.addr).unwrap();
        gone.write_all(&whole).unwrap();
        std::thread::sleep(Duration::from_millis(100));
        drop(gone);
    }
    let start = Instant::now();
    let reply = server.post_ok("/hook", &input);
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["systemMessage"], "done", "{reply:?}");
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    assert!(server.terminate().success());
}

#[test]
fn settings_reload_when_the_file_changes() {
    let project = Project::new();
    project.settings(json!({"BeforeTool": [group(vec![cmd(&say("before"))])]}));
    let server = HttpServer::start(&project, &[]);
    let message = |reply: &crate::common::HttpReply| {
        reply.body["finalOutput"]["systemMessage"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    let input = json!({"tool_name": "x"}).to_string();
    assert_eq!(
        message(&server.post_ok("/fire/BeforeTool", &input)),
        "before"
    );
    project.settings(json!({"BeforeTool": [group(vec![cmd(&say("after-the-reload"))])]}));
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut seen;
    loop {
        seen = message(&server.post_ok("/fire/BeforeTool", &input));
        if seen == "after-the-reload" || Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(seen, "after-the-reload");
}

/// SIGTERM while a request's hook runs: that request is answered in full, the
/// server exits 0, and it accepts nothing more.
#[test]
fn sigterm_drains_in_flight_requests() {
    let project = Project::new();
    project.settings(json!({"BeforeTool": [group(vec![cmd("sleep 1; echo drained")])]}));
    let mut server = HttpServer::start(&project, &[]);
    let addr = server.addr;
    let input = json!({"hook_event_name": "BeforeTool", "tool_name": "x"}).to_string();
    let in_flight =
        std::thread::spawn(move || request(addr, &post_bytes("/hook", Some(TOKEN), &input)));
    std::thread::sleep(Duration::from_millis(400));
    signal_term(&server.child);
    let reply = in_flight.join().unwrap();
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["systemMessage"], "drained", "{reply:?}");
    let status = exit_within(&mut server.child, Instant::now(), Duration::from_secs(20))
        .expect("exit after SIGTERM");
    assert_eq!(status.code(), Some(0));
    assert!(TcpStream::connect(addr).is_err(), "still accepting");
}

/// `--max-in-flight 1` serialises concurrent requests over separate connections: a
/// hook that fails when it overlaps itself never overlaps.
#[test]
fn max_in_flight_bounds_requests_over_all_connections() {
    let project = Project::new();
    project.settings(json!({"BeforeTool": [group(vec![cmd(
        "mkdir \"$LLXPRT_PROJECT_DIR/lock\" || exit 3; sleep 0.3; rmdir \"$LLXPRT_PROJECT_DIR/lock\"",
    )])]}));
    let server = HttpServer::start(&project, &["--max-in-flight", "1"]);
    let addr = server.addr;
    let clients: Vec<_> = (0..3)
        .map(|_| {
            std::thread::spawn(move || {
                request(
                    addr,
                    &post_bytes("/fire/BeforeTool", Some(TOKEN), "{\"tool_name\": \"t\"}"),
                )
            })
        })
        .collect();
    for client in clients {
        let reply = client.join().unwrap();
        assert_eq!(reply.status, 200, "{reply:?}");
        assert_eq!(reply.body["errors"], json!([]), "overlapped: {reply:?}");
    }
}

/// The token an agent holds in its environment (to fill its http hooks' header)
/// never reaches hookhost's command hooks.
#[test]
fn command_hooks_do_not_see_the_token() {
    let project = Project::new();
    project.settings(
        json!({"BeforeTool": [group(vec![cmd("echo \"token=${HOOKHOST_TOKEN:-unset}\"")])]}),
    );
    let mut command = project.command();
    command
        .args(["fire", "BeforeTool", "--project-dir"])
        .arg(project.dir())
        .env("HOOKHOST_TOKEN", "secret");
    let run = crate::common::run(command, b"{\"tool_name\": \"x\"}");
    let out: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(
        out["finalOutput"]["systemMessage"], "token=unset",
        "{run:?}"
    );
}

/// A hook that fails is reported in `systemMessage` (still 200: over HTTP nothing
/// is said with a status code); with `--fail-closed` it is a deny naming the cause.
#[test]
fn a_failed_hook_is_a_message_and_with_fail_closed_a_deny() {
    let project = Project::new();
    project.settings(json!({"BeforeTool": [group(vec![cmd("echo broken >&2; exit 7")])]}));
    let open = HttpServer::start(&project, &[]);
    let reply = open.post_ok("/hook", &claude_write("a.txt"));
    assert_eq!(reply.status, 200, "{reply:?}");
    assert!(
        reply.body["systemMessage"]
            .as_str()
            .is_some_and(|m| m.starts_with("hookhost: ")),
        "{reply:?}"
    );
    assert!(reply.body.get("hookSpecificOutput").is_none(), "{reply:?}");
    drop(open);
    let closed = HttpServer::start(&project, &["--fail-closed"]);
    let reply = closed.post_ok("/hook", &claude_write("a.txt"));
    assert_eq!(reply.status, 200, "{reply:?}");
    let specific = &reply.body["hookSpecificOutput"];
    assert_eq!(specific["permissionDecision"], "deny", "{reply:?}");
    assert!(
        specific["permissionDecisionReason"]
            .as_str()
            .is_some_and(|r| r.starts_with("hookhost --fail-closed: ")),
        "{reply:?}"
    );
}

/// Ctrl-C in the terminal that runs the server drains it like SIGTERM: exit 0.
#[test]
fn sigint_stops_the_server_like_sigterm() {
    let project = Project::new();
    project.settings(json!({}));
    let mut server = HttpServer::start(&project, &[]);
    assert_eq!(server.post_ok("/fire/Notification", "{}").status, 200);
    let pid = rustix::process::Pid::from_raw(server.child.id() as i32).expect("a pid");
    rustix::process::kill_process(pid, rustix::process::Signal::INT).expect("SIGINT");
    let status = exit_within(&mut server.child, Instant::now(), Duration::from_secs(20))
        .expect("exit after SIGINT");
    assert_eq!(status.code(), Some(0));
}
