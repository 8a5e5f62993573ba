//! Whose hooks may run at all: managed (system) settings and Claude Code's
//! `disableAllHooks`, resolved as Claude Code 2.1.331 resolves them
//! (docs/EVENTS.md, "Claude keys") — except that a repository's file never
//! switches off the hooks of the user's or the system's files while trust is
//! required, and never silently otherwise.

use std::sync::Arc;

use super::Diagnostic;
use super::settings::HookEntry;
use super::settings::ParsedSettings;
use super::source::{SettingsFormat, SettingsSource, SourceKind};

/// What managed (system) settings and Claude's `disableAllHooks` say about whose
/// hooks run, as Claude Code 2.1.331 resolves it: managed `disableAllHooks` — no
/// Claude hook at all; `allowManagedHooksOnly` in a managed file (or hookhost's
/// `tools.allowManagedHooksOnly` in its system file) — only system hooks, of any
/// format; a non-managed `disableAllHooks` (the highest-priority Claude file that
/// sets it decides) — no non-managed Claude hook, plugins included.
///
/// With `tools.requireHookTrust`, a repository's `disableAllHooks` (a project's
/// `.claude/settings.json` or `settings.local.json`) decides only for the
/// repository's hooks: the user's own Claude files decide for theirs.
#[derive(Default)]
pub(super) struct Managed {
    /// The managed file that allows only managed hooks.
    only: Option<Arc<SettingsSource>>,
    /// The managed Claude file that disables every Claude hook.
    disable_all: Option<Arc<SettingsSource>>,
    /// The non-managed Claude files that set `disableAllHooks`, highest priority
    /// first, with the value.
    disable_all_by: Vec<(Arc<SettingsSource>, bool)>,
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
            } else if source.format == SettingsFormat::Claude {
                self.disable_all_by.push((Arc::clone(source), disable));
            }
        }
    }

    /// Drops the hooks that must not run, saying once per rule why.
    pub(super) fn apply(
        &self,
        entries: &mut Vec<HookEntry>,
        require_trust: bool,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let claude = |e: &HookEntry| e.source.format == SettingsFormat::Claude;
        let system = |e: &HookEntry| e.source.kind == SourceKind::System;
        if let Some(source) = &self.disable_all {
            let why = format!("{source}: disableAllHooks (managed)");
            drop_hooks(why, &|e| claude(e), entries, diagnostics);
        }
        if let Some(source) = &self.only {
            // Named, hook by hook, and shown inside the agent too: a user whose
            // policy silently stopped running would think it allowed (issue 37).
            let before = diagnostics.len();
            let why = format!("{source}: allowManagedHooksOnly");
            drop_hooks(why, &|e| !system(e), entries, diagnostics);
            for d in &mut diagnostics[before..] {
                d.shown = true;
            }
        }
        self.apply_disable_all(entries, require_trust, diagnostics);
    }

    /// A non-managed `disableAllHooks`: the highest-priority file decides; with
    /// trust required, the highest-priority file of the user's own for all
    /// non-managed Claude hooks, a repository's only for the repository's.
    fn apply_disable_all(
        &self,
        entries: &mut Vec<HookEntry>,
        require_trust: bool,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let off = |e: &HookEntry| {
            e.source.format == SettingsFormat::Claude && e.source.kind != SourceKind::System
        };
        let users = |e: &HookEntry| off(e) && !e.source.is_repository_scope();
        let decides = self
            .disable_all_by
            .iter()
            .find(|(source, _)| !require_trust || !source.is_repository_scope());
        if let Some((source, true)) = decides {
            let silenced = entries.iter().filter(|e| users(e)).count();
            if source.is_repository_scope() && silenced > 0 {
                // A warning, not an error: Claude Code lets a project do this; but
                // it is said on every fire and by `check`.
                diagnostics.push(Diagnostic::warning(format!(
                    "{source}: disableAllHooks: this repository switches hooks off, so the \
                     {silenced} Claude hooks of your own settings will NOT run; set \
                     tools.requireHookTrust in your user settings to keep a repository from \
                     switching off your hooks"
                )));
            }
            let why = format!("{source}: disableAllHooks (only managed Claude hooks still run)");
            return drop_hooks(why, &off, entries, diagnostics);
        }
        let Some((source, _)) = self
            .disable_all_by
            .iter()
            .find(|(source, _)| source.is_repository_scope())
            .filter(|(_, disable)| require_trust && *disable)
        else {
            return;
        };
        let kept = entries.iter().filter(|e| users(e)).count();
        if kept > 0 {
            diagnostics.push(Diagnostic::warning(format!(
                "{source}: disableAllHooks here applies to this repository's hooks only; the \
                 {kept} Claude hooks of your own settings keep running (a repository cannot \
                 switch off your hooks while tools.requireHookTrust is on)"
            )));
        }
        let why = format!("{source}: disableAllHooks (this repository's Claude hooks)");
        let repository = |e: &HookEntry| off(e) && e.source.is_repository_scope();
        drop_hooks(why, &repository, entries, diagnostics);
    }
}

/// Drops the entries `gone` selects, saying why and how many when any.
fn drop_hooks(
    why: String,
    gone: &dyn Fn(&HookEntry) -> bool,
    entries: &mut Vec<HookEntry>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let (dropped, kept): (Vec<HookEntry>, Vec<HookEntry>) =
        std::mem::take(entries).into_iter().partition(|e| gone(e));
    *entries = kept;
    if dropped.is_empty() {
        return;
    }
    let mut named: Vec<String> = dropped
        .iter()
        .take(MAX_NAMED)
        .map(|e| format!("{} {} ({})", e.source, e.location(), e.spec.name))
        .collect();
    if dropped.len() > MAX_NAMED {
        named.push(format!("and {} more", dropped.len() - MAX_NAMED));
    }
    diagnostics.push(Diagnostic::warning(format!(
        "{why}: {} hook(s) do not run: {}",
        dropped.len(),
        named.join("; ")
    )));
}

/// The most dropped hooks named one by one in a message.
const MAX_NAMED: usize = 10;
