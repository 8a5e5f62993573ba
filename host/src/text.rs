//! Cutting text to a length for messages: by characters, never inside one.

use std::borrow::Cow;

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
}
