//! What names an agent's hook input — its `hook_event_name`, and whether it carries
//! Claude's `permission_mode` — read from an input that cannot be parsed whole
//! (nested past [`crate::input::json::MAX_DEPTH`], say), so that a door refusing it
//! can still answer in the form that event's block takes.

use serde::Deserialize;
use serde::de::IgnoredAny;

/// The top-level fields that tell an agent's hook input apart.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct InputHead {
    /// `hook_event_name`, when it is a string.
    pub event_name: Option<String>,
    /// Whether `permission_mode` is there (Claude Code sends it; Gemini CLI and
    /// LLxprt Code do not).
    pub permission_mode: bool,
}

/// The two fields as serde sees them; every other value is skipped.
#[derive(Deserialize)]
struct Fields {
    hook_event_name: Option<String>,
    permission_mode: Option<IgnoredAny>,
}

/// The head of `bytes` if they start with a JSON object whose top level can be
/// read; `None` otherwise (not JSON, not an object, broken before its end).
///
/// Values other than the two fields are skipped by serde_json without recursion,
/// so an object nested thousands of levels deep is read here (in time linear in
/// its length) even though it is refused as an input. Lone surrogates are read as
/// [`crate::input::json`] reads them; what follows the object is not looked at.
pub fn input_head(bytes: &[u8]) -> Option<InputHead> {
    let text = crate::input::json::replace_lone_surrogates(bytes);
    let mut reader = serde_json::Deserializer::from_slice(&text);
    let fields = Fields::deserialize(&mut reader).ok()?;
    Some(InputHead {
        event_name: fields.hook_event_name,
        permission_mode: fields.permission_mode.is_some(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_head_is_read_past_any_depth() {
        let deep = format!(
            r#"{{"permission_mode": "default", "tool_input": {}{}, "hook_event_name": "PreToolUse"}}"#,
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert!(crate::input::json::parse(deep.as_bytes()).is_err());
        assert_eq!(
            input_head(deep.as_bytes()),
            Some(InputHead {
                event_name: Some("PreToolUse".into()),
                permission_mode: true,
            })
        );
        let gemini = br#"{"hook_event_name": "BeforeTool", "x": "\ud800"} trailing"#;
        assert_eq!(
            input_head(gemini),
            Some(InputHead {
                event_name: Some("BeforeTool".into()),
                permission_mode: false,
            })
        );
    }

    #[test]
    fn what_is_not_an_object_has_no_head() {
        for text in [&b"{\"hook_event_name\": "[..], b"[1]", b"", b"{\"a\": [}"] {
            assert_eq!(
                input_head(text),
                None,
                "{:?}",
                String::from_utf8_lossy(text)
            );
        }
        assert_eq!(input_head(b"{\"x\": 1}"), Some(InputHead::default()));
        // A name that is not a string: no head rather than a guess.
        assert_eq!(input_head(b"{\"hook_event_name\": 7}"), None);
    }
}
