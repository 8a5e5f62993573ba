//! The hook's settings applied to what it did: its dialect (what its answer means
//! in the canonical form), its failure policy (fail open, or block), a prompt
//! hook's `continueOnBlock`, Claude's cap on a hook's texts, and its mode
//! (monitor-mode answers are reported, not enforced) — one step after
//! [`super::interpret`], which knows none of them.

use super::interpret::{Answer, Interpreted};
use super::runnable::RunnableHook;
use crate::config::{FailurePolicy, HookKind, HookMode};
use crate::dialect::Dialect;
use crate::output::HookOutput;
use crate::result::HookExecutionResult;

/// The reported result of `hook`'s run, with its settings applied.
pub fn apply_policy(hook: &RunnableHook, interpreted: Interpreted) -> HookExecutionResult {
    let entry = &hook.entry;
    let spec = &entry.spec;
    let success = interpreted.success();
    let mut output = match interpreted.answer {
        Answer::None => None,
        Answer::Json(mut output) => {
            if interpreted.exit_code == Some(0) {
                hook.io_dialect().normalize_output(&mut output);
            }
            Some(output)
        }
        Answer::Text(text) => Some(hook.io_dialect().plain_text_output(entry.event, &text)),
    };
    // Claude Code's cap on what one hook puts into the conversation.
    if hook.io_dialect() == Dialect::Claude
        && let Some(out) = output.as_mut()
    {
        crate::dialect::spill_long_texts(&spec.name, out);
    }
    // A prompt hook's `ok: false` that also ends the turn (Claude's default).
    if interpreted.failure.is_none()
        && let HookKind::Prompt(prompt) = &spec.kind
        && prompt.ends_turn_on_block(entry.event, hook.io_dialect() == Dialect::Claude)
        && let Some(out) = output.as_mut().filter(|o| o.is_block())
    {
        out.continue_ = Some(false);
        out.stop_reason.clone_from(&out.reason);
    }
    // Named only when it failed: the description is an allocation per run.
    let error = interpreted.failure.map(|failure| {
        let who = hook.describe();
        match spec.failure_policy {
            FailurePolicy::Allow => format!("{who} {failure} (failing open)"),
            FailurePolicy::Block => {
                output = Some(HookOutput::block(format!(
                    "{who} failed ({}) and its failurePolicy is \"block\"",
                    failure.cause
                )));
                format!("{who} {failure} (failurePolicy block)")
            }
        }
    });
    HookExecutionResult {
        hook_name: spec.name.clone(),
        hook_type: spec.type_name(),
        source: entry.source.label.clone(),
        location: entry.location(),
        at: entry.at.clone(),
        matcher: entry.matcher.as_str().to_owned(),
        monitor: spec.mode == HookMode::Monitor,
        fuel_used: interpreted.fuel_used,
        success,
        output,
        exit_code: interpreted.exit_code,
        stdout: interpreted.stdout,
        stderr: interpreted.stderr,
        duration: interpreted.duration,
        queued: interpreted.queued,
        error,
        warnings: interpreted.warnings,
        status_message: spec.status_message.clone(),
        plugin: hook.plugin_identity(),
        logs: interpreted.logs,
    }
}
