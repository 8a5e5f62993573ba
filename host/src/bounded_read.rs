//! Reading a whole file the host must parse (settings, plugin modules) with a bound
//! that holds even when the file lies about its size.

use std::io::Read;
use std::path::Path;

/// Why a bounded read refused or failed; never names the path (the caller does).
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Reading the metadata, opening or reading failed.
    #[error("cannot read: {0}")]
    Io(#[source] std::io::Error),
    /// It is a directory, FIFO, device or socket.
    #[error("not a regular file")]
    NotRegular,
    /// It reports more than `max` bytes.
    #[error("file is {size} bytes, larger than the {max}-byte limit")]
    ReportedTooLarge {
        /// The size it reports.
        size: u64,
        /// The limit.
        max: u64,
    },
    /// It read on past `max` bytes, whatever size it reported.
    #[error("file is larger than the {max}-byte limit")]
    TooLarge {
        /// The limit.
        max: u64,
    },
}

/// Reads `path` if it is a regular file of at most `max` bytes. The type is checked
/// first (a FIFO or a device would block or never end), then the reported size, and
/// then the read itself is bounded: `/proc/self/pagemap` is a "regular file" of size
/// 0 that reads on for gigabytes. The error says why, without the path.
pub(crate) fn read_regular_file(path: &Path, max: u64) -> Result<Vec<u8>, ReadError> {
    let (file, meta) = open_regular_file(path, max)?;
    read_at_most(file, max, meta.len())
}

/// Opens `path` if it is a regular file that reports at most `max` bytes, checked
/// before opening (opening a FIFO would block) and again on the open file.
pub(crate) fn open_regular_file(
    path: &Path,
    max: u64,
) -> Result<(std::fs::File, std::fs::Metadata), ReadError> {
    let check = |meta: std::fs::Metadata| {
        if !meta.is_file() {
            return Err(ReadError::NotRegular);
        }
        if meta.len() > max {
            return Err(ReadError::ReportedTooLarge {
                size: meta.len(),
                max,
            });
        }
        Ok(meta)
    };
    check(std::fs::metadata(path).map_err(ReadError::Io)?)?;
    let file = std::fs::File::open(path).map_err(ReadError::Io)?;
    let meta = check(file.metadata().map_err(ReadError::Io)?)?;
    Ok((file, meta))
}

/// Reads an open file whole, refusing it once it is found larger than `max`
/// bytes, whatever size it reported (`expected`, used only to size the buffer).
pub(crate) fn read_at_most(
    file: std::fs::File,
    max: u64,
    expected: u64,
) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::with_capacity(usize::try_from(expected.min(max)).unwrap_or(0));
    file.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > max {
        return Err(ReadError::TooLarge { max });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_say_why_without_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let message = |path: &Path, max| read_regular_file(path, max).unwrap_err().to_string();
        assert_eq!(message(dir.path(), 10), "not a regular file");
        let file = dir.path().join("f");
        std::fs::write(&file, b"0123456789ab").unwrap();
        assert_eq!(
            message(&file, 10),
            "file is 12 bytes, larger than the 10-byte limit"
        );
        let open = std::fs::File::open(&file).unwrap();
        assert_eq!(
            read_at_most(open, 10, 0).unwrap_err().to_string(),
            "file is larger than the 10-byte limit"
        );
        assert!(message(&dir.path().join("missing"), 10).starts_with("cannot read: "));
    }
}
