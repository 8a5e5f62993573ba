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

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::{HookEntry, HookKind, ModuleSource, PluginConfig, VerifyRule};
use crate::distribution::canonical::prefix_match;
use crate::distribution::lock::{LockError, LockFile};
use crate::distribution::manifest::{Manifest, ManifestError};
use crate::distribution::reference::{ModuleRef, ReferenceError, canonical, parse_digest};
use crate::distribution::signature::{SignatureError, verify_stored};
use crate::distribution::store::{ModuleStore, StoreError};

/// Why a `source` does not resolve to a module in the store; each message says
/// which command fixes it (the caller prefixes the reference).
#[derive(Debug, thiserror::Error)]
pub enum ResolveError {
    /// The `source` is not a valid reference.
    #[error(transparent)]
    Reference(#[from] ReferenceError),
    /// A tag needs the lock file, which cannot be used.
    #[error(
        "{source}; fix or delete it, then run `hookhost lock --project-dir {project_dir}{flags}`"
    )]
    Lock {
        /// Why the lock file cannot be used.
        source: Arc<LockError>,
        /// The project directory.
        project_dir: PathBuf,
        /// The settings flags that read the hook's file (` --claude-settings` …).
        flags: String,
    },
    /// The tag is not in the lock file.
    #[error(
        "not in {lock_file} (a tag is used only once locked); \
         run `hookhost lock --project-dir {project_dir}{flags}`"
    )]
    NotLocked {
        /// The lock file.
        lock_file: PathBuf,
        /// The project directory.
        project_dir: PathBuf,
        /// The settings flags that read the hook's file (` --claude-settings` …).
        flags: String,
    },
    /// The module store cannot be used.
    #[error(transparent)]
    Store(Arc<StoreError>),
    /// The manifest or the module is not in the store.
    #[error(
        "{digest} is not in the module store; fetch it with `hookhost install --project-dir \
         {project_dir}{flags}` (every locked module) or `hookhost plugin pull {pinned}`"
    )]
    NotStored {
        /// The manifest digest (also when the module is what is missing).
        digest: String,
        /// The reference at that digest.
        pinned: Box<ModuleRef>,
        /// The project directory.
        project_dir: PathBuf,
        /// The settings flags that read the hook's file (` --claude-settings` …).
        flags: String,
    },
    /// The manifest or the module in the store cannot be used (corrupt …).
    #[error("{source}; fetch it again with `hookhost plugin pull {pinned}`")]
    Stored {
        /// The store's error.
        source: StoreError,
        /// The reference at the manifest digest.
        pinned: Box<ModuleRef>,
    },
    /// The stored manifest is not that of a Wasm artifact.
    #[error(transparent)]
    Manifest(#[from] ManifestError),
    /// The manifest names a module digest that is not sha256.
    #[error("the module digest {digest:?} is not sha256")]
    NotSha256 {
        /// The digest the manifest names.
        digest: String,
    },
    /// The `verify` key does not verify a stored signature.
    #[error(transparent)]
    Signature(#[from] SignatureError),
}

/// The lock file or the module store, opened once for every hook, or why it cannot
/// be (shared by every hook that needs it).
type Opened<T, E> = Result<T, Arc<E>>;

/// Resolves every `source` plugin of `entries` against its lock file (the
/// project's, or the user's for the user's own files: [`crate::config::SettingsSource::lock_path`]) and the
/// user's module store. The key of the longest matching `tools.verifyPlugins`
/// prefix (canonical spellings compared) is required of every hook under it, whatever `verify` the hook names
/// (which must verify too).
pub fn resolve_entries(entries: &mut [HookEntry], rules: &[VerifyRule], project_dir: &Path) {
    let mut locks: Vec<(PathBuf, Opened<LockFile, LockError>)> = Vec::new();
    let mut store: Option<Opened<ModuleStore, StoreError>> = None;
    for entry in entries {
        let flags = settings_flags(&entry.source);
        let lock_file = entry.source.lock_path(project_dir);
        let HookKind::Plugin(config) = &mut entry.spec.kind else {
            continue;
        };
        let Some(source) = config.source.as_mut() else {
            continue;
        };
        source.required_key = required_key(rules, &source.reference);
        let at = match locks.iter().position(|(path, _)| *path == lock_file) {
            Some(at) => at,
            None => {
                let lock = LockFile::load(&lock_file).map_err(Arc::new);
                locks.push((lock_file.clone(), lock));
                locks.len() - 1
            }
        };
        let store = store.get_or_insert_with(|| ModuleStore::open_default().map_err(Arc::new));
        let lock = (locks[at].0.as_path(), locks[at].1.as_ref());
        resolve(config, lock, store.as_ref(), project_dir, &flags);
    }
}

/// The key of the longest `tools.verifyPlugins` prefix that covers `reference`,
/// both compared in canonical form ([`prefix_match`]): a rule written for
/// `oci://ghcr.io/acme/` holds for `oci://GHCR.IO:443/acme/…` too.
fn required_key(rules: &[VerifyRule], reference: &str) -> Option<PathBuf> {
    // The reference is canonical already (settings parse it); parsing again
    // keeps this true for any caller.
    let reference = canonical(reference).unwrap_or_else(|_| reference.to_owned());
    rules
        .iter()
        .filter_map(|rule| Some((prefix_match(&rule.prefix, &reference)?, rule)))
        .max_by_key(|(covered, _)| *covered)
        .map(|(_, rule)| rule.key.clone())
}

/// The flags a `hookhost lock` / `install` needs to read the file `source` is (so
/// that a hint, run verbatim, fixes the problem instead of writing a lock without
/// that file's modules).
fn settings_flags(source: &crate::config::SettingsSource) -> String {
    use crate::config::{SettingsFormat, SourceKind};
    if let Some(root) = &source.plugin_root {
        return format!(" --claude-plugin {}", shell_word(&root.to_string_lossy()));
    }
    let scope = match source.format {
        SettingsFormat::Claude => " --claude-settings",
        SettingsFormat::Gemini if !matches!(source.kind, SourceKind::Explicit) => {
            " --gemini-settings"
        }
        SettingsFormat::Codex => " --codex-settings",
        _ => "",
    };
    match source.kind {
        SourceKind::Explicit if source.plugin_root.is_none() => format!(
            " --settings {}{scope}",
            shell_word(&source.path.to_string_lossy())
        ),
        _ => scope.to_owned(),
    }
}

/// `word` quoted for a shell when it needs it.
fn shell_word(word: &str) -> String {
    shlex::try_quote(word).map_or_else(|_| word.to_owned(), |q| q.into_owned())
}

/// Resolves one plugin: sets its `path`, `sha256` and `source.digest`, or its
/// `source.problem`.
pub fn resolve(
    config: &mut PluginConfig,
    lock: (&Path, Result<&LockFile, &Arc<LockError>>),
    store: Result<&ModuleStore, &Arc<StoreError>>,
    project_dir: &Path,
    flags: &str,
) {
    let Some(source) = config.source.as_mut() else {
        return;
    };
    let outcome = locate(source, lock, store, project_dir, flags);
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
    (lock_file, lock): (&Path, Result<&LockFile, &Arc<LockError>>),
    store: Result<&ModuleStore, &Arc<StoreError>>,
    project_dir: &Path,
    flags: &str,
) -> Result<Located, ResolveError> {
    let reference = ModuleRef::parse(&source.reference)?;
    let digest = match &reference.digest {
        Some(digest) => digest.clone(),
        None => {
            let lock = lock.map_err(|e| ResolveError::Lock {
                source: Arc::clone(e),
                project_dir: project_dir.to_path_buf(),
                flags: flags.to_owned(),
            })?;
            lock.modules
                .get(&reference.tagged())
                .map(|locked| locked.digest.clone())
                .ok_or_else(|| ResolveError::NotLocked {
                    lock_file: lock_file.to_path_buf(),
                    project_dir: project_dir.to_path_buf(),
                    flags: flags.to_owned(),
                })?
        }
    };
    source.digest = Some(digest.clone());
    let store = store.map_err(|e| ResolveError::Store(Arc::clone(e)))?;
    let pinned = Box::new(reference.at_digest(&digest));
    let missing = |e: StoreError| match e {
        StoreError::Missing { .. } => ResolveError::NotStored {
            digest: digest.clone(),
            pinned: pinned.clone(),
            project_dir: project_dir.to_path_buf(),
            flags: flags.to_owned(),
        },
        other => ResolveError::Stored {
            source: other,
            pinned: pinned.clone(),
        },
    };
    let manifest = Manifest::parse(&store.read(&digest).map_err(missing)?)?;
    let layer = manifest.wasm_layer()?;
    let sha256 = parse_digest(&layer.digest).ok_or_else(|| ResolveError::NotSha256 {
        digest: layer.digest.clone(),
    })?;
    store.read(&layer.digest).map_err(missing)?;
    // The required key first: a module it does not verify never runs, whatever the
    // hook's own key says.
    for key in source.required_key.iter().chain(
        source
            .verify_key
            .iter()
            .filter(|key| Some(*key) != source.required_key.as_ref()),
    ) {
        verify_stored(store, &digest, key)?;
    }
    Ok(Located {
        path: store.path(&layer.digest),
        sha256,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_problem_names_the_command_that_fixes_it() {
        let digest = format!("sha256:{}", "a".repeat(64));
        let pinned = Box::new(
            ModuleRef::parse("oci://ghcr.io/acme/scan:1")
                .unwrap()
                .at_digest(&digest),
        );
        let project_dir = PathBuf::from("/work/project");
        let lock = ResolveError::Lock {
            source: Arc::new(LockError {
                path: project_dir.join("hookhost.lock"),
                problem: "version 9 is not supported (expected 1)".to_owned(),
            }),
            project_dir: project_dir.clone(),
            flags: String::new(),
        };
        assert_eq!(
            lock.to_string(),
            "/work/project/hookhost.lock: version 9 is not supported (expected 1); fix or \
             delete it, then run `hookhost lock --project-dir /work/project`"
        );
        let not_locked = ResolveError::NotLocked {
            lock_file: project_dir.join("hookhost.lock"),
            project_dir: project_dir.clone(),
            flags: " --claude-settings".to_owned(),
        };
        assert_eq!(
            not_locked.to_string(),
            "not in /work/project/hookhost.lock (a tag is used only once locked); run \
             `hookhost lock --project-dir /work/project --claude-settings`"
        );
        let not_stored = ResolveError::NotStored {
            digest: digest.clone(),
            pinned: pinned.clone(),
            project_dir,
            flags: String::new(),
        };
        assert_eq!(
            not_stored.to_string(),
            format!(
                "{digest} is not in the module store; fetch it with `hookhost install \
                 --project-dir /work/project` (every locked module) or `hookhost plugin pull \
                 oci://ghcr.io/acme/scan:1@{digest}`"
            )
        );
        let stored = ResolveError::Stored {
            source: StoreError::Corrupt {
                digest: digest.clone(),
                path: "/store/x".into(),
            },
            pinned,
        };
        assert_eq!(
            stored.to_string(),
            format!(
                "{digest} in the module store is corrupt (/store/x); pull it again; fetch it \
                 again with `hookhost plugin pull oci://ghcr.io/acme/scan:1@{digest}`"
            )
        );
        assert_eq!(
            ResolveError::NotSha256 {
                digest: "md5:x".to_owned()
            }
            .to_string(),
            "the module digest \"md5:x\" is not sha256"
        );
    }
}
