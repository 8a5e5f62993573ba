//! Which store a plugin gets: a digest of what makes it *that* plugin for its user.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::config::PluginConfig;

/// One store's identity: its file name and what it is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreIdentity {
    /// 32 hexadecimal digits (the first 16 bytes of the SHA-256 of `description`).
    pub id: String,
    /// The module, the network grant and the scope, one per line: what `hookhost
    /// state list` shows.
    pub description: String,
}

impl StoreIdentity {
    /// The identity of `plugin`'s store; `None` without the `state` grant.
    ///
    /// The module is the `source` reference without its digest (so an update of a
    /// tag keeps its state) or the canonical `path`; the allowed hosts are part of
    /// it (a plugin granted more network is another plugin), the quota is not (a
    /// larger quota keeps the data).
    pub fn of(plugin: &PluginConfig) -> Option<StoreIdentity> {
        let state = plugin.grants.state.as_ref()?;
        let module = match &plugin.source {
            Some(source) => source
                .reference
                .split_once("@sha256:")
                .map_or(source.reference.as_str(), |(name, _)| name)
                .to_owned(),
            None => plugin
                .path
                .canonicalize()
                .unwrap_or_else(|_| plugin.path.clone())
                .display()
                .to_string(),
        };
        let hosts = plugin.grants.sorted_hosts();
        let network = if hosts.is_empty() {
            "none".to_owned()
        } else {
            hosts.join(" ")
        };
        let description = format!(
            "module: {module}\nnetwork: {network}\nscope: {}",
            state.scope
        );
        let digest = Sha256::digest(description.as_bytes());
        Some(StoreIdentity {
            id: hex::encode(&digest[..16]),
            description,
        })
    }

    /// The database file of this store under `dir`.
    pub fn file(&self, dir: &Path) -> PathBuf {
        dir.join(format!("{}.sqlite", self.id))
    }
}

/// Where stores live: `$HOOKHOST_STATE_DIR`, else the platform's state dir
/// (`~/.local/state/hookhost/stores` on Linux), else the data dir.
pub fn state_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("HOOKHOST_STATE_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    dirs::state_dir()
        .or_else(dirs::data_local_dir)
        .map(|d| d.join("hookhost").join("stores"))
}
