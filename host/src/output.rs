//! `HookOutput`: what one hook answered, parsed leniently from its stdout.
//!
//! A hook's stdout is untrusted text. A field of the wrong type is dropped with a
//! warning instead of discarding the whole answer, and fields hookhost does not know
//! are kept so that they reach `allOutputs` unchanged.

use serde::Serialize;
use serde_json::{Map, Value};

/// A decision a hook can take (seeds/001 §4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Decision {
    /// Block the operation.
    Block,
    /// Block the operation (synonym of `block`).
    Deny,
    /// Allow the operation.
    Allow,
    /// Allow the operation (synonym of `allow`).
    Approve,
    /// Ask the user; hookhost has no user to ask, so this never blocks.
    Ask,
    /// Claude Code (PreToolUse, `-p` mode): pause the call so that a resumed
    /// session asks the hook again; never blocks in hookhost. Among several hooks
    /// deny > defer > ask > allow.
    Defer,
}

impl Decision {
    /// Parses a decision as written by a hook; matching ignores ASCII case.
    pub fn parse(s: &str) -> Option<Decision> {
        const ALL: [(&str, Decision); 6] = [
            ("block", Decision::Block),
            ("deny", Decision::Deny),
            ("allow", Decision::Allow),
            ("approve", Decision::Approve),
            ("ask", Decision::Ask),
            ("defer", Decision::Defer),
        ];
        ALL.into_iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(s))
            .map(|(_, d)| d)
    }

    /// Whether this decision blocks the operation.
    pub fn is_block(self) -> bool {
        matches!(self, Decision::Block | Decision::Deny)
    }
}

/// One hook's answer (seeds/002 `HookOutput`), also the shape of the merged
/// `finalOutput`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HookOutput {
    /// The hook's decision; `None` means no decision (allow).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<Decision>,
    /// Why the hook decided as it did; the block reason when blocking.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `false` stops the agent.
    #[serde(rename = "continue", skip_serializing_if = "Option::is_none")]
    pub continue_: Option<bool>,
    /// Why the agent should stop.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// Hide the operation's output from the user.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suppress_output: Option<bool>,
    /// A message to inject into the conversation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_message: Option<String>,
    /// Event-specific data: `tool_input`, `llm_request`, `llm_response`,
    /// `toolConfig`, `additionalContext`, `permissionDecision`, …
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hook_specific_output: Option<Map<String, Value>>,
    /// Fields hookhost does not interpret, passed through.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A problem found while reading a hook's JSON answer; the answer is still used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldWarning {
    /// The offending field.
    pub field: &'static str,
    /// What was wrong with it.
    pub problem: String,
}

impl HookOutput {
    /// An output that only carries a system message (plain-text stdout, seeds/001 §4.2).
    pub fn from_plain_text(text: &str) -> HookOutput {
        let text = text.trim();
        HookOutput {
            system_message: (!text.is_empty()).then(|| text.to_owned()),
            ..HookOutput::default()
        }
    }

    /// A blocking output with the given reason.
    pub fn block(reason: impl Into<String>) -> HookOutput {
        HookOutput {
            decision: Some(Decision::Block),
            reason: Some(reason.into()),
            ..HookOutput::default()
        }
    }

    /// Reads a JSON object, keeping every well-typed field and reporting the others.
    pub fn from_json_object(mut object: Map<String, Value>) -> (HookOutput, Vec<FieldWarning>) {
        let mut warnings = Vec::new();
        let mut out = HookOutput::default();
        if let Some(v) = take_typed(&mut object, "decision", &mut warnings, |v| match v {
            Value::Null => Some(None),
            Value::String(s) => Decision::parse(s).map(Some),
            _ => None,
        }) {
            out.decision = v;
        }
        out.reason = take_typed(&mut object, "reason", &mut warnings, as_string);
        out.continue_ = take_typed(&mut object, "continue", &mut warnings, Value::as_bool);
        out.stop_reason = take_typed(&mut object, "stopReason", &mut warnings, as_string);
        out.suppress_output =
            take_typed(&mut object, "suppressOutput", &mut warnings, Value::as_bool);
        out.system_message = take_typed(&mut object, "systemMessage", &mut warnings, as_string);
        out.hook_specific_output =
            take_typed(&mut object, "hookSpecificOutput", &mut warnings, |v| {
                v.as_object().cloned()
            });
        out.extra = object;
        (out, warnings)
    }

    /// Whether this output blocks: a blocking `decision`, or, without one, a blocking
    /// `hookSpecificOutput.permissionDecision` (the Claude Code compatibility field).
    pub fn is_block(&self) -> bool {
        self.effective_decision().is_some_and(Decision::is_block)
    }

    /// The top-level decision, or the compatibility `permissionDecision` when the
    /// top-level one is absent.
    pub fn effective_decision(&self) -> Option<Decision> {
        self.decision.or_else(|| {
            self.specific("permissionDecision")
                .and_then(Value::as_str)
                .and_then(Decision::parse)
        })
    }

    /// The reason for a block: `reason`, else `permissionDecisionReason`.
    pub fn effective_reason(&self) -> Option<&str> {
        self.reason.as_deref().or_else(|| {
            self.specific("permissionDecisionReason")
                .and_then(Value::as_str)
        })
    }

    /// Whether this output stops the agent (`continue: false`).
    pub fn stops(&self) -> bool {
        self.continue_ == Some(false)
    }

    /// A field of `hookSpecificOutput`.
    pub fn specific(&self, key: &str) -> Option<&Value> {
        self.hook_specific_output.as_ref()?.get(key)
    }

    /// Sets a field of `hookSpecificOutput`.
    pub fn set_specific(&mut self, key: &str, value: Value) {
        self.hook_specific_output
            .get_or_insert_with(Map::new)
            .insert(key.to_owned(), value);
    }

    /// The output as a JSON value.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

fn as_string(v: &Value) -> Option<String> {
    v.as_str().map(str::to_owned)
}

/// Removes `key` and converts it; a present value that does not convert is reported.
/// JSON `null` counts as absent.
fn take_typed<T>(
    object: &mut Map<String, Value>,
    key: &'static str,
    warnings: &mut Vec<FieldWarning>,
    convert: impl FnOnce(&Value) -> Option<T>,
) -> Option<T> {
    let value = object.remove(key)?;
    if value.is_null() && key != "decision" {
        return None;
    }
    let converted = convert(&value);
    if converted.is_none() {
        warnings.push(FieldWarning {
            field: key,
            problem: format!("ignored: unexpected value {}", truncate_json(&value)),
        });
    }
    converted
}

fn truncate_json(value: &Value) -> String {
    crate::text::clip(&value.to_string(), 81).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(v: Value) -> (HookOutput, Vec<FieldWarning>) {
        HookOutput::from_json_object(v.as_object().cloned().unwrap())
    }

    #[test]
    fn well_typed_fields_are_kept_and_unknown_ones_pass_through() {
        let (out, warnings) = parse(json!({
            "decision": "Deny", "reason": "no", "continue": false, "stopReason": "s",
            "suppressOutput": true, "systemMessage": "m",
            "hookSpecificOutput": {"tool_input": {"a": 1}}, "custom": [1]
        }));
        assert!(warnings.is_empty());
        assert!(out.is_block());
        assert!(out.stops());
        assert_eq!(out.extra.get("custom"), Some(&json!([1])));
        let back = out.to_value();
        assert_eq!(back["decision"], "deny");
        assert_eq!(back["continue"], false);
        assert_eq!(back["custom"], json!([1]));
    }

    #[test]
    fn wrong_types_are_dropped_with_a_warning() {
        let (out, warnings) = parse(json!({"decision": "maybe", "continue": "no", "reason": "r"}));
        assert_eq!(out.decision, None);
        assert_eq!(out.continue_, None);
        assert_eq!(out.reason.as_deref(), Some("r"));
        let fields: Vec<_> = warnings.iter().map(|w| w.field).collect();
        assert_eq!(fields, ["decision", "continue"]);
    }

    #[test]
    fn permission_decision_counts_when_decision_is_absent() {
        let (out, _) = parse(json!({"hookSpecificOutput": {
            "permissionDecision": "deny", "permissionDecisionReason": "why"}}));
        assert!(out.is_block());
        assert_eq!(out.effective_reason(), Some("why"));
        let (out, _) = parse(json!({"decision": "allow",
            "hookSpecificOutput": {"permissionDecision": "deny"}}));
        assert!(!out.is_block(), "the top-level decision wins");
    }
}
