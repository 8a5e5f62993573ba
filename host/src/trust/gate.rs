//! The trust gate: which configured hooks may be built at all.
//!
//! It runs on the hook *entries*, before anything is loaded: an unapproved project
//! plugin is never read past its digest, compiled, cached, or allowed to size the
//! shared Wasm engine (one plugin asking for 2^64 bytes of memory must not break the
//! user's guards). With trust not required every hook is admitted.

use std::io::Read;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::scripts::pinned_scripts;
use super::{TrustKey, TrustStore, needs_trust};
use crate::config::{Diagnostic, HookEntry, HookKind, PluginConfig};

/// Plugin files larger than this are not hashed for approval (and not loaded).
const MAX_HASHED_BYTES: u64 = 512 * 1024 * 1024;

/// Admits or skips hooks by their approval when trust is required.
pub(crate) struct TrustGate {
    store: Option<TrustStore>,
    project_dir: PathBuf,
    /// Hooks skipped, with what `hookhost trust` shows for each.
    pub(crate) untrusted: Vec<(TrustKey, String)>,
}

impl TrustGate {
    /// A gate; with `required` false it admits everything.
    pub(crate) fn new(
        required: bool,
        project_dir: &Path,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> TrustGate {
        let store = required.then(|| {
            TrustStore::load().unwrap_or_else(|e| {
                // Fail closed: with an unreadable store nothing is approved.
                diagnostics.push(Diagnostic::error(format!("trust: {e}")));
                TrustStore::default()
            })
        });
        TrustGate {
            store,
            project_dir: project_dir.to_path_buf(),
            untrusted: Vec::new(),
        }
    }

    /// Whether `entry` may be built; a skipped hook gets a warning that says how to
    /// approve it.
    pub(crate) fn admits(&mut self, entry: &HookEntry, diagnostics: &mut Vec<Diagnostic>) -> bool {
        let Some(store) = &self.store else {
            return true;
        };
        if !needs_trust(&entry.source) {
            return true;
        }
        let scope = entry.source.base_dir.clone();
        let (key, shown) = match &entry.spec.kind {
            HookKind::Plugin(config) => match plugin_key(config, scope) {
                Ok(reviewed) => reviewed,
                Err(e) => {
                    diagnostics.push(Diagnostic::warning(format!(
                        "{}: {}: plugin {} cannot be reviewed ({e}); skipped",
                        entry.source,
                        entry.location,
                        config.path.display()
                    )));
                    return false;
                }
            },
            other => self.command_key(&other.review_text().unwrap_or_default(), scope),
        };
        if store.is_trusted(&key) {
            return true;
        }
        let again = match &key {
            TrustKey::Plugin { sha256, .. } if store.approved_by_digest_only(sha256) => {
                " (approved before by digest alone; approvals now also cover the grants)"
            }
            _ => "",
        };
        diagnostics.push(Diagnostic::warning(format!(
            "{}: {}: untrusted {} hook {:?} skipped{again}; review it, then run \
             `hookhost trust --project-dir {}` to approve it",
            entry.source,
            entry.location,
            entry.spec.type_name(),
            entry.spec.name,
            self.project_dir.display()
        )));
        let what = format!(
            "{}: {}: {} hook {:?}: {shown}",
            entry.source,
            entry.location,
            entry.spec.type_name(),
            entry.spec.name
        );
        self.untrusted.push((key, what));
        false
    }
}

impl TrustGate {
    /// A command's approval key (scope, command, in-project scripts) and how it is
    /// shown to the reviewer.
    fn command_key(&self, command: &str, scope: PathBuf) -> (TrustKey, String) {
        let roots = [self.project_dir.as_path(), scope.as_path()];
        let scripts = pinned_scripts(command, &self.project_dir, &roots);
        let shown = if scripts.is_empty() {
            format!("command {command:?}")
        } else {
            let names: Vec<&str> = scripts.keys().map(String::as_str).collect();
            format!("command {command:?} (scripts pinned: {})", names.join(", "))
        };
        let key = TrustKey::Command {
            scope,
            command: command.to_owned(),
            scripts,
        };
        (key, shown)
    }
}

/// A plugin's approval key (scope, file digest, grants) and how it is shown to the
/// reviewer; why it cannot be reviewed, if it cannot.
fn plugin_key(config: &PluginConfig, scope: PathBuf) -> Result<(TrustKey, String), ReviewError> {
    let sha256 = match source_problem(config) {
        Some(problem) => return Err(ReviewError::Source(problem)),
        None => reviewed_digest(config)?,
    };
    let grants = grants(config);
    let origin = config.source.as_ref().map_or_else(String::new, |s| {
        format!(" ({})", s.digest.as_deref().unwrap_or(&s.reference))
    });
    let shown = format!(
        "plugin {}{origin} sha256 {} with grants {grants}",
        config.source.as_ref().map_or_else(
            || config.path.display().to_string(),
            |s| s.reference.clone()
        ),
        hex::encode(sha256)
    );
    let key = TrustKey::Plugin {
        scope,
        sha256,
        grants,
    };
    Ok((key, shown))
}

/// Why a `source` plugin has no module to review (not locked, not pulled …).
fn source_problem(config: &PluginConfig) -> Option<String> {
    config.source.as_ref().and_then(|s| s.problem.clone())
}

/// What a plugin is granted, as canonical JSON (env sorted by name). Network and
/// state appear only when granted, so approvals made before they existed stay
/// valid for plugins that have neither; adding a host or state to an approved
/// plugin changes the key and needs a new approval.
fn grants(config: &PluginConfig) -> String {
    let mut env: Vec<&(String, String)> = config.env.iter().collect();
    env.sort();
    let env: Map<String, Value> = env
        .into_iter()
        .map(|(k, v)| (k.clone(), Value::from(v.as_str())))
        .collect();
    let preopens: Vec<Value> = config
        .preopens
        .iter()
        .map(
            |p| json!({"host": p.host.to_string_lossy(), "guest": p.guest, "writable": p.writable}),
        )
        .collect();
    let mut grants = json!({"preopens": preopens, "env": env, "args": config.args});
    if !config.grants.allowed_hosts.is_empty() {
        grants["allowedHosts"] = json!(config.grants.sorted_hosts());
    }
    if let Some(state) = &config.grants.state {
        grants["state"] = json!({"maxBytes": state.max_bytes});
    }
    grants.to_string()
}

/// Why a plugin cannot be reviewed (the caller names the plugin).
#[derive(Debug, thiserror::Error)]
enum ReviewError {
    /// Its `source` has no module to review: the resolver's message.
    #[error("{0}")]
    Source(String),
    /// The file cannot be read.
    #[error("cannot read: {0}")]
    Read(#[source] std::io::Error),
    /// The file is a directory, FIFO, device or socket.
    #[error("not a regular file")]
    NotRegular,
    /// The file is larger than [`MAX_HASHED_BYTES`].
    #[error("larger than {MAX_HASHED_BYTES} bytes")]
    TooLarge,
}

/// The digest an approval is for. A pinned plugin (a `sha256` in settings, or the
/// locked digest of a `source`) is approved by its pin without reading the file
/// again: the loader refuses any file whose bytes do not match the pin, so only
/// those bytes can run. Otherwise the file is hashed here.
fn reviewed_digest(config: &PluginConfig) -> Result<[u8; 32], ReviewError> {
    match config.sha256 {
        Some(pin) => Ok(pin),
        None => file_digest(&config.path),
    }
}

/// The SHA-256 of a plugin file, read in a stream with a bound.
fn file_digest(path: &Path) -> Result<[u8; 32], ReviewError> {
    let meta = std::fs::metadata(path).map_err(ReviewError::Read)?;
    if !meta.is_file() {
        return Err(ReviewError::NotRegular);
    }
    let file = std::fs::File::open(path).map_err(ReviewError::Read)?;
    let mut hasher = Sha256::new();
    let read = std::io::copy(&mut file.take(MAX_HASHED_BYTES + 1), &mut hasher)
        .map_err(ReviewError::Read)?;
    if read > MAX_HASHED_BYTES {
        return Err(ReviewError::TooLarge);
    }
    Ok(hasher.finalize().into())
}
