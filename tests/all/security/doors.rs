//! Every door answers a decision under `--fail-closed` (14): an input a door cannot
//! read — not JSON, nested too deep, too large, cut short, empty — is a deny that
//! says why, in the door's own form (`serve --http`: status 200 with the decision
//! Claude reads; `hookhost hook`: the block a hook of the agent gives), never a
//! status or an exit code the agent takes for a non-blocking error. And a lone
//! surrogate escape, which Node's `JSON.stringify` writes, is read as JavaScript
//! reads it (U+FFFD) by every door, so the hooks decide on such an input.

use std::io::Write;
use std::net::{Shutdown, TcpStream};
use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{
    HttpServer, Project, Run, Server, TOKEN, claude_deny_reason, cmd, request, run,
};

/// Blocks a `write_file` under /etc with "no PATH" after recording its stdin in
/// `seen.json`.
fn guard(p: &Project) {
    p.settings(json!({"BeforeTool": [{"matcher": "write_file", "hooks": [cmd(
        r#"tee seen.json | python3 -c 'import json,sys; p=json.load(sys.stdin)["tool_input"]["file_path"]; print(json.dumps({"decision":"block","reason":"no "+p}) if p.startswith("/etc") else "{}")'"#,
    )]}]}));
}

/// Claude Code's PreToolUse of `Write` to `path`, `content` given as raw JSON text
/// (so that it can hold what serde_json never writes).
fn claude_write(path: &str, content: &str) -> String {
    format!(
        r#"{{"session_id":"s","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{{"file_path":"{path}","content":{content}}}}}"#
    )
}

/// `depth` nested arrays.
fn nested(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

/// `hookhost hook --project-dir <p> FLAGS…` with `stdin`.
fn hook(p: &Project, flags: &[&str], stdin: &[u8]) -> Run {
    let mut command = p.command();
    command
        .arg("hook")
        .arg("--project-dir")
        .arg(p.dir())
        .args(flags);
    run(command, stdin)
}

/// The `content` the guard last saw; removes the record (the next door writes its own).
fn seen_content(p: &Project) -> Value {
    let seen = p.read_json("seen.json");
    std::fs::remove_file(p.path("seen.json")).unwrap();
    seen["tool_input"]["content"].clone()
}

/// A lone high or low surrogate (also at the end of a string) becomes U+FFFD; a
/// valid pair stays the character it encodes; an escaped backslash followed by
/// `ud800` stays text. Each door then fires the guard, which denies.
#[test]
fn every_door_reads_a_lone_surrogate_as_javascript_does() {
    let p = Project::new();
    guard(&p);
    let content = r#""lone \ud800, pair \ud83d\ude00, text \\ud800, low \udc00, end \ud800""#;
    let expected =
        Value::from("lone \u{FFFD}, pair \u{1F600}, text \\ud800, low \u{FFFD}, end \u{FFFD}");
    let llxprt = format!(
        r#"{{"tool_name":"write_file","tool_input":{{"file_path":"/etc/x","content":{content}}}}}"#
    );

    let out = hook(&p, &[], claude_write("/etc/passwd", content).as_bytes());
    assert_eq!(
        claude_deny_reason(&out).as_deref(),
        Some("no /etc/passwd"),
        "hook: {out:?}"
    );
    assert_eq!(seen_content(&p), expected, "hook");

    let mut fire = p.command();
    fire.args(["fire", "BeforeTool", "--project-dir"])
        .arg(p.dir());
    let fired = run(fire, llxprt.as_bytes());
    assert_eq!(fired.code, 2, "fire: {fired:?}");
    assert_eq!(seen_content(&p), expected, "fire");

    let mut lines = Server::start(&p);
    lines.send_line(&format!(
        r#"{{"correlationId":"1","eventName":"BeforeTool","input":{llxprt}}}"#
    ));
    let answer = lines.next();
    assert_eq!(answer["success"], true, "serve: {answer}");
    assert_eq!(
        answer["output"]["finalOutput"]["reason"], "no /etc/x",
        "{answer}"
    );
    assert_eq!(seen_content(&p), expected, "serve");
    drop(lines);

    let server = HttpServer::start(&p, &[]);
    let reply = server.post_ok("/hook", &claude_write("/etc/passwd", content));
    assert_eq!(reply.status, 200, "serve --http /hook: {reply:?}");
    let specific = &reply.body["hookSpecificOutput"];
    assert_eq!(specific["permissionDecision"], "deny", "{reply:?}");
    assert_eq!(specific["permissionDecisionReason"], "no /etc/passwd");
    assert_eq!(seen_content(&p), expected, "serve --http /hook");
    let fired = server.post_ok("/fire/BeforeTool", &llxprt);
    assert_eq!(fired.status, 200, "serve --http /fire: {fired:?}");
    assert_eq!(
        fired.body["finalOutput"]["reason"], "no /etc/x",
        "{fired:?}"
    );
    assert_eq!(seen_content(&p), expected, "serve --http /fire");
}

/// The reason of a `serve --http` deny to a Claude PreToolUse (`None`: another answer).
fn http_deny_reason(reply: &crate::common::HttpReply) -> Option<String> {
    let specific = &reply.body["hookSpecificOutput"];
    (reply.status == 200 && specific["permissionDecision"] == "deny").then(|| {
        specific["permissionDecisionReason"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    })
}

/// The reason of a generic `{"decision": "block", "reason"}` answered with 200.
fn http_block_reason(reply: &crate::common::HttpReply) -> Option<String> {
    (reply.status == 200 && reply.body["decision"] == "block")
        .then(|| reply.body["reason"].as_str().unwrap_or_default().to_owned())
}

/// Before: 400 INVALID_JSON (or 413, 400), which Claude Code reads as a non-blocking
/// error and runs the tool. Now: 200 and a deny naming why — in the event's own form
/// when `hook_event_name` can still be read, else the generic block Claude honours
/// for every event. The guard never runs (it has no input to judge).
#[test]
fn serve_http_fail_closed_denies_what_it_cannot_read() {
    let p = Project::new();
    guard(&p);
    let server = HttpServer::start(&p, &["--fail-closed"]);
    let deep = server.post_ok("/hook", &claude_write("a.txt", &nested(200)));
    let reason = http_deny_reason(&deep).unwrap_or_else(|| panic!("too deep: {deep:?}"));
    assert!(reason.starts_with("hookhost --fail-closed: "), "{reason}");
    assert!(reason.contains("nested deeper than"), "{reason}");
    assert_eq!(
        deep.body["hookSpecificOutput"]["hookEventName"],
        "PreToolUse"
    );

    let stop = format!(
        r#"{{"hook_event_name":"Stop","permission_mode":"default","session_id":"s","x":{}}}"#,
        nested(200)
    );
    let stop = server.post_ok("/hook", &stop);
    assert!(http_block_reason(&stop).is_some(), "Stop: {stop:?}");

    for (body, why) in [
        ("{\"hook_event_name\": ", "not valid JSON"),
        ("", "empty"),
        ("[1]", "one JSON object"),
        ("{\"tool_name\": \"Write\"}", "no hook_event_name"),
    ] {
        let reply = server.post_ok("/hook", body);
        let reason = http_block_reason(&reply).unwrap_or_else(|| panic!("{body:?}: {reply:?}"));
        assert!(
            reason.starts_with("hookhost --fail-closed: "),
            "{body:?}: {reason}"
        );
        assert!(reason.contains(why), "{body:?}: {reason}");
    }

    let huge = format!(
        "POST /hook HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        64 * 1024 * 1024 + 1
    );
    let too_large = request(server.addr, huge.as_bytes());
    let reason = http_block_reason(&too_large).unwrap_or_else(|| panic!("{too_large:?}"));
    assert!(reason.contains("longer than"), "{reason}");

    // A body cut short: the client half-closes after 10 of its 100 bytes.
    let mut cut = TcpStream::connect(server.addr).unwrap();
    cut.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        cut,
        "POST /hook HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\n\
         Content-Length: 100\r\nConnection: close\r\n\r\n{{\"hook_ev"
    )
    .unwrap();
    cut.shutdown(Shutdown::Write).unwrap();
    let mut answer = Vec::new();
    let _ = std::io::Read::read_to_end(&mut cut, &mut answer);
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 200"), "cut short: {text}");
    assert!(text.contains("\"decision\":\"block\""), "cut short: {text}");

    assert!(
        !p.exists("seen.json"),
        "the guard ran on an input it could not have read"
    );
    // Without --fail-closed the answers are today's: named errors.
    drop(server);
    let open = HttpServer::start(&p, &[]);
    let deep = open.post_ok("/hook", &claude_write("a.txt", &nested(200)));
    assert_eq!(
        (deep.status, deep.code()),
        (400, "INVALID_JSON"),
        "{deep:?}"
    );
}

/// Before: exit 1 and nothing on stdout, a non-blocking error to every agent. Now:
/// the block a hook of the agent gives for the event (Claude's PreToolUse: the
/// JSON deny), or — the event unknown — exit 2 with the reason on stderr, which
/// every agent reads as a block. `tools.hookFailClosed` does the same; without
/// either, exit 1 as before.
#[test]
fn hook_fail_closed_blocks_what_it_cannot_read() {
    let p = Project::new();
    guard(&p);
    let deep = claude_write("a.txt", &nested(200));
    let out = hook(&p, &["--fail-closed"], deep.as_bytes());
    let reason = claude_deny_reason(&out).unwrap_or_else(|| panic!("too deep: {out:?}"));
    assert!(reason.starts_with("hookhost --fail-closed: "), "{reason}");
    assert!(reason.contains("nested deeper than"), "{reason}");

    let gemini = format!(
        r#"{{"hook_event_name":"BeforeTool","tool_name":"write_file","x":{}}}"#,
        nested(200)
    );
    let out = hook(&p, &["--fail-closed"], gemini.as_bytes());
    assert_eq!(out.code, 2, "BeforeTool: {out:?}");
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    assert_eq!(answer["decision"], "block", "{out:?}");

    let mut too_large = b"{\"hook_event_name\": \"".to_vec();
    too_large.resize(64 * 1024 * 1024 + 1, b'x');
    for (stdin, why) in [
        (&b"{\"hook_event_name\": "[..], "not valid JSON"),
        (b"", "empty"),
        (b"{\"tool_name\": \"Write\"}", "no hook_event_name"),
        (&too_large[..], "longer than"),
    ] {
        let out = hook(&p, &["--fail-closed"], stdin);
        let shown = String::from_utf8_lossy(&stdin[..stdin.len().min(40)]);
        assert_eq!(out.code, 2, "{shown:?}: {out:?}");
        assert!(
            out.stderr.starts_with("hookhost --fail-closed: "),
            "{shown:?}: {out:?}"
        );
        assert!(out.stderr.contains(why), "{shown:?}: {out:?}");
    }
    assert!(
        !p.exists("seen.json"),
        "the guard ran on an input it could not have read"
    );

    let open = hook(&p, &[], deep.as_bytes());
    assert_eq!(open.code, 1, "without --fail-closed: {open:?}");
    assert!(open.stdout.is_empty(), "{open:?}");
    p.settings_raw(&json!({"tools": {"enableHooks": true, "hookFailClosed": true}}));
    let by_settings = hook(&p, &[], deep.as_bytes());
    assert!(
        claude_deny_reason(&by_settings).is_some(),
        "tools.hookFailClosed: {by_settings:?}"
    );
}
