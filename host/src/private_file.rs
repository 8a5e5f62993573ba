//! Files only this user can change: the compile cache, the module store and their
//! records are trusted because nobody else can write them. A directory is private
//! when it and every ancestor can be changed only by this user (or root); a file is
//! private when it is a regular file of this user, not writable by others, opened
//! without following a link.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` atomically: a temporary file in `dir` (created `0700`
/// when missing), synced, renamed into place. Returns the file, still open.
pub(crate) fn write_atomically(
    dir: &Path,
    path: &Path,
    bytes: &[u8],
) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)
}

/// Why a directory is not private (`check_private`): the message speaks of the
/// directory as "it" (the caller names it).
#[derive(Debug, thiserror::Error)]
pub enum PrivateDirError {
    /// It was missing and could not be created.
    #[error("cannot create it: {0}")]
    Create(#[source] std::io::Error),
    /// Its metadata cannot be read.
    #[error("cannot read it: {0}")]
    Read(#[source] std::io::Error),
    /// It is a symbolic link.
    #[error("it is a symbolic link")]
    Symlink,
    /// It is not a directory.
    #[error("it is not a directory")]
    NotDirectory,
    /// Another user owns it.
    #[error("it belongs to uid {owner}, not to you (uid {me})")]
    Owner {
        /// Its owner.
        owner: u32,
        /// This user.
        me: u32,
    },
    /// Group or others may write it.
    #[error("it is writable by group or others (mode {mode:o})")]
    Writable {
        /// Its permission bits.
        mode: u32,
    },
    /// Its canonical path cannot be found.
    #[error("cannot resolve it: {0}")]
    Resolve(#[source] std::io::Error),
    /// The metadata of a directory above it cannot be read.
    #[error("cannot read {path}: {source}")]
    ReadAncestor {
        /// The directory above.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A directory above it can be changed by other users.
    #[error("{path} can be changed by other users (owner uid {owner}, mode {mode:o})")]
    SharedAncestor {
        /// The directory above.
        path: PathBuf,
        /// Its owner.
        owner: u32,
        /// Its permission bits.
        mode: u32,
    },
}

/// Checks that only this user (and root) can change what is in `dir`, creating it
/// `0700` when it does not exist.
pub fn check_private(dir: &Path) -> Result<(), PrivateDirError> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt};
    let me = rustix::process::geteuid().as_raw();
    if std::fs::symlink_metadata(dir).is_err() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(PrivateDirError::Create)?;
    }
    let meta = std::fs::symlink_metadata(dir).map_err(PrivateDirError::Read)?;
    if meta.file_type().is_symlink() {
        return Err(PrivateDirError::Symlink);
    }
    if !meta.is_dir() {
        return Err(PrivateDirError::NotDirectory);
    }
    if meta.uid() != me {
        return Err(PrivateDirError::Owner {
            owner: meta.uid(),
            me,
        });
    }
    if meta.mode() & 0o022 != 0 {
        return Err(PrivateDirError::Writable {
            mode: meta.mode() & 0o7777,
        });
    }
    let canonical = dir.canonicalize().map_err(PrivateDirError::Resolve)?;
    for parent in canonical.ancestors().skip(1) {
        let meta = std::fs::metadata(parent).map_err(|source| PrivateDirError::ReadAncestor {
            path: parent.to_path_buf(),
            source,
        })?;
        let owner_ok = meta.uid() == me || meta.uid() == 0;
        let shared_write = meta.mode() & 0o022 != 0 && meta.mode() & 0o1000 == 0;
        if !owner_ok || shared_write {
            return Err(PrivateDirError::SharedAncestor {
                path: parent.to_path_buf(),
                owner: meta.uid(),
                mode: meta.mode() & 0o7777,
            });
        }
    }
    Ok(())
}

/// Opens a cache file: `Ok(None)` when absent, `Err` when it is not a regular file
/// of this user that only this user can write (treated as corrupt: recompiled and
/// replaced).
pub(crate) fn open_private_file(path: &Path) -> Result<Option<std::fs::File>, ()> {
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    let file = match std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
        .open(path)
    {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(_) => return Err(()),
    };
    let meta = file.metadata().map_err(|_| ())?;
    let me = rustix::process::geteuid().as_raw();
    if !meta.is_file() || meta.uid() != me || meta.mode() & 0o022 != 0 {
        return Err(());
    }
    Ok(Some(file))
}

/// Reads a cache file whole, with the checks of [`open_private_file`].
pub(crate) fn read_private_file(path: &Path) -> Result<Option<Vec<u8>>, ()> {
    use std::io::Read;
    let Some(mut file) = open_private_file(path)? else {
        return Ok(None);
    };
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(|_| ())?;
    Ok(Some(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_speak_of_the_directory_as_it() {
        assert_eq!(
            PrivateDirError::Owner { owner: 0, me: 1000 }.to_string(),
            "it belongs to uid 0, not to you (uid 1000)"
        );
        assert_eq!(
            PrivateDirError::Writable { mode: 0o777 }.to_string(),
            "it is writable by group or others (mode 777)"
        );
        assert_eq!(
            PrivateDirError::SharedAncestor {
                path: "/shared".into(),
                owner: 1001,
                mode: 0o777,
            }
            .to_string(),
            "/shared can be changed by other users (owner uid 1001, mode 777)"
        );
    }
}
