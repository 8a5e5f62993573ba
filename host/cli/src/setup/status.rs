//! `hookhost check --agents`: for each agent found, whether `hookhost hook` is
//! wired into it, whether the agent will really run it, why not, and the command
//! that fixes it — read from the agent's own files as the agent reads them.

use std::path::Path;

use serde_json::{Map, Value};

use super::agents::{ALL, Agent, Places, Wiring, is_executable};
use super::{codex_trust, hook_json};

/// One agent's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    pub agent: Agent,
    /// The file that wires it.
    pub file: String,
    /// Events wired to hookhost.
    pub wired: Vec<String>,
    /// Why the agent will not run hookhost (empty: it will, when wired).
    pub problems: Vec<String>,
    /// The command that fixes it.
    pub fix: Option<String>,
}

impl Status {
    /// Wired and nothing keeps the agent from running it.
    pub fn runs(&self) -> bool {
        !self.wired.is_empty() && self.problems.is_empty()
    }
}

/// The state of every agent found, and of every agent wired although not found.
pub fn statuses(places: &Places) -> Vec<Status> {
    ALL.into_iter()
        .map(|a| (a.found(places), status(a, places)))
        .filter(|(found, s)| *found || !s.wired.is_empty())
        .map(|(_, s)| s)
        .collect()
}

/// The state of one agent.
pub fn status(agent: Agent, places: &Places) -> Status {
    let setup = format!("hookhost setup {}", agent.name());
    let mut status = Status {
        agent,
        file: String::new(),
        wired: Vec::new(),
        problems: Vec::new(),
        fix: None,
    };
    match agent.wiring(places) {
        Wiring::Plugin { file } => {
            status.file = file.display().to_string();
            match std::fs::read_to_string(&file) {
                Ok(text) if text.starts_with(super::adapter::MARK) => {
                    status.wired.push("tool.execute.before".into());
                    if let Some(program) = adapter_program(&text)
                        && !is_executable(Path::new(&program))
                    {
                        status.problems.push(format!("{program} does not exist"));
                        status.fix = Some(setup);
                    }
                }
                Ok(_) => status
                    .problems
                    .push("the file is not hookhost's adapter (written by someone else)".into()),
                Err(_) => status.fix = Some(setup),
            }
        }
        Wiring::Hooks { file, .. } => {
            status.file = file.display().to_string();
            hooks_status(agent, &file, places, &mut status, setup);
        }
    }
    status
}

fn hooks_status(agent: Agent, file: &Path, places: &Places, status: &mut Status, setup: String) {
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(_) => {
            status.fix = Some(setup);
            return;
        }
    };
    let root = match hook_json::parse(Some(&text)) {
        Ok(root) => root,
        Err(e) => {
            status.problems.push(format!(
                "{}: {e} — the agent cannot read it either",
                file.display()
            ));
            status.fix = Some(format!("fix {}, then {setup}", file.display()));
            return;
        }
    };
    let found = hookhost_hooks(&root);
    status.wired = found.iter().map(|(event, _)| event.clone()).collect();
    status.wired.dedup();
    if found.is_empty() {
        status.fix = Some(setup);
        return;
    }
    for (_, command) in &found {
        if let Some(program) = shlex::split(command).and_then(|w| w.into_iter().next())
            && program.contains('/')
            && !is_executable(Path::new(&program))
        {
            status.problems.push(format!(
                "{program} does not exist (hookhost moved or was removed)"
            ));
        }
    }
    status.problems.dedup();
    status.problems.extend(super::switched_off(agent, &root));
    match agent {
        Agent::Llxprt => llxprt_switches(&root, status),
        Agent::Codex => codex_trust_status(file, &root, places, status),
        _ => {}
    }
    if !status.problems.is_empty() {
        status.fix = Some(setup);
    }
}

/// The events whose hooks run `hookhost hook` (setup's, or wired by hand), with
/// the command.
fn hookhost_hooks(root: &Map<String, Value>) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let Some(Value::Object(events)) = root.get("hooks") else {
        return found;
    };
    for (event, groups) in events {
        for group in groups.as_array().into_iter().flatten() {
            for hook in group
                .get("hooks")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(command) = hook.get("command").and_then(Value::as_str)
                    && (hookhost::is_hookhost_itself(command) || hook_json::is_ours(command))
                {
                    found.push((event.clone(), command.to_owned()));
                }
            }
        }
    }
    found
}

fn llxprt_switches(root: &Map<String, Value>, status: &mut Status) {
    for (table, key) in super::LLXPRT_SWITCHES {
        if root.get(table).and_then(|t| t.get(key)) != Some(&Value::Bool(true)) {
            status.problems.push(format!(
                "`{table}.{key}` is not true: LLxprt Code runs no hook"
            ));
        }
    }
}

fn codex_trust_status(
    file: &Path,
    root: &Map<String, Value>,
    places: &Places,
    status: &mut Status,
) {
    let config_path = places.codex_home.join("config.toml");
    let config = std::fs::read_to_string(&config_path).unwrap_or_default();
    let doc = match codex_trust::records(&config) {
        Ok(doc) => doc,
        Err(e) => {
            status
                .problems
                .push(format!("{}: not valid TOML ({e})", config_path.display()));
            return;
        }
    };
    if doc
        .get("features")
        .and_then(|f| f.get("hooks").or_else(|| f.get("codex_hooks")))
        .and_then(|v| v.as_bool())
        == Some(false)
    {
        status.problems.push(format!(
            "{}: `[features] hooks = false`",
            config_path.display()
        ));
    }
    let mut untrusted = 0;
    let mut changed = 0;
    for (key, hash) in super::setup_hook_hashes(file, root) {
        match codex_trust::trusted(&doc, &key) {
            None => untrusted += 1,
            Some(recorded) if recorded != hash => changed += 1,
            Some(_) => {}
        }
    }
    if untrusted > 0 {
        status.problems.push(format!(
            "{untrusted} hook(s) not trusted: `codex exec` skips them without a word"
        ));
    }
    if changed > 0 {
        status.problems.push(format!(
            "{changed} hook(s) changed since they were trusted: Codex skips them"
        ));
    }
}

/// The hookhost path an adapter file runs.
fn adapter_program(text: &str) -> Option<String> {
    let line = text
        .lines()
        .find(|l| l.contains("process.env.HOOKHOST_BIN ||"))?;
    let literal = line.split("||").nth(1)?.trim().trim_end_matches(';');
    serde_json::from_str(literal).ok()
}

/// Prints every agent's block; whether every wired agent runs hookhost.
pub fn report(places: &Places) -> bool {
    let all = statuses(places);
    if all.is_empty() {
        println!("no agent found (hookhost setup AGENT wires one anyway)");
        return true;
    }
    let mut healthy = true;
    for s in &all {
        println!("{} ({}): {}", s.agent.name(), s.agent.title(), s.file);
        if s.wired.is_empty() {
            println!("  wired: no");
        } else {
            println!("  wired: yes ({})", s.wired.join(", "));
        }
        match (s.wired.is_empty(), s.runs()) {
            (true, _) => println!("  runs hookhost: no (not wired)"),
            (false, true) => println!("  runs hookhost: yes"),
            (false, false) => {
                healthy = false;
                println!("  runs hookhost: NO");
                for p in &s.problems {
                    println!("    - {}", hookhost::terminal_safe(p));
                }
            }
        }
        if let Some(fix) = &s.fix {
            println!("  fix: {fix}");
        }
    }
    healthy
}
