//! The `source` plugins a system's settings name: what `hookhost lock` and
//! `install` fetch, by the lock file each is locked in, and the signature keys each
//! must verify with.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use super::HookSystem;

impl HookSystem {
    /// The `source` references of the plugin hooks of every event, of every dialect
    /// and of event names hookhost does not know (what `hookhost lock` and `install`
    /// fetch).
    pub fn source_references(&self) -> BTreeSet<String> {
        self.source_references_by_lock()
            .into_values()
            .flatten()
            .collect()
    }

    /// The `source` references of the plugin hooks, by the lock file each is
    /// locked in (the project's, or the user's for the user's own files:
    /// [`crate::config::SettingsSource::lock_path`]). The project's lock is always
    /// a key, with no references if no project file has a `source`.
    pub fn source_references_by_lock(&self) -> BTreeMap<PathBuf, BTreeSet<String>> {
        let project_dir = &self.ctx.project_dir;
        let mut by_lock: BTreeMap<PathBuf, BTreeSet<String>> = Default::default();
        by_lock
            .entry(crate::distribution::lock::lock_path(project_dir))
            .or_default();
        let known = self.events.iter().flat_map(|hooks| hooks.iter());
        let others = self.others.iter().flat_map(|(_, hooks)| hooks.iter());
        for registered in known.chain(others) {
            let entry = &registered.hook.entry;
            if let crate::config::HookKind::Plugin(p) = &entry.spec.kind
                && let Some(source) = &p.source
            {
                by_lock
                    .entry(entry.source.lock_path(project_dir))
                    .or_default()
                    .insert(source.reference.clone());
            }
        }
        by_lock
    }

    /// The signature keys each `source` reference must verify with (the user's
    /// required prefix key and the hook's own `verify`): what `hookhost lock` checks
    /// before it writes a digest into the lock.
    pub fn source_keys(&self) -> BTreeMap<String, BTreeSet<PathBuf>> {
        let mut keys: BTreeMap<_, BTreeSet<_>> = Default::default();
        let known = self.events.iter().flat_map(|hooks| hooks.iter());
        let others = self.others.iter().flat_map(|(_, hooks)| hooks.iter());
        for registered in known.chain(others) {
            if let crate::config::HookKind::Plugin(p) = &registered.hook.entry.spec.kind
                && let Some(source) = &p.source
            {
                keys.entry(source.reference.clone()).or_default().extend(
                    source
                        .required_key
                        .iter()
                        .chain(&source.verify_key)
                        .cloned(),
                );
            }
        }
        keys
    }
}
