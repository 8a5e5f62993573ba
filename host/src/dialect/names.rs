//! The names of the two dialects: Claude Code's events and tools and their
//! LLxprt counterparts, and what hookhost says about names it does not know.

use serde_json::{Map, Value};

use super::Dialect;
use crate::event::HookEvent;

pub use crate::event::CLAUDE_EVENTS;

/// Codex's patch tool, by its name in either dialect (the names are the same): an
/// `Edit`/`Write` rule and matcher cover it.
pub(crate) const APPLY_PATCH: &str = "apply_patch";

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

/// Names other agents that speak Claude's dialect send for a tool of the table,
/// read as that tool (one way: answers keep Claude's name): Factory Droid's shell
/// tool is `Execute` (`{command, summary, riskLevel, riskLevelReason}`) and its
/// new-file tool `Create` (`{file_path, content}`), so a policy written for
/// `Bash` / `run_shell_command` or `Write` sees them (measured, Droid 0.225.2).
const CLAUDE_ALIASES: [(&str, &str); 2] =
    [("run_shell_command", "Execute"), ("write_file", "Create")];

/// Claude Code tools that keep their name in the LLxprt dialect.
const CLAUDE_SAME_NAME: [&str; 3] = [
    "SlashCommand",
    "ListMcpResourcesTool",
    "ReadMcpResourceTool",
];

impl Dialect {
    /// The event's name in this dialect (`None`: Claude Code has no such event).
    pub fn event_name(self, event: HookEvent) -> Option<&'static str> {
        match self {
            Dialect::Llxprt => HookEvent::LLXPRT.contains(&event).then(|| event.as_str()),
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
                .chain(CLAUDE_ALIASES.iter())
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

    /// Warnings for plain tool names in a tool event's matcher (`Write|MultiEdit`,
    /// `Write,Bash`) that this dialect's agents never send: the other dialect's
    /// name for a tool (`run_shell_command` in a Claude file, `Bash` in an LLxprt
    /// or Gemini file: the group never runs for that tool, and the warning names
    /// the right one), or, in a Claude file, no tool hookhost knows (a typo, or a
    /// tool hookhost does not translate). Patterns (anything but letters, digits
    /// and `_`) and other events' matchers are not judged.
    pub fn matcher_name_warnings(self, event: HookEvent, matcher: &str) -> Vec<String> {
        if !event.has_tool_name() {
            return Vec::new();
        }
        let plain = |name: &&str| {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with("mcp__")
        };
        match self {
            Dialect::Claude => matcher
                .split(['|', ','])
                .map(str::trim)
                .filter(plain)
                .filter(|name| {
                    !CLAUDE_SAME_NAME.contains(name) && !TOOL_NAMES.iter().any(|(_, c)| c == name)
                })
                .map(|name| match TOOL_NAMES.iter().find(|(l, _)| *l == name) {
                    Some((_, claude)) => format!(
                        "matcher names {name:?}, LLxprt's and Gemini CLI's name for Claude \
                         Code's {claude:?}: Claude Code sends {claude:?}, so this never \
                         selects it; write {claude:?}"
                    ),
                    None => format!(
                        "matcher names {name:?}, which is no Claude Code tool hookhost knows \
                         (known: Write, Edit, MultiEdit, Bash, …; see README)"
                    ),
                })
                .collect(),
            // LLxprt matchers are regular expressions: only a whole matcher of
            // plain names is judged, and only names that are Claude's exactly.
            Dialect::Llxprt if matcher.split('|').all(|n| plain(&n.trim())) => matcher
                .split('|')
                .map(str::trim)
                .filter_map(|name| {
                    let (llxprt, _) = TOOL_NAMES.iter().find(|(l, c)| *c == name && l != c)?;
                    // A literal selects every name containing it (seeds/001 §6.2).
                    let sent = TOOL_NAMES.iter().any(|(l, _)| l.contains(name));
                    (!sent).then(|| {
                        format!(
                            "matcher names {name:?}, Claude Code's name for {llxprt:?}: \
                             LLxprt Code and Gemini CLI send {llxprt:?}, so this never \
                             selects it; write {llxprt:?}"
                        )
                    })
                })
                .collect(),
            Dialect::Llxprt => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::parse_event;

    /// Issue 28: a matcher in the other dialect's names never selects anything
    /// its agent sends; `check` says so and names the right one.
    #[test]
    fn matchers_in_the_other_dialects_names_are_warned_about() {
        let claude =
            Dialect::Claude.matcher_name_warnings(HookEvent::BeforeTool, "run_shell_command|Bash");
        assert_eq!(claude.len(), 1, "{claude:?}");
        assert!(claude[0].contains("write \"Bash\""), "{claude:?}");
        let typo = Dialect::Claude.matcher_name_warnings(HookEvent::BeforeTool, "Bsh");
        assert!(typo[0].contains("no Claude Code tool"), "{typo:?}");

        let llxprt =
            Dialect::Llxprt.matcher_name_warnings(HookEvent::BeforeTool, "Bash|write_file|Write");
        assert_eq!(llxprt.len(), 2, "{llxprt:?}");
        assert!(
            llxprt[0].contains("write \"run_shell_command\""),
            "{llxprt:?}"
        );
        assert!(llxprt[1].contains("write \"write_file\""), "{llxprt:?}");
        // Regular expressions, LLxprt's own names and tool-less events are not judged.
        for (event, matcher) in [
            (HookEvent::BeforeTool, "Bash.*"),
            (HookEvent::BeforeTool, "run_shell_command|replace"),
            (HookEvent::BeforeTool, "mcp__github__.*"),
            (HookEvent::SessionStart, "Bash"),
        ] {
            assert!(
                Dialect::Llxprt
                    .matcher_name_warnings(event, matcher)
                    .is_empty(),
                "{matcher}"
            );
        }
        assert!(
            Dialect::Claude
                .matcher_name_warnings(HookEvent::BeforeTool, "Bash|mcp__x")
                .is_empty()
        );
    }

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
        // Factory Droid's shell tool, read as Claude's.
        assert_eq!(
            Dialect::Claude.to_llxprt_tool_name("Execute"),
            "run_shell_command"
        );
        assert_eq!(Dialect::Claude.tool_name("run_shell_command"), "Bash");
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
