//! `prompt` hooks: an LLM judges the call. The hook's `prompt`, with `$ARGUMENTS`
//! replaced by the input JSON (appended when the prompt does not say where), is
//! sent as one completion request; the model is told to answer only `{"ok": true}`
//! or `{"ok": false, "reason": "…"}` (a ```json fence around it is forgiven).
//! `ok: true` allows without an answer, `ok: false` blocks with the reason, and
//! anything else — prose, other JSON, an API error, no endpoint — is a failed hook
//! naming what came back, so its `failurePolicy` decides.
//!
//! The endpoint is the user's choice, never a repository's: `tools.hookModel` of
//! the user's own settings ([`crate::config::HookModel`]), else
//! `ANTHROPIC_BASE_URL` / `ANTHROPIC_API_KEY`, else `OPENAI_BASE_URL` /
//! `OPENAI_API_KEY` from the environment. The model: the hook's `model`, else
//! `tools.hookModel.model`, else [`DEFAULT_ANTHROPIC_MODEL`] or
//! [`DEFAULT_OPENAI_MODEL`] — each provider's small fast model, since a hook's
//! verdict sits in the path of every matching call (Claude Code runs its prompt
//! hooks on a small fast model too).
//!
//! [`endpoint`] resolves the endpoint and speaks each provider's format; this file
//! runs the hook and turns the verdict into an outcome.

mod endpoint;

use std::time::Duration;

use super::{Captured, HookFailure, RawOutcome, RunContext, Status, web};
use crate::config::PromptConfig;
use endpoint::{Endpoint, Verdict};

/// The model of a prompt hook on an Anthropic endpoint that names none.
pub const DEFAULT_ANTHROPIC_MODEL: &str = "claude-haiku-4-5";
/// The model of a prompt hook on an OpenAI endpoint that names none.
pub const DEFAULT_OPENAI_MODEL: &str = "gpt-4o-mini";

/// Asks the model.
pub async fn run(
    config: &PromptConfig,
    timeout: Duration,
    input: &[u8],
    ctx: &RunContext,
) -> RawOutcome {
    if let Err(e) = web::available() {
        return RawOutcome::failed(e.failure(timeout));
    }
    let start = std::time::Instant::now();
    let endpoint = match Endpoint::resolve(ctx.hook_model.as_ref(), config, |n| std::env::var_os(n))
    {
        Ok(endpoint) => endpoint,
        Err(problem) => return RawOutcome::failed(HookFailure::NotRun(problem.to_string())),
    };
    let request = endpoint.request(&prompt_text(&config.prompt, input));
    let result = match endpoint.headers() {
        Ok(headers) => web::post(&endpoint.url, headers, request, timeout, ctx.output_cap)
            .await
            .map_err(|e| e.failure(timeout))
            .and_then(|body| {
                endpoint
                    .verdict(&body.bytes)
                    .map_err(|e| HookFailure::Request(e.to_string()))
            }),
        Err(problem) => Err(HookFailure::Request(problem.to_string())),
    };
    let (status, stderr) = match result {
        Ok(Verdict::Ok) => (Status::Exited(0), Captured::default()),
        // A block is reported as a command's exit 2 with the reason on stderr: the
        // one form `interpret` turns into a block with that reason in every event
        // and dialect, untouched by a dialect's reading of exit-0 JSON (where a
        // `decision` means different things per event, or nothing).
        Ok(Verdict::Block(reason)) => {
            let mut stderr = Captured::default();
            stderr.push(reason.as_bytes(), reason.len());
            (Status::Exited(2), stderr)
        }
        Err(failure) => (Status::Failed(failure), Captured::default()),
    };
    RawOutcome {
        status,
        stdout: Captured::default(),
        stderr,
        duration: start.elapsed(),
        queued: Duration::ZERO,
        fuel_used: None,
        logs: Default::default(),
    }
}

/// The user message: the prompt with `$ARGUMENTS` replaced by the input JSON, or
/// followed by it when the prompt does not place it (a verdict without the call
/// it judges would be a guess).
fn prompt_text(prompt: &str, input: &[u8]) -> String {
    let input = String::from_utf8_lossy(input);
    if prompt.contains("$ARGUMENTS") {
        prompt.replace("$ARGUMENTS", &input)
    } else {
        format!("{prompt}\n\n{input}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_replaced_or_appended() {
        assert_eq!(
            prompt_text("check $ARGUMENTS now", b"{\"a\":1}"),
            "check {\"a\":1} now"
        );
        assert_eq!(prompt_text("check", b"{}"), "check\n\n{}");
    }
}
