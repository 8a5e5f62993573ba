//! Gemini CLI compatibility: `.gemini/settings.json`, the `hooksConfig.enabled` /
//! `hooks.enabled` switches, `disabled` lists, and extensions with
//! `hooks/hooks.json` and `${extensionPath}`.

use serde_json::{Value, json};

use crate::common::{Fired, Project};

fn fire_gemini(p: &Project, event: &str, input: Value) -> Fired {
    p.fire_flags(event, input, &["--gemini-settings"])
}

fn gemini_settings(p: &Project, settings: Value) {
    p.write(
        ".gemini/settings.json",
        serde_json::to_vec_pretty(&settings).unwrap(),
    );
}

fn tool() -> Value {
    json!({"tool_name": "write_file", "tool_input": {}})
}

#[test]
fn gemini_settings_are_read_when_asked_with_either_switch() {
    for switch in [
        json!({"hooksConfig": {"enabled": true}}),
        json!({"hooks": {"enabled": true}}),
        json!({"tools": {"enableHooks": true}}),
    ] {
        let p = Project::new();
        let mut settings = switch.clone();
        let hooks = settings
            .as_object_mut()
            .unwrap()
            .entry("hooks")
            .or_insert_with(|| json!({}));
        hooks["BeforeTool"] =
            json!([{"hooks": [{"type": "command", "command": "echo gemini-hook", "name": "gem"}]}]);
        gemini_settings(&p, settings);
        let fired = fire_gemini(&p, "BeforeTool", tool());
        assert_eq!(
            fired.final_output()["systemMessage"],
            "gemini-hook",
            "{switch}: {}",
            fired.out
        );
        assert_eq!(fired.out["hooks"][0]["name"], "gem");
        let without = p.fire("BeforeTool", tool());
        assert_eq!(
            without.final_output(),
            &json!({}),
            "not read without --gemini-settings"
        );
    }
}

#[test]
fn hooks_enabled_false_disables_and_disabled_names_skip_hooks() {
    let p = Project::new();
    gemini_settings(
        &p,
        json!({"hooks": {"enabled": false, "BeforeTool": [{"hooks": [{"type": "command", "command": "echo x"}]}]}}),
    );
    assert_eq!(
        fire_gemini(&p, "BeforeTool", tool()).final_output(),
        &json!({})
    );

    let p = Project::new();
    gemini_settings(
        &p,
        json!({"hooksConfig": {"enabled": true, "disabled": ["noisy"]},
        "hooks": {"BeforeTool": [{"hooks": [
            {"type": "command", "command": "echo noisy", "name": "noisy"},
            {"type": "command", "command": "echo kept", "name": "kept", "description": "stays on"}
        ]}]}}),
    );
    let fired = fire_gemini(&p, "BeforeTool", tool());
    assert_eq!(
        fired.final_output()["systemMessage"],
        "kept",
        "{}",
        fired.out
    );
    assert!(
        fired.stderr.contains("disabled by settings"),
        "{}",
        fired.stderr
    );
}

#[test]
fn gemini_extensions_keep_hooks_in_hooks_json_with_extension_path() {
    let p = Project::new();
    let ext = ".gemini/extensions/guard";
    p.write(
        format!("{ext}/gemini-extension.json"),
        br#"{"name": "guard", "version": "1.0.0"}"#,
    );
    p.executable(format!("{ext}/scripts/check.sh"), "#!/bin/sh\ncat >/dev/null\necho '{\"decision\":\"block\",\"reason\":\"extension says no\"}'\n");
    p.write(
        format!("{ext}/hooks/hooks.json"),
        serde_json::to_vec(&json!({"hooks": {"BeforeTool": [{"matcher": "write_file", "hooks": [
            {"type": "command", "command": "${extensionPath}/scripts/check.sh", "name": "guard-check"}]}]}})).unwrap(),
    );
    gemini_settings(&p, json!({"hooksConfig": {"enabled": true}}));
    let fired = fire_gemini(&p, "BeforeTool", tool());
    assert_eq!(fired.code, 2, "{}\n{}", fired.out, fired.stderr);
    assert_eq!(fired.final_output()["reason"], "extension says no");
    assert!(
        fired.out["hooks"][0]["source"]
            .as_str()
            .unwrap()
            .contains("extension guard")
    );
}
