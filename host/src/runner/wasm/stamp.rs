//! A file's stamp: its identity (device, inode) and what the kernel says about
//! its last change (size, modification and change time, to the nanosecond).
//!
//! The compile cache uses stamps to avoid reading big files again: a plugin file
//! whose stamp is the one recorded with its digest still has that digest, and an
//! artifact whose stamp is the one recorded when it was written is still what was
//! written. Writing a file moves its change time, which no unprivileged program can
//! set back (`utimensat` sets only access and modification times). As in Git's
//! index, a stamp taken within [`SETTLE`] of its own change time is not trusted:
//! a coarse clock could give a second write within the same tick the same times.

use std::os::unix::fs::MetadataExt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// How old a file's change time must be for its stamp to be recorded.
pub const SETTLE: Duration = Duration::from_secs(2);

/// Identity and change times of one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl Stamp {
    /// The stamp of the file `meta` describes.
    pub fn of(meta: &std::fs::Metadata) -> Stamp {
        Stamp {
            dev: meta.dev(),
            ino: meta.ino(),
            len: meta.len(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        }
    }

    /// The file's size in bytes, as reported.
    pub fn size(&self) -> u64 {
        self.len
    }

    /// A name for files keyed by this file's identity (not its content).
    pub fn identity(&self) -> String {
        format!("{:x}-{:x}", self.dev, self.ino)
    }

    /// Whether the file last changed long enough ago ([`SETTLE`]) that a change
    /// after this stamp was taken would move its times.
    pub fn settled(&self) -> bool {
        let Ok(now) = SystemTime::now().duration_since(UNIX_EPOCH) else {
            return false;
        };
        let (secs, nanos) = self.ctime;
        let Ok(secs) = u64::try_from(secs) else {
            return false;
        };
        let changed = Duration::new(secs, u32::try_from(nanos).unwrap_or(0));
        changed + SETTLE <= now
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_changes_the_stamp_and_a_fresh_file_is_not_settled() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"one").unwrap();
        let first = Stamp::of(&std::fs::metadata(&path).unwrap());
        assert!(!first.settled(), "just written");
        std::fs::write(&path, b"two").unwrap();
        let second = Stamp::of(&std::fs::metadata(&path).unwrap());
        assert_eq!(first.identity(), second.identity());
        // Same size and possibly the same coarse tick: the change time may not
        // move, which is exactly why an unsettled stamp is never recorded.
        assert_eq!(first.len, second.len);
        std::fs::write(&path, b"three").unwrap();
        assert_ne!(first, Stamp::of(&std::fs::metadata(&path).unwrap()));
    }
}
