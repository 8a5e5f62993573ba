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
    /// An event name hookhost does not know (Claude Code or Gemini CLI may have added
    /// it): generic semantics, hooks keyed by the name as written.
    Other,
}

/// The number of [`HookEvent`] variants.
pub const EVENT_COUNT: usize = 20;

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
    /// `reason` and PreCompress's `trigger`; Claude Code's Notification
    /// `notification_type`, subagents' `agent_type`, Setup's and PostCompact's
    /// `trigger`, StopFailure's `error`. `None`: the event has no matcher.
    pub const fn matcher_field(self) -> Option<&'static str> {
        match self {
            HookEvent::BeforeTool
            | HookEvent::AfterTool
            | HookEvent::PermissionRequest
            | HookEvent::PermissionDenied
            | HookEvent::PostToolUseFailure
            | HookEvent::Other => Some("tool_name"),
            HookEvent::SessionStart => Some("source"),
            HookEvent::SessionEnd => Some("reason"),
            HookEvent::PreCompress | HookEvent::Setup | HookEvent::PostCompact => Some("trigger"),
            HookEvent::Notification => Some("notification_type"),
            HookEvent::SubagentStart | HookEvent::SubagentStop => Some("agent_type"),
            HookEvent::StopFailure => Some("error"),
            _ => None,
        }
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
