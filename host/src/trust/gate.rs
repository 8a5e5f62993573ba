//! The trust gate: which configured hooks may be built at all.
//!
//! It runs on the hook *entries*, before anything is loaded: an unapproved project
//! plugin is never read past its digest, compiled, cached, or allowed to size the
//! shared Wasm engine (one plugin asking for 2^64 bytes of memory must not break the
//! user's guards). With trust not required every hook is admitted.

use std::path::{Path, PathBuf};

use super::review::review;
use super::{TrustKey, TrustStore, needs_trust};
use crate::config::{Diagnostic, HookEntry, HookKind};

/// Admits or skips hooks by their approval when trust is required.
pub(crate) struct TrustGate {
    store: Option<TrustStore>,
    project_dir: PathBuf,
    /// Hooks skipped, with what `hookhost trust` shows for each (why: the key's
    /// [`TrustKey::reason`]).
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

    /// Whether `entry` may be built; a skipped hook gets a warning that says why
    /// and how to approve it, an admitted one whose code cannot be pinned a warning
    /// that hookhost cannot notice when that code changes.
    pub(crate) fn admits(&mut self, entry: &HookEntry, diagnostics: &mut Vec<Diagnostic>) -> bool {
        let Some(store) = &self.store else {
            return true;
        };
        if !needs_trust(&entry.source) {
            return true;
        }
        let what = |shown: &str| {
            format!(
                "{}: {}: {} hook {:?}: {shown}",
                entry.source,
                entry.location(),
                entry.spec.type_name(),
                entry.spec.name
            )
        };
        let reviewed = match review(entry, &self.project_dir) {
            Ok(reviewed) => reviewed,
            Err(e) => {
                let path = match &entry.spec.kind {
                    HookKind::Plugin(config) => config.path.display().to_string(),
                    _ => String::new(),
                };
                let problem = format!(
                    "{}: {}: plugin {path} cannot be reviewed ({e}); skipped",
                    entry.source,
                    entry.location(),
                );
                diagnostics.push(Diagnostic::warning(problem).at(entry.at.clone()));
                return false;
            }
        };
        let mut key = reviewed.key;
        if store.is_trusted(&key) {
            if !key.unpinned.is_empty() {
                diagnostics.push(
                    Diagnostic::warning(format!(
                        "{}: {}: {} hook {:?} runs approved with code that is not pinned: {}; \
                     hookhost cannot notice when it changes, so approve it again on every change",
                        entry.source,
                        entry.location(),
                        entry.spec.type_name(),
                        entry.spec.name,
                        key.unpinned.join(", ")
                    ))
                    .at(entry.at.clone()),
                );
            }
            return true;
        }
        key.reason = store.why_not(&key);
        let flag = if key.unpinned.is_empty() {
            ""
        } else {
            " --unpinned"
        };
        diagnostics.push(
            Diagnostic::warning(format!(
                "{}: {}: untrusted {} hook {:?} skipped ({}); review it, then run \
             `hookhost trust{flag} --project-dir {}` to approve it",
                entry.source,
                entry.location(),
                entry.spec.type_name(),
                entry.spec.name,
                key.reason,
                self.project_dir.display()
            ))
            .at(entry.at.clone()),
        );
        self.untrusted.push((key, what(&reviewed.shown)));
        false
    }
}
