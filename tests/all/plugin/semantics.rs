//! What a plugin's answer means: a component and a preview-1 module block with exit 2,
//! the shell and plugin versions of one policy agree, plugins aggregate and chain with
//! command hooks, identical plugins are deduplicated, exit codes mean what a process's
//! do, plugins of one event run concurrently, and the example policies decide as
//! documented.

use hookhost_tests as guests;
use serde_json::{Value, json};

use super::{adversary, before_tool, errors, fire, plugin, with};
use crate::common::{Project, cmd, group};

#[test]
fn component_blocks_with_exit_2_and_allows_otherwise() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![plugin(guests::ECHO_POLICY)])]}));
    let blocked = fire(
        &p,
        "BeforeTool",
        before_tool(json!({"path": "/etc/passwd"})),
    );
    assert_eq!(blocked.code, 2, "{}", blocked.out);
    assert_eq!(blocked.out["finalOutput"]["decision"], "block");
    assert_eq!(
        blocked.out["finalOutput"]["reason"],
        "echo-policy: writing to /etc/passwd is prohibited"
    );
    assert_eq!(blocked.out["hooks"][0]["exitCode"], 2);
    // A plugin's exit 2 means what a process's does: a block, `success: false`.
    assert_eq!(blocked.out["success"], false);
    assert_eq!(blocked.out["hooks"][0]["blocked"], true);
    assert_eq!(blocked.out["errors"], json!([]));
    let allowed = fire(&p, "BeforeTool", before_tool(json!({"path": "/home/x"})));
    assert_eq!(allowed.code, 0, "{}", allowed.out);
    assert_eq!(allowed.out["hooks"][0]["exitCode"], 0);
    assert_eq!(allowed.out["errors"], json!([]));
}

#[test]
fn preview1_module_has_the_same_semantics() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![plugin(guests::ECHO_POLICY_P1)])]}));
    let blocked = fire(
        &p,
        "BeforeTool",
        before_tool(json!({"path": "/etc/shadow"})),
    );
    assert_eq!(blocked.code, 2, "{}", blocked.out);
    assert_eq!(
        blocked.out["finalOutput"]["reason"],
        "echo-policy: writing to /etc/shadow is prohibited"
    );
    let allowed = fire(&p, "BeforeTool", before_tool(json!({"path": "ok.txt"})));
    assert_eq!(allowed.code, 0);
    // Seen (issue 28, item 2): every preview-1 module was said to import functions
    // "which hookhost denies" — fd_write, proc_exit … are granted.
    assert!(!allowed.stderr.contains("denies"), "{}", allowed.stderr);
    let check = p.check(&[]);
    assert_eq!(check.code, 0, "{check:?}");
    assert!(!check.stderr.contains("denies"), "{}", check.stderr);
}

/// The same policy written as a shell hook and as a plugin gives identical results.
#[test]
fn shell_and_plugin_versions_of_a_policy_agree() {
    let shell = Project::new();
    let script = shell.script(
        "echo-policy.sh",
        r#"python3 -c '
import json, sys
ti = json.load(sys.stdin).get("tool_input") or {}
path = ti.get("path") or ""
if path.startswith("/etc"):
    print(json.dumps({"decision": "block", "reason": "echo-policy: writing to %s is prohibited" % path}))
    sys.exit(2)
if ti.get("rewrite"):
    ti["rewritten"] = True
    print(json.dumps({"hookSpecificOutput": {"tool_input": ti, "hookEventName": "BeforeTool"}}))
else:
    print("{}")
'"#,
    );
    shell.settings(json!({"BeforeTool": [group(vec![cmd(&script)])]}));
    let wasm = Project::new();
    wasm.settings(json!({"BeforeTool": [group(vec![plugin(guests::ECHO_POLICY)])]}));
    let cases = [
        json!({"path": "/etc/hosts"}),
        json!({"path": "/tmp/x"}),
        json!({"path": "src/main.rs", "rewrite": true}),
        json!({}),
    ];
    for tool_input in cases {
        let a = fire(&shell, "BeforeTool", before_tool(tool_input.clone()));
        let b = fire(&wasm, "BeforeTool", before_tool(tool_input.clone()));
        assert_eq!(a.code, b.code, "exit code for {tool_input}");
        assert_eq!(
            a.out["finalOutput"], b.out["finalOutput"],
            "finalOutput for {tool_input}"
        );
        assert_eq!(a.out["success"], b.out["success"]);
    }
}

#[test]
fn mixed_command_and_plugin_hooks_or_aggregate() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![
        cmd(r#"echo '{"decision":"allow","systemMessage":"shell says hi"}'"#),
        plugin(guests::ECHO_POLICY),
    ])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({"path": "/etc/x"})));
    assert_eq!(fired.code, 2);
    assert_eq!(fired.out["finalOutput"]["decision"], "block");
    assert_eq!(fired.out["finalOutput"]["systemMessage"], "shell says hi");
    assert_eq!(fired.out["allOutputs"].as_array().unwrap().len(), 2);
    assert_eq!(fired.out["hooks"][1]["type"], "plugin");
}

#[test]
fn sequential_chain_crosses_hook_types() {
    let p = Project::new();
    let recorder = p.script("record.sh", "cat > \"$LLXPRT_PROJECT_DIR/seen.json\"");
    p.settings(json!({"BeforeTool": [{"sequential": true, "hooks": [
        plugin(guests::ECHO_POLICY),
        cmd(&recorder),
        with(plugin(guests::ECHO_POLICY), json!({"env": {"ECHO_INPUT": "1"}})),
    ]}]}));
    let fired = fire(
        &p,
        "BeforeTool",
        before_tool(json!({"path": "a.txt", "rewrite": true})),
    );
    assert_eq!(fired.code, 0, "{}", fired.out);
    let seen = p.read_json("seen.json");
    assert_eq!(
        seen["tool_input"],
        json!({"path": "a.txt", "rewrite": true, "rewritten": true})
    );
    assert_eq!(
        fired.out["finalOutput"]["hookSpecificOutput"]["tool_input"]["rewritten"],
        true
    );
    // The third hook (a plugin) received the chained input too.
    let message = fired.out["finalOutput"]["systemMessage"].as_str().unwrap();
    assert!(message.contains(r#""rewritten":true"#), "{message}");
}

#[test]
fn a_blocking_plugin_stops_the_chain() {
    let p = Project::new();
    let marker = p.script("marker.sh", "touch \"$LLXPRT_PROJECT_DIR/ran\"");
    p.settings(json!({"BeforeTool": [{"sequential": true, "hooks": [
        plugin(guests::ECHO_POLICY), cmd(&marker)]}]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({"path": "/etc/x"})));
    assert_eq!(fired.code, 2);
    assert!(!p.exists("ran"), "the hook after the block must not run");
}

#[test]
fn identical_plugins_are_deduplicated_but_other_settings_are_not() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![
        plugin(guests::ECHO_POLICY),
        plugin(guests::ECHO_POLICY),
        with(plugin(guests::ECHO_POLICY), json!({"fuel": 123_456_789})),
    ])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert_eq!(
        fired.out["hooks"].as_array().unwrap().len(),
        2,
        "{}",
        fired.out
    );
}

#[test]
fn exit_codes_mean_what_a_process_exit_means() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![adversary("exit1")])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert_eq!(fired.code, 0);
    assert!(
        errors(&fired).contains("exited with code 1"),
        "{}",
        errors(&fired)
    );

    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![adversary("exit2-stderr")])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert_eq!(fired.code, 2);
    assert_eq!(
        fired.out["finalOutput"]["reason"],
        "adversary: blocked via stderr"
    );

    // Rust's std::process::exit(2) on wasm32-wasip2 arrives as 1: fail-open.
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![adversary("exit2-std")])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert_eq!(fired.code, 0);
    assert_eq!(fired.out["hooks"][0]["exitCode"], 1);
}

/// Several plugins for one event run concurrently.
#[test]
fn plugins_on_one_event_run_concurrently() {
    let p = Project::new();
    let sleepers: Vec<Value> = (0..4)
        .map(|i| {
            with(
                adversary("sleep"),
                json!({"timeout": 700, "env": {"N": i.to_string()}}),
            )
        })
        .collect();
    p.settings(json!({"BeforeTool": [group(sleepers)]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert_eq!(fired.out["hooks"].as_array().unwrap().len(), 4);
    let total = fired.out["totalDuration"].as_f64().unwrap();
    assert!(
        total < 4.0 * 700.0,
        "four 700 ms deadlines took {total} ms: not concurrent"
    );
}

#[test]
fn example_policies_decide_as_documented() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![plugin(guests::GUARD_PATHS), plugin(guests::SECRET_SCAN)])]}));
    let outside = fire(
        &p,
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {"file_path": "/etc/passwd", "content": "x"}}),
    );
    assert_eq!(outside.code, 2, "{}", outside.out);
    let secret = fire(
        &p,
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {"file_path": "config.py", "content": "key = \"AKIAIOSFODNN7EXAMPLE\"\n"}}),
    );
    assert_eq!(secret.code, 2, "{}", secret.out);
    let reason = secret.out["finalOutput"]["reason"].as_str().unwrap();
    assert!(
        !reason.contains("AKIAIOSFODNN7EXAMPLE"),
        "the secret must not be echoed: {reason}"
    );
    let fine = fire(
        &p,
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {"file_path": "notes.md", "content": "hello"}}),
    );
    assert_eq!(fine.code, 0, "{}", fine.out);

    let p = Project::new();
    p.write("policy/allowed-tools.txt", "# tools\nread_file\nglob\n");
    p.settings(
        json!({"BeforeToolSelection": [group(vec![with(plugin(guests::TOOL_ALLOWLIST),
        json!({"preopens": [{"host": "policy", "guest": "/policy"}]}))])],
        "AfterModel": [group(vec![plugin(guests::REDACT_EMAIL)])]}),
    );
    let selection = fire(
        &p,
        "BeforeToolSelection",
        json!({"llm_request": {"model": "m", "messages": []}}),
    );
    assert_eq!(
        selection.out["finalOutput"]["hookSpecificOutput"]["toolConfig"]["allowedFunctionNames"],
        json!(["glob", "read_file"]),
        "{}",
        selection.out
    );
    let redacted = fire(
        &p,
        "AfterModel",
        json!({"llm_request": {}, "llm_response": {"text": "mail bob@example.com now"}}),
    );
    let text = redacted.out["finalOutput"]["hookSpecificOutput"]["llm_response"]["text"]
        .as_str()
        .unwrap();
    assert!(!text.contains("bob@example.com"), "{text}");
}

/// Seen (issue 28, item 1): a plugin referenced from a Claude file got Claude's
/// names on stdin, which the guest SDK does not know, and its policy allowed
/// everything. Plugins always get hookhost's canonical input: the same policy
/// decides the same from a Claude file and from hookhost's own.
#[test]
fn a_plugin_decides_the_same_from_a_claude_file() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        json!({"hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [
            {"type": "plugin", "path": guests::ECHO_POLICY}
        ]}]}})
        .to_string(),
    );
    let mut command = p.command();
    command
        .args(["hook", "--claude-settings"])
        .env("CLAUDE_PROJECT_DIR", p.dir());
    let stdin = json!({"session_id": "s", "transcript_path": "/t", "cwd": p.dir(),
        "hook_event_name": "PreToolUse", "tool_name": "Write",
        "tool_input": {"path": "/etc/shadow", "content": "x"}});
    let answer = crate::common::run(command, stdin.to_string().as_bytes());
    assert_eq!(
        crate::common::claude_deny_reason(&answer).as_deref(),
        Some("echo-policy: writing to /etc/shadow is prohibited"),
        "{answer:?}"
    );
}
