//! Sequential execution and chaining (seeds/001 §7.4, §8.1 sequential example).

use serde_json::{Value, json};

use crate::common::{Project, cmd, group};

/// A hook that saves its stdin to `file` (in the project dir) and prints nothing.
fn recorder(p: &Project, name: &str, file: &str) -> Value {
    cmd(&p.script(name, &format!("cat > {file}")))
}

/// A Python hook that rewrites `tool_input.file_path` into the safe dir, as seeds/002's
/// "Modify Input" example.
fn rewriter(p: &Project) -> Value {
    cmd(&p.python(
        "rewrite.py",
        r#"import json, sys
event = json.load(sys.stdin)
tool_input = dict(event["tool_input"])
tool_input["file_path"] = "/safe/path/" + tool_input["file_path"].rsplit("/", 1)[-1]
tool_input["rewritten_by"] = "rewrite.py"
print(json.dumps({"decision": "allow", "hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": tool_input}}))"#,
    ))
}

fn write_input() -> Value {
    json!({"tool_name": "write_file", "tool_input": {"file_path": "/etc/passwd", "content": "Hello, world!"}})
}

#[test]
fn before_tool_rewritten_tool_input_is_what_the_next_hook_receives() {
    let p = Project::new();
    let second = recorder(&p, "record.sh", "seen.json");
    p.settings(json!({"BeforeTool": [{"sequential": true, "hooks": [rewriter(&p), second]}]}));
    let fired = p.fire("BeforeTool", write_input());
    fired.assert_clean();
    let seen = p.read_json("seen.json");
    let expected = json!({"file_path": "/safe/path/passwd", "content": "Hello, world!", "rewritten_by": "rewrite.py"});
    assert_eq!(seen["tool_input"], expected);
    assert_eq!(seen["tool_name"], "write_file");
    assert_eq!(seen["hook_event_name"], "BeforeTool");
    // The caller gets the replacement too.
    assert_eq!(fired.specific("tool_input"), &expected);
    assert_eq!(fired.final_output()["decision"], "allow");
}

#[test]
fn without_sequential_the_second_hook_sees_the_original_input() {
    // The control for the chaining tests: in parallel nothing is carried forward.
    let p = Project::new();
    let second = recorder(&p, "record.sh", "seen.json");
    p.settings(json!({"BeforeTool": [group(vec![rewriter(&p), second])]}));
    let fired = p.fire("BeforeTool", write_input());
    fired.assert_clean();
    assert_eq!(
        p.read_json("seen.json")["tool_input"],
        write_input()["tool_input"]
    );
    assert_eq!(
        fired.specific("tool_input")["file_path"],
        "/safe/path/passwd"
    );
}

#[test]
fn any_sequential_group_makes_the_whole_event_sequential() {
    let p = Project::new();
    let second = recorder(&p, "record.sh", "seen.json");
    p.settings(json!({"BeforeTool": [
        {"hooks": [rewriter(&p)]},
        {"matcher": "write_file", "sequential": true, "hooks": [second]}
    ]}));
    let fired = p.fire("BeforeTool", write_input());
    fired.assert_clean();
    assert_eq!(
        p.read_json("seen.json")["tool_input"]["file_path"],
        "/safe/path/passwd",
        "the hook of the non-sequential group must have run first and been chained"
    );
}

#[test]
fn sequential_hooks_run_one_after_another_in_order() {
    let p = Project::new();
    // Each hook appends its name when it starts and when it ends; parallel runs would
    // interleave.
    let mut hooks = Vec::new();
    for name in ["one", "two", "three"] {
        let script = p.script(
            &format!("{name}.sh"),
            &format!("echo start-{name} >> order.txt\nsleep 0.2\necho end-{name} >> order.txt"),
        );
        hooks.push(cmd(&script));
    }
    p.settings(json!({"BeforeTool": [{"sequential": true, "hooks": hooks}]}));
    p.fire("BeforeTool", write_input()).assert_clean();
    assert_eq!(
        p.read("order.txt"),
        "start-one\nend-one\nstart-two\nend-two\nstart-three\nend-three\n"
    );
}

#[test]
fn before_model_sequential_b_sees_temperature_0_and_the_rest_of_the_request() {
    let p = Project::new();
    let a = p.script(
        "a.sh",
        r#"echo '{"hookSpecificOutput":{"llm_request":{"config":{"temperature":0.0}}}}'"#,
    );
    let b = p.script(
        "b.sh",
        "cat > b-seen.json\necho '{\"hookSpecificOutput\":{\"llm_request\":{\"config\":{\"temperature\":1.0}}}}'",
    );
    p.settings(json!({"BeforeModel": [{"sequential": true, "hooks": [cmd(&a), cmd(&b)]}]}));
    let request = json!({
        "model": "gemini-2.5-pro",
        "messages": [{"role": "user", "content": "hi"}],
        "config": {"temperature": 0.7, "maxOutputTokens": 1024}
    });
    let fired = p.fire("BeforeModel", json!({"llm_request": request}));
    fired.assert_clean();
    let seen = p.read_json("b-seen.json");
    assert_eq!(
        seen["llm_request"]["config"]["temperature"].as_f64(),
        Some(0.0)
    );
    assert_eq!(
        seen["llm_request"]["config"]["maxOutputTokens"], 1024,
        "a partial patch keeps the other fields"
    );
    assert_eq!(seen["llm_request"]["model"], "gemini-2.5-pro");
    assert_eq!(seen["llm_request"]["messages"], request["messages"]);
    // The final request is the whole chained request with B's change.
    let final_request = fired.specific("llm_request");
    assert_eq!(final_request["config"]["temperature"].as_f64(), Some(1.0));
    assert_eq!(final_request["config"]["maxOutputTokens"], 1024);
    assert_eq!(final_request["model"], "gemini-2.5-pro");
}

#[test]
fn before_model_chaining_can_add_messages() {
    let p = Project::new();
    let a = p.python(
        "inject.py",
        r#"import json, sys
event = json.load(sys.stdin)
messages = event["llm_request"]["messages"] + [{"role": "user", "content": "Context: the repo uses tabs."}]
print(json.dumps({"hookSpecificOutput": {"llm_request": {"messages": messages}}}))"#,
    );
    let b = recorder(&p, "record.sh", "seen.json");
    p.settings(json!({"BeforeModel": [{"sequential": true, "hooks": [cmd(&a), b]}]}));
    let fired = p.fire(
        "BeforeModel",
        json!({"llm_request": {"model": "m", "messages": [{"role": "user", "content": "hi"}]}}),
    );
    fired.assert_clean();
    let expected = json!([
        {"role": "user", "content": "hi"},
        {"role": "user", "content": "Context: the repo uses tabs."}
    ]);
    assert_eq!(
        p.read_json("seen.json")["llm_request"]["messages"],
        expected
    );
    assert_eq!(fired.specific("llm_request")["messages"], expected);
}

#[test]
fn a_block_in_a_sequential_chain_stops_the_chain() {
    let p = Project::new();
    let first = p.script("first.sh", "touch first.marker");
    let blocker = p.script("block.sh", "echo 'stop right here' >&2\nexit 2");
    let last = p.script("last.sh", "touch last.marker");
    p.settings(json!({"BeforeTool": [{"sequential": true, "hooks": [cmd(&first), cmd(&blocker), cmd(&last)]}]}));
    let fired = p.fire("BeforeTool", write_input());
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(fired.final_output()["reason"], "stop right here");
    assert!(p.exists("first.marker"));
    assert!(!p.exists("last.marker"), "a hook after the block ran");
    assert_eq!(fired.hooks().len(), 2);
}

#[test]
fn a_json_deny_in_a_sequential_chain_stops_it_too() {
    let p = Project::new();
    let blocker = p.script("deny.sh", r#"echo '{"decision":"deny","reason":"nope"}'"#);
    let last = p.script("last.sh", "touch last.marker");
    p.settings(
        json!({"BeforeModel": [{"sequential": true, "hooks": [cmd(&blocker), cmd(&last)]}]}),
    );
    let fired = p.fire("BeforeModel", json!({"llm_request": {"model": "m"}}));
    assert_eq!(fired.code, 2);
    assert_eq!(fired.final_output()["reason"], "nope");
    assert!(!p.exists("last.marker"));
}

#[test]
fn a_failed_hook_in_a_chain_passes_the_input_on_unchanged() {
    let p = Project::new();
    let failing = p.script(
        "fail.sh",
        r#"echo '{"hookSpecificOutput":{"tool_input":{"file_path":"/evil"}}}'; exit 1"#,
    );
    let last = recorder(&p, "record.sh", "seen.json");
    p.settings(
        json!({"BeforeTool": [{"sequential": true, "hooks": [rewriter(&p), cmd(&failing), last]}]}),
    );
    let fired = p.fire("BeforeTool", write_input());
    assert_eq!(fired.code, 0);
    assert_eq!(fired.errors().len(), 1);
    assert_eq!(
        p.read_json("seen.json")["tool_input"]["file_path"],
        "/safe/path/passwd"
    );
}

#[test]
fn tool_selection_chaining_puts_the_tool_config_into_the_request() {
    let p = Project::new();
    let a = p.script(
        "a.sh",
        r#"echo '{"hookSpecificOutput":{"toolConfig":{"mode":"ANY","allowedFunctionNames":["read_file"]}}}'"#,
    );
    let b = recorder(&p, "record.sh", "seen.json");
    p.settings(json!({"BeforeToolSelection": [{"sequential": true, "hooks": [cmd(&a), b]}]}));
    let fired = p.fire(
        "BeforeToolSelection",
        json!({"llm_request": {"model": "m"}}),
    );
    fired.assert_clean();
    assert_eq!(
        p.read_json("seen.json")["llm_request"]["toolConfig"],
        json!({"mode": "ANY", "allowedFunctionNames": ["read_file"]})
    );
}

#[test]
fn after_model_chaining_merges_the_response() {
    let p = Project::new();
    let a = p.script(
        "a.sh",
        r#"echo '{"hookSpecificOutput":{"llm_response":{"text":"[redacted]"}}}'"#,
    );
    let b = recorder(&p, "record.sh", "seen.json");
    p.settings(json!({"AfterModel": [{"sequential": true, "hooks": [cmd(&a), b]}]}));
    let fired = p.fire(
        "AfterModel",
        json!({"llm_request": {"model": "m"}, "llm_response": {"text": "mail me at a@b.c", "usageMetadata": {"totalTokenCount": 7}}}),
    );
    fired.assert_clean();
    let seen = p.read_json("seen.json");
    assert_eq!(seen["llm_response"]["text"], "[redacted]");
    assert_eq!(seen["llm_response"]["usageMetadata"]["totalTokenCount"], 7);
    assert_eq!(fired.specific("llm_response")["text"], "[redacted]");
}

#[test]
fn before_agent_chaining_appends_additional_context_to_the_prompt() {
    let p = Project::new();
    let a = p.script(
        "a.sh",
        r#"echo '{"hookSpecificOutput":{"additionalContext":"Use British spelling."}}'"#,
    );
    let b = recorder(&p, "record.sh", "seen.json");
    p.settings(json!({"BeforeAgent": [{"sequential": true, "hooks": [cmd(&a), b]}]}));
    p.fire("BeforeAgent", json!({"prompt": "Fix the colors"}))
        .assert_clean();
    assert_eq!(
        p.read_json("seen.json")["prompt"],
        "Fix the colors\n\nUse British spelling."
    );
}

/// Seen (issue 27, item 6): a hook answering part of `tool_input` replaced the
/// whole of it for the next hook; gemini-cli's and llxprt-code's `hookRunner.ts`
/// merge it (`{...tool_input, ...newToolInput}`), and so does hookhost.
#[test]
fn before_tool_chaining_merges_a_partial_tool_input() {
    let p = Project::new();
    let partial = r#"echo '{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"file_path":"/safe/x"}}}'"#;
    p.settings(json!({"BeforeTool": [{"sequential": true, "hooks": [
        json!({"type": "command", "command": partial}),
        recorder(&p, "record.py", "seen.json"),
    ]}]}));
    let fired = p.fire("BeforeTool", write_input());
    fired.assert_clean();
    let expected = json!({"file_path": "/safe/x", "content": "Hello, world!"});
    assert_eq!(p.read_json("seen.json")["tool_input"], expected);
    assert_eq!(fired.specific("tool_input"), &expected);
}
