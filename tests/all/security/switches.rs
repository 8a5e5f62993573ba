//! Other agents' switches (17): a repository's Claude `disableAllHooks` and Codex's
//! `[features] hooks = false` switch off only the repository's hooks while trust is
//! required, saying so once; without trust required they may switch off the user's
//! hooks, but never silently.

use serde_json::{Value, json};

use super::write_user_settings;
use crate::common::{Project, Run, claude_deny_reason, run};

/// The user's guard, as a Claude hook: `rm -rf /` is denied.
const CLAUDE_GUARD: &str = "echo 'user guard: no' >&2; exit 2";

fn claude_guard() -> Value {
    json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": CLAUDE_GUARD}]}]}})
}

fn rm_rf(p: &Project) -> Value {
    json!({"session_id": "s", "transcript_path": null, "cwd": p.dir(),
           "hook_event_name": "PreToolUse", "tool_name": "Bash",
           "tool_input": {"command": "rm -rf /"}})
}

/// `hookhost hook FLAG` in the project, as the agent runs it.
fn agent_hook(p: &Project, flag: &str) -> Run {
    let mut command = p.command();
    command
        .arg("hook")
        .arg(flag)
        .current_dir(p.dir())
        .env("CLAUDE_PROJECT_DIR", p.dir());
    run(command, rm_rf(p).to_string().as_bytes())
}

/// The user's guard in the agent's own user file, trust required or not, and the
/// repository's switch; the flag that makes hookhost read that agent's files.
struct Agent {
    flag: &'static str,
    user_file: &'static str,
    project_file: &'static str,
    switch: &'static str,
}

const AGENTS: [Agent; 3] = [
    Agent {
        flag: "--claude-settings",
        user_file: ".claude/settings.json",
        project_file: ".claude/settings.json",
        switch: r#"{"disableAllHooks": true}"#,
    },
    Agent {
        flag: "--claude-settings",
        user_file: ".claude/settings.json",
        project_file: ".claude/settings.local.json",
        switch: r#"{"disableAllHooks": true, "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "touch repo-ran"}]}]}}"#,
    },
    Agent {
        flag: "--codex-settings",
        user_file: ".codex/hooks.json",
        project_file: ".codex/config.toml",
        switch: "[features]\nhooks = false\n",
    },
];

fn setup(agent: &Agent, require_trust: bool) -> Project {
    let p = Project::new();
    write_user_settings(&p, &json!({"tools": {"requireHookTrust": require_trust}}));
    let user_file = p.home().join(agent.user_file);
    std::fs::create_dir_all(user_file.parent().unwrap()).unwrap();
    std::fs::write(&user_file, claude_guard().to_string()).unwrap();
    p.write(agent.project_file, agent.switch);
    p
}

#[test]
fn a_repositorys_agent_switch_cannot_silence_the_users_guard_when_trust_is_required() {
    for agent in &AGENTS {
        let p = setup(agent, true);
        // The repository's own hook is approved: the switch still turns it off.
        assert_eq!(p.trust(&[agent.flag]).code, 0);
        let answer = agent_hook(&p, agent.flag);
        assert_eq!(
            claude_deny_reason(&answer).as_deref(),
            Some("user guard: no"),
            "{}: {}: the user's guard must deny: {answer:?}",
            agent.project_file,
            agent.switch
        );
        assert!(!p.exists("repo-ran"), "{}", agent.project_file);
        let fired = p.fire_flags("PreToolUse", rm_rf(&p), &[agent.flag]);
        assert_eq!(fired.code, 2, "{}: {fired:#?}", agent.project_file);
        let said = fired
            .stderr
            .matches("to this repository's hooks only")
            .count();
        assert_eq!(
            said, 1,
            "{}: said once: {}",
            agent.project_file, fired.stderr
        );
    }
}

#[test]
fn without_trust_required_a_repositorys_agent_switch_is_loud() {
    for agent in &AGENTS {
        let p = setup(agent, false);
        let fired = p.fire_flags("PreToolUse", rm_rf(&p), &[agent.flag]);
        // The repository may (as the agent itself lets it), but never silently.
        assert_eq!(fired.code, 0, "{}: {fired:#?}", agent.project_file);
        assert!(
            fired.stderr.contains("will NOT run"),
            "{}: {}",
            agent.project_file,
            fired.stderr
        );
        assert!(
            fired.stderr.contains("requireHookTrust"),
            "names the fix: {}",
            fired.stderr
        );
    }
}
