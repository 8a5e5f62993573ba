//! What a reviewer approves for one hook — its [`TrustKey`] — and how the hook is
//! shown to them: the hook object as written, the scripts pinned, what cannot be
//! pinned, a plugin's module digest and grants.

use std::io::Read;
use std::path::Path;

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::TrustKey;
use super::document::{canonical, format_name, hook_object};
use super::legacy::{Earlier, earlier_key};
use super::scripts::{PinScope, Pins, pin_command};
use crate::config::{CommandConfig, HookEntry, HookKind, PluginConfig, SourceKind};

/// Plugin files larger than this are not hashed for approval (and not loaded).
const MAX_HASHED_BYTES: u64 = 512 * 1024 * 1024;

/// A hook's approval key and what `hookhost trust` shows for it.
pub(crate) struct Reviewed {
    pub(crate) key: TrustKey,
    pub(crate) shown: String,
}

/// Reviews `entry` of a repository's file, run in `project_dir`.
pub(crate) fn review(entry: &HookEntry, project_dir: &Path) -> Result<Reviewed, ReviewError> {
    let scope = entry.source.base_dir.clone();
    let hook = hook_object(entry);
    let mut document = Map::new();
    document.insert("format".into(), format_name(entry.source.format).into());
    document.insert("hook".into(), hook.clone());
    let mut unpinned = Vec::new();
    let (earlier, mut shown) = match &entry.spec.kind {
        HookKind::Command(config) => {
            let pins = command_pins(entry, config, project_dir);
            document.insert("scripts".into(), json!(pins.scripts));
            if !pins.unpinned.is_empty() {
                document.insert("unpinned".into(), json!(pins.unpinned));
            }
            let mut shown = format!("command {hook}");
            if !pins.scripts.is_empty() {
                let names: Vec<&str> = pins.scripts.keys().map(String::as_str).collect();
                shown.push_str(&format!(" (scripts pinned: {})", names.join(", ")));
            }
            unpinned = pins.unpinned;
            let text = entry.spec.kind.review_text().unwrap_or_default();
            let scripts = pins.scripts;
            (Earlier::Text { text, scripts }, shown)
        }
        HookKind::Plugin(config) => {
            let (sha256, grants) = plugin_parts(config)?;
            if let (Some(source), Some(Value::Object(hook))) =
                (&config.source, document.get_mut("hook"))
            {
                // One reference, one approval: every spelling of it reaches the
                // same registry, and the module digest pins what runs.
                hook.insert("source".into(), source.reference.clone().into());
            }
            document.insert("module".into(), hex::encode(sha256).into());
            let grants_value: Value = serde_json::from_str(&grants).unwrap_or(Value::Null);
            document.insert("grants".into(), grants_value);
            let shown = plugin_shown(config, &sha256, &grants);
            let entry = format!("sha256:{} grants:{grants}", hex::encode(sha256));
            (Earlier::Plugin { entry, sha256 }, shown)
        }
        other => {
            let text = other.review_text().unwrap_or_default();
            let shown = format!("{} {hook}", entry.spec.type_name());
            let scripts = Default::default();
            (Earlier::Text { text, scripts }, shown)
        }
    };
    if !unpinned.is_empty() {
        shown.push_str(&format!(" (cannot pin: {})", unpinned.join(", ")));
    }
    let earlier = Some(earlier_key(&hook, earlier, !unpinned.is_empty()));
    let key = TrustKey {
        scope,
        document: canonical(&Value::Object(document)).to_string(),
        at: format!("{}#{}", entry.source.path.display(), entry.location()),
        unpinned,
        earlier,
        reason: String::new(),
    };
    Ok(Reviewed { key, shown })
}

/// The scripts a command hook of `entry` names, pinned; the project and the
/// file's scope (an extension's directory) are where scripts are looked for.
fn command_pins(entry: &HookEntry, config: &CommandConfig, project_dir: &Path) -> Pins {
    let scope = entry.source.base_dir.as_path();
    let roots = [project_dir, scope];
    let plugin_root = match &entry.source.kind {
        SourceKind::Extension(_) => Some(scope),
        _ => entry.source.plugin_root.as_deref(),
    };
    pin_command(
        config,
        &PinScope {
            project_dir,
            roots: &roots,
            plugin_root,
        },
    )
}

/// A plugin's module digest and grants (canonical JSON); why it cannot be
/// reviewed, if it cannot.
fn plugin_parts(config: &PluginConfig) -> Result<([u8; 32], String), ReviewError> {
    if let Some(problem) = config.source.as_ref().and_then(|s| s.problem.clone()) {
        return Err(ReviewError::Source(problem));
    }
    Ok((reviewed_digest(config)?, grants(config)))
}

fn plugin_shown(config: &PluginConfig, sha256: &[u8; 32], grants: &str) -> String {
    let origin = config.source.as_ref().map_or_else(String::new, |s| {
        format!(" ({})", s.digest.as_deref().unwrap_or(&s.reference))
    });
    format!(
        "plugin {}{origin} sha256 {} with grants {grants}",
        config.source.as_ref().map_or_else(
            || config.path.display().to_string(),
            |s| s.reference.clone()
        ),
        hex::encode(sha256)
    )
}

/// What a plugin is granted, as canonical JSON (env sorted by name), as earlier
/// versions computed it (their approvals are compared with it). Network and state
/// appear only when granted.
fn grants(config: &PluginConfig) -> String {
    let mut env: Vec<&(String, String)> = config.env.iter().collect();
    env.sort();
    let env: Map<String, Value> = env
        .into_iter()
        .map(|(k, v)| (k.clone(), Value::from(v.as_str())))
        .collect();
    let preopens: Vec<Value> = config
        .preopens
        .iter()
        .map(
            |p| json!({"host": p.host.to_string_lossy(), "guest": p.guest, "writable": p.writable}),
        )
        .collect();
    let mut grants = json!({"preopens": preopens, "env": env, "args": config.args});
    if !config.grants.allowed_hosts.is_empty() {
        grants["allowedHosts"] = json!(config.grants.sorted_hosts());
    }
    if let Some(state) = &config.grants.state {
        grants["state"] = json!({"maxBytes": state.max_bytes});
    }
    grants.to_string()
}

/// Why a plugin cannot be reviewed (the caller names the plugin).
#[derive(Debug, thiserror::Error)]
pub(crate) enum ReviewError {
    /// Its `source` has no module to review: the resolver's message.
    #[error("{0}")]
    Source(String),
    /// The file cannot be read.
    #[error("cannot read: {0}")]
    Read(#[source] std::io::Error),
    /// The file is a directory, FIFO, device or socket.
    #[error("not a regular file")]
    NotRegular,
    /// The file is larger than [`MAX_HASHED_BYTES`].
    #[error("larger than {MAX_HASHED_BYTES} bytes")]
    TooLarge,
}

/// The digest an approval is for. A pinned plugin (a `sha256` in settings, or the
/// locked digest of a `source`) is approved by its pin without reading the file
/// again: the loader refuses any file whose bytes do not match the pin, so only
/// those bytes can run. Otherwise the file is hashed here.
fn reviewed_digest(config: &PluginConfig) -> Result<[u8; 32], ReviewError> {
    match config.sha256 {
        Some(pin) => Ok(pin),
        None => file_digest(&config.path),
    }
}

/// The SHA-256 of a plugin file, read in a stream with a bound.
fn file_digest(path: &Path) -> Result<[u8; 32], ReviewError> {
    let meta = std::fs::metadata(path).map_err(ReviewError::Read)?;
    if !meta.is_file() {
        return Err(ReviewError::NotRegular);
    }
    let file = std::fs::File::open(path).map_err(ReviewError::Read)?;
    let mut hasher = Sha256::new();
    let read = std::io::copy(&mut file.take(MAX_HASHED_BYTES + 1), &mut hasher)
        .map_err(ReviewError::Read)?;
    if read > MAX_HASHED_BYTES {
        return Err(ReviewError::TooLarge);
    }
    Ok(hasher.finalize().into())
}
