//! Reading a whole file the host must parse (settings, plugin modules) with a bound
//! that holds even when the file lies about its size.

use std::io::Read;
use std::path::Path;

/// Reads `path` if it is a regular file of at most `max` bytes. The type is checked
/// first (a FIFO or a device would block or never end), then the reported size, and
/// then the read itself is bounded: `/proc/self/pagemap` is a "regular file" of size
/// 0 that reads on for gigabytes. The error says why, without the path.
pub(crate) fn read_regular_file(path: &Path, max: u64) -> Result<Vec<u8>, String> {
    let (file, meta) = open_regular_file(path, max)?;
    read_at_most(file, max, meta.len())
}

/// Opens `path` if it is a regular file that reports at most `max` bytes, checked
/// before opening (opening a FIFO would block) and again on the open file.
pub(crate) fn open_regular_file(
    path: &Path,
    max: u64,
) -> Result<(std::fs::File, std::fs::Metadata), String> {
    let cannot = |e: std::io::Error| format!("cannot read: {e}");
    let check = |meta: std::fs::Metadata| {
        if !meta.is_file() {
            return Err("not a regular file".to_owned());
        }
        if meta.len() > max {
            return Err(format!(
                "file is {} bytes, larger than the {max}-byte limit",
                meta.len()
            ));
        }
        Ok(meta)
    };
    check(std::fs::metadata(path).map_err(cannot)?)?;
    let file = std::fs::File::open(path).map_err(cannot)?;
    let meta = check(file.metadata().map_err(cannot)?)?;
    Ok((file, meta))
}

/// Reads an open file whole, refusing it once it is found larger than `max`
/// bytes, whatever size it reported (`expected`, used only to size the buffer).
pub(crate) fn read_at_most(
    file: std::fs::File,
    max: u64,
    expected: u64,
) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::with_capacity(usize::try_from(expected.min(max)).unwrap_or(0));
    file.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > max {
        return Err(format!("file is larger than the {max}-byte limit"));
    }
    Ok(bytes)
}
