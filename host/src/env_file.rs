//! `CLAUDE_ENV_FILE`: where Claude Code SessionStart (and Setup) hooks append
//! `export VAR=value` lines for the session's later commands.
//!
//! Inside Claude Code the variable is inherited. Anywhere else (`hookhost fire`,
//! an embedding agent) hookhost makes one file per session under its state
//! directory, so that a `set -u` script appending to it does not die — which under
//! `dash` is exit 2, a block with a shell error as its reason.

use std::os::unix::fs::DirBuilderExt as _;
use std::path::PathBuf;

use crate::config::Diagnostic;
use crate::event::HookEvent;
use crate::planner::EventHooks;
use crate::runner::RunnableHook;

/// The variable's name.
pub const CLAUDE_ENV_FILE: &str = "CLAUDE_ENV_FILE";

/// The file for `session_id`, created empty, when command hooks may need one and
/// the environment does not already name one.
pub(crate) fn for_session(
    events: &[EventHooks<RunnableHook>],
    session_id: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<PathBuf> {
    if std::env::var_os(CLAUDE_ENV_FILE).is_some_and(|v| !v.is_empty()) {
        return None;
    }
    let needed = [HookEvent::SessionStart, HookEvent::Setup]
        .iter()
        .any(|e| !events[e.index()].is_empty());
    if !needed {
        return None;
    }
    let dir = state_dir()?.join("env");
    let created = std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&dir);
    let safe: String = session_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let path = dir.join(format!("{safe}.sh"));
    let opened = created.and_then(|()| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
    });
    match opened {
        Ok(_) => Some(path),
        Err(e) => {
            diagnostics.push(Diagnostic::warning(format!(
                "cannot create {CLAUDE_ENV_FILE} {}: {e}; SessionStart hooks that write to it will fail",
                path.display()
            )));
            None
        }
    }
}

/// `$XDG_STATE_HOME/hookhost` (or the platform's equivalent, else the cache dir).
pub(crate) fn state_dir() -> Option<PathBuf> {
    dirs::state_dir()
        .or_else(dirs::cache_dir)
        .map(|d| d.join("hookhost"))
}
