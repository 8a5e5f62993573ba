//! The top level of a settings file: `tools.*`, `hooksConfig`, `serve`,
//! `disableAllHooks`, and the switches read from them. The hooks themselves are
//! read by [`super::event`].

use schemars::JsonSchema;
use serde::Deserialize;

use super::event::Events;
use super::field::{Field, Section, known_keys};
use super::report::Report;
use super::value::{Count, show};
use super::{ParsedSettings, ServeLimits};
use crate::config::spec::VerifyRule;
use crate::config::source::SettingsFormat;
use crate::distribution::reference::SCHEME;

/// The parts of an LLxprt Code / Gemini CLI settings file that hookhost reads. Other
/// top-level keys are allowed and ignored. hookhost itself only warns about unknown
/// keys inside hooks; this schema rejects them to catch typos. Comments (// and /* */)
/// are allowed by hookhost but are not JSON: strip them before validating.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(title = "hookhost settings (.llxprt/settings.json and friends)")]
pub(super) struct SettingsFile {
    /// LLxprt Code's tool settings; hookhost reads its hook switches.
    tools: Section<Tools>,
    /// Gemini CLI's hook switches.
    hooks_config: Section<HooksConfig>,
    /// Event name → hook groups. LLxprt / Gemini CLI names, or Claude Code names
    /// (whose hooks then speak Claude's dialect).
    pub(super) hooks: Section<Events>,
    /// Limits of `hookhost serve` (user, system or explicit settings only; the flags
    /// and environment variables win).
    serve: Section<Serve>,
    /// Claude Code settings: no hook runs when true.
    disable_all_hooks: Field<bool>,
}

/// `tools`: the hook switches of LLxprt Code.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "camelCase")]
struct Tools {
    /// Run hooks at all; read from the highest-priority file that sets it; default false.
    enable_hooks: Field<bool>,
    /// Run hooks from project settings and extensions only when approved with
    /// `hookhost trust` (honoured in user, system and explicit settings).
    require_hook_trust: Field<Option<bool>>,
    /// BeforeModel/AfterModel: keep any hook's block and continue:false even when a
    /// later hook answers otherwise (default false: the last hook wins each field). On
    /// when any settings file turns it on.
    sticky_hook_blocks: Field<bool>,
    /// `hookhost hook`: any failure of a hook (could not load, crashed, timed out,
    /// broken settings) becomes a deny naming the cause, as --fail-closed does. On when
    /// any settings file turns it on.
    hook_fail_closed: Field<bool>,
    /// Signature keys per registry prefix (honoured in user, system and explicit
    /// settings): every plugin `source` starting with `prefix` runs only if a
    /// cosign-compatible signature of its manifest digest verifies with `key` (a hook's
    /// own `verify` takes precedence; the longest prefix wins).
    verify_plugins: Field<Option<Vec<Section<VerifyRuleSettings>>>>,
}

/// One `tools.verifyPlugins` rule.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
#[schemars(deny_unknown_fields, extend("required" = ["prefix", "key"]))]
struct VerifyRuleSettings {
    /// e.g. oci://ghcr.io/acme/ (the oci:// may be left out).
    #[schemars(regex(pattern = r"\S"))]
    prefix: Field<String>,
    /// A cosign public key (PEM, ECDSA P-256).
    #[schemars(regex(pattern = r"\S"))]
    key: Field<String>,
}

/// `hooksConfig`: Gemini CLI's hook switches.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
struct HooksConfig {
    /// Like tools.enableHooks.
    enabled: Field<bool>,
    /// Hook names or command strings to switch off.
    disabled: Field<Option<Vec<String>>>,
}

/// `serve`: the limits of `hookhost serve`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
struct Serve {
    /// Requests of one stream (stdin or one socket connection) in flight at most;
    /// default 64 (`--max-in-flight`, HOOKHOST_MAX_IN_FLIGHT).
    max_in_flight: Field<Option<Count>>,
    /// Hook processes at once across all requests; default 4 x cores, at most 64
    /// (`--max-processes`, HOOKHOST_MAX_PROCESSES).
    #[schemars(range(max = 64))]
    max_processes: Field<Option<Count>>,
}

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
    } = file;
    let (tools, tools_unknown, tools_wrong) = match tools {
        Section::Ok(tools, unknown) => (tools, unknown, None),
        Section::Absent => (Tools::default(), Vec::new(), None),
        Section::Wrong(value) => (Tools::default(), Vec::new(), Some(value)),
    };
    let (hooks_config, config_unknown) = match hooks_config {
        Section::Ok(config, unknown) => (config, unknown),
        _ => (HooksConfig::default(), Vec::new()),
    };
    let (serve, serve_unknown) = match serve {
        Section::Ok(serve, unknown) => (serve, unknown),
        _ => (Serve::default(), Vec::new()),
    };
    let (hooks_enabled, hooks_disabled) = match &mut hooks {
        Section::Ok(events, _) => (
            std::mem::take(&mut events.enabled),
            std::mem::take(&mut events.disabled),
        ),
        _ => (Field::Absent, Field::Absent),
    };

    parsed.require_trust = match tools.require_hook_trust {
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
    };
    parsed.sticky_blocks = switch(report, "tools.stickyHookBlocks", tools.sticky_hook_blocks);
    parsed.fail_closed = switch(report, "tools.hookFailClosed", tools.hook_fail_closed);
    parsed.serve = ServeLimits {
        max_in_flight: limit(report, "serve.maxInFlight", serve.max_in_flight),
        max_processes: limit(report, "serve.maxProcesses", serve.max_processes),
    };
    parsed.verify_rules = verify_rules(report, tools.verify_plugins);
    parsed.enable_hooks = match report.source.format {
        // Claude Code runs hooks unless `disableAllHooks` is true.
        SettingsFormat::Claude => Some(!matches!(disable_all_hooks, Field::Ok(true))),
        format => {
            let from_tools = match tools_wrong {
                Some(value) => {
                    report.error("tools", format!("expected an object, got {}", show(&value)));
                    None
                }
                None => switch(report, "tools.enableHooks", tools.enable_hooks),
            };
            // `tools.enableHooks` (LLxprt), else Gemini CLI's `hooksConfig.enabled` or
            // `hooks.enabled`.
            let enabled = from_tools
                .or_else(|| switch(report, "hooksConfig.enabled", hooks_config.enabled))
                .or_else(|| switch(report, "hooks.enabled", hooks_enabled));
            // Gemini CLI's `hooksConfig.enabled` defaults to true (its settings schema);
            // `tools.enableHooks` is LLxprt's and still counts when set.
            enabled.or((format == SettingsFormat::Gemini).then_some(true))
        }
    };
    misspelt(report, "tools", &tools_unknown, &known_keys::<Tools>());
    misspelt(
        report,
        "hooksConfig",
        &config_unknown,
        &known_keys::<HooksConfig>(),
    );
    misspelt(report, "", unknown, &known_keys::<SettingsFile>());
    misspelt(report, "serve", &serve_unknown, &known_keys::<Serve>());
    parsed.disabled = [
        ("hooksConfig.disabled", hooks_config.disabled),
        ("hooks.disabled", hooks_disabled),
    ]
    .into_iter()
    .flat_map(|(at, names)| {
        report
            .take(at, names, "an array of hook names")
            .ok()
            .flatten()
            .flatten()
            .unwrap_or_default()
    })
    .collect();
    hooks
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
fn misspelt(report: &mut Report<'_>, parent: &str, unknown: &[String], known: &[String]) {
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
