//! Layering the switches of several settings files: who may turn hooks on or off,
//! require trust, or disable single hooks.
//!
//! Files come in priority order (project > user > system > extensions, or the order
//! of `--settings`). A file that comes with the repository (project settings, an
//! extension) is not the user's: it must never silently switch off the user's guards.
//!
//! * `tools.requireHookTrust` is read from the user's own files only (user, system,
//!   explicit). A user or system file that cannot be read or parsed keeps trust
//!   required: a typo in `~/.llxprt/settings.json` must not let a repository's hooks
//!   run unreviewed.
//! * `tools.enableHooks` (and Gemini CLI's `hooksConfig.enabled` / `hooks.enabled`):
//!   the highest-priority file that sets it wins, as specified (seeds/001 §6.3) —
//!   except that when the user's own files turn hooks on and trust is required, a
//!   repository's `false` switches off only the repository's hooks. Without trust
//!   required a repository may still switch everything off, but never silently: a
//!   warning names the file and how many of the user's hooks it silenced.
//! * `disabled` lists (Gemini CLI): a repository's list applies to repository hooks;
//!   naming a hook of the user's files is refused with trust required and loudly
//!   reported without.
//! * Codex's hooks-off switches (`disableAllHooks` in `.codex/hooks.json`,
//!   `[features] hooks = false` in `config.toml`) are its file's `enableHooks`:
//!   layered here like it. Claude's `disableAllHooks` is [`super::managed`]'s.

use std::sync::Arc;

use super::diagnostic::Diagnostic;
use super::settings::{HookEntry, ParsedSettings};
use super::source::{SettingsSource, SourceKind};
use super::spec::HookKind;

/// What one file says about the switches, kept until every file is read.
pub(super) struct FileSwitches {
    source: Arc<SettingsSource>,
    enable_hooks: Option<bool>,
    require_trust: Option<bool>,
    unreadable: bool,
    disabled: Vec<String>,
}

impl FileSwitches {
    /// Takes the switches out of a parsed file (its entries stay).
    pub(super) fn take(source: &Arc<SettingsSource>, parsed: &mut ParsedSettings) -> Self {
        FileSwitches {
            source: Arc::clone(source),
            enable_hooks: parsed.enable_hooks,
            require_trust: parsed.require_trust,
            unreadable: parsed.unreadable,
            disabled: std::mem::take(&mut parsed.disabled),
        }
    }
}

/// The switches after layering.
pub(super) struct Layered {
    pub enabled: bool,
    pub require_trust: bool,
    /// When hooks end up off: one error per file whose hooks therefore do not run,
    /// with the fix.
    pub switched_off: Vec<Diagnostic>,
}

/// Layers the switches of `files` (priority order) and filters `entries` by them;
/// `require_trust` is [`require_trust`]'s answer for the same files.
pub(super) fn layer(
    files: &[FileSwitches],
    require_trust: bool,
    entries: &mut Vec<HookEntry>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Layered {
    let users_on = files
        .iter()
        .filter(|f| !f.source.is_repository_scope())
        .find_map(|f| f.enable_hooks)
        == Some(true);
    let first_setting = files
        .iter()
        .filter(|f| !matches!(f.source.kind, SourceKind::Extension(_)))
        .find(|f| f.enable_hooks.is_some());
    let mut enabled = first_setting.and_then(|f| f.enable_hooks).unwrap_or(false);
    if let Some(off) = first_setting.filter(|f| f.source.is_repository_scope() && !enabled)
        && users_on
    {
        let silenced = entries
            .iter()
            .filter(|e| !e.source.is_repository_scope())
            .count();
        if require_trust {
            enabled = true;
            entries.retain(|e| !e.source.is_repository_scope());
            diagnostics.push(Diagnostic::warning(format!(
                "{}: hooks switched off here apply to this repository's hooks only; \
                 the {silenced} hooks of your own settings keep running \
                 (a repository cannot switch off your hooks while tools.requireHookTrust is on)",
                off.source
            )));
        } else if silenced > 0 {
            // A warning, not an error: the project may do this (seeds/001 §6.3), and
            // a fire still succeeds; but it is said on every fire and by `check`.
            diagnostics.push(Diagnostic::warning(format!(
                "{}: this repository switches hooks off, so the {silenced} hooks of your own \
                 settings (user/system) will NOT run; set tools.requireHookTrust in your user \
                 settings to keep a repository from switching off your hooks",
                off.source
            )));
        }
    }
    apply_disabled(files, entries, require_trust, diagnostics);
    let switched_off = if enabled {
        Vec::new()
    } else {
        switched_off(files, entries)
    };
    Layered {
        enabled,
        require_trust,
        switched_off,
    }
}

/// Hooks are declared but off: say so once per file, naming the switch and the fix
/// (a security hook that silently does not run is worse than none).
fn switched_off(files: &[FileSwitches], entries: &[HookEntry]) -> Vec<Diagnostic> {
    let by = files
        .iter()
        .filter(|f| !matches!(f.source.kind, SourceKind::Extension(_)))
        .find(|f| f.enable_hooks == Some(false));
    let mut notes = Vec::new();
    for file in files {
        let count = entries
            .iter()
            .filter(|e| Arc::ptr_eq(&e.source, &file.source))
            .count();
        if count == 0 {
            continue;
        }
        let why = match by {
            Some(off) => format!("they are switched off by {}", off.source),
            None => {
                "no settings file turns them on (tools.enableHooks defaults to false)".to_owned()
            }
        };
        let fix = match by {
            Some(off) => format!("remove the switch from {}", off.source.path.display()),
            None if matches!(file.source.kind, SourceKind::Extension(_)) => {
                "add \"tools\": {\"enableHooks\": true} to your project or user settings \
                 (an extension cannot turn hooks on)"
                    .to_owned()
            }
            None => format!(
                "add \"tools\": {{\"enableHooks\": true}} to {}",
                file.source.path.display()
            ),
        };
        notes.push(Diagnostic::unenforced(format!(
            "{}: {count} hook(s) declared, but NONE of them runs: {why}; to run them, {fix}",
            file.source
        )));
    }
    notes
}

/// `tools.requireHookTrust` from the user's own files, failing closed. Known
/// before any switch is applied: it decides what a repository's switches may do
/// (here, and Claude's `disableAllHooks` in [`super::managed`]).
pub(super) fn require_trust(files: &[FileSwitches], diagnostics: &mut Vec<Diagnostic>) -> bool {
    let mut required = None;
    for file in files {
        if file.source.is_repository_scope() {
            if file.require_trust.is_some() {
                diagnostics.push(Diagnostic::warning(format!(
                    "{}: tools.requireHookTrust: ignored here; only user, system or explicit settings can set it",
                    file.source
                )));
            }
            continue;
        }
        if required.is_some() {
            continue;
        }
        if file.unreadable {
            // We cannot know what the file asked for; assume the safer answer.
            diagnostics.push(Diagnostic::warning(format!(
                "{}: could not be read, so project and extension hooks need approval \
                 (`hookhost trust`) until it is fixed (trust is required when unsure)",
                file.source
            )));
            required = Some(true);
        } else {
            required = file.require_trust;
        }
    }
    required.unwrap_or(false)
}

/// Drops the hooks that `disabled` lists name (by name or command string).
fn apply_disabled(
    files: &[FileSwitches],
    entries: &mut Vec<HookEntry>,
    require_trust: bool,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if files.iter().all(|f| f.disabled.is_empty()) {
        return;
    }
    entries.retain(|entry| {
        let command = match &entry.spec.kind {
            HookKind::Command(c) => Some(c.command.as_str()),
            _ => None,
        };
        let names = |d: &String| *d == entry.spec.name || Some(d.as_str()) == command;
        let Some(by) = files.iter().find(|f| f.disabled.iter().any(names)) else {
            return true;
        };
        let what = format!("{}: {}", entry.source, entry.location());
        let name = &entry.spec.name;
        if !by.source.is_repository_scope() || entry.source.is_repository_scope() {
            diagnostics.push(
                Diagnostic::warning(format!(
                    "{what}: hook {name:?} is disabled by settings ({})",
                    by.source
                ))
                .at(entry.at.clone()),
            );
            false
        } else if require_trust {
            diagnostics.push(
                Diagnostic::warning(format!(
                    "{}: disabled: cannot disable {what} (hook {name:?}) of your own settings \
                 while tools.requireHookTrust is on; it keeps running",
                    by.source
                ))
                .at(entry.at.clone()),
            );
            true
        } else {
            diagnostics.push(
                Diagnostic::warning(format!(
                    "{}: disabled: this repository switches off {what} (hook {name:?}) of your own \
                 settings; it will NOT run (set tools.requireHookTrust in your user settings to \
                 prevent this)",
                    by.source
                ))
                .at(entry.at.clone()),
            );
            false
        }
    });
}
