//! What loading the settings found: every [`Diagnostic`], the hooks left unrun
//! (switched off, not approved), the files read and watched — and the one rule for
//! how a load problem reaches a caller, written once for every door: which problems
//! enter a fire's `errors` and fail `hookhost check` ([`Diagnostic::fails`]), which
//! are shown to the user inside an agent, and that a hook's run failure caused by
//! its load problem is said once ([`LoadReport::fold`]).

use std::path::PathBuf;
use std::sync::Arc;

use crate::config::{Diagnostic, SettingsSource};
use crate::result::AggregatedHookResult;
use crate::trust::TrustKey;

/// The load report of a [`crate::HookSystem`] ([`crate::HookSystem::report`]).
#[derive(Debug, Default)]
pub struct LoadReport {
    pub(super) diagnostics: Vec<Diagnostic>,
    pub(super) switched_off: Vec<Diagnostic>,
    /// Whether `switched_off` is among `diagnostics` (the settings' switch stands).
    pub(super) switched_off_listed: bool,
    pub(super) untrusted: Vec<(TrustKey, String)>,
    pub(super) sources: Vec<Arc<SettingsSource>>,
    pub(super) watched: Vec<PathBuf>,
}

impl LoadReport {
    /// Every problem found while loading, in the order found.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The problems a fire's result puts first in its `errors`: errors and hooks
    /// declared that will not run, so that a policy that never ran is not mistaken
    /// for one that allowed.
    pub fn failures(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.fails())
    }

    /// What `hookhost check` fails on: the [`LoadReport::failures`], and the files
    /// whose hooks the settings switch off even when the caller turned hooks on.
    pub fn check_failures(&self) -> impl Iterator<Item = &Diagnostic> {
        self.failures().chain(self.switched_off_unlisted())
    }

    /// The files whose hooks the settings switch off when they are not among the
    /// diagnostics (the caller turned hooks on): what `check` prints after them.
    pub fn switched_off_unlisted(&self) -> &[Diagnostic] {
        if self.switched_off_listed {
            &[]
        } else {
            &self.switched_off
        }
    }

    /// When the settings switch hooks off: an error per file whose declared hooks
    /// will not run, with the fix (among the diagnostics too unless the builder
    /// turned hooks on).
    pub fn switched_off(&self) -> &[Diagnostic] {
        &self.switched_off
    }

    /// Hooks skipped because they were not approved (with a description each);
    /// `hookhost trust` approves them.
    pub fn untrusted(&self) -> &[(TrustKey, String)] {
        &self.untrusted
    }

    /// The settings files that were read.
    pub fn sources(&self) -> &[Arc<SettingsSource>] {
        &self.sources
    }

    /// Files and directories whose change means the settings may have changed:
    /// every settings file read, the discovery locations that do not exist yet, and
    /// the extension directories (seeds/001 §7.8: re-initialise on change).
    pub fn watched_paths(&self) -> &[PathBuf] {
        &self.watched
    }

    /// Folds the report into a fire's `result`, as every door answers it: the
    /// [`LoadReport::failures`] first in `errors`, minus the run failure of a
    /// hook that failed to load (the same cause, said once, with the
    /// load problem's place); the warnings an agent must show first in
    /// `systemMessage` (for the user, never the model).
    pub fn fold(&self, result: &mut AggregatedHookResult) {
        let mut failures = Vec::new();
        let mut shown = Vec::new();
        for d in &self.diagnostics {
            if d.fails() {
                failures.push(d);
            } else if d.shown {
                shown.push(format!("hookhost: {}", d.message));
            }
        }
        for execution in &result.executions {
            let (Some(at), Some(error)) = (&execution.at, &execution.error) else {
                continue;
            };
            // Only a hook that did not load fails with its load error's cause; one
            // declared but unenforced (a program not found) still ran, and how it
            // failed (exit 127 and its stderr) is news.
            let failed_to_load = failures
                .iter()
                .any(|d| d.is_error() && d.at.as_ref().is_some_and(|place| place.same_hook(at)));
            if failed_to_load && let Some(i) = result.errors.iter().position(|e| e == error) {
                result.errors.remove(i);
            }
        }
        result
            .errors
            .splice(0..0, failures.iter().map(|d| d.message.clone()));
        if !shown.is_empty() {
            let out = &mut result.final_output;
            shown.extend(out.system_message.take());
            out.system_message = Some(shown.join("\n"));
        }
    }
}
