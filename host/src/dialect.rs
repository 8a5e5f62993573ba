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

/// Claude Code event names and the events they are (Claude Code's hooks reference).
pub const CLAUDE_EVENTS: [(&str, HookEvent); 16] = [
    ("PreToolUse", HookEvent::BeforeTool),
    ("PostToolUse", HookEvent::AfterTool),
    ("UserPromptSubmit", HookEvent::BeforeAgent),
    ("Stop", HookEvent::AfterAgent),
    ("PreCompact", HookEvent::PreCompress),
    ("SessionStart", HookEvent::SessionStart),
    ("SessionEnd", HookEvent::SessionEnd),
    ("Notification", HookEvent::Notification),
    ("PermissionRequest", HookEvent::PermissionRequest),
    ("PermissionDenied", HookEvent::PermissionDenied),
    ("PostToolUseFailure", HookEvent::PostToolUseFailure),
    ("SubagentStart", HookEvent::SubagentStart),
    ("SubagentStop", HookEvent::SubagentStop),
    ("Setup", HookEvent::Setup),
    ("StopFailure", HookEvent::StopFailure),
    ("PostCompact", HookEvent::PostCompact),
];

/// Further events of Claude Code's hooks reference that hookhost runs with generic
/// semantics ([`HookEvent::Other`]: OR-merged answers, no matcher translation).
pub const CLAUDE_GENERIC_EVENTS: [&str; 13] = [
    "PostToolBatch",
    "UserPromptExpansion",
    "Elicitation",
    "ElicitationResult",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "InstructionsLoaded",
    "CwdChanged",
    "FileChanged",
    "ConfigChange",
    "WorktreeCreate",
    "WorktreeRemove",
];

/// LLxprt/Gemini tool names and their Claude Code counterparts: every built-in tool
/// of Claude Code's tools reference. Claude tools without an LLxprt counterpart get a
/// snake_case name in the LLxprt dialect, chosen so that the usual LLxprt matchers
/// see them (`write_file|replace|edit` matches `multi_edit` and `notebook_edit`).
/// The table is one-to-one, so names round-trip. MCP tools (`mcp__server__tool`)
/// have the same name in both dialects.
pub const TOOL_NAMES: [(&str, &str); 29] = [
    ("write_file", "Write"),
    ("replace", "Edit"),
    ("multi_edit", "MultiEdit"),
    ("notebook_edit", "NotebookEdit"),
    ("notebook_read", "NotebookRead"),
    ("read_file", "Read"),
    ("run_shell_command", "Bash"),
    ("bash_output", "BashOutput"),
    ("kill_shell", "KillShell"),
    ("kill_bash", "KillBash"),
    ("glob", "Glob"),
    ("search_file_content", "Grep"),
    ("list_directory", "LS"),
    ("web_fetch", "WebFetch"),
    ("google_web_search", "WebSearch"),
    ("write_todos", "TodoWrite"),
    ("todo_read", "TodoRead"),
    ("task", "Task"),
    ("agent", "Agent"),
    ("task_create", "TaskCreate"),
    ("task_update", "TaskUpdate"),
    ("task_get", "TaskGet"),
    ("task_list", "TaskList"),
    ("task_output", "TaskOutput"),
    ("task_stop", "TaskStop"),
    ("exit_plan_mode", "ExitPlanMode"),
    ("enter_plan_mode", "EnterPlanMode"),
    ("ask_user_question", "AskUserQuestion"),
    ("skill", "Skill"),
];

/// Claude Code tools that keep their name in the LLxprt dialect.
const CLAUDE_SAME_NAME: [&str; 3] = [
    "SlashCommand",
    "ListMcpResourcesTool",
    "ReadMcpResourceTool",
];

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

impl Dialect {
    /// The event's name in this dialect (`None`: Claude Code has no such event).
    pub fn event_name(self, event: HookEvent) -> Option<&'static str> {
        match self {
            Dialect::Llxprt => HookEvent::ALL.contains(&event).then(|| event.as_str()),
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

    /// A note when the input names a tool this dialect does not know: it is passed
    /// on under its own name, so a policy author should see that no translation
    /// happened (a matcher written for the usual names may not see it).
    pub fn unknown_tool_note(self, input: &Map<String, Value>) -> Option<String> {
        let Some(Value::String(tool)) = input.get("tool_name") else {
            return None;
        };
        let known = match self {
            Dialect::Llxprt => return None,
            Dialect::Claude => {
                tool.starts_with("mcp__")
                    || CLAUDE_SAME_NAME.contains(&tool.as_str())
                    || TOOL_NAMES.iter().any(|(l, c)| c == tool || l == tool)
            }
        };
        (!known).then(|| {
            format!(
                "tool {tool:?} is not a Claude Code tool hookhost knows; hooks and matchers \
                 see it under that name, untranslated"
            )
        })
    }

    /// Plain tool names in a matcher (`Write|MultiEdit`) that are no tool of this
    /// dialect: probably a typo, or a tool hookhost does not translate. Patterns
    /// (anything but letters, digits and `_`) are not judged.
    pub fn unknown_matcher_names(self, matcher: &str) -> Vec<String> {
        if self != Dialect::Claude {
            return Vec::new();
        }
        matcher
            .split('|')
            .map(str::trim)
            .filter(|name| {
                !name.is_empty()
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && !name.starts_with("mcp__")
                    && !CLAUDE_SAME_NAME.contains(name)
                    && !TOOL_NAMES.iter().any(|(_, c)| c == name)
            })
            .map(str::to_owned)
            .collect()
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

    /// The answer a hook's plain-text stdout (exit 0) stands for: Claude Code adds
    /// it to the model's context on SessionStart, Setup and UserPromptSubmit; else
    /// it is a message to the user (seeds/001 §4.2).
    pub fn plain_text_output(self, event: HookEvent, text: &str) -> HookOutput {
        let as_context = self == Dialect::Claude
            && matches!(
                event,
                HookEvent::SessionStart | HookEvent::BeforeAgent | HookEvent::Setup
            );
        if as_context {
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
            parse_event("SubagentStop"),
            Some((HookEvent::SubagentStop, Dialect::Claude))
        );
        assert_eq!(
            Dialect::Claude.event_name(HookEvent::PermissionRequest),
            Some("PermissionRequest")
        );
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

    #[test]
    fn tool_names_round_trip_and_unknown_tools_are_noted() {
        for (llxprt, claude) in TOOL_NAMES {
            assert_eq!(Dialect::Claude.tool_name(llxprt), claude);
            assert_eq!(Dialect::Claude.to_llxprt_tool_name(claude), llxprt);
        }
        let input = |tool: &str| {
            let mut map = Map::new();
            map.insert("tool_name".into(), Value::from(tool));
            map
        };
        assert!(
            Dialect::Claude
                .unknown_tool_note(&input("MultiEdit"))
                .is_none()
        );
        assert!(
            Dialect::Claude
                .unknown_tool_note(&input("mcp__x__y"))
                .is_none()
        );
        let note = Dialect::Claude.unknown_tool_note(&input("FrobnicateFile"));
        assert!(note.is_some_and(|n| n.contains("FrobnicateFile")));
    }
}
