//! Claude Code's form of a merged result: the JSON a Claude hook answers per event
//! (see the table in [`super::answer`]), or where Claude has no JSON form for a
//! command hook, the path alone (WorktreeCreate) or an exit-2 block.

use serde_json::{Map, Value};

use super::Dialect;
use crate::event::HookEvent;
use crate::output::Decision;
use crate::result::AggregatedHookResult;

/// How the answer reaches the agent.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Channel {
    /// A command hook: stdout, stderr and an exit code.
    Process,
    /// An HTTP hook: a JSON body only.
    Http,
}

/// What to answer.
pub(super) enum Answer {
    /// Exit 0 with this JSON on stdout.
    Json(Value),
    /// Exit 0 with this text on stdout (WorktreeCreate's path).
    Plain(String),
    /// Exit 2 with this reason on stderr.
    Block(String),
}

/// Claude Code's answer for `event` (`name`: the event's name as the agent gave it).
pub(super) fn claude_answer(
    event: HookEvent,
    name: &str,
    result: &AggregatedHookResult,
    channel: Channel,
) -> Answer {
    let out = &result.final_output;
    let blocked = result.is_blocked();
    let reason = result
        .block_reason()
        .unwrap_or("blocked by a hookhost hook")
        .to_owned();
    let mut answer = Map::new();
    let mut specific = Map::new();
    match event {
        HookEvent::BeforeTool => pre_tool_use(result, &mut specific),
        HookEvent::PermissionRequest => permission_request(result, &reason, &mut specific),
        HookEvent::AfterTool
        | HookEvent::BeforeAgent
        | HookEvent::AfterAgent
        | HookEvent::SubagentStop
            if blocked =>
        {
            answer.insert("decision".into(), Value::from("block"));
            answer.insert("reason".into(), Value::from(reason.as_str()));
        }
        HookEvent::WorktreeCreate if !blocked && channel == Channel::Process => {
            // A command hook answers with the path alone (Claude 2.1.331; an HTTP
            // hook with `hookSpecificOutput.worktreePath`).
            if let Some(path) = out.specific("worktreePath").and_then(Value::as_str) {
                return Answer::Plain(path.to_owned());
            }
        }
        _ if blocked && channel == Channel::Process => return Answer::Block(reason),
        // No JSON form of a block in Claude's reference for this event, and no exit
        // code over HTTP: the generic decision is the one way left to say it.
        _ if blocked => {
            answer.insert("decision".into(), Value::from("block"));
            answer.insert("reason".into(), Value::from(reason.as_str()));
        }
        _ => {}
    }
    common_fields(result, &mut answer, &mut specific);
    if !specific.is_empty() {
        let event_name = Dialect::Claude.event_name(event).unwrap_or(name);
        specific.insert("hookEventName".into(), Value::from(event_name));
        answer.insert("hookSpecificOutput".into(), Value::Object(specific));
    }
    Answer::Json(Value::Object(answer))
}

/// PreToolUse: the decision (deny > defer > ask > allow) with its reason, and the
/// rewritten input unless blocked.
fn pre_tool_use(result: &AggregatedHookResult, specific: &mut Map<String, Value>) {
    let out = &result.final_output;
    let decision = match out.effective_decision() {
        Some(d) if d.is_block() => Some("deny"),
        Some(Decision::Defer) => Some("defer"),
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
    if !result.is_blocked()
        && let Some(tool_input) = result.tool_input()
    {
        specific.insert("updatedInput".into(), tool_input.clone());
    }
}

/// PermissionRequest: `decision: {behavior, message | updatedInput}`.
fn permission_request(
    result: &AggregatedHookResult,
    reason: &str,
    specific: &mut Map<String, Value>,
) {
    let mut decision = Map::new();
    match result.final_output.effective_decision() {
        Some(d) if d.is_block() => {
            decision.insert("behavior".into(), Value::from("deny"));
            decision.insert("message".into(), Value::from(reason));
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

/// The fields every event answers: a stop, `suppressOutput`, `systemMessage`,
/// `additionalContext`, and the event's other answer fields as the hooks gave them.
fn common_fields(
    result: &AggregatedHookResult,
    answer: &mut Map<String, Value>,
    specific: &mut Map<String, Value>,
) {
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
    // Every other answer field of the event (`updatedToolOutput`, `action`,
    // `watchPaths`, `sessionTitle`, `retry`, …) as the hooks gave it, later hooks
    // winning, as Claude's own "last write wins".
    let out = &result.final_output;
    for (key, value) in out.hook_specific_output.iter().flatten() {
        if !specific.contains_key(key) && !NOT_PASSED_ON.contains(&key.as_str()) {
            specific.insert(key.clone(), value.clone());
        }
    }
}

/// `hookSpecificOutput` keys that are not passed on as they are: hookhost's
/// own (LLxprt) fields, and Claude's that [`claude_answer`] writes itself from the
/// merged result.
const NOT_PASSED_ON: [&str; 10] = [
    "hookEventName",
    "tool_input",
    "llm_request",
    "llm_response",
    "toolConfig",
    "clearContext",
    "updatedInput",
    "permissionDecision",
    "permissionDecisionReason",
    "decision",
];
