//! `http` hooks against a real server on 127.0.0.1: the input JSON is POSTed, a 2xx
//! body means what a command's exit-0 stdout means, and every other outcome — a
//! 500, a refused port, a server that never answers, a redirect — is a failed hook
//! naming the URL and what happened, under the hook's `failurePolicy`. The user's
//! `tools.allowedHttpHookUrls` refuses other URLs, and a repository cannot widen it.

use std::time::Duration;

use serde_json::{Value, json};

use super::write_etc;
use crate::common::{Endpoint, Project, Reply, claude_deny_reason, group, run};

/// An http hook to `url` with a timeout in milliseconds.
fn http(url: &str, timeout_ms: u64) -> Value {
    json!({"type": "http", "url": url, "timeout": timeout_ms})
}

#[test]
fn a_block_answer_blocks_and_the_server_gets_the_input_json() {
    let server = Endpoint::start(|_| {
        Reply::json(&json!({"decision": "block", "reason": "no writes to /etc"}))
    });
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![http(&server.url("/policy"), 10_000)])]}));
    let fired = p.fire("BeforeTool", write_etc());
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(fired.final_output()["decision"], "block");
    assert_eq!(fired.final_output()["reason"], "no writes to /etc");
    assert!(fired.errors().is_empty(), "{fired:#?}");
    let request = server.only_request();
    assert_eq!(
        (request.method.as_str(), request.path.as_str()),
        ("POST", "/policy")
    );
    assert_eq!(request.header("content-type"), Some("application/json"));
    let input = request.json();
    assert_eq!(input["hook_event_name"], "BeforeTool");
    assert_eq!(input["tool_name"], "write_file");
    assert_eq!(input["tool_input"]["file_path"], "/etc/passwd");
}

#[test]
fn a_2xx_with_an_empty_body_allows() {
    for status in [200, 204] {
        let server = Endpoint::answering(status, "");
        let p = Project::new();
        p.settings(json!({"BeforeTool": [group(vec![http(&server.url("/"), 10_000)])]}));
        let fired = p.fire("BeforeTool", write_etc());
        fired.assert_clean();
        assert_eq!(fired.final_output(), &json!({}), "HTTP {status}");
        assert_eq!(fired.hooks()[0]["success"], true);
        assert_eq!(server.requests().len(), 1);
    }
}

#[test]
fn a_body_that_is_not_json_is_plain_text_as_a_commands_stdout_is() {
    // interpret: exit-0 text that is not a JSON object becomes `systemMessage`.
    let server = Endpoint::answering(200, "all good here");
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![http(&server.url("/"), 10_000)])]}));
    let fired = p.fire("BeforeTool", write_etc());
    fired.assert_clean();
    assert_eq!(
        fired.final_output(),
        &json!({"systemMessage": "all good here"})
    );
}

#[test]
fn headers_replace_only_the_allowed_variables() {
    let server = Endpoint::answering(200, "");
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![json!({
        "type": "http",
        "url": server.url("/"),
        "headers": {
            "Authorization": "Bearer $HOOK_TOKEN",
            "X-Braced": "${HOOK_TOKEN}-v1",
            "X-Unlisted": "${HOOK_SECRET} and $HOOK_SECRET",
        },
        "allowedEnvVars": ["HOOK_TOKEN"],
    })])]}));
    let fired = p.fire_with(
        "BeforeTool",
        write_etc(),
        &[],
        &[("HOOK_TOKEN", "tok-123"), ("HOOK_SECRET", "must-not-leave")],
    );
    fired.assert_clean();
    let request = server.only_request();
    assert_eq!(request.header("authorization"), Some("Bearer tok-123"));
    assert_eq!(request.header("x-braced"), Some("tok-123-v1"));
    assert_eq!(
        request.header("x-unlisted"),
        Some("${HOOK_SECRET} and $HOOK_SECRET"),
        "an unlisted variable is sent as written"
    );
    assert!(
        !String::from_utf8_lossy(&request.body).contains("must-not-leave")
            && request
                .headers
                .iter()
                .all(|(_, v)| !v.contains("must-not-leave")),
        "{request:#?}"
    );
}

#[test]
fn a_variable_with_a_line_break_fails_the_hook_naming_the_header_not_the_value() {
    let server = Endpoint::answering(200, "");
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![json!({
        "type": "http", "url": server.url("/"),
        "headers": {"X-Token": "$HOOK_TOKEN"}, "allowedEnvVars": ["HOOK_TOKEN"],
    })])]}));
    let fired = p.fire_with(
        "BeforeTool",
        write_etc(),
        &[],
        &[("HOOK_TOKEN", "a\r\nX-Injected: 1")],
    );
    assert_eq!(fired.code, 0, "fails open: {fired:#?}");
    let error = fired.single_error(&["header X-Token", "failing open"]);
    assert!(!error.contains("Injected"), "{error}");
    assert!(server.requests().is_empty(), "nothing was sent");
}

#[test]
fn a_500_fails_open_naming_the_status_and_blocks_under_failure_policy_block() {
    let server = Endpoint::answering(500, "database on fire\nsecond line");
    let p = Project::new();
    let url = server.url("/hook");
    p.settings(json!({"BeforeTool": [group(vec![http(&url, 10_000)])]}));
    let fired = p.fire("BeforeTool", write_etc());
    assert_eq!(fired.code, 0, "{fired:#?}");
    assert!(!fired.success());
    assert_eq!(fired.final_output(), &json!({}));
    let error = fired.single_error(&[
        &url,
        "HTTP 500 Internal Server Error",
        "database on fire",
        "failing open",
    ]);
    assert!(!error.contains("second line"), "{error}");

    let mut closed = http(&url, 10_000);
    closed["failurePolicy"] = json!("block");
    p.settings(json!({"BeforeTool": [group(vec![closed])]}));
    let fired = p.fire("BeforeTool", write_etc());
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(fired.final_output()["decision"], "block");
    let reason = fired.final_output()["reason"].as_str().unwrap();
    assert!(
        reason.contains("HTTP 500") && reason.contains("failurePolicy"),
        "{reason}"
    );
}

#[test]
fn a_refused_connection_fails_open_at_once() {
    // A port that was free a moment ago: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/hook");
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![http(&url, 30_000)])]}));
    let fired = p.fire("BeforeTool", write_etc());
    assert_eq!(fired.code, 0, "{fired:#?}");
    fired.single_error(&[&url, "cannot connect", "refused", "failing open"]);
    assert!(
        fired.elapsed < Duration::from_secs(10),
        "a refused connection is not waited on: {:?}",
        fired.elapsed
    );
}

#[test]
fn a_server_that_never_answers_times_out_at_the_hook_timeout() {
    let server = Endpoint::start(|_| Reply::Silent);
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![http(&server.url("/slow"), 700)])]}));
    let fired = p.fire("BeforeTool", write_etc());
    assert_eq!(fired.code, 0, "{fired:#?}");
    fired.single_error(&["timed out after 700 ms", "failing open"]);
    assert_eq!(server.requests().len(), 1, "the request was sent");
    assert!(
        fired.elapsed >= Duration::from_millis(700),
        "{:?}",
        fired.elapsed
    );
    assert!(
        fired.elapsed < Duration::from_secs(30),
        "not waited out: {:?}",
        fired.elapsed
    );
}

#[test]
fn a_redirect_is_not_followed() {
    let elsewhere = Endpoint::start(|_| Reply::json(&json!({"decision": "allow"})));
    let target = elsewhere.url("/elsewhere");
    let server = {
        let target = target.clone();
        Endpoint::start(move |_| Reply::Respond {
            status: 302,
            headers: vec![("Location".to_owned(), target.clone())],
            body: Vec::new(),
        })
    };
    let p = Project::new();
    let url = server.url("/hook");
    p.settings(json!({"BeforeTool": [group(vec![http(&url, 10_000)])]}));
    let fired = p.fire("BeforeTool", write_etc());
    assert_eq!(fired.code, 0, "{fired:#?}");
    fired.single_error(&[&url, "HTTP 302", &target, "not followed", "failing open"]);
    assert_eq!(server.requests().len(), 1);
    assert!(
        elsewhere.requests().is_empty(),
        "the redirect target got a request"
    );
}

#[test]
fn the_users_allow_list_refuses_other_urls_and_a_project_cannot_widen_it() {
    let allowed = Endpoint::answering(200, "");
    let refused = Endpoint::answering(200, "");
    let p = Project::new();
    p.write(
        p.home().join(".llxprt/settings.json"),
        json!({"tools": {"allowedHttpHookUrls": [allowed.url("/*")]}}).to_string(),
    );
    let refused_url = refused.url("/hook");
    p.settings_raw(&json!({
        "tools": {"enableHooks": true, "allowedHttpHookUrls": [refused.url("/*")]},
        "hooks": {"BeforeTool": [group(vec![
            http(&allowed.url("/hook"), 10_000),
            http(&refused_url, 10_000),
        ])]},
    }));
    let fired = p.fire("BeforeTool", write_etc());
    assert_eq!(fired.code, 0, "{fired:#?}");
    assert!(
        refused.requests().is_empty(),
        "the refused URL got a request"
    );
    assert_eq!(allowed.requests().len(), 1, "the admitted hook runs");
    // The load error; its run failure, the same cause, is not said again.
    fired.single_error(&[&refused_url, "tools.allowedHttpHookUrls", "not run"]);
    assert!(
        fired
            .stderr
            .contains("tools.allowedHttpHookUrls: ignored here"),
        "the project's list is ignored, with a warning: {}",
        fired.stderr
    );
    assert!(
        fired
            .stderr
            .contains(&format!("URL {refused_url} is not admitted")),
        "a load diagnostic names the URL: {}",
        fired.stderr
    );

    // An empty list admits no http hook at all.
    p.write(
        p.home().join(".llxprt/settings.json"),
        json!({"tools": {"allowedHttpHookUrls": []}}).to_string(),
    );
    let fired = p.fire("BeforeTool", write_etc());
    assert_eq!(fired.errors().len(), 2, "{fired:#?}");
    assert_eq!(allowed.requests().len(), 1, "no new request");
}

#[test]
fn hookhost_hook_answers_claude_code_with_the_servers_deny() {
    let server = Endpoint::start(|_| {
        Reply::json(
            &json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": "not on Fridays"}}),
        )
    });
    let p = Project::new();
    // A Claude file: `timeout` in seconds.
    p.write(
        ".claude/settings.json",
        json!({"hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [
            {"type": "http", "url": server.url("/claude"), "timeout": 10}
        ]}]}})
        .to_string(),
    );
    let mut command = p.command();
    command
        .arg("hook")
        .arg("--claude-settings")
        .env("CLAUDE_PROJECT_DIR", p.dir());
    let stdin = json!({"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": p.dir(),
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Write",
        "tool_input": {"file_path": "a.txt", "content": "x"}});
    let ran = run(command, stdin.to_string().as_bytes());
    assert_eq!(
        claude_deny_reason(&ran).as_deref(),
        Some("not on Fridays"),
        "{ran:#?}"
    );
    let sent = server.only_request().json();
    assert_eq!(sent["hook_event_name"], "PreToolUse", "Claude's dialect");
    assert_eq!(sent["tool_name"], "Write");
}

/// One system fired from two runtimes (`fire_blocking` makes one per call): the
/// process's HTTP client is shared, and a connection kept by the first runtime
/// must not break the second fire.
#[test]
fn one_system_fires_http_hooks_from_runtime_after_runtime() {
    let server = Endpoint::start(|_| Reply::json(&json!({"decision": "block", "reason": "r"})));
    let p = Project::new();
    let settings = p.settings(json!({"BeforeTool": [group(vec![http(&server.url("/"), 10_000)])]}));
    let system = hookhost::HookSystem::builder()
        .project_dir(p.dir())
        .settings_files([settings])
        .build();
    let input = write_etc().as_object().cloned().unwrap();
    for _ in 0..3 {
        let result = system.fire_blocking(hookhost::HookEvent::BeforeTool, &input);
        assert!(result.is_blocked(), "{:?}", result.errors);
    }
    assert_eq!(server.requests().len(), 3);
}

/// An `https://` URL goes through the TLS client (rustls, the system's roots): a
/// server that speaks plain HTTP there fails the handshake, a failed hook naming
/// the URL — and the TLS set-up itself (the process's crypto provider) works.
#[test]
fn an_https_url_to_a_plain_http_server_fails_the_handshake() {
    let server = Endpoint::answering(200, "{}");
    let url = server.url("/hook").replacen("http://", "https://", 1);
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![http(&url, 10_000)])]}));
    let fired = p.fire("BeforeTool", write_etc());
    assert_eq!(fired.code, 0, "{fired:#?}");
    fired.single_error(&[&url, "failing open"]);
    assert!(
        fired.errors()[0].contains("cannot connect") || fired.errors()[0].contains("TLS"),
        "{fired:#?}"
    );
}
