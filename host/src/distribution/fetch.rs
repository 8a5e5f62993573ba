//! `hookhost lock [--update]` and `hookhost install`: every `source` reference of the
//! effective settings, fetched into the module store, and the lock file that results.
//!
//! The algorithm lives here, the printing in the CLI: each reference's outcome is
//! handed to a callback as it completes ([`Fetched`]), and the caller saves the
//! returned lock (or not: `install` never writes it).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::client::{ClientError, ClientOptions, Pulled, RegistryClient};
use super::lock::{LOCK_VERSION, LockFile, LockedModule};
use super::reference::ModuleRef;
use super::signature::{SignatureError, verify_stored};
use super::store::ModuleStore;

/// What [`fetch`] does with the lock file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FetchMode {
    /// `hookhost lock [--update]`: resolve, fetch, make the new lock.
    Lock {
        /// Re-resolve tags that are already locked.
        update: bool,
        /// Drop the old lock's entries that no reference names (kept otherwise).
        prune: bool,
    },
    /// `hookhost install`: fetch exactly what the lock (or a digest in the
    /// reference) names; a tag without a lock entry is an error (a fresh clone gets
    /// the reviewed digests, never a moved tag).
    Install,
}

/// How one reference came out.
#[derive(Debug)]
#[non_exhaustive]
pub enum Fetched<'a> {
    /// Fetched into the store (from the registry, or found there by digest).
    Done {
        /// The reference as configured.
        reference: &'a ModuleRef,
        /// The manifest digest it resolved to.
        digest: &'a str,
        /// The module's size in bytes.
        size: u64,
    },
    /// `lock`: an entry of the old lock that no reference of the settings read
    /// names, kept (pass `prune` to drop it).
    Kept {
        /// The locked reference (tagged form).
        reference: &'a str,
    },
    /// `install`: a tag the lock does not name.
    NotLocked {
        /// The reference as configured.
        text: &'a str,
    },
    /// The registry or the store failed.
    Failed(&'a ClientError),
    /// Fetched, but a key the settings require does not verify its signature: not
    /// locked (the old entry, if any, stays).
    Unverified {
        /// The reference as configured.
        reference: &'a ModuleRef,
        /// The manifest digest it resolved to.
        digest: &'a str,
        /// The key.
        key: &'a Path,
        /// Why it does not verify.
        error: &'a SignatureError,
    },
}

/// The result of a [`fetch`].
#[derive(Debug)]
#[non_exhaustive]
pub struct FetchOutcome {
    /// The new lock: fetched tags at their digests, the old entries of tags that
    /// failed. (`install` returns it too; it is not meant to be saved.)
    pub lock: LockFile,
    /// How many references could not be fetched.
    pub failed: usize,
}

/// Fetches every reference (texts that do not parse are skipped: the settings
/// reported them) into `store`, following `old` unless `mode` updates it, and
/// verifies each with the `keys` the settings require of it before it enters the
/// lock; calls `report` once per reference, in order.
pub async fn fetch(
    references: &BTreeSet<String>,
    keys: &BTreeMap<String, BTreeSet<PathBuf>>,
    mode: FetchMode,
    old: &LockFile,
    store: &ModuleStore,
    options: &ClientOptions,
    mut report: impl FnMut(Fetched<'_>),
) -> FetchOutcome {
    let update = matches!(mode, FetchMode::Lock { update: true, .. });
    let mut lock = LockFile {
        version: LOCK_VERSION,
        ..LockFile::default()
    };
    let mut failed = 0;
    for text in references {
        let Ok(reference) = ModuleRef::parse(text) else {
            continue;
        };
        let key = reference.tagged();
        let locked = old
            .modules
            .get(&key)
            .filter(|_| !update && reference.digest.is_none());
        if mode == FetchMode::Install && locked.is_none() && reference.digest.is_none() {
            report(Fetched::NotLocked { text });
            failed += 1;
            continue;
        }
        let target = match locked {
            Some(entry) => reference.at_digest(&entry.digest),
            None => reference.clone(),
        };
        let pulled = match RegistryClient::new(&target, options) {
            Ok(client) => client.pull(&target, store).await,
            Err(e) => Err(e),
        };
        let unverified = pulled
            .as_ref()
            .ok()
            .and_then(|pulled| unverified(store, &pulled.digest, keys.get(text)));
        if let (Ok(pulled), Some((key, error))) = (&pulled, &unverified) {
            report(Fetched::Unverified {
                reference: &reference,
                digest: &pulled.digest,
                key,
                error,
            });
            failed += 1;
            keep_old(&mut lock, old, key_of(&reference));
            continue;
        }
        match pulled {
            Ok(pulled) => {
                let (digest, size) = (&pulled.digest, pulled.size);
                report(Fetched::Done {
                    reference: &reference,
                    digest,
                    size,
                });
                if reference.digest.is_none() {
                    lock.modules.insert(key, locked_module(pulled));
                }
            }
            Err(e) => {
                report(Fetched::Failed(&e));
                failed += 1;
                keep_old(&mut lock, old, key);
            }
        }
    }
    if let FetchMode::Lock { prune: false, .. } = mode {
        keep_unnamed(references, old, &mut lock, &mut report);
    }
    FetchOutcome { lock, failed }
}

/// A failed reference keeps its entry of the old lock, if it had one.
fn keep_old(lock: &mut LockFile, old: &LockFile, key: String) {
    if let Some(entry) = old.modules.get(&key) {
        lock.modules.insert(key, entry.clone());
    }
}

/// The lock's entry of a module just pulled.
fn locked_module(pulled: Pulled) -> LockedModule {
    LockedModule {
        digest: pulled.digest,
        module: pulled.module,
        size: pulled.size,
    }
}

/// The first of `keys` the module stored at `digest` does not verify with, and why.
fn unverified<'k>(
    store: &ModuleStore,
    digest: &str,
    keys: Option<&'k BTreeSet<PathBuf>>,
) -> Option<(&'k Path, SignatureError)> {
    keys?.iter().find_map(|key| {
        verify_stored(store, digest, key)
            .err()
            .map(|e| (key.as_path(), e))
    })
}

/// Keeps the entries of `old` no reference names: a lock never silently loses
/// entries (run without the flag that reads the Claude files, it would otherwise
/// drop their hooks' modules).
fn keep_unnamed(
    references: &BTreeSet<String>,
    old: &LockFile,
    lock: &mut LockFile,
    report: &mut impl FnMut(Fetched<'_>),
) {
    let named: BTreeSet<String> = references
        .iter()
        .filter_map(|text| ModuleRef::parse(text).ok())
        .map(|r| key_of(&r))
        .collect();
    for (key, entry) in &old.modules {
        if !named.contains(key) && !lock.modules.contains_key(key) {
            report(Fetched::Kept { reference: key });
            lock.modules.insert(key.clone(), entry.clone());
        }
    }
}

/// The lock's key of a reference (its tagged form).
fn key_of(reference: &ModuleRef) -> String {
    reference.tagged()
}
