//! Cosign-compatible signatures over a module's manifest digest (key-pair mode).
//!
//! cosign stores a signature of image `REPO@sha256:H` as another manifest in the same
//! repository, tagged `sha256-H.sig`, whose layers are "simple signing" payloads
//! (`application/vnd.dev.cosign.simplesigning.v1+json`): a small JSON document
//! naming the signed manifest digest, with the base64 ECDSA-P256/SHA-256 signature
//! of the payload bytes in the layer annotation `dev.cosignproject.cosign/signature`.
//! `cosign verify --key cosign.pub` accepts what [`sign`] writes, and hookhost
//! accepts what `cosign sign --key` writes. Keyless signing (Fulcio certificates,
//! Rekor transparency log) needs the internet and is not supported.
//!
//! Verification runs on what `pull`/`lock` put in the store, so it works offline:
//! the payload must verify with the configured public key *and* name the manifest
//! digest the lock (or the reference) pins.

use std::path::{Path, PathBuf};

use base64::Engine as _;
use p256::ecdsa::signature::{Signer, Verifier};
use p256::ecdsa::{Signature, SigningKey, VerifyingKey};
use p256::pkcs8::{DecodePrivateKey, DecodePublicKey};
use serde_json::{Value, json};

use super::manifest::{Manifest, ManifestError};
use super::reference::ModuleRef;
use super::store::{ModuleStore, SignatureRecord, StoreError};

/// The media type of a cosign payload layer.
pub const SIMPLE_SIGNING_MEDIA_TYPE: &str = "application/vnd.dev.cosign.simplesigning.v1+json";
/// The layer annotation holding the base64 signature.
pub const SIGNATURE_ANNOTATION: &str = "dev.cosignproject.cosign/signature";
/// The `type` of a cosign image signature payload.
pub const PAYLOAD_TYPE: &str = "cosign container image signature";

/// The tag cosign uses for the signatures of a manifest digest.
pub fn signature_tag(manifest_digest: &str) -> String {
    format!("{}.sig", manifest_digest.replacen(':', "-", 1))
}

/// The simple-signing payload cosign signs for `reference` at `manifest_digest`.
pub fn payload(reference: &ModuleRef, manifest_digest: &str) -> Vec<u8> {
    json!({
        "critical": {
            "identity": {"docker-reference": format!("{}/{}", reference.registry, reference.repository)},
            "image": {"docker-manifest-digest": manifest_digest},
            "type": PAYLOAD_TYPE
        },
        "optional": null
    })
    .to_string()
    .into_bytes()
}

/// Why a key cannot be used or a signature does not verify.
#[derive(Debug, thiserror::Error)]
pub enum SignatureError {
    /// The key file cannot be read.
    #[error("cannot read the key {path}: {source}")]
    ReadKey {
        /// The key file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not a P-256 public key in PEM.
    #[error("{path} is not an ECDSA P-256 public key in PEM ({problem})")]
    PublicKey {
        /// The key file.
        path: PathBuf,
        /// What the file holds instead (the key type found, by name and OID), or
        /// why it cannot be read.
        problem: String,
    },
    /// The file is not an unencrypted P-256 private key in PEM.
    #[error(
        "{path} is not an unencrypted ECDSA P-256 private key in PEM \
         (PKCS#8 \"PRIVATE KEY\" or SEC1 \"EC PRIVATE KEY\")"
    )]
    PrivateKey {
        /// The key file.
        path: PathBuf,
    },
    /// The registry had no signature when the module was pulled.
    #[error(
        "no signature of {digest} was found when it was pulled \
         (sign it with `hookhost plugin sign` or `cosign sign --key`, then pull again)"
    )]
    Unsigned {
        /// The manifest digest.
        digest: String,
    },
    /// The store holds no record of the module's signature at all (its record
    /// was removed, or the module was stored by an older hookhost).
    #[error(
        "the module store has no signature record for {digest} (removed from the store?); \
         fetch it again with `hookhost install` or `hookhost plugin pull`"
    )]
    NoRecord {
        /// The manifest digest.
        digest: String,
    },
    /// The stored signature manifest cannot be read.
    #[error("signature manifest: {0}")]
    SignatureManifest(#[source] StoreError),
    /// The stored signature manifest is not an OCI image manifest.
    #[error(transparent)]
    Manifest(#[from] ManifestError),
    /// The signature manifest has no cosign payload layer.
    #[error("signature invalid for key {key}: the signature manifest has no cosign payload")]
    NoPayload {
        /// The public key file.
        key: PathBuf,
    },
    /// No payload verifies: why each does not.
    #[error("signature invalid for key {key}: {}", joined(.problems))]
    Invalid {
        /// The public key file.
        key: PathBuf,
        /// Each payload's problem, in manifest order.
        problems: Vec<PayloadError>,
    },
}

/// Why one cosign payload does not vouch for a manifest digest.
#[derive(Debug, thiserror::Error)]
pub enum PayloadError {
    /// The layer has no signature annotation.
    #[error("a payload without a signature annotation")]
    NoAnnotation,
    /// The payload cannot be read from the store.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The signature is not base64.
    #[error("the signature is not base64")]
    NotBase64,
    /// The signature is not an ECDSA signature (DER or fixed-size).
    #[error("the signature is not an ECDSA signature")]
    NotEcdsa,
    /// The signature does not verify with the key.
    #[error("the signature does not verify with the key")]
    DoesNotVerify,
    /// The payload is not JSON.
    #[error("the payload is not JSON")]
    NotJson,
    /// The payload is not of a cosign image signature.
    #[error("the payload is not a cosign image signature")]
    NotCosign,
    /// The payload names another manifest digest.
    #[error("the signature is for {signed}, not for {expected}")]
    OtherDigest {
        /// The digest the payload names.
        signed: String,
        /// The digest that was to be verified.
        expected: String,
    },
    /// The payload names no manifest digest.
    #[error("the payload names no manifest digest")]
    NoDigest,
}

/// The problems, `; `-separated.
fn joined(problems: &[PayloadError]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// Reads a PEM public key (`cosign.pub`: an ECDSA P-256 `PUBLIC KEY`).
pub fn load_public_key(path: &Path) -> Result<VerifyingKey, SignatureError> {
    let text = read_key(path)?;
    VerifyingKey::from_public_key_pem(&text).map_err(|source| SignatureError::PublicKey {
        path: path.to_path_buf(),
        problem: public_key_problem(&text, &source),
    })
}

/// What a PEM public key that is not P-256 is: the decoder's error names the OID
/// it *expected*, so the key's own algorithm (and curve) is read from its
/// SubjectPublicKeyInfo and named instead (seen: an RSA key reported as
/// "unknown/unsupported algorithm OID: 1.2.840.10045.2.1", P-256's own OID).
fn public_key_problem(pem: &str, error: &p256::pkcs8::spki::Error) -> String {
    use p256::pkcs8::der::Decode;
    use p256::pkcs8::spki::SubjectPublicKeyInfoRef;
    let Ok((label, der)) = p256::pkcs8::der::pem::decode_vec(pem.as_bytes()) else {
        return format!("not a PEM public key: {error}");
    };
    if label != "PUBLIC KEY" {
        return format!("a PEM \"{label}\" block, not a \"PUBLIC KEY\"");
    }
    let Ok(info) = SubjectPublicKeyInfoRef::from_der(&der) else {
        return error.to_string();
    };
    let oid = info.algorithm.oid.to_string();
    let curve = info.algorithm.parameters_oid().ok().map(|c| c.to_string());
    let name = match (oid.as_str(), curve.as_deref()) {
        ("1.2.840.113549.1.1.1", _) => "an RSA key".to_owned(),
        ("1.3.101.112", _) => "an Ed25519 key".to_owned(),
        ("1.3.101.113", _) => "an Ed448 key".to_owned(),
        ("1.2.840.10045.2.1", Some("1.3.132.0.34")) => "an ECDSA P-384 key".to_owned(),
        ("1.2.840.10045.2.1", Some("1.3.132.0.35")) => "an ECDSA P-521 key".to_owned(),
        ("1.2.840.10045.2.1", Some("1.3.132.0.10")) => "an ECDSA secp256k1 key".to_owned(),
        ("1.2.840.10045.2.1", Some(curve)) => format!("an EC key on curve {curve}"),
        _ => "a key of another type".to_owned(),
    };
    format!(
        "it holds {name} (algorithm OID {oid}); cosign's default keys are P-256: `cosign generate-key-pair`"
    )
}

/// Reads a PEM private key: PKCS#8 (`PRIVATE KEY`) or SEC1 (`EC PRIVATE KEY`), P-256,
/// unencrypted.
pub fn load_private_key(path: &Path) -> Result<SigningKey, SignatureError> {
    let text = read_key(path)?;
    SigningKey::from_pkcs8_pem(&text)
        .or_else(|_| p256::SecretKey::from_sec1_pem(&text).map(SigningKey::from))
        .map_err(|_| SignatureError::PrivateKey {
            path: path.to_path_buf(),
        })
}

fn read_key(path: &Path) -> Result<String, SignatureError> {
    std::fs::read_to_string(path).map_err(|source| SignatureError::ReadKey {
        path: path.to_path_buf(),
        source,
    })
}

/// Signs a payload: the base64 DER signature cosign stores in the annotation.
pub fn sign(key: &SigningKey, payload: &[u8]) -> String {
    let signature: Signature = key.sign(payload);
    base64::engine::general_purpose::STANDARD.encode(signature.to_der().as_bytes())
}

/// Checks one payload and its base64 signature against a key and a digest.
pub fn verify_payload(
    key: &VerifyingKey,
    payload: &[u8],
    signature_b64: &str,
    manifest_digest: &str,
) -> Result<(), PayloadError> {
    let der = base64::engine::general_purpose::STANDARD
        .decode(signature_b64.trim())
        .map_err(|_| PayloadError::NotBase64)?;
    let signature = Signature::from_der(&der)
        .or_else(|_| Signature::from_slice(&der))
        .map_err(|_| PayloadError::NotEcdsa)?;
    key.verify(payload, &signature)
        .map_err(|_| PayloadError::DoesNotVerify)?;
    let payload: Value = serde_json::from_slice(payload).map_err(|_| PayloadError::NotJson)?;
    let critical = &payload["critical"];
    if critical["type"] != PAYLOAD_TYPE {
        return Err(PayloadError::NotCosign);
    }
    match critical["image"]["docker-manifest-digest"].as_str() {
        Some(signed) if signed == manifest_digest => Ok(()),
        Some(signed) => Err(PayloadError::OtherDigest {
            signed: signed.to_owned(),
            expected: manifest_digest.to_owned(),
        }),
        None => Err(PayloadError::NoDigest),
    }
}

/// Verifies, from the store alone, that a signature of `manifest_digest` made with
/// the key at `key_path` was pulled.
pub fn verify_stored(
    store: &ModuleStore,
    manifest_digest: &str,
    key_path: &Path,
) -> Result<(), SignatureError> {
    let key = load_public_key(key_path)?;
    let signature_digest = match store.read_signature_link(manifest_digest) {
        Some(SignatureRecord::Signed(digest)) => digest,
        Some(SignatureRecord::Unsigned) => {
            return Err(SignatureError::Unsigned {
                digest: manifest_digest.to_owned(),
            });
        }
        None => {
            return Err(SignatureError::NoRecord {
                digest: manifest_digest.to_owned(),
            });
        }
    };
    let bytes = store
        .read(&signature_digest)
        .map_err(SignatureError::SignatureManifest)?;
    let manifest = Manifest::parse(&bytes)?;
    let mut problems = Vec::new();
    for layer in manifest
        .layers
        .iter()
        .filter(|l| l.media_type == SIMPLE_SIGNING_MEDIA_TYPE)
    {
        let Some(signature) = layer.annotations.get(SIGNATURE_ANNOTATION) else {
            problems.push(PayloadError::NoAnnotation);
            continue;
        };
        match store
            .read(&layer.digest)
            .map_err(PayloadError::Store)
            .and_then(|payload| verify_payload(&key, &payload, signature, manifest_digest))
        {
            Ok(()) => return Ok(()),
            Err(problem) => problems.push(problem),
        }
    }
    let key = key_path.to_path_buf();
    Err(if problems.is_empty() {
        SignatureError::NoPayload { key }
    } else {
        SignatureError::Invalid { key, problems }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seen (issue 29, item 6): an RSA key was reported with P-256's own OID, as
    /// if it were the one found. The key's own algorithm is named.
    #[test]
    fn a_key_of_another_type_is_named_by_what_it_is() {
        const RSA: &str = "-----BEGIN PUBLIC KEY-----\nMIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQCvXBISdomM7wC+dVwRGCOJJGlS\nV/mbE6qZEm1VRhmj0A5bV+nNMnUmy5rSkIm66xIOkrgDC/PyC0lOCzVWrYZRdjkj\nennreDw0hZCvEutTWUGmZfIpLp1b9CkABAzTtwtL/qKPBSA9HUY96yi3Pus/MEsr\nUlNVOTKmiXgCHwUzqwIDAQAB\n-----END PUBLIC KEY-----\n";
        const ED25519: &str = "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAftqEF+/ZNtJziOc9cmp5ZROpcERBGOpfIVhMNfdq2nc=\n-----END PUBLIC KEY-----\n";
        const P384: &str = "-----BEGIN PUBLIC KEY-----\nMHYwEAYHKoZIzj0CAQYFK4EEACIDYgAElFAnCrwY0Kcx8ucX31ksF2nh1bBoRhpN\nqa0lDYIuFX6Zrut6a1gnb+PRWM+10QaJx3rI1SQ4zp7z6kqzbh5lrn2O+eZknmf/\nLl7EFGpTlQSr/EplvgFUvAxfqW40Oo0a\n-----END PUBLIC KEY-----\n";
        let dir = tempfile::tempdir().unwrap();
        for (pem, expected) in [
            (
                RSA,
                "it holds an RSA key (algorithm OID 1.2.840.113549.1.1.1)",
            ),
            (
                ED25519,
                "it holds an Ed25519 key (algorithm OID 1.3.101.112)",
            ),
            (
                P384,
                "it holds an ECDSA P-384 key (algorithm OID 1.2.840.10045.2.1)",
            ),
            (
                "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
                "a PEM \"CERTIFICATE\" block",
            ),
            ("not pem", "not a PEM public key"),
        ] {
            let path = dir.path().join("key.pem");
            std::fs::write(&path, pem).unwrap();
            let message = load_public_key(&path).unwrap_err().to_string();
            assert!(message.contains(expected), "{message}");
        }
        let message = {
            let path = dir.path().join("rsa.pem");
            std::fs::write(&path, RSA).unwrap();
            load_public_key(&path).unwrap_err().to_string()
        };
        assert!(
            !message.contains("unsupported algorithm OID: 1.2.840.10045.2.1"),
            "{message}"
        );
    }

    #[test]
    fn signs_and_verifies_the_cosign_payload() {
        let key = SigningKey::from_slice(&[7u8; 32]).unwrap();
        let other = SigningKey::from_slice(&[9u8; 32]).unwrap();
        let reference = ModuleRef::parse("oci://127.0.0.1:5000/acme/scan:1").unwrap();
        let digest = format!("sha256:{}", "b".repeat(64));
        let payload = payload(&reference, &digest);
        let signature = sign(&key, &payload);
        verify_payload(key.verifying_key(), &payload, &signature, &digest).unwrap();
        assert!(verify_payload(other.verifying_key(), &payload, &signature, &digest).is_err());
        let wrong = format!("sha256:{}", "c".repeat(64));
        let error = verify_payload(key.verifying_key(), &payload, &signature, &wrong)
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            format!("the signature is for {digest}, not for {wrong}")
        );
        assert_eq!(
            signature_tag(&digest),
            format!("sha256-{}.sig", "b".repeat(64))
        );
    }

    #[test]
    fn an_invalid_signature_lists_each_payload_problem() {
        let key = PathBuf::from("/keys/cosign.pub");
        let invalid = SignatureError::Invalid {
            key: key.clone(),
            problems: vec![PayloadError::NoAnnotation, PayloadError::DoesNotVerify],
        };
        assert_eq!(
            invalid.to_string(),
            "signature invalid for key /keys/cosign.pub: a payload without a signature \
             annotation; the signature does not verify with the key"
        );
        assert_eq!(
            SignatureError::NoPayload { key: key.clone() }.to_string(),
            "signature invalid for key /keys/cosign.pub: the signature manifest has no cosign \
             payload"
        );
        assert_eq!(
            SignatureError::PrivateKey { path: key }.to_string(),
            "/keys/cosign.pub is not an unencrypted ECDSA P-256 private key in PEM \
             (PKCS#8 \"PRIVATE KEY\" or SEC1 \"EC PRIVATE KEY\")"
        );
    }
}
