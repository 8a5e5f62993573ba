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

/// Why bytes are not the manifest of a Wasm artifact.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    /// Not JSON of an OCI image manifest.
    #[error("not an OCI image manifest: {0}")]
    Parse(#[source] serde_json::Error),
    /// An image of another kind: its config is not a Wasm config.
    #[error(
        "not a Wasm artifact: its config is {media_type:?}, expected {WASM_CONFIG_MEDIA_TYPE:?}"
    )]
    Config {
        /// The config's media type.
        media_type: String,
    },
    /// Not exactly one Wasm layer.
    #[error(
        "not a Wasm artifact: expected one {WASM_LAYER_MEDIA_TYPE:?} layer, found [{}]",
        quoted(.media_types)
    )]
    Layers {
        /// The layers' media types.
        media_types: Vec<String>,
    },
}

/// `"a", "b"`: media types as a message lists them.
fn quoted(media_types: &[String]) -> String {
    media_types
        .iter()
        .map(|t| format!("{t:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Manifest {
    /// Parses manifest bytes.
    pub fn parse(bytes: &[u8]) -> Result<Manifest, ManifestError> {
        serde_json::from_slice(bytes).map_err(ManifestError::Parse)
    }

    /// The Wasm layer, if this is a Wasm artifact; otherwise what it is instead.
    pub fn wasm_layer(&self) -> Result<&Descriptor, ManifestError> {
        if self.config.media_type != WASM_CONFIG_MEDIA_TYPE {
            return Err(ManifestError::Config {
                media_type: self.config.media_type.clone(),
            });
        }
        match self.layers.as_slice() {
            [layer] if layer.media_type == WASM_LAYER_MEDIA_TYPE => Ok(layer),
            layers => Err(ManifestError::Layers {
                media_types: layers.iter().map(|l| l.media_type.clone()).collect(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_non_wasm_manifest_says_what_it_is() {
        let descriptor = |media_type: &str| Descriptor {
            media_type: media_type.to_owned(),
            digest: format!("sha256:{}", "a".repeat(64)),
            size: 1,
            annotations: BTreeMap::new(),
        };
        let mut manifest = Manifest {
            schema_version: 2,
            media_type: None,
            config: descriptor("application/vnd.oci.image.config.v1+json"),
            layers: vec![descriptor(WASM_LAYER_MEDIA_TYPE)],
        };
        assert_eq!(
            manifest.wasm_layer().unwrap_err().to_string(),
            "not a Wasm artifact: its config is \"application/vnd.oci.image.config.v1+json\", \
             expected \"application/vnd.wasm.config.v0+json\""
        );
        manifest.config = descriptor(WASM_CONFIG_MEDIA_TYPE);
        manifest.layers.push(descriptor("text/plain"));
        assert_eq!(
            manifest.wasm_layer().unwrap_err().to_string(),
            "not a Wasm artifact: expected one \"application/wasm\" layer, \
             found [\"application/wasm\", \"text/plain\"]"
        );
        assert!(
            Manifest::parse(b"{}")
                .unwrap_err()
                .to_string()
                .starts_with("not an OCI image manifest: ")
        );
    }
}
