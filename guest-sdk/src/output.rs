//! The hook's answer: [`HookOutput`], serialised to stdout with the spec's
//! camelCase field names, `None` fields left out.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A permission decision (`decision` in the output).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// Let the operation proceed.
    Allow,
    /// Same as [`Decision::Allow`] (compatibility spelling).
    Approve,
    /// Ask the user (treated like allow by hosts that cannot ask).
    Ask,
    /// Block the operation.
    Block,
    /// Same as [`Decision::Block`] (compatibility spelling).
    Deny,
}

impl Decision {
    /// `true` for [`Decision::Block`] and [`Decision::Deny`].
    pub fn is_block(self) -> bool {
        matches!(self, Self::Block | Self::Deny)
    }
}

/// The tool-calling mode of a `toolConfig` (`BeforeToolSelection`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum ToolMode {
    /// The model may call the allowed tools.
    Auto,
    /// The model must call one of the allowed tools.
    Any,
    /// The model may not call tools.
    None,
}

/// What a hook writes on stdout.
///
/// Build one with [`HookOutput::allow`] or [`HookOutput::block`] and chain the
/// setters; every field is public for anything the setters do not cover.
///
/// ```
/// use hookhost_guest::HookOutput;
/// let out = HookOutput::allow()
///     .system_message("checked by policy")
///     .additional_context("file is generated; do not edit by hand");
/// assert!(!out.is_block());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HookOutput {
    /// The permission decision; absent means "no opinion" (allow).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<Decision>,
    /// Why; shown to the user and/or the model when blocking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `Some(false)` stops the agent loop.
    #[serde(default, rename = "continue", skip_serializing_if = "Option::is_none")]
    pub continue_: Option<bool>,
    /// Why the agent stops (with `continue: false`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// `Some(true)` hides the result from the user (the model still sees it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suppress_output: Option<bool>,
    /// A message injected into the conversation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_message: Option<String>,
    /// Event-specific data: `tool_input`, `additionalContext`, `llm_request`,
    /// `llm_response`, `toolConfig`, … The SDK's [`run`](crate::run) adds
    /// `hookEventName` when it is missing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook_specific_output: Option<Map<String, Value>>,
    /// Fields outside the spec, written as they are.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl HookOutput {
    /// Proceed with no decision and no changes: the spec treats silence as
    /// allow. No explicit `"decision": "allow"` is written, because in events
    /// whose outputs are merged by "last writer wins" an explicit allow could
    /// mask another hook's block.
    pub fn allow() -> Self {
        Self::default()
    }

    /// Block the operation (`"decision": "block"`) with a reason the model
    /// and the user will see. [`run`](crate::run) exits with status 2.
    pub fn block(reason: impl Into<String>) -> Self {
        Self {
            decision: Some(Decision::Block),
            reason: Some(reason.into()),
            ..Self::default()
        }
    }

    /// Whether this output blocks (`decision` is `block` or `deny`).
    pub fn is_block(&self) -> bool {
        self.decision.is_some_and(Decision::is_block)
    }

    /// Sets an explicit `decision`.
    pub fn decision(mut self, decision: Decision) -> Self {
        self.decision = Some(decision);
        self
    }

    /// Sets `reason`.
    pub fn reason(mut self, reason: impl Into<String>) -> Self {
        self.reason = Some(reason.into());
        self
    }

    /// Sets `systemMessage`, a message injected into the conversation.
    pub fn system_message(mut self, message: impl Into<String>) -> Self {
        self.system_message = Some(message.into());
        self
    }

    /// Stops the agent loop (`continue: false`) with a reason.
    pub fn stop(mut self, reason: impl Into<String>) -> Self {
        self.continue_ = Some(false);
        self.stop_reason = Some(reason.into());
        self
    }

    /// Hides the result from the user (`suppressOutput: true`).
    pub fn suppress_output(mut self) -> Self {
        self.suppress_output = Some(true);
        self
    }

    /// Sets one `hookSpecificOutput` field.
    pub fn hook_specific(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.hook_specific_output
            .get_or_insert_with(Map::new)
            .insert(key.into(), value.into());
        self
    }

    /// `BeforeTool`: run the tool with these arguments instead.
    pub fn tool_input(self, tool_input: impl Into<Value>) -> Self {
        self.hook_specific("tool_input", tool_input)
    }

    /// `AfterTool`: text appended to the tool result the model sees.
    pub fn additional_context(self, context: impl Into<String>) -> Self {
        self.hook_specific("additionalContext", context.into())
    }

    /// `BeforeModel`: send this (partial) request instead.
    pub fn llm_request(self, request: impl Into<Value>) -> Self {
        self.hook_specific("llm_request", request)
    }

    /// `BeforeModel` (with a block: a synthetic answer) or `AfterModel` (a
    /// rewritten answer): the response to use.
    pub fn llm_response(self, response: impl Into<Value>) -> Self {
        self.hook_specific("llm_response", response)
    }

    /// `BeforeToolSelection`: the tool-calling mode and the tools the model may
    /// call. An empty `allowed` list leaves `allowedFunctionNames` out.
    pub fn tool_config<I, S>(self, mode: ToolMode, allowed: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut config = Map::new();
        // ToolMode serialises to a plain string; fall back to null rather than panic.
        config.insert(
            "mode".to_owned(),
            serde_json::to_value(mode).unwrap_or(Value::Null),
        );
        let names: Vec<Value> = allowed
            .into_iter()
            .map(|s| Value::String(s.into()))
            .collect();
        if !names.is_empty() {
            config.insert("allowedFunctionNames".to_owned(), Value::Array(names));
        }
        self.hook_specific("toolConfig", config)
    }

    /// The output as a JSON string.
    pub fn to_json(&self) -> String {
        // Serialising this struct cannot fail: every key is a string and every
        // value is plain data; `{}` is a safe answer if it ever did.
        serde_json::to_string(self).unwrap_or_else(|_| "{}".to_owned())
    }
}
