//! opencode and Kilo CLI have no command hooks, only JavaScript plugins: setup
//! writes one (`adapters/hookhost-opencode.js`, the same file for both) whose
//! `tool.execute.before` hands each tool call to `hookhost hook` as a Claude
//! `PreToolUse` and throws the reason of a deny, which stops the tool and reaches
//! the model. The file is wholly setup's: `--remove` deletes it.

use std::path::Path;

use super::{Mode, Planned, SetupError};

/// The plugin's source; `__HOOKHOST_BIN__` stands for hookhost's path.
const SOURCE: &str = include_str!("adapters/hookhost-opencode.js");

/// The first line of every file setup writes, by which it knows its own.
pub const MARK: &str = "// hookhost adapter: written by `hookhost setup`";

/// The plugin for this hookhost binary (`command` is `'<path>' hook`).
pub fn source(command: &str) -> String {
    let program = command.strip_suffix(" hook").unwrap_or(command);
    let path = shlex::split(program)
        .and_then(|words| words.into_iter().next())
        .unwrap_or_else(|| program.to_owned());
    let literal = serde_json::Value::from(path).to_string();
    format!(
        "{MARK}\n{}",
        SOURCE.replace("\"__HOOKHOST_BIN__\"", &literal)
    )
}

pub(super) fn plan(file: &Path, command: &str, mode: Mode) -> Result<Planned, SetupError> {
    let before = super::read(file)?;
    let ours = before.as_deref().is_some_and(|t| t.starts_with(MARK));
    if before.is_some() && !ours {
        return Err(SetupError::Foreign {
            path: file.to_owned(),
        });
    }
    let shown = file.display();
    let (after, summary) = match mode {
        Mode::Add => {
            let wanted = source(command);
            if before.as_deref() == Some(wanted.as_str()) {
                (before.clone(), format!("already wired: {shown}"))
            } else {
                (
                    Some(wanted),
                    format!("wired: {shown} (a plugin that asks hookhost before each tool call)"),
                )
            }
        }
        Mode::Remove if ours => (None, format!("removed: {shown}")),
        Mode::Remove => (None, format!("not wired: {shown}")),
    };
    Ok(Planned::one(file, before, after, summary))
}
