//! What the compile cache remembers about plugin files: the SHA-256 and kind of
//! a file by its [`Stamp`], so that a warm load finds the artifact without reading
//! the file (a componentize-py plugin is 18 MiB: reading and hashing it on every
//! process start cost more than running it).
//!
//! One small JSON file per plugin file (`files/<dev>-<inode>.json` in the cache
//! dir, private like the rest of it). A record is used only while the file's stamp
//! is the recorded one: any write moves the file's change time, and a replaced
//! file is another inode. A stamp is recorded only when it was the same before and
//! after the file was read and the file had settled ([`super::stamp::SETTLE`]),
//! so the digest is the content's.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::detect::WasmKind;
use super::stamp::Stamp;
use crate::private_file::{read_private_file, write_atomically};

/// A plugin file's digest and kind, as recorded.
#[derive(Debug, Clone, Copy)]
pub struct Known {
    /// The SHA-256 of the file.
    pub digest: [u8; 32],
    /// Component or module.
    pub kind: WasmKind,
}

#[derive(Debug, Serialize, Deserialize)]
struct Record {
    stamp: Stamp,
    sha256: String,
    component: bool,
}

fn record_path(cache_dir: &Path, stamp: &Stamp) -> PathBuf {
    cache_dir
        .join("files")
        .join(format!("{}.json", stamp.identity()))
}

/// What was recorded for the file whose current stamp is `stamp`.
pub fn recall(cache_dir: &Path, stamp: &Stamp) -> Option<Known> {
    let bytes = read_private_file(&record_path(cache_dir, stamp)).ok()??;
    let record: Record = serde_json::from_slice(&bytes).ok()?;
    if record.stamp != *stamp {
        return None;
    }
    let mut digest = [0u8; 32];
    hex::decode_to_slice(&record.sha256, &mut digest).ok()?;
    let kind = if record.component {
        WasmKind::Component
    } else {
        WasmKind::Module
    };
    Some(Known { digest, kind })
}

/// Records `known` for the file of `stamp` (taken before it was read; `after`
/// is its stamp after, [settled](Stamp::settled) then), if it did not change
/// while it was read; failures are ignored.
pub fn remember(cache_dir: &Path, stamp: &Stamp, after: &Stamp, known: Known) {
    if stamp != after {
        return;
    }
    let record = Record {
        stamp: *stamp,
        sha256: hex::encode(known.digest),
        component: known.kind == WasmKind::Component,
    };
    let path = record_path(cache_dir, stamp);
    if let (Ok(json), Some(dir)) = (serde_json::to_vec(&record), path.parent()) {
        let _ = write_atomically(dir, &path, &json);
    }
}
