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

use serde_json::{Map, Value};

use crate::event::HookEvent;
use crate::output::HookOutput;

/// The hook protocol a hook or caller speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Dialect {
    /// LLxprt Code and Gemini CLI (the contract of seeds/001).
    #[default]
    Llxprt,
    /// Claude Code.
    Claude,
}

/// Claude Code event names and the events they are.
pub const CLAUDE_EVENTS: [(&str, HookEvent); 8] = [
    ("PreToolUse", HookEvent::BeforeTool),
    ("PostToolUse", HookEvent::AfterTool),
    ("UserPromptSubmit", HookEvent::BeforeAgent),
    ("Stop", HookEvent::AfterAgent),
    ("PreCompact", HookEvent::PreCompress),
    ("SessionStart", HookEvent::SessionStart),
    ("SessionEnd", HookEvent::SessionEnd),
    ("Notification", HookEvent::Notification),
];

/// LLxprt/Gemini tool names and their Claude Code counterparts.
pub const TOOL_NAMES: [(&str, &str); 10] = [
    ("write_file", "Write"),
    ("replace", "Edit"),
    ("read_file", "Read"),
    ("run_shell_command", "Bash"),
    ("glob", "Glob"),
    ("search_file_content", "Grep"),
    ("list_directory", "LS"),
    ("web_fetch", "WebFetch"),
    ("google_web_search", "WebSearch"),
    ("write_todos", "TodoWrite"),
];

/// Parses an event name in either dialect. Names both dialects share
/// (`SessionStart`, …) are LLxprt names.
pub fn parse_event(name: &str) -> Option<(HookEvent, Dialect)> {
    if let Ok(event) = name.parse::<HookEvent>() {
        return Some((event, Dialect::Llxprt));
    }
    CLAUDE_EVENTS
        .iter()
        .find(|(claude, _)| *claude == name)
        .map(|(_, event)| (*event, Dialect::Claude))
}

impl Dialect {
    /// The event's name in this dialect (`None`: Claude Code has no such event).
    pub fn event_name(self, event: HookEvent) -> Option<&'static str> {
        match self {
            Dialect::Llxprt => Some(event.as_str()),
            Dialect::Claude => CLAUDE_EVENTS
                .iter()
                .find(|(_, e)| *e == event)
                .map(|(name, _)| *name),
        }
    }

    /// A tool name translated from the LLxprt dialect into this one; names without
    /// a counterpart are unchanged. Allocates nothing.
    pub fn tool_name(self, llxprt: &str) -> &str {
        match self {
            Dialect::Llxprt => llxprt,
            Dialect::Claude => TOOL_NAMES
                .iter()
                .find(|(l, _)| *l == llxprt)
                .map_or(llxprt, |(_, c)| *c),
        }
    }

    /// A tool name translated from this dialect into LLxprt's.
    pub fn to_llxprt_tool_name(self, name: &str) -> &str {
        match self {
            Dialect::Llxprt => name,
            Dialect::Claude => TOOL_NAMES
                .iter()
                .find(|(_, c)| *c == name)
                .map_or(name, |(l, _)| *l),
        }
    }

    /// The stdin object a hook of this dialect receives, from the canonical input.
    pub fn input_for_hook(
        self,
        event: HookEvent,
        input: &Map<String, Value>,
    ) -> Option<Map<String, Value>> {
        if self == Dialect::Llxprt {
            return None;
        }
        let mut input = input.clone();
        if let Some(name) = self.event_name(event) {
            input.insert("hook_event_name".to_owned(), Value::from(name));
        }
        if let Some(Value::String(tool)) = input.get("tool_name") {
            let translated = self.tool_name(tool).to_owned();
            input.insert("tool_name".to_owned(), Value::String(translated));
        }
        input
            .entry("permission_mode")
            .or_insert_with(|| Value::from("default"));
        Some(input)
    }

    /// Rewrites an input received in this dialect into the canonical (LLxprt) one:
    /// event name and tool name.
    pub fn canonicalize_input(self, event: HookEvent, input: &mut Map<String, Value>) {
        if self == Dialect::Llxprt {
            return;
        }
        if input.contains_key("hook_event_name") {
            input.insert("hook_event_name".to_owned(), Value::from(event.as_str()));
        }
        if let Some(Value::String(tool)) = input.get("tool_name") {
            let canonical = self.to_llxprt_tool_name(tool).to_owned();
            input.insert("tool_name".to_owned(), Value::String(canonical));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_names_map_to_events_and_back() {
        assert_eq!(
            parse_event("PreToolUse"),
            Some((HookEvent::BeforeTool, Dialect::Claude))
        );
        assert_eq!(
            parse_event("SessionStart"),
            Some((HookEvent::SessionStart, Dialect::Llxprt))
        );
        assert_eq!(parse_event("Nope"), None);
        assert_eq!(
            Dialect::Claude.event_name(HookEvent::AfterAgent),
            Some("Stop")
        );
        assert_eq!(Dialect::Claude.event_name(HookEvent::BeforeModel), None);
        assert_eq!(Dialect::Claude.tool_name("write_file"), "Write");
        assert_eq!(Dialect::Claude.tool_name("custom_tool"), "custom_tool");
        assert_eq!(
            Dialect::Claude.to_llxprt_tool_name("Bash"),
            "run_shell_command"
        );
    }
}
