//! GitHub Copilot CLI's own hook format, beside Claude's (which Copilot CLI also
//! reads, and which `hookhost setup` writes): a `preToolUse` / `postToolUse` hook's
//! stdin is `{sessionId, timestamp, cwd, toolName, toolArgs}` (no event name;
//! `toolResult` after the call) and its answer `{"permissionDecision": "deny",
//! "permissionDecisionReason": …}` — Claude's `hookSpecificOutput` is ignored in
//! this format (measured, Copilot CLI 1.0.102). The call is read as Claude's
//! (`bash` is `Bash`, `create` `Write`, `edit` `Edit`, `view` `Read`; argument
//! names as the dialect adds them) and the answer put back in Copilot's words.

use serde_json::{Map, Value};

/// Whether `input` is a Copilot-format hook call.
pub(super) fn is_copilot(input: &Map<String, Value>) -> bool {
    !input.contains_key("hook_event_name") && input.contains_key("toolName")
}

/// The Claude-dialect input of a Copilot-format call: `PreToolUse`, or
/// `PostToolUse` when it carries the tool's result.
pub(super) fn to_claude(input: &Map<String, Value>) -> Map<String, Value> {
    let event = if input.contains_key("toolResult") {
        "PostToolUse"
    } else {
        "PreToolUse"
    };
    let tool = input
        .get("toolName")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let tool = match tool {
        "bash" => "Bash",
        "create" => "Write",
        "edit" => "Edit",
        "view" => "Read",
        other => other,
    };
    // `toolArgs` is an object; a JSON text is read as one too.
    let args = match input.get("toolArgs") {
        Some(Value::String(text)) => serde_json::from_str(text).unwrap_or(Value::Null),
        Some(args) => args.clone(),
        None => Value::Null,
    };
    let mut claude = Map::new();
    claude.insert("hook_event_name".into(), Value::from(event));
    if let Some(session) = input.get("sessionId") {
        claude.insert("session_id".into(), session.clone());
    }
    if let Some(cwd) = input.get("cwd") {
        claude.insert("cwd".into(), cwd.clone());
    }
    claude.insert("tool_name".into(), Value::from(tool));
    claude.insert(
        "tool_input".into(),
        if args.is_object() {
            args
        } else {
            Value::Object(Map::new())
        },
    );
    if let Some(result) = input.get("toolResult") {
        claude.insert("tool_response".into(), result.clone());
    }
    claude
}

/// A Claude answer in Copilot's words: the decision and reason at the top, a
/// rewrite as `modifiedArgs`, context and the user's message kept.
pub(super) fn from_claude(answer: &mut Value) {
    let Value::Object(claude) = answer else {
        return;
    };
    let specific = claude
        .get("hookSpecificOutput")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut out = Map::new();
    let blocked = claude.get("decision").and_then(Value::as_str) == Some("block");
    match specific.get("permissionDecision").and_then(Value::as_str) {
        Some(decision) => {
            out.insert("permissionDecision".into(), Value::from(decision));
            if let Some(reason) = specific.get("permissionDecisionReason") {
                out.insert("permissionDecisionReason".into(), reason.clone());
            }
        }
        None if blocked => {
            out.insert("permissionDecision".into(), Value::from("deny"));
            if let Some(reason) = claude.get("reason") {
                out.insert("permissionDecisionReason".into(), reason.clone());
            }
        }
        None => {}
    }
    if let Some(args) = specific.get("updatedInput") {
        out.insert("modifiedArgs".into(), args.clone());
    }
    if let Some(context) = specific.get("additionalContext") {
        out.insert("additionalContext".into(), context.clone());
    }
    for key in ["systemMessage", "suppressOutput"] {
        if let Some(value) = claude.get(key) {
            out.insert(key.into(), value.clone());
        }
    }
    *answer = Value::Object(out);
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_copilot_call_reads_as_claudes_and_answers_in_copilots_words() {
        let Value::Object(input) = json!({"sessionId": "s", "timestamp": 1,
            "cwd": "/p", "toolName": "bash", "toolArgs": {"command": "ls", "description": "d"}})
        else {
            return;
        };
        assert!(is_copilot(&input));
        let claude = to_claude(&input);
        assert_eq!(claude["hook_event_name"], "PreToolUse");
        assert_eq!(claude["tool_name"], "Bash");
        assert_eq!(claude["tool_input"]["command"], "ls");
        let copilot = |mut answer: Value| {
            from_claude(&mut answer);
            answer
        };
        let deny = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": "no"}});
        assert_eq!(
            copilot(deny),
            json!({"permissionDecision": "deny", "permissionDecisionReason": "no"})
        );
        let block = json!({"decision": "block", "reason": "stop"});
        assert_eq!(
            copilot(block),
            json!({"permissionDecision": "deny", "permissionDecisionReason": "stop"})
        );
        let Value::Object(text_args) =
            json!({"toolName": "create", "toolArgs": "{\"path\": \"a\", \"file_text\": \"x\"}"})
        else {
            return;
        };
        assert_eq!(to_claude(&text_args)["tool_input"]["file_text"], "x");
        assert_eq!(to_claude(&text_args)["tool_name"], "Write");
    }
}
