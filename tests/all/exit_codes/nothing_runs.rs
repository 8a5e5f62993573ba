//! When no hook runs: hooks disabled or off by default, none configured for the event,
//! no settings file, a matcher that does not match. Nothing is spawned and the answer
//! is empty.

use serde_json::json;

use super::write_file;
use crate::common::{Project, cmd, group};

#[test]
fn disabled_hooks_spawn_no_process() {
    let p = Project::new();
    let hook = p.script(
        "marker.sh",
        "touch ran.marker\necho '{\"decision\":\"block\"}'",
    );
    p.settings_raw(&json!({
        "tools": {"enableHooks": false},
        "hooks": {"BeforeTool": [group(vec![cmd(&hook)])]}
    }));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_switched_off();
    assert_eq!(fired.final_output(), &json!({}));
    assert!(fired.all_outputs().is_empty());
    assert!(fired.hooks().is_empty());
    assert!(
        !p.exists("ran.marker"),
        "a disabled hook system spawned a hook"
    );
}

#[test]
fn enable_hooks_defaults_to_false() {
    let p = Project::new();
    let hook = p.script("marker.sh", "touch ran.marker");
    p.settings_raw(&json!({"hooks": {"BeforeTool": [group(vec![cmd(&hook)])]}}));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_switched_off();
    assert!(!p.exists("ran.marker"));
    // The same settings with the switch on do run it: the test can fail.
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    p.fire("BeforeTool", write_file()).assert_clean();
    assert!(p.exists("ran.marker"));
}

#[test]
fn no_hooks_configured_for_the_event() {
    let p = Project::new();
    let hook = p.script("marker.sh", "touch ran.marker");
    p.settings(json!({"AfterTool": [group(vec![cmd(&hook)])]}));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert_eq!(fired.final_output(), &json!({}));
    assert!(fired.hooks().is_empty());
    assert!(!p.exists("ran.marker"));

    let empty = Project::new();
    empty.settings(json!({}));
    let fired = empty.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert_eq!(fired.out["finalOutput"], json!({}));
    assert_eq!(fired.out["allOutputs"], json!([]));
}

#[test]
fn no_settings_file_at_all() {
    let p = Project::new();
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert_eq!(fired.final_output(), &json!({}));
}

#[test]
fn matcher_that_does_not_match_runs_nothing() {
    let p = Project::new();
    let hook = p.script("marker.sh", "touch ran.marker\nexit 2");
    p.settings(json!({"BeforeTool": [{"matcher": "run_shell_command", "hooks": [cmd(&hook)]}]}));
    let fired = p.fire("BeforeTool", write_file());
    fired.assert_clean();
    assert!(fired.hooks().is_empty());
    assert!(!p.exists("ran.marker"));
}
