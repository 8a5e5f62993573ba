//! Dialects: LLxprt/Gemini CLI hooks and Claude Code hooks, side by side.
//!
//! A hook registered under a Claude Code event name (`PreToolUse`, `PostToolUse`,
//! `UserPromptSubmit`, `Stop`, `PreCompact`, or `SessionStart`, `SessionEnd`,
//! `Notification` in a Claude settings file) speaks Claude's dialect: its stdin carries
//! Claude's `hook_event_name`, Claude's tool names (`Write`, `Edit`, `Bash`, …) and a
//! `permission_mode`; its matcher is tested against Claude's tool name; and its
//! Claude-only answers are understood (`hookSpecificOutput.updatedInput` is its
//! rewritten `tool_input`; `permissionDecision` is a decision everywhere anyway).
//! Internally every fire is in the LLxprt dialect; translation happens at the edges.

mod agent;
mod answer;
mod call;
mod claude_answer;
mod copilot;
mod head;
mod input;
mod names;
mod output;
mod spill;

pub use agent::{Agent, PRE_SKILL_SHELL};
pub use answer::{Reply, reply, reply_json};
pub use call::{AgentCall, CallSource, InputError, detect_event};
pub use head::{InputHead, input_head};
pub(crate) use names::APPLY_PATCH;
pub use names::{CLAUDE_EVENTS, TOOL_NAMES};
pub use spill::{CLAUDE_OUTPUT_CAP, spill_long_texts};

use crate::event::HookEvent;

/// The hook protocol a hook or caller speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Dialect {
    /// LLxprt Code and Gemini CLI (the contract of seeds/001).
    #[default]
    Llxprt,
    /// Claude Code.
    Claude,
}

/// Parses an event name in either dialect. Names both dialects share
/// (`SessionStart`, …) are LLxprt names; Claude-only events are Claude's. `None`:
/// a name hookhost does not know (see [`HookEvent::Other`]).
pub fn parse_event(name: &str) -> Option<(HookEvent, Dialect)> {
    if let Ok(event) = name.parse::<HookEvent>() {
        return Some((event, Dialect::Llxprt));
    }
    CLAUDE_EVENTS
        .iter()
        .find(|(claude, _)| *claude == name)
        .map(|(_, event)| (*event, Dialect::Claude))
}
