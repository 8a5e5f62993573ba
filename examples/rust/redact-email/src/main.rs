//! `redact-email`: an `AfterModel` policy that removes e-mail addresses from
//! the model's answer before the agent uses it.
//!
//! It rewrites the response's `text` field and every text part of
//! `candidates[].content.parts` (plain strings and `{"text": …}` objects),
//! replacing each address with `[redacted email]`, and returns the whole
//! modified `llm_response` in `hookSpecificOutput`. When nothing needed
//! redacting it answers `{}`, leaving the response untouched.

mod email;

use hookhost_guest::{HookInput, HookOutput, HookResult, LlmResponse, register_hook};

/// Redacts the text in place; `true` if it changed.
fn redact_text(text: &mut String) -> bool {
    match email::redact(text) {
        Some(redacted) => {
            *text = redacted;
            true
        }
        None => false,
    }
}

/// Redacts every text location of a stable-format LLM response.
fn redact_response(response: &mut LlmResponse) -> bool {
    let mut changed = response.text.as_mut().is_some_and(redact_text);
    let parts = response
        .candidates
        .iter_mut()
        .flatten()
        .filter_map(|c| c.content.as_mut())
        .flat_map(|content| content.parts.iter_mut());
    for part in parts {
        if let Some(mut text) = part.text().map(str::to_owned)
            && redact_text(&mut text)
        {
            part.set_text(text);
            changed = true;
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
    use hookhost_guest::{Value, json};

    fn typed(value: Value) -> LlmResponse {
        hookhost_guest::serde_json::from_value(value).unwrap_or_default()
    }

    #[test]
    fn redacts_text_and_both_part_shapes() {
        let mut response = typed(json!({
            "text": "mail bob@example.com",
            "candidates": [{"content": {"role": "model", "parts": [
                "write to alice.smith+x@mail.example.org.",
                {"text": "or carol@example.net"},
                {"functionCall": {}}
            ]}}],
            "usageMetadata": {"totalTokenCount": 3}
        }));
        assert!(redact_response(&mut response));
        assert_eq!(
            Value::from(response),
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
        let mut response = typed(json!({"text": "no addresses @here", "candidates": []}));
        assert!(!redact_response(&mut response));
    }
}
