//! The lifecycle events, their wire names, and which input field (if any) their
//! matchers are tested against.
//!
//! The first eleven are LLxprt Code's and Gemini CLI's events (seeds/002); the rest
//! exist only in Claude Code (a hook registers for them under their Claude name).
//! [`HookEvent::Other`] stands for every event name hookhost does not know yet, in a
//! Claude Code or Gemini CLI file: its hooks run with generic semantics, keyed by
//! the name as written (`HookSystem::fire` with the name as a `&str`).

use std::fmt;
use std::str::FromStr;

/// A lifecycle event of the agent at which hooks fire (seeds/002 `HookEventName`,
/// and Claude Code's hooks reference).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum HookEvent {
    /// Before a tool executes; hooks may block it or rewrite `tool_input`.
    BeforeTool,
    /// After a tool executed; hooks may add context or stop the agent.
    AfterTool,
    /// Before the user's prompt is processed by the agent.
    BeforeAgent,
    /// After the agent answered a prompt.
    AfterAgent,
    /// Before an LLM call; hooks may block, answer synthetically or rewrite the request.
    BeforeModel,
    /// After an LLM call; hooks may rewrite the response.
    AfterModel,
    /// Before the model chooses tools; hooks may restrict the tool set.
    BeforeToolSelection,
    /// A session started (startup, resume, clear, compress).
    SessionStart,
    /// A session ended.
    SessionEnd,
    /// Before the conversation history is compressed.
    PreCompress,
    /// The agent shows a notification.
    Notification,
    /// Claude Code: a permission dialog is about to be shown; hooks may allow or deny.
    PermissionRequest,
    /// Claude Code: the auto-mode classifier denied a tool call.
    PermissionDenied,
    /// Claude Code: a tool call failed.
    PostToolUseFailure,
    /// Claude Code: a subagent was started.
    SubagentStart,
    /// Claude Code: a subagent finished; hooks may make it continue.
    SubagentStop,
    /// Claude Code: repository setup (`--init`, `--maintenance`).
    Setup,
    /// Claude Code: a turn ended because of an API error.
    StopFailure,
    /// Claude Code: a compaction finished.
    PostCompact,
    /// Claude Code: every tool call of a batch resolved, before the next model request.
    PostToolBatch,
    /// Claude Code: a slash command or MCP prompt is about to expand into the prompt.
    UserPromptExpansion,
    /// Claude Code: lines of an assistant message are about to be shown.
    MessageDisplay,
    /// Claude Code: the model is about to be switched; hooks may deny it.
    PreModelSwitch,
    /// Claude Code: the model was switched.
    PostModelSwitch,
    /// Claude Code: a teammate of an agent team is about to go idle.
    TeammateIdle,
    /// Claude Code: a task is being created.
    TaskCreated,
    /// Claude Code: a task is being marked completed.
    TaskCompleted,
    /// Claude Code: an MCP server asks the user for input.
    Elicitation,
    /// Claude Code: the user answered an MCP elicitation.
    ElicitationResult,
    /// Claude Code: a settings file or skill changed during the session.
    ConfigChange,
    /// Claude Code: a worktree is to be created; a hook may create it and print its path.
    WorktreeCreate,
    /// Claude Code: a worktree is being removed.
    WorktreeRemove,
    /// Claude Code: a CLAUDE.md or rules file was loaded.
    InstructionsLoaded,
    /// Claude Code: the working directory changed.
    CwdChanged,
    /// Claude Code: a watched file changed.
    FileChanged,
    /// Claude Code: a directory was added to the session.
    DirectoryAdded,
    /// An event name hookhost does not know (Claude Code or Gemini CLI may have added
    /// it): generic semantics, hooks keyed by the name as written.
    Other,
}

/// The number of [`HookEvent`] variants.
pub const EVENT_COUNT: usize = 37;

impl HookEvent {
    /// The eleven LLxprt/Gemini events of seeds/002, in a fixed order; the names
    /// `hookhost fire` accepts in the LLxprt dialect.
    pub const LLXPRT: [HookEvent; 11] = {
        // The first eleven of `VARIANTS`, so the two lists cannot disagree.
        let mut all = [HookEvent::BeforeTool; 11];
        let mut i = 0;
        while i < all.len() {
            all[i] = HookEvent::VARIANTS[i];
            i += 1;
        }
        all
    };

    /// Every variant; `event as usize` indexes this array.
    pub const VARIANTS: [HookEvent; EVENT_COUNT] = [
        HookEvent::BeforeTool,
        HookEvent::AfterTool,
        HookEvent::BeforeAgent,
        HookEvent::AfterAgent,
        HookEvent::BeforeModel,
        HookEvent::AfterModel,
        HookEvent::BeforeToolSelection,
        HookEvent::SessionStart,
        HookEvent::SessionEnd,
        HookEvent::PreCompress,
        HookEvent::Notification,
        HookEvent::PermissionRequest,
        HookEvent::PermissionDenied,
        HookEvent::PostToolUseFailure,
        HookEvent::SubagentStart,
        HookEvent::SubagentStop,
        HookEvent::Setup,
        HookEvent::StopFailure,
        HookEvent::PostCompact,
        HookEvent::PostToolBatch,
        HookEvent::UserPromptExpansion,
        HookEvent::MessageDisplay,
        HookEvent::PreModelSwitch,
        HookEvent::PostModelSwitch,
        HookEvent::TeammateIdle,
        HookEvent::TaskCreated,
        HookEvent::TaskCompleted,
        HookEvent::Elicitation,
        HookEvent::ElicitationResult,
        HookEvent::ConfigChange,
        HookEvent::WorktreeCreate,
        HookEvent::WorktreeRemove,
        HookEvent::InstructionsLoaded,
        HookEvent::CwdChanged,
        HookEvent::FileChanged,
        HookEvent::DirectoryAdded,
        HookEvent::Other,
    ];

    /// The event's name on the wire and in settings files (Claude Code's name for
    /// the Claude-only events; `"Other"` for [`HookEvent::Other`], whose real name
    /// travels with its hooks).
    pub const fn as_str(self) -> &'static str {
        match self {
            HookEvent::BeforeTool => "BeforeTool",
            HookEvent::AfterTool => "AfterTool",
            HookEvent::BeforeAgent => "BeforeAgent",
            HookEvent::AfterAgent => "AfterAgent",
            HookEvent::BeforeModel => "BeforeModel",
            HookEvent::AfterModel => "AfterModel",
            HookEvent::BeforeToolSelection => "BeforeToolSelection",
            HookEvent::SessionStart => "SessionStart",
            HookEvent::SessionEnd => "SessionEnd",
            HookEvent::PreCompress => "PreCompress",
            HookEvent::Notification => "Notification",
            HookEvent::PermissionRequest => "PermissionRequest",
            HookEvent::PermissionDenied => "PermissionDenied",
            HookEvent::PostToolUseFailure => "PostToolUseFailure",
            HookEvent::SubagentStart => "SubagentStart",
            HookEvent::SubagentStop => "SubagentStop",
            HookEvent::Setup => "Setup",
            HookEvent::StopFailure => "StopFailure",
            HookEvent::PostCompact => "PostCompact",
            HookEvent::PostToolBatch => "PostToolBatch",
            HookEvent::UserPromptExpansion => "UserPromptExpansion",
            HookEvent::MessageDisplay => "MessageDisplay",
            HookEvent::PreModelSwitch => "PreModelSwitch",
            HookEvent::PostModelSwitch => "PostModelSwitch",
            HookEvent::TeammateIdle => "TeammateIdle",
            HookEvent::TaskCreated => "TaskCreated",
            HookEvent::TaskCompleted => "TaskCompleted",
            HookEvent::Elicitation => "Elicitation",
            HookEvent::ElicitationResult => "ElicitationResult",
            HookEvent::ConfigChange => "ConfigChange",
            HookEvent::WorktreeCreate => "WorktreeCreate",
            HookEvent::WorktreeRemove => "WorktreeRemove",
            HookEvent::InstructionsLoaded => "InstructionsLoaded",
            HookEvent::CwdChanged => "CwdChanged",
            HookEvent::FileChanged => "FileChanged",
            HookEvent::DirectoryAdded => "DirectoryAdded",
            HookEvent::Other => "Other",
        }
    }

    /// Whether the event exists only in Claude Code.
    pub const fn is_claude_only(self) -> bool {
        (self as usize) >= HookEvent::LLXPRT.len() && !matches!(self, HookEvent::Other)
    }

    /// Whether the event's input carries a `tool_name`, which matchers are tested
    /// against as a regex (seeds/001 §3.3: model events have no matcher).
    pub const fn has_tool_name(self) -> bool {
        matches!(
            self,
            HookEvent::BeforeTool
                | HookEvent::AfterTool
                | HookEvent::PermissionRequest
                | HookEvent::PermissionDenied
                | HookEvent::PostToolUseFailure
        )
    }

    /// The input field a `matcher` selects on: `tool_name` (a regex), or, compared
    /// exactly as both reference planners do, SessionStart's `source`, SessionEnd's
    /// `reason` and PreCompress's `trigger`; for Claude Code's events the field its
    /// hooks reference names (2.1.331: `notification_type`, `agent_type`,
    /// `trigger`, `error`, `command_name`, `to_model`, `mcp_server_name`, `source`,
    /// `load_reason`; FileChanged's `file_path`, of which the matcher sees the file
    /// name — [`HookEvent::subject`]). `None`: the event has no matcher (Claude
    /// ignores it on UserPromptSubmit, Stop, PostToolBatch, MessageDisplay, the task
    /// and teammate events, the worktree events and CwdChanged).
    pub const fn matcher_field(self) -> Option<&'static str> {
        match self {
            HookEvent::BeforeTool
            | HookEvent::AfterTool
            | HookEvent::PermissionRequest
            | HookEvent::PermissionDenied
            | HookEvent::PostToolUseFailure
            | HookEvent::Other => Some("tool_name"),
            HookEvent::SessionStart | HookEvent::ConfigChange | HookEvent::DirectoryAdded => {
                Some("source")
            }
            HookEvent::SessionEnd => Some("reason"),
            HookEvent::PreCompress | HookEvent::Setup | HookEvent::PostCompact => Some("trigger"),
            HookEvent::Notification => Some("notification_type"),
            HookEvent::SubagentStart | HookEvent::SubagentStop => Some("agent_type"),
            HookEvent::StopFailure => Some("error"),
            HookEvent::UserPromptExpansion => Some("command_name"),
            HookEvent::PreModelSwitch | HookEvent::PostModelSwitch => Some("to_model"),
            HookEvent::Elicitation | HookEvent::ElicitationResult => Some("mcp_server_name"),
            HookEvent::InstructionsLoaded => Some("load_reason"),
            HookEvent::FileChanged => Some("file_path"),
            _ => None,
        }
    }

    /// The value a matcher is tested against in `input`: the event's matcher field
    /// if it is a string — for FileChanged its file name (`.env` matches
    /// `/repo/.env`, as Claude Code tests the basename).
    pub fn subject(self, input: &serde_json::Map<String, serde_json::Value>) -> Option<&str> {
        let value = input.get(self.matcher_field()?)?.as_str()?;
        if self == HookEvent::FileChanged {
            return std::path::Path::new(value).file_name()?.to_str();
        }
        Some(value)
    }

    /// Whether a Claude Code matcher of this event may be a comma list and hold
    /// `-` and spaces in its exact names (2.1.331: every event with a matcher but
    /// StopFailure and FileChanged, whose plain matchers are `|` lists only).
    pub const fn claude_comma_lists(self) -> bool {
        self.matcher_field().is_some()
            && !matches!(
                self,
                HookEvent::StopFailure | HookEvent::FileChanged | HookEvent::Other
            )
    }

    /// The position of the event in [`HookEvent::VARIANTS`].
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for HookEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Claude Code event names and the events they are (Claude Code's hooks reference).
pub const CLAUDE_EVENTS: [(&str, HookEvent); 33] = [
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
    ("PostToolBatch", HookEvent::PostToolBatch),
    ("UserPromptExpansion", HookEvent::UserPromptExpansion),
    ("MessageDisplay", HookEvent::MessageDisplay),
    ("PreModelSwitch", HookEvent::PreModelSwitch),
    ("PostModelSwitch", HookEvent::PostModelSwitch),
    ("TeammateIdle", HookEvent::TeammateIdle),
    ("TaskCreated", HookEvent::TaskCreated),
    ("TaskCompleted", HookEvent::TaskCompleted),
    ("Elicitation", HookEvent::Elicitation),
    ("ElicitationResult", HookEvent::ElicitationResult),
    ("ConfigChange", HookEvent::ConfigChange),
    ("WorktreeCreate", HookEvent::WorktreeCreate),
    ("WorktreeRemove", HookEvent::WorktreeRemove),
    ("InstructionsLoaded", HookEvent::InstructionsLoaded),
    ("CwdChanged", HookEvent::CwdChanged),
    ("FileChanged", HookEvent::FileChanged),
    ("DirectoryAdded", HookEvent::DirectoryAdded),
];

/// The error for a name that is none of the eleven events.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown event {0:?} (expected one of: {names}){hint}", names = event_names(), hint = did_you_mean(.0))]
pub struct UnknownEvent(pub String);

fn event_names() -> String {
    HookEvent::LLXPRT.map(HookEvent::as_str).join(", ")
}

fn did_you_mean(name: &str) -> String {
    let known = HookEvent::VARIANTS[..EVENT_COUNT - 1]
        .iter()
        .map(|e| e.as_str())
        .chain(CLAUDE_EVENTS.iter().map(|(n, _)| *n));
    crate::suggest::suggestion(name, known)
        .map(|s| format!("; did you mean {s:?}?"))
        .unwrap_or_default()
}

impl FromStr for HookEvent {
    type Err = UnknownEvent;

    /// Only the eleven LLxprt/Gemini names (CONTRACT §1); Claude Code's names are
    /// read by [`crate::dialect::parse_event`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        HookEvent::LLXPRT
            .into_iter()
            .find(|event| event.as_str() == s)
            .ok_or_else(|| UnknownEvent(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_index_matches_position() {
        for (i, event) in HookEvent::LLXPRT.into_iter().enumerate() {
            assert_eq!(event.index(), i);
            assert_eq!(event.as_str().parse::<HookEvent>(), Ok(event));
        }
        for (i, event) in HookEvent::VARIANTS.into_iter().enumerate() {
            assert_eq!(event.index(), i);
        }
        let err = "BeforeTools".parse::<HookEvent>().unwrap_err();
        assert!(err.to_string().contains("BeforeTools"));
        assert!(err.to_string().contains("did you mean \"BeforeTool\""));
        // Claude-only names are not LLxprt events.
        assert!("SubagentStop".parse::<HookEvent>().is_err());
        assert!(HookEvent::SubagentStop.is_claude_only());
        assert!(!HookEvent::Notification.is_claude_only() && !HookEvent::Other.is_claude_only());
    }
}
