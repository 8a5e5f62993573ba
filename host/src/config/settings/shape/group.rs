//! Shape of a hook group: `matcher`, `sequential`, and its hooks. Checked by
//! [`check::group`](crate::config::settings::check::group).

use schemars::JsonSchema;
use serde::Deserialize;

use super::field::{Field, Written};
use super::hook::HookSettings;

/// A group of hooks sharing a matcher.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
#[schemars(deny_unknown_fields, extend("required" = ["hooks"]))]
pub(crate) struct Group {
    /// BeforeTool, AfterTool: regular expression tested against tool_name
    /// (unanchored). SessionStart, SessionEnd, PreCompress: compared exactly with the
    /// input's source, reason, trigger. Absent, "" or "*" = everything. Other events
    /// have no matcher.
    pub(crate) matcher: Field<Option<String>>,
    /// Run the hooks one by one, each seeing the previous answer (default false).
    pub(crate) sequential: Field<Option<bool>>,
    /// The hooks, in order.
    // Each also as written: an approval covers the hook object whole.
    pub(crate) hooks: Field<Vec<Written<HookSettings>>>,
}
