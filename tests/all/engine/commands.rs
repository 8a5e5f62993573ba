//! Commands: the exec form (`args`), `shell`, per-OS commands, and variables
//! that expand without ever becoming shell syntax.

use serde_json::json;

use super::{bash_call, claude_hook, permission};
use crate::common::{Project, group};

/// Seen (issue 26, item 2): `"command": "node", "args": [...]` ran bare `node`.
#[test]
fn exec_form_runs_the_program_with_its_arguments_and_no_shell() {
    let p = Project::new();
    let deny = r#"import json; print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "exec form ran"}}))"#;
    p.claude_settings(json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "python3", "args": ["-c", deny]}
    ]}]}));
    let denied = claude_hook(&p, bash_call(&p, "rm -rf /"));
    assert_eq!(
        crate::common::claude_deny_reason(&denied).as_deref(),
        Some("exec form ran"),
        "{denied:?}"
    );
    // No shell: `$HOME` and `;` reach the program as written.
    p.settings(json!({"BeforeTool": [group(vec![
        json!({"type": "command", "command": "echo", "args": ["$HOME;", "`id`"]})
    ])]}));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    fired.assert_clean();
    assert_eq!(fired.final_output()["systemMessage"], "$HOME; `id`");
}

#[test]
fn the_command_for_this_os_replaces_command() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![
        json!({"type": "command", "command": "echo base",
               "commandLinux": "echo linux", "commandDarwin": "echo darwin",
               "commandWindows": "echo windows"}),
        json!({"type": "command", "commandLinux": "echo only-linux",
               "commandDarwin": "echo only-darwin"}),
    ])]}));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    fired.assert_clean();
    let expected = if cfg!(target_os = "macos") {
        "darwin"
    } else {
        "linux"
    };
    let message = fired.final_output()["systemMessage"]
        .as_str()
        .unwrap_or("")
        .to_owned();
    assert!(
        message.contains(&format!("echo {expected}").replace("echo ", "")),
        "{message}"
    );
    assert!(message.contains(&format!("only-{expected}")), "{message}");
    assert!(!message.contains("base"), "{message}");
}

#[test]
fn shell_bash_runs_bash_and_an_unknown_shell_is_a_load_error() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![
        json!({"type": "command", "shell": "bash", "command": "[[ -n $BASH_VERSION ]] && echo in-bash"}),
        json!({"type": "command", "shell": "fish", "command": "echo never"}),
    ])]}));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    assert_eq!(
        fired.final_output()["systemMessage"],
        "in-bash",
        "{fired:#?}"
    );
    assert!(
        fired.errors().iter().any(|e| e.contains("hooks[1].shell")),
        "{:?}",
        fired.errors()
    );
}

/// seeds/004's variables, and Claude's, expand — and a value full of shell syntax
/// stays a string in every quoting context.
#[test]
fn variables_expand_without_injecting_shell_syntax() {
    let p = Project::new();
    let ext = p.path(".llxprt/extensions/vars");
    p.write(
        ext.join("llxprt-extension.json"),
        json!({"name": "vars", "version": "1.0.0", "hooks": {"BeforeTool": [group(vec![
            json!({"type": "command",
                   "command": "printf '%s|' ${pluginDir} \"${cwd}\" '${env:EVIL}' ${env:EVIL} ${sep} ${plugindir} \"${pluginDataDir}\"; test -d \"$CLAUDE_PLUGIN_DATA\" && echo data-dir-made"}),
        ])]}})
        .to_string(),
    );
    p.settings(json!({}));
    let evil = "$(touch pwned1); touch pwned2 `touch pwned3` ' \"";
    let fired = p.fire_with(
        "BeforeTool",
        json!({"tool_name": "t"}),
        &[],
        &[
            ("EVIL", evil),
            ("XDG_DATA_HOME", p.home().join("data").to_str().unwrap()),
        ],
    );
    fired.assert_clean();
    let message = fired.final_output()["systemMessage"]
        .as_str()
        .unwrap_or("")
        .to_owned();
    let data = p.home().join("data/hookhost/plugin-data/vars");
    let expected = format!(
        // `${plugindir}` (a typo) is left to the shell as written, which expands an
        // unset variable to nothing — the "file not found" seeds/004 means.
        "{}|{}|{evil}|{evil}|/|{}|data-dir-made",
        ext.display(),
        p.dir().display(),
        data.display()
    );
    assert_eq!(message, expected);
    for marker in ["pwned1", "pwned2", "pwned3"] {
        assert!(
            !p.exists(marker) && !p.outside().join(marker).exists(),
            "{marker} was created"
        );
    }
    assert!(data.is_dir(), "the data dir was not created");
}

/// Claude's `${CLAUDE_PLUGIN_ROOT}` in a Claude plugin's hooks, also inside single
/// quotes (Claude substitutes it textually), and a directory name with shell syntax.
#[test]
fn claude_plugin_root_expands_in_any_quoting_and_stays_data() {
    let p = Project::new();
    let plugin = p.path("plug $(touch pwned) 'q'");
    p.write(
        plugin.join(".claude-plugin/plugin.json"),
        r#"{"name": "plug"}"#,
    );
    p.write(
        plugin.join("hooks/hooks.json"),
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "echo '${CLAUDE_PLUGIN_ROOT}' >&2; exit 2"}
        ]}]}})
        .to_string(),
    );
    let fired = p.fire_flags(
        "PreToolUse",
        json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}),
        &["--claude-plugin", plugin.to_str().unwrap()],
    );
    assert_eq!(
        fired.final_output()["reason"],
        plugin.to_str().unwrap(),
        "{fired:#?}"
    );
    assert!(!p.exists("pwned") && !p.outside().join("pwned").exists());
    let _ = permission;
}
