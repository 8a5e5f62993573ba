//! Secret detectors: private keys and a few high-confidence access tokens in
//! text an agent is about to write, run or send.
//!
//! Each rule looks for the *secret*, not for a mention of it, so that a policy
//! can block `write_file` of a key without blocking
//! `grep -- '-----BEGIN RSA PRIVATE KEY-----' src > leaks.txt`. The rules, one
//! per [`SecretKind`]:
//!
//! - **PEM and OpenSSH private keys** ([`find_private_key`]): a
//!   `-----BEGIN <label>PRIVATE KEY-----` line (labels: none (PKCS #8), `RSA`,
//!   `EC`, `DSA`, `OPENSSH`, `ENCRYPTED`; and `PGP PRIVATE KEY BLOCK`), then
//!   optional `Name: value` header lines and blank lines, then base64 body
//!   lines (at least 64 base64 characters in all), then the matching `-----END
//!   …-----` line. Lines may be separated by real newlines or by the two
//!   characters `\n` (a key pasted into JSON, `.env` or YAML). A bare marker, a
//!   marker followed by anything but base64, or a body without its END line does
//!   not count.
//! - **AWS access key** ([`SecretKind::AwsAccessKey`]): an access key ID
//!   (`AKIA` or `ASIA` and 16 upper-case letters or digits, standing alone)
//!   *and*, anywhere in the same text, a 40-character secret access key
//!   (letters, digits, `/`, `+`, with upper case, lower case and a digit,
//!   standing alone). The ID alone is not secret. IDs ending in `EXAMPLE`
//!   (AWS's documentation keys) are ignored.
//! - **GitHub token** ([`SecretKind::GitHubToken`]): `ghp_`, `gho_`, `ghu_`,
//!   `ghs_` or `ghr_` followed by at least 36 letters and digits, or
//!   `github_pat_` followed by at least 70 letters, digits and `_`; not preceded
//!   by a letter, digit or `_`.
//! - **Slack token** ([`SecretKind::SlackToken`]): `xoxb-`, `xoxa-`, `xoxp-`,
//!   `xoxr-` or `xoxs-`, then at least two `-`-separated groups of 8 or more
//!   digits, then more token characters, at least 40 characters in all.
//!
//! No rule decodes or verifies what it finds; the lengths and shapes keep
//! false positives rare, not impossible.

use std::fmt;

/// What kind of secret a detector found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SecretKind {
    /// `-----BEGIN PRIVATE KEY-----` (PKCS #8).
    Pkcs8PrivateKey,
    /// `-----BEGIN RSA PRIVATE KEY-----`.
    RsaPrivateKey,
    /// `-----BEGIN EC PRIVATE KEY-----`.
    EcPrivateKey,
    /// `-----BEGIN DSA PRIVATE KEY-----`.
    DsaPrivateKey,
    /// `-----BEGIN OPENSSH PRIVATE KEY-----`.
    OpenSshPrivateKey,
    /// `-----BEGIN ENCRYPTED PRIVATE KEY-----` (PKCS #8, passphrase-protected).
    EncryptedPrivateKey,
    /// `-----BEGIN PGP PRIVATE KEY BLOCK-----`.
    PgpPrivateKey,
    /// An AWS access key ID with its secret access key.
    AwsAccessKey,
    /// A GitHub personal access, OAuth, app or refresh token.
    GitHubToken,
    /// A Slack bot, user, app or refresh token.
    SlackToken,
}

impl SecretKind {
    /// A short description, e.g. `an OpenSSH private key`.
    pub fn description(self) -> &'static str {
        match self {
            Self::Pkcs8PrivateKey => "a PKCS #8 private key",
            Self::RsaPrivateKey => "an RSA private key",
            Self::EcPrivateKey => "an EC private key",
            Self::DsaPrivateKey => "a DSA private key",
            Self::OpenSshPrivateKey => "an OpenSSH private key",
            Self::EncryptedPrivateKey => "an encrypted private key",
            Self::PgpPrivateKey => "a PGP private key",
            Self::AwsAccessKey => "an AWS access key",
            Self::GitHubToken => "a GitHub token",
            Self::SlackToken => "a Slack token",
        }
    }

    /// Whether this is one of the private-key kinds.
    pub fn is_private_key(self) -> bool {
        !matches!(
            self,
            Self::AwsAccessKey | Self::GitHubToken | Self::SlackToken
        )
    }
}

impl fmt::Display for SecretKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

/// The PEM labels between `-----BEGIN ` and `-----`, and their kinds.
const KEY_LABELS: &[(&str, SecretKind)] = &[
    ("PRIVATE KEY", SecretKind::Pkcs8PrivateKey),
    ("RSA PRIVATE KEY", SecretKind::RsaPrivateKey),
    ("EC PRIVATE KEY", SecretKind::EcPrivateKey),
    ("DSA PRIVATE KEY", SecretKind::DsaPrivateKey),
    ("OPENSSH PRIVATE KEY", SecretKind::OpenSshPrivateKey),
    ("ENCRYPTED PRIVATE KEY", SecretKind::EncryptedPrivateKey),
    ("PGP PRIVATE KEY BLOCK", SecretKind::PgpPrivateKey),
];

/// The fewest base64 characters a key body must have (the smallest real
/// keys, EC P-256 and Ed25519, have well over 100).
const MIN_KEY_BODY: usize = 64;

/// Finds the first secret of any kind in `text`: a private key, then the token
/// rules in the order of [`SecretKind`]. See the [module documentation](self)
/// for each rule.
pub fn find_secret(text: &str) -> Option<SecretKind> {
    find_private_key(text)
        .or_else(|| find_aws_access_key(text).then_some(SecretKind::AwsAccessKey))
        .or_else(|| find_github_token(text).then_some(SecretKind::GitHubToken))
        .or_else(|| find_slack_token(text).then_some(SecretKind::SlackToken))
}

/// Finds a whole private key (BEGIN line, base64 body, END line) in `text`;
/// see the [module documentation](self).
pub fn find_private_key(text: &str) -> Option<SecretKind> {
    if !text.contains("PRIVATE KEY") {
        return None;
    }
    let lines: Vec<&str> = text
        .split('\n')
        .flat_map(|line| line.split("\\n"))
        .map(|line| line.trim_end_matches('\r'))
        .collect();
    for (i, line) in lines.iter().enumerate() {
        let Some((label, kind)) = begin_label(line) else {
            continue;
        };
        if has_key_body(lines.get(i + 1..).unwrap_or_default(), label) {
            return Some(kind);
        }
    }
    None
}

/// The label and kind of a `-----BEGIN <label>-----` marker in `line`.
fn begin_label(line: &str) -> Option<(&'static str, SecretKind)> {
    let after = &line[line.find("-----BEGIN ")? + "-----BEGIN ".len()..];
    let label = &after[..after.find("-----")?];
    KEY_LABELS
        .iter()
        .find(|(l, _)| *l == label)
        .map(|&(l, kind)| (l, kind))
}

/// Whether `lines` (those after a BEGIN marker) hold headers, a base64 body of
/// at least [`MIN_KEY_BODY`] characters and the END marker for `label`.
fn has_key_body(lines: &[&str], label: &str) -> bool {
    let mut body = 0usize;
    let mut in_headers = true;
    for line in lines {
        let line = line.trim();
        if let Some(at) = line.find("-----END ") {
            let rest = &line[at + "-----END ".len()..];
            return rest
                .strip_prefix(label)
                .is_some_and(|r| r.starts_with("-----"))
                && body >= MIN_KEY_BODY;
        }
        if line.is_empty() {
            continue;
        }
        if in_headers && is_header(line) {
            continue;
        }
        in_headers = false;
        // PGP's checksum line: `=AbCd`.
        let data = line.strip_prefix('=').unwrap_or(line);
        if !data
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
        {
            return false;
        }
        body += data.len();
    }
    false
}

/// `Proc-Type: 4,ENCRYPTED`, `DEK-Info: …`, `Version: …`, `Comment: …`.
fn is_header(line: &str) -> bool {
    line.split_once(": ").is_some_and(|(name, _)| {
        !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    })
}

/// The maximal runs of bytes in `text` for which `class` holds, with their
/// start offsets.
fn runs(text: &str, class: impl Fn(u8) -> bool) -> impl Iterator<Item = (usize, &str)> {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() && !class(bytes[i]) {
            i += 1;
        }
        if i >= bytes.len() {
            return None;
        }
        let start = i;
        while i < bytes.len() && class(bytes[i]) {
            i += 1;
        }
        // Runs are of ASCII bytes, so both ends are character boundaries.
        text.get(start..i).map(|run| (start, run))
    })
}

/// An AWS access key ID and a secret access key, both in `text`.
fn find_aws_access_key(text: &str) -> bool {
    let id = runs(text, |b| b.is_ascii_alphanumeric()).any(|(_, run)| {
        run.len() == 20
            && (run.starts_with("AKIA") || run.starts_with("ASIA"))
            && run
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
            && !run.ends_with("EXAMPLE")
    });
    id && runs(text, |b| {
        b.is_ascii_alphanumeric() || matches!(b, b'/' | b'+')
    })
    .any(|(_, run)| {
        run.len() == 40
            && run.bytes().any(|b| b.is_ascii_uppercase())
            && run.bytes().any(|b| b.is_ascii_lowercase())
            && run.bytes().any(|b| b.is_ascii_digit())
            && !run.contains("EXAMPLE")
    })
}

/// A GitHub token: `ghp_` & co. with 36+ alphanumerics, or `github_pat_`.
fn find_github_token(text: &str) -> bool {
    runs(text, |b| b.is_ascii_alphanumeric() || b == b'_').any(|(_, run)| {
        if let Some(rest) = run.strip_prefix("github_pat_") {
            return rest.len() >= 70;
        }
        ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"].iter().any(|p| {
            run.strip_prefix(p).is_some_and(|rest| {
                rest.len() >= 36 && rest.bytes().all(|b| b.is_ascii_alphanumeric())
            })
        })
    })
}

/// A Slack token: `xox[abprs]-`, two or more groups of 8+ digits, 40+ characters.
fn find_slack_token(text: &str) -> bool {
    runs(text, |b| b.is_ascii_alphanumeric() || b == b'-').any(|(_, run)| {
        let Some(rest) = ["xoxb-", "xoxa-", "xoxp-", "xoxr-", "xoxs-"]
            .iter()
            .find_map(|p| run.strip_prefix(p))
        else {
            return false;
        };
        let numeric_groups = rest
            .split('-')
            .take_while(|g| g.len() >= 8 && g.bytes().all(|b| b.is_ascii_digit()))
            .count();
        run.len() >= 40 && numeric_groups >= 2 && rest.split('-').count() > numeric_groups
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A syntactically valid OpenSSH key body (not a real key: random base64).
    const OPENSSH_KEY: &str = "-----BEGIN OPENSSH PRIVATE KEY-----
b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW
QyNTUxOQAAACBzb21lIHB1YmxpYyBrZXkgYnl0ZXMgZm9yIGEgdGVzdAAAAJgAAAAAAAAA
AAAAAAtzc2gtZWQyNTUxOQAAACBzb21lIHB1YmxpYyBrZXkgYnl0ZXMgZm9yIGEgdGVzdA
AAAEDmYWtlIHByaXZhdGUga2V5IG1hdGVyaWFsIGZvciB0ZXN0cyBvbmx5AAAAAAECAwQF
-----END OPENSSH PRIVATE KEY-----
";

    #[test]
    fn seen_openssh_private_key_file_is_a_secret() {
        assert_eq!(
            find_private_key(OPENSSH_KEY),
            Some(SecretKind::OpenSshPrivateKey)
        );
        assert_eq!(
            find_secret(OPENSSH_KEY),
            Some(SecretKind::OpenSshPrivateKey)
        );
        let crlf = OPENSSH_KEY.replace('\n', "\r\n");
        assert_eq!(find_private_key(&crlf), Some(SecretKind::OpenSshPrivateKey));
        let indented = format!("key: |\n{}", OPENSSH_KEY.replace('\n', "\n  "));
        assert_eq!(
            find_private_key(&indented),
            Some(SecretKind::OpenSshPrivateKey)
        );
    }

    #[test]
    fn seen_grep_for_the_marker_is_not_a_secret() {
        let grep = "grep -- '-----BEGIN RSA PRIVATE KEY-----' src > leaks.txt";
        assert_eq!(find_private_key(grep), None);
        assert_eq!(find_secret(grep), None);
        let both = "grep -e '-----BEGIN RSA PRIVATE KEY-----' -e '-----END RSA PRIVATE KEY-----' .";
        assert_eq!(find_secret(both), None);
        // A marker pair without a body (a test fixture, a doc).
        let empty = "-----BEGIN RSA PRIVATE KEY-----\n-----END RSA PRIVATE KEY-----\n";
        assert_eq!(find_private_key(empty), None);
        // A body without its END line.
        let cut = OPENSSH_KEY.replace("-----END OPENSSH PRIVATE KEY-----", "");
        assert_eq!(find_private_key(&cut), None);
        // Public keys and certificates are not secret.
        let cert = OPENSSH_KEY.replace("OPENSSH PRIVATE KEY", "CERTIFICATE");
        assert_eq!(find_private_key(&cert), None);
        // Mismatched END label.
        let mismatch = OPENSSH_KEY.replace("END OPENSSH", "END RSA");
        assert_eq!(find_private_key(&mismatch), None);
    }

    #[test]
    fn every_pem_label() {
        let body = OPENSSH_KEY
            .lines()
            .filter(|l| !l.starts_with("-----"))
            .collect::<Vec<_>>()
            .join("\n");
        for (label, kind) in KEY_LABELS {
            let pem = format!("-----BEGIN {label}-----\n{body}\n-----END {label}-----\n");
            assert_eq!(find_private_key(&pem), Some(*kind), "{label}");
            assert!(kind.is_private_key());
        }
        let encrypted = format!(
            "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0011\n\n{body}\n-----END RSA PRIVATE KEY-----"
        );
        assert_eq!(
            find_private_key(&encrypted),
            Some(SecretKind::RsaPrivateKey)
        );
        let pgp = format!(
            "-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: x\n\n{body}\n=AbCd\n-----END PGP PRIVATE KEY BLOCK-----"
        );
        assert_eq!(find_private_key(&pgp), Some(SecretKind::PgpPrivateKey));
        // Escaped newlines, as in a JSON string or a .env line.
        let escaped = format!(
            "PRIVATE_KEY=\"-----BEGIN PRIVATE KEY-----\\n{}\\n-----END PRIVATE KEY-----\\n\"",
            body.replace('\n', "\\n")
        );
        assert_eq!(
            find_private_key(&escaped),
            Some(SecretKind::Pkcs8PrivateKey)
        );
    }

    #[test]
    fn aws_needs_both_halves() {
        let id = "AKIAZ7Q3XJ2LMN4PQRST";
        let secret = "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";
        assert_eq!(find_secret(id), None);
        assert_eq!(
            find_secret(&format!(
                "aws_access_key_id = {id}\naws_secret_access_key = {secret}\n"
            )),
            Some(SecretKind::AwsAccessKey)
        );
        // AWS's documentation example.
        assert_eq!(
            find_secret("AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
            None
        );
        // Embedded in a longer identifier.
        assert_eq!(find_secret(&format!("X{id} {secret}")), None);
    }

    #[test]
    fn github_and_slack_tokens() {
        let ghp = format!("ghp_{}", "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A");
        assert_eq!(
            find_secret(&format!("token: {ghp}")),
            Some(SecretKind::GitHubToken)
        );
        let pat = format!("github_pat_{}", "A1b2C3d4E5_".repeat(8));
        assert_eq!(find_secret(&pat), Some(SecretKind::GitHubToken));
        assert_eq!(find_secret("ghp_short"), None);
        assert_eq!(find_secret(&format!("my{ghp}")), None);
        let slack = "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx";
        assert_eq!(find_secret(slack), Some(SecretKind::SlackToken));
        assert_eq!(find_secret("xoxb-not-a-token"), None);
        assert_eq!(find_secret("see xoxp- docs"), None);
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        for text in [
            "",
            "-----BEGIN ",
            "-----BEGIN -----",
            "-----BEGIN PRIVATE KEY",
            "-----BEGIN PRIVATE KEY-----",
            "\\n\\n\\n-----END PRIVATE KEY-----",
            "é-----BEGIN RSA PRIVATE KEY-----é\nAAAA\n-----END é",
            "AKIA",
            "ghp_",
            "xoxb-",
        ] {
            let _ = find_secret(text);
        }
    }
}
