//! Check of one hook: its `type`, the fields every hook has and a command hook's
//! `command`, with the checks serde cannot express (timeout units and range, the
//! display name), into a [`HookSpec`]. A plugin's own fields are checked by
//! [`super::plugin`]; the shape is [`shape::hook`](crate::config::settings::shape::hook).

use std::time::Duration;

use serde_json::Value;

use super::plugin;
use super::report::{Report, show};
use crate::config::settings::shape::field::{Field, Section};
use crate::config::settings::shape::hook::{HookSettings, HookType};
use crate::config::settings::shape::value::Count;
use crate::config::source::SettingsFormat;
use crate::config::spec::{
    DEFAULT_TIMEOUT, FailurePolicy, HookKind, HookMode, HookSpec, PluginConfig,
};

/// The longest `timeout` a hook may have; longer ones are clamped (with a warning)
/// so that deadline arithmetic cannot overflow (a Claude `timeout` of 2^63 s).
pub(crate) const MAX_TIMEOUT: Duration = Duration::from_secs(24 * 60 * 60);

/// Checks one hook (at `at`, e.g. `hooks.BeforeTool[0].hooks[1]`); `None` (with
/// errors ending "the hook is skipped") when it cannot run.
pub(super) fn spec(
    at: &str,
    hook: Section<HookSettings>,
    report: &mut Report<'_>,
) -> Option<HookSpec> {
    let first_diagnostic = report.diagnostics.len();
    let (mut hook, unknown) = open(at, hook, report)?;
    let kind = hook_type(at, std::mem::take(&mut hook.kind), report)?;
    warn_unknown_keys(at, kind, unknown, hook.foreign_keys(kind), report);
    let mut ok = true;
    let common = common(at, &mut hook, report, &mut ok);
    let kind = match kind {
        HookType::Command => command(at, hook.command, report),
        HookType::Plugin => plugin::config(at, hook, report),
    };
    let Some(kind) = kind.filter(|_| ok) else {
        hook_skipped(report, first_diagnostic);
        return None;
    };
    Some(HookSpec {
        name: common.name.unwrap_or_else(|| default_name(&kind)),
        description: common.description,
        kind,
        timeout: common.timeout.unwrap_or(DEFAULT_TIMEOUT),
        failure_policy: common.failure_policy,
        mode: common.mode,
    })
}

/// The hook's settings and unknown keys; `None` (with an error) when it is not an
/// object.
fn open(
    at: &str,
    hook: Section<HookSettings>,
    report: &mut Report<'_>,
) -> Option<(HookSettings, Vec<String>)> {
    match hook {
        Section::Ok(hook, unknown) => Some((hook, unknown)),
        Section::Absent => None,
        Section::Wrong(value) => {
            let got = show(&value);
            report.error(
                at,
                format!("expected a hook object, got {got}; the hook is skipped"),
            );
            None
        }
    }
}

/// `type`, which is required; `None` (with an error) when it is missing or wrong.
fn hook_type(at: &str, field: Field<HookType>, report: &mut Report<'_>) -> Option<HookType> {
    match field {
        Field::Ok(kind) => Some(kind),
        Field::Absent => {
            report.error(
                &format!("{at}.type"),
                "missing (required: \"command\" or \"plugin\"); the hook is skipped",
            );
            None
        }
        Field::Wrong(value) => {
            report.error(
                &format!("{at}.type"),
                format!(
                    "expected \"command\" or \"plugin\", got {}; the hook is skipped",
                    show(&value)
                ),
            );
            None
        }
    }
}

/// The fields every hook has, checked.
struct Common {
    timeout: Option<Duration>,
    name: Option<String>,
    description: Option<String>,
    failure_policy: FailurePolicy,
    mode: HookMode,
}

/// Takes the fields every hook has out of `hook` (the rest goes to the command or
/// plugin check); a wrong one is reported and clears `ok`.
fn common(at: &str, hook: &mut HookSettings, report: &mut Report<'_>, ok: &mut bool) -> Common {
    let timeout = timeout(at, std::mem::take(&mut hook.timeout), report, ok);
    let name = std::mem::take(&mut hook.name);
    let name = report.take_or_flag(&format!("{at}.name"), name, "a string", ok);
    let description = std::mem::take(&mut hook.description);
    let description =
        report.take_or_flag(&format!("{at}.description"), description, "a string", ok);
    let failure_policy = std::mem::take(&mut hook.failure_policy);
    let failure_policy = report.take_or_flag(
        &format!("{at}.failurePolicy"),
        failure_policy,
        "\"allow\" or \"block\"",
        ok,
    );
    let mode = std::mem::take(&mut hook.mode);
    let mode = report.take_or_flag(
        &format!("{at}.mode"),
        mode,
        "\"enforce\" or \"monitor\"",
        ok,
    );
    Common {
        timeout,
        name: name.flatten(),
        description: description.flatten(),
        failure_policy: failure_policy.flatten().unwrap_or_default(),
        mode: mode.flatten().unwrap_or_default(),
    }
}

/// Appends "; the hook is skipped" to the errors reported since `first_diagnostic`.
fn hook_skipped(report: &mut Report<'_>, first_diagnostic: usize) {
    for d in &mut report.diagnostics[first_diagnostic..] {
        if d.is_error() {
            d.message.push_str("; the hook is skipped");
        }
    }
}

/// The name of a hook without `name`: its command, its plugin's `source`, or its
/// plugin's file name.
fn default_name(kind: &HookKind) -> String {
    match kind {
        HookKind::Command { command } => command.clone(),
        HookKind::Plugin(PluginConfig {
            source: Some(source),
            ..
        }) => source.reference.clone(),
        HookKind::Plugin(p) => p
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| p.path.display().to_string()),
    }
}

/// Unknown keys (and the other kind's keys) are warnings: the hook still runs.
fn warn_unknown_keys(
    at: &str,
    kind: HookType,
    unknown: Vec<String>,
    foreign: Vec<&str>,
    report: &mut Report<'_>,
) {
    if unknown.is_empty() && foreign.is_empty() {
        return;
    }
    // The schema's alternative for this type names exactly the keys it may have.
    let branch = match kind {
        HookType::Command => "then",
        HookType::Plugin => "else",
    };
    let schema = schemars::SchemaGenerator::default().root_schema_for::<HookSettings>();
    let known: Vec<String> = schema
        .get(branch)
        .and_then(|branch| branch.get("properties"))
        .and_then(Value::as_object)
        .map(|properties| properties.keys().cloned().collect())
        .unwrap_or_default();
    let type_name = match kind {
        HookType::Command => "command",
        HookType::Plugin => "plugin",
    };
    for key in unknown.iter().map(String::as_str).chain(foreign) {
        let hint = crate::suggest::suggestion(key, known.iter().map(String::as_str))
            .map(|s| format!(" (did you mean {s:?}?)"))
            .unwrap_or_default();
        report.warning(
            &format!("{at}.{key}"),
            format!("unknown key for a {type_name} hook, ignored{hint}"),
        );
    }
}

/// `timeout`: milliseconds, or seconds in Claude Code's settings.
fn timeout(
    at: &str,
    field: Field<Option<Count>>,
    report: &mut Report<'_>,
    ok: &mut bool,
) -> Option<Duration> {
    let at = format!("{at}.timeout");
    let format = report.source.format;
    let unit = match format {
        SettingsFormat::Llxprt | SettingsFormat::Gemini => "milliseconds",
        SettingsFormat::Claude => "seconds",
    };
    let expected = format!("a positive number of {unit}");
    let Count(n) = report.take_or_flag(&at, field, &expected, ok).flatten()?;
    let timeout = match format {
        SettingsFormat::Llxprt | SettingsFormat::Gemini => {
            if n < 100 {
                // Claude Code's timeouts are seconds: `"timeout": 10` copied here is
                // 10 ms, and the hook times out and fails open.
                report.unenforced(
                    &at,
                    format!(
                        "{n} ms is too short for a hook to start; timeouts here are \
                         milliseconds (Claude Code's are seconds): did you mean {}?",
                        n * 1000
                    ),
                );
            }
            Duration::from_millis(n)
        }
        SettingsFormat::Claude => Duration::from_secs(n),
    };
    if timeout <= MAX_TIMEOUT {
        return Some(timeout);
    }
    report.warning(
        &at,
        format!(
            "longer than the maximum of {} hours; clamped to it",
            MAX_TIMEOUT.as_secs() / 3600
        ),
    );
    Some(MAX_TIMEOUT)
}

/// A command hook's `command`, with `${extensionPath}` replaced.
fn command(at: &str, command: Field<String>, report: &mut Report<'_>) -> Option<HookKind> {
    let at = format!("{at}.command");
    match command {
        Field::Ok(c) if !c.trim().is_empty() => Some(HookKind::Command {
            command: report.vars.expand_extension_path(&c),
        }),
        Field::Ok(_) => {
            report.error(&at, "is empty");
            None
        }
        Field::Wrong(other) => {
            report.error(
                &at,
                format!("expected a command string, got {}", show(&other)),
            );
            None
        }
        Field::Absent => {
            report.error(&at, "missing (required for a command hook)");
            None
        }
    }
}
