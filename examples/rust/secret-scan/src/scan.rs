//! Hand-written secret detectors, line by line.
//!
//! No regex crate: the patterns are simple prefixes plus character classes,
//! and leaving `regex` out keeps the plugin around 200 KiB instead of ~1 MiB.

/// One suspected secret: what it looks like and where (1-based line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Human-readable kind, e.g. "AWS access key ID".
    pub kind: &'static str,
    /// 1-based line number.
    pub line: usize,
}

/// Names whose assigned value is a secret when it looks random.
const SECRET_NAMES: &[&str] = &[
    "api_key",
    "apikey",
    "api-key",
    "secret",
    "secret_key",
    "client_secret",
    "access_token",
    "auth_token",
    "token",
    "password",
    "passwd",
];

/// Below this many bits per character a value is more likely a word or a
/// placeholder (`changeme`, `xxxxxxxx…`) than a key.
const MIN_ENTROPY: f64 = 3.5;
const MIN_GENERIC_LEN: usize = 16;

/// A detector: the kind it reports and a test for one line.
type Detector = (&'static str, fn(&str) -> bool);

const DETECTORS: &[Detector] = &[
    ("AWS access key ID", aws_key_id),
    ("private key", private_key_header),
    ("GitHub token", github_token),
    ("high-entropy secret assignment", generic_assignment),
];

/// Every suspected secret in `text`, at most one per kind and line.
pub fn scan(text: &str) -> Vec<Finding> {
    let mut findings = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        for &(kind, detect) in DETECTORS {
            if detect(line) {
                findings.push(Finding {
                    kind,
                    line: line_no,
                });
            }
        }
    }
    findings
}

/// Byte offsets where `needle` starts in `haystack` and is not preceded by an
/// alphanumeric character (a word boundary on the left).
fn word_starts<'a>(haystack: &'a str, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
    haystack
        .match_indices(needle)
        .map(|(i, _)| i)
        .filter(move |&i| {
            haystack[..i]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_ascii_alphanumeric())
        })
}

/// `len` characters from byte `start` all satisfy `class`, and the one after
/// (if any) does not — so longer random strings are not mistaken for keys.
fn run_of(s: &str, start: usize, len: usize, class: fn(u8) -> bool) -> bool {
    let bytes = s.as_bytes();
    start + len <= bytes.len()
        && bytes[start..start + len].iter().all(|&b| class(b))
        && bytes.get(start + len).is_none_or(|&b| !class(b))
}

/// `AKIA`/`ASIA` followed by 16 upper-case letters or digits.
fn aws_key_id(line: &str) -> bool {
    let class = |b: u8| b.is_ascii_uppercase() || b.is_ascii_digit();
    ["AKIA", "ASIA"]
        .iter()
        .any(|prefix| word_starts(line, prefix).any(|i| run_of(line, i + 4, 16, class)))
}

/// `-----BEGIN … PRIVATE KEY-----` (RSA, EC, DSA, OPENSSH, ENCRYPTED, PKCS#8).
fn private_key_header(line: &str) -> bool {
    line.find("-----BEGIN ")
        .is_some_and(|i| line[i..].contains("PRIVATE KEY-----"))
}

/// Classic GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_` + 36
/// alphanumerics) and fine-grained ones (`github_pat_` + 22 or more).
fn github_token(line: &str) -> bool {
    let alnum = |b: u8| b.is_ascii_alphanumeric();
    let classic = ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"]
        .iter()
        .any(|p| word_starts(line, p).any(|i| run_of(line, i + 4, 36, alnum)));
    let fine_grained = word_starts(line, "github_pat_").any(|i| {
        line.as_bytes()[i + 11..]
            .iter()
            .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_')
            .count()
            >= 22
    });
    classic || fine_grained
}

/// `name = "value"` / `name: value` / `"name": "value"` where `name` is a
/// secret-ish word and `value` is long and random-looking.
fn generic_assignment(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    SECRET_NAMES.iter().any(|name| {
        lower.match_indices(name).any(|(i, _)| {
            // Skip the rest of the identifier (`api_key_prod`), closing
            // quotes and spaces, then require `=` or `:`.
            let after = &line[i + name.len()..];
            let after = after.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
            let after = after.trim_start_matches(['"', '\'', ' ', '\t']);
            let Some(value) = after.strip_prefix(['=', ':']) else {
                return false;
            };
            let value = value.trim_start_matches(['=', ' ', '\t', '"', '\'']);
            let value: &str = value
                .split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ',' | ';'))
                .next()
                .unwrap_or("");
            looks_random(value)
        })
    })
}

fn looks_random(value: &str) -> bool {
    value.len() >= MIN_GENERIC_LEN
        && !value.starts_with(['$', '<', '{', '%'])
        && shannon_entropy(value) >= MIN_ENTROPY
}

/// Bits per character of `s`'s byte distribution.
fn shannon_entropy(s: &str) -> f64 {
    let mut counts = [0usize; 256];
    for b in s.bytes() {
        counts[usize::from(b)] += 1;
    }
    let len = s.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / len;
            -p * p.log2()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(&'static str, usize)> {
        scan(text).into_iter().map(|f| (f.kind, f.line)).collect()
    }

    #[test]
    fn finds_each_kind_with_its_line() {
        let text = "fn main() {}\n\
                    let aws = \"AKIAIOSFODNN7EXAMPLE\";\n\
                    -----BEGIN RSA PRIVATE KEY-----\n\
                    token ghp_abcdefghijklmnopqrstuvwxyz0123456789\n\
                    api_key = \"q8Zr2LmX0vTnB7sKp4Wc\"\n";
        assert_eq!(
            kinds(text),
            [
                ("AWS access key ID", 2),
                ("private key", 3),
                ("GitHub token", 4),
                ("high-entropy secret assignment", 5),
            ]
        );
    }

    #[test]
    fn json_style_assignment() {
        assert_eq!(
            kinds(r#"{"client_secret": "Zk3pQ9xW7mT2rV5nB8yL1cH4"}"#),
            [("high-entropy secret assignment", 1)]
        );
    }

    #[test]
    fn ignores_placeholders_and_prose() {
        for text in [
            "api_key = \"your-api-key-here\"",
            "password = \"xxxxxxxxxxxxxxxxxxxx\"",
            "token = ${GITHUB_TOKEN}",
            "The secret is to write tests.",
            "AKIASHORT",
            "let api_key = std::env::var(\"API_KEY\")?;",
        ] {
            assert_eq!(kinds(text), [], "{text}");
        }
    }
}
