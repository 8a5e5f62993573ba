//! Claude Code plugins: a plugin directory loads with `--claude-plugin DIR`
//! (`${CLAUDE_PLUGIN_ROOT}` its directory), and installed plugins load with
//! `--claude-settings` when a Claude settings file enables them.

use serde_json::json;

use super::{check_with, claude_input, corpus, hook};
use crate::common::{Project, claude_deny_reason};

/// A Claude Code plugin directory loads with `--claude-plugin DIR`:
/// `hooks/hooks.json` in Claude's format, `${CLAUDE_PLUGIN_ROOT}` its directory.
#[test]
fn a_claude_code_plugin_directory_loads() {
    let p = Project::new();
    let dir = p.outside().join("my plugin");
    std::fs::create_dir_all(dir.join(".claude-plugin")).unwrap();
    std::fs::write(
        dir.join(".claude-plugin/plugin.json"),
        r#"{"name": "rm-guard", "version": "1.0.0"}"#,
    )
    .unwrap();
    p.executable(
        dir.join("scripts/block-rm-rf.sh"),
        &std::fs::read_to_string(corpus("block-rm-rf.sh")).unwrap(),
    );
    std::fs::create_dir_all(dir.join("hooks")).unwrap();
    std::fs::write(
        dir.join("hooks/hooks.json"),
        json!({"description": "no rm -rf", "hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/scripts/block-rm-rf.sh\"", "timeout": 10}]}]}})
        .to_string(),
    )
    .unwrap();
    let plugin = dir.to_str().unwrap();
    let fields = json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf build"}});
    let fired = p.fire_flags("PreToolUse", fields.clone(), &["--claude-plugin", plugin]);
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(
        fired.final_output()["reason"],
        "Blocked: rm -rf is not allowed here"
    );
    let out = hook(
        &p,
        &claude_input(&p, "PreToolUse", fields),
        &["--claude-plugin", plugin],
        &[],
    );
    assert_eq!(
        claude_deny_reason(&out).as_deref(),
        Some("Blocked: rm -rf is not allowed here"),
        "{out:?}"
    );
    let check = check_with(&p, &["--claude-plugin", plugin]);
    assert_eq!(check.code, 0, "{check:#?}");
    assert!(
        check.stdout_text().contains("claude plugin rm-guard"),
        "{}",
        check.stdout_text()
    );
}

/// Claude Code's installed plugins load with `--claude-settings` when a Claude
/// settings file enables them.
#[test]
fn installed_and_enabled_claude_plugins_load() {
    let p = Project::new();
    let dir = p.home().join(".claude/plugins/cache/market/rm-guard/1.0.0");
    p.executable(
        dir.join("scripts/block-rm-rf.sh"),
        &std::fs::read_to_string(corpus("block-rm-rf.sh")).unwrap(),
    );
    p.write(
        dir.join(".claude-plugin/plugin.json"),
        r#"{"name": "rm-guard"}"#,
    );
    p.write(
        dir.join("hooks/hooks.json"),
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/scripts/block-rm-rf.sh"}]}]}})
        .to_string(),
    );
    p.write(
        p.home().join(".claude/plugins/installed_plugins.json"),
        json!({"version": 2, "plugins": {"rm-guard@market": [{"scope": "user", "installPath": dir, "version": "1.0.0"}]}})
            .to_string(),
    );
    let fields = json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}});
    for (enabled, code) in [(false, 0), (true, 2)] {
        p.write(
            p.home().join(".claude/settings.json"),
            json!({"enabledPlugins": {"rm-guard@market": enabled}}).to_string(),
        );
        let fired = p.fire_flags("PreToolUse", fields.clone(), &["--claude-settings"]);
        assert_eq!(fired.code, code, "enabled {enabled}: {fired:#?}");
    }
}
