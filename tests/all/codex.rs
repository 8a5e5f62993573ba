//! Codex's hook files (`--codex-settings`): `hooks.json` and the `[hooks]` tables
//! of `config.toml`, in the project's `.codex` and in `$CODEX_HOME` — Claude's
//! format and dialect, answered as Codex reads it (issue 27, item 5).

use serde_json::{Value, json};

use crate::common::{Project, Run, claude_deny_reason, run};

const DENY: &str = r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"codex says no"}}'"#;

/// `hookhost hook --codex-settings` as Codex runs a hook, with Codex's stdin.
fn codex_hook(p: &Project, stdin: Value, env: &[(&str, &str)]) -> Run {
    let mut command = p.command();
    command
        .arg("hook")
        .arg("--codex-settings")
        .current_dir(p.dir());
    for (k, v) in env {
        command.env(k, v);
    }
    run(command, &serde_json::to_vec(&stdin).unwrap())
}

fn shell_call(p: &Project, tool: &str, command: &str) -> Value {
    json!({"session_id": "c-1", "transcript_path": null, "cwd": p.dir(),
           "hook_event_name": "PreToolUse", "model": "gpt-5", "turn_id": "t1",
           "tool_name": tool, "tool_use_id": "u1", "tool_input": {"command": command}})
}

#[test]
fn hooks_json_in_the_project_denies_as_codex_reads_it() {
    let p = Project::new();
    p.write(
        ".codex/hooks.json",
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": DENY, "timeout": 5}
        ]}]}})
        .to_string(),
    );
    let denied = codex_hook(&p, shell_call(&p, "Bash", "rm -rf /"), &[]);
    assert_eq!(
        claude_deny_reason(&denied).as_deref(),
        Some("codex says no"),
        "{denied:?}"
    );
    let patch = codex_hook(&p, shell_call(&p, "apply_patch", "*** Begin Patch"), &[]);
    assert_eq!(claude_deny_reason(&patch), None, "{patch:?}");
}

#[test]
fn config_toml_hooks_tables_run_and_features_can_switch_them_off() {
    let p = Project::new();
    let config = format!(
        "model = \"gpt-5\"\n[[hooks.PreToolUse]]\nmatcher = \"apply_patch\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = '''{DENY}'''\n[hooks.state]\nx = 1\n"
    );
    p.write(".codex/config.toml", &config);
    let denied = codex_hook(&p, shell_call(&p, "apply_patch", "*** Begin Patch"), &[]);
    assert_eq!(
        claude_deny_reason(&denied).as_deref(),
        Some("codex says no"),
        "{denied:?}"
    );
    p.write(
        ".codex/config.toml",
        format!("[features]\nhooks = false\n{config}"),
    );
    let off = codex_hook(&p, shell_call(&p, "apply_patch", "x"), &[]);
    assert_eq!(claude_deny_reason(&off), None, "{off:?}");
}

#[test]
fn codex_home_holds_the_user_hooks() {
    let p = Project::new();
    let codex_home = p.home().join("codex-home");
    p.write(
        codex_home.join("hooks.json"),
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": DENY}
        ]}]}})
        .to_string(),
    );
    let home = codex_home.to_str().unwrap();
    let denied = codex_hook(&p, shell_call(&p, "Bash", "ls"), &[("CODEX_HOME", home)]);
    assert_eq!(
        claude_deny_reason(&denied).as_deref(),
        Some("codex says no"),
        "{denied:?}"
    );
}

#[test]
fn bad_codex_files_are_named() {
    let p = Project::new();
    p.write(".codex/config.toml", "[[hooks.PreToolUse]\nmatcher = 1\n");
    p.write(
        ".codex/hooks.json",
        json!({"hooks": {"PreToolUs": [{"hooks": [{"type": "command", "command": "true"}]}]}})
            .to_string(),
    );
    let mut command = p.command();
    command
        .args(["check", "--codex-settings", "--project-dir"])
        .arg(p.dir());
    let check = run(command, b"");
    assert!(
        check
            .stderr
            .contains("codex project settings .codex/config.toml: not valid TOML"),
        "{}",
        check.stderr
    );
    assert!(
        check.stderr.contains("\"PreToolUs\"") && check.stderr.contains("did you mean"),
        "{}",
        check.stderr
    );
}

/// Issue 37 item 3: Codex selects a hook whose matcher says `Edit` or `Write` for
/// its `apply_patch` (its matcher aliases), and hookhost must too — a secret
/// guard written for Claude's editing tools was walked around by a patch. An
/// `if: "Edit(*.env)"` reads the files from the patch's headers.
#[test]
fn edit_and_write_matchers_and_if_rules_see_codex_patches() {
    let p = Project::new();
    p.write(
        ".codex/hooks.json",
        json!({"hooks": {"PreToolUse": [
            {"matcher": "Edit|Write", "hooks": [
                {"type": "command", "command": "echo seen >> edits.log"}]},
            {"matcher": "apply_patch", "hooks": [
                {"type": "command", "command": DENY, "if": "Edit(*.env)"}]},
        ]}})
        .to_string(),
    );
    let env_patch = "*** Begin Patch\n*** Add File: config/.env\n+KEY=1\n*** End Patch\n";
    let denied = codex_hook(&p, shell_call(&p, "apply_patch", env_patch), &[]);
    assert_eq!(
        claude_deny_reason(&denied).as_deref(),
        Some("codex says no"),
        "{denied:?}"
    );
    assert_eq!(
        p.read("edits.log").lines().count(),
        1,
        "Edit|Write did not select apply_patch"
    );
    let moved =
        "*** Begin Patch\n*** Update File: a.txt\n*** Move to: .env\n@@\n-a\n+b\n*** End Patch\n";
    let denied = codex_hook(&p, shell_call(&p, "apply_patch", moved), &[]);
    assert!(
        claude_deny_reason(&denied).is_some(),
        "a move onto .env: {denied:?}"
    );
    let readme = "*** Begin Patch\n*** Update File: README.md\n@@\n-a\n+b\n*** End Patch\n";
    let allowed = codex_hook(&p, shell_call(&p, "apply_patch", readme), &[]);
    assert_eq!(claude_deny_reason(&allowed), None, "{allowed:?}");
    assert_eq!(p.read("edits.log").lines().count(), 3);
    // The shell tool is no edit.
    let shell = codex_hook(&p, shell_call(&p, "Bash", "ls"), &[]);
    assert_eq!(claude_deny_reason(&shell), None, "{shell:?}");
    assert_eq!(p.read("edits.log").lines().count(), 3);
}

/// The agent suite found it: Codex 0.171 applies a rewrite (`updatedInput`) only
/// beside `permissionDecision: "allow"`; Claude would read that allow as skipping
/// its prompt, so only Codex's answer gets it.
#[test]
fn a_rewrite_reaches_codex_with_an_allow_and_claude_without() {
    let p = Project::new();
    let rewrite = r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo safer"}}}'"#;
    p.write(
        ".codex/hooks.json",
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": rewrite}]}]}})
        .to_string(),
    );
    let answer = |run: &Run| -> Value { serde_json::from_slice(&run.stdout).unwrap_or_default() };
    let codex = codex_hook(&p, shell_call(&p, "Bash", "rm -rf build"), &[]);
    let specific = answer(&codex)["hookSpecificOutput"].clone();
    assert_eq!(
        specific["updatedInput"]["command"], "echo safer",
        "{codex:?}"
    );
    assert_eq!(specific["permissionDecision"], "allow", "{codex:?}");
    let mut claude_call = shell_call(&p, "Bash", "rm -rf build");
    if let Value::Object(map) = &mut claude_call {
        map.remove("turn_id");
        map.insert("permission_mode".into(), json!("default"));
    }
    let claude = codex_hook(&p, claude_call, &[]);
    let specific = answer(&claude)["hookSpecificOutput"].clone();
    assert_eq!(
        specific["updatedInput"]["command"], "echo safer",
        "{claude:?}"
    );
    assert!(specific.get("permissionDecision").is_none(), "{claude:?}");
}
