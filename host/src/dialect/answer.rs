//! The merged result of a fire, answered as *one* hook of the calling agent would
//! answer (`hookhost hook`, or an embedder standing in for a hook): [`reply`] for a
//! command hook (stdout, stderr, exit code), [`reply_json`] for an HTTP hook (a JSON
//! body and nothing else).
//!
//! Failures are visible but never reach the model, in the form each agent shows
//! (tests/agents/FINDINGS.md): for Claude Code in `systemMessage` on exit 0 (its
//! headless mode never shows a non-blocking error's stderr); for Gemini CLI in
//! `systemMessage`; for LLxprt Code, which shows no `systemMessage`, exit 1 with
//! the cause on stderr when nothing else is to be said. Fail-closed turns
//! any failure into a deny naming the cause.
//!
//! For Claude Code the answer is JSON on exit 0, so every field is kept:
//! `continue`, `stopReason`, `suppressOutput`, `systemMessage`, and per event
//!
//! | event | block | other fields |
//! |---|---|---|
//! | PreToolUse | `permissionDecision: "deny"` + `permissionDecisionReason` | `allow`/`ask`, `updatedInput`, `additionalContext` |
//! | PermissionRequest | `decision: {behavior: "deny", message}` | `behavior: "allow"`, `updatedInput` |
//! | PostToolUse, UserPromptSubmit, Stop, SubagentStop | `decision: "block"` + `reason` | `additionalContext` |
//! | SessionStart, Setup, SubagentStart, PostToolUseFailure, Notification | — | `additionalContext` |
//! | WorktreeCreate | exit 2 | the path alone on stdout (`worktreePath` over HTTP) |
//!
//! Every other `hookSpecificOutput` field a hook gave (`updatedToolOutput`,
//! Elicitation's `action` and `content`, `watchPaths`, `sessionTitle`, `retry`, …)
//! is passed on, a later hook's value winning as in Claude Code; `defer` is
//! answered as `permissionDecision: "defer"` (precedence deny > defer > ask > allow).
//!
//! Where Claude has no JSON form of a block (the last row, and the other events),
//! a command hook's block is exit 2 with the reason on stderr, as a Claude hook
//! would do it. An HTTP hook has no exit code — Claude reads a non-2xx answer as a
//! non-blocking error, so the call would go ahead — so there the block is
//! `decision: "block"` + `reason` too, and a failure with nothing else to say is a
//! `systemMessage`.

use serde_json::{Map, Value};

use super::Dialect;
use super::claude_answer::{Answer, Channel, claude_answer};
use crate::event::HookEvent;
use crate::output::HookOutput;
use crate::result::AggregatedHookResult;

/// What a hook answers the agent: stdout, stderr, exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// One line of JSON for stdout, if any.
    pub stdout: Option<String>,
    /// A line for stderr (a block's reason, or a failure), if any.
    pub stderr: Option<String>,
    /// The exit code: 0, 2 (block) or 1 (Claude's non-blocking error).
    pub exit_code: u8,
}

/// The answer of one command hook of an agent speaking `dialect`, for the merged
/// `result` of a fire of `event` (`name`: the event's name as the agent gave it).
/// With `fail_closed`, any failure is a deny naming its cause.
/// `failures_by_exit_code`: the agent shows a hook that exits 1 but no
/// `systemMessage` (LLxprt Code 0.9.3), so a failure with nothing else to say is
/// answered that way; Gemini CLI shows `systemMessage` (and loses an early exit-1
/// warning: tests/agents/FINDINGS.md); Claude Code ignores this.
pub fn reply(
    event: HookEvent,
    dialect: Dialect,
    name: &str,
    result: AggregatedHookResult,
    fail_closed: bool,
    failures_by_exit_code: bool,
) -> Reply {
    let call = (event, dialect, name);
    reply_adjusted(call, result, fail_closed, failures_by_exit_code, &|_| {})
}

/// [`reply`], with `adjust` applied to a Claude-form JSON answer before it is
/// written: what the agent that asked reads differently ([`super::AgentCall`]).
pub(super) fn reply_adjusted(
    (event, dialect, name): (HookEvent, Dialect, &str),
    result: AggregatedHookResult,
    fail_closed: bool,
    failures_by_exit_code: bool,
    adjust: &dyn Fn(&mut Value),
) -> Reply {
    let (result, failures) = with_failures(result, fail_closed);
    if dialect == Dialect::Claude && event == HookEvent::WorktreeCreate {
        return worktree_reply(&result, &failures);
    }
    match dialect {
        // Claude Code shows a hook's exit-0 `systemMessage` (headless too, as a
        // `system` event) and never a non-blocking error's stderr in `-p` mode, so a
        // failure travels in `systemMessage` (tests/agents/FINDINGS.md).
        Dialect::Claude => match claude_answer(event, name, &result, Channel::Process) {
            Answer::Json(mut value) => Reply {
                stdout: Some({
                    adjust(&mut value);
                    value.to_string()
                }),
                stderr: None,
                exit_code: 0,
            },
            Answer::Plain(text) => Reply {
                stdout: Some(text),
                stderr: None,
                exit_code: 0,
            },
            Answer::Block(reason) => Reply {
                stdout: None,
                stderr: Some(reason),
                exit_code: 2,
            },
        },
        Dialect::Llxprt => {
            let blocked = result.is_blocked();
            if failures_by_exit_code
                && !failures.is_empty()
                && !blocked
                && says_nothing_else(&result.final_output)
            {
                // LLxprt Code 0.9.3 shows no `systemMessage` but warns of a hook
                // that exits 1 ("[WARNING] Hook(s) … failed").
                return Reply {
                    stdout: None,
                    stderr: Some(format!("hookhost: {}", failures.join("; "))),
                    exit_code: 1,
                };
            }
            Reply {
                stdout: Some(result.final_output.to_value().to_string()),
                stderr: blocked.then(|| {
                    result
                        .block_reason()
                        .unwrap_or("blocked by a hookhost hook")
                        .to_owned()
                }),
                exit_code: if blocked { 2 } else { 0 },
            }
        }
    }
}

/// A command hook's answer to Claude's `WorktreeCreate`: the hook *makes* the
/// worktree, and Claude reads stdout as its path, so anything but a clean success
/// — a block, a failed hook, no path at all — fails the creation (non-zero exit,
/// nothing on stdout, the cause on stderr) rather than giving Claude a JSON text
/// to take for a path (issue 37, item 4).
fn worktree_reply(result: &AggregatedHookResult, failures: &[String]) -> Reply {
    let path = result
        .final_output
        .specific("worktreePath")
        .and_then(Value::as_str)
        .filter(|p| !p.is_empty());
    let blocked = result.is_blocked();
    match path {
        Some(path) if !blocked && failures.is_empty() => Reply {
            stdout: Some(path.to_owned()),
            stderr: None,
            exit_code: 0,
        },
        _ => {
            let cause = if blocked {
                result
                    .block_reason()
                    .unwrap_or("blocked by a hookhost hook")
                    .to_owned()
            } else if !failures.is_empty() {
                format!("hookhost: {}", failures.join("; "))
            } else {
                "hookhost: no hook gave a worktree path".to_owned()
            };
            Reply {
                stdout: None,
                stderr: Some(cause),
                exit_code: if blocked { 2 } else { 1 },
            }
        }
    }
}

/// The answer of one HTTP hook (Claude Code's `"type": "http"`): the JSON body of a
/// 200 response. Everything a command hook says with its exit code is said in the
/// body: a block is always a decision (`permissionDecision: "deny"`,
/// `decision: {behavior: "deny"}` or `decision: "block"` + `reason`), a failure a
/// `systemMessage` (a deny with `fail_closed`). An LLxprt/Gemini answer is the
/// merged HookOutput, as [`reply`]'s stdout.
pub fn reply_json(
    event: HookEvent,
    dialect: Dialect,
    name: &str,
    result: AggregatedHookResult,
    fail_closed: bool,
) -> Value {
    let (result, _) = with_failures(result, fail_closed);
    match dialect {
        Dialect::Claude => match claude_answer(event, name, &result, Channel::Http) {
            Answer::Json(value) => value,
            Answer::Plain(path) => serde_json::json!({"hookSpecificOutput": {
                "hookEventName": "WorktreeCreate", "worktreePath": path,
            }}),
            // `Channel::Http` puts every block into the JSON.
            Answer::Block(reason) => serde_json::json!({"decision": "block", "reason": reason}),
        },
        Dialect::Llxprt => result.final_output.to_value(),
    }
}

/// Applies the failures of `result` (its `errors`) to its answer: with
/// `fail_closed`, a block naming them; else a note in `systemMessage`. Returns the
/// failures too.
fn with_failures(
    mut result: AggregatedHookResult,
    fail_closed: bool,
) -> (AggregatedHookResult, Vec<String>) {
    let failures = result.errors.clone();
    if fail_closed && !failures.is_empty() && !result.is_blocked() {
        // The host's verdict on a failure replaces whatever the other hooks said.
        // The runner's "(failing open)" is not true any more.
        let causes: Vec<&str> = failures
            .iter()
            .map(|f| f.trim_end_matches(" (failing open)"))
            .collect();
        result.final_output =
            HookOutput::block(format!("hookhost --fail-closed: {}", causes.join("; ")));
    } else if !failures.is_empty() {
        // Shown to the user, never to the model as a reason.
        let note = format!("hookhost: {}", failures.join("; "));
        result.final_output.system_message =
            Some(match result.final_output.system_message.take() {
                Some(message) => format!("{message}\n{note}"),
                None => note,
            });
    }
    (result, failures)
}

/// Whether an answer holds nothing but (maybe) a system message.
fn says_nothing_else(out: &HookOutput) -> bool {
    out.decision.is_none()
        && out.reason.is_none()
        && out.continue_.is_none()
        && out.stop_reason.is_none()
        && out.suppress_output.is_none()
        && out.hook_specific_output.as_ref().is_none_or(Map::is_empty)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocked(reason: &str) -> AggregatedHookResult {
        let mut result = AggregatedHookResult::empty();
        result.final_output = HookOutput::block(reason.to_owned());
        result
    }

    fn failed() -> AggregatedHookResult {
        let mut result = AggregatedHookResult::empty();
        result.errors.push("guard crashed (failing open)".into());
        result
    }

    /// A Claude PreToolUse (`pre`) or SessionStart answer: exit code of the command
    /// hook, and the HTTP hook's body.
    fn both(pre: bool, result: AggregatedHookResult, fail_closed: bool) -> (u8, Value) {
        let (event, name) = if pre {
            (HookEvent::BeforeTool, "PreToolUse")
        } else {
            (HookEvent::SessionStart, "SessionStart")
        };
        let process = reply(
            event,
            Dialect::Claude,
            name,
            result.clone(),
            fail_closed,
            true,
        );
        let http = reply_json(event, Dialect::Claude, name, result, fail_closed);
        (process.exit_code, http)
    }

    /// Over HTTP every block is a decision in the body: where a command hook would
    /// exit 2 (no JSON form in Claude's reference), the generic `decision: "block"`.
    #[test]
    fn an_http_reply_says_every_block_in_json() {
        let (code, deny) = both(true, blocked("no"), false);
        assert_eq!(code, 0);
        assert_eq!(deny["hookSpecificOutput"]["permissionDecision"], "deny");
        assert_eq!(deny["hookSpecificOutput"]["permissionDecisionReason"], "no");
        let (code, http) = both(false, blocked("later"), false);
        assert_eq!(code, 2);
        assert_eq!(http["decision"], "block");
        assert_eq!(http["reason"], "later");
        let llxprt = reply_json(
            HookEvent::BeforeTool,
            Dialect::Llxprt,
            "BeforeTool",
            blocked("x"),
            false,
        );
        assert_eq!(llxprt["decision"], "block");
    }

    /// A failure with nothing else to say: for Claude a `systemMessage` on exit 0
    /// (a command hook) and in the body (HTTP); for LLxprt Code exit 1 with the
    /// cause on stderr, for Gemini CLI a `systemMessage`; fail-closed: a deny.
    #[test]
    fn a_failure_is_reported_where_each_agent_shows_it() {
        let (code, http) = both(true, failed(), false);
        assert_eq!(code, 0);
        let process = reply(
            HookEvent::BeforeTool,
            Dialect::Claude,
            "PreToolUse",
            failed(),
            false,
            true,
        );
        let stdout: Value = serde_json::from_str(process.stdout.as_deref().unwrap()).unwrap();
        assert_eq!(stdout, http);
        let llxprt = |by_exit_code| {
            reply(
                HookEvent::BeforeTool,
                Dialect::Llxprt,
                "BeforeTool",
                failed(),
                false,
                by_exit_code,
            )
        };
        assert_eq!(llxprt(true).exit_code, 1);
        assert_eq!(
            llxprt(true).stderr.as_deref(),
            Some("hookhost: guard crashed (failing open)")
        );
        let gemini = llxprt(false);
        assert_eq!(gemini.exit_code, 0);
        assert!(
            gemini
                .stdout
                .is_some_and(|s| s.contains("guard crashed (failing open)"))
        );
        assert_eq!(
            http["systemMessage"],
            "hookhost: guard crashed (failing open)"
        );
        let (code, closed) = both(true, failed(), true);
        assert_eq!(code, 0);
        assert_eq!(closed["hookSpecificOutput"]["permissionDecision"], "deny");
        assert_eq!(
            closed["hookSpecificOutput"]["permissionDecisionReason"],
            "hookhost --fail-closed: guard crashed"
        );
    }
}
