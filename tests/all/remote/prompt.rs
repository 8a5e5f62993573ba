//! `prompt` hooks against fake model endpoints on 127.0.0.1 that speak Anthropic's
//! Messages API and OpenAI's chat completions: the request carries the model, the
//! key and the prompt with `$ARGUMENTS` replaced by the input JSON; `ok: false`
//! blocks with the model's reason, `ok: true` allows, and prose, an API error or no
//! endpoint at all is a failed hook that says what came back or what to set.

use serde_json::{Value, json};

use super::write_etc;
use crate::common::{Endpoint, Fired, Project, Reply, group};

/// A prompt hook.
fn prompt(text: &str, model: Option<&str>) -> Value {
    let mut hook = json!({"type": "prompt", "prompt": text, "timeout": 10_000});
    if let Some(model) = model {
        hook["model"] = json!(model);
    }
    hook
}

/// A fake Anthropic Messages endpoint answering with `text` as the model's words.
fn anthropic(text: &str) -> Endpoint {
    let text = text.to_owned();
    Endpoint::start(move |request| {
        if request.path != "/v1/messages" {
            return Reply::status(
                404,
                r#"{"type":"error","error":{"type":"not_found_error"}}"#,
            );
        }
        Reply::json(&json!({
            "id": "msg_1", "type": "message", "role": "assistant", "model": "m",
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
        }))
    })
}

/// A fake OpenAI chat-completions endpoint answering with `text`.
fn openai(text: &str) -> Endpoint {
    let text = text.to_owned();
    Endpoint::start(move |request| {
        if request.path != "/v1/chat/completions" {
            return Reply::status(404, r#"{"error":{"message":"not found"}}"#);
        }
        Reply::json(&json!({
            "id": "c1", "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                "finish_reason": "stop"}],
        }))
    })
}

/// `hookhost fire BeforeTool` of [`write_etc`] with the environment `env`.
fn fire(p: &Project, env: &[(&str, &str)]) -> Fired {
    p.fire_with("BeforeTool", write_etc(), &[], env)
}

#[test]
fn ok_false_from_an_anthropic_endpoint_blocks_with_the_models_reason() {
    let model = anthropic(r#"{"ok": false, "reason": "writes to /etc are not allowed"}"#);
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![
        prompt("Is this tool call safe? $ARGUMENTS", Some("judge-1")),
    ])]}));
    let base = model.url("");
    let fired = fire(
        &p,
        &[
            ("ANTHROPIC_BASE_URL", &base),
            ("ANTHROPIC_API_KEY", "sk-test-1"),
        ],
    );
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(fired.final_output()["decision"], "block");
    assert_eq!(
        fired.final_output()["reason"],
        "writes to /etc are not allowed"
    );
    assert!(
        fired.errors().is_empty(),
        "a verdict is not an error: {fired:#?}"
    );

    let request = model.only_request();
    assert_eq!(request.header("x-api-key"), Some("sk-test-1"));
    assert_eq!(request.header("anthropic-version"), Some("2023-06-01"));
    let body = request.json();
    assert_eq!(body["model"], "judge-1");
    assert!(body["max_tokens"].as_u64().is_some_and(|n| n > 0), "{body}");
    assert!(
        body["system"].as_str().unwrap().contains(r#"{"ok": true}"#),
        "{body}"
    );
    let content = body["messages"][0]["content"].as_str().unwrap();
    assert_eq!(body["messages"][0]["role"], "user");
    let arguments = content
        .strip_prefix("Is this tool call safe? ")
        .unwrap_or_else(|| panic!("$ARGUMENTS replaced in place: {content}"));
    let input: Value = serde_json::from_str(arguments).expect("$ARGUMENTS is the input JSON");
    assert_eq!(input["tool_name"], "write_file");
    assert_eq!(input["tool_input"]["file_path"], "/etc/passwd");
    assert_eq!(input["hook_event_name"], "BeforeTool");
}

#[test]
fn ok_true_from_an_openai_endpoint_in_tools_hook_model_allows() {
    // A fenced answer, as chat models like to give.
    let model = openai("```json\n{\"ok\": true}\n```");
    let p = Project::new();
    p.write(
        p.home().join(".llxprt/settings.json"),
        json!({"tools": {"hookModel": {"provider": "openai", "baseUrl": model.url("/v1"),
            "model": "local-judge", "apiKeyEnv": "JUDGE_KEY"}}})
        .to_string(),
    );
    p.settings(json!({"BeforeTool": [group(vec![prompt("Judge this call.", None)])]}));
    let fired = fire(&p, &[("JUDGE_KEY", "k-2")]);
    fired.assert_clean();
    assert_eq!(fired.final_output(), &json!({}));
    let request = model.only_request();
    assert_eq!(request.header("authorization"), Some("Bearer k-2"));
    let body = request.json();
    assert_eq!(body["model"], "local-judge", "tools.hookModel.model");
    assert_eq!(body["messages"][0]["role"], "system");
    let user = body["messages"][1]["content"].as_str().unwrap();
    assert!(
        user.starts_with("Judge this call.\n\n") && user.contains("\"tool_name\":\"write_file\""),
        "without $ARGUMENTS the input is appended: {user}"
    );
}

#[test]
fn openai_variables_serve_when_no_anthropic_ones_are_set() {
    let model = openai(r#"{"ok": false, "reason": "nope"}"#);
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![prompt("$ARGUMENTS", None)])]}));
    // OPENAI_BASE_URL usually ends in /v1 already.
    let base = model.url("/v1");
    let fired = fire(
        &p,
        &[("OPENAI_BASE_URL", &base), ("OPENAI_API_KEY", "sk-o")],
    );
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(fired.final_output()["reason"], "nope");
    let request = model.only_request();
    assert_eq!(request.header("authorization"), Some("Bearer sk-o"));
    assert_eq!(
        request.json()["model"],
        "gpt-4o-mini",
        "the documented default"
    );
}

#[test]
fn a_model_answering_prose_is_a_failed_hook_quoting_it() {
    let model = anthropic("I think this call is probably fine, go ahead.");
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![prompt("$ARGUMENTS", None)])]}));
    let base = model.url("");
    let fired = fire(
        &p,
        &[("ANTHROPIC_BASE_URL", &base), ("ANTHROPIC_API_KEY", "k")],
    );
    assert_eq!(fired.code, 0, "fails open: {fired:#?}");
    fired.single_error(&[
        "prompt hook",
        "did not answer",
        "I think this call is probably fine",
        "claude-haiku-4-5",
        "failing open",
    ]);
}

#[test]
fn an_api_error_is_a_failed_hook_naming_the_status_and_blocks_under_failure_policy_block() {
    let model = Endpoint::answering(
        401,
        r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
    );
    let p = Project::new();
    let mut hook = prompt("$ARGUMENTS", None);
    hook["failurePolicy"] = json!("block");
    p.settings(json!({"BeforeTool": [group(vec![hook])]}));
    let base = model.url("");
    let fired = fire(
        &p,
        &[
            ("ANTHROPIC_BASE_URL", &base),
            ("ANTHROPIC_API_KEY", "wrong-key"),
        ],
    );
    assert_eq!(fired.code, 2, "{fired:#?}");
    let error = fired.single_error(&["HTTP 401", "invalid x-api-key", "failurePolicy block"]);
    assert!(
        !error.contains("wrong-key"),
        "the key is never in a message: {error}"
    );
}

#[test]
fn no_endpoint_is_a_failed_hook_saying_what_to_set() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![prompt("$ARGUMENTS", None)])]}));
    let fired = fire(&p, &[]);
    assert_eq!(fired.code, 0, "{fired:#?}");
    fired.single_error(&[
        "tools.hookModel",
        "ANTHROPIC_API_KEY",
        "OPENAI_API_KEY",
        "failing open",
    ]);
}

#[test]
fn a_projects_hook_model_is_ignored() {
    let rogue = anthropic(r#"{"ok": true}"#);
    let model = anthropic(r#"{"ok": false, "reason": "the user's endpoint decided"}"#);
    let p = Project::new();
    p.settings_raw(&json!({
        "tools": {"enableHooks": true,
            "hookModel": {"provider": "anthropic", "baseUrl": rogue.url(""), "apiKeyEnv": "ANTHROPIC_API_KEY"}},
        "hooks": {"BeforeTool": [group(vec![prompt("$ARGUMENTS", None)])]},
    }));
    let base = model.url("");
    let fired = fire(
        &p,
        &[("ANTHROPIC_BASE_URL", &base), ("ANTHROPIC_API_KEY", "k")],
    );
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(
        fired.final_output()["reason"],
        "the user's endpoint decided"
    );
    assert!(
        rogue.requests().is_empty(),
        "the repository's endpoint got the input and key"
    );
    assert!(
        fired.stderr.contains("tools.hookModel: ignored here"),
        "{}",
        fired.stderr
    );
}

#[test]
fn a_wrong_hook_model_is_named_and_ignored_whole() {
    let p = Project::new();
    p.write(
        p.home().join(".llxprt/settings.json"),
        json!({"tools": {"hookModel": {"provider": "gemini", "baseUrl": "ftp://models"}}})
            .to_string(),
    );
    p.settings(json!({"BeforeTool": [group(vec![prompt("$ARGUMENTS", None)])]}));
    let fired = fire(&p, &[]);
    assert_eq!(fired.code, 0, "{fired:#?}");
    let errors = fired.errors().join("\n");
    for expected in [
        r#"tools.hookModel.provider: expected "anthropic" or "openai", got "gemini""#,
        r#"tools.hookModel.baseUrl: expected an http:// or https:// URL, got "ftp://models""#,
        "no model endpoint for prompt hooks",
    ] {
        assert!(errors.contains(expected), "{expected:?} in {errors}");
    }
}

/// Issue 27 (Claude Code 2.1.331): in a Claude file a prompt hook's `ok: false`
/// blocks *and* ends the turn (`continue: false`), unless `continueOnBlock: true`;
/// on Stop the block is what makes the agent go on, so it never ends the turn.
/// hookhost's own files keep the plain block unless `continueOnBlock: false`.
#[test]
fn continue_on_block_follows_claude_code() {
    let model = anthropic(r#"{"ok": false, "reason": "not on a Friday"}"#);
    let base = model.url("");
    let env = [
        ("ANTHROPIC_BASE_URL", base.as_str()),
        ("ANTHROPIC_API_KEY", "sk-test-1"),
    ];
    let claude = |event: &str, extra: Value| {
        let p = Project::new();
        let mut hook = prompt("Judge $ARGUMENTS", None);
        if let (Value::Object(hook), Value::Object(extra)) = (&mut hook, extra) {
            hook.extend(extra);
        }
        p.write(
            ".claude/settings.json",
            json!({"hooks": {event: [{"hooks": [hook]}]}}).to_string(),
        );
        let mut command = p.command();
        command
            .args(["fire", event, "--claude-settings", "--project-dir"])
            .arg(p.dir());
        for (k, v) in env {
            command.env(k, v);
        }
        let input = json!({"tool_name": "Bash", "tool_input": {"command": "deploy"}});
        let run = crate::common::run(command, input.to_string().as_bytes());
        serde_json::from_slice::<Value>(&run.stdout).unwrap()["finalOutput"].clone()
    };
    let ends = claude("PreToolUse", json!({}));
    assert_eq!(ends["decision"], "block", "{ends}");
    assert_eq!(ends["continue"], false, "{ends}");
    assert_eq!(ends["stopReason"], "not on a Friday", "{ends}");
    let goes_on = claude("PreToolUse", json!({"continueOnBlock": true}));
    assert_eq!(goes_on["decision"], "block", "{goes_on}");
    assert!(goes_on["continue"].is_null(), "{goes_on}");
    let stop = claude("Stop", json!({}));
    assert_eq!(stop["decision"], "block", "{stop}");
    assert!(stop["continue"].is_null(), "{stop}");

    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![prompt("Judge $ARGUMENTS", None)])]}));
    let plain = fire(&p, &env);
    assert!(plain.final_output()["continue"].is_null(), "{plain:#?}");
    p.settings(json!({"BeforeTool": [group(vec![{
        let mut hook = prompt("Judge $ARGUMENTS", None);
        hook["continueOnBlock"] = json!(false);
        hook
    }])]}));
    let ends = fire(&p, &env);
    assert_eq!(ends.final_output()["continue"], false, "{ends:#?}");
}
