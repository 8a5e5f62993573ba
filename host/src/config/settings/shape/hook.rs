//! Shape of one hook: the fields every hook has, a command hook's `command`, and a
//! plugin hook's fields (whose nested objects are in [`super::plugin`]); its schema is
//! split by `type` into a command and a plugin alternative. Checked by
//! [`check::hook`](crate::config::settings::check::hook) and
//! [`check::plugin`](crate::config::settings::check::plugin).

use schemars::{JsonSchema, Schema};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::field::{Field, Section};
use super::plugin::{PreopenSettings, VerifySettings};
use super::value::Count;
use crate::config::spec::{FailurePolicy, HookMode};

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
    pub(crate) kind: Field<HookType>,
    /// Wall-clock limit in milliseconds (default 60000).
    pub(crate) timeout: Field<Option<Count>>,
    /// Shown by `hookhost check` and in results (default: the command, or the
    /// plugin's file name).
    pub(crate) name: Field<Option<String>>,
    /// Shown by `hookhost check`.
    pub(crate) description: Field<Option<String>>,
    /// "allow" (default): a failed, crashed or timed-out hook is a warning and the
    /// operation proceeds; "block": it blocks, with a reason naming the failure.
    pub(crate) failure_policy: Field<Option<FailurePolicy>>,
    /// "enforce" (default) or "monitor": the hook runs and its would-be block or
    /// stop is reported, not enforced.
    pub(crate) mode: Field<Option<HookMode>>,
    /// The command line, run by /bin/sh -c in the project directory;
    /// $LLXPRT_PROJECT_DIR, $GEMINI_PROJECT_DIR and $CLAUDE_PROJECT_DIR hold the
    /// project directory.
    #[schemars(regex(pattern = r"\S"))]
    pub(crate) command: Field<String>,
    /// The .wasm file: relative to the project dir (project settings), the extension
    /// dir (extensions) or the settings file's dir (others); $VAR, ${VAR} and ~ are
    /// expanded. Give either `path` or `source`.
    #[schemars(regex(pattern = r"\S"))]
    pub(crate) path: Field<String>,
    /// An OCI reference instead of `path`: oci://REGISTRY/REPO[:TAG][@sha256:DIGEST].
    /// The module is taken from the local module store (fetched by `hookhost plugin
    /// pull` or `hookhost lock`), at the digest pinned here or locked in
    /// `.llxprt/hookhost.lock`; fires never touch the network.
    #[schemars(regex(pattern = r"^oci://[^/\s]+/[^\s]+$"))]
    pub(crate) source: Field<String>,
    /// With `source`: the module runs only if a cosign-compatible signature of its
    /// manifest digest verifies with this public key.
    pub(crate) verify: Field<Option<Section<VerifySettings>>>,
    /// Pin: the file's SHA-256 as 64 hexadecimal digits; a file with another digest
    /// is refused. With `source`, the pin applies to the Wasm layer.
    #[schemars(regex(pattern = r"^\s*[0-9a-fA-F]{64}\s*$"))]
    pub(crate) sha256: Field<Option<String>>,
    /// Instruction budget per call (default 10000000000).
    pub(crate) fuel: Field<Option<Count>>,
    /// Cap on linear memory in bytes (default 134217728, 128 MiB).
    pub(crate) memory_limit: Field<Option<Count>>,
    /// Variables the guest sees besides the three project-dir variables; values
    /// expand $VAR and ~.
    #[schemars(
        with = "Option<std::collections::BTreeMap<String, String>>",
        extend("propertyNames" = {"minLength": 1, "pattern": "^[^=]*$"})
    )]
    pub(crate) env: Field<Option<Map<String, Value>>>,
    /// Host directories the guest may open, read-only unless writable.
    pub(crate) preopens: Field<Option<Vec<Section<PreopenSettings>>>>,
    /// Arguments after the program name (argv[0] is the file name).
    pub(crate) args: Field<Option<Vec<Field<String>>>>,
}

impl HookSettings {
    /// The keys of the other kind of hook that this one carries.
    pub(crate) fn foreign_keys(&self, kind: HookType) -> Vec<&'static str> {
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
