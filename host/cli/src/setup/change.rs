//! A planned change to one file: shown as a unified diff (`--dry-run`) or made,
//! atomically (a temporary file beside it, renamed over it; the mode kept).

use std::path::{Path, PathBuf};

/// One file before and after (`None`: absent).
#[derive(Debug, Clone)]
pub struct FileChange {
    pub path: PathBuf,
    pub before: Option<String>,
    pub after: Option<String>,
}

impl FileChange {
    /// Whether anything changes.
    pub fn is_change(&self) -> bool {
        self.before != self.after
    }

    /// The change as a unified diff (`/dev/null` for a side that is absent).
    pub fn diff(&self) -> String {
        let shown = self.path.display().to_string();
        let old = if self.before.is_some() {
            shown.as_str()
        } else {
            "/dev/null"
        };
        let new = if self.after.is_some() {
            shown.as_str()
        } else {
            "/dev/null"
        };
        similar::TextDiff::from_lines(
            self.before.as_deref().unwrap_or_default(),
            self.after.as_deref().unwrap_or_default(),
        )
        .unified_diff()
        .context_radius(3)
        .header(old, new)
        .to_string()
    }

    /// Makes the change.
    pub fn apply(&self) -> std::io::Result<()> {
        match &self.after {
            None => match std::fs::remove_file(&self.path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            },
            Some(text) => write_atomically(&self.path, text.as_bytes()),
        }
    }
}

/// Reads a file that may be absent.
pub fn read(path: &Path) -> std::io::Result<Option<String>> {
    match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text")),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Replaces `path` with `bytes` in one rename, keeping the old file's permissions
/// (a new file is private to the user: settings may hold tokens).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    use std::os::unix::fs::PermissionsExt;
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mode = std::fs::metadata(path).map_or(0o600, |m| m.permissions().mode() & 0o7777);
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    std::fs::set_permissions(file.path(), std::fs::Permissions::from_mode(mode))?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}
