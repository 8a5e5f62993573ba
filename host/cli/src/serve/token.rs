//! The bearer token of `serve --http`: where it is configured, and the check of a
//! request's `Authorization` header against it.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use anyhow::{Context, bail};
use hyper::header::HeaderValue;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The environment variable that holds the token when `--token-file` is absent.
pub const TOKEN_ENV: &str = hookhost::TOKEN_ENV;

/// The bearer token, kept as its SHA-256: comparing digests in constant time hides
/// the token's length as well as its content from a client that times the 401s.
pub struct Token([u8; 32]);

impl Token {
    /// From `--token-file`, else `HOOKHOST_TOKEN`; neither (or an empty one) refuses
    /// the start.
    pub fn configured(file: Option<&Path>) -> anyhow::Result<Token> {
        let text = match file {
            Some(path) => read_token_file(path)?,
            None => std::env::var(TOKEN_ENV).unwrap_or_default(),
        };
        let token = text.trim();
        if token.is_empty() {
            let from = match file {
                Some(path) => format!("the token file {} is empty", path.display()),
                None => format!("no token: neither --token-file nor {TOKEN_ENV} is set"),
            };
            bail!(
                "serve --http: {from}; every request must carry `Authorization: Bearer \
                 TOKEN`. Make one, e.g. `openssl rand -hex 32 > ~/.config/hookhost/token`, \
                 and pass --token-file ~/.config/hookhost/token (or set {TOKEN_ENV})"
            );
        }
        Ok(Token(Sha256::digest(token.as_bytes()).into()))
    }

    /// Whether `authorization` is `Bearer <this token>` (scheme case-insensitive).
    pub fn admits(&self, authorization: Option<&HeaderValue>) -> bool {
        let Some(given) = authorization
            .map(HeaderValue::as_bytes)
            .and_then(|v| v.split_at_checked(7))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case(b"bearer "))
            .map(|(_, token)| token.trim_ascii())
        else {
            return false;
        };
        let digest: [u8; 32] = Sha256::digest(given).into();
        digest.ct_eq(&self.0).into()
    }
}

fn read_token_file(path: &Path) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("--token-file {}: cannot read it", path.display()))?;
    if let Ok(meta) = std::fs::metadata(path)
        && meta.permissions().mode() & 0o077 != 0
    {
        eprintln!(
            "hookhost: warning: the token file {} can be read by other users (chmod 600 it)",
            path.display()
        );
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_exact_bearer_token_is_admitted() {
        let token = Token(Sha256::digest(b"s3cret").into());
        let admits = |v: &'static str| token.admits(Some(&HeaderValue::from_static(v)));
        assert!(admits("Bearer s3cret"));
        assert!(admits("bearer s3cret"));
        assert!(!admits("Bearer s3cre"));
        assert!(!admits("Bearer s3crett"));
        assert!(!admits("Basic s3cret"));
        assert!(!admits("s3cret"));
        assert!(!token.admits(None));
    }
}
