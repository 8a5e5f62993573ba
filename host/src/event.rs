//! The eleven lifecycle events, their wire names, and which input field (if any)
//! their matchers are tested against.

use std::fmt;
use std::str::FromStr;

/// A lifecycle event of the agent at which hooks fire (seeds/002 `HookEventName`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
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
}

impl HookEvent {
    /// Every event, in a fixed order; `event as usize` indexes this array.
    pub const ALL: [HookEvent; 11] = [
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
    ];

    /// The event's name on the wire and in settings files.
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
        }
    }

    /// Whether the event's input carries a `tool_name`, which matchers are tested
    /// against as a regex (seeds/001 §3.3: model events have no matcher).
    pub const fn has_tool_name(self) -> bool {
        matches!(self, HookEvent::BeforeTool | HookEvent::AfterTool)
    }

    /// The input field a `matcher` selects on: `tool_name` (a regex), or, compared
    /// exactly as both reference planners do, SessionStart's `source`, SessionEnd's
    /// `reason` and PreCompress's `trigger`. `None`: the event has no matcher.
    pub const fn matcher_field(self) -> Option<&'static str> {
        match self {
            HookEvent::BeforeTool | HookEvent::AfterTool => Some("tool_name"),
            HookEvent::SessionStart => Some("source"),
            HookEvent::SessionEnd => Some("reason"),
            HookEvent::PreCompress => Some("trigger"),
            _ => None,
        }
    }

    /// The position of the event in [`HookEvent::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for HookEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error for a name that is none of the eleven events.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown event {0:?} (expected one of: {names})", names = event_names())]
pub struct UnknownEvent(pub String);

fn event_names() -> String {
    HookEvent::ALL.map(HookEvent::as_str).join(", ")
}

impl FromStr for HookEvent {
    type Err = UnknownEvent;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        HookEvent::ALL
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
        for (i, event) in HookEvent::ALL.into_iter().enumerate() {
            assert_eq!(event.index(), i);
            assert_eq!(event.as_str().parse::<HookEvent>(), Ok(event));
        }
        let err = "BeforeTools".parse::<HookEvent>().unwrap_err();
        assert!(err.to_string().contains("BeforeTools"));
    }
}
