//! Reading the files: `enableHooks` comes from the highest-priority file that sets it
//! (never from an extension), a broken or missing file does not stop the others, and
//! settings may contain comments.

use serde_json::json;

use super::tool;
use crate::common::{Project, cmd, group, say};

#[test]
fn enable_hooks_comes_from_the_highest_priority_file_that_sets_it() {
    let p = Project::new();
    p.settings_raw(&json!({"tools": {"enableHooks": false}, "hooks": {"BeforeTool": [group(vec![cmd("touch p.marker")])]}}));
    p.write(
        p.home().join(".llxprt/settings.json"),
        json!({"tools": {"enableHooks": true}, "hooks": {"BeforeTool": [group(vec![cmd("touch u.marker")])]}}).to_string(),
    );
    let fired = p.fire("BeforeTool", tool("t"));
    fired.assert_switched_off();
    assert!(
        !p.exists("p.marker") && !p.exists("u.marker"),
        "project said false"
    );

    // A project file that does not set it leaves the decision to the user file.
    p.settings_raw(&json!({"hooks": {"BeforeTool": [group(vec![cmd("touch p.marker")])]}}));
    p.fire("BeforeTool", tool("t")).assert_clean();
    assert!(p.exists("p.marker") && p.exists("u.marker"));
}

#[test]
fn a_broken_file_does_not_stop_the_others() {
    let p = Project::new();
    p.settings_text("{ this is not json");
    p.write(
        p.home().join(".llxprt/settings.json"),
        json!({"tools": {"enableHooks": true}, "hooks": {"BeforeTool": [group(vec![cmd(&say("user hook ran"))])]}}).to_string(),
    );
    let fired = p.fire("BeforeTool", tool("t"));
    assert_eq!(fired.code, 0, "{fired:#?}");
    assert_eq!(fired.final_output()["systemMessage"], "user hook ran");
    fired.single_error(&["project settings .llxprt/settings.json", "not valid JSON"]);
    assert!(fired.stderr.contains("not valid JSON"), "{}", fired.stderr);
}

#[test]
fn a_missing_explicit_settings_file_is_an_error_but_the_others_run() {
    let p = Project::new();
    let good = p.extra_settings(
        "good.json",
        json!({"BeforeTool": [group(vec![cmd(&say("good"))])]}),
    );
    let missing = p.outside().join("missing.json");
    let fired = p.fire_settings("BeforeTool", tool("t"), &[&missing, &good]);
    assert_eq!(fired.code, 0);
    assert_eq!(fired.final_output()["systemMessage"], "good");
    fired.single_error(&["missing.json", "cannot read"]);
}

#[test]
fn an_extension_cannot_switch_hooks_on() {
    let p = Project::new();
    p.write(
        ".llxprt/extensions/sneaky/llxprt-extension.json",
        json!({"name": "sneaky", "tools": {"enableHooks": true},
               "hooks": {"BeforeTool": [group(vec![cmd("touch sneaky.marker")])]}})
        .to_string(),
    );
    let fired = p.fire("BeforeTool", tool("t"));
    fired.assert_switched_off();
    assert!(
        !p.exists("sneaky.marker"),
        "an extension manifest enabled the hook system"
    );
    let check = p.check(&[]);
    // Declared hooks that do not run fail `check`, with the fix.
    assert_eq!(check.code, 1, "{check:#?}");
    assert!(
        check.stderr.contains("NONE of them runs")
            && check.stderr.contains("project or user settings"),
        "{}",
        check.stderr
    );
    assert!(
        check.stdout_text().contains("hooks are disabled"),
        "{}",
        check.stdout_text()
    );
    assert!(
        check.stderr.contains(
            "warning: extension sneaky (.llxprt/extensions/sneaky/llxprt-extension.json): \
             tools.enableHooks: ignored in an extension manifest"
        ),
        "{}",
        check.stderr
    );
    // Nor switch them off: the user's settings decide, and the extension's hook runs.
    p.settings(json!({}));
    p.write(
        ".llxprt/extensions/sneaky/llxprt-extension.json",
        json!({"tools": {"enableHooks": false},
               "hooks": {"BeforeTool": [group(vec![cmd("touch sneaky.marker")])]}})
        .to_string(),
    );
    p.fire("BeforeTool", tool("t")).assert_clean();
    assert!(p.exists("sneaky.marker"));
}

/// Settings files are JSON with comments, as LLxprt and Gemini CLI read them.
#[test]
fn settings_may_contain_comments() {
    let p = Project::new();
    p.settings_text(
        "{\n  // hooks on\n  \"tools\": {\"enableHooks\": true}, /* and one hook */\n  \"hooks\": {\"BeforeTool\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"echo commented\"}]}]}\n}\n",
    );
    let fired = p.fire(
        "BeforeTool",
        serde_json::json!({"tool_name": "t", "tool_input": {}}),
    );
    assert_eq!(
        fired.final_output()["systemMessage"],
        "commented",
        "{}",
        fired.out
    );
}

/// LLxprt Code 0.9 runs hooks only when `tools.enableHooks` (default true) and
/// `hooksConfig.enabled` (default false) are both on (issue 27, item 6): a file it
/// reads as off never runs hooks here, and `hooksConfig.enabled: true` alone
/// switches them on, as in LLxprt.
#[test]
fn llxprt_hooks_config_enabled_is_honoured_beside_enable_hooks() {
    let p = Project::new();
    let hooks = json!({"BeforeTool": [group(vec![cmd("touch ran.marker")])]});
    p.settings_raw(
        &json!({"tools": {"enableHooks": true}, "hooksConfig": {"enabled": false}, "hooks": hooks}),
    );
    let fired = p.fire("BeforeTool", tool("t"));
    assert!(
        !p.exists("ran.marker"),
        "LLxprt reads this file as off: {fired:#?}"
    );
    p.settings_raw(&json!({"hooksConfig": {"enabled": true}, "hooks": hooks}));
    p.fire("BeforeTool", tool("t")).assert_clean();
    assert!(
        p.exists("ran.marker"),
        "hooksConfig.enabled alone switches hooks on"
    );
}
