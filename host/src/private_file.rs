//! Files only this user can change: the compile cache, the module store and their
//! records are trusted because nobody else can write them. A directory is private
//! when it and every ancestor can be changed only by this user (or root); a file is
//! private when it is a regular file of this user, not writable by others, opened
//! without following a link.

use std::io::Write;
use std::path::Path;

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

/// Checks that only this user (and root) can change what is in `dir`, creating it
/// `0700` when it does not exist.
pub fn check_private(dir: &Path) -> Result<(), String> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt};
    let me = rustix::process::geteuid().as_raw();
    if std::fs::symlink_metadata(dir).is_err() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| format!("cannot create it: {e}"))?;
    }
    let meta = std::fs::symlink_metadata(dir).map_err(|e| format!("cannot read it: {e}"))?;
    if meta.file_type().is_symlink() {
        return Err("it is a symbolic link".into());
    }
    if !meta.is_dir() {
        return Err("it is not a directory".into());
    }
    if meta.uid() != me {
        return Err(format!(
            "it belongs to uid {}, not to you (uid {me})",
            meta.uid()
        ));
    }
    if meta.mode() & 0o022 != 0 {
        return Err(format!(
            "it is writable by group or others (mode {:o})",
            meta.mode() & 0o7777
        ));
    }
    let canonical = dir
        .canonicalize()
        .map_err(|e| format!("cannot resolve it: {e}"))?;
    for parent in canonical.ancestors().skip(1) {
        let meta = std::fs::metadata(parent)
            .map_err(|e| format!("cannot read {}: {e}", parent.display()))?;
        let owner_ok = meta.uid() == me || meta.uid() == 0;
        let shared_write = meta.mode() & 0o022 != 0 && meta.mode() & 0o1000 == 0;
        if !owner_ok || shared_write {
            return Err(format!(
                "{} can be changed by other users (owner uid {}, mode {:o})",
                parent.display(),
                meta.uid(),
                meta.mode() & 0o7777
            ));
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
