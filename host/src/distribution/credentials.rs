//! Registry credentials (feature `oci`), first found wins:
//! `HOOKHOST_REGISTRY_TOKEN` (a bearer token), the Docker config
//! (`$DOCKER_CONFIG/config.json` or `~/.docker/config.json`, `auths` entries;
//! credential helpers are not run), else anonymous.

use std::path::PathBuf;

use base64::Engine as _;
use oci_client::secrets::RegistryAuth;

use super::canonical::canonical_registry;

/// The environment variable holding a bearer token for every registry.
pub const TOKEN_ENV: &str = "HOOKHOST_REGISTRY_TOKEN";

/// The credentials for `registry` (canonical, as [`super::reference::ModuleRef`]
/// holds it): a token from the environment, else the Docker
/// config's entry, else anonymous.
pub fn credentials(registry: &str) -> RegistryAuth {
    if let Some(token) = std::env::var(TOKEN_ENV).ok().filter(|t| !t.is_empty()) {
        return RegistryAuth::Bearer(token);
    }
    docker_credentials(registry).unwrap_or(RegistryAuth::Anonymous)
}

fn docker_credentials(registry: &str) -> Option<RegistryAuth> {
    let dir = match std::env::var_os("DOCKER_CONFIG") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => dirs::home_dir()?.join(".docker"),
    };
    let text = std::fs::read_to_string(dir.join("config.json")).ok()?;
    let config: serde_json::Value = serde_json::from_str(&text).ok()?;
    let auths = config.get("auths")?.as_object()?;
    let entry = auths.iter().find_map(|(key, entry)| {
        let host = key
            .trim_start_matches("https://")
            .trim_start_matches("http://")
            .split('/')
            .next()
            .unwrap_or_default();
        // Compared canonical, as references are: Docker's own key for Docker Hub
        // is `https://index.docker.io/v1/`.
        let host = canonical_registry(host).unwrap_or_else(|| host.to_owned());
        (host == registry).then_some(entry)
    })?;
    if let (Some(user), Some(password)) = (
        entry.get("username").and_then(|v| v.as_str()),
        entry.get("password").and_then(|v| v.as_str()),
    ) {
        return Some(RegistryAuth::Basic(user.to_owned(), password.to_owned()));
    }
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(entry.get("auth")?.as_str()?)
        .ok()?;
    let decoded = String::from_utf8(decoded).ok()?;
    let (user, password) = decoded.split_once(':')?;
    Some(RegistryAuth::Basic(user.to_owned(), password.to_owned()))
}
