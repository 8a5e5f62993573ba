//! Turning a plugin's `source` into a file of the module store, offline.
//!
//! Runs while a [`crate::HookSystem`] is built, before the trust gate: the digest is
//! the one pinned in the reference or locked in `hookhost.lock`; the manifest and the
//! module must already be in the store (put there by `hookhost plugin pull` or
//! `hookhost lock`), and a `verify` key must verify a stored cosign signature. The
//! hook's `path` becomes the module's store file and its `sha256` pin the layer
//! digest, so the engine checks the bytes it compiles and the trust gate approves
//! exactly the locked module. Anything missing becomes the hook's `problem`: that
//! hook fails (subject to `failurePolicy`) with a message naming the command that
//! fixes it; the others still run. Nothing here touches the network.

use std::path::Path;

use crate::config::{HookEntry, HookKind, ModuleSource, PluginConfig, VerifyRule};
use crate::distribution::lock::{LockFile, lock_path};
use crate::distribution::manifest::Manifest;
use crate::distribution::reference::{ModuleRef, parse_digest};
use crate::distribution::signature::verify_stored;
use crate::distribution::store::{ModuleStore, StoreError};

/// Resolves every `source` plugin of `entries` against the project's lock file and
/// the user's module store; a hook without its own `verify` key gets the key of the
/// longest matching `tools.verifyPlugins` prefix.
pub(super) fn resolve_entries(entries: &mut [HookEntry], rules: &[VerifyRule], project_dir: &Path) {
    let mut context: Option<(Result<LockFile, String>, Result<ModuleStore, String>)> = None;
    for entry in entries {
        let HookKind::Plugin(config) = &mut entry.spec.kind else {
            continue;
        };
        let Some(source) = config.source.as_mut() else {
            continue;
        };
        if source.verify_key.is_none() {
            source.verify_key = rules
                .iter()
                .filter(|rule| source.reference.starts_with(&rule.prefix))
                .max_by_key(|rule| rule.prefix.len())
                .map(|rule| rule.key.clone());
        }
        let (lock, store) = context.get_or_insert_with(|| {
            (
                LockFile::load(&lock_path(project_dir)).map_err(|e| e.to_string()),
                ModuleStore::open_default().map_err(|e| e.to_string()),
            )
        });
        resolve(config, lock.as_ref(), store.as_ref(), project_dir);
    }
}

/// Resolves one plugin: sets its `path`, `sha256` and `source.digest`, or its
/// `source.problem`.
pub fn resolve(
    config: &mut PluginConfig,
    lock: Result<&LockFile, &String>,
    store: Result<&ModuleStore, &String>,
    project_dir: &Path,
) {
    let Some(source) = config.source.as_mut() else {
        return;
    };
    let outcome = locate(source, lock, store, project_dir);
    match outcome {
        Ok(module) => {
            if config.sha256.is_some_and(|pin| pin != module.sha256) {
                source.problem = Some(format!(
                    "{}: the module is not the one pinned by \"sha256\"",
                    source.reference
                ));
            }
            config.path = module.path;
            config.sha256 = Some(module.sha256);
        }
        Err(problem) => source.problem = Some(format!("{}: {problem}", source.reference)),
    }
}

struct Located {
    path: std::path::PathBuf,
    sha256: [u8; 32],
}

fn locate(
    source: &mut ModuleSource,
    lock: Result<&LockFile, &String>,
    store: Result<&ModuleStore, &String>,
    project_dir: &Path,
) -> Result<Located, String> {
    let reference = ModuleRef::parse(&source.reference)?;
    let lock_command = format!("hookhost lock --project-dir {}", project_dir.display());
    let digest = match &reference.digest {
        Some(digest) => digest.clone(),
        None => {
            let lock =
                lock.map_err(|e| format!("{e}; fix or delete it, then run `{lock_command}`"))?;
            lock.modules
                .get(&reference.tagged())
                .map(|locked| locked.digest.clone())
                .ok_or_else(|| {
                    format!(
                        "not in {} (a tag is used only once locked); run `{lock_command}`",
                        lock_path(project_dir).display()
                    )
                })?
        }
    };
    source.digest = Some(digest.clone());
    let store = store.map_err(String::clone)?;
    let pinned = reference.at_digest(&digest);
    let pull = format!("hookhost plugin pull {pinned}");
    let missing = |e: StoreError| match e {
        StoreError::Missing { .. } => {
            format!(
                "{digest} is not in the module store; fetch it with `{pull}` or `{lock_command}`"
            )
        }
        other => format!("{other}; fetch it again with `{pull}`"),
    };
    let manifest = Manifest::parse(&store.read(&digest).map_err(missing)?)?;
    let layer = manifest.wasm_layer()?;
    let sha256 = parse_digest(&layer.digest)
        .ok_or_else(|| format!("the module digest {:?} is not sha256", layer.digest))?;
    store.read(&layer.digest).map_err(missing)?;
    if let Some(key) = &source.verify_key {
        verify_stored(store, &digest, key)?;
    }
    Ok(Located {
        path: store.path(&layer.digest),
        sha256,
    })
}
