//! Shape of the nested objects of a plugin hook: its `verify` key and its
//! `preopens` (the plugin fields themselves are on
//! [`HookSettings`](super::hook::HookSettings)). Checked by
//! [`check::plugin`](crate::config::settings::check::plugin).

use schemars::JsonSchema;
use serde::Deserialize;

use super::field::Field;

/// `verify`: the key a `source` module's signature must verify with.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
#[schemars(deny_unknown_fields, extend("required" = ["key"]))]
pub(crate) struct VerifySettings {
    /// A cosign public key (PEM, ECDSA P-256), resolved like `path`.
    #[schemars(regex(pattern = r"\S"))]
    pub(crate) key: Field<String>,
}

/// The schema of `state` (checked by hand: `true`, `false` or the object).
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub(crate) enum StateShape {
    /// `true`: a store of the default size; `false`: none.
    Flag(bool),
    /// A store of at most `maxBytes`.
    Limited(StateLimits),
}

/// `state` given as an object.
#[derive(JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
#[allow(dead_code)]
pub(crate) struct StateLimits {
    /// The most bytes (keys plus values) the store may hold (default 1048576).
    #[schemars(range(min = 1))]
    max_bytes: Option<u64>,
}

/// A host directory the guest may open.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
#[schemars(deny_unknown_fields, extend("required" = ["host", "guest"]))]
pub(crate) struct PreopenSettings {
    /// The host directory; relative paths resolve like `path`; $VAR and ~ are expanded.
    #[schemars(length(min = 1))]
    pub(crate) host: Field<String>,
    /// Where the guest sees it: an absolute path such as /project.
    #[schemars(regex(pattern = "^/"))]
    pub(crate) guest: Field<String>,
    /// Allow writes, creates, renames and deletes (default false).
    pub(crate) writable: Field<Option<bool>>,
}
