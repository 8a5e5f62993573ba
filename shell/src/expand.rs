//! The expansions whose result a reader can know without running anything:
//! `$'…'` escapes and brace expansion (`{rm,} -rf x` runs `rm`).

/// At most this many words come out of one word's brace expansion; a word that
/// would give more is left as it is and the reading says it cannot be sure.
pub const MAX_BRACE_WORDS: usize = 64;

/// The value of the text between `$'` and `'`, escapes decoded as bash does
/// (`\n`, `\t`, `\e`, `\xHH`, `\NNN` octal, `\uHHHH`, `\UHHHHHHHH`, `\cX`, …).
pub fn ansi_c_escape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        let simple = match e {
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'e' | 'E' => Some('\u{1b}'),
            'f' => Some('\u{c}'),
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            'v' => Some('\u{b}'),
            '\\' | '\'' | '"' | '?' => Some(e),
            _ => None,
        };
        if let Some(s) = simple {
            out.push(s);
            continue;
        }
        let (radix, max) = match e {
            'x' => (16, 2),
            'u' => (16, 4),
            'U' => (16, 8),
            '0'..='7' => (8, 3),
            'c' => {
                // Control character: `\cA` is 0x01, `\c?` is DEL.
                if let Some(x) = chars.next() {
                    let code = (x.to_ascii_uppercase() as u32) ^ 0x40;
                    out.extend(char::from_u32(code));
                }
                continue;
            }
            _ => {
                out.push('\\');
                out.push(e);
                continue;
            }
        };
        let mut digits = String::new();
        if radix == 8 {
            digits.push(e);
        }
        while digits.len() < max {
            match chars.peek() {
                Some(d) if d.is_digit(radix) => {
                    digits.push(*d);
                    chars.next();
                }
                _ => break,
            }
        }
        match u32::from_str_radix(&digits, radix) {
            // bash stops at a NUL: the rest of the string is dropped.
            Ok(0) => break,
            Ok(code) if radix == 8 || e == 'x' => out.push(char::from(code as u8)),
            Ok(code) => out.extend(char::from_u32(code)),
            Err(_) => {
                out.push('\\');
                out.push(e);
            }
        }
    }
    out
}

/// One character of a word as written, and whether it was quoted (quoted
/// braces and commas take no part in brace expansion).
#[derive(Clone, Copy)]
struct Ch {
    c: char,
    quoted: bool,
}

/// The words a literal word (as `written`, quotes and all) brace-expands to,
/// quotes removed, or `None` when it would give more than [`MAX_BRACE_WORDS`].
/// A word without a brace expression gives itself.
pub fn brace_expand(written: &str) -> Option<Vec<String>> {
    let chars = unquote(written);
    let mut out = Vec::new();
    expand_into(&chars, &mut Vec::new(), &mut out)?;
    Some(out.into_iter().filter(|w| !w.is_empty()).collect())
}

/// The characters of a word with their quoting: `'…'`, `"…"`, `\x`, `$'…'`.
fn unquote(written: &str) -> Vec<Ch> {
    let mut out = Vec::new();
    let mut chars = written.chars().peekable();
    let quoted = |c| Ch { c, quoted: true };
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next().map(quoted)),
            '\'' => out.extend(chars.by_ref().take_while(|&c| c != '\'').map(quoted)),
            '$' if chars.peek() == Some(&'\'') => {
                chars.next();
                let mut raw = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '\'' => break,
                        '\\' => {
                            raw.push('\\');
                            raw.extend(chars.next());
                        }
                        _ => raw.push(c),
                    }
                }
                out.extend(ansi_c_escape(&raw).chars().map(quoted));
            }
            '"' => {
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' if matches!(chars.peek(), Some('$' | '`' | '"' | '\\' | '\n')) => {
                            out.extend(chars.next().map(quoted));
                        }
                        _ => out.push(quoted(c)),
                    }
                }
            }
            _ => out.push(Ch { c, quoted: false }),
        }
    }
    out
}

fn expand_into(chars: &[Ch], prefix: &mut Vec<char>, out: &mut Vec<String>) -> Option<()> {
    let Some((open, close, parts)) = first_brace(chars) else {
        let mut word: String = prefix.iter().collect();
        word.extend(chars.iter().map(|ch| ch.c));
        if out.len() >= MAX_BRACE_WORDS {
            return None;
        }
        out.push(word);
        return Some(());
    };
    let base = prefix.len();
    prefix.extend(chars[..open].iter().map(|ch| ch.c));
    let rest = &chars[close + 1..];
    for part in parts {
        let mut combined = part;
        combined.extend_from_slice(rest);
        expand_into(&combined, prefix, out)?;
    }
    prefix.truncate(base);
    Some(())
}

/// The first unquoted `{…}` that brace-expands: its bounds and alternatives.
fn first_brace(chars: &[Ch]) -> Option<(usize, usize, Vec<Vec<Ch>>)> {
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        // `${…}` is a parameter, not a brace expression.
        let after_dollar = i > 0 && chars[i - 1].c == '$' && !chars[i - 1].quoted;
        if ch.c == '{'
            && !ch.quoted
            && !after_dollar
            && let Some(found) = brace_at(chars, i)
        {
            return Some(found);
        }
        i += 1;
    }
    None
}

fn brace_at(chars: &[Ch], open: usize) -> Option<(usize, usize, Vec<Vec<Ch>>)> {
    let mut depth = 0usize;
    let mut commas = Vec::new();
    for (j, ch) in chars.iter().enumerate().skip(open) {
        if ch.quoted {
            continue;
        }
        match ch.c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    let inner = &chars[open + 1..j];
                    if commas.is_empty() {
                        return sequence(inner).map(|parts| (open, j, parts));
                    }
                    let mut parts = Vec::new();
                    let mut start = open + 1;
                    for &comma in &commas {
                        parts.push(chars[start..comma].to_vec());
                        start = comma + 1;
                    }
                    parts.push(chars[start..j].to_vec());
                    return Some((open, j, parts));
                }
            }
            ',' if depth == 1 => commas.push(j),
            _ => {}
        }
    }
    None
}

/// `{1..5}`, `{a..e}`, `{10..1..3}`: the terms, or `None` if not a sequence.
fn sequence(inner: &[Ch]) -> Option<Vec<Vec<Ch>>> {
    let text: String = inner.iter().map(|ch| ch.c).collect();
    let mut fields = text.split("..");
    let (a, b) = (fields.next()?, fields.next()?);
    let step: i64 = match fields.next() {
        Some(s) => s.parse::<i64>().ok()?.checked_abs()?.max(1),
        None => 1,
    };
    if fields.next().is_some() {
        return None;
    }
    let terms: Vec<String> = if let (Ok(x), Ok(y)) = (a.parse::<i64>(), b.parse::<i64>()) {
        let count = x.abs_diff(y) / step.unsigned_abs() + 1;
        if count > MAX_BRACE_WORDS as u64 {
            return Some(vec![Vec::new(); MAX_BRACE_WORDS + 1]);
        }
        let dir = if y >= x { step } else { -step };
        (0..count as i64)
            .map(|k| (x + k * dir).to_string())
            .collect()
    } else {
        let (x, y) = (single_char(a)?, single_char(b)?);
        let (lo, hi) = (x.min(y) as u32, x.max(y) as u32);
        let mut letters: Vec<String> = (lo..=hi)
            .step_by(step.unsigned_abs() as usize)
            .filter_map(char::from_u32)
            .map(String::from)
            .collect();
        if y < x {
            letters.reverse();
        }
        letters
    };
    Some(
        terms
            .into_iter()
            .map(|t| t.chars().map(|c| Ch { c, quoted: true }).collect())
            .collect(),
    )
}

fn single_char(s: &str) -> Option<char> {
    let mut chars = s.chars();
    let c = chars.next()?;
    (chars.next().is_none() && c.is_ascii_alphabetic()).then_some(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ansi_c_strings_decode_as_bash_does() {
        assert_eq!(ansi_c_escape(r"\x72m"), "rm");
        assert_eq!(ansi_c_escape(r"\162\155"), "rm");
        assert_eq!(ansi_c_escape(r"\u0072m"), "rm");
        assert_eq!(ansi_c_escape(r"a\tb\n"), "a\tb\n");
        assert_eq!(ansi_c_escape(r"r\x00m"), "r");
        assert_eq!(ansi_c_escape(r"\q"), "\\q");
        assert_eq!(ansi_c_escape(r"\cA"), "\u{1}");
    }

    #[test]
    fn braces_expand_as_bash_does() {
        let e = |w: &str| brace_expand(w).unwrap_or_default();
        assert_eq!(e("{rm,}"), ["rm"]);
        assert_eq!(e("r{m,x}"), ["rm", "rx"]);
        assert_eq!(e("{a,b}{c,d}"), ["ac", "ad", "bc", "bd"]);
        assert_eq!(e("{a,{b,c}}"), ["a", "b", "c"]);
        assert_eq!(e("{1..3}"), ["1", "2", "3"]);
        assert_eq!(e("{c..a}"), ["c", "b", "a"]);
        assert_eq!(e("'{a,b}'"), ["{a,b}"]);
        assert_eq!(e("{a}"), ["{a}"]);
        assert_eq!(e("{}"), ["{}"]);
        assert_eq!(e("\"{\"rm,x}"), ["{rm,x}"]);
        assert_eq!(e("{'r'm,x}"), ["rm", "x"]);
        assert!(brace_expand("{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}").is_none());
        assert!(brace_expand("{1..100000}").is_none());
    }
}
