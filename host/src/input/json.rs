//! Reading the JSON an agent or a client sends (a hook's stdin, a request body, a
//! request line) the way JavaScript wrote it, with a bound on its nesting. Every
//! door of the CLI parses its input here, so that they all accept and refuse the
//! same texts.
//!
//! Node's `JSON.stringify` writes a string holding half of a UTF-16 surrogate pair
//! (cut text, a broken emoji) as a lone escape such as `"\ud800"`, and
//! `JSON.parse` reads it back; serde_json refuses it, which turned a tool call
//! into an input hookhost could not read. A pre-pass over the raw bytes rewrites
//! each lone `\uD800`–`\uDFFF` escape inside a string into `\uFFFD` (what a
//! decoder makes of an unpaired surrogate) before serde_json parses the text; a
//! valid high+low pair is kept. The same pass measures the nesting, so that input
//! nested too deep is refused with its own error, not serde_json's generic one.

use std::borrow::Cow;

use serde_json::Value;

/// The deepest nesting of arrays and objects accepted: serde_json's own recursion
/// limit refuses the 128th level, so this is the bound every door already had,
/// now named.
pub const MAX_DEPTH: usize = 127;

/// Why an input is not one JSON value hookhost can use.
#[derive(Debug, thiserror::Error)]
pub enum JsonInputError {
    /// Arrays and objects nested deeper than [`MAX_DEPTH`].
    #[error("recursion limit exceeded: arrays and objects nested deeper than {max} levels")]
    TooDeep {
        /// The bound.
        max: usize,
    },
    /// Not JSON (serde_json's message, with line and column).
    #[error(transparent)]
    Invalid(serde_json::Error),
}

/// Parses `bytes` as one JSON value, lone surrogate escapes read as U+FFFD and
/// nesting bounded by [`MAX_DEPTH`].
pub fn parse(bytes: &[u8]) -> Result<Value, JsonInputError> {
    let (text, depth) = scan(bytes);
    if depth > MAX_DEPTH {
        return Err(JsonInputError::TooDeep { max: MAX_DEPTH });
    }
    serde_json::from_slice(&text).map_err(JsonInputError::Invalid)
}

/// `bytes` with every lone surrogate escape inside a string (`\uD800`–`\uDFFF` not
/// part of a high+low pair) replaced by `\uFFFD`, the same length (so serde_json's
/// line and column still point into the original); borrowed when there is none.
/// Anything that is not valid JSON is left for the parser to refuse.
pub fn replace_lone_surrogates(bytes: &[u8]) -> Cow<'_, [u8]> {
    scan(bytes).0
}

/// The rewritten text and the deepest nesting of `[` and `{` outside strings.
fn scan(bytes: &[u8]) -> (Cow<'_, [u8]>, usize) {
    let mut text = Cow::Borrowed(bytes);
    let (mut depth, mut deepest) = (0usize, 0usize);
    let mut in_string = false;
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        if !in_string {
            match byte {
                b'"' => in_string = true,
                b'[' | b'{' => {
                    depth += 1;
                    deepest = deepest.max(depth);
                }
                b']' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
            i += 1;
            continue;
        }
        match byte {
            b'"' => {
                in_string = false;
                i += 1;
            }
            // An escape: `\\` and `\"` are consumed whole, so the backslash of
            // `\\ud800` never starts a `\u` escape.
            b'\\' if bytes.get(i + 1) == Some(&b'u') => match unit_at(bytes, i) {
                Some(0xD800..=0xDBFF) if is_low_surrogate(unit_at(bytes, i + 6)) => i += 12,
                Some(0xD800..=0xDFFF) => {
                    text.to_mut()[i..i + 6].copy_from_slice(b"\\uFFFD");
                    i += 6;
                }
                Some(_) => i += 6,
                // Not four hex digits: serde_json refuses it.
                None => i += 2,
            },
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    (text, deepest)
}

fn is_low_surrogate(unit: Option<u16>) -> bool {
    unit.is_some_and(|unit| (0xDC00..=0xDFFF).contains(&unit))
}

/// The UTF-16 code unit of the `\uXXXX` escape that starts at `at`, if there is one.
fn unit_at(bytes: &[u8], at: usize) -> Option<u16> {
    let escape = bytes.get(at..at + 6)?;
    if !escape.starts_with(b"\\u") {
        return None;
    }
    let hex = std::str::from_utf8(&escape[2..]).ok()?;
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u16::from_str_radix(hex, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(text: &str) -> String {
        String::from_utf8(replace_lone_surrogates(text.as_bytes()).into_owned()).unwrap()
    }

    fn string(text: &str) -> String {
        match parse(text.as_bytes()) {
            Ok(Value::String(s)) => s,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn lone_surrogates_become_the_replacement_character() {
        assert_eq!(string(r#""\ud800""#), "\u{FFFD}");
        assert_eq!(string(r#""a\uDBFFb""#), "a\u{FFFD}b");
        assert_eq!(string(r#""\udc00\ud800""#), "\u{FFFD}\u{FFFD}");
        // A high surrogate followed by one that is not low: both lone.
        assert_eq!(string(r#""\ud800\ud800\udc00""#), "\u{FFFD}\u{10000}");
        // A high surrogate at the end of a string, and of the input.
        assert_eq!(string(r#""end \ud83d""#), "end \u{FFFD}");
        assert_eq!(rewritten(r#""\ud83d"#), r#""\uFFFD"#);
        // In a key too, and the rest of the document untouched.
        let value = parse(br#"{"k\udfff": [1, "\ud800x"]}"#).unwrap();
        assert_eq!(value, serde_json::json!({"k\u{FFFD}": [1, "\u{FFFD}x"]}));
    }

    #[test]
    fn valid_pairs_and_other_escapes_are_kept() {
        assert_eq!(string(r#""\ud83d\ude00""#), "\u{1F600}");
        assert_eq!(string(r#""\uD83D\uDE00!""#), "\u{1F600}!");
        assert_eq!(string(r#""\u00e9\n\"\/""#), "é\n\"/");
        let untouched = r#"{"a": "\ud83d\ude00", "b": "\u0041"}"#;
        assert!(matches!(
            replace_lone_surrogates(untouched.as_bytes()),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn an_escaped_backslash_does_not_start_an_escape() {
        // `\\ud800` is a backslash and the text "ud800".
        assert_eq!(string(r#""\\ud800""#), "\\ud800");
        assert_eq!(string(r#""\\\ud800""#), "\\\u{FFFD}");
        assert_eq!(string(r#""\"\ud800""#), "\"\u{FFFD}");
        // Outside strings nothing is rewritten.
        assert_eq!(rewritten(r#"\ud800 "x""#), r#"\ud800 "x""#);
    }

    #[test]
    fn invalid_input_is_left_for_serde_to_refuse() {
        for text in [
            r#""\ud8""#,
            r#""\uZZZZ""#,
            r#""\ud800"#,
            "\\ud800",
            "{\"a\": }",
            r#""\"#,
            "",
        ] {
            assert!(
                matches!(parse(text.as_bytes()), Err(JsonInputError::Invalid(_))),
                "{text:?}"
            );
        }
        assert_eq!(rewritten(r#""\ud8""#), r#""\ud8""#);
        assert!(parse(b"\"\xff\"").is_err(), "invalid UTF-8");
    }

    #[test]
    fn nesting_is_bounded_where_serde_json_bounds_it() {
        let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert!(parse(nested(MAX_DEPTH).as_bytes()).is_ok());
        assert!(serde_json::from_str::<Value>(&nested(MAX_DEPTH)).is_ok());
        assert!(serde_json::from_str::<Value>(&nested(MAX_DEPTH + 1)).is_err());
        for text in [nested(MAX_DEPTH + 1), nested(200), "{\"a\":".repeat(300)] {
            let refused = parse(text.as_bytes()).unwrap_err();
            assert!(matches!(
                refused,
                JsonInputError::TooDeep { max: MAX_DEPTH }
            ));
            assert_eq!(
                refused.to_string(),
                "recursion limit exceeded: arrays and objects nested deeper than 127 levels"
            );
        }
        // Brackets inside strings are text.
        let text = format!("[\"{}\"]", "[".repeat(500));
        assert!(parse(text.as_bytes()).is_ok());
    }
}
