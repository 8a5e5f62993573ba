//! Settings mistakes are never silent: a Claude file passed as `--settings`, hooks
//! without `enableHooks`, timeouts in seconds, a misspelt switch, a missing program,
//! `--claude-settings FILE`, hookhost named as its own hook; and the Rust scaffold's
//! settings follow `CARGO_TARGET_DIR`.

use std::process::Command;

use serde_json::json;

use super::{check_with, claude_group, claude_settings};
use crate::common::{Fired, Project, Run, run};

/// A blocking Claude settings file passed with `--settings`, fired on PreToolUse.
fn fire_claude_file_as_settings(p: &Project) -> Fired {
    let claude = claude_settings(
        p,
        json!({"PreToolUse": claude_group("Bash", "echo nope >&2; exit 2")}),
    );
    p.fire_settings(
        "PreToolUse",
        json!({"tool_name": "Bash", "tool_input": {}}),
        &[&claude],
    )
}

/// `hookhost fire BeforeTool --settings mine.json --claude-settings`, each file with a
/// hook that leaves a marker (`mine.marker`, `claude.marker`).
fn fire_own_and_claude_settings(p: &Project) -> Run {
    let mine = p.extra_settings(
        "mine.json",
        json!({"BeforeTool": [{"hooks": [{"type": "command", "command": "touch mine.marker"}]}]}),
    );
    claude_settings(
        p,
        json!({"PreToolUse": claude_group("", "touch claude.marker")}),
    );
    let mut command = p.command();
    command
        .arg("fire")
        .arg("BeforeTool")
        .arg("--settings")
        .arg(&mine)
        .arg("--claude-settings")
        .arg("--project-dir")
        .arg(p.dir());
    run(command, br#"{"tool_name": "write_file", "tool_input": {}}"#)
}

/// Seen 6 and 14: declared hooks that will not run are said, and `check` fails
/// with the fix.
#[test]
fn settings_mistakes_are_never_silent() {
    // A Claude file passed with --settings is read as Claude's.
    let p = Project::new();
    let fired = fire_claude_file_as_settings(&p);
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert!(
        fired.stderr.contains("read as Claude Code settings"),
        "{}",
        fired.stderr
    );

    // --settings X --claude-settings reads both.
    let p = Project::new();
    let out = fire_own_and_claude_settings(&p);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(p.exists("mine.marker") && p.exists("claude.marker"));

    // Hooks copied into .llxprt/settings.json without tools.enableHooks.
    let p = Project::new();
    p.settings_raw(
        &json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "exit 2"}]}]}}),
    );
    let fired = p.fire("BeforeTool", json!({"tool_name": "write_file"}));
    assert_eq!(fired.code, 0);
    assert!(
        fired.stderr.contains("NONE of them runs"),
        "{}",
        fired.stderr
    );
    assert!(
        fired.stderr.contains("\"enableHooks\": true"),
        "{}",
        fired.stderr
    );
    let check = p.check(&[]);
    assert_eq!(check.code, 1, "{check:#?}");

    // A Claude-style timeout in seconds, copied into a millisecond file.
    let p = Project::new();
    p.settings(
        json!({"BeforeTool": [{"hooks": [{"type": "command", "command": "true", "timeout": 10}]}]}),
    );
    let check = p.check(&[]);
    assert_eq!(check.code, 1, "{check:#?}");
    assert!(
        check.stderr.contains("did you mean 10000?"),
        "{}",
        check.stderr
    );

    // A misspelt switch.
    let p = Project::new();
    p.settings_raw(&json!({"tools": {"enabledHooks": true}, "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "true"}]}]}}));
    let check = p.check(&[]);
    assert_eq!(check.code, 1);
    assert!(
        check
            .stderr
            .contains("tools.enabledHooks: unknown setting; did you mean \"enableHooks\"?"),
        "{}",
        check.stderr
    );

    // A command whose program does not exist.
    let p = Project::new();
    p.settings(json!({"BeforeTool": [{"hooks": [{"type": "command", "command": "uv run hooks/guard.py"}]}]}));
    let check = p.check(&[]);
    if !check.stderr.contains("program \"uv\" not found") {
        assert!(which("uv"), "{}", check.stderr);
    } else {
        assert_eq!(check.code, 1);
    }
}

fn which(program: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {program}"))
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Seen 15: `--claude-settings FILE` explains itself.
#[test]
fn claude_settings_with_a_value_gets_a_hint() {
    let p = Project::new();
    let mut command = p.command();
    command.arg("check").arg("--claude-settings").arg("x.json");
    let out = run(command, b"");
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("use --settings x.json"),
        "{}",
        out.stderr
    );
}

/// Seen 14: `check --claude-settings` marks `hookhost hook` itself.
#[test]
fn check_marks_hookhost_itself() {
    let p = Project::new();
    claude_settings(
        &p,
        json!({"PreToolUse": claude_group("*", "hookhost hook --fail-closed || exit 2")}),
    );
    let out = check_with(&p, &["--claude-settings"]);
    assert!(
        out.stdout_text().contains("this is hookhost itself"),
        "{}",
        out.stdout_text()
    );
}

/// Seen 14: the Rust scaffold's settings follow `CARGO_TARGET_DIR`, where cargo
/// puts the plugin.
#[test]
fn the_rust_scaffold_follows_cargo_target_dir() {
    let p = Project::new();
    let target = p.outside().join("shared-target");
    let mut command = p.command();
    command
        .arg("new")
        .arg("--lang")
        .arg("rust")
        .arg(p.path("policy"))
        .env("CARGO_TARGET_DIR", &target);
    let out = run(command, b"");
    assert_eq!(out.code, 0, "{out:?}");
    let settings = p.read_json("policy/settings.json");
    assert_eq!(
        settings["hooks"]["BeforeTool"][0]["hooks"][0]["path"],
        format!("{}/wasm32-wasip2/release/policy.wasm", target.display())
    );
}
