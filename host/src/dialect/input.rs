//! Inputs between dialects: the stdin a hook of a dialect receives, and a
//! caller's input in a dialect made canonical (LLxprt).

use serde_json::{Map, Value};

use super::Dialect;
use crate::event::HookEvent;

impl Dialect {
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

    /// What a caller that received `input` in this dialect does before firing it:
    /// [`Self::canonicalize_input`], then [`Self::unknown_tool_note`] on the result
    /// (a warning for the fire's `warnings`, if any).
    pub fn prepare_input(self, event: HookEvent, input: &mut Map<String, Value>) -> Option<String> {
        self.canonicalize_input(event, input);
        self.unknown_tool_note(input)
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
}
