//! Shape of the top level of a settings file: `tools.*`, `hooksConfig`, `serve`,
//! `disableAllHooks`. The switches and limits are read from these by
//! [`check::file`](crate::config::settings::check::file); the hooks are shaped by
//! [`super::event`].

use schemars::JsonSchema;
use serde::Deserialize;

use super::event::Events;
use super::field::{Field, Section};
use super::value::Count;
use crate::config::remote::ModelProvider;

/// The parts of an LLxprt Code / Gemini CLI settings file that hookhost reads. Other
/// top-level keys are allowed and ignored. hookhost itself only warns about unknown
/// keys inside hooks; this schema rejects them to catch typos. Comments (// and /* */)
/// are allowed by hookhost but are not JSON: strip them before validating.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(title = "hookhost settings (.llxprt/settings.json and friends)")]
pub(crate) struct SettingsFile {
    /// LLxprt Code's tool settings; hookhost reads its hook switches.
    pub(crate) tools: Section<Tools>,
    /// Gemini CLI's hook switches.
    pub(crate) hooks_config: Section<HooksConfig>,
    /// Event name → hook groups. LLxprt / Gemini CLI names, or Claude Code names
    /// (whose hooks then speak Claude's dialect).
    pub(crate) hooks: Section<Events>,
    /// Limits of `hookhost serve` (user, system or explicit settings only; the flags
    /// and environment variables win).
    pub(crate) serve: Section<Serve>,
    /// Claude Code settings: no hook runs when true. In a managed file (the
    /// system scope) no Claude hook runs at all; elsewhere only managed ones.
    pub(crate) disable_all_hooks: Field<bool>,
    /// Claude Code's managed settings: only hooks of managed (system) settings run.
    pub(crate) allow_managed_hooks_only: Field<Option<bool>>,
}

/// `tools`: the hook switches of LLxprt Code.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct Tools {
    /// Run hooks at all; read from the highest-priority file that sets it; default false.
    pub(crate) enable_hooks: Field<bool>,
    /// In the system settings: only the hooks of system (managed) settings run —
    /// hookhost's system file and Claude Code's managed settings.
    pub(crate) allow_managed_hooks_only: Field<Option<bool>>,
    /// Run hooks from project settings and extensions only when approved with
    /// `hookhost trust` (honoured in user, system and explicit settings).
    pub(crate) require_hook_trust: Field<Option<bool>>,
    /// BeforeModel/AfterModel: keep any hook's block and continue:false even when a
    /// later hook answers otherwise (default false: the last hook wins each field). On
    /// when any settings file turns it on.
    pub(crate) sticky_hook_blocks: Field<bool>,
    /// `hookhost hook`: any failure of a hook (could not load, crashed, timed out,
    /// broken settings) becomes a deny naming the cause, as --fail-closed does. On when
    /// any settings file turns it on.
    pub(crate) hook_fail_closed: Field<bool>,
    /// Command hooks get a minimal environment (PATH, HOME, USER, LOGNAME, SHELL,
    /// TMPDIR, TZ, LANG, LANGUAGE, LC_*, TERM, and hookhost's own variables) plus
    /// their own `env`, instead of the agent's whole environment. On when any
    /// settings file turns it on; none can turn it off.
    pub(crate) scrub_hook_env: Field<bool>,
    /// Signature keys per registry prefix (honoured in user, system and explicit
    /// settings): every plugin `source` starting with `prefix` runs only if a
    /// cosign-compatible signature of its manifest digest verifies with `key` (a hook's
    /// own `verify` takes precedence; the longest prefix wins).
    pub(crate) verify_plugins: Field<Option<Vec<Section<VerifyRuleSettings>>>>,
    /// URL patterns http hooks may target, as Claude Code's allowedHttpHookUrls: `*`
    /// matches any run of characters, a pattern must match the whole URL
    /// ("https://hooks.example.com/*", "http://127.0.0.1:*"). Honoured in user,
    /// system and explicit settings, whose lists merge; a repository's is ignored.
    /// Absent: no restriction; []: no http hook runs.
    pub(crate) allowed_http_hook_urls: Field<Option<Vec<String>>>,
    /// The model endpoint prompt hooks ask (honoured in user, system and explicit
    /// settings; the highest-priority file that sets it wins). Without it:
    /// ANTHROPIC_BASE_URL / ANTHROPIC_API_KEY, else OPENAI_BASE_URL / OPENAI_API_KEY
    /// from the environment.
    pub(crate) hook_model: Section<HookModelSettings>,
    /// The audit trace (as HOOKHOST_TRACE, which takes precedence): a file that
    /// one JSON line per hook run is appended to (~ and $VAR expanded), or "-"
    /// for stderr. Honoured in user, system and explicit settings; a
    /// repository's is ignored (it would choose which of your files is appended to).
    #[schemars(regex(pattern = r"\S"))]
    pub(crate) trace: Field<String>,
}

/// `tools.hookModel`: the endpoint of prompt hooks.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(deny_unknown_fields, extend("required" = ["provider"]))]
pub(crate) struct HookModelSettings {
    /// "anthropic" (the Messages API) or "openai" (chat completions, which many
    /// local model servers speak too).
    pub(crate) provider: Field<ModelProvider>,
    /// The API's base URL; default https://api.anthropic.com (anthropic) or
    /// https://api.openai.com/v1 (openai). A trailing /v1 may be given or not.
    #[schemars(regex(pattern = r"^https?://"))]
    pub(crate) base_url: Field<String>,
    /// The model of prompt hooks that name none; default claude-haiku-4-5
    /// (anthropic) or gpt-4o-mini (openai).
    #[schemars(regex(pattern = r"\S"))]
    pub(crate) model: Field<String>,
    /// The environment variable holding the API key; default ANTHROPIC_API_KEY
    /// (anthropic) or OPENAI_API_KEY (openai).
    #[schemars(regex(pattern = r"^[A-Za-z_][A-Za-z0-9_]*$"))]
    pub(crate) api_key_env: Field<String>,
}

/// One `tools.verifyPlugins` rule.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
#[schemars(deny_unknown_fields, extend("required" = ["prefix", "key"]))]
pub(crate) struct VerifyRuleSettings {
    /// e.g. oci://ghcr.io/acme/ (the oci:// may be left out).
    #[schemars(regex(pattern = r"\S"))]
    pub(crate) prefix: Field<String>,
    /// A cosign public key (PEM, ECDSA P-256).
    #[schemars(regex(pattern = r"\S"))]
    pub(crate) key: Field<String>,
}

/// `hooksConfig`: Gemini CLI's hook switches.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
pub(crate) struct HooksConfig {
    /// Like tools.enableHooks.
    pub(crate) enabled: Field<bool>,
    /// Hook names or command strings to switch off.
    pub(crate) disabled: Field<Option<Vec<String>>>,
}

/// `serve`: the limits of `hookhost serve`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub(crate) struct Serve {
    /// Requests of one stream (stdin or one socket connection) in flight at most;
    /// default 64 (`--max-in-flight`, HOOKHOST_MAX_IN_FLIGHT).
    pub(crate) max_in_flight: Field<Option<Count>>,
    /// Hook processes at once across all requests; default 4 x cores, at most 64
    /// (`--max-processes`, HOOKHOST_MAX_PROCESSES).
    #[schemars(range(max = 64))]
    pub(crate) max_processes: Field<Option<Count>>,
}
