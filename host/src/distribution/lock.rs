//! `hookhost.lock`: the digest each tagged `source` resolved to when it was locked.
//!
//! There are two: the project's (`<project>/.llxprt/hookhost.lock`, committed with
//! the repository) for the hooks of the project's own files, and the user's
//! (`~/.llxprt/hookhost.lock`, beside the user settings) for the hooks of the
//! user's and the system's settings and of files and plugins outside the project
//! ([`crate::config::SettingsSource::uses_user_lock`]) — so that a policy
//! distributed centrally under a tag, locked once, runs in every repository. Each
//! is JSON with sorted keys (so diffs are reviewable), and is written only by
//! `hookhost lock`. Fires read them: a tag that moved in the registry is not
//! followed until `hookhost lock --update`. A reference with an explicit
//! `@sha256:` needs no entry.
//!
//! Keys are canonical references ([`super::canonical`]): a file's keys are made
//! canonical when it is read, so that a hook that spells its `source` another way
//! (`oci://GHCR.IO/acme/scan:1`) finds the entry of `oci://ghcr.io/acme/scan:1`
//! and a repository cannot slip a second, differently spelled entry for the same
//! tag past review: two spellings of one tag at different digests make the whole
//! file unusable.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The lock file's name.
pub const LOCK_FILE: &str = "hookhost.lock";

/// The format version written.
pub const LOCK_VERSION: u32 = 1;

/// The lock file of a project.
pub fn lock_path(project_dir: &Path) -> PathBuf {
    project_dir.join(".llxprt").join(LOCK_FILE)
}

/// The user's lock file (`~/.llxprt/hookhost.lock`); `None` without a home
/// directory.
pub fn user_lock_path() -> Option<PathBuf> {
    dirs::home_dir().map(|home| home.join(".llxprt").join(LOCK_FILE))
}

/// What a lock file says.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockFile {
    /// The format version.
    pub version: u32,
    /// Each tagged reference (`oci://REGISTRY/REPO:TAG`) and what it resolved to.
    pub modules: BTreeMap<String, LockedModule>,
}

/// One locked reference.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockedModule {
    /// The manifest digest (`sha256:…`), what a fire uses.
    pub digest: String,
    /// The Wasm layer's digest, for review (the manifest names it too).
    pub module: String,
    /// The Wasm layer's size in bytes.
    pub size: u64,
}

/// A lock file that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {problem}")]
pub struct LockError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong.
    pub problem: String,
}

impl LockFile {
    /// Reads a lock file; a missing file is an empty lock.
    pub fn load(path: &Path) -> Result<LockFile, LockError> {
        let error = |problem: String| LockError {
            path: path.to_path_buf(),
            problem,
        };
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(LockFile {
                    version: LOCK_VERSION,
                    ..LockFile::default()
                });
            }
            Err(e) => return Err(error(format!("cannot read: {e}"))),
        };
        let mut lock: LockFile = serde_json::from_str(&text)
            .map_err(|e| error(format!("not a hookhost lock file: {e}")))?;
        if lock.version != LOCK_VERSION {
            return Err(error(format!(
                "version {} is not supported (expected {LOCK_VERSION})",
                lock.version
            )));
        }
        lock.modules =
            canonical_keys(std::mem::take(&mut lock.modules)).map_err(|e| error(e.to_string()))?;
        Ok(lock)
    }

    /// Writes the lock file atomically, pretty-printed with a final newline.
    pub fn save(&self, path: &Path) -> Result<(), LockError> {
        use std::io::Write;
        let error = |problem: String| LockError {
            path: path.to_path_buf(),
            problem,
        };
        let dir = path
            .parent()
            .ok_or_else(|| error("has no parent directory".into()))?;
        std::fs::create_dir_all(dir)
            .map_err(|e| error(format!("cannot create its directory: {e}")))?;
        let mut text =
            serde_json::to_string_pretty(self).map_err(|e| error(format!("cannot encode: {e}")))?;
        text.push('\n');
        let mut tmp = tempfile::NamedTempFile::new_in(dir)
            .map_err(|e| error(format!("cannot write: {e}")))?;
        tmp.write_all(text.as_bytes())
            .map_err(|e| error(format!("cannot write: {e}")))?;
        // A lock file is committed and reviewed like the settings beside it.
        {
            use std::os::unix::fs::PermissionsExt;
            tmp.as_file()
                .set_permissions(std::fs::Permissions::from_mode(0o644))
                .map_err(|e| error(format!("cannot write: {e}")))?;
        }
        tmp.persist(path)
            .map_err(|e| error(format!("cannot write: {}", e.error)))?;
        Ok(())
    }
}

/// Why a lock file's keys are refused.
#[derive(Debug, thiserror::Error)]
enum KeyError {
    /// A key that is no reference.
    #[error("the key {0}")]
    Reference(#[from] super::reference::ReferenceError),
    /// Two spellings of one reference, locked to different digests.
    #[error(
        "{first:?} and {second:?} are the same reference ({name}) locked to different digests; \
         keep one of them"
    )]
    Disagree {
        first: String,
        second: String,
        name: String,
    },
}

/// The entries under canonical keys; two spellings of one reference are one
/// entry if they agree, an error if they do not (which digest runs must not depend
/// on how a hook spells its `source`).
fn canonical_keys(
    modules: BTreeMap<String, LockedModule>,
) -> Result<BTreeMap<String, LockedModule>, KeyError> {
    let mut canonical: BTreeMap<String, (String, LockedModule)> = BTreeMap::new();
    for (key, entry) in modules {
        let name = super::reference::canonical(&key)?;
        match canonical.get(&name) {
            Some((other, earlier)) if *earlier != entry => {
                return Err(KeyError::Disagree {
                    first: other.clone(),
                    second: key,
                    name,
                });
            }
            Some(_) => {}
            None => {
                canonical.insert(name, (key, entry));
            }
        }
    }
    Ok(canonical
        .into_iter()
        .map(|(name, (_, entry))| (name, entry))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(digest: char) -> LockedModule {
        LockedModule {
            digest: format!("sha256:{}", digest.to_string().repeat(64)),
            module: format!("sha256:{}", "e".repeat(64)),
            size: 1,
        }
    }

    fn lock_of(entries: &[(&str, char)]) -> Result<LockFile, LockError> {
        let dir = tempfile::tempdir().map_err(|e| LockError {
            path: PathBuf::new(),
            problem: e.to_string(),
        })?;
        let path = dir.path().join(LOCK_FILE);
        let modules: BTreeMap<String, LockedModule> = entries
            .iter()
            .map(|(key, digest)| ((*key).to_owned(), entry(*digest)))
            .collect();
        let text = serde_json::json!({"version": LOCK_VERSION, "modules": modules});
        std::fs::write(&path, text.to_string()).map_err(|e| LockError {
            path: path.clone(),
            problem: e.to_string(),
        })?;
        LockFile::load(&path)
    }

    #[test]
    fn keys_are_read_in_canonical_form() {
        let lock = lock_of(&[("oci://GHCR.IO.:443/acme/scan:1", 'a')]).unwrap();
        let keys: Vec<&String> = lock.modules.keys().collect();
        assert_eq!(keys, ["oci://ghcr.io/acme/scan:1"]);
        // Spellings that agree are one entry.
        let lock = lock_of(&[
            ("oci://ghcr.io/acme/scan:1", 'a'),
            ("oci://ghcr.io:443/acme/scan:1", 'a'),
        ])
        .unwrap();
        assert_eq!(lock.modules.len(), 1);
    }

    #[test]
    fn two_spellings_locked_to_different_digests_are_refused() {
        let error = lock_of(&[
            ("oci://ghcr.io/acme/scan:1", 'a'),
            ("oci://GHCR.IO/acme/scan:1", 'b'),
        ])
        .unwrap_err()
        .to_string();
        assert!(
            error.contains("the same reference (oci://ghcr.io/acme/scan:1)")
                && error.contains("different digests"),
            "{error}"
        );
        let error = lock_of(&[("not a reference", 'a')])
            .unwrap_err()
            .to_string();
        assert!(error.contains("the key \"not a reference\""), "{error}");
    }
}
