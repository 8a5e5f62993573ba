//! Typed event inputs and the stable LLM formats (seeds/002, seeds/001 §5), shared
//! with the guest SDK so that a host and its hooks agree on one definition.
//!
//! Every type round-trips fields it does not model. Build an input, turn it into
//! an event and fields with [`into_fire`], hand those to [`crate::HookSystem::fire`],
//! and read typed answers back with
//! [`crate::AggregatedHookResult::specific_as`].
//!
//! ```
//! use hookhost::input::{BeforeToolInput, HookInput};
//! let input = HookInput::BeforeTool(BeforeToolInput {
//!     tool_name: "write_file".into(),
//!     tool_input: serde_json::json!({"file_path": "a.txt"}).as_object().cloned().unwrap_or_default(),
//!     ..Default::default()
//! });
//! assert_eq!(input.event_name(), "BeforeTool");
//! ```

pub mod json;

pub use hookhost_guest::{
    AfterAgentInput, AfterModelInput, AfterToolInput, Base, BeforeAgentInput, BeforeModelInput,
    BeforeToolInput, BeforeToolSelectionInput, Candidate, CandidateContent, GenerationConfig,
    HookInput, LlmMessage, LlmRequest, LlmResponse, NotificationInput, OtherInput, Part,
    PreCompressInput, SafetyRating, SessionEndInput, SessionStartInput, ToolConfig, ToolMode,
    UsageMetadata,
};

use serde_json::{Map, Value};

use crate::event::{HookEvent, UnknownEvent};

/// Splits a typed input into its event and the JSON object a fire takes. Empty
/// base fields are dropped so the host fills them in.
pub fn into_fire(input: &HookInput) -> Result<(HookEvent, Map<String, Value>), UnknownEvent> {
    let event = input.event_name().parse::<HookEvent>()?;
    let mut map = match serde_json::to_value(input) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    };
    for key in [
        "session_id",
        "transcript_path",
        "cwd",
        "timestamp",
        "hook_event_name",
    ] {
        if map.get(key).and_then(Value::as_str) == Some("") {
            map.remove(key);
        }
    }
    Ok((event, map))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn typed_inputs_become_fire_objects_with_base_fields_left_to_the_host() {
        let input = HookInput::BeforeModel(BeforeModelInput {
            llm_request: LlmRequest {
                model: Some("m".into()),
                config: Some(GenerationConfig {
                    temperature: Some(0.5),
                    ..Default::default()
                }),
                ..Default::default()
            },
            ..Default::default()
        });
        let (event, map) = into_fire(&input).unwrap();
        assert_eq!(event, HookEvent::BeforeModel);
        assert_eq!(
            map.get("llm_request"),
            Some(&json!({"model": "m", "config": {"temperature": 0.5}}))
        );
        assert!(!map.contains_key("session_id"));
    }
}
