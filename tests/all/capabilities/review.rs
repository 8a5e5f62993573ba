//! The grants are part of what is reviewed: `hookhost trust` approves them (a new
//! host or state needs a new approval), `check` shows them, `plugin inspect` names
//! the grant each import needs.

use serde_json::json;

use super::{capability, fire_hooks, said};
use crate::common::{Project, cache_dir, group, run};

#[test]
fn a_new_host_or_state_needs_a_new_approval() {
    let p = Project::new();
    let user = p.home().join(".llxprt/settings.json");
    std::fs::create_dir_all(p.home().join(".llxprt")).expect("mkdir");
    std::fs::write(
        &user,
        json!({"tools": {"requireHookTrust": true}}).to_string(),
    )
    .expect("write");
    let hooks =
        |extra| json!({"BeforeTool": [group(vec![capability(&["kv-get", "", "k"], extra)])]});

    p.settings(hooks(json!({"state": true})));
    let approved = p.trust(&[]);
    assert_eq!(approved.code, 0, "{approved:#?}");
    let shown = approved.stdout_text() + &approved.stderr;
    assert!(
        shown.contains("\"state\":{\"maxBytes\":1048576}"),
        "{shown}"
    );
    let fired = super::fire(&p);
    assert_eq!(said(&fired), "none", "approved, it runs: {fired:#?}");

    // The repository adds a host: the approval no longer covers the hook.
    p.settings(hooks(
        json!({"state": true, "allowedHosts": ["exfil.example"]}),
    ));
    let cache = cache_dir();
    let fired = p.fire_with(
        "BeforeTool",
        json!({"tool_name": "x", "tool_input": {}}),
        &[],
        &[("HOOKHOST_CACHE_DIR", &cache)],
    );
    assert!(
        fired.final_output()["systemMessage"].is_null(),
        "it ran: {fired:#?}"
    );
    let text = fired.out.to_string() + &fired.stderr;
    assert!(
        text.contains("not approved") || text.contains("trust"),
        "{text}"
    );
}

#[test]
fn plugin_inspect_names_each_capability_and_its_grant() {
    let p = Project::new();
    let mut command = p.command();
    command
        .args(["plugin", "inspect", hookhost_tests::CAPABILITIES])
        .env("HOOKHOST_CACHE_DIR", cache_dir());
    let inspected = run(command, b"").stdout_text();
    assert!(
        inspected.contains(
            "wasi:http/outgoing-handler@0.2.12  (linked; needs the hook's \"allowedHosts\""
        ),
        "{inspected}"
    );
    assert!(
        inspected.contains("wasi:keyvalue/store@0.2.0-draft  (linked; needs the hook's \"state\""),
        "{inspected}"
    );
    assert!(
        inspected.contains("wasi:logging/logging@0.1.0-draft  (granted)"),
        "{inspected}"
    );
    assert!(inspected.contains("runnable: yes"), "{inspected}");
}

#[test]
fn check_shows_the_grants_of_each_hook() {
    let p = Project::new();
    let fired = fire_hooks(
        &p,
        vec![capability(
            &["log", "1"],
            json!({"allowedHosts": ["api.example.com", "*.corp.example:8443"], "state": {"maxBytes": 4096}}),
        )],
    );
    fired.assert_clean();
    let checked = p.check(&[]).stdout_text();
    assert!(
        checked.contains("grant network: api.example.com, *.corp.example:8443"),
        "{checked}"
    );
    assert!(
        checked.contains("grant state: up to 4096 bytes (project "),
        "{checked}"
    );
}

#[test]
fn bad_grants_name_the_file_the_hook_and_the_field() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![capability(
        &["log", "1"],
        json!({"allowedHosts": ["https://api.example.com/v1", "*"], "state": {"maxBytes": -1}}),
    )])]}));
    let checked = p.check(&[]);
    let text = checked.stdout_text() + &checked.stderr;
    assert!(text.contains("hooks.BeforeTool[0].hooks[0].allowedHosts[0]: \"https://api.example.com/v1\" is a host, not a URL: write \"api.example.com\""), "{text}");
    assert!(text.contains("allowedHosts[1]"), "{text}");
    assert!(text.contains("state.maxBytes"), "{text}");
}

#[test]
fn grants_to_a_preview1_module_are_flagged() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![json!({
        "type": "plugin", "path": hookhost_tests::ECHO_POLICY_P1, "state": true
    })])]}));
    let checked = p.check(&[]);
    let text = checked.stdout_text() + &checked.stderr;
    assert!(
        text.contains("is a preview-1 module: \"allowedHosts\" and \"state\""),
        "{text}"
    );
}
