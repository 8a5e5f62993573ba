//! High-confidence secrets in text: what the SDK's detectors find (private
//! keys, AWS key pairs) plus access tokens by their documented formats —
//! GitHub, GitLab, Slack, Stripe live keys, OpenAI and Anthropic keys.
//!
//! A token must have its full documented length and look random: a body with
//! a placeholder word (`EXAMPLE`, `your`, `xxxx`, `REDACTED` …), a long run of
//! one character or a counting sequence is a placeholder, not a secret. What
//! is found is shown by its prefix and first characters only, so the block
//! reason does not repeat the secret to the model.

use hookhost_guest::secrets::{self, SecretKind};

/// A secret found in text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// What it is, e.g. `a GitHub token`.
    pub kind: &'static str,
    /// A redacted view of it, e.g. `ghp_aB3d… (40 characters)`.
    pub shown: String,
}

/// A token rule: its prefixes, the characters of its body, the body's
/// shortest length, and what it is.
struct Rule {
    prefixes: &'static [&'static str],
    body: fn(u8) -> bool,
    min_len: usize,
    kind: &'static str,
}

fn alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

fn alnum_underscore(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn url_safe(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// The token rules, most specific prefix first (`sk-ant-` before `sk-`).
const RULES: &[Rule] = &[
    Rule {
        prefixes: &["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
        body: alnum,
        min_len: 36,
        kind: "a GitHub token",
    },
    Rule {
        prefixes: &["github_pat_"],
        body: alnum_underscore,
        min_len: 70,
        kind: "a GitHub fine-grained token",
    },
    Rule {
        prefixes: &["glpat-"],
        body: url_safe,
        min_len: 20,
        kind: "a GitLab token",
    },
    Rule {
        prefixes: &["sk_live_", "rk_live_"],
        body: alnum,
        min_len: 24,
        kind: "a Stripe live key",
    },
    Rule {
        prefixes: &["sk-ant-api", "sk-ant-admin", "sk-ant-oat", "sk-ant-sid"],
        body: url_safe,
        min_len: 80,
        kind: "an Anthropic API key",
    },
    Rule {
        prefixes: &["sk-proj-", "sk-svcacct-", "sk-admin-", "sk-None-"],
        body: url_safe,
        min_len: 40,
        kind: "an OpenAI API key",
    },
];

/// Finds the first high-confidence secret in `text`.
pub fn find(text: &str) -> Option<Found> {
    if let Some(kind) = secrets::find_private_key(text) {
        return Some(Found {
            kind: kind.description(),
            shown: "-----BEGIN … PRIVATE KEY----- with its body".to_owned(),
        });
    }
    if secrets::find_secret(text) == Some(SecretKind::AwsAccessKey) {
        let id = words(text, alnum).find(|w| w.len() == 20 && w.starts_with("A"));
        return Some(Found {
            kind: "an AWS access key with its secret",
            shown: id.map_or_else(|| "AKIA…".to_owned(), redact),
        });
    }
    words(text, url_safe).find_map(token)
}

/// The kind of token `word` is, if it is one.
fn token(word: &str) -> Option<Found> {
    for rule in RULES {
        for prefix in rule.prefixes {
            let Some(at) = word.find(prefix) else {
                continue;
            };
            // A prefix in the middle of a word (`my_ghp_…`) is not a token start.
            if at > 0 && !word[..at].ends_with('-') {
                continue;
            }
            let candidate = &word[at..];
            let rest = &candidate[prefix.len()..];
            let body_len = rest.bytes().take_while(|&b| (rule.body)(b)).count();
            if body_len >= rule.min_len && looks_random(&rest[..body_len]) {
                return Some(Found {
                    kind: rule.kind,
                    shown: redact(candidate),
                });
            }
        }
    }
    slack(word).or_else(|| openai_legacy(word))
}

/// A Slack token: `xox[abprs]-`, two or more groups of 8+ digits, then more.
fn slack(word: &str) -> Option<Found> {
    let rest = ["xoxb-", "xoxa-", "xoxp-", "xoxr-", "xoxs-"]
        .iter()
        .find_map(|p| word.strip_prefix(p))?;
    let groups: Vec<&str> = rest.split('-').collect();
    let numeric = groups
        .iter()
        .take_while(|g| g.len() >= 8 && g.bytes().all(|b| b.is_ascii_digit()))
        .count();
    let tail = groups.get(numeric..).unwrap_or_default().join("");
    (word.len() >= 40 && numeric >= 2 && tail.len() >= 8 && looks_random(&tail)).then(|| Found {
        kind: "a Slack token",
        shown: redact(word),
    })
}

/// A legacy OpenAI key: `sk-` and 48 letters and digits.
fn openai_legacy(word: &str) -> Option<Found> {
    let rest = word.strip_prefix("sk-")?;
    (rest.len() == 48 && rest.bytes().all(alnum) && looks_random(rest)).then(|| Found {
        kind: "an OpenAI API key",
        shown: redact(word),
    })
}

/// Words that mark a documentation or test value, not a secret.
const PLACEHOLDERS: &[&str] = &[
    "example",
    "placeholder",
    "redacted",
    "dummy",
    "fake",
    "sample",
    "your",
    "xxxx",
    "test",
    "0123456",
    "123456789",
    "abcdefgh",
    "changeme",
];

/// Whether a token body looks like random key material.
fn looks_random(body: &str) -> bool {
    let lower = body.to_ascii_lowercase();
    if PLACEHOLDERS.iter().any(|p| lower.contains(p)) {
        return false;
    }
    let bytes = body.as_bytes();
    let longest_run = bytes
        .chunk_by(|a, b| a == b)
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0);
    let mut distinct = [false; 256];
    for &b in bytes {
        distinct[usize::from(b)] = true;
    }
    let variety = distinct.iter().filter(|&&d| d).count();
    longest_run < 5
        && variety >= 12
        && bytes.iter().any(u8::is_ascii_digit)
        && bytes.iter().any(u8::is_ascii_alphabetic)
}

/// `secret` shortened to its first characters and its length.
fn redact(secret: &str) -> String {
    let head: String = secret.chars().take(8).collect();
    format!("{head}… ({} characters)", secret.chars().count())
}

/// The maximal runs of `class` bytes in `text`.
fn words(text: &str, class: impl Fn(u8) -> bool) -> impl Iterator<Item = &str> {
    text.split(move |c: char| !c.is_ascii() || !class(c as u8))
        .filter(|w| !w.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    pub const GHP: &str = "ghp_R8x2Lq9ZvT4mN7bC1kP5sW3yH6jD0fG2aE9u";

    #[test]
    fn tokens_by_format() {
        let cases = [
            (GHP.to_owned(), "a GitHub token"),
            (
                format!("github_pat_11ABCDE2Y0{}", "q8Rw3ZtK5m_".repeat(7)),
                "a GitHub fine-grained token",
            ),
            ("glpat-Zq3x9RtK2mW7bN4vC8sL".to_owned(), "a GitLab token"),
            (
                "xoxb-2837461920-3948572615-Qw8eRt5yUi2oPa7sDf3gHj9k".to_owned(),
                "a Slack token",
            ),
            (
                "sk_live_51Hq8ZtK3mW7bN4vC8sLx2Rq9P".to_owned(),
                "a Stripe live key",
            ),
            (
                format!("sk-proj-{}", "Aq7Zr3Kt9Wm2Xb5Nc8Vd1Le4Fg6Hj0".repeat(3)),
                "an OpenAI API key",
            ),
            (
                "sk-Rq8Zt3Km7Wb2Nx5Vc9Ld4Fg1Hj6Pa0Se8Ty3Ui7Ow2Qe5Rt4".to_owned(),
                "an OpenAI API key",
            ),
            (
                format!(
                    "sk-ant-api03-{}AA",
                    "Zq8Rt3Km7Wb2Nx5Vc9Ld4Fg1Hj6Pa0S".repeat(3)
                ),
                "an Anthropic API key",
            ),
        ];
        for (text, kind) in cases {
            let found = find(&format!("KEY=\"{text}\"\n"));
            assert_eq!(found.map(|f| f.kind), Some(kind), "{text}");
        }
    }

    #[test]
    fn placeholders_and_mentions_are_not_secrets() {
        for text in [
            "sk-...",
            "sk-proj-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "ghp_EXAMPLEEXAMPLEEXAMPLEEXAMPLE12345678",
            "sk_test_51Hq8ZtK3mW7bN4vC8sLx2Rq9P",
            "AKIAIOSFODNN7EXAMPLE",
            "AKIAZ7Q3XJ2LMN4PQRST",
            "<your-key>",
            "grep -- '-----BEGIN RSA PRIVATE KEY-----'",
            "my_ghp_R8x2Lq9ZvT4mN7bC1kP5sW3yH6jD0fG2aE9u",
            "sk-ant-api03-...",
            "pk_live_51Hq8ZtK3mW7bN4vC8sLx2Rq9P",
        ] {
            assert_eq!(find(text), None, "{text}");
        }
    }

    #[test]
    fn shown_part_is_redacted() {
        let found = find(GHP).map(|f| f.shown);
        assert_eq!(found.as_deref(), Some("ghp_R8x2… (40 characters)"));
    }
}
