//! Finding e-mail addresses without a regex engine.
//!
//! An address here is `local@domain`: the local part is letters, digits and
//! `._%+-`; the domain is labels of letters, digits and `-` separated by dots,
//! ending in a top-level label of at least two letters. Good enough for
//! redaction, where a false positive costs little.

/// The replacement text.
pub const MASK: &str = "[redacted email]";

fn is_local(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'%' | b'+' | b'-')
}

fn is_domain(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-')
}

/// The byte range of the address around the `@` at `at`, if it is one.
fn address_at(bytes: &[u8], at: usize) -> Option<(usize, usize)> {
    let mut start = at;
    while start > 0 && is_local(bytes[start - 1]) {
        start -= 1;
    }
    // A local part does not start with a dot (sentence punctuation before it).
    while start < at && bytes[start] == b'.' {
        start += 1;
    }
    let mut end = at + 1;
    while end < bytes.len() && is_domain(bytes[end]) {
        end += 1;
    }
    // Trailing dots and hyphens are punctuation, not part of the domain.
    while end > at + 1 && matches!(bytes[end - 1], b'.' | b'-') {
        end -= 1;
    }
    let domain = &bytes[at + 1..end];
    let tld = domain.rsplit(|&b| b == b'.').next().unwrap_or_default();
    let valid = start < at
        && domain.contains(&b'.')
        && !domain.starts_with(b".")
        && !domain.windows(2).any(|w| w == b"..")
        && tld.len() >= 2
        && tld.iter().all(u8::is_ascii_alphabetic);
    valid.then_some((start, end))
}

/// `text` with every address replaced by [`MASK`], or `None` if it has none.
pub fn redact(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut found = false;
    let mut search = 0;
    while let Some(offset) = text[search..].find('@') {
        let at = search + offset;
        match address_at(bytes, at) {
            // `start >= copied` keeps two addresses sharing characters
            // (`a@b.com@c.org`) from overlapping.
            Some((start, end)) if start >= copied => {
                out.push_str(&text[copied..start]);
                out.push_str(MASK);
                copied = end;
                search = end;
                found = true;
            }
            _ => search = at + 1,
        }
    }
    found.then(|| {
        out.push_str(&text[copied..]);
        out
    })
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn redacts_addresses_and_keeps_punctuation() {
        assert_eq!(
            redact("Contact: a.b-c+tag@sub.example.co.uk, or x@y.io.").as_deref(),
            Some("Contact: [redacted email], or [redacted email].")
        );
    }

    #[test]
    fn leaves_non_addresses() {
        for text in [
            "@mention",
            "user@localhost",
            "a@b.c",
            "price @ 3.50",
            "no at sign",
            "ünïcode ok",
        ] {
            assert_eq!(redact(text), None, "{text}");
        }
    }
}
