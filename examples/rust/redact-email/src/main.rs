//! `redact-email`: an `AfterModel` policy that removes e-mail addresses from
//! the model's answer before the agent uses it.
//!
//! It rewrites the response's `text` field and every text part of
//! `candidates[].content.parts` (plain strings and `{"text": …}` objects),
//! replacing each address with `[redacted email]`, and returns the whole
//! modified `llm_response` in `hookSpecificOutput`. When nothing needed
//! redacting it answers `{}`, leaving the response untouched.

mod email;

use hookhost_guest::{HookInput, HookOutput, HookResult, Value, register_hook};

/// Redacts the string in place; `true` if it changed.
fn redact_value(value: &mut Value) -> bool {
    let Value::String(text) = value else {
        return false;
    };
    match email::redact(text) {
        Some(redacted) => {
            *text = redacted;
            true
        }
        None => false,
    }
}

/// Redacts every text location of a stable-format LLM response.
fn redact_response(response: &mut Value) -> bool {
    let mut changed = false;
    if let Some(text) = response.get_mut("text") {
        changed |= redact_value(text);
    }
    let candidates = response
        .get_mut("candidates")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten();
    for candidate in candidates {
        let parts = candidate
            .pointer_mut("/content/parts")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten();
        for part in parts {
            if part.is_string() {
                changed |= redact_value(part);
            } else if let Some(text) = part.get_mut("text") {
                changed |= redact_value(text);
            }
        }
    }
    changed
}

fn redact_email(input: HookInput) -> HookResult {
    let HookInput::AfterModel(model) = input else {
        return Ok(HookOutput::allow());
    };
    let mut response = model.llm_response;
    Ok(if redact_response(&mut response) {
        HookOutput::allow().llm_response(response)
    } else {
        HookOutput::allow()
    })
}

register_hook!(redact_email);

#[cfg(test)]
mod tests {
    use super::*;
    use hookhost_guest::json;

    #[test]
    fn redacts_text_and_both_part_shapes() {
        let mut response = json!({
            "text": "mail bob@example.com",
            "candidates": [{"content": {"role": "model", "parts": [
                "write to alice.smith+x@mail.example.org.",
                {"text": "or carol@example.net"},
                {"functionCall": {}}
            ]}}],
            "usageMetadata": {"totalTokenCount": 3}
        });
        assert!(redact_response(&mut response));
        assert_eq!(
            response,
            json!({
                "text": "mail [redacted email]",
                "candidates": [{"content": {"role": "model", "parts": [
                    "write to [redacted email].",
                    {"text": "or [redacted email]"},
                    {"functionCall": {}}
                ]}}],
                "usageMetadata": {"totalTokenCount": 3}
            })
        );
    }

    #[test]
    fn clean_response_is_untouched() {
        let mut response = json!({"text": "no addresses @here", "candidates": []});
        assert!(!redact_response(&mut response));
    }
}
