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
use super::store::{ModuleStore, StoreError};

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
    #[error("{path} is not an ECDSA P-256 public key in PEM ({source})")]
    PublicKey {
        /// The key file.
        path: PathBuf,
        /// What the decoder found.
        source: p256::pkcs8::spki::Error,
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
    /// No signature was stored when the module was pulled.
    #[error(
        "no signature of {digest} was found when it was pulled \
         (sign it with `hookhost plugin sign` or `cosign sign --key`, then pull again)"
    )]
    Unsigned {
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
        source,
    })
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
    let unsigned = || SignatureError::Unsigned {
        digest: manifest_digest.to_owned(),
    };
    let signature_digest = store
        .read_signature_link(manifest_digest)
        .ok_or_else(unsigned)?;
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
