//! Exit 2 blocks: the reason comes from stdout JSON, else stderr, else is generated;
//! `success` is false (a JSON block on exit 0 is true); stdout saying allow does not
//! undo it.

use serde_json::json;

use super::write_file;
use crate::common::{Project, cmd, group};

#[test]
fn exit_2_takes_the_reason_from_stdout_json() {
    let p = Project::new();
    let hook = p.script(
        "block.sh",
        "echo '{\"reason\":\"no writes to /etc\"}'\necho 'stderr is not the reason' >&2\nexit 2",
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(fired.final_output()["decision"], "block");
    assert_eq!(fired.final_output()["reason"], "no writes to /etc");
    assert!(
        !fired.success(),
        "exit 2 is success: false (seeds/001 §7.2)"
    );
    assert!(fired.errors().is_empty(), "a block is not an error");
    assert_eq!(fired.hooks()[0]["exitCode"], 2);
    assert_eq!(fired.hooks()[0]["blocked"], true);
}

#[test]
fn exit_2_is_success_false_while_a_json_block_on_exit_0_is_success_true() {
    // seeds/001 §7.2 and llxprt-code's hookRunner.exitCode tests: only exit 0 is
    // `success: true`; the block itself is the same either way.
    let p = Project::new();
    let by_exit = p.script("by-exit.sh", "echo 'denied by policy' >&2\nexit 2");
    let by_json = p.script(
        "by-json.sh",
        r#"echo '{"decision":"deny","reason":"denied by JSON"}'"#,
    );
    let quiet = p.script("quiet.sh", "exit 0");
    for (hooks, success, reason) in [
        (vec![cmd(&by_exit)], false, "denied by policy"),
        (vec![cmd(&by_json)], true, "denied by JSON"),
        (vec![cmd(&quiet), cmd(&by_exit)], false, "denied by policy"),
    ] {
        let n = hooks.len();
        p.settings(json!({"BeforeTool": [group(hooks)]}));
        let fired = p.fire("BeforeTool", write_file());
        assert_eq!(fired.code, 2, "still blocked: {fired:#?}");
        assert_eq!(fired.success(), success, "{fired:#?}");
        assert!(fired.errors().is_empty(), "{fired:#?}");
        assert_eq!(fired.final_output()["reason"], reason);
        let last = &fired.hooks()[n - 1];
        assert_eq!(last["success"], success, "{last}");
        assert_eq!(last["blocked"], true, "{last}");
        assert!(last.get("error").is_none(), "{last}");
        if n == 2 {
            assert_eq!(fired.hooks()[0]["success"], true);
        }
    }
}

#[test]
fn exit_2_takes_the_reason_from_stderr() {
    let p = Project::new();
    let hook = p.script(
        "block.sh",
        "echo 'plain stdout is no answer on exit 2'\necho 'Writing to /etc is prohibited' >&2\nexit 2",
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(
        fired.final_output(),
        &json!({"decision": "block", "reason": "Writing to /etc is prohibited"})
    );
}

#[test]
fn exit_2_without_any_reason_still_blocks_with_a_generated_one() {
    let p = Project::new();
    let hook = p.script("block.sh", "exit 2");
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    assert_eq!(fired.code, 2);
    assert_eq!(fired.final_output()["decision"], "block");
    let reason = fired.final_output()["reason"].as_str().expect("a reason");
    assert!(
        reason.contains("exit code 2") && reason.contains("block.sh"),
        "{reason}"
    );
}

#[test]
fn exit_2_blocks_even_when_stdout_says_allow() {
    let p = Project::new();
    let hook = p.script(
        "block.sh",
        "echo '{\"decision\":\"allow\",\"reason\":\"contradiction\"}'\nexit 2",
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    assert_eq!(fired.code, 2);
    assert_eq!(fired.final_output()["decision"], "block");
    assert_eq!(fired.final_output()["reason"], "contradiction");
}
