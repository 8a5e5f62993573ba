//! A hook's answer in its dialect, made canonical: plain text that Claude Code
//! reads as context, and Claude-only answer fields.

use serde_json::Value;

use super::Dialect;
use crate::event::HookEvent;
use crate::output::HookOutput;

impl Dialect {
    /// The answer a hook's plain-text stdout (exit 0) stands for: Claude Code adds
    /// it to the model's context on SessionStart, UserPromptSubmit,
    /// UserPromptExpansion and PostModelSwitch (2.1.331; Setup takes context only
    /// as JSON `additionalContext`), and takes it as the new worktree's
    /// path on WorktreeCreate; else it is a message to the user (seeds/001 §4.2).
    pub fn plain_text_output(self, event: HookEvent, text: &str) -> HookOutput {
        let as_context = self == Dialect::Claude
            && matches!(
                event,
                HookEvent::SessionStart
                    | HookEvent::BeforeAgent
                    | HookEvent::UserPromptExpansion
                    | HookEvent::PostModelSwitch
            );
        if self == Dialect::Claude && event == HookEvent::WorktreeCreate {
            let mut output = HookOutput::default();
            output.set_specific("worktreePath", Value::from(text.trim()));
            output
        } else if as_context {
            let mut output = HookOutput::default();
            output.set_specific("additionalContext", Value::from(text.trim()));
            output
        } else {
            HookOutput::from_plain_text(text)
        }
    }

    /// Understands dialect-specific answers: Claude's `updatedInput` is a rewritten
    /// `tool_input`.
    pub fn normalize_output(self, output: &mut HookOutput) {
        if self != Dialect::Claude {
            return;
        }
        if output.specific("tool_input").is_none()
            && let Some(updated) = output.specific("updatedInput").cloned()
        {
            output.set_specific("tool_input", updated);
        }
    }
}
