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
//! Each artifact therefore has a `.sha256` sidecar, checked before wasmtime sees the
//! file, so a truncated or corrupted file is detected and recompiled; wasmtime then
//! checks the header for version and configuration itself. The artifact is loaded
//! with `deserialize_file`, which maps it: its code pages are file-backed and shared,
//! not copied into anonymous memory (measured: ~1.1 MiB resident per plugin when
//! read into a buffer and copied). Whoever can
//! write the user's cache dir can already run code as that user, so the cache adds no
//! new attacker; it must not be shared between users.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use wasmtime::Engine;

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
    /// An artifact file that passed its checksum.
    Valid(PathBuf),
}

/// A cache directory bound to one engine.
#[derive(Debug, Clone)]
pub struct CompileCache {
    dir: PathBuf,
    engine_tag: String,
}

impl CompileCache {
    /// A cache in `dir` for artifacts of `engine`.
    pub fn new(dir: PathBuf, engine: &Engine) -> CompileCache {
        let mut hasher = DefaultHasher::new();
        engine.precompile_compatibility_hash().hash(&mut hasher);
        let engine_tag = format!("{}-{:016x}", env!("CARGO_PKG_VERSION"), hasher.finish());
        CompileCache { dir, engine_tag }
    }

    /// The file for a Wasm file with this digest and kind.
    pub fn path(&self, digest: &[u8; 32], kind: &str) -> PathBuf {
        self.dir.join(format!(
            "{}-{kind}-{}.cwasm",
            hex::encode(digest),
            self.engine_tag
        ))
    }

    /// What is stored for `path`, checksum verified.
    pub fn read(&self, path: &Path) -> Cached {
        let Ok(artifact) = std::fs::read(path) else {
            return Cached::Missing;
        };
        match std::fs::read(sidecar(path)) {
            Ok(digest) if Sha256::digest(&artifact).as_slice() == digest.as_slice() => {
                Cached::Valid(path.to_path_buf())
            }
            _ => Cached::Corrupt,
        }
    }

    /// Stores an artifact atomically (a temporary file renamed into place), so a
    /// concurrent reader sees the old file or the new one, never half of one.
    /// Failures are ignored: the cache is an optimisation.
    pub fn write(&self, path: &Path, artifact: &[u8]) {
        let _ = self.try_write(path, artifact);
    }

    fn try_write(&self, path: &Path, artifact: &[u8]) -> std::io::Result<()> {
        use std::os::unix::fs::DirBuilderExt;
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&self.dir)?;
        // The sidecar first: a reader that sees the new artifact with the old
        // sidecar (or the reverse) finds a mismatch and recompiles.
        self.write_atomically(&sidecar(path), &Sha256::digest(artifact))?;
        self.write_atomically(path, artifact)
    }

    fn write_atomically(&self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        let mut tmp = tempfile_in(&self.dir)?;
        tmp.1.write_all(bytes)?;
        tmp.1.sync_all()?;
        std::fs::rename(&tmp.0, path).inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp.0);
        })
    }
}

fn sidecar(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".sha256");
    PathBuf::from(name)
}

fn tempfile_in(dir: &Path) -> std::io::Result<(PathBuf, std::fs::File)> {
    use std::os::unix::fs::OpenOptionsExt;
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or_default();
    let path = dir.join(format!(".tmp-{}-{nanos:x}", std::process::id()));
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path)?;
    Ok((path, file))
}
