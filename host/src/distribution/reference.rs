//! Module references: `oci://REGISTRY/REPOSITORY[:TAG][@sha256:DIGEST]`, and digests.
//!
//! A parsed reference is canonical ([`super::canonical`]): two spellings of one
//! module (`oci://GHCR.IO:443/acme/scan`, `oci://ghcr.io/acme/scan`) parse to the
//! same [`ModuleRef`], so lock keys, `tools.verifyPlugins` prefixes and everything
//! else that compares references compare modules, not spellings.

use sha2::{Digest, Sha256};

use super::canonical::canonical_name;

/// The scheme a `source` must start with.
pub use super::canonical::SCHEME;

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

/// A parsed `oci://` reference, in canonical form.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ModuleRef {
    /// The registry host, canonical, with its port unless it is the default
    /// (`ghcr.io`, `127.0.0.1:5000`, `docker.io`).
    pub registry: String,
    /// The repository path (`acme/secret-scan`; `library/…` for Docker Hub's
    /// official images).
    pub repository: String,
    /// The tag; `latest` when neither a tag nor a digest was given.
    pub tag: Option<String>,
    /// The pinned manifest digest, `sha256:<hex>`.
    pub digest: Option<String>,
}

impl ModuleRef {
    /// Parses a reference into its canonical form; the error says what is wrong
    /// and what is expected.
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
        if !name
            .split_once('/')
            .is_some_and(|(registry, path)| !registry.is_empty() && !path.is_empty())
        {
            return Err(malformed());
        }
        let characters = || ReferenceError::Characters {
            text: text.to_owned(),
        };
        let (registry, path) = canonical_name(name).ok_or_else(characters)?;
        let (repository, tag) = match path.rsplit_once(':') {
            Some((repository, tag)) if !tag.contains('/') => (repository, Some(tag.to_owned())),
            _ => (path.as_str(), None),
        };
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
        if !repository_ok || !tag_ok {
            return Err(characters());
        }
        let tag = match (&tag, &digest) {
            (None, None) => Some("latest".to_owned()),
            _ => tag,
        };
        Ok(ModuleRef {
            registry,
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

/// The canonical spelling of the reference `text` (see [`super::canonical`]):
/// what two spellings of one module have in common.
pub fn canonical(text: &str) -> Result<String, ReferenceError> {
    ModuleRef::parse(text).map(|reference| reference.to_string())
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

    /// Seen: `oci://GHCR.IO/acme/…`, `oci://ghcr.io:443/acme/…` and
    /// `oci://ghcr.io./acme/…` were other modules than `oci://ghcr.io/acme/…` to
    /// `tools.verifyPlugins`. Every spelling parses to one reference.
    #[test]
    fn every_spelling_of_a_module_is_one_reference() {
        let digest = format!("sha256:{}", "a".repeat(64));
        for spelled in [
            "oci://ghcr.io/acme/scan:1",
            "oci://GHCR.IO/acme/scan:1",
            "oci://ghcr.io:443/acme/scan:1",
            "oci://ghcr.io./acme/scan:1",
            "oci://GhCr.Io.:0443/acme/scan:1",
        ] {
            assert_eq!(canonical(spelled).unwrap(), "oci://ghcr.io/acme/scan:1");
            let pinned = format!("{spelled}@{digest}");
            assert_eq!(
                canonical(&pinned).unwrap(),
                format!("oci://ghcr.io/acme/scan:1@{digest}")
            );
        }
        for spelled in [
            "oci://docker.io/alpine:3",
            "oci://index.docker.io/library/alpine:3",
            "oci://registry-1.docker.io:443/alpine:3",
            "oci://library/alpine:3",
        ] {
            assert_eq!(
                canonical(spelled).unwrap(),
                "oci://docker.io/library/alpine:3"
            );
        }
        assert_eq!(
            canonical("oci://acme/scan").unwrap(),
            "oci://docker.io/acme/scan:latest"
        );
        assert_eq!(
            canonical("oci://LOCALHOST.:80/scan").unwrap(),
            "oci://localhost/scan:latest"
        );
        assert!(
            ModuleRef::parse("oci://127.1:5000/a:1")
                .unwrap()
                .is_loopback()
        );
        assert!(
            ModuleRef::parse("oci://LOCALHOST./a:1")
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
            "oci://ghcr..io/acme/scan",
            "oci://ghcr.io:99999/acme/scan",
            "oci://Acme/scan",
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
