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

use std::path::Path;

use base64::Engine as _;
use p256::ecdsa::signature::{Signer, Verifier};
use p256::ecdsa::{Signature, SigningKey, VerifyingKey};
use p256::pkcs8::{DecodePrivateKey, DecodePublicKey};
use serde_json::{Value, json};

use super::manifest::Manifest;
use super::reference::ModuleRef;
use super::store::ModuleStore;

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

/// Reads a PEM public key (`cosign.pub`: an ECDSA P-256 `PUBLIC KEY`).
pub fn load_public_key(path: &Path) -> Result<VerifyingKey, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the key {}: {e}", path.display()))?;
    VerifyingKey::from_public_key_pem(&text).map_err(|e| {
        format!(
            "{} is not an ECDSA P-256 public key in PEM ({e})",
            path.display()
        )
    })
}

/// Reads a PEM private key: PKCS#8 (`PRIVATE KEY`) or SEC1 (`EC PRIVATE KEY`), P-256,
/// unencrypted.
pub fn load_private_key(path: &Path) -> Result<SigningKey, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the key {}: {e}", path.display()))?;
    SigningKey::from_pkcs8_pem(&text)
        .or_else(|_| p256::SecretKey::from_sec1_pem(&text).map(SigningKey::from))
        .map_err(|_| {
            format!(
                "{} is not an unencrypted ECDSA P-256 private key in PEM \
                 (PKCS#8 \"PRIVATE KEY\" or SEC1 \"EC PRIVATE KEY\")",
                path.display()
            )
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
) -> Result<(), String> {
    let der = base64::engine::general_purpose::STANDARD
        .decode(signature_b64.trim())
        .map_err(|_| "the signature is not base64".to_owned())?;
    let signature = Signature::from_der(&der)
        .or_else(|_| Signature::from_slice(&der))
        .map_err(|_| "the signature is not an ECDSA signature".to_owned())?;
    key.verify(payload, &signature)
        .map_err(|_| "the signature does not verify with the key".to_owned())?;
    let payload: Value =
        serde_json::from_slice(payload).map_err(|_| "the payload is not JSON".to_owned())?;
    let critical = &payload["critical"];
    if critical["type"] != PAYLOAD_TYPE {
        return Err("the payload is not a cosign image signature".into());
    }
    match critical["image"]["docker-manifest-digest"].as_str() {
        Some(signed) if signed == manifest_digest => Ok(()),
        Some(signed) => Err(format!(
            "the signature is for {signed}, not for {manifest_digest}"
        )),
        None => Err("the payload names no manifest digest".into()),
    }
}

/// Verifies, from the store alone, that a signature of `manifest_digest` made with
/// the key at `key_path` was pulled.
pub fn verify_stored(
    store: &ModuleStore,
    manifest_digest: &str,
    key_path: &Path,
) -> Result<(), String> {
    let key = load_public_key(key_path)?;
    let signature_digest = store.read_signature_link(manifest_digest).ok_or_else(|| {
        format!(
            "no signature of {manifest_digest} was found when it was pulled \
             (sign it with `hookhost plugin sign` or `cosign sign --key`, then pull again)"
        )
    })?;
    let manifest = store
        .read(&signature_digest)
        .map_err(|e| format!("signature manifest: {e}"))
        .and_then(|bytes| Manifest::parse(&bytes))?;
    let mut problems = Vec::new();
    for layer in manifest
        .layers
        .iter()
        .filter(|l| l.media_type == SIMPLE_SIGNING_MEDIA_TYPE)
    {
        let Some(signature) = layer.annotations.get(SIGNATURE_ANNOTATION) else {
            problems.push("a payload without a signature annotation".to_owned());
            continue;
        };
        match store
            .read(&layer.digest)
            .map_err(|e| e.to_string())
            .and_then(|payload| verify_payload(&key, &payload, signature, manifest_digest))
        {
            Ok(()) => return Ok(()),
            Err(problem) => problems.push(problem),
        }
    }
    if problems.is_empty() {
        problems.push("the signature manifest has no cosign payload".to_owned());
    }
    Err(format!(
        "signature invalid for key {}: {}",
        key_path.display(),
        problems.join("; ")
    ))
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
        let error = verify_payload(key.verifying_key(), &payload, &signature, &wrong).unwrap_err();
        assert!(error.contains("not for"), "{error}");
        assert_eq!(
            signature_tag(&digest),
            format!("sha256-{}.sig", "b".repeat(64))
        );
    }
}
