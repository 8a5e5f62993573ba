//! One hook: the fields every hook has, a command hook's `command`, and the checks
//! serde cannot express (timeout units and range, the display name). A plugin's
//! own fields are checked by [`super::plugin`].

use std::time::Duration;

use schemars::{JsonSchema, Schema};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::field::{Field, Section};
use super::plugin::{self, PreopenSettings, VerifySettings};
use super::report::Report;
use super::value::{Count, show};
use crate::config::spec::{
    DEFAULT_TIMEOUT, FailurePolicy, HookKind, HookMode, HookSpec, PluginConfig,
};
use crate::config::source::SettingsFormat;

/// The longest `timeout` a hook may have; longer ones are clamped (with a warning)
/// so that deadline arithmetic cannot overflow (a Claude `timeout` of 2^63 s).
pub(crate) const MAX_TIMEOUT: Duration = Duration::from_secs(24 * 60 * 60);

/// The keys only a command hook has.
const COMMAND_KEYS: [&str; 1] = ["command"];
/// The keys only a plugin hook has.
const PLUGIN_KEYS: [&str; 9] = [
    "path",
    "source",
    "verify",
    "sha256",
    "fuel",
    "memoryLimit",
    "env",
    "preopens",
    "args",
];

/// What a hook runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum HookType {
    /// A shell command.
    Command,
    /// A WASI component or preview-1 module.
    Plugin,
}

/// One hook: a command hook or a plugin hook, chosen by `type`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "camelCase")]
// Named `Hook` in the schema, as before the type was renamed (docs/settings.schema.json).
#[schemars(rename = "Hook", transform = split_by_type)]
pub(crate) struct HookSettings {
    /// "command" or "plugin".
    #[serde(rename = "type")]
    kind: Field<HookType>,
    /// Wall-clock limit in milliseconds (default 60000).
    timeout: Field<Option<Count>>,
    /// Shown by `hookhost check` and in results (default: the command, or the
    /// plugin's file name).
    name: Field<Option<String>>,
    /// Shown by `hookhost check`.
    description: Field<Option<String>>,
    /// "allow" (default): a failed, crashed or timed-out hook is a warning and the
    /// operation proceeds; "block": it blocks, with a reason naming the failure.
    failure_policy: Field<Option<FailurePolicy>>,
    /// "enforce" (default) or "monitor": the hook runs and its would-be block or
    /// stop is reported, not enforced.
    mode: Field<Option<HookMode>>,
    /// The command line, run by /bin/sh -c in the project directory;
    /// $LLXPRT_PROJECT_DIR, $GEMINI_PROJECT_DIR and $CLAUDE_PROJECT_DIR hold the
    /// project directory.
    #[schemars(regex(pattern = r"\S"))]
    command: Field<String>,
    /// The .wasm file: relative to the project dir (project settings), the extension
    /// dir (extensions) or the settings file's dir (others); $VAR, ${VAR} and ~ are
    /// expanded. Give either `path` or `source`.
    #[schemars(regex(pattern = r"\S"))]
    pub(super) path: Field<String>,
    /// An OCI reference instead of `path`: oci://REGISTRY/REPO[:TAG][@sha256:DIGEST].
    /// The module is taken from the local module store (fetched by `hookhost plugin
    /// pull` or `hookhost lock`), at the digest pinned here or locked in
    /// `.llxprt/hookhost.lock`; fires never touch the network.
    #[schemars(regex(pattern = r"^oci://[^/\s]+/[^\s]+$"))]
    pub(super) source: Field<String>,
    /// With `source`: the module runs only if a cosign-compatible signature of its
    /// manifest digest verifies with this public key.
    pub(super) verify: Field<Option<Section<VerifySettings>>>,
    /// Pin: the file's SHA-256 as 64 hexadecimal digits; a file with another digest
    /// is refused. With `source`, the pin applies to the Wasm layer.
    #[schemars(regex(pattern = r"^\s*[0-9a-fA-F]{64}\s*$"))]
    pub(super) sha256: Field<Option<String>>,
    /// Instruction budget per call (default 10000000000).
    pub(super) fuel: Field<Option<Count>>,
    /// Cap on linear memory in bytes (default 134217728, 128 MiB).
    pub(super) memory_limit: Field<Option<Count>>,
    /// Variables the guest sees besides the three project-dir variables; values
    /// expand $VAR and ~.
    #[schemars(
        with = "Option<std::collections::BTreeMap<String, String>>",
        extend("propertyNames" = {"minLength": 1, "pattern": "^[^=]*$"})
    )]
    pub(super) env: Field<Option<Map<String, Value>>>,
    /// Host directories the guest may open, read-only unless writable.
    pub(super) preopens: Field<Option<Vec<Section<PreopenSettings>>>>,
    /// Arguments after the program name (argv[0] is the file name).
    pub(super) args: Field<Option<Vec<Field<String>>>>,
}

impl HookSettings {
    /// The keys of the other kind of hook that this one carries.
    fn foreign_keys(&self, kind: HookType) -> Vec<&'static str> {
        let present = match kind {
            HookType::Command => vec![
                !self.path.is_absent(),
                !self.source.is_absent(),
                !self.verify.is_absent(),
                !self.sha256.is_absent(),
                !self.fuel.is_absent(),
                !self.memory_limit.is_absent(),
                !self.env.is_absent(),
                !self.preopens.is_absent(),
                !self.args.is_absent(),
            ],
            HookType::Plugin => vec![!self.command.is_absent()],
        };
        let keys: &[&'static str] = match kind {
            HookType::Command => &PLUGIN_KEYS,
            HookType::Plugin => &COMMAND_KEYS,
        };
        keys.iter()
            .zip(present)
            .filter_map(|(key, present)| present.then_some(*key))
            .collect()
    }
}

/// Checks one hook (at `at`, e.g. `hooks.BeforeTool[0].hooks[1]`); `None` (with
/// errors ending "the hook is skipped") when it cannot run.
pub(super) fn spec(at: &str, hook: Section<HookSettings>, report: &mut Report<'_>) -> Option<HookSpec> {
    let first_diagnostic = report.diagnostics.len();
    let (mut hook, unknown) = match hook {
        Section::Ok(hook, unknown) => (hook, unknown),
        Section::Absent => return None,
        Section::Wrong(value) => {
            let got = show(&value);
            report.error(
                at,
                format!("expected a hook object, got {got}; the hook is skipped"),
            );
            return None;
        }
    };
    let kind = match std::mem::take(&mut hook.kind) {
        Field::Ok(kind) => kind,
        Field::Absent => {
            report.error(
                &format!("{at}.type"),
                "missing (required: \"command\" or \"plugin\"); the hook is skipped",
            );
            return None;
        }
        Field::Wrong(value) => {
            report.error(
                &format!("{at}.type"),
                format!(
                    "expected \"command\" or \"plugin\", got {}; the hook is skipped",
                    show(&value)
                ),
            );
            return None;
        }
    };
    warn_unknown_keys(at, kind, unknown, hook.foreign_keys(kind), report);
    let mut ok = true;
    let timeout = timeout(at, std::mem::take(&mut hook.timeout), report, &mut ok);
    let name = std::mem::take(&mut hook.name);
    let name = report.take_or_flag(&format!("{at}.name"), name, "a string", &mut ok);
    let description = std::mem::take(&mut hook.description);
    let description = report.take_or_flag(
        &format!("{at}.description"),
        description,
        "a string",
        &mut ok,
    );
    let failure_policy = std::mem::take(&mut hook.failure_policy);
    let failure_policy = report
        .take_or_flag(
            &format!("{at}.failurePolicy"),
            failure_policy,
            "\"allow\" or \"block\"",
            &mut ok,
        )
        .flatten()
        .unwrap_or_default();
    let mode = std::mem::take(&mut hook.mode);
    let mode = report
        .take_or_flag(
            &format!("{at}.mode"),
            mode,
            "\"enforce\" or \"monitor\"",
            &mut ok,
        )
        .flatten()
        .unwrap_or_default();
    let kind = match kind {
        HookType::Command => command(at, hook.command, report),
        HookType::Plugin => plugin::config(at, hook, report),
    };
    let Some(kind) = kind.filter(|_| ok) else {
        for d in &mut report.diagnostics[first_diagnostic..] {
            if d.is_error() {
                d.message.push_str("; the hook is skipped");
            }
        }
        return None;
    };
    let name = name.flatten().unwrap_or_else(|| match &kind {
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
    });
    Some(HookSpec {
        name,
        description: description.flatten(),
        kind,
        timeout: timeout.unwrap_or(DEFAULT_TIMEOUT),
        failure_policy,
        mode,
    })
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

/// The schema of a hook as two alternatives chosen by `type`, each rejecting the
/// other's keys (an editor flags `fuel` in a command hook), instead of one object
/// with every key.
fn split_by_type(schema: &mut Schema) {
    let Some(properties) = schema.get("properties").and_then(Value::as_object).cloned() else {
        return;
    };
    let description = schema.get("description").cloned();
    let variant = |kind: &str, title: &str, not_mine: &[&str], required: Value| {
        let mut own: Map<String, Value> = properties
            .iter()
            .filter(|(key, _)| !not_mine.contains(&key.as_str()))
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        own.insert("type".into(), json!({"const": kind}));
        json!({
            "title": title,
            "type": "object",
            "required": required,
            "properties": own,
            "additionalProperties": false,
        })
    };
    let command = variant(
        "command",
        "Command hook",
        &PLUGIN_KEYS,
        json!(["type", "command"]),
    );
    let mut plugin = variant("plugin", "Plugin hook", &COMMAND_KEYS, json!(["type"]));
    plugin["oneOf"] = json!([
        {"required": ["path"], "not": {"required": ["source"]}},
        {"required": ["source"], "not": {"required": ["path"]}},
    ]);
    let mut split = json!({
        "type": "object",
        "required": ["type"],
        "properties": {"type": properties.get("type")},
        "if": {"properties": {"type": {"const": "command"}}},
        "then": command,
        "else": plugin,
    });
    if let Some(description) = description {
        split["description"] = description;
    }
    if let Ok(split) = Schema::try_from(split) {
        *schema = split;
    }
}
