//! The registry client (feature `oci`): push, pull and sign Wasm OCI artifacts.
//!
//! Built on the Bytecode Alliance's `oci-wasm` (the CNCF Wasm artifact layout) over
//! `oci-client`. HTTPS always, except for a registry on a loopback address or one the
//! user names with `--insecure HOST[:PORT]`. Credentials, first found wins:
//! `HOOKHOST_REGISTRY_TOKEN` (a bearer token), the Docker config
//! (`$DOCKER_CONFIG/config.json` or `~/.docker/config.json`, `auths` entries; credential
//! helpers are not run), else anonymous. Secrets are never part of an error message.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use oci_client::client::{ClientConfig, ClientProtocol, Config, ImageLayer};
use oci_client::errors::{OciDistributionError, OciErrorCode};
use oci_client::secrets::RegistryAuth;
use oci_client::{Client, Reference};
use oci_wasm::{WasmClient, WasmConfig};

use super::canonical::canonical_registry;
pub use super::credentials::{TOKEN_ENV, credentials};
use super::manifest::{MANIFEST_MEDIA_TYPE, Manifest};
use super::reference::{ModuleRef, digest_of};
use super::signature::{
    SIGNATURE_ANNOTATION, SIMPLE_SIGNING_MEDIA_TYPE, load_private_key, payload, sign, signature_tag,
};
use super::store::{MAX_OBJECT_BYTES, ModuleStore};

/// Manifest types asked for, so that a non-Wasm image gets a clear message instead of
/// a content-negotiation failure.
const ACCEPTED_MANIFESTS: [&str; 3] = [
    MANIFEST_MEDIA_TYPE,
    "application/vnd.docker.distribution.manifest.v2+json",
    "application/vnd.oci.image.index.v1+json",
];

/// A registry operation that failed: the reference and what to do.
#[derive(Debug, thiserror::Error)]
#[error("{reference}: {problem}")]
pub struct ClientError {
    /// The reference (never with credentials: references carry none).
    pub reference: String,
    /// What went wrong and what to do about it.
    pub problem: String,
}

/// How to reach registries.
#[derive(Debug, Clone, Default)]
pub struct ClientOptions {
    /// Registries (`HOST` or `HOST:PORT`) reached over plain HTTP, compared in
    /// canonical form (a plain-HTTP registry on port 443 of a host that is not
    /// loopback cannot be named: `:443` is HTTPS's default and dropped).
    pub insecure: Vec<String>,
}

/// What `pull` put in the store.
#[derive(Debug, Clone)]
pub struct Pulled {
    /// The manifest digest.
    pub digest: String,
    /// The Wasm layer's digest.
    pub module: String,
    /// The Wasm layer's size.
    pub size: u64,
    /// The module's file in the store.
    pub path: PathBuf,
    /// Whether a cosign signature was found (and stored).
    pub signed: bool,
}

/// A client for one reference's registry.
pub struct RegistryClient {
    client: WasmClient,
    auth: RegistryAuth,
}

impl RegistryClient {
    /// A client for `reference`'s registry with the user's credentials.
    ///
    /// Fails when the TLS set-up fails (e.g. the system's root certificates cannot
    /// be read); `oci_client::Client::new` would instead fall back to a default
    /// configuration, silently dropping the plain-HTTP exceptions.
    pub fn new(reference: &ModuleRef, options: &ClientOptions) -> Result<Self, ClientError> {
        // `--insecure` names a registry as a reference does: compared canonical
        // (`--insecure Reg.Lan.` is `reg.lan`, as `oci://Reg.Lan./…` is).
        let mut plain_http: Vec<String> = options
            .insecure
            .iter()
            .map(|host| canonical_registry(host).unwrap_or_else(|| host.clone()))
            .collect();
        if reference.is_loopback() {
            plain_http.push(reference.registry.clone());
        }
        let config = ClientConfig {
            protocol: ClientProtocol::HttpsExcept(plain_http),
            ..ClientConfig::default()
        };
        // reqwest is built without a crypto provider of its own (host/Cargo.toml
        // says why); ring is installed as the process default once. A provider
        // installed earlier by someone else is kept (the call then fails harmlessly).
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = Client::try_from(config).map_err(|e| ClientError {
            reference: reference.to_string(),
            problem: format!("cannot set up the HTTP client: {e}"),
        })?;
        Ok(RegistryClient {
            client: WasmClient::new(client),
            auth: credentials(&reference.registry),
        })
    }

    /// Publishes a component or preview-1 module; returns the manifest digest.
    pub async fn push(&self, file: &Path, reference: &ModuleRef) -> Result<String, ClientError> {
        let fail = |problem: String| ClientError {
            reference: reference.to_string(),
            problem,
        };
        let bytes = std::fs::read(file)
            .map_err(|e| fail(format!("cannot read {}: {e}", file.display())))?;
        let (mut config, layer) = if wasmparser_is_component(&bytes) {
            WasmConfig::from_raw_component(bytes, None)
        } else if bytes.starts_with(b"\0asm") {
            WasmConfig::from_raw_module(bytes, None)
        } else {
            return Err(fail(format!("{} is not a Wasm file", file.display())));
        }
        .map_err(|e| fail(format!("{} cannot be packaged: {e:#}", file.display())))?;
        // oci-wasm stamps the config with the time of the push, which changes the
        // manifest digest of the same bytes (and orphans their signature). The
        // reproducible-builds convention instead: SOURCE_DATE_EPOCH, else 1970.
        config.created = source_date();
        let oci = oci_reference(reference).map_err(|e| fail(e.to_string()))?;
        self.client
            .push(&oci, &self.auth, layer, config, None)
            .await
            .map_err(|e| match e.downcast::<OciDistributionError>() {
                Ok(e) => fail(explain(&e)),
                Err(e) => fail(format!("{e:#}")),
            })?;
        let (manifest, _) = self.manifest(reference).await?;
        Ok(digest_of(&manifest))
    }

    /// Fetches a module (and its cosign signature, if any) into the store; a corrupt
    /// or partial copy there is replaced.
    pub async fn pull(
        &self,
        reference: &ModuleRef,
        store: &ModuleStore,
    ) -> Result<Pulled, ClientError> {
        let fail = |problem: String| ClientError {
            reference: reference.to_string(),
            problem,
        };
        let (bytes, digest) = self.manifest(reference).await?;
        let manifest = Manifest::parse(&bytes).map_err(|e| fail(e.to_string()))?;
        let layer = manifest
            .wasm_layer()
            .map_err(|e| fail(e.to_string()))?
            .clone();
        let pinned = reference.at_digest(&digest);
        if layer.size > MAX_OBJECT_BYTES {
            return Err(fail(format!(
                "the module is {} bytes, more than the {MAX_OBJECT_BYTES}-byte limit",
                layer.size
            )));
        }
        self.blob_into_store(&pinned, &layer.digest, store).await?;
        // The manifest last: a manifest in the store means its module is there too.
        store
            .write(&digest, &bytes)
            .map_err(|e| fail(e.to_string()))?;
        let signed = self.pull_signature(&pinned, &digest, store).await?;
        Ok(Pulled {
            path: store.path(&layer.digest),
            digest,
            module: layer.digest,
            size: layer.size,
            signed,
        })
    }

    /// Signs the manifest `reference` names (resolving a tag) with a P-256 private key
    /// and pushes the signature where cosign puts it; returns the signed digest.
    pub async fn sign(&self, reference: &ModuleRef, key: &Path) -> Result<String, ClientError> {
        let fail = |problem: String| ClientError {
            reference: reference.to_string(),
            problem,
        };
        let key = load_private_key(key).map_err(|e| fail(e.to_string()))?;
        let (bytes, digest) = self.manifest(reference).await?;
        Manifest::parse(&bytes)
            .and_then(|m| m.wasm_layer().map(|_| ()))
            .map_err(|e| fail(e.to_string()))?;
        let payload = payload(reference, &digest);
        let signature = sign(&key, &payload);
        let layer = ImageLayer::new(
            payload,
            SIMPLE_SIGNING_MEDIA_TYPE.to_owned(),
            Some(BTreeMap::from([(
                SIGNATURE_ANNOTATION.to_owned(),
                signature,
            )])),
        );
        let config = Config::oci_v1(b"{}".to_vec(), None);
        let target = signature_reference(reference, &digest);
        let oci = oci_reference(&target).map_err(|e| fail(e.to_string()))?;
        self.client
            .as_ref()
            .push(&oci, &[layer], config, &self.auth, None)
            .await
            .map_err(|e| fail(explain(&e)))?;
        Ok(digest)
    }

    /// The manifest bytes and their digest, checked against a pinned digest.
    async fn manifest(&self, reference: &ModuleRef) -> Result<(Vec<u8>, String), ClientError> {
        let fail = |problem: String| ClientError {
            reference: reference.to_string(),
            problem,
        };
        let oci = oci_reference(reference).map_err(|e| fail(e.to_string()))?;
        let (bytes, _) = self
            .client
            .pull_manifest_raw(&oci, &self.auth, &ACCEPTED_MANIFESTS)
            .await
            .map_err(|e| fail(explain(&e)))?;
        let digest = digest_of(&bytes);
        if let Some(pinned) = &reference.digest
            && *pinned != digest
        {
            return Err(fail(format!(
                "digest mismatch: the registry sent a manifest with digest {digest}"
            )));
        }
        Ok((bytes.to_vec(), digest))
    }

    async fn blob(&self, reference: &ModuleRef, digest: &str) -> Result<Vec<u8>, ClientError> {
        let fail = |problem: String| ClientError {
            reference: reference.to_string(),
            problem,
        };
        let oci = oci_reference(reference).map_err(|e| fail(e.to_string()))?;
        let mut blob = Vec::new();
        self.client
            .pull_blob(&oci, digest, &mut blob)
            .await
            .map_err(|e| fail(explain(&e)))?;
        if digest_of(&blob) != digest {
            return Err(fail(format!(
                "digest mismatch: the registry sent {} for {digest}",
                digest_of(&blob)
            )));
        }
        Ok(blob)
    }

    /// Fetches a blob into the store unless a valid copy is there (a corrupt one is
    /// replaced).
    async fn blob_into_store(
        &self,
        reference: &ModuleRef,
        digest: &str,
        store: &ModuleStore,
    ) -> Result<(), ClientError> {
        if store.contains(digest) {
            return Ok(());
        }
        let blob = self.blob(reference, digest).await?;
        store.write(digest, &blob).map_err(|e| ClientError {
            reference: reference.to_string(),
            problem: e.to_string(),
        })?;
        Ok(())
    }

    /// Stores the cosign signature manifest of `digest` and its payloads; `false`
    /// when there is none.
    async fn pull_signature(
        &self,
        reference: &ModuleRef,
        digest: &str,
        store: &ModuleStore,
    ) -> Result<bool, ClientError> {
        let target = signature_reference(reference, digest);
        let fail = |problem: String| ClientError {
            reference: target.to_string(),
            problem,
        };
        let unsigned = || {
            store
                .write_unsigned(digest)
                .map(|()| false)
                .map_err(|e| fail(e.to_string()))
        };
        let (bytes, signature_digest) = match self.manifest(&target).await {
            Ok(found) => found,
            Err(_) => return unsigned(),
        };
        let Ok(manifest) = Manifest::parse(&bytes) else {
            return unsigned();
        };
        for layer in manifest
            .layers
            .iter()
            .filter(|l| l.media_type == SIMPLE_SIGNING_MEDIA_TYPE && l.size <= 1024 * 1024)
        {
            self.blob_into_store(&target, &layer.digest, store).await?;
        }
        store
            .write(&signature_digest, &bytes)
            .and_then(|_| store.write_signature_link(digest, &signature_digest))
            .map_err(|e| fail(e.to_string()))?;
        Ok(true)
    }
}

/// The `created` time of a pushed config: `SOURCE_DATE_EPOCH` (seconds) when set,
/// else the Unix epoch.
fn source_date() -> chrono::DateTime<chrono::Utc> {
    let seconds = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .unwrap_or(0);
    chrono::DateTime::from_timestamp(seconds, 0).unwrap_or_default()
}

/// Where cosign keeps the signatures of `digest`: the same repository, tag
/// `sha256-<hex>.sig`.
fn signature_reference(reference: &ModuleRef, digest: &str) -> ModuleRef {
    ModuleRef {
        tag: Some(signature_tag(digest)),
        digest: None,
        ..reference.clone()
    }
}

/// A reference `oci-client` does not accept (ours is stricter, so this is rare).
#[derive(Debug, thiserror::Error)]
#[error("not a valid registry reference: {0}")]
struct InvalidReference(#[source] oci_client::ParseError);

fn oci_reference(reference: &ModuleRef) -> Result<Reference, InvalidReference> {
    reference
        .without_scheme()
        .parse::<Reference>()
        .map_err(InvalidReference)
}

fn wasmparser_is_component(bytes: &[u8]) -> bool {
    // The preamble: magic, then version 0x0d 0x00 and layer 0x01 0x00 for components
    // (modules have version 1, layer 0).
    bytes.len() >= 8 && bytes.starts_with(b"\0asm") && bytes[6..8] == [0x01, 0x00]
}

/// A registry error in words a user can act on.
fn explain(error: &OciDistributionError) -> String {
    match error {
        OciDistributionError::UnauthorizedError { .. }
        | OciDistributionError::AuthenticationFailure(_) => format!(
            "the registry refused the credentials (401); log in with `docker login` \
             (hookhost reads ~/.docker/config.json or $DOCKER_CONFIG) or set {TOKEN_ENV}"
        ),
        OciDistributionError::ServerError { code: 403, .. } => {
            "access denied (403): the credentials lack permission for this repository".into()
        }
        OciDistributionError::ServerError { code: 401, .. } => {
            format!("authentication required (401); log in with `docker login` or set {TOKEN_ENV}")
        }
        OciDistributionError::ServerError { code: 404, .. }
        | OciDistributionError::ImageManifestNotFoundError(_) => {
            "not found in the registry (check the repository and tag)".into()
        }
        OciDistributionError::ServerError { code, .. } => {
            format!("the registry answered HTTP {code}")
        }
        OciDistributionError::RegistryError { envelope, .. } => {
            let codes: Vec<String> = envelope
                .errors
                .iter()
                .map(|e| match e.code {
                    OciErrorCode::ManifestUnknown
                    | OciErrorCode::NameUnknown
                    | OciErrorCode::NotFound
                    | OciErrorCode::BlobUnknown => "not found in the registry".to_owned(),
                    OciErrorCode::Unauthorized => format!(
                        "authentication required; log in with `docker login` or set {TOKEN_ENV}"
                    ),
                    OciErrorCode::Denied => "access denied".to_owned(),
                    _ => format!("{:?}: {}", e.code, e.message),
                })
                .collect();
            codes.join("; ")
        }
        OciDistributionError::RequestError(e) => {
            let what = if e.is_connect() || e.is_timeout() {
                "the registry is unreachable"
            } else {
                "the request failed"
            };
            // reqwest's message names the URL only (credentials travel in headers);
            // the cause (refused, DNS, a certificate the system does not trust) is
            // in its sources, which name no credentials either.
            let mut because = e.to_string();
            let mut source = std::error::Error::source(e);
            while let Some(cause) = source {
                because.push_str(": ");
                because.push_str(&cause.to_string());
                source = cause.source();
            }
            format!(
                "{what} ({because}); check the address, the network, or use --insecure HOST for a plain-HTTP registry"
            )
        }
        OciDistributionError::UnsupportedMediaTypeError(t) => {
            format!("not a Wasm artifact (manifest media type {t})")
        }
        other => other.to_string(),
    }
}
