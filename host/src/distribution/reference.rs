//! Module references: `oci://REGISTRY/REPOSITORY[:TAG][@sha256:DIGEST]`, and digests.

use sha2::{Digest, Sha256};

/// The scheme a `source` must start with.
pub const SCHEME: &str = "oci://";

/// What a reference must look like, as error messages say it.
const EXPECTED: &str = "expected oci://REGISTRY/REPOSITORY[:TAG][@sha256:DIGEST]";

/// Why a text is not an `oci://` reference: each message quotes the text and says
/// what is expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReferenceError {
    /// No `oci://` scheme, or no `REGISTRY/REPOSITORY`.
    #[error("{text:?}: {EXPECTED}")]
    Malformed {
        /// The text.
        text: String,
    },
    /// The part after `@` is not a sha256 digest.
    #[error("{text:?}: the digest must be sha256: and 64 lowercase hexadecimal digits")]
    Digest {
        /// The text.
        text: String,
    },
    /// The registry, repository or tag has characters it may not have.
    #[error(
        "{text:?}: {EXPECTED} (repository: lowercase letters, digits, '.', '_', '-', '/'; \
         tag: letters, digits, '.', '_', '-')"
    )]
    Characters {
        /// The text.
        text: String,
    },
}

/// A parsed `oci://` reference.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ModuleRef {
    /// The registry host, with its port if any (`ghcr.io`, `127.0.0.1:5000`).
    pub registry: String,
    /// The repository path (`acme/secret-scan`).
    pub repository: String,
    /// The tag; `latest` when neither a tag nor a digest was given.
    pub tag: Option<String>,
    /// The pinned manifest digest, `sha256:<hex>`.
    pub digest: Option<String>,
}

impl ModuleRef {
    /// Parses a reference; the error says what is wrong and what is expected.
    pub fn parse(text: &str) -> Result<ModuleRef, ReferenceError> {
        let malformed = || ReferenceError::Malformed {
            text: text.to_owned(),
        };
        let rest = text.strip_prefix(SCHEME).ok_or_else(malformed)?;
        let (name, digest) = match rest.split_once('@') {
            Some((name, digest)) => {
                if parse_digest(digest).is_none() {
                    return Err(ReferenceError::Digest {
                        text: text.to_owned(),
                    });
                }
                (name, Some(digest.to_owned()))
            }
            None => (rest, None),
        };
        let (registry, path) = name
            .split_once('/')
            .filter(|(registry, path)| !registry.is_empty() && !path.is_empty())
            .ok_or_else(malformed)?;
        let (repository, tag) = match path.rsplit_once(':') {
            Some((repository, tag)) if !tag.contains('/') => (repository, Some(tag.to_owned())),
            _ => (path, None),
        };
        let registry_ok = registry
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c));
        let repository_ok = !repository.is_empty()
            && repository.split('/').all(|part| {
                !part.is_empty()
                    && part
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._-".contains(c))
            });
        let tag_ok = tag.as_deref().is_none_or(|t| {
            !t.is_empty()
                && t.len() <= 128
                && t.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        });
        if !registry_ok || !repository_ok || !tag_ok {
            return Err(ReferenceError::Characters {
                text: text.to_owned(),
            });
        }
        let tag = match (&tag, &digest) {
            (None, None) => Some("latest".to_owned()),
            _ => tag,
        };
        Ok(ModuleRef {
            registry: registry.to_owned(),
            repository: repository.to_owned(),
            tag,
            digest,
        })
    }

    /// The reference without its digest, e.g. `oci://ghcr.io/acme/scan:1.4`: the key
    /// of its lock entry.
    pub fn tagged(&self) -> String {
        let mut text = format!("{SCHEME}{}/{}", self.registry, self.repository);
        if let Some(tag) = &self.tag {
            text.push(':');
            text.push_str(tag);
        }
        text
    }

    /// The same repository at a digest.
    pub fn at_digest(&self, digest: &str) -> ModuleRef {
        ModuleRef {
            digest: Some(digest.to_owned()),
            ..self.clone()
        }
    }

    /// The reference as a registry client spells it (no scheme).
    pub fn without_scheme(&self) -> String {
        let text = self.to_string();
        text.strip_prefix(SCHEME).unwrap_or(&text).to_owned()
    }

    /// Whether the registry is on this machine (plain HTTP is allowed for it).
    pub fn is_loopback(&self) -> bool {
        let host = match self.registry.rsplit_once(':') {
            Some((host, port))
                if !host.ends_with(':') && port.chars().all(|c| c.is_ascii_digit()) =>
            {
                host
            }
            _ => self.registry.as_str(),
        };
        let host = host.trim_start_matches('[').trim_end_matches(']');
        host == "localhost"
            || host
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback())
    }
}

impl std::fmt::Display for ModuleRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.tagged())?;
        if let Some(digest) = &self.digest {
            write!(f, "@{digest}")?;
        }
        Ok(())
    }
}

/// The 32 bytes of a `sha256:<hex>` digest, if it is one.
pub fn parse_digest(text: &str) -> Option<[u8; 32]> {
    let hex_part = text.strip_prefix("sha256:")?;
    if hex_part.len() != 64 || hex_part.chars().any(|c| c.is_ascii_uppercase()) {
        return None;
    }
    let mut digest = [0u8; 32];
    hex::decode_to_slice(hex_part, &mut digest).ok()?;
    Some(digest)
}

/// The `sha256:<hex>` digest of some bytes.
pub fn digest_of(bytes: &[u8]) -> String {
    format!("sha256:{}", hex::encode(Sha256::digest(bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_tag_digest_and_port() {
        let digest = format!("sha256:{}", "a".repeat(64));
        let r = ModuleRef::parse(&format!("oci://127.0.0.1:5000/acme/scan:1.4@{digest}")).unwrap();
        assert_eq!(r.registry, "127.0.0.1:5000");
        assert_eq!(r.repository, "acme/scan");
        assert_eq!(r.tag.as_deref(), Some("1.4"));
        assert_eq!(r.digest.as_deref(), Some(digest.as_str()));
        assert!(r.is_loopback());
        assert_eq!(r.tagged(), "oci://127.0.0.1:5000/acme/scan:1.4");
        let plain = ModuleRef::parse("oci://ghcr.io/acme/scan").unwrap();
        assert_eq!(plain.tag.as_deref(), Some("latest"));
        assert!(!plain.is_loopback());
        assert!(
            ModuleRef::parse("oci://[::1]:80/a:b")
                .unwrap()
                .is_loopback()
        );
    }

    #[test]
    fn refuses_bad_references() {
        for bad in [
            "ghcr.io/acme/scan",
            "oci://ghcr.io",
            "oci:///scan",
            "oci://ghcr.io/Acme/scan",
            "oci://ghcr.io/acme/scan@sha256:abc",
            "oci://ghcr.io/acme/scan:bad tag",
        ] {
            assert!(ModuleRef::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn errors_quote_the_text_and_say_what_is_expected() {
        let message = |text: &str| ModuleRef::parse(text).unwrap_err().to_string();
        assert_eq!(
            message("ghcr.io/acme/scan"),
            "\"ghcr.io/acme/scan\": expected oci://REGISTRY/REPOSITORY[:TAG][@sha256:DIGEST]"
        );
        assert_eq!(
            message("oci://ghcr.io/acme/scan@sha256:abc"),
            "\"oci://ghcr.io/acme/scan@sha256:abc\": the digest must be sha256: and 64 \
             lowercase hexadecimal digits"
        );
        assert_eq!(
            message("oci://ghcr.io/Acme/scan"),
            "\"oci://ghcr.io/Acme/scan\": expected oci://REGISTRY/REPOSITORY[:TAG][@sha256:DIGEST] \
             (repository: lowercase letters, digits, '.', '_', '-', '/'; tag: letters, digits, \
             '.', '_', '-')"
        );
    }
}
