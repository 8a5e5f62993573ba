//! `if`: a hook guarded by a permission rule runs only for the calls the rule
//! matches — in Claude files and in hookhost's own, never "always".

use serde_json::json;

use super::{bash_call, claude_hook, permission};
use crate::common::{Project, group};

/// A Claude PreToolUse hook that allows ("git status is safe"), guarded by
/// `if: "Bash(git status*)"`.
fn allow_git_status(p: &Project) {
    let allow = r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"git status is safe"}}'"#;
    p.claude_settings(json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": allow, "if": "Bash(git status*)"}
    ]}]}));
}

/// Seen (issue 26, item 1): an allow meant for `git status` answered `allow` for
/// `rm -rf /`.
#[test]
fn an_allow_guarded_by_if_does_not_allow_other_commands() {
    let p = Project::new();
    allow_git_status(&p);
    let rm = claude_hook(&p, bash_call(&p, "rm -rf /"));
    assert_eq!(rm.code, 0, "{rm:?}");
    assert_eq!(permission(&rm), None, "{}", rm.stdout_text());
    assert!(!rm.stdout_text().contains("git status is safe"), "{rm:?}");
    let status = claude_hook(&p, bash_call(&p, "git status --short"));
    assert_eq!(permission(&status).as_deref(), Some("allow"), "{status:?}");
}

/// Issue 27, seen in Claude Code 2.1.331 (tests/agents/FINDINGS.md): a plain
/// `$VAR` is an ordinary word to Claude's `if`, so `touch $HOME/x` is not
/// `git status*` and the allow does not leak to it; `${…}` and command
/// substitution still run the hook, as in Claude — but (issue 36) the rule cannot
/// decide those, so the allow is not applied: an undecidable `if` never lets a
/// call through (`fire`'s warnings say why).
#[test]
fn a_variable_in_an_argument_does_not_open_an_if_guarded_allow() {
    let p = Project::new();
    allow_git_status(&p);
    for command in [
        "touch $HOME/should-not-exist",
        "echo \"$HOME\"",
        "echo $HOME",
    ] {
        let out = claude_hook(&p, bash_call(&p, command));
        assert_eq!(permission(&out), None, "{command}: {out:?}");
    }
    for command in ["git status $HOME", "git status", "X=$HOME git status"] {
        let out = claude_hook(&p, bash_call(&p, command));
        assert_eq!(
            permission(&out).as_deref(),
            Some("allow"),
            "{command}: {out:?}"
        );
    }
    for command in ["echo ${HOME}", "echo $(git status)", "$CMD status"] {
        let out = claude_hook(&p, bash_call(&p, command));
        assert_eq!(permission(&out), None, "{command}: {out:?}");
    }
}

/// Issue 36, item 1: a deny scoped `if: "Bash(rm *)"` sees what the shell runs.
#[test]
fn seen_a_deny_scoped_if_sees_what_the_shell_runs() {
    let p = Project::new();
    p.claude_settings(json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "echo 'no rm' >&2; exit 2", "if": "Bash(rm *)"}
    ]}]}));
    for command in [
        "'rm' -rf x",
        "\\rm -rf x",
        "r''m -rf x",
        "(( 1<<2 ))\nrm -rf x",
        "f() { rm -rf x; }; f",
        "coproc rm -rf x",
        "exec -a NAME rm -rf x",
        "{rm,} -rf x",
        "$CMD -rf x",
    ] {
        let out = claude_hook(&p, bash_call(&p, command));
        assert_eq!(
            crate::common::claude_deny_reason(&out).as_deref(),
            Some("no rm"),
            "{command}: {out:?}"
        );
    }
    let ls = claude_hook(&p, bash_call(&p, "ls -la"));
    assert_eq!(permission(&ls), None, "{ls:?}");
}

/// Issue 36, item 1: 192 KB of repeated wrappers took quadratic memory and the
/// process died with no answer, even with `--fail-closed`; now it answers.
#[test]
fn seen_a_line_of_wrappers_gets_an_answer() {
    let p = Project::new();
    p.claude_settings(json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "echo 'no rm' >&2; exit 2", "if": "Bash(rm *)"}
    ]}]}));
    let line = "nice ".repeat(192 * 1024 / 5) + "rm -rf x";
    let out = claude_hook(&p, bash_call(&p, &line));
    assert_eq!(
        crate::common::claude_deny_reason(&out).as_deref(),
        Some("no rm"),
        "{}",
        out.stderr
    );
}

/// A deny guarded by `if` denies what it names and nothing else.
#[test]
fn a_deny_guarded_by_if_denies_only_what_it_names() {
    let p = Project::new();
    p.claude_settings(json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "echo guarded >&2; exit 2", "if": "Bash(echo guarded*)"}
    ]}]}));
    let free = claude_hook(&p, bash_call(&p, "echo free"));
    assert_eq!(permission(&free), None, "{free:?}");
    let guarded = claude_hook(&p, bash_call(&p, "echo guarded now"));
    assert_eq!(
        crate::common::claude_deny_reason(&guarded).as_deref(),
        Some("guarded"),
        "{guarded:?}"
    );
}

/// The same rule in hookhost's own settings, against LLxprt's tool names.
#[test]
fn if_works_in_llxprt_settings_with_llxprt_tool_names() {
    let p = Project::new();
    p.settings(
        json!({"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
            {"type": "command", "command": "echo no pushes >&2; exit 2", "if": "Bash(git push*)"}
        ]}]}),
    );
    let input = |command: &str| json!({"tool_name": "run_shell_command", "tool_input": {"command": command}});
    let ls = p.fire("BeforeTool", input("ls -la"));
    ls.assert_clean();
    assert!(ls.hooks().is_empty(), "{ls:#?}");
    let push = p.fire("BeforeTool", input("git push origin main"));
    assert_eq!(push.final_output()["decision"], "block", "{push:#?}");
}

/// A rule hookhost cannot parse is a load error naming the hook — never a hook
/// that runs for every call.
#[test]
fn an_unparseable_rule_is_a_load_error_not_always_true() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![
        json!({"type": "command", "command": "echo ran > ran.txt", "if": "Bash(git"})
    ])]}));
    let check = p.check(&[]);
    assert_eq!(check.code, 1, "{check:?}");
    assert!(
        check.stderr.contains("hooks.BeforeTool[0].hooks[0].if"),
        "{}",
        check.stderr
    );
    let fired = p.fire(
        "BeforeTool",
        json!({"tool_name": "run_shell_command", "tool_input": {"command": "git x"}}),
    );
    assert!(!p.exists("ran.txt"), "the hook ran: {fired:#?}");
    assert!(
        fired.errors().iter().any(|e| e.contains(".if")),
        "{:?}",
        fired.errors()
    );
}

/// `if` on an event without tool calls could never match: a load error.
#[test]
fn if_on_an_event_without_tool_calls_is_a_load_error() {
    let p = Project::new();
    p.settings(json!({"SessionStart": [group(vec![
        json!({"type": "command", "command": "true", "if": "Bash(git *)"})
    ])]}));
    let check = p.check(&[]);
    assert_eq!(check.code, 1, "{check:?}");
    assert!(
        check.stderr.contains("not a tool event"),
        "{}",
        check.stderr
    );
}
