//! Whose hooks may run at all: managed (system) settings and Claude Code's
//! `disableAllHooks`, resolved as Claude Code 2.1.331 resolves them
//! (docs/EVENTS.md, "Claude keys").

use std::sync::Arc;

use super::settings::ParsedSettings;
use super::source::{SettingsFormat, SettingsSource, SourceKind};
use super::settings::HookEntry;
use super::Diagnostic;

/// What managed (system) settings and Claude's `disableAllHooks` say about whose
/// hooks run, as Claude Code 2.1.331 resolves it: managed `disableAllHooks` — no
/// Claude hook at all; `allowManagedHooksOnly` in a managed file (or hookhost's
/// `tools.allowManagedHooksOnly` in its system file) — only system hooks, of any
/// format; a non-managed `disableAllHooks` (the highest-priority Claude file that
/// sets it decides) — no non-managed Claude hook, plugins included.
#[derive(Default)]
pub(super) struct Managed {
    /// The managed file that allows only managed hooks.
    only: Option<Arc<SettingsSource>>,
    /// The managed Claude file that disables every Claude hook.
    disable_all: Option<Arc<SettingsSource>>,
    /// The highest-priority non-managed Claude file that sets `disableAllHooks`,
    /// and its value.
    user_disable_all: Option<(Arc<SettingsSource>, bool)>,
}

impl Managed {
    /// Notes what `source` (read highest priority first) says.
    pub(super) fn read(
        &mut self,
        source: &Arc<SettingsSource>,
        parsed: &ParsedSettings,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let system = source.kind == SourceKind::System;
        if parsed.managed_only == Some(true) {
            if system {
                self.only.get_or_insert_with(|| Arc::clone(source));
            } else {
                diagnostics.push(Diagnostic::warning(format!(
                    "{source}: allowManagedHooksOnly: ignored here; only system (managed) \
                     settings can set it"
                )));
            }
        }
        if let Some(disable) = parsed.disable_all_hooks {
            if system {
                if disable {
                    self.disable_all.get_or_insert_with(|| Arc::clone(source));
                }
            } else if self.user_disable_all.is_none() && source.format == SettingsFormat::Claude {
                self.user_disable_all = Some((Arc::clone(source), disable));
            }
        }
    }

    /// Drops the hooks that must not run, saying once per rule why.
    pub(super) fn apply(&self, entries: &mut Vec<HookEntry>, diagnostics: &mut Vec<Diagnostic>) {
        let claude = |e: &HookEntry| e.source.format == SettingsFormat::Claude;
        let system = |e: &HookEntry| e.source.kind == SourceKind::System;
        let mut drop = |why: String, gone: &dyn Fn(&HookEntry) -> bool, entries: &mut Vec<HookEntry>| {
            let before = entries.len();
            entries.retain(|e| !gone(e));
            let dropped = before - entries.len();
            if dropped > 0 {
                diagnostics.push(Diagnostic::warning(format!(
                    "{why}: {dropped} hook(s) do not run"
                )));
            }
        };
        if let Some(source) = &self.disable_all {
            drop(format!("{source}: disableAllHooks (managed)"), &|e| claude(e), entries);
        }
        if let Some(source) = &self.only {
            drop(format!("{source}: allowManagedHooksOnly"), &|e| !system(e), entries);
        }
        if let Some((source, true)) = &self.user_disable_all {
            drop(
                format!("{source}: disableAllHooks (only managed Claude hooks still run)"),
                &|e| claude(e) && !system(e),
                entries,
            );
        }
    }
}

