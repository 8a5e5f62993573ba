//! The OCI image manifest of a Wasm artifact (the CNCF Wasm OCI layout used by
//! `wkg oci`, `oras` and Spin): config `application/vnd.wasm.config.v0+json`, one
//! layer `application/wasm`. Cosign signature manifests use the same shape with
//! simple-signing layers.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The manifest media type.
pub const MANIFEST_MEDIA_TYPE: &str = "application/vnd.oci.image.manifest.v1+json";
/// The config media type of a Wasm artifact.
pub const WASM_CONFIG_MEDIA_TYPE: &str = "application/vnd.wasm.config.v0+json";
/// The layer media type of a Wasm artifact.
pub const WASM_LAYER_MEDIA_TYPE: &str = "application/wasm";

/// A content descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Descriptor {
    /// Its media type.
    pub media_type: String,
    /// Its digest, `sha256:…`.
    pub digest: String,
    /// Its size in bytes.
    pub size: u64,
    /// Its annotations.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
}

/// An OCI image manifest (the fields hookhost reads).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    /// Always 2.
    pub schema_version: u32,
    /// The manifest media type, when given.
    #[serde(default)]
    pub media_type: Option<String>,
    /// The config blob.
    pub config: Descriptor,
    /// The layers.
    pub layers: Vec<Descriptor>,
}

impl Manifest {
    /// Parses manifest bytes.
    pub fn parse(bytes: &[u8]) -> Result<Manifest, String> {
        serde_json::from_slice(bytes).map_err(|e| format!("not an OCI image manifest: {e}"))
    }

    /// The Wasm layer, if this is a Wasm artifact; otherwise what it is instead.
    pub fn wasm_layer(&self) -> Result<&Descriptor, String> {
        if self.config.media_type != WASM_CONFIG_MEDIA_TYPE {
            return Err(format!(
                "not a Wasm artifact: its config is {:?}, expected {WASM_CONFIG_MEDIA_TYPE:?}",
                self.config.media_type
            ));
        }
        match self.layers.as_slice() {
            [layer] if layer.media_type == WASM_LAYER_MEDIA_TYPE => Ok(layer),
            layers => Err(format!(
                "not a Wasm artifact: expected one {WASM_LAYER_MEDIA_TYPE:?} layer, found [{}]",
                layers
                    .iter()
                    .map(|l| format!("{:?}", l.media_type))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }
}
