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
//!   extension) directory, **and** for the content of every script inside the
//!   project that the command names (`"$LLXPRT_PROJECT_DIR"/hooks/lint.sh`,
//!   `python3 hooks/check.py`): editing the script asks again ([`scripts`]);
//! * a plugin hook is approved for the exact SHA-256 of its file **together with its
//!   grants** (preopens, env, args) in that directory: the same approved `.wasm`
//!   handed a writable `$HOME` is a new, unapproved hook.
//!
//! Approvals live in `$XDG_CONFIG_HOME/hookhost/trusted.json` (or
//! `~/.config/hookhost/trusted.json`; `HOOKHOST_TRUST_FILE` overrides), a file of the
//! user's own that project settings cannot write. An untrusted hook is skipped with a
//! warning that says how to trust it. The gate itself is [`gate`].

pub(crate) mod gate;
pub mod scripts;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::config::SettingsSource;

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
        /// The scripts inside the project it names: path as written → SHA-256 (hex).
        scripts: BTreeMap<String, String>,
    },
    /// A plugin file with its grants, within a project or extension directory.
    Plugin {
        /// The project or extension directory.
        scope: PathBuf,
        /// The file's digest.
        sha256: [u8; 32],
        /// The grants (preopens, env, args) as canonical JSON.
        grants: String,
    },
}

/// Whether hooks from this source need approval.
pub fn needs_trust(source: &SettingsSource) -> bool {
    source.is_repository_scope()
}

/// The approvals on disk.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct TrustStore {
    /// Approved command strings per project or extension directory.
    #[serde(default)]
    commands: BTreeMap<String, BTreeSet<String>>,
    /// The script contents each approved command was approved with, per directory.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    scripts: BTreeMap<String, BTreeMap<String, BTreeMap<String, String>>>,
    /// Approved plugins per directory: `{"sha256": …, "grants": …}` as canonical JSON.
    #[serde(default, rename = "pluginGrants")]
    plugin_grants: BTreeMap<String, BTreeSet<String>>,
    /// Digest-only approvals of earlier versions: no longer sufficient (they did not
    /// cover grants), kept so that the warning can say why a plugin asks again.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
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
        use std::os::unix::fs::DirBuilderExt;
        let path = Self::path()?;
        let io = |source| TrustError::Io {
            path: path.clone(),
            source,
        };
        let dir = path.parent().unwrap_or(Path::new("."));
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(io)?;
        let text = serde_json::to_vec_pretty(self).unwrap_or_default();
        // NamedTempFile is created 0600 in the same directory; persist renames it.
        let mut file = tempfile::NamedTempFile::new_in(dir).map_err(io)?;
        std::io::Write::write_all(&mut file, &text).map_err(io)?;
        file.as_file().sync_all().map_err(io)?;
        file.persist(&path).map_err(|e| io(e.error))?;
        Ok(path)
    }

    /// Whether `key` was approved.
    pub fn is_trusted(&self, key: &TrustKey) -> bool {
        match key {
            TrustKey::Command {
                scope,
                command,
                scripts,
            } => {
                let scope = scope_key(scope);
                let approved = self
                    .commands
                    .get(&scope)
                    .is_some_and(|commands| commands.contains(command));
                let pinned = self.scripts.get(&scope).and_then(|s| s.get(command));
                approved
                    && match pinned {
                        Some(pinned) => pinned == scripts,
                        None => scripts.is_empty(),
                    }
            }
            TrustKey::Plugin { scope, .. } => self
                .plugin_grants
                .get(&scope_key(scope))
                .is_some_and(|set| set.contains(&plugin_entry(key))),
        }
    }

    /// Whether a plugin with this digest was approved by an earlier version that
    /// approved digests alone.
    pub fn approved_by_digest_only(&self, sha256: &[u8; 32]) -> bool {
        self.plugins.contains(&hex::encode(sha256))
    }

    /// Approves `key`; returns whether it was new.
    pub fn approve(&mut self, key: &TrustKey) -> bool {
        if self.is_trusted(key) {
            return false;
        }
        match key {
            TrustKey::Command {
                scope,
                command,
                scripts,
            } => {
                let scope = scope_key(scope);
                self.commands
                    .entry(scope.clone())
                    .or_default()
                    .insert(command.clone());
                let pins = self.scripts.entry(scope.clone()).or_default();
                if scripts.is_empty() {
                    pins.remove(command);
                } else {
                    pins.insert(command.clone(), scripts.clone());
                }
                if pins.is_empty() {
                    self.scripts.remove(&scope);
                }
            }
            TrustKey::Plugin { scope, .. } => {
                self.plugin_grants
                    .entry(scope_key(scope))
                    .or_default()
                    .insert(plugin_entry(key));
            }
        }
        true
    }
}

/// The stored form of a plugin approval.
fn plugin_entry(key: &TrustKey) -> String {
    match key {
        TrustKey::Plugin { sha256, grants, .. } => {
            format!("sha256:{} grants:{grants}", hex::encode(sha256))
        }
        TrustKey::Command { command, .. } => command.clone(),
    }
}

fn scope_key(scope: &Path) -> String {
    scope.to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(scope: &str, command: &str, scripts: &[(&str, &str)]) -> TrustKey {
        TrustKey::Command {
            scope: scope.into(),
            command: command.into(),
            scripts: scripts
                .iter()
                .map(|(p, d)| ((*p).to_owned(), (*d).to_owned()))
                .collect(),
        }
    }

    fn plugin(scope: &str, sha: u8, grants: &str) -> TrustKey {
        TrustKey::Plugin {
            scope: scope.into(),
            sha256: [sha; 32],
            grants: grants.into(),
        }
    }

    #[test]
    fn approvals_are_exact() {
        let mut store = TrustStore::default();
        let cmd = command("/p", "x.sh", &[]);
        assert!(!store.is_trusted(&cmd));
        assert!(store.approve(&cmd));
        assert!(!store.approve(&cmd));
        assert!(store.is_trusted(&cmd));
        assert!(!store.is_trusted(&command("/other", "x.sh", &[])));
        assert!(!store.is_trusted(&command("/p", "x.sh ", &[])));
        let p = plugin("/p", 7, "{}");
        store.approve(&p);
        assert!(store.is_trusted(&p));
        assert!(!store.is_trusted(&plugin("/p", 8, "{}")));
        assert!(!store.is_trusted(&plugin("/p", 7, r#"{"env":{"A":"b"}}"#)));
        assert!(!store.is_trusted(&plugin("/q", 7, "{}")));
    }

    #[test]
    fn a_command_is_approved_with_the_content_of_its_scripts() {
        let mut store = TrustStore::default();
        let v1 = command("/p", "hooks/lint.sh", &[("hooks/lint.sh", "aa")]);
        store.approve(&v1);
        assert!(store.is_trusted(&v1));
        assert!(!store.is_trusted(&command("/p", "hooks/lint.sh", &[("hooks/lint.sh", "bb")])));
        // The script vanished: that is a change too.
        assert!(!store.is_trusted(&command("/p", "hooks/lint.sh", &[])));
    }
}
