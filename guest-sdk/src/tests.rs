//! Unit tests: lenient parsing, round-trips, output shape and exit codes.

use crate::*;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn parse(value: Value) -> Result<HookInput, serde_json::Error> {
    serde_json::from_value(value)
}

#[test]
fn before_tool_parses_and_keeps_unknown_fields() -> TestResult {
    let raw = json!({
        "session_id": "abc123",
        "hook_event_name": "BeforeTool",
        "cwd": "/home/user/project",
        "timestamp": "2025-02-18T16:30:00.000Z",
        "transcript_path": "",
        "tool_name": "write_file",
        "tool_input": {"path": "/home/user/project/file.txt", "content": "Hello"},
        "future_field": [1, 2]
    });
    let input = parse(raw.clone())?;
    let HookInput::BeforeTool(call) = &input else {
        return Err(format!("wrong variant: {input:?}").into());
    };
    assert_eq!(call.base.session_id, "abc123");
    assert_eq!(call.tool_name, "write_file");
    assert_eq!(call.tool_input["content"], "Hello");
    assert_eq!(call.extra["future_field"], json!([1, 2]));
    assert!(!call.extra.contains_key("hook_event_name"));
    assert_eq!(serde_json::to_value(&input)?, raw);
    Ok(())
}

#[test]
fn every_event_name_selects_its_variant() -> TestResult {
    let names = [
        "BeforeTool",
        "AfterTool",
        "BeforeModel",
        "AfterModel",
        "BeforeToolSelection",
        "BeforeAgent",
        "AfterAgent",
        "SessionStart",
        "SessionEnd",
        "PreCompress",
        "Notification",
    ];
    for name in names {
        let input = parse(json!({ "hook_event_name": name }))?;
        assert_eq!(input.event_name(), name);
        assert!(!matches!(input, HookInput::Other(_)), "{name} fell through");
        // Missing fields default; the tag survives a round-trip.
        assert_eq!(serde_json::to_value(&input)?["hook_event_name"], name);
    }
    Ok(())
}

#[test]
fn nulls_and_missing_fields_default() -> TestResult {
    let input = parse(json!({
        "hook_event_name": "AfterAgent",
        "session_id": null,
        "prompt": null,
        "stop_hook_active": null
    }))?;
    let HookInput::AfterAgent(agent) = input else {
        return Err("wrong variant".into());
    };
    assert_eq!(agent.base.session_id, "");
    assert_eq!(agent.prompt, "");
    assert!(!agent.stop_hook_active);
    Ok(())
}

#[test]
fn unknown_event_is_kept_whole() -> TestResult {
    let raw = json!({
        "hook_event_name": "PostLunch",
        "session_id": "s",
        "transcript_path": "",
        "cwd": "/p",
        "timestamp": "t",
        "menu": {"soup": true}
    });
    let input = parse(raw.clone())?;
    assert_eq!(input.event_name(), "PostLunch");
    assert_eq!(input.base().cwd, "/p");
    assert_eq!(input.extra()["menu"]["soup"], true);
    assert_eq!(serde_json::to_value(&input)?, raw);

    let nameless = parse(json!({"cwd": "/p"}))?;
    assert!(matches!(nameless, HookInput::Other(ref o) if o.hook_event_name.is_empty()));
    Ok(())
}

#[test]
fn model_events_keep_llm_payloads() -> TestResult {
    let input = parse(json!({
        "hook_event_name": "AfterModel",
        "llm_request": {"model": "m", "messages": []},
        "llm_response": {"text": "hi", "candidates": [{"content": {"role": "model", "parts": ["hi"]}}]}
    }))?;
    assert_eq!(
        input.llm_request().and_then(|r| r.model.as_deref()),
        Some("m")
    );
    let HookInput::AfterModel(model) = input else {
        return Err("wrong variant".into());
    };
    assert_eq!(model.llm_response.text.as_deref(), Some("hi"));
    Ok(())
}

#[test]
fn output_uses_spec_names_and_skips_none() -> TestResult {
    assert_eq!(HookOutput::allow().to_json(), "{}");
    let out = HookOutput::block("no")
        .system_message("m")
        .stop("halt")
        .suppress_output()
        .tool_input(json!({"path": "/safe"}))
        .additional_context("ctx");
    assert_eq!(
        serde_json::to_value(&out)?,
        json!({
            "decision": "block",
            "reason": "no",
            "continue": false,
            "stopReason": "halt",
            "suppressOutput": true,
            "systemMessage": "m",
            "hookSpecificOutput": {"tool_input": {"path": "/safe"}, "additionalContext": "ctx"}
        })
    );
    assert!(out.is_block());
    assert!(HookOutput::allow().decision(Decision::Deny).is_block());
    assert!(!HookOutput::allow().decision(Decision::Ask).is_block());
    Ok(())
}

#[test]
fn tool_config_shape() -> TestResult {
    let out = HookOutput::allow().tool_config(ToolMode::Auto, ["read_file", "glob"]);
    assert_eq!(
        serde_json::to_value(&out)?,
        json!({"hookSpecificOutput": {"toolConfig": {
            "mode": "AUTO", "allowedFunctionNames": ["read_file", "glob"]
        }}})
    );
    let none = HookOutput::allow().tool_config(ToolMode::None, Vec::<String>::new());
    assert_eq!(
        serde_json::to_value(&none)?["hookSpecificOutput"]["toolConfig"],
        json!({"mode": "NONE"})
    );
    Ok(())
}

#[test]
fn handle_maps_outputs_to_exit_codes() -> TestResult {
    let stdin = br#"{"hook_event_name":"BeforeTool","tool_name":"x","tool_input":{}}"#;

    let ok = handle(stdin, |_| -> HookResult { Ok(HookOutput::allow()) });
    assert_eq!((ok.exit_code, ok.stdout.as_str()), (EXIT_OK, "{}\n"));

    let blocked = handle(stdin, |_| -> HookResult { Ok(HookOutput::block("nope")) });
    assert_eq!(blocked.exit_code, EXIT_BLOCK);
    assert_eq!(
        serde_json::from_str::<Value>(&blocked.stdout)?,
        json!({"decision": "block", "reason": "nope"})
    );

    let failed = handle(stdin, |_| Err::<HookOutput, _>("boom"));
    assert_eq!(failed.exit_code, EXIT_FAILED);
    assert!(failed.stdout.is_empty());
    assert!(failed.stderr.contains("boom"));
    Ok(())
}

#[test]
fn handle_fails_open_on_bad_input() {
    for bad in [
        &b""[..],
        b"not json",
        b"[1,2]",
        b"{\"hook_event_name\":\"BeforeTool\",\"tool_input\":3}",
    ] {
        let outcome = handle(bad, |_| -> HookResult {
            Ok(HookOutput::block("unreachable"))
        });
        assert_eq!(
            outcome.exit_code,
            EXIT_FAILED,
            "{:?}",
            String::from_utf8_lossy(bad)
        );
        assert!(!outcome.stderr.is_empty());
    }
}

#[test]
fn handle_fills_hook_event_name() -> TestResult {
    let stdin = br#"{"hook_event_name":"AfterTool"}"#;
    let out = handle(stdin, |_| -> HookResult {
        Ok(HookOutput::allow().additional_context("more"))
    });
    let value: Value = serde_json::from_str(&out.stdout)?;
    assert_eq!(value["hookSpecificOutput"]["hookEventName"], "AfterTool");
    Ok(())
}

#[test]
fn llm_formats_round_trip_unknown_fields() -> TestResult {
    let request = json!({
        "model": "gemini-2.5-pro",
        "messages": [{"role": "user", "content": "hi", "name": "u1"}],
        "config": {"temperature": 0.2, "maxOutputTokens": 100, "seed": 7},
        "toolConfig": {"mode": "ANY", "allowedFunctionNames": ["read_file"], "x": 1},
        "vendor": {"anything": [1, 2]}
    });
    let typed: crate::LlmRequest = serde_json::from_value(request.clone())?;
    assert_eq!(typed.config.as_ref().and_then(|c| c.temperature), Some(0.2));
    assert_eq!(
        typed.tool_config.as_ref().and_then(|t| t.mode),
        Some(crate::ToolMode::Any)
    );
    assert_eq!(serde_json::to_value(&typed)?, request);
    let response = json!({
        "text": "hi",
        "candidates": [{"content": {"role": "model", "parts": ["hi", {"text": "x", "thought": true}]},
            "finishReason": "STOP", "index": 0, "safetyRatings": [{"category": "c", "probability": "LOW", "blocked": false}]}],
        "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 2, "totalTokenCount": 3, "cached": 0},
        "modelVersion": "v"
    });
    let typed: crate::LlmResponse = serde_json::from_value(response.clone())?;
    assert_eq!(serde_json::to_value(&typed)?, response);
    Ok(())
}

#[test]
fn tool_call_view_reads_both_dialects() -> TestResult {
    let llxprt = parse(json!({
        "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command",
        "tool_input": {"command": "curl x | sh", "description": "install"}
    }))?;
    let claude = parse(json!({
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "curl x | sh"}
    }))?;
    for input in [&llxprt, &claude] {
        let call = input.tool_call().ok_or("no tool call")?;
        assert_eq!(call.shell_command(), Some("curl x | sh"));
        assert_eq!(call.file_write(), None);
    }
    let writes = [
        (
            "write_file",
            json!({"file_path": "/p/a", "content": "A"}),
            "A",
            true,
        ),
        (
            "Write",
            json!({"file_path": "/p/a", "content": "A"}),
            "A",
            true,
        ),
        (
            "replace",
            json!({"absolute_path": "/p/a", "old_string": "x", "new_string": "B"}),
            "B",
            false,
        ),
        (
            "Edit",
            json!({"file_path": "/p/a", "old_string": "x", "new_string": "B"}),
            "B",
            false,
        ),
        (
            "MultiEdit",
            json!({"file_path": "/p/a", "edits": [{"old_string": "x", "new_string": "B"}, {"old_string": "y", "new_string": "C"}]}),
            "B\nC",
            false,
        ),
        (
            "NotebookEdit",
            json!({"notebook_path": "/p/a", "new_source": "D"}),
            "D",
            false,
        ),
        // Claude's tools as hookhost hands them to an LLxprt-format hook.
        (
            "multi_edit",
            json!({"file_path": "/p/a", "edits": [{"old_string": "x", "new_string": "B"}]}),
            "B",
            false,
        ),
        (
            "notebook_edit",
            json!({"notebook_path": "/p/a", "new_source": "D"}),
            "D",
            false,
        ),
    ];
    for (tool, tool_input, content, whole_file) in writes {
        let input = parse(
            json!({"hook_event_name": "BeforeTool", "tool_name": tool, "tool_input": tool_input}),
        )?;
        let call = input.tool_call().ok_or("no tool call")?;
        let write = call.file_write().ok_or(tool)?;
        assert_eq!(write.path, "/p/a", "{tool}");
        assert_eq!(write.content, content, "{tool}");
        assert_eq!(write.whole_file, whole_file, "{tool}");
        assert_eq!(call.shell_command(), None);
    }
    let prompt = parse(json!({"hook_event_name": "BeforeAgent", "prompt": "hi"}))?;
    assert!(prompt.tool_call().is_none());
    Ok(())
}

// ---------------------------------------------------------------------------
// Capabilities: log, state, http (what can be checked natively).

#[test]
fn log_falls_back_to_a_stderr_line() {
    assert_eq!(
        log::stderr_line(log::Level::Info, "allowlist", "npm left-pad: allowed"),
        "[info] allowlist: npm left-pad: allowed\n"
    );
    assert_eq!(
        log::stderr_line(log::Level::Warn, "", "no context"),
        "[warn] no context\n"
    );
    let names: Vec<&str> = [
        log::Level::Trace,
        log::Level::Debug,
        log::Level::Info,
        log::Level::Warn,
        log::Level::Error,
        log::Level::Critical,
    ]
    .iter()
    .map(|l| l.as_str())
    .collect();
    assert_eq!(
        names,
        ["trace", "debug", "info", "warn", "error", "critical"]
    );
    // Callable natively: writes to stderr, never panics.
    log::info("test", "a line");
}

#[test]
fn state_is_unsupported_outside_wasip2() {
    let err = state::Bucket::open("").unwrap_err();
    assert_eq!(err, state::StateError::Unsupported);
    assert_eq!(
        err.to_string(),
        "state needs the wasm32-wasip2 plugin build"
    );
}

#[test]
fn state_errors_say_what_to_do() {
    use state::StateError;
    let denied = StateError::AccessDenied.to_string();
    assert!(denied.contains("\"state\": true"), "{denied}");
    assert!(denied.contains("denied"), "{denied}");
    let quota = StateError::from_other("quota exceeded: 70000 > 65536 bytes".to_owned());
    assert!(matches!(quota, StateError::Quota(_)));
    assert!(quota.to_string().contains("quota"), "{quota}");
    let other = StateError::from_other("key too long".to_owned());
    assert_eq!(other, StateError::Other("key too long".to_owned()));
    assert_eq!(other.to_string(), "state store error: key too long");
}

#[test]
fn state_decodes_counters_and_json() {
    assert_eq!(state::decode_counter("k", b"41"), Ok(41));
    assert_eq!(state::decode_counter("k", b" 7\n"), Ok(7));
    let bad = state::decode_counter("k", b"many").unwrap_err();
    assert!(bad.to_string().contains("\"k\""), "{bad}");
    let list: Vec<String> = state::decode_json("files", br#"["a","b"]"#).unwrap();
    assert_eq!(list, ["a", "b"]);
    assert!(state::decode_json::<Vec<String>>("files", b"{").is_err());
}

#[cfg(feature = "http")]
mod http_tests {
    use crate::http::{self, HttpError, Request};

    #[test]
    fn urls_split_into_scheme_authority_and_path() {
        let t = http::parse_url("http://127.0.0.1:8080/allow?ecosystem=npm&package=x").unwrap();
        assert!(!t.https);
        assert_eq!(t.authority, "127.0.0.1:8080");
        assert_eq!(t.path_with_query, "/allow?ecosystem=npm&package=x");
        let t = http::parse_url("HTTPS://api.example.com").unwrap();
        assert!(t.https);
        assert_eq!(t.authority, "api.example.com");
        assert_eq!(t.path_with_query, "/");
        let t = http::parse_url("https://h?q=1#frag").unwrap();
        assert_eq!(t.path_with_query, "/?q=1");
        let t = http::parse_url("https://h/a#frag").unwrap();
        assert_eq!(t.path_with_query, "/a");
        for bad in [
            "api.example.com/x",
            "ftp://h/x",
            "http:///x",
            "http://user:pw@h/",
            "http://h/a b",
        ] {
            assert!(
                matches!(http::parse_url(bad), Err(HttpError::InvalidUrl { .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn errors_say_what_to_do() {
        let denied = HttpError::Denied {
            host: "evil.example".to_owned(),
        }
        .to_string();
        assert_eq!(
            denied,
            "HTTP request to evil.example denied: add \"evil.example\" to the hook's \"allowedHosts\""
        );
        let failed = HttpError::Request {
            code: "connection-refused".to_owned(),
        };
        assert_eq!(
            failed.to_string(),
            "HTTP request failed: connection-refused"
        );
        assert!(
            HttpError::TooLarge { limit: 10 }
                .to_string()
                .contains("10 bytes")
        );
    }

    #[test]
    fn http_is_unsupported_outside_wasip2() {
        assert_eq!(
            http::get("http://127.0.0.1:8080/").unwrap_err(),
            HttpError::Unsupported
        );
        assert_eq!(
            HttpError::Unsupported.to_string(),
            "HTTP needs the wasm32-wasip2 plugin build"
        );
        // A URL that could never be sent is reported as such everywhere.
        assert!(matches!(
            Request::post("nope").body("x").send(),
            Err(HttpError::InvalidUrl { .. })
        ));
    }

    #[test]
    fn headers_are_found_case_insensitively() {
        let headers = vec![
            ("Content-Type".to_owned(), b"text/plain".to_vec()),
            ("location".to_owned(), b"http://a/".to_vec()),
            ("location".to_owned(), b"http://b/".to_vec()),
        ];
        assert_eq!(
            http::find_header(&headers, "content-type"),
            Some("text/plain")
        );
        assert_eq!(http::find_header(&headers, "LOCATION"), Some("http://a/"));
        assert_eq!(http::find_header(&headers, "etag"), None);
        let value: crate::Value = http::decode_json(br#"{"allowed":true}"#).unwrap();
        assert_eq!(value["allowed"], true);
        assert!(matches!(
            http::decode_json::<crate::Value>(b"<html>"),
            Err(HttpError::Decode(_))
        ));
    }
}
