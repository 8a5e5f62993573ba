//! Shape of one hook: the fields every hook has and those of each type (command,
//! plugin — whose nested objects are in [`super::plugin`] —, http, prompt); its
//! schema is split by `type` into one alternative per type. Checked by
//! [`check::hook`](crate::config::settings::check::hook) and
//! [`check::plugin`](crate::config::settings::check::plugin).

use schemars::{JsonSchema, Schema};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::field::{Field, Section};
use super::plugin::{PreopenSettings, StateShape, VerifySettings};
use super::value::Count;
use crate::config::spec::{FailurePolicy, HookMode};

/// The keys every hook may have.
const COMMON_KEYS: [&str; 12] = [
    "type",
    "timeout",
    "name",
    "description",
    "failurePolicy",
    "onFailure",
    "mode",
    "if",
    "async",
    "asyncRewake",
    "once",
    "statusMessage",
];
/// The keys of a command hook, besides the common ones.
const COMMAND_KEYS: [&str; 7] = [
    "command",
    "env",
    "args",
    "shell",
    "commandLinux",
    "commandDarwin",
    "commandWindows",
];
/// The keys of a plugin hook, besides the common ones.
const PLUGIN_KEYS: [&str; 11] = [
    "path",
    "source",
    "verify",
    "sha256",
    "fuel",
    "memoryLimit",
    "env",
    "preopens",
    "args",
    "allowedHosts",
    "state",
];
/// The keys of an http hook, besides the common ones.
const HTTP_KEYS: [&str; 3] = ["url", "headers", "allowedEnvVars"];
/// The keys of a prompt hook, besides the common ones.
const PROMPT_KEYS: [&str; 3] = ["prompt", "model", "continueOnBlock"];

/// Claude Code's `onFailure`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum OnFailure {
    /// The failure is reported and the action goes ahead (failurePolicy "allow").
    Continue,
    /// The failure counts as a block (failurePolicy "block").
    Block,
}

/// What a hook runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum HookType {
    /// A shell command, or a program with `args`.
    Command,
    /// A WASI component or preview-1 module.
    Plugin,
    /// POST the input to a URL.
    Http,
    /// Ask an LLM.
    Prompt,
    /// Claude Code's agent hook: recognised, not run by hookhost.
    Agent,
    /// Claude Code's MCP tool hook: recognised, not run by hookhost.
    McpTool,
}

impl HookType {
    /// Every type, in the order the schema lists them.
    const ALL: [HookType; 6] = [
        HookType::Command,
        HookType::Plugin,
        HookType::Http,
        HookType::Prompt,
        HookType::Agent,
        HookType::McpTool,
    ];

    /// The type as written in settings.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            HookType::Command => "command",
            HookType::Plugin => "plugin",
            HookType::Http => "http",
            HookType::Prompt => "prompt",
            HookType::Agent => "agent",
            HookType::McpTool => "mcp_tool",
        }
    }

    /// The keys a hook of this type may have besides the common ones; `None` for the
    /// types hookhost does not run (their keys are not checked).
    pub(crate) fn own_keys(self) -> Option<&'static [&'static str]> {
        match self {
            HookType::Command => Some(&COMMAND_KEYS),
            HookType::Plugin => Some(&PLUGIN_KEYS),
            HookType::Http => Some(&HTTP_KEYS),
            HookType::Prompt => Some(&PROMPT_KEYS),
            HookType::Agent | HookType::McpTool => None,
        }
    }

    /// Every key a hook of this type may have, common ones first.
    pub(crate) fn known_keys(self) -> impl Iterator<Item = &'static str> {
        COMMON_KEYS
            .into_iter()
            .chain(self.own_keys().unwrap_or(&[]).iter().copied())
    }
}

/// One hook: a command hook or a plugin hook, chosen by `type`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "camelCase")]
// Named `Hook` in the schema, as before the type was renamed (docs/settings.schema.json).
#[schemars(rename = "Hook", transform = split_by_type)]
pub(crate) struct HookSettings {
    /// "command", "plugin", "http" or "prompt" ("agent" and "mcp_tool" are
    /// recognised and refused).
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
    /// Claude Code's name for the same choice: "continue" (= failurePolicy
    /// "allow") or "block"; Claude ignores it for async hooks and on Stop,
    /// SubagentStop, TaskCompleted and TeammateIdle, and so does hookhost.
    pub(crate) on_failure: Field<Option<OnFailure>>,
    /// "enforce" (default) or "monitor": the hook runs and its would-be block or
    /// stop is reported, not enforced.
    pub(crate) mode: Field<Option<HookMode>>,
    /// `if`: a permission rule in Claude Code's syntax (`Bash(git *)`,
    /// `Write(src/**)`, `mcp__server__tool`); the hook runs only for a tool call the
    /// rule matches.
    #[serde(rename = "if")]
    #[schemars(regex(pattern = r"\S"))]
    pub(crate) condition: Field<Option<String>>,
    /// Run in the background; the fire does not wait and the answer is discarded.
    #[serde(rename = "async")]
    pub(crate) run_async: Field<Option<bool>>,
    /// Run in the background; a block becomes a notice for the agent.
    pub(crate) async_rewake: Field<Option<bool>>,
    /// Run at most once per session (`session_id`), also across processes.
    pub(crate) once: Field<Option<bool>>,
    /// Shown while the hook runs (`--explain`, the trace).
    pub(crate) status_message: Field<Option<String>>,
    /// The command line, run by /bin/sh -c in the project directory;
    /// $LLXPRT_PROJECT_DIR, $GEMINI_PROJECT_DIR and $CLAUDE_PROJECT_DIR hold the
    /// project directory.
    #[schemars(regex(pattern = r"\S"))]
    pub(crate) command: Field<String>,
    /// Replaces `command` on Linux.
    #[schemars(regex(pattern = r"\S"))]
    pub(crate) command_linux: Field<String>,
    /// Replaces `command` on macOS.
    #[schemars(regex(pattern = r"\S"))]
    pub(crate) command_darwin: Field<String>,
    /// Replaces `command` on Windows.
    #[schemars(regex(pattern = r"\S"))]
    pub(crate) command_windows: Field<String>,
    /// The shell that runs `command`: "sh" (default), "bash" or "powershell".
    pub(crate) shell: Field<Option<crate::config::spec::Shell>>,
    /// An http hook's endpoint: http:// or https://.
    #[schemars(regex(pattern = r"^https?://"))]
    pub(crate) url: Field<String>,
    /// An http hook's request headers; $VAR / ${VAR} in a value are replaced only
    /// for names listed in `allowedEnvVars`.
    #[schemars(with = "Option<std::collections::BTreeMap<String, String>>")]
    pub(crate) headers: Field<Option<Map<String, Value>>>,
    /// The environment variables a header value may use.
    pub(crate) allowed_env_vars: Field<Option<Vec<String>>>,
    /// A prompt hook's prompt; $ARGUMENTS is replaced by the input JSON.
    #[schemars(regex(pattern = r"\S"))]
    pub(crate) prompt: Field<String>,
    /// A prompt hook's model (default: the endpoint's, `tools.hookModel`).
    pub(crate) model: Field<Option<String>>,
    /// A prompt hook's `ok: false` blocks but lets the turn go on. Default: false
    /// in Claude files (the block also ends the turn, except on Stop and
    /// SubagentStop, as in Claude Code), true elsewhere.
    pub(crate) continue_on_block: Field<Option<bool>>,
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
    /// A command hook's arguments (exec form: `command` is the program, no shell);
    /// a plugin's arguments after the program name (argv[0] is the file name).
    pub(crate) args: Field<Option<Vec<Field<String>>>>,
    /// Hosts the plugin may send HTTP(S) requests to through wasi:http:
    /// "api.example.com" (ports 80 and 443), "127.0.0.1:8080", "*.corp.example",
    /// or an address range "10.0.0.0/8" that listed names may resolve into.
    /// Default: none.
    pub(crate) allowed_hosts: Field<Option<Vec<Field<String>>>>,
    /// A private persistent key-value store through wasi:keyvalue: true, or
    /// {"maxBytes": N} (default 1048576). Default: none.
    #[schemars(with = "Option<StateShape>")]
    pub(crate) state: Field<Option<Value>>,
}

impl HookSettings {
    /// The keys this hook carries that a hook of `kind` does not have (another
    /// type's keys).
    pub(crate) fn foreign_keys(&self, kind: HookType) -> Vec<&'static str> {
        let Some(own) = kind.own_keys() else {
            return Vec::new();
        };
        let present = [
            ("command", self.command.is_absent()),
            ("commandLinux", self.command_linux.is_absent()),
            ("commandDarwin", self.command_darwin.is_absent()),
            ("commandWindows", self.command_windows.is_absent()),
            ("shell", self.shell.is_absent()),
            ("path", self.path.is_absent()),
            ("source", self.source.is_absent()),
            ("verify", self.verify.is_absent()),
            ("sha256", self.sha256.is_absent()),
            ("fuel", self.fuel.is_absent()),
            ("memoryLimit", self.memory_limit.is_absent()),
            ("env", self.env.is_absent()),
            ("preopens", self.preopens.is_absent()),
            ("args", self.args.is_absent()),
            ("allowedHosts", self.allowed_hosts.is_absent()),
            ("state", self.state.is_absent()),
            ("url", self.url.is_absent()),
            ("headers", self.headers.is_absent()),
            ("allowedEnvVars", self.allowed_env_vars.is_absent()),
            ("prompt", self.prompt.is_absent()),
            ("model", self.model.is_absent()),
            ("continueOnBlock", self.continue_on_block.is_absent()),
        ];
        present
            .into_iter()
            .filter(|(key, absent)| !absent && !own.contains(key))
            .map(|(key, _)| key)
            .collect()
    }
}

/// The schema of a hook as one alternative per `type`, each rejecting the other
/// types' keys (an editor flags `fuel` in a command hook), instead of one object
/// with every key.
fn split_by_type(schema: &mut Schema) {
    let Some(properties) = schema.get("properties").and_then(Value::as_object).cloned() else {
        return;
    };
    let description = schema.get("description").cloned();
    let branch = |kind: HookType| {
        let Some(own) = kind.own_keys() else {
            // Recognised and refused by the check, whatever it holds.
            return json!({
                "if": {"properties": {"type": {"const": kind.as_str()}}},
                "then": {"title": format!("{} hook (not run by hookhost)", kind.as_str())},
            });
        };
        let mut mine: Map<String, Value> = properties
            .iter()
            .filter(|(key, _)| COMMON_KEYS.contains(&key.as_str()) || own.contains(&key.as_str()))
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        mine.insert("type".into(), json!({"const": kind.as_str()}));
        let mut then = json!({
            "title": format!("{} hook", kind.as_str()),
            "type": "object",
            "properties": mine,
            "additionalProperties": false,
        });
        match kind {
            HookType::Command => {
                then["anyOf"] = json!([
                    {"required": ["command"]},
                    {"required": ["commandLinux"]},
                    {"required": ["commandDarwin"]},
                    {"required": ["commandWindows"]},
                ]);
            }
            HookType::Plugin => {
                then["oneOf"] = json!([
                    {"required": ["path"], "not": {"required": ["source"]}},
                    {"required": ["source"], "not": {"required": ["path"]}},
                ]);
            }
            HookType::Http => then["required"] = json!(["url"]),
            HookType::Prompt => then["required"] = json!(["prompt"]),
            HookType::Agent | HookType::McpTool => {}
        }
        json!({
            "if": {"properties": {"type": {"const": kind.as_str()}}},
            "then": then,
        })
    };
    let mut split = json!({
        "type": "object",
        "required": ["type"],
        "properties": {"type": properties.get("type")},
        "allOf": HookType::ALL.into_iter().map(branch).collect::<Vec<_>>(),
    });
    if let Some(description) = description {
        split["description"] = description;
    }
    if let Ok(split) = Schema::try_from(split) {
        *schema = split;
    }
}
