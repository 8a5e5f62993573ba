//! Adversarial command hooks: a fork bomb, a hook that closes its stdout early,
//! 100 MiB and garbage on stdout, a deeply nested answer, fifty hooks on one event,
//! a hook deleting its own script.

use std::time::{Duration, Instant};

use hookhost::HookEvent;
use serde_json::{Value, json};

use super::{KILL_GRACE, MARGIN, build, marker, write_file};
use crate::common::{Project, cmd, cmd_timeout, eventually, group, processes_with};

/// A bounded fork bomb: 64 children that ignore SIGTERM and keep the pipes, then
/// endless fork churn. The timeout's process-group kill ends all of it: SIGTERM,
/// the 5 s grace (the children ignore it and hold the pipes), SIGKILL.
#[test]
fn a_fork_bomb_is_bounded_by_the_process_group_kill() {
    let p = Project::new();
    let marker = marker("bomb");
    let script = p.script(
        &format!("{marker}.sh"),
        &format!(
            r#"i=0
while [ $i -lt 64 ]; do
  sh -c 'trap "" TERM; while :; do sleep 1; done' {marker}-child &
  i=$((i+1))
done
while :; do /bin/true; done"#
        ),
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd_timeout(&script, 1000)])]}));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    assert_eq!(fired.code, 0, "{fired:#?}");
    assert_eq!(fired.final_output(), &json!({}));
    fired.single_error(&[&marker, "timed out after 1000 ms", "(failing open)"]);
    let timeout = Duration::from_millis(1000);
    assert!(
        fired.elapsed >= timeout + KILL_GRACE,
        "the children ignore SIGTERM and hold the pipes, so only SIGKILL after the grace ends them: {:?}",
        fired.elapsed
    );
    assert!(
        fired.elapsed < timeout + KILL_GRACE + MARGIN,
        "fire took {:?}",
        fired.elapsed
    );
    let left = eventually(Duration::from_secs(3), || processes_with(&marker));
    assert!(left.is_empty(), "bomb processes survived: {left:?}");
}

/// A hook that answers, closes its stdout and keeps running briefly: the answer
/// counts and the fire waits only for the exit.
#[test]
fn a_hook_that_closes_stdout_early_is_obeyed() {
    let p = Project::new();
    let early = p.script(
        "early.sh",
        "echo '{\"systemMessage\":\"said before closing\"}'\nexec >&- 2>&-\nsleep 0.5\nexit 0",
    );
    let silent = p.script("silent.sh", "exec >&-\nsleep 0.5\nexit 0");
    p.settings(json!({
        "BeforeTool": [group(vec![cmd(&early)])],
        "AfterTool": [group(vec![cmd(&silent)])],
    }));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    fired.assert_clean();
    assert_eq!(
        fired.final_output(),
        &json!({"systemMessage": "said before closing"})
    );
    assert!(
        fired.elapsed >= Duration::from_millis(500),
        "the hook's exit was not awaited: {:?}",
        fired.elapsed
    );
    assert!(fired.elapsed < MARGIN, "{:?}", fired.elapsed);
    let fired = p.fire("AfterTool", json!({"tool_name": "t", "tool_response": {}}));
    fired.assert_clean();
    assert_eq!(fired.final_output(), &json!({}));
}

/// 100 MiB on stdout: the capture keeps the 16 MiB cap, the fire completes, and
/// the cut-off answer fails the hook (fail-open) instead of becoming a 16 MiB
/// message.
#[tokio::test(flavor = "multi_thread")]
async fn a_hundred_mebibytes_of_stdout_are_capped_at_sixteen() {
    const CAP: usize = 16 * 1024 * 1024;
    let p = Project::new();
    let settings = p.settings(json!({"BeforeTool": [group(vec![
        cmd(r"head -c 104857600 /dev/zero | tr '\000' x")
    ])]}));
    let system = build(&p, &settings, false);
    let start = Instant::now();
    let result = system.fire(HookEvent::BeforeTool, write_file("a")).await;
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{:?}",
        start.elapsed()
    );
    assert!(!result.is_blocked());
    let execution = &result.executions[0];
    assert_eq!(execution.exit_code, Some(0));
    assert_eq!(execution.stdout.len(), CAP);
    assert_eq!(
        result.errors,
        [format!(
            "command hook {:?} wrote 104857600 bytes to stdout, more than the {CAP}-byte output cap; \
             its answer was cut off and is ignored (failing open)",
            r"head -c 104857600 /dev/zero | tr '\000' x"
        )]
    );
    assert!(!result.success);
    assert_eq!(result.final_output.system_message, None);
}

/// Binary garbage (NUL, invalid UTF-8) and two JSON documents are not one JSON
/// object: the text becomes `systemMessage` and the operation is allowed — even
/// though both documents say "block".
#[test]
fn garbage_and_two_json_documents_on_stdout_are_plain_text() {
    let p = Project::new();
    let garbage = p.script("garbage.sh", r"printf '\000\001\377\376garbage\200'");
    let two = p.script(
        "two.sh",
        r#"printf '{"decision":"block","reason":"one"}\n{"decision":"block","reason":"two"}\n'"#,
    );
    p.settings(json!({
        "BeforeTool": [{"matcher": "^garbage$", "hooks": [cmd(&garbage)]},
                       {"matcher": "^two$", "hooks": [cmd(&two)]}],
    }));
    let fired = p.fire("BeforeTool", json!({"tool_name": "garbage"}));
    fired.assert_clean();
    assert_eq!(
        fired.final_output(),
        &json!({"systemMessage": "\u{0}\u{1}\u{fffd}\u{fffd}garbage\u{fffd}"})
    );
    let fired = p.fire("BeforeTool", json!({"tool_name": "two"}));
    fired.assert_clean();
    assert_eq!(
        fired.final_output(),
        &json!({"systemMessage":
            "{\"decision\":\"block\",\"reason\":\"one\"}\n{\"decision\":\"block\",\"reason\":\"two\"}"})
    );
}

/// A JSON answer nested 100,000 levels deep is not parsed into a stack overflow:
/// serde_json's recursion limit makes it plain text (exit 0) or a stderr reason
/// (exit 2).
#[test]
fn a_deeply_nested_answer_does_not_crash_the_host() {
    let p = Project::new();
    let deep = p.python(
        "deep.py",
        "import sys\nprint('[' * 100000 + ']' * 100000)\nprint('deep', file=sys.stderr)\nsys.exit(int(sys.argv[1]))",
    );
    p.settings(json!({
        "BeforeTool": [{"matcher": "^zero$", "hooks": [cmd(&format!("{deep} 0"))]},
                       {"matcher": "^two$", "hooks": [cmd(&format!("{deep} 2"))]}],
    }));
    let fired = p.fire("BeforeTool", json!({"tool_name": "zero"}));
    fired.assert_clean();
    let message = fired.final_output()["systemMessage"].as_str().unwrap();
    assert_eq!(message.len(), 200_000);
    let fired = p.fire("BeforeTool", json!({"tool_name": "two"}));
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(
        fired.final_output(),
        &json!({"decision": "block", "reason": "deep"})
    );
}

/// 50 hooks on one event (plus 10 duplicates, dropped): all 50 run, concurrently,
/// and their messages are joined in plan order.
#[test]
fn fifty_hooks_on_one_event_all_run() {
    let p = Project::new();
    let hooks: Vec<Value> = (0..60)
        .map(|i| {
            cmd(&format!(
                "echo hook-{} > /dev/null; echo hook {}",
                i % 50,
                i % 50
            ))
        })
        .collect();
    p.settings(json!({"BeforeTool": [group(hooks[..30].to_vec()), group(hooks[30..].to_vec())]}));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    fired.assert_clean();
    assert_eq!(fired.hooks().len(), 50, "{fired:#?}");
    let expected: Vec<String> = (0..50).map(|i| format!("hook {i}")).collect();
    assert_eq!(fired.final_output()["systemMessage"], expected.join("\n"));
    assert_eq!(fired.all_outputs().len(), 50);
}

/// A hook that deletes its own script while running still answers; the next fire
/// finds no script and fails open with exit 127.
#[test]
fn a_hook_deleting_its_own_script_mid_run() {
    let p = Project::new();
    let script = p.script(
        "self-delete.sh",
        "rm -f -- \"$0\"\nsleep 0.1\necho '{\"decision\":\"block\",\"reason\":\"deleted myself\"}'",
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&script)])]}));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(fired.final_output()["reason"], "deleted myself");
    assert!(!p.exists(&script), "the script is gone");
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    assert_eq!(fired.code, 0, "{fired:#?}");
    fired.run_error_after_missing_program(&[
        "hooks/self-delete.sh",
        "exited with code 127 (command not found)",
        "(failing open)",
    ]);
}
