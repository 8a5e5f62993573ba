//! `hookhost setup` and `hookhost check --agents` (issue 37): every agent wired in
//! its own user-level file and format, what it needs to run the hook (Codex's
//! trust), idempotent, a dry run that writes nothing, a removal that gives the
//! files back byte for byte — and the hook it writes really runs.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::{Project, Run, run};

/// `hookhost ARGS` with the project's isolated home as the user's, nothing on PATH
/// but the system's, and the setup record under the home.
fn hookhost(p: &Project, args: &[&str]) -> Run {
    let mut command = p.command();
    command
        .args(args)
        .env("XDG_STATE_HOME", p.home().join(".local/state"))
        .env("XDG_CONFIG_HOME", p.home().join(".config"))
        .env_remove("CODEX_HOME")
        .env("PATH", "/usr/bin:/bin");
    run(command, b"")
}

fn read(path: &Path) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

fn json_of(path: &Path) -> Value {
    serde_json::from_str(&read(path).unwrap_or_default()).unwrap_or(Value::Null)
}

fn home_file(p: &Project, rel: &str) -> PathBuf {
    p.home().join(rel)
}

/// Every file under the home, with its bytes (what a run may have changed).
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push((path.clone(), std::fs::read(&path).unwrap_or_default()));
            }
        }
    }
    out.sort();
    out
}

const USER_CLAUDE: &str = r#"{"model":"opus","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"my-guard"}]}]}}"#;
const USER_CODEX_CONFIG: &str = "# mine\nmodel = \"gpt-5\"\n";

#[test]
fn setup_wires_claude_and_codex_keeps_the_users_hooks_and_removes_byte_for_byte() {
    let p = Project::new();
    let claude = home_file(&p, ".claude/settings.json");
    let codex_hooks = home_file(&p, ".codex/hooks.json");
    let codex_config = home_file(&p, ".codex/config.toml");
    p.write(&claude, USER_CLAUDE);
    p.write(&codex_config, USER_CODEX_CONFIG);
    let before = snapshot(p.home());

    // A dry run prints the change and writes nothing.
    let dry = hookhost(&p, &["setup", "--dry-run"]);
    assert_eq!(dry.code, 0, "{dry:?}");
    let out = dry.stdout_text();
    assert!(
        out.contains("+++ ") && out.contains("hookhost hook"),
        "{out}"
    );
    assert!(out.contains("claude:") && out.contains("codex:"), "{out}");
    assert_eq!(snapshot(p.home()), before, "--dry-run wrote something");

    let done = hookhost(&p, &["setup"]);
    assert_eq!(done.code, 0, "{done:?}");
    let settings = json_of(&claude);
    assert_eq!(settings["model"], "opus");
    let pre = settings["hooks"]["PreToolUse"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        pre[0]["hooks"][0]["command"], "my-guard",
        "the user's hook comes first"
    );
    let ours = pre[1]["hooks"][0]["command"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(ours.ends_with("hookhost hook"), "{ours}");
    for event in ["PostToolUse", "UserPromptSubmit", "SessionStart", "Stop"] {
        assert_eq!(
            settings["hooks"][event][0]["hooks"][0]["command"],
            ours.as_str(),
            "{event}"
        );
    }
    // Codex: the hook, and its trust record as Codex's own approval writes it.
    let hooks = json_of(&codex_hooks);
    assert_eq!(
        hooks["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
        ours.as_str()
    );
    let config = read(&codex_config).unwrap_or_default();
    assert!(config.starts_with(USER_CODEX_CONFIG), "{config}");
    let key = format!(
        "[hooks.state.\"{}:pre_tool_use:0:0\"]",
        codex_hooks.display()
    );
    assert!(config.contains(&key), "{config}");
    assert_eq!(
        config.matches("trusted_hash = \"sha256:").count(),
        5,
        "{config}"
    );

    // Idempotent: nothing changes on a second run.
    let wired = snapshot(p.home());
    let again = hookhost(&p, &["setup"]);
    assert_eq!(again.code, 0, "{again:?}");
    assert!(again.stdout_text().contains("already wired"), "{again:?}");
    assert_eq!(snapshot(p.home()), wired, "a second setup changed files");

    let checked = hookhost(&p, &["check", "--agents"]);
    assert_eq!(checked.code, 0, "{checked:?}");
    assert_eq!(
        checked.stdout_text().matches("runs hookhost: yes").count(),
        2,
        "{checked:?}"
    );

    // Removed: every file as it was, the one setup made gone, the record gone.
    let removed = hookhost(&p, &["setup", "--remove"]);
    assert_eq!(removed.code, 0, "{removed:?}");
    assert_eq!(snapshot(p.home()), before, "{removed:?}");
    assert!(!codex_hooks.exists());
}

/// The hook setup writes, run the way the agent runs it (`sh -c`), answers as
/// hookhost: a builtin in the user's hookhost settings denies a harmful call.
#[test]
fn the_wired_hook_runs_and_enforces_the_users_policy() {
    let p = Project::new();
    p.write(home_file(&p, ".claude/settings.json"), "{}");
    assert_eq!(hookhost(&p, &["setup", "claude"]).code, 0);
    let settings = json_of(&home_file(&p, ".claude/settings.json"));
    let command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    p.write(
        home_file(&p, ".llxprt/settings.json"),
        json!({"tools": {"enableHooks": true}, "hooks": {"BeforeTool": [{"hooks": [
            {"type": "plugin", "source": "builtin:destructive"}]}]}})
        .to_string(),
    );
    let stdin = json!({"session_id": "s", "transcript_path": "", "cwd": p.dir(),
        "hook_event_name": "PreToolUse", "permission_mode": "default", "tool_name": "Bash",
        "tool_input": {"command": "sudo rm -rf /usr/lib"}});
    let mut sh = std::process::Command::new("sh");
    sh.arg("-c")
        .arg(&command)
        .current_dir(p.dir())
        .env("HOME", p.home())
        .env("CLAUDE_PROJECT_DIR", p.dir());
    let out = run(sh, stdin.to_string().as_bytes());
    let reason = crate::common::claude_deny_reason(&out).unwrap_or_else(|| panic!("{out:?}"));
    assert!(
        reason.contains("destructive") || reason.contains("rm"),
        "{reason}"
    );
}

#[test]
fn every_agent_is_wired_in_its_own_file_and_format() {
    let p = Project::new();
    let all = [
        "claude", "codex", "gemini", "llxprt", "copilot", "qwen", "droid", "opencode", "kilo",
    ];
    let mut args = vec!["setup"];
    args.extend(all);
    let done = hookhost(&p, &args);
    assert_eq!(done.code, 0, "{done:?}");
    for agent in all {
        assert!(
            done.stdout_text().contains(&format!("{agent}: wired")),
            "{agent}: {done:?}"
        );
    }
    let claude_names = |rel: &str, matcher: &str, timeout: u64| {
        let file = json_of(&home_file(&p, rel));
        let group = &file["hooks"]["PreToolUse"][0];
        assert_eq!(group["matcher"], matcher, "{rel}: {file}");
        assert_eq!(group["hooks"][0]["timeout"], timeout, "{rel}: {file}");
    };
    claude_names(".claude/settings.json", "*", 60);
    claude_names(".codex/hooks.json", "*", 60);
    claude_names(".factory/settings.json", "*", 60);
    claude_names(".qwen/settings.json", ".*", 60);
    let copilot = json_of(&home_file(&p, ".copilot/settings.json"));
    let group = &copilot["hooks"]["PreToolUse"][0];
    assert!(group.get("matcher").is_none(), "{copilot}");
    assert_eq!(group["hooks"][0]["timeout"], 60, "{copilot}");
    for rel in [".gemini/settings.json", ".llxprt/settings.json"] {
        let file = json_of(&home_file(&p, rel));
        let group = &file["hooks"]["BeforeTool"][0];
        assert!(group.get("matcher").is_none(), "{rel}: {file}");
        assert_eq!(group["hooks"][0]["timeout"], 60_000, "{rel}: {file}");
    }
    let llxprt = json_of(&home_file(&p, ".llxprt/settings.json"));
    assert_eq!(llxprt["tools"]["enableHooks"], true, "{llxprt}");
    assert_eq!(llxprt["hooksConfig"]["enabled"], true, "{llxprt}");
    for rel in [
        ".config/opencode/plugin/hookhost.js",
        ".config/kilo/plugin/hookhost.js",
    ] {
        let js = read(&home_file(&p, rel)).unwrap_or_default();
        assert!(
            js.contains("tool.execute.before") && js.contains("/hookhost\""),
            "{rel}: {js}"
        );
        assert!(
            !js.contains("__HOOKHOST_BIN__\""),
            "{rel}: the path was not put in"
        );
    }
    let checked = hookhost(&p, &["check", "--agents"]);
    assert_eq!(checked.code, 0, "{checked:?}");
    assert_eq!(
        checked.stdout_text().matches("runs hookhost: yes").count(),
        9,
        "{checked:?}"
    );
    let removed = hookhost(&p, &["setup", "--remove"]);
    assert_eq!(removed.code, 0, "{removed:?}");
    let left: Vec<_> = snapshot(p.home())
        .into_iter()
        .filter(|(path, _)| !path.starts_with(p.home().join(".local")))
        .collect();
    assert!(left.is_empty(), "setup --remove left {left:?}");
}

/// Issue 37 "done when": `check --agents` reports a Codex hook that is not trusted
/// (or changed since), and the fix; following the fix makes it run.
#[test]
fn check_agents_names_an_untrusted_codex_hook_and_the_fix() {
    let p = Project::new();
    let hooks = home_file(&p, ".codex/hooks.json");
    assert_eq!(hookhost(&p, &["setup", "codex"]).code, 0);
    // Wired by hand as the README once said: no trust record.
    std::fs::remove_file(home_file(&p, ".codex/config.toml")).ok();
    let checked = hookhost(&p, &["check", "--agents"]);
    assert_eq!(checked.code, 1, "{checked:?}");
    let out = checked.stdout_text();
    assert!(
        out.contains("5 hook(s) not trusted") && out.contains("codex exec"),
        "{out}"
    );
    assert!(out.contains("fix: hookhost setup codex"), "{out}");
    assert_eq!(hookhost(&p, &["setup", "codex"]).code, 0);
    assert_eq!(hookhost(&p, &["check", "--agents"]).code, 0);
    // Changed since trusted: a timeout edited by hand.
    let text = read(&hooks)
        .unwrap_or_default()
        .replacen("\"timeout\": 60", "\"timeout\": 61", 1);
    p.write(&hooks, text);
    let checked = hookhost(&p, &["check", "--agents"]);
    assert_eq!(checked.code, 1, "{checked:?}");
    assert!(
        checked
            .stdout_text()
            .contains("changed since they were trusted"),
        "{checked:?}"
    );
}

#[test]
fn check_agents_names_a_missing_binary_and_switched_off_hooks() {
    let p = Project::new();
    p.write(
        home_file(&p, ".claude/settings.json"),
        json!({"disableAllHooks": true, "hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
            {"type": "command", "command": "/nowhere/hookhost hook"}]}]}})
        .to_string(),
    );
    let checked = hookhost(&p, &["check", "--agents"]);
    assert_eq!(checked.code, 1, "{checked:?}");
    let out = checked.stdout_text();
    assert!(out.contains("/nowhere/hookhost does not exist"), "{out}");
    assert!(out.contains("disableAllHooks"), "{out}");
    assert!(out.contains("fix: hookhost setup claude"), "{out}");
    // Setup takes the moved binary's place; the user's switch stays theirs.
    assert_eq!(hookhost(&p, &["setup", "claude"]).code, 0);
    let settings = json_of(&home_file(&p, ".claude/settings.json"));
    assert_eq!(settings["disableAllHooks"], true);
    let command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap_or_default();
    assert!(!command.starts_with("/nowhere"), "{settings}");
}

/// Bad input loses nothing: a file that does not parse is named and left as it
/// is; a plugin file of someone else's is not overwritten; an unknown agent is
/// refused with the list.
#[test]
fn broken_or_foreign_files_are_named_and_untouched() {
    let p = Project::new();
    let claude = home_file(&p, ".claude/settings.json");
    p.write(&claude, "{\"model\": \"opus\",");
    let plugin = home_file(&p, ".config/opencode/plugin/hookhost.js");
    p.write(&plugin, "export const Mine = 1;\n");
    let done = hookhost(&p, &["setup", "claude", "opencode", "gemini"]);
    assert_eq!(done.code, 1, "{done:?}");
    assert!(
        done.stderr.contains("claude") && done.stderr.contains("not valid JSON"),
        "{done:?}"
    );
    assert!(
        done.stderr.contains(&claude.display().to_string()),
        "{done:?}"
    );
    assert!(
        done.stderr.contains("was not written by hookhost"),
        "{done:?}"
    );
    assert!(
        done.stdout_text().contains("gemini: wired"),
        "the others go on: {done:?}"
    );
    assert_eq!(read(&claude).as_deref(), Some("{\"model\": \"opus\","));
    assert_eq!(read(&plugin).as_deref(), Some("export const Mine = 1;\n"));
    let unknown = hookhost(&p, &["setup", "cursor"]);
    assert_eq!(unknown.code, 1, "{unknown:?}");
    assert!(
        unknown.stderr.contains("unknown agent") && unknown.stderr.contains("opencode"),
        "{unknown:?}"
    );
}

/// A file the user changed after setup: `--remove` takes out setup's hooks and
/// trust records and keeps the user's change.
#[test]
fn remove_keeps_what_the_user_changed_since() {
    let p = Project::new();
    let claude = home_file(&p, ".claude/settings.json");
    p.write(&claude, USER_CLAUDE);
    assert_eq!(hookhost(&p, &["setup", "claude", "codex"]).code, 0);
    let mut settings = json_of(&claude);
    settings["theme"] = json!("dark");
    p.write(&claude, settings.to_string());
    let config = home_file(&p, ".codex/config.toml");
    let mut text = read(&config).unwrap_or_default();
    text.push_str("\n[tui]\nanimations = false\n");
    p.write(&config, &text);
    let removed = hookhost(&p, &["setup", "--remove"]);
    assert_eq!(removed.code, 0, "{removed:?}");
    let after = json_of(&claude);
    assert_eq!(after["theme"], "dark");
    assert_eq!(
        after["hooks"]["PreToolUse"].as_array().map(Vec::len),
        Some(1),
        "{after}"
    );
    assert!(after["hooks"].get("Stop").is_none(), "{after}");
    let config = read(&config).unwrap_or_default();
    assert!(
        !config.contains("trusted_hash") && config.contains("animations = false"),
        "{config}"
    );
}

/// A hostile install path (spaces, quotes, `$`) is quoted for the agent's shell:
/// the hook runs that binary and nothing else.
#[test]
fn a_binary_path_with_shell_characters_is_quoted() {
    let p = Project::new();
    let dir = p.path("it's a $(touch pwned) dir");
    std::fs::create_dir_all(&dir).expect("dir");
    let copy = dir.join("hookhost");
    std::fs::copy(crate::common::BIN, &copy).expect("copy the binary");
    let mut command = std::process::Command::new(&copy);
    command
        .args(["setup", "claude"])
        .env("HOME", p.home())
        .env("XDG_STATE_HOME", p.home().join(".local/state"));
    let done = run(command, b"");
    assert_eq!(done.code, 0, "{done:?}");
    let settings = json_of(&home_file(&p, ".claude/settings.json"));
    let hook = settings["hooks"]["SessionStart"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let stdin = json!({"session_id": "s", "hook_event_name": "SessionStart",
        "permission_mode": "default", "source": "startup", "cwd": p.dir()});
    let mut sh = std::process::Command::new("sh");
    sh.arg("-c")
        .arg(&hook)
        .current_dir(p.dir())
        .env("HOME", p.home());
    let out = run(sh, stdin.to_string().as_bytes());
    assert_eq!(out.code, 0, "{hook}: {out:?}");
    assert!(!p.dir().join("pwned").exists() && !p.outside().join("pwned").exists());
}

/// Seen in the agent suite: a hookhost binary not named `hookhost` got its hooks
/// written but no Codex trust records (its own command was not recognised as
/// setup's), so `codex exec` skipped them; `--remove` would not have found them.
#[test]
fn a_binary_of_another_name_is_still_setups_own() {
    let p = Project::new();
    let copy = p.path("bin/hh-copy");
    std::fs::create_dir_all(copy.parent().expect("dir")).expect("dir");
    std::fs::copy(crate::common::BIN, &copy).expect("copy the binary");
    // Another test's fork may still hold the copy open for writing (until that
    // child execs): running it then fails with ETXTBSY (26). Wait that out.
    let start = std::time::Instant::now();
    while let Err(e) = std::process::Command::new(&copy).arg("--version").output() {
        assert_eq!(e.raw_os_error(), Some(26), "{e}");
        assert!(start.elapsed() < std::time::Duration::from_secs(10), "{e}");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let env = |command: &mut std::process::Command| {
        command
            .env("HOME", p.home())
            .env("XDG_STATE_HOME", p.home().join(".local/state"))
            .env_remove("CODEX_HOME");
    };
    let mut setup = std::process::Command::new(&copy);
    setup.args(["setup", "codex"]);
    env(&mut setup);
    assert_eq!(run(setup, b"").code, 0);
    let config = read(&home_file(&p, ".codex/config.toml")).unwrap_or_default();
    assert_eq!(config.matches("trusted_hash").count(), 5, "{config}");
    let mut remove = std::process::Command::new(&copy);
    remove.args(["setup", "--remove", "codex"]);
    env(&mut remove);
    assert_eq!(run(remove, b"").code, 0);
    assert!(!home_file(&p, ".codex/hooks.json").exists());
    assert!(read(&home_file(&p, ".codex/config.toml")).is_none_or(|c| !c.contains("trusted_hash")));
}
