//! The module store: OCI manifests, Wasm modules and signatures pulled from
//! registries, kept on disk by digest.
//!
//! Every object lives at `<store>/sha256/<hex>` and is checked against its name each
//! time it is read, so a truncated, partial or tampered file is reported as corrupt
//! (and replaced by the next `pull`) rather than run. Writes go to a temporary file
//! in the same directory that is renamed into place: a concurrent reader sees the
//! whole object or none. The store is `$XDG_CACHE_HOME/hookhost/modules` (or
//! `~/.cache/hookhost/modules`; `HOOKHOST_STORE_DIR` overrides it) and, like the
//! compile cache, is refused when anybody but this user could change what is in it
//! (`check_private`): a checksum does not help when an attacker can also choose
//! which digest the lock names.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::reference::{digest_of, parse_digest};
/// Why a directory is not private enough to hold modules (a [`StoreError::NotPrivate`] cause).
pub use crate::private_file::PrivateDirError;
use crate::private_file::{check_private, read_private_file};

/// The environment variable that moves the store.
pub const STORE_DIR_ENV: &str = "HOOKHOST_STORE_DIR";

/// Objects larger than this are refused (a Wasm policy module is a few MiB).
pub const MAX_OBJECT_BYTES: u64 = 256 * 1024 * 1024;

/// What can go wrong with the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// No cache directory could be determined.
    #[error("no cache directory (set {STORE_DIR_ENV} or HOME)")]
    NoDir,
    /// Someone else could change the store.
    #[error(
        "module store {dir} refused: {problem} (point {STORE_DIR_ENV} at a directory only you can write)"
    )]
    NotPrivate {
        /// The store directory.
        dir: PathBuf,
        /// Why.
        #[source]
        problem: PrivateDirError,
    },
    /// The object is not in the store.
    #[error("{digest} is not in the module store")]
    Missing {
        /// Its digest.
        digest: String,
    },
    /// The stored file does not hash to its name (or is not a private regular file).
    #[error("{digest} in the module store is corrupt ({path}); pull it again")]
    Corrupt {
        /// Its digest.
        digest: String,
        /// The file.
        path: PathBuf,
    },
    /// The bytes to store do not match the digest they were fetched under.
    #[error("digest mismatch: expected {expected}, the content is {actual}")]
    Mismatch {
        /// What was asked for.
        expected: String,
        /// What arrived.
        actual: String,
    },
    /// Writing failed (disk full, read-only file system …).
    #[error("cannot write to the module store {dir}: {source}")]
    Write {
        /// The store directory.
        dir: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// The store directory.
#[derive(Debug, Clone)]
pub struct ModuleStore {
    dir: PathBuf,
}

impl ModuleStore {
    /// Where the store is by default.
    pub fn default_dir() -> Option<PathBuf> {
        match std::env::var_os(STORE_DIR_ENV) {
            Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir)),
            _ => dirs::cache_dir().map(|d| d.join("hookhost").join("modules")),
        }
    }

    /// Opens the default store.
    pub fn open_default() -> Result<ModuleStore, StoreError> {
        ModuleStore::open(ModuleStore::default_dir().ok_or(StoreError::NoDir)?)
    }

    /// Opens (creating `0700` when missing) a store only this user can change.
    pub fn open(dir: PathBuf) -> Result<ModuleStore, StoreError> {
        check_private(&dir).map_err(|problem| StoreError::NotPrivate {
            dir: dir.clone(),
            problem,
        })?;
        Ok(ModuleStore { dir })
    }

    /// The store directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the object with this digest is (whether or not it is there).
    pub fn path(&self, digest: &str) -> PathBuf {
        let hex = digest.strip_prefix("sha256:").unwrap_or(digest);
        self.dir.join("sha256").join(hex)
    }

    /// The object's bytes, checked against its digest.
    pub fn read(&self, digest: &str) -> Result<Vec<u8>, StoreError> {
        let path = self.path(digest);
        let corrupt = || StoreError::Corrupt {
            digest: digest.to_owned(),
            path: path.clone(),
        };
        if parse_digest(digest).is_none() {
            return Err(corrupt());
        }
        match read_private_file(&path) {
            Ok(Some(bytes)) if digest_of(&bytes) == digest => Ok(bytes),
            Ok(None) => Err(StoreError::Missing {
                digest: digest.to_owned(),
            }),
            Ok(Some(_)) | Err(()) => Err(corrupt()),
        }
    }

    /// Whether a valid copy of the object is stored.
    pub fn contains(&self, digest: &str) -> bool {
        self.read(digest).is_ok()
    }

    /// Stores bytes under their digest, refusing bytes that are not what `expected`
    /// names.
    pub fn write(&self, expected: &str, bytes: &[u8]) -> Result<PathBuf, StoreError> {
        let actual = digest_of(bytes);
        if actual != expected {
            return Err(StoreError::Mismatch {
                expected: expected.to_owned(),
                actual,
            });
        }
        let path = self.path(expected);
        self.write_file(&self.dir.join("sha256"), &path, bytes)?;
        Ok(path)
    }

    /// The file naming the signature manifest stored for a module's manifest digest.
    pub fn signature_link(&self, manifest_digest: &str) -> PathBuf {
        let hex = manifest_digest
            .strip_prefix("sha256:")
            .unwrap_or(manifest_digest);
        self.dir
            .join("signatures")
            .join(format!("sha256-{hex}.sig"))
    }

    /// Records which signature manifest belongs to a module's manifest digest.
    pub fn write_signature_link(
        &self,
        manifest_digest: &str,
        signature_digest: &str,
    ) -> Result<(), StoreError> {
        let path = self.signature_link(manifest_digest);
        self.write_file(
            &self.dir.join("signatures"),
            &path,
            signature_digest.as_bytes(),
        )
    }

    /// Writes `bytes` to `path` in `parent` (created `0700`) atomically: a temporary
    /// file in the same directory, synced, then renamed into place.
    fn write_file(&self, parent: &Path, path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
        use std::os::unix::fs::DirBuilderExt;
        let write_error = |source| StoreError::Write {
            dir: self.dir.clone(),
            source,
        };
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(parent)
            .map_err(write_error)?;
        let mut tmp = tempfile::NamedTempFile::new_in(parent).map_err(write_error)?;
        tmp.write_all(bytes).map_err(write_error)?;
        tmp.as_file().sync_all().map_err(write_error)?;
        tmp.persist(path).map_err(|e| write_error(e.error))?;
        Ok(())
    }

    /// Records that the registry had no signature for a module's manifest digest
    /// when it was pulled (so that a signature record removed later is told apart
    /// from one that never was).
    pub fn write_unsigned(&self, manifest_digest: &str) -> Result<(), StoreError> {
        let path = self.signature_link(manifest_digest);
        self.write_file(&self.dir.join("signatures"), &path, UNSIGNED.as_bytes())
    }

    /// What the store knows of a module's signature: the signature manifest's
    /// digest, that the registry had none when the module was pulled, or
    /// nothing (`None`: no record, e.g. removed from the store).
    pub fn read_signature_link(&self, manifest_digest: &str) -> Option<SignatureRecord> {
        let bytes = read_private_file(&self.signature_link(manifest_digest)).ok()??;
        let text = String::from_utf8(bytes).ok()?;
        let text = text.trim();
        if text == UNSIGNED {
            return Some(SignatureRecord::Unsigned);
        }
        parse_digest(text).map(|_| SignatureRecord::Signed(text.to_owned()))
    }
}

/// The content of a signature record that says "no signature when pulled".
const UNSIGNED: &str = "unsigned";

/// What the module store records of a module's signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignatureRecord {
    /// The digest of the cosign signature manifest, stored.
    Signed(String),
    /// The registry had no signature when the module was pulled.
    Unsigned,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_corrupt_objects_and_refuses_mismatches() {
        let dir = tempfile::tempdir().unwrap();
        let store = ModuleStore::open(dir.path().join("store")).unwrap();
        let digest = digest_of(b"module");
        assert!(matches!(
            store.read(&digest),
            Err(StoreError::Missing { .. })
        ));
        assert!(matches!(
            store.write(&digest_of(b"other"), b"module"),
            Err(StoreError::Mismatch { .. })
        ));
        let path = store.write(&digest, b"module").unwrap();
        assert_eq!(store.read(&digest).unwrap(), b"module");
        std::fs::write(&path, b"modulX").unwrap();
        assert!(matches!(
            store.read(&digest),
            Err(StoreError::Corrupt { .. })
        ));
        store.write(&digest, b"module").unwrap();
        assert!(store.contains(&digest));
    }

    #[test]
    fn refuses_a_shared_store() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let shared = dir.path().join("shared");
        std::fs::create_dir(&shared).unwrap();
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o777)).unwrap();
        let error = ModuleStore::open(shared).unwrap_err().to_string();
        assert!(error.contains("writable by group or others"), "{error}");
    }
}
