//! Check of `hooks`: each event name resolved to an event and the dialect its hooks
//! speak (an unknown name is an error in LLxprt settings, a warning elsewhere), then
//! each of its groups checked by [`super::group`].

use std::sync::Arc;

use super::group;
use super::report::{Report, show};
use crate::config::diagnostic::HookAt;
use crate::config::settings::HookEntry;
use crate::config::settings::shape::event::Events;
use crate::config::settings::shape::field::Section;
use crate::config::source::SettingsFormat;
use crate::dialect::{self, CLAUDE_EVENTS, Dialect};
use crate::event::HookEvent;

/// The hooks of every event of `hooks` that can run.
pub(super) fn entries(hooks: Section<Events>, report: &mut Report<'_>) -> Vec<HookEntry> {
    let events = match hooks {
        Section::Absent => return Vec::new(),
        Section::Ok(events, _) => events,
        Section::Wrong(value) => {
            report.error(
                "hooks",
                format!("expected an object of events, got {}", show(&value)),
            );
            return Vec::new();
        }
    };
    let mut entries = Vec::new();
    for (name, groups) in events.events {
        let at = format!("hooks.{name}");
        let Some((event, named_dialect, other_name)) = resolve(&name, &at, report) else {
            continue;
        };
        let hook_dialect = match report.source.format {
            SettingsFormat::Claude | SettingsFormat::Codex => Dialect::Claude,
            SettingsFormat::Llxprt | SettingsFormat::Gemini => named_dialect,
        };
        let Ok(groups) = report.take(&at, groups, "an array of hook groups") else {
            continue;
        };
        let written: Arc<str> = Arc::from(name.as_str());
        for (g, group) in groups.into_iter().flatten().enumerate() {
            let first = entries.len();
            let place = HookAt {
                hook: None,
                ..HookAt::hook(report.source.path.clone(), Arc::clone(&written), g, 0)
            };
            group::entries((event, hook_dialect), place, group, report, &mut entries);
            for entry in &mut entries[first..] {
                entry.other_name.clone_from(&other_name);
            }
        }
    }
    entries
}

/// The event, its dialect and (for an event hookhost does not know) its name as
/// written; `None` (with an error) when its hooks are skipped.
fn resolve(
    name: &str,
    at: &str,
    report: &mut Report<'_>,
) -> Option<(HookEvent, Dialect, Option<Arc<str>>)> {
    if let Some((event, dialect)) = dialect::parse_event(name) {
        return Some((event, dialect, None));
    }
    if report.source.format == SettingsFormat::Llxprt {
        let e = crate::event::UnknownEvent(name.to_owned());
        report.error(
            at,
            format!(
                "{e}, or a Claude Code name (PreToolUse, PostToolUse, \
                 UserPromptSubmit, Stop, SubagentStop, PermissionRequest, …); \
                 its hooks are skipped"
            ),
        );
        return None;
    }
    // Claude Code and Gemini CLI add events; a file written for a newer agent must
    // not lose its other hooks, nor fail a fire.
    let hint = crate::suggest::suggestion(name, known_event_names())
        .map(|s| format!(" (did you mean {s:?}?)"))
        .unwrap_or_default();
    report.warning(
        at,
        format!(
            "event {name:?} is not one hookhost knows{hint}; its hooks run with \
             generic semantics when it is fired (e.g. by `hookhost hook`)"
        ),
    );
    let dialect = match report.source.format {
        SettingsFormat::Claude | SettingsFormat::Codex => Dialect::Claude,
        _ => Dialect::Llxprt,
    };
    Some((HookEvent::Other, dialect, Some(Arc::from(name))))
}

/// Every event name hookhost knows, for "did you mean".
fn known_event_names() -> impl Iterator<Item = &'static str> {
    HookEvent::LLXPRT
        .iter()
        .map(|e| e.as_str())
        .chain(CLAUDE_EVENTS.iter().map(|(n, _)| *n))
}
