//! What `hookhost setup` did to each agent's files, so that `--remove` takes out
//! exactly that: a file setup created is deleted, a file it edited gets its
//! original bytes back when nobody changed it since (else setup's hooks and
//! records alone are taken out of it).
//!
//! Kept in `$XDG_STATE_HOME/hookhost/setup/AGENT.json` (0600: the originals are
//! the user's settings).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// One file setup wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub path: PathBuf,
    /// Setup made the file.
    pub created: bool,
    /// The file as it was before setup first changed it; `None` when setup made
    /// it, or when someone changed it between two runs of setup (the original
    /// would undo their change: only setup's own parts are taken out then).
    pub original: Option<String>,
    /// SHA-256 of what setup last wrote.
    pub written: String,
}

/// The record of one agent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Record {
    pub files: Vec<Written>,
}

impl Record {
    /// The record of `agent` (empty when there is none or it cannot be read).
    pub fn load(agent: &str) -> Record {
        let Some(path) = path_of(agent) else {
            return Record::default();
        };
        let Ok(text) = std::fs::read_to_string(&path) else {
            return Record::default();
        };
        let Ok(value) = serde_json::from_str::<Value>(&text) else {
            tracing::warn!("{}: not a setup record; ignored", path.display());
            return Record::default();
        };
        let files = value["files"]
            .as_array()
            .map(|files| {
                files
                    .iter()
                    .filter_map(|f| {
                        Some(Written {
                            path: PathBuf::from(f["path"].as_str()?),
                            created: f["created"].as_bool().unwrap_or(false),
                            original: f["original"].as_str().map(str::to_owned),
                            written: f["written"].as_str()?.to_owned(),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        Record { files }
    }

    /// The entry of `path`.
    pub fn file(&self, path: &Path) -> Option<&Written> {
        self.files.iter().find(|f| f.path == path)
    }

    /// Notes that setup wrote `text` to `path`, which held `before` (the first
    /// original is kept across runs, unless the file changed in between).
    pub fn wrote(&mut self, path: &Path, before: Option<&str>, text: &str) {
        let written = sha256(text);
        match self.files.iter_mut().find(|f| f.path == path) {
            Some(entry) => {
                if before.map(sha256).as_deref() != Some(entry.written.as_str()) {
                    entry.created = false;
                    entry.original = None;
                }
                entry.written = written;
            }
            None => self.files.push(Written {
                path: path.to_owned(),
                created: before.is_none(),
                original: before.map(str::to_owned),
                written,
            }),
        }
    }

    /// What `path` goes back to when it still holds exactly what setup wrote:
    /// `Some(None)` — delete it (setup made it), `Some(Some(text))` — the original.
    pub fn restore(&self, path: &Path, current: &str) -> Option<Option<String>> {
        let entry = self.file(path)?;
        if sha256(current) != entry.written {
            return None;
        }
        if entry.created {
            return Some(None);
        }
        entry.original.clone().map(Some)
    }

    /// Forgets `path`.
    pub fn forget(&mut self, path: &Path) {
        self.files.retain(|f| f.path != path);
    }

    /// Saves the record of `agent` (or deletes it when empty).
    pub fn save(&self, agent: &str) -> std::io::Result<()> {
        let Some(path) = path_of(agent) else {
            return Ok(());
        };
        if self.files.is_empty() {
            return match std::fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            };
        }
        let files: Vec<Value> = self
            .files
            .iter()
            .map(|f| {
                json!({"path": f.path, "created": f.created, "original": f.original,
                       "written": f.written})
            })
            .collect();
        let text = serde_json::to_string_pretty(&json!({"agent": agent, "files": files}))
            .unwrap_or_default();
        super::change::write_atomically(&path, text.as_bytes())
    }
}

/// SHA-256 of a text, hex.
pub fn sha256(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

fn path_of(agent: &str) -> Option<PathBuf> {
    let base = std::env::var_os("XDG_STATE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| dirs::home_dir().map(|h| h.join(".local").join("state")))?;
    Some(
        base.join("hookhost")
            .join("setup")
            .join(format!("{agent}.json")),
    )
}
