//! Check of a hook group: its `matcher` compiled as the event and dialect read it,
//! `sequential`, and each hook checked by [`super::hook`]. A wrong matcher or
//! `sequential` skips the group; a bad hook skips only itself.

use std::sync::Arc;

use super::hook;
use super::report::{Report, show};
use crate::config::diagnostic::HookAt;
use crate::config::settings::HookEntry;
use crate::config::settings::shape::field::{Field, Section};
use crate::config::settings::shape::group::Group;
use crate::dialect::Dialect;
use crate::event::HookEvent;
use crate::planner::Matcher;

/// Appends the hooks of `group` (at `place`, e.g. `hooks.BeforeTool[0]`) that can run.
pub(super) fn entries(
    (event, dialect): (HookEvent, Dialect),
    place: HookAt,
    group: Section<Group>,
    report: &mut Report<'_>,
    out: &mut Vec<HookEntry>,
) {
    report.enter(Some(&place));
    hooks((event, dialect), &place, group, report, out);
    report.enter(None);
}

fn hooks(
    (event, dialect): (HookEvent, Dialect),
    place: &HookAt,
    group: Section<Group>,
    report: &mut Report<'_>,
    out: &mut Vec<HookEntry>,
) {
    let at = &place.to_string();
    let (group, unknown) = match group {
        Section::Ok(group, unknown) => (group, unknown),
        Section::Absent => return,
        Section::Wrong(value) => {
            let got = show(&value);
            report.error(at, format!("expected a hook group object, got {got}"));
            return;
        }
    };
    let Ok(matcher_raw) = report.take(
        &format!("{at}.matcher"),
        group.matcher,
        "a regular expression string",
    ) else {
        return group_skipped(report);
    };
    let Ok(sequential) = report.take(
        &format!("{at}.sequential"),
        group.sequential,
        "true or false",
    ) else {
        return group_skipped(report);
    };
    for key in unknown {
        report.warning(&format!("{at}.{key}"), "unknown key, ignored");
    }
    let hooks = match group.hooks {
        Field::Absent => {
            report.error(&format!("{at}.hooks"), "missing (required)");
            return;
        }
        hooks => match report.take(&format!("{at}.hooks"), hooks, "an array of hooks") {
            Ok(hooks) => hooks.unwrap_or_default(),
            Err(()) => return,
        },
    };
    let matcher = matcher(event, dialect, at, matcher_raw.flatten().as_deref(), report);
    for (h, hook) in hooks.into_iter().enumerate() {
        let hook_at = HookAt {
            hook: Some(h),
            ..place.clone()
        };
        report.enter(Some(&hook_at));
        let location = hook_at.to_string();
        let written = Arc::new(hook.value);
        let spec = hook::spec(&location, event, hook.section, report)
            .filter(|spec| condition_can_match(event, &location, spec, report));
        if let Some(spec) = spec {
            out.push(HookEntry {
                event,
                dialect,
                matcher: matcher.clone(),
                sequential: sequential.flatten().unwrap_or(false),
                spec,
                source: Arc::clone(report.source),
                at: Some(hook_at),
                other_name: None,
                written: Some(written),
            });
        }
    }
}

/// Whether the hook's `if` (if any) can ever match on `event`: only a tool event
/// has a tool call (an error otherwise, and the hook is skipped).
fn condition_can_match(
    event: HookEvent,
    location: &str,
    spec: &crate::config::HookSpec,
    report: &mut Report<'_>,
) -> bool {
    let Some(rule) = &spec.condition else {
        return true;
    };
    if event.has_tool_name() || event == HookEvent::Other {
        return true;
    }
    report.error(
        &format!("{location}.if"),
        format!(
            "{event} is not a tool event, so the rule {:?} has no tool call to \
             match and the hook would never run; the hook is skipped",
            rule.to_string()
        ),
    );
    false
}

/// Appends "; the group is skipped" to the error just reported.
fn group_skipped(report: &mut Report<'_>) {
    if let Some(last) = report.diagnostics.last_mut() {
        last.message.push_str("; the group is skipped");
    }
}

/// The group's matcher, as the event and dialect read it.
fn matcher(
    event: HookEvent,
    dialect: Dialect,
    at: &str,
    raw: Option<&str>,
    report: &mut Report<'_>,
) -> Matcher {
    // Claude Code: a plain name (or `A|B` list) is exact, anything else a regex.
    let claude_matcher = dialect == Dialect::Claude && event.matcher_field().is_some();
    // LLxprt/Gemini Notification has no matcher (seeds/001); Claude's filters on
    // `notification_type`.
    let llxprt_notification = dialect != Dialect::Claude && event == HookEvent::Notification;
    let (matcher, warning) = if claude_matcher {
        Matcher::claude(raw, event.claude_comma_lists())
    } else if event.has_tool_name() || event == HookEvent::Other {
        Matcher::compile(raw)
    } else if event.matcher_field().is_some() && !llxprt_notification {
        (Matcher::exact(raw), None)
    } else {
        let warning = (!Matcher::exact(raw).is_all())
            .then(|| format!("{event} has no tool name; the matcher is ignored"));
        (Matcher::All, warning)
    };
    if let Some(warning) = warning {
        report.warning(&format!("{at}.matcher"), warning);
    }
    matcher
}
