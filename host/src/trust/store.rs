//! The approvals on disk: `trusted.json` in the user's own config dir, and why a
//! hook is not approved.
//!
//! An approval is a hook's document ([`super::document`]) within a project or
//! extension directory, with where the hook was configured when it was approved
//! (to say, when it changes, what changed). The fields of earlier versions are read
//! and kept, never written ([`super::legacy`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::document::{canonical, changes};
use super::legacy::{Earlier, EarlierMatch};
use super::{TRUST_FILE_ENV, TrustError, TrustKey};

/// The approvals on disk.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct TrustStore {
    /// Approved hooks per project or extension directory.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    hooks: BTreeMap<String, Vec<Approval>>,
    /// Earlier versions: approved command strings (review texts) per directory.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    commands: BTreeMap<String, BTreeSet<String>>,
    /// Earlier versions: the script contents each command was approved with.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    scripts: BTreeMap<String, BTreeMap<String, BTreeMap<String, String>>>,
    /// Earlier versions: approved plugins per directory, `sha256:… grants:…`.
    #[serde(
        default,
        rename = "pluginGrants",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    plugin_grants: BTreeMap<String, BTreeSet<String>>,
    /// Versions before those: plugin digests alone (never sufficient).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    plugins: BTreeSet<String>,
}

/// One approved hook.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Approval {
    /// Where it was configured: settings file and location in it.
    at: String,
    /// Its document.
    approved: Value,
}

impl Approval {
    fn text(&self) -> String {
        canonical(&self.approved).to_string()
    }
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

    /// Whether `key` was approved: its document, or an earlier version's key that
    /// saw all of it.
    pub fn is_trusted(&self, key: &TrustKey) -> bool {
        let scope = scope_key(&key.scope);
        let approved = self
            .hooks
            .get(&scope)
            .is_some_and(|list| list.iter().any(|a| a.text() == key.document));
        approved
            || key.earlier.as_ref().is_some_and(|earlier| {
                earlier.uncovered.is_empty()
                    && self.earlier(&scope, &earlier.key) == EarlierMatch::Same
            })
    }

    /// Approves `key` (a key with code that cannot be pinned too: the caller
    /// decides whether it means to); returns whether it was new.
    pub fn approve(&mut self, key: &TrustKey) -> bool {
        if self.is_trusted(key) {
            return false;
        }
        let approved = serde_json::from_str(&key.document).unwrap_or(Value::Null);
        self.hooks
            .entry(scope_key(&key.scope))
            .or_default()
            .push(Approval {
                at: key.at.clone(),
                approved,
            });
        true
    }

    /// Why `key` is not approved, for `hookhost trust --list`, `check` and the
    /// warning of a fire.
    pub fn why_not(&self, key: &TrustKey) -> String {
        let scope = scope_key(&key.scope);
        let earlier = key
            .earlier
            .as_ref()
            .map(|e| (e, self.earlier(&scope, &e.key)));
        let last_here = self
            .hooks
            .get(&scope)
            .and_then(|list| list.iter().rev().find(|a| a.at == key.at));
        let why = match (last_here, earlier) {
            (Some(approval), _) => {
                let current = serde_json::from_str(&key.document).unwrap_or(Value::Null);
                let changed = changes(&canonical(&approval.approved), &current);
                format!("changed since approved: {}", changed.join(", "))
            }
            (None, Some((_, EarlierMatch::OtherScripts))) => {
                "changed since approved by an earlier version: its scripts".to_owned()
            }
            (None, Some((e, EarlierMatch::Same))) => format!(
                "approved by an earlier version, whose approval did not cover {}; \
                 approvals now cover the whole hook",
                e.uncovered.join(", ")
            ),
            (None, Some((_, EarlierMatch::DigestOnly))) => {
                "approved before by digest alone; approvals now cover the whole hook".to_owned()
            }
            (None, _) => "never approved".to_owned(),
        };
        if key.unpinned.is_empty() {
            return why;
        }
        format!(
            "cannot pin {} — approve again on every change; {why}",
            key.unpinned.join(", ")
        )
    }

    /// How an earlier version's approval in `scope` matches `key`.
    fn earlier(&self, scope: &str, key: &Earlier) -> EarlierMatch {
        match key {
            Earlier::Text { text, scripts } => {
                let approved = self.commands.get(scope).is_some_and(|c| c.contains(text));
                if !approved {
                    return EarlierMatch::None;
                }
                let pinned = self.scripts.get(scope).and_then(|s| s.get(text));
                let same = match pinned {
                    Some(pinned) => pinned == scripts,
                    None => scripts.is_empty(),
                };
                if same {
                    EarlierMatch::Same
                } else {
                    EarlierMatch::OtherScripts
                }
            }
            Earlier::Plugin { entry, sha256 } => {
                if self
                    .plugin_grants
                    .get(scope)
                    .is_some_and(|s| s.contains(entry))
                {
                    EarlierMatch::Same
                } else if self.plugins.contains(&hex::encode(sha256)) {
                    EarlierMatch::DigestOnly
                } else {
                    EarlierMatch::None
                }
            }
        }
    }
}

fn scope_key(scope: &Path) -> String {
    scope.to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::trust::legacy::EarlierKey;

    fn key(scope: &str, at: &str, document: Value, earlier: Option<EarlierKey>) -> TrustKey {
        TrustKey {
            scope: scope.into(),
            document: canonical(&document).to_string(),
            at: at.into(),
            unpinned: Vec::new(),
            earlier,
            reason: String::new(),
        }
    }

    fn hook(command: &str, env: Option<Value>) -> Value {
        let mut hook = json!({"type": "command", "command": command});
        if let Some(env) = env {
            hook["env"] = env;
        }
        json!({"format": "llxprt", "hook": hook, "scripts": {}})
    }

    #[test]
    fn approvals_are_exact_and_say_what_changed() {
        let mut store = TrustStore::default();
        let v1 = key("/p", "f#h0", hook("x.sh", None), None);
        assert!(!store.is_trusted(&v1));
        assert_eq!(store.why_not(&v1), "never approved");
        assert!(store.approve(&v1));
        assert!(!store.approve(&v1));
        assert!(store.is_trusted(&v1));
        assert!(!store.is_trusted(&key("/q", "f#h0", hook("x.sh", None), None)));
        let v2 = key(
            "/p",
            "f#h0",
            hook("x.sh", Some(json!({"PATH": "/p/bin"}))),
            None,
        );
        assert!(!store.is_trusted(&v2));
        assert_eq!(store.why_not(&v2), "changed since approved: env");
        // The trust file round-trips.
        let text = serde_json::to_string(&store).unwrap();
        let again: TrustStore = serde_json::from_str(&text).unwrap();
        assert!(again.is_trusted(&v1) && !again.is_trusted(&v2));
    }

    #[test]
    fn an_earlier_approval_counts_only_where_it_saw_everything() {
        let store: TrustStore = serde_json::from_value(json!({
            "commands": {"/p": ["x.sh"]},
            "scripts": {"/p": {"x.sh": {"x.sh": "aa"}}}
        }))
        .unwrap();
        let earlier = |scripts: &[(&str, &str)], uncovered: &[&str]| EarlierKey {
            key: Earlier::Text {
                text: "x.sh".into(),
                scripts: scripts
                    .iter()
                    .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                    .collect(),
            },
            uncovered: uncovered.iter().map(|s| (*s).to_owned()).collect(),
        };
        let same = key(
            "/p",
            "f#h0",
            hook("x.sh", None),
            Some(earlier(&[("x.sh", "aa")], &[])),
        );
        assert!(store.is_trusted(&same));
        let edited = key(
            "/p",
            "f#h0",
            hook("x.sh", None),
            Some(earlier(&[("x.sh", "bb")], &[])),
        );
        assert!(!store.is_trusted(&edited));
        assert!(
            store
                .why_not(&edited)
                .contains("earlier version: its scripts")
        );
        let with_env = key(
            "/p",
            "f#h0",
            hook("x.sh", Some(json!({}))),
            Some(earlier(&[("x.sh", "aa")], &["env"])),
        );
        assert!(!store.is_trusted(&with_env));
        assert!(
            store.why_not(&with_env).contains("did not cover env"),
            "{}",
            store.why_not(&with_env)
        );
    }
}
