//! What a fire takes: the event — a [`HookEvent`] or the name an agent gave it —
//! and the input, moved in or borrowed.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::event::HookEvent;

/// The event a fire is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FireEvent<'a> {
    /// An event hookhost knows.
    Known(HookEvent),
    /// An event name as an agent gave it, in either dialect, or a name hookhost
    /// does not know ([`HookEvent::Other`]).
    Named(&'a str),
}

impl From<HookEvent> for FireEvent<'_> {
    fn from(event: HookEvent) -> Self {
        FireEvent::Known(event)
    }
}

impl<'a> From<&'a str> for FireEvent<'a> {
    fn from(name: &'a str) -> Self {
        FireEvent::Named(name)
    }
}

/// The event an agent's call fires: a name hookhost does not know as the agent
/// gave it, any other as its event.
impl<'a> From<&'a crate::dialect::AgentCall> for FireEvent<'a> {
    fn from(call: &'a crate::dialect::AgentCall) -> Self {
        match call.event() {
            HookEvent::Other => FireEvent::Named(call.name()),
            event => FireEvent::Known(event),
        }
    }
}

/// The input of a fire: owned, or borrowed and cloned only when a hook matches.
#[derive(Debug, Clone)]
pub struct FireInput<'a>(Cow<'a, Map<String, Value>>);

impl FireInput<'_> {
    pub(super) fn as_map(&self) -> &Map<String, Value> {
        &self.0
    }

    pub(super) fn to_mut(&mut self) -> &mut Map<String, Value> {
        self.0.to_mut()
    }

    pub(super) fn into_owned(self) -> Map<String, Value> {
        self.0.into_owned()
    }
}

impl From<Map<String, Value>> for FireInput<'_> {
    fn from(input: Map<String, Value>) -> Self {
        FireInput(Cow::Owned(input))
    }
}

impl<'a> From<&'a Map<String, Value>> for FireInput<'a> {
    fn from(input: &'a Map<String, Value>) -> Self {
        FireInput(Cow::Borrowed(input))
    }
}
