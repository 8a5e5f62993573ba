//! Trust for project hooks: with `tools.requireHookTrust`, project and extension
//! hooks run only after `hookhost trust` approved them — commands by their exact
//! string, plugins by their file's SHA-256.

use hookhost_tests as guests;
use serde_json::json;

use crate::common::Project;

fn require_trust_for_user(p: &Project) {
    let dir = p.home().join(".llxprt");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("settings.json"),
        json!({"tools": {"requireHookTrust": true}}).to_string(),
    )
    .unwrap();
}

fn input() -> serde_json::Value {
    json!({"tool_name": "write_file", "tool_input": {}})
}

#[test]
fn untrusted_project_command_is_skipped_until_approved() {
    let p = Project::new();
    require_trust_for_user(&p);
    p.settings(json!({"BeforeTool": [{"hooks": [{"type": "command", "command": "touch ran; echo '{\"decision\":\"block\",\"reason\":\"r\"}'"}]}]}));
    let fired = p.fire("BeforeTool", input());
    assert_eq!(
        fired.code, 0,
        "an untrusted hook must not run: {}",
        fired.out
    );
    assert!(!p.exists("ran"));
    assert!(
        fired.stderr.contains("untrusted command hook"),
        "{}",
        fired.stderr
    );
    assert!(
        fired.stderr.contains("hookhost trust --project-dir"),
        "{}",
        fired.stderr
    );

    let listed = p.trust(&["--list"]);
    assert!(
        listed.stdout_text().contains("not approved"),
        "{}",
        listed.stdout_text()
    );
    assert_eq!(
        p.fire("BeforeTool", input()).code,
        0,
        "--list approves nothing"
    );

    let approved = p.trust(&[]);
    assert_eq!(approved.code, 0, "{}", approved.stderr);
    assert!(
        approved.stdout_text().contains("approved"),
        "{}",
        approved.stdout_text()
    );
    let fired = p.fire("BeforeTool", input());
    assert_eq!(fired.code, 2, "{}", fired.out);
    assert!(p.exists("ran"));

    // A changed command string is a new, untrusted hook.
    p.settings(json!({"BeforeTool": [{"hooks": [{"type": "command", "command": "touch ran2; echo '{\"decision\":\"block\"}'"}]}]}));
    assert_eq!(p.fire("BeforeTool", input()).code, 0);
    assert!(!p.exists("ran2"));
}

#[test]
fn plugins_are_trusted_by_digest() {
    let p = Project::new();
    require_trust_for_user(&p);
    std::fs::copy(guests::ECHO_POLICY, p.path("policy.wasm")).unwrap();
    p.settings(json!({"BeforeTool": [{"hooks": [{"type": "plugin", "path": "policy.wasm"}]}]}));
    let blocked_input = json!({"tool_name": "write_file", "tool_input": {"path": "/etc/x"}});
    assert_eq!(
        p.fire("BeforeTool", blocked_input.clone()).code,
        0,
        "untrusted plugin must not run"
    );
    assert_eq!(p.trust(&[]).code, 0);
    assert_eq!(p.fire("BeforeTool", blocked_input.clone()).code, 2);
    // Another file at the same path is another plugin.
    std::fs::copy(guests::ECHO_POLICY_P1, p.path("policy.wasm")).unwrap();
    let fired = p.fire("BeforeTool", blocked_input);
    assert_eq!(fired.code, 0, "{}", fired.out);
    assert!(
        fired.stderr.contains("untrusted plugin hook"),
        "{}",
        fired.stderr
    );
}

#[test]
fn a_project_cannot_waive_trust_and_user_hooks_need_none() {
    let p = Project::new();
    let dir = p.home().join(".llxprt");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("settings.json"),
        json!({"tools": {"requireHookTrust": true},
               "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "echo user-hook"}]}]}})
        .to_string(),
    )
    .unwrap();
    p.settings_raw(&json!({"tools": {"enableHooks": true, "requireHookTrust": false},
        "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "echo project-hook"}]}]}}));
    let fired = p.fire("BeforeTool", input());
    assert_eq!(
        fired.final_output()["systemMessage"],
        "user-hook",
        "{}",
        fired.out
    );
    assert!(
        fired.stderr.contains("requireHookTrust: ignored here"),
        "{}",
        fired.stderr
    );
}

#[test]
fn without_trust_required_project_hooks_run() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [{"hooks": [{"type": "command", "command": "echo fine"}]}]}));
    assert_eq!(
        p.fire("BeforeTool", input()).final_output()["systemMessage"],
        "fine"
    );
}
