//! The merged result of a fire, written as one Claude Code hook's answer.
//!
//! Claude Code reads JSON on exit 0, so every field is kept: `continue`,
//! `stopReason`, `suppressOutput`, `systemMessage`, and per event
//!
//! | event | block | other fields |
//! |---|---|---|
//! | PreToolUse | `permissionDecision: "deny"` + `permissionDecisionReason` | `allow`/`ask`, `updatedInput`, `additionalContext` |
//! | PermissionRequest | `decision: {behavior: "deny", message}` | `behavior: "allow"`, `updatedInput` |
//! | PostToolUse, UserPromptSubmit, Stop, SubagentStop | `decision: "block"` + `reason` | `additionalContext` |
//! | SessionStart, Setup, SubagentStart, PostToolUseFailure, Notification | — | `additionalContext` |
//!
//! Where Claude has no JSON form of a block (the last row, and the other events),
//! a block is exit 2 with the reason on stderr, as a Claude hook would do it.

use hookhost::{AggregatedHookResult, Decision, HookEvent};
use serde_json::{Map, Value};

use hookhost::dialect::Dialect;

/// What to answer.
pub enum Answer {
    /// Exit 0 with this JSON on stdout.
    Json(Value),
    /// Exit 2 with this reason on stderr.
    Block(String),
}

/// Claude Code's answer for `event` (`name`: the event's name as the agent gave it).
pub fn claude_answer(event: HookEvent, name: &str, result: &AggregatedHookResult) -> Answer {
    let out = &result.final_output;
    let blocked = result.is_blocked();
    let reason = result
        .block_reason()
        .unwrap_or("blocked by a hookhost hook")
        .to_owned();
    let mut answer = Map::new();
    let mut specific = Map::new();
    match event {
        HookEvent::BeforeTool => {
            let decision = match out.effective_decision() {
                Some(d) if d.is_block() => Some("deny"),
                Some(Decision::Ask) => Some("ask"),
                Some(_) => Some("allow"),
                None => None,
            };
            if let Some(decision) = decision {
                specific.insert("permissionDecision".into(), Value::from(decision));
                if let Some(reason) = out.effective_reason() {
                    specific.insert("permissionDecisionReason".into(), Value::from(reason));
                }
            }
            if !blocked && let Some(tool_input) = result.tool_input() {
                specific.insert("updatedInput".into(), tool_input.clone());
            }
        }
        HookEvent::PermissionRequest => {
            let mut decision = Map::new();
            match out.effective_decision() {
                Some(d) if d.is_block() => {
                    decision.insert("behavior".into(), Value::from("deny"));
                    decision.insert("message".into(), Value::from(reason.as_str()));
                }
                Some(Decision::Allow | Decision::Approve) => {
                    decision.insert("behavior".into(), Value::from("allow"));
                    if let Some(tool_input) = result.tool_input() {
                        decision.insert("updatedInput".into(), tool_input.clone());
                    }
                }
                _ => {}
            }
            if !decision.is_empty() {
                specific.insert("decision".into(), Value::Object(decision));
            }
        }
        HookEvent::AfterTool
        | HookEvent::BeforeAgent
        | HookEvent::AfterAgent
        | HookEvent::SubagentStop
            if blocked =>
        {
            answer.insert("decision".into(), Value::from("block"));
            answer.insert("reason".into(), Value::from(reason.as_str()));
        }
        _ if blocked => return Answer::Block(reason),
        _ => {}
    }
    if result.should_stop() {
        answer.insert("continue".into(), Value::Bool(false));
        if let Some(reason) = result.stop_reason() {
            answer.insert("stopReason".into(), Value::from(reason));
        }
    }
    if result.suppress_output() {
        answer.insert("suppressOutput".into(), Value::Bool(true));
    }
    if let Some(message) = result.system_message() {
        answer.insert("systemMessage".into(), Value::from(message));
    }
    if let Some(context) = result.additional_context() {
        specific.insert("additionalContext".into(), Value::from(context));
    }
    if !specific.is_empty() {
        let event_name = Dialect::Claude.event_name(event).unwrap_or(name);
        specific.insert("hookEventName".into(), Value::from(event_name));
        answer.insert("hookSpecificOutput".into(), Value::Object(specific));
    }
    Answer::Json(Value::Object(answer))
}
