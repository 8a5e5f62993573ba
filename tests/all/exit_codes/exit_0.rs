//! Exit 0: JSON on stdout is the answer (a block decision blocks), plain text or JSON
//! that is not an object becomes a system message, empty stdout allows, double-encoded
//! JSON is decoded once more, broken JSON and wrongly typed fields do not fail the hook,
//! and stderr does not count.

use serde_json::json;

use super::write_file;
use crate::common::{Project, cmd, group};

#[test]
fn exit_0_with_json_is_the_answer() {
    let p = Project::new();
    let hook = p.script(
        "answer.sh",
        r#"echo '{"decision":"allow","reason":"fine","systemMessage":"hello","custom":{"k":[1,2]}}'"#,
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert_eq!(
        fired.final_output(),
        &json!({"decision": "allow", "reason": "fine", "systemMessage": "hello", "custom": {"k": [1, 2]}})
    );
    assert_eq!(fired.all_outputs().len(), 1);
    assert_eq!(fired.all_outputs()[0]["custom"], json!({"k": [1, 2]}));
    assert_eq!(fired.hooks()[0]["exitCode"], 0);
    assert_eq!(fired.hooks()[0]["success"], true);
    assert_eq!(fired.hooks()[0]["blocked"], false);
}

#[test]
fn exit_0_with_a_block_decision_blocks() {
    let p = Project::new();
    let hook = p.script(
        "deny.sh",
        r#"echo '{"decision":"deny","reason":"Writing to /etc is prohibited"}'"#,
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert!(fired.success(), "a block is not a failure");
    assert!(fired.errors().is_empty());
    assert_eq!(fired.final_output()["decision"], "deny");
    assert_eq!(
        fired.final_output()["reason"],
        "Writing to /etc is prohibited"
    );
}

#[test]
fn exit_0_with_plain_text_becomes_a_system_message() {
    let p = Project::new();
    let hook = p.script("text.sh", "echo 'just some text'\necho 'second line'");
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert_eq!(
        fired.final_output(),
        &json!({"systemMessage": "just some text\nsecond line"})
    );
}

#[test]
fn exit_0_with_json_that_is_not_an_object_is_plain_text() {
    let p = Project::new();
    let hook = p.script("array.sh", r#"echo '["block"]'"#);
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert_eq!(
        fired.final_output(),
        &json!({"systemMessage": "[\"block\"]"})
    );
}

#[test]
fn exit_0_with_empty_stdout_allows_without_changes() {
    let p = Project::new();
    let hook = p.script("silent.sh", "exit 0");
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert_eq!(fired.final_output(), &json!({}));
    assert!(fired.all_outputs().is_empty());
    assert_eq!(fired.hooks().len(), 1, "the hook ran");
    assert_eq!(fired.hooks()[0]["exitCode"], 0);
}

#[test]
fn double_encoded_json_on_exit_0_is_decoded_once_more() {
    // hookRunner.test.ts "should handle double-encoded JSON string" (both references).
    let p = Project::new();
    let answer = json!({"decision": "block", "reason": "decoded twice", "systemMessage": "m"});
    let encoded = serde_json::to_string(&answer.to_string()).unwrap();
    let hook = p.script("double.sh", &format!("cat <<'EOF'\n{encoded}\nEOF"));
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert!(fired.success(), "a JSON answer on exit 0: {fired:#?}");
    assert_eq!(fired.final_output(), &answer);
    assert_eq!(fired.all_outputs(), &vec![answer]);

    // A JSON string holding anything but an object stays plain text, quotes and all.
    for stdout in [
        r#""just words""#,
        r#""[\"block\"]""#,
        r#""42""#,
        r#""\"{}\"""#,
    ] {
        let hook = p.script("string.sh", &format!("cat <<'EOF'\n{stdout}\nEOF"));
        p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
        let fired = p.fire("BeforeTool", write_file());
        fired.assert_clean();
        assert_eq!(
            fired.final_output(),
            &json!({"systemMessage": stdout}),
            "{stdout}"
        );
    }
}

#[test]
fn stderr_on_exit_0_does_not_affect_the_decision() {
    let p = Project::new();
    let hook = p.script(
        "noisy.sh",
        "echo '{\"decision\":\"block\",\"reason\":\"from stderr\"}' >&2\necho 'warning: lots of noise' >&2\necho '{\"systemMessage\":\"ok\"}'",
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert_eq!(fired.final_output(), &json!({"systemMessage": "ok"}));
}

#[test]
fn json_parse_error_becomes_a_system_message() {
    let p = Project::new();
    let hook = p.script("broken.sh", r#"printf '{"decision": "block", "reason": '"#);
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert_eq!(
        fired.final_output(),
        &json!({"systemMessage": "{\"decision\": \"block\", \"reason\":"})
    );
}

#[test]
fn wrongly_typed_output_fields_are_dropped_but_the_rest_counts() {
    let p = Project::new();
    let hook = p.script(
        "typed.sh",
        r#"echo '{"decision":"maybe","continue":"no","systemMessage":"kept"}'"#,
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert_eq!(fired.final_output(), &json!({"systemMessage": "kept"}));
}
