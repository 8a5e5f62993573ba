//! `hookhost setup [AGENT...] [--dry-run] [--remove]` (CONTRACT §6): registers
//! `hookhost hook` as the one hook of each agent, in that agent's user-level file
//! and format, and does what the agent needs for the hook to run (Codex's trust
//! records, LLxprt's switches, a plugin file for opencode and Kilo). It keeps every
//! existing hook and key; it is idempotent; `--dry-run` prints the change as a
//! diff and writes nothing; `--remove` takes out exactly what setup added
//! ([`record`]). Without AGENT: every agent found (its directory, or its program
//! on `PATH`).
//!
//! The hook is the absolute path of this binary followed by `hook`, without
//! `|| exit 2`: a hookhost that was uninstalled without `--remove` must not block
//! every tool call of the agent; `hookhost check --agents` names a hook whose
//! program is gone.

mod adapter;
pub mod agents;
mod change;
pub mod codex_trust;
pub mod hook_json;
mod record;
pub mod status;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::{Map, Value};

use crate::{Failure, Outcome};
use agents::{ALL, Agent, Places, Style, Wiring};
use change::FileChange;
use record::Record;

/// How this command's failures are prefixed.
const SETUP: &str = "hookhost setup";

/// What went wrong for one agent.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", path.display())]
    Shape {
        path: PathBuf,
        source: hook_json::ShapeError,
    },
    #[error("{}: not valid TOML ({source}); fix it, then run setup again", path.display())]
    Toml {
        path: PathBuf,
        source: toml_edit::TomlError,
    },
    #[error("{}: exists and was not written by hookhost; move it away, then run setup again", path.display())]
    Foreign { path: PathBuf },
}

/// The whole command.
pub fn run(names: &[String], dry_run: bool, remove: bool) -> Outcome {
    let places =
        Places::from_env().ok_or_else(|| Failure::of(SETUP, "cannot find the home directory"))?;
    let chosen: Vec<Agent> = if names.is_empty() {
        // Removing: also what setup wired earlier, found now or not.
        ALL.into_iter()
            .filter(|a| a.found(&places) || (remove && !Record::load(a.name()).files.is_empty()))
            .collect()
    } else {
        names
            .iter()
            .map(|n| {
                Agent::parse(n).ok_or_else(|| {
                    let known: Vec<&str> = ALL.iter().map(|a| a.name()).collect();
                    Failure::of(
                        SETUP,
                        format!("unknown agent {n:?}; one of: {}", known.join(", ")),
                    )
                })
            })
            .collect::<Result<_, _>>()?
    };
    if chosen.is_empty() {
        println!(
            "no agent found (looked for the directories and programs of {}); name one: \
             hookhost setup claude",
            ALL.map(|a| a.name()).join(", ")
        );
        return Ok(ExitCode::SUCCESS);
    }
    let command = hook_command().map_err(|e| Failure::of(SETUP, e))?;
    let mut failed = 0;
    for agent in chosen {
        let mode = if remove { Mode::Remove } else { Mode::Add };
        match one(agent, &places, &command, mode, dry_run) {
            Ok(line) => println!("{}: {line}", agent.name()),
            Err(e) => {
                failed += 1;
                eprintln!(
                    "{SETUP}: {}: {}",
                    agent.name(),
                    hookhost::terminal_safe(&e.to_string())
                );
            }
        }
    }
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Add,
    Remove,
}

/// Sets up (or removes) one agent; the line that says what was done.
fn one(
    agent: Agent,
    places: &Places,
    command: &str,
    mode: Mode,
    dry_run: bool,
) -> Result<String, SetupError> {
    let mut record = Record::load(agent.name());
    let planned = plan(agent, places, command, mode, &record)?;
    let changes: Vec<&FileChange> = planned.changes.iter().filter(|c| c.is_change()).collect();
    let mut line = planned.summary;
    for note in &planned.notes {
        line.push_str(&format!("\n  note: {note}"));
    }
    if changes.is_empty() {
        return Ok(line);
    }
    if dry_run {
        for change in &changes {
            print!("{}", change.diff());
        }
        return Ok(format!("{line} (dry run: nothing written)"));
    }
    for change in &changes {
        change.apply().map_err(|source| SetupError::Io {
            path: change.path.clone(),
            source,
        })?;
        match (&change.after, mode) {
            (Some(after), Mode::Add) => record.wrote(&change.path, change.before.as_deref(), after),
            _ => record.forget(&change.path),
        }
    }
    let state = record.save(agent.name());
    if let Err(e) = state {
        line.push_str(&format!(
            "\n  warning: cannot keep the record `--remove` restores from: {e}"
        ));
    }
    Ok(line)
}

/// What setup would do to one agent's files.
struct Planned {
    changes: Vec<FileChange>,
    summary: String,
    notes: Vec<String>,
}

impl Planned {
    /// A change to one file.
    fn one(path: &Path, before: Option<String>, after: Option<String>, summary: String) -> Planned {
        Planned {
            changes: vec![FileChange {
                path: path.to_owned(),
                before,
                after,
            }],
            summary,
            notes: Vec::new(),
        }
    }
}

/// LLxprt Code runs hooks only when both of these are `true`.
pub const LLXPRT_SWITCHES: [(&str, &str); 2] =
    [("tools", "enableHooks"), ("hooksConfig", "enabled")];

fn plan(
    agent: Agent,
    places: &Places,
    command: &str,
    mode: Mode,
    record: &Record,
) -> Result<Planned, SetupError> {
    match agent.wiring(places) {
        Wiring::Plugin { file } => adapter::plan(&file, command, mode),
        Wiring::Hooks { file, style } => {
            let mut planned = plan_hooks(agent, &file, style, command, mode, record)?;
            if agent == Agent::Codex {
                let config = places.codex_home.join("config.toml");
                let trust = plan_codex_trust(&file, &planned.changes[0], &config, mode, record)?;
                if trust.is_change() {
                    planned.summary.push_str(match mode {
                        Mode::Add => {
                            "; trusted in config.toml (as Codex's own approval records it)"
                        }
                        Mode::Remove => "; its trust records taken out of config.toml",
                    });
                }
                planned.changes.push(trust);
            }
            Ok(planned)
        }
    }
}

fn read(path: &Path) -> Result<Option<String>, SetupError> {
    change::read(path).map_err(|source| SetupError::Io {
        path: path.to_owned(),
        source,
    })
}

fn parse(path: &Path, text: Option<&str>) -> Result<Map<String, Value>, SetupError> {
    hook_json::parse(text).map_err(|source| SetupError::Shape {
        path: path.to_owned(),
        source,
    })
}

fn plan_hooks(
    agent: Agent,
    file: &Path,
    style: Style,
    command: &str,
    mode: Mode,
    record: &Record,
) -> Result<Planned, SetupError> {
    let before = read(file)?;
    let mut root = parse(file, before.as_deref())?;
    let mut notes = Vec::new();
    let shown = file.display();
    let (after, summary) = match mode {
        Mode::Add => {
            let added =
                hook_json::add(&mut root, style, command).map_err(|source| SetupError::Shape {
                    path: file.to_owned(),
                    source,
                })?;
            let switched = agent == Agent::Llxprt && switch_on_llxprt(&mut root);
            notes.extend(switched_off(agent, &root));
            if added == 0 && !switched {
                (before.clone(), format!("already wired: {shown}"))
            } else {
                if before.as_deref().is_some_and(hook_json::has_comments) {
                    notes.push(format!(
                        "the comments of {shown} are not kept (`hookhost setup --remove` \
                         restores the file as it was)"
                    ));
                }
                let what = if switched {
                    format!("{added} hook(s) added, hooks switched on")
                } else {
                    format!("{added} hook(s) added")
                };
                (
                    Some(hook_json::render(&root)),
                    format!("wired: {shown} ({what})"),
                )
            }
        }
        Mode::Remove => {
            let restored = before
                .as_deref()
                .and_then(|text| record.restore(file, text));
            match restored {
                Some(original) => (original, format!("removed: {shown} (restored as it was)")),
                None => {
                    let removed = hook_json::remove(&mut root);
                    if removed == 0 {
                        (before.clone(), format!("not wired: {shown}"))
                    } else if root.is_empty() && record.file(file).is_some_and(|f| f.created) {
                        (None, format!("removed: {shown} (deleted: setup made it)"))
                    } else {
                        (
                            Some(hook_json::render(&root)),
                            format!("removed: {shown} ({removed} hook(s) taken out)"),
                        )
                    }
                }
            }
        }
    };
    Ok(Planned {
        notes,
        ..Planned::one(file, before, after, summary)
    })
}

/// LLxprt Code runs hooks only with `tools.enableHooks` and
/// `hooksConfig.enabled` both true; whether either had to be switched on.
fn switch_on_llxprt(root: &mut Map<String, Value>) -> bool {
    let mut switched = false;
    for (table, key) in LLXPRT_SWITCHES {
        let entry = root
            .entry(table)
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(map) = entry
            && map.get(key) != Some(&Value::Bool(true))
        {
            map.insert(key.to_owned(), Value::Bool(true));
            switched = true;
        }
    }
    switched
}

/// Why the agent will not run its hooks although they are wired, as far as its
/// own file says.
pub fn switched_off(agent: Agent, root: &Map<String, Value>) -> Option<String> {
    let off = |value: Option<&Value>| value == Some(&Value::Bool(false));
    match agent {
        Agent::Claude | Agent::Copilot | Agent::Droid | Agent::Qwen
            if root.get("disableAllHooks") == Some(&Value::Bool(true)) =>
        {
            Some("`disableAllHooks: true` in this file: the agent runs no hook".to_owned())
        }
        Agent::Gemini
            if off(root.get("hooksConfig").and_then(|h| h.get("enabled")))
                || off(root.get("hooks").and_then(|h| h.get("enabled"))) =>
        {
            Some(
                "hooks are switched off in this file (`hooksConfig.enabled: false`): \
                 Gemini CLI runs no hook until you switch them on"
                    .to_owned(),
            )
        }
        _ => None,
    }
}

/// Codex's trust records for setup's hooks of `hooks` (the planned change to
/// hooks.json), in `config` (config.toml).
fn plan_codex_trust(
    hooks_file: &Path,
    hooks: &FileChange,
    config: &Path,
    mode: Mode,
    record: &Record,
) -> Result<FileChange, SetupError> {
    let before = read(config)?;
    let mut doc =
        codex_trust::records(before.as_deref().unwrap_or_default()).map_err(|source| {
            SetupError::Toml {
                path: config.to_owned(),
                source,
            }
        })?;
    let after = match mode {
        Mode::Add => {
            let root = parse(hooks_file, hooks.after.as_deref())?;
            let mut changed = false;
            for (key, hash) in setup_hook_hashes(hooks_file, &root) {
                changed |= codex_trust::set_trusted(&mut doc, &key, &hash);
            }
            if changed {
                Some(doc.to_string())
            } else {
                before.clone()
            }
        }
        Mode::Remove => {
            if let Some(restored) = before.as_deref().and_then(|t| record.restore(config, t)) {
                restored
            } else {
                let root = parse(hooks_file, hooks.before.as_deref())?;
                let mut changed = false;
                for (key, _) in setup_hook_hashes(hooks_file, &root) {
                    changed |= codex_trust::remove_trusted(&mut doc, &key);
                }
                let created = record.file(config).is_some_and(|f| f.created);
                if changed && created && doc.to_string().trim().is_empty() {
                    None
                } else if changed {
                    Some(doc.to_string())
                } else {
                    before.clone()
                }
            }
        }
    };
    Ok(FileChange {
        path: config.to_owned(),
        before,
        after,
    })
}

/// The trust key and current hash of each of setup's hooks in a Codex hooks file.
pub fn setup_hook_hashes(hooks_file: &Path, root: &Map<String, Value>) -> Vec<(String, String)> {
    hook_json::ours(root)
        .into_iter()
        .filter_map(|found| {
            let group = root.get("hooks")?.get(&found.event)?.get(found.group)?;
            let hook = group.get("hooks")?.get(found.hook)?;
            let hash = codex_trust::hash(&found.event, group.get("matcher"), hook)?;
            let key = codex_trust::key(hooks_file, &found.event, found.group, found.hook)?;
            Some((key, hash))
        })
        .collect()
}

/// `'<this binary>' hook`, quoted for the shell the agent runs it with.
pub fn hook_command() -> Result<String, String> {
    let exe = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .map_err(|e| format!("cannot find hookhost's own binary: {e}"))?;
    let text = exe
        .to_str()
        .ok_or_else(|| format!("{}: the path is not UTF-8", exe.display()))?;
    let quoted = shlex::try_quote(text)
        .map_err(|_| format!("{text:?}: the path cannot be quoted for a shell"))?;
    Ok(format!("{quoted} hook"))
}
