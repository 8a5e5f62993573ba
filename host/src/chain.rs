//! Sequential chaining (seeds/001 §7.4): how one hook's answer becomes part of the
//! next hook's input.
//!
//! | event               | what is carried forward                                      |
//! |---------------------|--------------------------------------------------------------|
//! | BeforeTool          | `hookSpecificOutput.tool_input` is merged (top-level keys) into `tool_input` |
//! | BeforeModel         | `hookSpecificOutput.llm_request` is merged into `llm_request` |
//! | BeforeToolSelection | `hookSpecificOutput.toolConfig` replaces `llm_request.toolConfig` |
//! | AfterModel          | `hookSpecificOutput.llm_response` is merged into `llm_response` |
//! | BeforeAgent         | `additionalContext` is appended to `prompt`                   |
//!
//! "Merged" is a deep merge of objects (a hook that sets `config.temperature` keeps
//! the other `config` fields); arrays and scalars are replaced. `tool_input` is
//! merged one level deep, as gemini-cli's and llxprt-code's `hookRunner.ts`
//! (`applyHookOutputToInput`: `{...tool_input, ...newToolInput}`) do — seeds/001
//! says "merges" in §2 and "replaces" in §7.4; both reference runners merge.

use serde_json::{Map, Value};

use crate::event::HookEvent;
use crate::output::HookOutput;

/// Applies `output` to `input` for the next hook; returns whether anything changed.
pub fn apply_to_input(
    event: HookEvent,
    input: &mut Map<String, Value>,
    output: &HookOutput,
) -> bool {
    match event {
        HookEvent::BeforeTool => {
            merge_top_level(input, "tool_input", output.specific("tool_input"))
        }
        HookEvent::BeforeModel => merge_into(input, "llm_request", output.specific("llm_request")),
        HookEvent::AfterModel => merge_into(input, "llm_response", output.specific("llm_response")),
        HookEvent::BeforeToolSelection => match output.specific("toolConfig") {
            Some(config @ Value::Object(_)) => {
                let request = input
                    .entry("llm_request")
                    .or_insert_with(|| Value::Object(Map::new()));
                match request {
                    Value::Object(request) => {
                        request.insert("toolConfig".to_owned(), config.clone());
                        true
                    }
                    _ => false,
                }
            }
            _ => false,
        },
        HookEvent::BeforeAgent => {
            match output.specific("additionalContext").and_then(Value::as_str) {
                Some(context) if !context.is_empty() => {
                    let prompt = input
                        .get("prompt")
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    let joined = if prompt.is_empty() {
                        context.to_owned()
                    } else {
                        format!("{prompt}\n\n{context}")
                    };
                    input.insert("prompt".to_owned(), Value::String(joined));
                    true
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// `{...input[key], ...patch}`: the patch's keys replace, the others stay.
fn merge_top_level(input: &mut Map<String, Value>, key: &str, patch: Option<&Value>) -> bool {
    let Some(Value::Object(patch)) = patch else {
        return false;
    };
    match input.get_mut(key) {
        Some(Value::Object(target)) => {
            for (k, v) in patch {
                target.insert(k.clone(), v.clone());
            }
        }
        _ => {
            input.insert(key.to_owned(), Value::Object(patch.clone()));
        }
    }
    true
}

fn merge_into(input: &mut Map<String, Value>, key: &str, patch: Option<&Value>) -> bool {
    match patch {
        Some(patch @ Value::Object(_)) => {
            let target = input
                .entry(key)
                .or_insert_with(|| Value::Object(Map::new()));
            deep_merge(target, patch);
            true
        }
        _ => false,
    }
}

/// Merges `patch` into `target`: objects key by key, everything else replaced.
pub fn deep_merge(target: &mut Value, patch: &Value) {
    match (target, patch) {
        (Value::Object(target), Value::Object(patch)) => {
            for (key, value) in patch {
                match target.get_mut(key) {
                    Some(existing) => deep_merge(existing, value),
                    None => {
                        target.insert(key.clone(), value.clone());
                    }
                }
            }
        }
        (target, patch) => *target = patch.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn output(specific: Value) -> HookOutput {
        HookOutput {
            hook_specific_output: specific.as_object().cloned(),
            ..HookOutput::default()
        }
    }

    #[test]
    fn before_model_merges_config_deeply() {
        let mut input =
            json!({"llm_request": {"model": "m", "config": {"temperature": 1.0, "topK": 3}}});
        let input_map = input.as_object_mut().unwrap();
        assert!(apply_to_input(
            HookEvent::BeforeModel,
            input_map,
            &output(json!({"llm_request": {"config": {"temperature": 0.0}}}))
        ));
        assert_eq!(
            input["llm_request"],
            json!({"model": "m", "config": {"temperature": 0.0, "topK": 3}})
        );
    }

    #[test]
    fn before_tool_merges_tool_input_and_before_agent_appends_context() {
        let mut input = json!({"tool_input": {"a": 1, "b": 2}, "prompt": "hi"});
        let map = input.as_object_mut().unwrap();
        apply_to_input(
            HookEvent::BeforeTool,
            map,
            &output(json!({"tool_input": {"a": 9}})),
        );
        apply_to_input(
            HookEvent::BeforeAgent,
            map,
            &output(json!({"additionalContext": "ctx"})),
        );
        assert_eq!(input["tool_input"], json!({"a": 9, "b": 2}));
        assert_eq!(input["prompt"], "hi\n\nctx");
    }
}
