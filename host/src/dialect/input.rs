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
        if let Some(Value::Object(args)) = input.get_mut("tool_input") {
            add_claude_argument_names(args);
        }
    }
}

/// Argument names of the file tools as other agents of Claude's dialect send
/// them, and Claude's names hooks read (measured: Copilot CLI 1.0.102 sends
/// `Write {path, file_text}` and `Edit {path, old_str, new_str}`, Factory Droid
/// 0.225.2 `Edit {file_path, old_str, new_str}`). Claude's name is added beside
/// the agent's, never replacing it: a rewrite a hook returns keeps the agent's.
const ARGUMENT_ALIASES: [(&str, &str); 4] = [
    ("path", "file_path"),
    ("file_text", "content"),
    ("old_str", "old_string"),
    ("new_str", "new_string"),
];

fn add_claude_argument_names(args: &mut Map<String, Value>) {
    // Only a file tool's arguments: `path` alone is also a search tool's.
    if !(args.contains_key("file_text") || args.contains_key("old_str")) {
        return;
    }
    for (theirs, claude) in ARGUMENT_ALIASES {
        if !args.contains_key(claude)
            && let Some(value) = args.get(theirs).cloned()
        {
            args.insert(claude.to_owned(), value);
        }
    }
}

#[cfg(test)]
mod argument_tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn copilot_and_droid_file_arguments_get_claudes_names() {
        let mut args = json!({"path": "/p/.env", "file_text": "K=1"});
        if let Value::Object(map) = &mut args {
            add_claude_argument_names(map);
        }
        assert_eq!(args["file_path"], "/p/.env");
        assert_eq!(args["content"], "K=1");
        assert_eq!(args["path"], "/p/.env");
        let mut args = json!({"file_path": "a", "old_str": "x", "new_str": "y"});
        if let Value::Object(map) = &mut args {
            add_claude_argument_names(map);
        }
        assert_eq!(args["old_string"], "x");
        assert_eq!(args["new_string"], "y");
        let mut search = json!({"path": "src", "pattern": "x"});
        if let Value::Object(map) = &mut search {
            add_claude_argument_names(map);
        }
        assert!(search.get("file_path").is_none());
    }
}
