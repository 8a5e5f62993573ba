//! Check of the top level of a settings file: the switches (`tools.*`,
//! `hooksConfig`, `hooks.enabled` / `hooks.disabled`, `disableAllHooks`), the limits of
//! `serve`, the `tools.verifyPlugins` rules, `tools.allowedHttpHookUrls` and
//! `tools.hookModel`, read from their shapes in
//! [`shape::file`](crate::config::settings::shape::file) into [`ParsedSettings`]. The
//! hooks themselves are checked by [`super::event`].

use serde_json::Value;

use super::report::{Report, show};
use crate::config::remote::HookModel;
use crate::config::settings::shape::event::Events;
use crate::config::settings::shape::field::{Field, Section, known_keys};
use crate::config::settings::shape::file::{
    HookModelSettings, HooksConfig, Serve, SettingsFile, Tools, VerifyRuleSettings,
};
use crate::config::settings::shape::value::Count;
use crate::config::settings::{ParsedSettings, ServeLimits};
use crate::config::source::SettingsFormat;
use crate::config::spec::VerifyRule;
use crate::distribution::reference::SCHEME;

/// Reads the switches and limits of `file` (whose unknown top-level keys are
/// `unknown`) into `parsed`; returns the hooks, for [`super::event`].
pub(super) fn read(
    file: SettingsFile,
    unknown: &[String],
    report: &mut Report<'_>,
    parsed: &mut ParsedSettings,
) -> Section<Events> {
    let SettingsFile {
        tools,
        hooks_config,
        mut hooks,
        serve,
        disable_all_hooks,
        allow_managed_hooks_only,
    } = file;
    let (mut tools, tools_unknown, tools_wrong) = open(tools);
    // A `hooksConfig` or `serve` that is not an object is ignored.
    let (hooks_config, config_unknown, _) = open(hooks_config);
    let (serve, serve_unknown, _) = open(serve);
    let (hooks_enabled, hooks_disabled) = match &mut hooks {
        Section::Ok(events, _) => (
            std::mem::take(&mut events.enabled),
            std::mem::take(&mut events.disabled),
        ),
        _ => (Field::Absent, Field::Absent),
    };
    let enable_hooks = std::mem::take(&mut tools.enable_hooks);
    let claude = report.source.format.is_claude_like();
    let (key, managed_only) = if claude {
        ("allowManagedHooksOnly", allow_managed_hooks_only)
    } else {
        (
            "tools.allowManagedHooksOnly",
            std::mem::take(&mut tools.allow_managed_hooks_only),
        )
    };
    parsed.managed_only = report
        .take(key, managed_only, "true or false")
        .ok()
        .flatten()
        .flatten();
    if claude && let Field::Ok(value) = &disable_all_hooks {
        parsed.disable_all_hooks = Some(*value);
    }
    self::tools(report, tools, serve, parsed);
    let from_tools = match tools_wrong {
        Some(value) => Err(value),
        None => Ok(enable_hooks),
    };
    parsed.enable_hooks = enabled(
        report,
        disable_all_hooks,
        from_tools,
        hooks_config.enabled,
        hooks_enabled,
    );
    misspelt(report, "tools", &tools_unknown, known_keys::<Tools>);
    misspelt(
        report,
        "hooksConfig",
        &config_unknown,
        known_keys::<HooksConfig>,
    );
    misspelt(report, "", unknown, known_keys::<SettingsFile>);
    misspelt(report, "serve", &serve_unknown, known_keys::<Serve>);
    parsed.disabled = disabled(
        report,
        [
            ("hooksConfig.disabled", hooks_config.disabled),
            ("hooks.disabled", hooks_disabled),
        ],
    );
    hooks
}

/// The `tools` switches and settings of a file (`enableHooks` and
/// `allowManagedHooksOnly` are taken out before: they layer differently), and the
/// server's limits, in the order the file's problems are reported.
fn tools(report: &mut Report<'_>, tools: Tools, serve: Serve, parsed: &mut ParsedSettings) {
    let Tools {
        require_hook_trust,
        sticky_hook_blocks,
        hook_fail_closed,
        scrub_hook_env,
        verify_plugins,
        allowed_http_hook_urls,
        hook_model,
        trace,
        ..
    } = tools;
    parsed.require_trust = require_trust(report, require_hook_trust);
    parsed.sticky_blocks = switch(report, "tools.stickyHookBlocks", sticky_hook_blocks);
    parsed.fail_closed = switch(report, "tools.hookFailClosed", hook_fail_closed);
    parsed.scrub_env = switch(report, "tools.scrubHookEnv", scrub_hook_env);
    parsed.serve = ServeLimits {
        max_in_flight: limit(report, "serve.maxInFlight", serve.max_in_flight),
        max_processes: limit(report, "serve.maxProcesses", serve.max_processes),
    };
    parsed.verify_rules = verify_rules(report, verify_plugins);
    parsed.allowed_http_hook_urls = report
        .take(
            "tools.allowedHttpHookUrls",
            allowed_http_hook_urls,
            "an array of URL patterns",
        )
        .ok()
        .flatten()
        .flatten();
    parsed.hook_model = self::hook_model(report, hook_model);
    parsed.trace = report
        .take("tools.trace", trace, "a file path or \"-\" (stderr)")
        .ok()
        .flatten()
        .filter(|path| !path.trim().is_empty());
}

/// A section's settings and unknown keys; the defaults, and the value that stands
/// there instead, when it is not an object.
fn open<T: Default>(section: Section<T>) -> (T, Vec<String>, Option<Value>) {
    match section {
        Section::Ok(settings, unknown) => (settings, unknown, None),
        Section::Absent => (T::default(), Vec::new(), None),
        Section::Wrong(value) => (T::default(), Vec::new(), Some(value)),
    }
}

/// `tools.requireHookTrust`; a wrong value keeps trust required.
fn require_trust(report: &mut Report<'_>, field: Field<Option<bool>>) -> Option<bool> {
    match field {
        Field::Absent | Field::Ok(None) => None,
        Field::Ok(Some(b)) => Some(b),
        Field::Wrong(value) => {
            report.error(
                "tools.requireHookTrust",
                format!(
                    "expected true or false, got {}; trust stays required",
                    show(&value)
                ),
            );
            Some(true)
        }
    }
}

/// Whether the file switches hooks on. `tools` is `tools.enableHooks`, or the value
/// standing where the `tools` object should be; `hooks_config` and `hooks` are Gemini
/// CLI's `hooksConfig.enabled` and `hooks.enabled`.
fn enabled(
    report: &mut Report<'_>,
    disable_all_hooks: Field<bool>,
    tools: Result<Field<bool>, Value>,
    hooks_config: Field<bool>,
    hooks: Field<bool>,
) -> Option<bool> {
    let format = report.source.format;
    if format == SettingsFormat::Claude {
        // Claude Code runs hooks; its `disableAllHooks` switches off Claude hooks
        // only, across files (`config::managed`), not hookhost's own.
        return (!matches!(disable_all_hooks, Field::Ok(true))).then_some(true);
    }
    if format.is_claude_like() {
        // Codex runs hooks unless its file switches them off.
        return Some(!matches!(disable_all_hooks, Field::Ok(true)));
    }
    let from_tools = match tools {
        Err(value) => {
            report.error("tools", format!("expected an object, got {}", show(&value)));
            None
        }
        Ok(field) => switch(report, "tools.enableHooks", field),
    };
    let from_config = switch(report, "hooksConfig.enabled", hooks_config);
    if format == SettingsFormat::Llxprt {
        // LLxprt Code (0.9) runs hooks when `tools.enableHooks` (default true) *and*
        // `hooksConfig.enabled` (default false) are on. hookhost keeps seeds/001's
        // switch — `tools.enableHooks`, default false — and honours an explicit
        // `false` in either, so no file that LLxprt reads as off runs here. The one
        // difference (only `tools.enableHooks: true`: on here, off in LLxprt) is
        // hookhost's own documented switch, so it is not warned about (README).
        if from_tools == Some(false) || from_config == Some(false) {
            return Some(false);
        }
    }
    // `tools.enableHooks` (LLxprt), else Gemini CLI's `hooksConfig.enabled` or
    // `hooks.enabled`.
    let enabled = from_tools
        .or(from_config)
        .or_else(|| switch(report, "hooks.enabled", hooks));
    // Gemini CLI's `hooksConfig.enabled` defaults to true (its settings schema);
    // `tools.enableHooks` is LLxprt's and still counts when set.
    enabled.or((format == SettingsFormat::Gemini).then_some(true))
}

/// The hook names of Gemini CLI's `hooksConfig.disabled` and `hooks.disabled`,
/// together; a wrong list is reported and contributes nothing.
fn disabled(
    report: &mut Report<'_>,
    lists: [(&str, Field<Option<Vec<String>>>); 2],
) -> Vec<String> {
    lists
        .into_iter()
        .flat_map(|(at, names)| {
            report
                .take(at, names, "an array of hook names")
                .ok()
                .flatten()
                .flatten()
                .unwrap_or_default()
        })
        .collect()
}

/// A boolean switch; a wrong value is reported and counts as unset.
fn switch(report: &mut Report<'_>, at: &str, field: Field<bool>) -> Option<bool> {
    report.take(at, field, "true or false").ok().flatten()
}

/// A positive whole number (`serve.maxInFlight`).
fn limit(report: &mut Report<'_>, at: &str, field: Field<Option<Count>>) -> Option<usize> {
    let Count(n) = report
        .take(at, field, "a positive whole number")
        .ok()
        .flatten()
        .flatten()?;
    let limit = usize::try_from(n).ok();
    if limit.is_none() {
        report.error(at, format!("expected a positive whole number, got {n}"));
    }
    limit
}

/// Keys next to the switches that are probably typos of them
/// (`tools.enabledHooks`): an error, since the switch they meant is not set.
///
/// The known keys come from the section's schema, generated only when a key is
/// unknown: generating the settings file's schema was ~5 % of every `hookhost hook`
/// process (perf, five builtins).
fn misspelt(
    report: &mut Report<'_>,
    parent: &str,
    unknown: &[String],
    known: impl FnOnce() -> Vec<String>,
) {
    if unknown.is_empty() {
        return;
    }
    let known = known();
    for key in unknown {
        if let Some(meant) = crate::suggest::suggestion(key, known.iter().map(String::as_str)) {
            let at = if parent.is_empty() {
                key.clone()
            } else {
                format!("{parent}.{key}")
            };
            report.error(
                &at,
                format!("unknown setting; did you mean {meant:?}? (it is ignored)"),
            );
        }
    }
}

/// `tools.verifyPlugins`: `[{"prefix": "oci://…", "key": "path/to/cosign.pub"}]`.
fn verify_rules(
    report: &mut Report<'_>,
    field: Field<Option<Vec<Section<VerifyRuleSettings>>>>,
) -> Vec<VerifyRule> {
    let at = "tools.verifyPlugins";
    let Ok(Some(Some(rules))) = report.take(at, field, "a list of {\"prefix\", \"key\"}") else {
        return Vec::new();
    };
    let mut parsed = Vec::new();
    for (i, rule) in rules.into_iter().enumerate() {
        let text = |field: &Field<String>| match field {
            Field::Ok(text) if !text.trim().is_empty() => Some(text.trim().to_owned()),
            _ => None,
        };
        let (prefix, key, wrong) = match &rule {
            Section::Ok(rule, _) => (text(&rule.prefix), text(&rule.key), None),
            Section::Wrong(value) => (None, None, Some(show(value))),
            Section::Absent => (None, None, None),
        };
        match (prefix, key) {
            (Some(prefix), Some(key)) => {
                let prefix = if prefix.starts_with(SCHEME) {
                    prefix
                } else {
                    format!("{SCHEME}{prefix}")
                };
                parsed.push(VerifyRule {
                    prefix,
                    key: report.resolve(&key).into(),
                });
            }
            _ => report.error(
                &format!("{at}[{i}]"),
                format!(
                    "expected {{\"prefix\": \"oci://REGISTRY/…\", \"key\": \"path/to/cosign.pub\"}}, got {}; \
                     the rule is skipped",
                    wrong.unwrap_or_else(|| "an object".to_owned())
                ),
            ),
        }
    }
    parsed
}

/// `tools.hookModel`: `{"provider", "baseUrl"?, "model"?, "apiKeyEnv"?}`. A wrong
/// one is reported and ignored whole: a prompt hook must not ask an endpoint other
/// than the one meant.
fn hook_model(report: &mut Report<'_>, section: Section<HookModelSettings>) -> Option<HookModel> {
    let at = "tools.hookModel";
    let (settings, unknown) = match section {
        Section::Absent => return None,
        Section::Wrong(value) => {
            report.error(
                at,
                format!(
                    "expected {{\"provider\": \"anthropic\" | \"openai\", \"baseUrl\", \"model\", \
                     \"apiKeyEnv\"}}, got {}; it is ignored",
                    show(&value)
                ),
            );
            return None;
        }
        Section::Ok(settings, unknown) => (settings, unknown),
    };
    let mut ok = true;
    for key in &unknown {
        report.error(
            &format!("{at}.{key}"),
            "unknown key (known: provider, baseUrl, model, apiKeyEnv); tools.hookModel is ignored",
        );
        ok = false;
    }
    let provider = provider(report, settings.provider);
    let mut text = |key: &str, field: Field<String>, valid: fn(&str) -> bool, expected: &str| {
        let at = format!("{at}.{key}");
        match field {
            Field::Absent => None,
            Field::Ok(value) if valid(value.trim()) => Some(value.trim().to_owned()),
            Field::Ok(value) => {
                report.error(
                    &at,
                    format!("expected {expected}, got {value:?}; tools.hookModel is ignored"),
                );
                ok = false;
                None
            }
            Field::Wrong(value) => {
                report.error(
                    &at,
                    format!(
                        "expected {expected}, got {}; tools.hookModel is ignored",
                        show(&value)
                    ),
                );
                ok = false;
                None
            }
        }
    };
    let base_url = text(
        "baseUrl",
        settings.base_url,
        |v| v.starts_with("http://") || v.starts_with("https://"),
        "an http:// or https:// URL",
    );
    let model = text("model", settings.model, |v| !v.is_empty(), "a model name");
    let api_key_env = text(
        "apiKeyEnv",
        settings.api_key_env,
        is_variable_name,
        "an environment variable's name",
    );
    let provider = provider.filter(|_| ok)?;
    Some(HookModel {
        provider,
        base_url,
        model,
        api_key_env,
    })
}

/// `tools.hookModel.provider`, which is required.
fn provider(
    report: &mut Report<'_>,
    field: Field<crate::config::ModelProvider>,
) -> Option<crate::config::ModelProvider> {
    let at = "tools.hookModel.provider";
    match field {
        Field::Ok(provider) => Some(provider),
        Field::Absent => {
            report.error(
                at,
                "missing (required: \"anthropic\" or \"openai\"); tools.hookModel is ignored",
            );
            None
        }
        Field::Wrong(value) => {
            report.error(
                at,
                format!(
                    "expected \"anthropic\" or \"openai\", got {}; tools.hookModel is ignored",
                    show(&value)
                ),
            );
            None
        }
    }
}

/// A name a shell would take as a variable's: a letter or `_`, then letters,
/// digits or `_`.
fn is_variable_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
