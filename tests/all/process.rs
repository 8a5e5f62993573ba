//! The hook as a process: timeouts and the kill sequence (seeds/001 §7.7), children
//! that hold the pipes, big inputs and outputs, and bytes that are not UTF-8.

use std::time::Duration;

use serde_json::json;

use crate::common::{
    Project, cmd, cmd_timeout, group, kill_pid, process_alive, read_pid, wait_gone,
};

/// The SIGTERM → SIGKILL grace of seeds/001 §7.7.
const KILL_GRACE: Duration = Duration::from_secs(5);
/// A generous allowance for a loaded machine.
const MARGIN: Duration = Duration::from_secs(10);

#[test]
fn kill_grace_is_five_seconds() {
    assert_eq!(hookhost::internals::KILL_GRACE, KILL_GRACE);
}

#[test]
fn a_hook_that_ignores_sigterm_is_killed_after_the_grace() {
    let p = Project::new();
    let hook = p.script(
        "stubborn.sh",
        "trap '' TERM\necho $$ > hook.pid\nsleep 30 &\necho $! > child.pid\nwait\nwait\necho '{\"decision\":\"block\"}'",
    );
    let timeout = Duration::from_millis(2000);
    p.settings(json!({"BeforeTool": [group(vec![cmd_timeout(&hook, 2000)])]}));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    assert_eq!(fired.code, 0, "{fired:#?}");
    assert_eq!(fired.final_output(), &json!({}));
    fired.single_error(&["stubborn.sh", "timed out after 2000 ms", "failing open"]);
    assert!(
        fired.elapsed < timeout + KILL_GRACE + MARGIN,
        "fire took {:?}",
        fired.elapsed
    );
    // SIGTERM was ignored, so only SIGKILL after the grace can have ended it.
    assert!(
        fired.elapsed >= timeout + KILL_GRACE,
        "the grace period was not honoured: {:?}",
        fired.elapsed
    );
    for file in ["hook.pid", "child.pid"] {
        let pid = read_pid(&p, file);
        assert!(
            wait_gone(pid, Duration::from_secs(2)),
            "{file}: process {pid} survived the timeout"
        );
    }
}

#[test]
fn a_hook_that_honours_sigterm_ends_at_the_timeout() {
    let p = Project::new();
    let hook = p.script(
        "slow.sh",
        "echo $$ > hook.pid\nsleep 30 &\necho $! > child.pid\nwait",
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd_timeout(&hook, 1500)])]}));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    assert_eq!(fired.code, 0);
    fired.single_error(&["timed out after 1500 ms"]);
    assert!(
        fired.elapsed < Duration::from_secs(20),
        "took {:?}",
        fired.elapsed
    );
    for file in ["hook.pid", "child.pid"] {
        let pid = read_pid(&p, file);
        assert!(
            wait_gone(pid, Duration::from_secs(2)),
            "{file}: {pid} survived"
        );
    }
}

#[test]
fn a_background_child_holding_the_pipes_does_not_hold_the_answer() {
    let p = Project::new();
    let hook = p.script(
        "bg.sh",
        "sleep 30 &\necho $! > child.pid\necho '{\"decision\":\"block\",\"reason\":\"answered before exit\"}'\nexit 0",
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(fired.final_output()["reason"], "answered before exit");
    assert!(fired.success());
    assert!(fired.errors().is_empty());
    assert!(
        fired.elapsed < Duration::from_secs(15),
        "fire waited for the background child: {:?}",
        fired.elapsed
    );
    let child = read_pid(&p, "child.pid");
    assert!(
        wait_gone(child, Duration::from_secs(2)),
        "the child that held the hook's pipes survived"
    );
}

#[test]
fn a_daemon_that_detached_its_stdio_is_left_alone() {
    let p = Project::new();
    let hook = p.script(
        "daemon.sh",
        "sleep 30 </dev/null >/dev/null 2>&1 &\necho $! > daemon.pid\necho '{\"systemMessage\":\"started\"}'",
    );
    p.settings(json!({"SessionStart": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("SessionStart", json!({"source": "startup"}));
    fired.assert_clean();
    assert_eq!(fired.final_output()["systemMessage"], "started");
    let daemon = read_pid(&p, "daemon.pid");
    let alive = process_alive(daemon);
    kill_pid(daemon);
    assert!(alive, "a daemon with its own stdio was killed");
}

#[test]
fn a_hook_that_never_reads_stdin_gets_a_1_mib_input() {
    let p = Project::new();
    let quick = p.script("quick.sh", r#"echo '{"systemMessage":"did not read"}'"#);
    let late = p.script(
        "late.sh",
        "sleep 0.3\necho '{\"systemMessage\":\"did not read either\"}'",
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&quick), cmd(&late)])]}));
    let content = "x".repeat(1024 * 1024);
    let fired = p.fire(
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {"content": content}}),
    );
    fired.assert_clean();
    assert_eq!(
        fired.final_output()["systemMessage"],
        "did not read\ndid not read either"
    );
}

#[test]
fn a_python_hook_reads_a_1_mib_input_whole() {
    let p = Project::new();
    let hook = p.python(
        "size.py",
        r#"import json, sys
event = json.load(sys.stdin)
print(json.dumps({"systemMessage": str(len(event["tool_input"]["content"]))}))"#,
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let content = "é".repeat(512 * 1024);
    let fired = p.fire(
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {"content": content}}),
    );
    fired.assert_clean();
    assert_eq!(fired.final_output()["systemMessage"], "524288");
}

const PREFIX: &str = r#"{"hookSpecificOutput":{"additionalContext":""#;
const SUFFIX: &str = r#""}}"#;

fn big_context_hook(p: &Project, bytes: usize) -> String {
    p.script(
        "big.sh",
        &format!(
            "printf '%s' '{PREFIX}'\nhead -c {bytes} /dev/zero | tr '\\0' x\nprintf '%s' '{SUFFIX}'"
        ),
    )
}

#[test]
fn two_mib_of_additional_context_are_delivered_whole() {
    let p = Project::new();
    let bytes = 2 * 1024 * 1024;
    let hook = big_context_hook(&p, bytes);
    p.settings(json!({"AfterTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire(
        "AfterTool",
        json!({"tool_name": "read_file", "tool_input": {}, "tool_response": {}}),
    );
    fired.assert_clean();
    let context = fired
        .specific("additionalContext")
        .as_str()
        .expect("additionalContext");
    assert_eq!(context.len(), bytes);
    assert!(context.bytes().all(|b| b == b'x'));
}

/// Issue 14 (seen 7): a cut-off answer on exit 0 is a failed hook (subject to
/// `failurePolicy`), not 16 MiB of `systemMessage`.
#[test]
fn twenty_mib_of_output_fail_the_hook_instead_of_becoming_a_message() {
    let p = Project::new();
    let bytes = 20 * 1024 * 1024;
    let hook = big_context_hook(&p, bytes);
    p.settings(json!({"AfterTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire_with(
        "AfterTool",
        json!({"tool_name": "read_file", "tool_input": {}, "tool_response": {}}),
        &[],
        &[("HOOKHOST_LOG", "warn")],
    );
    assert_eq!(fired.code, 0, "exit code");
    let cap = hookhost::internals::DEFAULT_OUTPUT_CAP;
    assert_eq!(cap, 16 * 1024 * 1024);
    let total = PREFIX.len() + bytes + SUFFIX.len();
    let warning = format!("stdout truncated to {cap} of {total} bytes");
    assert!(
        fired.stderr.contains(&warning),
        "no {warning:?} in stderr: {:.2000}",
        fired.stderr
    );
    // Cut JSON is no answer: nothing of it reaches the final output.
    assert_eq!(fired.final_output(), &json!({}), "{:.300}", fired.stderr);
    let error = fired.single_error(&["stdout", "output cap", "(failing open)"]);
    assert!(
        error.contains(&format!("wrote {total} bytes to stdout")),
        "{error}"
    );
    assert!(!fired.success());

    // With failurePolicy block, the cut-off answer blocks.
    let mut blocking = cmd(&hook);
    blocking["failurePolicy"] = json!("block");
    p.settings(json!({"AfterTool": [group(vec![blocking])]}));
    let fired = p.fire(
        "AfterTool",
        json!({"tool_name": "read_file", "tool_input": {}, "tool_response": {}}),
    );
    assert_eq!(fired.code, 2, "a blocking policy blocks");
    assert_eq!(fired.final_output()["decision"], "block");
    assert!(
        fired.final_output()["reason"]
            .as_str()
            .is_some_and(|r| r.contains("output cap")),
        "{}",
        fired.final_output()
    );
}

#[test]
fn twenty_mib_on_stderr_do_not_deadlock() {
    let p = Project::new();
    let hook = p.script(
        "noisy.sh",
        "head -c 20971520 /dev/zero | tr '\\0' e >&2\necho '{\"systemMessage\":\"done\"}'",
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd_timeout(&hook, 60_000)])]}));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    fired.assert_clean();
    assert_eq!(fired.final_output()["systemMessage"], "done");
}

#[test]
fn endless_output_is_stopped_by_the_timeout() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![cmd_timeout("yes", 500)])]}));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    assert_eq!(fired.code, 0);
    fired.single_error(&["timed out after 500 ms"]);
    assert_eq!(fired.final_output(), &json!({}));
}

#[test]
fn invalid_utf8_becomes_replacement_characters() {
    let p = Project::new();
    let plain = p.script("plain.sh", r"printf 'bad \377 byte'");
    p.settings(json!({"BeforeTool": [group(vec![cmd(&plain)])]}));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    fired.assert_clean();
    assert_eq!(fired.final_output()["systemMessage"], "bad \u{FFFD} byte");

    let q = Project::new();
    let in_json = q.script("json.sh", r#"printf '{"systemMessage":"a\377\376b"}'"#);
    q.settings(json!({"BeforeTool": [group(vec![cmd(&in_json)])]}));
    let fired = q.fire("BeforeTool", json!({"tool_name": "t"}));
    fired.assert_clean();
    assert_eq!(fired.final_output()["systemMessage"], "a\u{FFFD}\u{FFFD}b");
}

#[test]
fn invalid_utf8_on_stderr_becomes_replacement_characters_in_the_reason() {
    let p = Project::new();
    let hook = p.script("block.sh", r"printf 'no \377 way' >&2; exit 2");
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    assert_eq!(fired.code, 2);
    assert_eq!(fired.final_output()["reason"], "no \u{FFFD} way");
}

#[test]
fn multibyte_characters_survive() {
    let p = Project::new();
    let hook = p.script(
        "utf8.sh",
        r#"printf '{"systemMessage":"h\303\251llo \342\202\254 \360\237\230\200","reason":"\u00e9"}'"#,
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    fired.assert_clean();
    assert_eq!(fired.final_output()["systemMessage"], "héllo € 😀");
    assert_eq!(fired.final_output()["reason"], "é");
}

#[test]
fn a_multibyte_character_split_across_writes_survives() {
    let p = Project::new();
    let hook = p.python(
        "split.py",
        r#"import sys, time
out = sys.stdout.buffer
data = "€ and 😀".encode()
for i in range(len(data)):
    out.write(data[i:i + 1])
    out.flush()
    time.sleep(0.01)"#,
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    fired.assert_clean();
    assert_eq!(fired.final_output()["systemMessage"], "€ and 😀");
}
