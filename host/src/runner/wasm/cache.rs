//! The per-user on-disk cache of compiled plugins.
//!
//! Compiling a component with Cranelift takes tens to hundreds of milliseconds; a
//! `hookhost fire` process would pay it on every run. Compiled artifacts are kept
//! under the user's cache dir (`$XDG_CACHE_HOME/hookhost` or `~/.cache/hookhost`,
//! created `0700`), named by the SHA-256 of the Wasm bytes, its kind, and a hash of
//! everything that makes compiled code compatible with this engine (wasmtime's own
//! compatibility hash plus the wasmtime version).
//!
//! Loading compiled code is `unsafe` in wasmtime: a tampered artifact is native code.
//! Each artifact therefore has a `.sha256` sidecar — the artifact's SHA-256 and its
//! [`Stamp`] right after it was renamed into place — checked before wasmtime sees
//! the file, so a truncated or corrupted file is detected and recompiled; wasmtime
//! then checks the header for version and configuration itself. An artifact is
//! never changed in place, so while its stamp is the recorded one it is the file
//! that was written, and it is not read to be checked: it is mapped
//! (`deserialize_open_file`), its code pages file-backed, shared and faulted in
//! only when run. Only when the stamp differs (the file was touched, copied,
//! restored) is it hashed — streamed, not read into memory — and the sidecar
//! refreshed if the digest still matches. Measured on a componentize-py plugin
//! (53 MiB artifact): reading and hashing it was most of a warm `hookhost fire`.
//!
//! A checksum does not stop someone who can write the directory: another local user
//! with write access could plant an artifact *and* its sidecar under the digest of
//! the victim's pinned plugin, and the victim would run the planted native code. So
//! the cache is used only when nobody else can change it ([`check_private`]): the
//! directory (created `0700` when missing) must be owned by this user, not be
//! group- or world-writable, not be a symbolic link, and every directory above it
//! must belong to this user or root and be writable by others only with the sticky
//! bit (`/tmp`). Each file must be a regular file of this user, not writable by
//! others, opened without following links. Otherwise the cache is refused with a
//! warning and plugins are compiled in memory.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use wasmtime::Engine;

use super::stamp::Stamp;
use crate::private_file::{
    PrivateDirError, check_private, open_private_file, read_private_file, write_atomically,
};

/// Where the cache lives by default.
pub fn default_dir() -> Option<PathBuf> {
    dirs::cache_dir().map(|d| d.join("hookhost"))
}

/// What the cache did for one plugin (reported by `hookhost check` and tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheStatus {
    /// No cache is configured.
    Disabled,
    /// A valid artifact was loaded.
    Hit,
    /// Nothing was cached; compiled and stored.
    Miss,
    /// An artifact was there but invalid; compiled and replaced.
    Corrupt,
}

/// What the cache holds for one plugin.
#[derive(Debug)]
pub enum Cached {
    /// Nothing.
    Missing,
    /// A file that fails its checksum.
    Corrupt,
    /// The artifact, open, checked against its sidecar.
    Valid(std::fs::File),
}

/// An artifact's sidecar: its digest, and its stamp when it was written.
#[derive(Debug, Serialize, Deserialize)]
struct Sidecar {
    sha256: String,
    stamp: Option<Stamp>,
}

/// Why the compile cache is not used: someone other than this user could change
/// what is in its directory.
#[derive(Debug, thiserror::Error)]
#[error(
    "compile cache {dir} not used: {problem}; plugins are compiled in memory \
     (point HOOKHOST_CACHE_DIR at a directory only you can write)"
)]
pub struct CacheError {
    /// The cache directory.
    pub dir: PathBuf,
    /// Why it is not private.
    #[source]
    pub problem: PrivateDirError,
}

/// A cache directory bound to one engine.
#[derive(Debug, Clone)]
pub struct CompileCache {
    dir: PathBuf,
    engine_tag: String,
}

impl CompileCache {
    /// A cache in `dir` for artifacts of `engine`; refused (with the reason) when
    /// someone other than this user could change what is in it.
    pub fn new(dir: PathBuf, engine: &Engine) -> Result<CompileCache, CacheError> {
        if let Err(problem) = check_private(&dir) {
            return Err(CacheError { dir, problem });
        }
        let mut hasher = DefaultHasher::new();
        engine.precompile_compatibility_hash().hash(&mut hasher);
        let engine_tag = format!("{}-{:016x}", env!("CARGO_PKG_VERSION"), hasher.finish());
        Ok(CompileCache { dir, engine_tag })
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file for a Wasm file with this digest and kind.
    pub fn path(&self, digest: &[u8; 32], kind: &str) -> PathBuf {
        self.dir.join(format!(
            "{}-{kind}-{}.cwasm",
            hex::encode(digest),
            self.engine_tag
        ))
    }

    /// The artifact at `path`, open, if it is the file its sidecar describes:
    /// by its stamp, or else by its SHA-256 (streamed).
    pub fn open(&self, path: &Path) -> Cached {
        let file = match open_private_file(path) {
            Ok(Some(file)) => file,
            Ok(None) => return Cached::Missing,
            Err(()) => return Cached::Corrupt,
        };
        let Ok(meta) = file.metadata() else {
            return Cached::Corrupt;
        };
        let Some(sidecar) = read_private_file(&sidecar(path))
            .ok()
            .flatten()
            .and_then(|bytes| serde_json::from_slice::<Sidecar>(&bytes).ok())
        else {
            return Cached::Corrupt;
        };
        let stamp = Stamp::of(&meta);
        if sidecar.stamp == Some(stamp) {
            return Cached::Valid(file);
        }
        let mut hasher = Sha256::new();
        if std::io::copy(&mut &file, &mut hasher).is_err()
            || hex::encode(hasher.finalize()) != sidecar.sha256
        {
            return Cached::Corrupt;
        }
        // Intact but touched (copied, restored): record the new stamp so the next
        // load need not hash it again.
        if stamp.settled() {
            let refreshed = Sidecar {
                stamp: Some(stamp),
                ..sidecar
            };
            if let Ok(json) = serde_json::to_vec(&refreshed) {
                let _ = write_atomically(&self.dir, &self::sidecar(path), &json);
            }
        }
        Cached::Valid(file)
    }

    /// Stores an artifact atomically (a temporary file renamed into place), so a
    /// concurrent reader sees the old file or the new one, never half of one.
    /// Failures are ignored: the cache is an optimisation.
    pub fn write(&self, path: &Path, artifact: &[u8]) {
        let _ = self.try_write(path, artifact);
    }

    fn try_write(&self, path: &Path, artifact: &[u8]) -> std::io::Result<()> {
        let file = write_atomically(&self.dir, path, artifact)?;
        // The stamp after the rename (which moves the change time). A reader
        // between the rename and the sidecar's finds a mismatch and hashes.
        // A fresh file's stamp is trusted although it is not settled: nobody but
        // this user writes here, and an artifact is never written in place.
        let sidecar = Sidecar {
            sha256: hex::encode(Sha256::digest(artifact)),
            stamp: file.metadata().ok().map(|meta| Stamp::of(&meta)),
        };
        let json = serde_json::to_vec(&sidecar).map_err(std::io::Error::other)?;
        write_atomically(&self.dir, &self::sidecar(path), &json).map(drop)
    }
}

fn sidecar(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".sha256");
    PathBuf::from(name)
}
