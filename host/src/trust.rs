//! Trust for project hooks: a repository's settings are code execution.
//!
//! A project's `.llxprt/settings.json` (and an extension's manifest) can make the
//! agent run any command on the next tool call — cloning a repository and starting
//! the agent in it would be enough. With trust required (`tools.requireHookTrust`
//! in user or system settings, `--require-trust`, or
//! [`crate::HookSystemBuilder::require_trust`]), a hook from project settings or an
//! extension runs only if it was approved before with `hookhost trust`:
//!
//! * a command hook is approved for its exact command string in that project (or
//!   extension) directory;
//! * a plugin hook is approved for the exact SHA-256 of its file — a changed file is
//!   a new, untrusted plugin, whatever its path.
//!
//! Approvals live in `$XDG_CONFIG_HOME/hookhost/trusted.json` (or
//! `~/.config/hookhost/trusted.json`; `HOOKHOST_TRUST_FILE` overrides), a file of the
//! user's own that project settings cannot write. An untrusted hook is skipped with a
//! warning that says how to trust it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::config::{SettingsSource, SourceKind};

/// The environment variable that overrides the trust file's location.
pub const TRUST_FILE_ENV: &str = "HOOKHOST_TRUST_FILE";

/// What a hook is trusted as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrustKey {
    /// A command string within a project or extension directory.
    Command {
        /// The project or extension directory.
        scope: PathBuf,
        /// The command string.
        command: String,
    },
    /// A plugin file's SHA-256.
    Plugin {
        /// The digest.
        sha256: [u8; 32],
    },
}

/// Whether hooks from this source need approval.
pub fn needs_trust(source: &SettingsSource) -> bool {
    matches!(source.kind, SourceKind::Project | SourceKind::Extension(_))
}

/// The approvals on disk.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct TrustStore {
    /// Approved command strings per project or extension directory.
    #[serde(default)]
    commands: BTreeMap<String, BTreeSet<String>>,
    /// Approved plugin digests (hex).
    #[serde(default)]
    plugins: BTreeSet<String>,
}

/// Why the trust file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum TrustError {
    /// There is no config directory to keep the file in.
    #[error("no configuration directory (set {TRUST_FILE_ENV})")]
    NoLocation,
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The trust file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not valid.
    #[error("{path}: not a valid trust file: {source}")]
    Invalid {
        /// The trust file.
        path: PathBuf,
        /// The parse error.
        source: serde_json::Error,
    },
}

impl TrustStore {
    /// Where the trust file lives.
    pub fn path() -> Result<PathBuf, TrustError> {
        if let Some(path) = std::env::var_os(TRUST_FILE_ENV).filter(|p| !p.is_empty()) {
            return Ok(PathBuf::from(path));
        }
        dirs::config_dir()
            .map(|d| d.join("hookhost").join("trusted.json"))
            .ok_or(TrustError::NoLocation)
    }

    /// Reads the trust file; a missing file is an empty store.
    pub fn load() -> Result<TrustStore, TrustError> {
        let path = Self::path()?;
        match std::fs::read(&path) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map_err(|source| TrustError::Invalid { path, source }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(TrustStore::default()),
            Err(source) => Err(TrustError::Io { path, source }),
        }
    }

    /// Writes the trust file (private to the user, replaced atomically).
    pub fn save(&self) -> Result<PathBuf, TrustError> {
        use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
        let path = Self::path()?;
        let io = |source| TrustError::Io {
            path: path.clone(),
            source,
        };
        if let Some(dir) = path.parent() {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(dir)
                .map_err(io)?;
        }
        let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
        let text = serde_json::to_vec_pretty(self).unwrap_or_default();
        let write = || -> std::io::Result<()> {
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .mode(0o600)
                .open(&tmp)?;
            std::io::Write::write_all(&mut file, &text)?;
            file.sync_all()?;
            std::fs::rename(&tmp, &path)
        };
        write().map_err(io)?;
        Ok(path)
    }

    /// Whether `key` was approved.
    pub fn is_trusted(&self, key: &TrustKey) -> bool {
        match key {
            TrustKey::Command { scope, command } => self
                .commands
                .get(&scope_key(scope))
                .is_some_and(|commands| commands.contains(command)),
            TrustKey::Plugin { sha256 } => self.plugins.contains(&hex::encode(sha256)),
        }
    }

    /// Approves `key`; returns whether it was new.
    pub fn approve(&mut self, key: &TrustKey) -> bool {
        match key {
            TrustKey::Command { scope, command } => self
                .commands
                .entry(scope_key(scope))
                .or_default()
                .insert(command.clone()),
            TrustKey::Plugin { sha256 } => self.plugins.insert(hex::encode(sha256)),
        }
    }
}

fn scope_key(scope: &Path) -> String {
    scope.to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn approvals_are_exact() {
        let mut store = TrustStore::default();
        let cmd = TrustKey::Command {
            scope: "/p".into(),
            command: "x.sh".into(),
        };
        assert!(!store.is_trusted(&cmd));
        assert!(store.approve(&cmd));
        assert!(!store.approve(&cmd));
        assert!(store.is_trusted(&cmd));
        assert!(!store.is_trusted(&TrustKey::Command {
            scope: "/other".into(),
            command: "x.sh".into()
        }));
        assert!(!store.is_trusted(&TrustKey::Command {
            scope: "/p".into(),
            command: "x.sh ".into()
        }));
        let plugin = TrustKey::Plugin { sha256: [7; 32] };
        store.approve(&plugin);
        assert!(store.is_trusted(&plugin));
        assert!(!store.is_trusted(&TrustKey::Plugin { sha256: [8; 32] }));
    }
}
