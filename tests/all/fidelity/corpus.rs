//! The corpus of `tests/corpus/claude`, written the way people publish hooks: guards in
//! bash, Python and Node, a Stop hook that loops, SessionStart context with
//! `CLAUDE_ENV_FILE`, a Gemini deny. Each decides the same run by hand, through `fire`
//! and through `hook`.

use std::process::Command;

use serde_json::{Value, json};

use super::{answer, claude_group, claude_input, claude_settings, corpus, hook};
use crate::common::{Project, Run, claude_deny_reason, run};

/// Copies a corpus script into the project's `.claude/hooks/` and returns the
/// command Claude users write for it.
fn install(p: &Project, name: &str) -> String {
    let text = std::fs::read_to_string(corpus(name)).unwrap();
    p.executable(format!(".claude/hooks/{name}"), &text);
    format!("\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/{name}")
}

/// The script run by hand, as Claude Code would run it.
fn direct(p: &Project, name: &str, input: &Value) -> Run {
    let mut command = Command::new(p.path(&format!(".claude/hooks/{name}")));
    command
        .current_dir(p.dir())
        .env("CLAUDE_PROJECT_DIR", p.dir());
    run(command, input.to_string().as_bytes())
}

/// What a Claude hook's own answer means for PreToolUse: the deny reason, if any.
fn direct_deny_reason(out: &Run) -> Option<String> {
    match out.code {
        2 => Some(out.stderr.trim().to_owned()),
        0 => claude_deny_reason(out),
        other => panic!("hook failed with {other}: {out:?}"),
    }
}

/// The guards of the corpus: (script, Claude matcher, PreToolUse fields, the deny
/// reason expected or `None` for an allow).
fn guard_cases() -> [(&'static str, &'static str, Value, Option<&'static str>); 6] {
    [
        (
            "block-rm-rf.sh",
            "Bash",
            json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}),
            Some("Blocked: rm -rf is not allowed here"),
        ),
        (
            "block-rm-rf.sh",
            "Bash",
            json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}),
            None,
        ),
        (
            "protect-env.py",
            "Write|Edit|Read",
            json!({"tool_name": "Read", "tool_input": {"file_path": "/p/.env"}}),
            Some("Refusing to touch secrets file /p/.env"),
        ),
        (
            "protect-env.py",
            "Write|Edit|Read",
            json!({"tool_name": "Edit", "tool_input": {"file_path": "src/a.rs"}}),
            None,
        ),
        (
            "bash-guard.js",
            "Bash",
            json!({"tool_name": "Bash", "tool_input": {"command": "git push origin --force"}}),
            Some("force-push is forbidden (rule X)"),
        ),
        (
            "bash-guard.js",
            "Bash",
            json!({"tool_name": "Bash", "tool_input": {"command": "git push"}}),
            None,
        ),
    ]
}

#[test]
fn corpus_guards_decide_the_same_directly_through_fire_and_through_hook() {
    if Command::new("node").arg("--version").output().is_err() {
        eprintln!("skipping: node is not installed");
        return;
    }
    for (script, matcher, fields, want) in guard_cases() {
        let p = Project::new();
        let command = install(&p, script);
        claude_settings(&p, json!({"PreToolUse": claude_group(matcher, &command)}));
        let input = claude_input(&p, "PreToolUse", fields.clone());
        let by_hand = direct(&p, script, &input);
        assert_eq!(
            direct_deny_reason(&by_hand).as_deref(),
            want,
            "{script} by hand"
        );
        let fired = p.fire_flags("PreToolUse", fields.clone(), &["--claude-settings"]);
        assert_eq!(
            fired.code,
            if want.is_some() { 2 } else { 0 },
            "{script}: {fired:#?}"
        );
        assert_eq!(
            fired.final_output()["reason"].as_str(),
            want,
            "{script} through fire: {fired:#?}"
        );
        let hooked = hook(&p, &input, &[], &[]);
        assert_eq!(hooked.code, 0, "{script}: {hooked:?}");
        assert_eq!(
            claude_deny_reason(&hooked).as_deref(),
            want,
            "{script} through hook"
        );
        assert_eq!(
            hooked.stderr, "",
            "{script}: nothing on stderr in hook mode"
        );
        if script == "bash-guard.js" && want.is_some() {
            // Seen 2: the deny's systemMessage is not lost on a block.
            assert_eq!(answer(&hooked)["systemMessage"], "rule X matched");
        }
    }
}

/// Seen 2: a Stop hook's block keeps its reason and message in hook mode.
#[test]
fn a_stop_hook_that_loops_keeps_reason_and_message_and_stops_looping() {
    let p = Project::new();
    let command = install(&p, "stop-loop.sh");
    claude_settings(
        &p,
        json!({"Stop": [{"hooks": [{"type": "command", "command": command}]}]}),
    );
    let first = claude_input(&p, "Stop", json!({"stop_hook_active": false}));
    let by_hand = direct(&p, "stop-loop.sh", &first);
    let hooked = hook(&p, &first, &[], &[]);
    assert_eq!(hooked.code, 0, "{hooked:?}");
    assert_eq!(hooked.stderr, "");
    assert_eq!(answer(&hooked), answer(&by_hand));
    assert_eq!(
        answer(&hooked),
        json!({"decision": "block", "reason": "keep going: tests still fail", "systemMessage": "iteration 2"})
    );
    let fired = p.fire_flags(
        "Stop",
        json!({"stop_hook_active": false}),
        &["--claude-settings"],
    );
    assert_eq!(fired.code, 2);
    assert_eq!(
        fired.final_output()["reason"],
        "keep going: tests still fail"
    );
    let again = claude_input(&p, "Stop", json!({"stop_hook_active": true}));
    let hooked = hook(&p, &again, &[], &[]);
    assert_eq!((hooked.code, answer(&hooked)), (0, json!({})), "{hooked:?}");
}

/// Seen 3 and 4: plain-text stdout of SessionStart is context; a `set -u` script
/// under dash appending to `CLAUDE_ENV_FILE` works in `fire`, which reports it.
#[test]
fn session_start_context_and_claude_env_file() {
    let p = Project::new();
    let command = install(&p, "session-env.sh");
    claude_settings(
        &p,
        json!({"SessionStart": claude_group("startup", &command)}),
    );
    let fired = p.fire_flags(
        "SessionStart",
        json!({"source": "startup"}),
        &["--claude-settings"],
    );
    assert_eq!(fired.code, 0, "{fired:#?}");
    fired.assert_clean();
    assert_eq!(
        fired.final_output()["hookSpecificOutput"]["additionalContext"],
        "Project rules: run the tests before every commit."
    );
    assert!(
        fired.final_output().get("systemMessage").is_none(),
        "{fired:#?}"
    );
    assert!(
        fired.stderr.contains("export PROJECT_MODE=strict"),
        "{}",
        fired.stderr
    );

    let env_file = p.outside().join("claude-env.sh");
    std::fs::write(&env_file, "").unwrap();
    let input = claude_input(&p, "SessionStart", json!({"source": "startup"}));
    let out = hook(
        &p,
        &input,
        &[],
        &[("CLAUDE_ENV_FILE", env_file.to_str().unwrap())],
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        answer(&out)["hookSpecificOutput"]["additionalContext"],
        "Project rules: run the tests before every commit."
    );
    assert_eq!(
        std::fs::read_to_string(&env_file).unwrap(),
        "export PROJECT_MODE=strict\n"
    );
}

/// Seen 5: a Gemini settings file without `hooksConfig.enabled` runs its hooks.
#[test]
fn gemini_hooks_run_without_hooks_config_enabled() {
    let p = Project::new();
    let text = std::fs::read_to_string(corpus("gemini-deny-force-push.sh")).unwrap();
    p.executable(".gemini/hooks/deny.sh", &text);
    p.write(
        ".gemini/settings.json",
        json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command",
            "hooks": [{"type": "command", "command": "\"$GEMINI_PROJECT_DIR\"/.gemini/hooks/deny.sh"}]}]}})
        .to_string(),
    );
    let input =
        json!({"tool_name": "run_shell_command", "tool_input": {"command": "git push --force"}});
    let fired = p.fire_flags("BeforeTool", input.clone(), &["--gemini-settings"]);
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(fired.final_output()["reason"], "no force pushes");
    let mut command = p.command();
    command
        .arg("hook")
        .arg("--gemini-settings")
        .env("GEMINI_PROJECT_DIR", p.dir());
    let mut stdin = input;
    stdin["hook_event_name"] = json!("BeforeTool");
    let out = run(command, stdin.to_string().as_bytes());
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(answer(&out)["decision"], "deny");
}
