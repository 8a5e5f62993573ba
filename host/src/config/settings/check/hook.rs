//! Check of one hook: its `type` and the fields every hook has (timeout units and
//! range, the display name, `if`, the execution mode), into a [`HookSpec`]. Each
//! type's own fields are checked by [`super::command`], [`super::plugin`],
//! [`super::http`] and [`super::prompt`]; the shape is
//! [`shape::hook`](crate::config::settings::shape::hook).

use std::time::Duration;

use serde_json::Value;

use super::report::{Report, show};
use super::{command, http, plugin, prompt};
use crate::condition::Rule;
use crate::config::settings::shape::field::{Field, Section};
use crate::config::settings::shape::hook::{HookSettings, HookType, OnFailure};
use crate::config::settings::shape::value::Count;
use crate::config::source::SettingsFormat;
use crate::config::spec::{
    DEFAULT_TIMEOUT, Execution, FailurePolicy, HookKind, HookMode, HookSpec, PluginConfig,
    UnsupportedConfig,
};
use crate::event::HookEvent;

/// The longest `timeout` a hook may have; longer ones are clamped (with a warning)
/// so that deadline arithmetic cannot overflow (a Claude `timeout` of 2^63 s).
pub(crate) const MAX_TIMEOUT: Duration = Duration::from_secs(24 * 60 * 60);

/// Checks one hook (at `at`, e.g. `hooks.BeforeTool[0].hooks[1]`); `None` (with
/// errors ending "the hook is skipped") when it cannot run.
pub(super) fn spec(
    at: &str,
    event: HookEvent,
    hook: Section<HookSettings>,
    report: &mut Report<'_>,
) -> Option<HookSpec> {
    let first_diagnostic = report.diagnostics.len();
    let (mut hook, unknown) = open(at, hook, report)?;
    let kind = hook_type(at, std::mem::take(&mut hook.kind), report)?;
    warn_unknown_keys(at, kind, unknown, hook.foreign_keys(kind), report);
    let mut ok = true;
    let common = common(at, event, &mut hook, report, &mut ok);
    let kind = match kind {
        HookType::Command => command::config(at, hook, report),
        HookType::Plugin => plugin::config(at, hook, report),
        HookType::Http => http::config(at, hook, report),
        HookType::Prompt => prompt::config(at, hook, report),
        HookType::Agent | HookType::McpTool => Some(unsupported(at, kind, report)),
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
        condition: common.condition,
        execution: common.execution,
        once: common.once,
        status_message: common.status_message,
    })
}

/// A hook of a type hookhost recognises but does not run: kept, so that every fire
/// names it (and its `failurePolicy` applies), and reported as an error.
fn unsupported(at: &str, kind: HookType, report: &mut Report<'_>) -> HookKind {
    let reason = match kind {
        HookType::Agent => {
            "an \"agent\" hook runs a sub-agent of Claude Code with its tools; hookhost \
             has no agent to run it (use a \"prompt\" hook for a single model verdict)"
        }
        _ => {
            "an \"mcp_tool\" hook calls a tool of an MCP server Claude Code is connected \
             to; hookhost has no MCP connection (use an \"http\" or \"command\" hook)"
        }
    };
    report.error(
        &format!("{at}.type"),
        format!("{reason}; every run of the hook fails (its failurePolicy applies)"),
    );
    HookKind::Unsupported(UnsupportedConfig {
        type_name: kind.as_str(),
        reason: reason.to_owned(),
    })
}

/// Claude Code's `onFailure` as a failure policy; `None` when absent, wrong (then
/// reported) or ignored as Claude ignores it (async hooks; Stop, SubagentStop,
/// TaskCompleted, TeammateIdle — a block there would keep the agent going).
fn on_failure(
    at: &str,
    event: HookEvent,
    hook: &mut HookSettings,
    report: &mut Report<'_>,
    ok: &mut bool,
) -> Option<FailurePolicy> {
    let at = format!("{at}.onFailure");
    let value = std::mem::take(&mut hook.on_failure);
    let value = report.take_or_flag(&at, value, "\"continue\" or \"block\"", ok)??;
    let ignored = matches!(
        event,
        HookEvent::AfterAgent
            | HookEvent::SubagentStop
            | HookEvent::TaskCompleted
            | HookEvent::TeammateIdle
    ) || matches!(hook.run_async, Field::Ok(Some(true)))
        || matches!(hook.async_rewake, Field::Ok(Some(true)));
    if ignored && value == OnFailure::Block {
        report.warning(
            &at,
            format!(
                "\"block\" is ignored for {event} and for async hooks, as Claude Code \
                 ignores it; the hook fails open"
            ),
        );
        return None;
    }
    Some(match value {
        OnFailure::Continue => FailurePolicy::Allow,
        OnFailure::Block => FailurePolicy::Block,
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
                format!("missing (required: {}); the hook is skipped", TYPES),
            );
            None
        }
        Field::Wrong(value) => {
            report.error(
                &format!("{at}.type"),
                format!(
                    "expected {TYPES}, got {}; the hook is skipped{}",
                    show(&value),
                    type_hint(&value)
                ),
            );
            None
        }
    }
}

/// The types a hook may have, for messages.
const TYPES: &str = "\"command\", \"plugin\", \"http\" or \"prompt\"";

/// " (did you mean …?)" for a misspelt type.
fn type_hint(value: &Value) -> String {
    let known = ["command", "plugin", "http", "prompt", "agent", "mcp_tool"];
    value
        .as_str()
        .and_then(|v| crate::suggest::suggestion(v, known))
        .map(|s| format!(" (did you mean {s:?}?)"))
        .unwrap_or_default()
}

/// The fields every hook has, checked.
struct Common {
    timeout: Option<Duration>,
    name: Option<String>,
    description: Option<String>,
    failure_policy: FailurePolicy,
    mode: HookMode,
    condition: Option<std::sync::Arc<Rule>>,
    execution: Execution,
    once: bool,
    status_message: Option<String>,
}

/// Takes the fields every hook has out of `hook` (the rest goes to the command or
/// plugin check); a wrong one is reported and clears `ok`.
fn common(
    at: &str,
    event: HookEvent,
    hook: &mut HookSettings,
    report: &mut Report<'_>,
    ok: &mut bool,
) -> Common {
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
    let on_failure = on_failure(at, event, hook, report, ok);
    let failure_policy = match (failure_policy.flatten(), on_failure) {
        (Some(policy), Some(claude)) if policy != claude => {
            report.error(
                &format!("{at}.onFailure"),
                "says otherwise than failurePolicy; give one of them",
            );
            *ok = false;
            None
        }
        (policy, claude) => policy.or(claude),
    };
    let mode = std::mem::take(&mut hook.mode);
    let mode = report.take_or_flag(
        &format!("{at}.mode"),
        mode,
        "\"enforce\" or \"monitor\"",
        ok,
    );
    let condition = condition(at, std::mem::take(&mut hook.condition), report, ok);
    let execution = execution(at, hook, report, ok);
    let once = std::mem::take(&mut hook.once);
    let once = report.take_or_flag(&format!("{at}.once"), once, "true or false", ok);
    let status_message = std::mem::take(&mut hook.status_message);
    let status_message = report.take_or_flag(
        &format!("{at}.statusMessage"),
        status_message,
        "a string",
        ok,
    );
    Common {
        timeout,
        name: name.flatten(),
        description: description.flatten(),
        failure_policy: failure_policy.unwrap_or_default(),
        mode: mode.flatten().unwrap_or_default(),
        condition,
        execution,
        once: once.flatten().unwrap_or(false),
        status_message: status_message.flatten(),
    }
}

/// `if`: a permission rule. One that does not parse is an error — never a hook that
/// runs for every call.
fn condition(
    at: &str,
    field: crate::config::settings::shape::field::Field<Option<String>>,
    report: &mut Report<'_>,
    ok: &mut bool,
) -> Option<std::sync::Arc<Rule>> {
    let at = format!("{at}.if");
    let text = report
        .take_or_flag(&at, field, "a permission rule such as \"Bash(git *)\"", ok)
        .flatten()?;
    match Rule::parse(&text) {
        // `/path` patterns are anchored where the settings file is, as in Claude.
        Ok(rule) => Some(std::sync::Arc::new(
            rule.with_settings_dir(report.source.base_dir.clone()),
        )),
        Err(e) => {
            report.error(
                &at,
                format!("{text:?} is not a permission rule hookhost can evaluate: {e}"),
            );
            *ok = false;
            None
        }
    }
}

/// `async` and `asyncRewake` (both on: `asyncRewake`, which includes `async`).
fn execution(
    at: &str,
    hook: &mut HookSettings,
    report: &mut Report<'_>,
    ok: &mut bool,
) -> Execution {
    let run_async = std::mem::take(&mut hook.run_async);
    let run_async = report.take_or_flag(&format!("{at}.async"), run_async, "true or false", ok);
    let rewake = std::mem::take(&mut hook.async_rewake);
    let rewake = report.take_or_flag(&format!("{at}.asyncRewake"), rewake, "true or false", ok);
    match (run_async.flatten(), rewake.flatten()) {
        (_, Some(true)) => Execution::AsyncRewake,
        (Some(true), _) => Execution::Async,
        _ => Execution::Sync,
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

/// The name of a hook without `name`: its command, its plugin's `source`
/// (`builtin:NAME` for a builtin), or its plugin's file name.
fn default_name(kind: &HookKind) -> String {
    match kind {
        HookKind::Command(c) => match &c.args {
            Some(args) if !args.is_empty() => format!("{} {}", c.command, args.join(" ")),
            _ => c.command.clone(),
        },
        HookKind::Http(h) => h.url.clone(),
        HookKind::Prompt(p) => {
            let first: String = p
                .prompt
                .lines()
                .next()
                .unwrap_or("")
                .chars()
                .take(60)
                .collect();
            format!("prompt {first:?}")
        }
        HookKind::Unsupported(u) => format!("{} hook", u.type_name),
        HookKind::Function(name) => name.clone(),
        HookKind::Plugin(PluginConfig {
            source: Some(source),
            ..
        }) => source.reference.clone(),
        HookKind::Plugin(PluginConfig {
            builtin: Some(name),
            ..
        }) => format!("{}{name}", crate::builtin::SCHEME),
        HookKind::Plugin(p) => p
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| p.path.display().to_string()),
    }
}

/// Unknown keys (and other types' keys) are warnings: the hook still runs.
fn warn_unknown_keys(
    at: &str,
    kind: HookType,
    unknown: Vec<String>,
    foreign: Vec<&str>,
    report: &mut Report<'_>,
) {
    if kind.own_keys().is_none() {
        // Not run: its keys are Claude Code's business.
        return;
    }
    let known: Vec<&str> = kind.known_keys().collect();
    for key in unknown.iter().map(String::as_str).chain(foreign) {
        let hint = crate::suggest::suggestion(key, known.iter().copied())
            .map(|s| format!(" (did you mean {s:?}?)"))
            .unwrap_or_default();
        report.warning(
            &format!("{at}.{key}"),
            format!("unknown key for a {} hook, ignored{hint}", kind.as_str()),
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
        SettingsFormat::Claude | SettingsFormat::Codex => "seconds",
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
        SettingsFormat::Claude | SettingsFormat::Codex => Duration::from_secs(n),
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
