//! One plugin's store: a SQLite database (WAL mode) of `(bucket, key) → value`
//! with a usage counter kept in the same transactions as the writes.
//!
//! Durability: `synchronous = NORMAL` — a committed write survives the process
//! (a crash, a kill), not necessarily a power cut; a hook's state is a policy's
//! memory, not a ledger. Writers queue on SQLite's lock (`busy_timeout`), so a
//! burst of processes waits rather than fails.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::config::DbConfig;
use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior, params};

/// The longest key, in bytes.
pub const MAX_KEY_BYTES: usize = 1024;
/// The longest bucket name, in bytes.
pub const MAX_BUCKET_BYTES: usize = 256;
/// Keys per `list-keys` page.
pub const PAGE: u64 = 1000;
/// How long a write waits for another process's write before it fails.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The write would take the store over its quota.
    #[error(
        "quota exceeded: the store holds {used} of {max} bytes; this write needs {needed} more"
    )]
    Quota {
        /// Bytes in use.
        used: u64,
        /// The quota.
        max: u64,
        /// What the write adds.
        needed: u64,
    },
    /// A key or bucket name longer than allowed.
    #[error("{what} is {len} bytes long; at most {max} are allowed")]
    TooLong {
        /// "the key" or "the bucket name".
        what: &'static str,
        /// Its length.
        len: usize,
        /// The maximum.
        max: usize,
    },
    /// The state dir cannot be made private.
    #[error("state dir {dir}: {source}")]
    Dir {
        /// The dir.
        dir: PathBuf,
        /// Why.
        source: crate::private_file::PrivateDirError,
    },
    /// SQLite failed.
    #[error("store {path}: {source}")]
    Sqlite {
        /// The database file.
        path: PathBuf,
        /// SQLite's error.
        source: rusqlite::Error,
    },
}

/// What `hookhost state list` shows of a store.
#[derive(Debug, Clone)]
pub struct StoreSummary {
    /// The database file.
    pub path: PathBuf,
    /// Its identity's description (module, network, scope).
    pub description: String,
    /// Entries.
    pub keys: u64,
    /// Bytes in use (keys, bucket names and values).
    pub used: u64,
}

/// An open store.
pub struct Store {
    path: PathBuf,
    max_bytes: u64,
    // One connection per store and process; SQLite serialises the processes.
    connection: Mutex<Connection>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

const SCHEMA: &str = "
    CREATE TABLE IF NOT EXISTS entries (
        bucket TEXT NOT NULL, key TEXT NOT NULL, value BLOB NOT NULL,
        PRIMARY KEY (bucket, key)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value) WITHOUT ROWID;
    INSERT OR IGNORE INTO meta VALUES ('used', 0);
";

impl Store {
    /// Opens (creating) the store at `path` — in a private dir — with the quota
    /// `max_bytes`, recording `description` for `hookhost state list`.
    pub fn open(path: &Path, max_bytes: u64, description: &str) -> Result<Store, StoreError> {
        if let Some(dir) = path.parent() {
            crate::private_file::check_private(dir).map_err(|source| StoreError::Dir {
                dir: dir.to_path_buf(),
                source,
            })?;
        }
        let sqlite = |source| StoreError::Sqlite {
            path: path.to_path_buf(),
            source,
        };
        let mut connection = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(sqlite)?;
        connection.busy_timeout(BUSY_TIMEOUT).map_err(sqlite)?;
        // The last connection to close would checkpoint the log into the database
        // (with an fsync) and delete it, and the next `hookhost hook` process would
        // recreate it: measured 760 → 360 µs for open + get + set in a fresh
        // process, 2.8 → 1.7 ms for the whole process (docs/PERFORMANCE.md "Plugin
        // state"). The log stays bounded by the automatic checkpoint during writes.
        connection
            .set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)
            .map_err(sqlite)?;
        connection
            .pragma_update(None, "synchronous", "NORMAL")
            .map_err(sqlite)?;
        let version: i64 = connection
            .query_row("PRAGMA user_version", [], |row| row.get(0))
            .map_err(sqlite)?;
        if version == 0 {
            // Once per store; WAL mode is a property of the file from then on.
            connection
                .pragma_update(None, "journal_mode", "WAL")
                .map_err(sqlite)?;
            let tx = connection
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(sqlite)?;
            tx.execute_batch(SCHEMA).map_err(sqlite)?;
            tx.execute(
                "INSERT OR IGNORE INTO meta VALUES ('description', ?1)",
                params![description],
            )
            .map_err(sqlite)?;
            tx.pragma_update(None, "user_version", 1).map_err(sqlite)?;
            tx.commit().map_err(sqlite)?;
        }
        Ok(Store {
            path: path.to_path_buf(),
            max_bytes,
            connection: Mutex::new(connection),
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn sqlite(&self, source: rusqlite::Error) -> StoreError {
        StoreError::Sqlite {
            path: self.path.clone(),
            source,
        }
    }

    fn with<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>,
    ) -> Result<T, StoreError> {
        // A poisoned lock only means another call panicked mid-operation; SQLite's
        // transaction rolled back, so the connection is still sound.
        let mut connection = self
            .connection
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        f(&mut connection).map_err(|e| self.sqlite(e))
    }

    /// The value of `key` in `bucket`.
    pub fn get(&self, bucket: &str, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        check_names(bucket, key)?;
        self.with(|c| {
            c.prepare_cached("SELECT value FROM entries WHERE bucket = ?1 AND key = ?2")?
                .query_row(params![bucket, key], |row| row.get(0))
                .optional()
        })
    }

    /// Whether `key` has a value in `bucket`.
    pub fn exists(&self, bucket: &str, key: &str) -> Result<bool, StoreError> {
        check_names(bucket, key)?;
        self.with(|c| {
            c.prepare_cached("SELECT 1 FROM entries WHERE bucket = ?1 AND key = ?2")?
                .exists(params![bucket, key])
        })
    }

    /// Sets `key` in `bucket` to `value`, unless that takes the store over its quota.
    pub fn set(&self, bucket: &str, key: &str, value: &[u8]) -> Result<(), StoreError> {
        check_names(bucket, key)?;
        let size = entry_size(bucket, key, value.len());
        let max = self.max_bytes;
        let mut over = None;
        self.with(|c| {
            let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let used = used(&tx)?;
            let old: Option<u64> = tx
                .prepare_cached(
                    "SELECT length(CAST(bucket AS BLOB)) + length(CAST(key AS BLOB)) \
                     + length(value) FROM entries WHERE bucket = ?1 AND key = ?2",
                )?
                .query_row(params![bucket, key], |row| row.get(0))
                .optional()?;
            let after = used.saturating_sub(old.unwrap_or(0)).saturating_add(size);
            if after > max && size > old.unwrap_or(0) {
                over = Some((used, size - old.unwrap_or(0)));
                return Ok(());
            }
            tx.prepare_cached("INSERT OR REPLACE INTO entries VALUES (?1, ?2, ?3)")?
                .execute(params![bucket, key, value])?;
            tx.prepare_cached("UPDATE meta SET value = ?1 WHERE name = 'used'")?
                .execute(params![after])?;
            tx.commit()
        })?;
        match over {
            Some((used, needed)) => Err(StoreError::Quota { used, max, needed }),
            None => Ok(()),
        }
    }

    /// Removes `key` from `bucket` (nothing if absent).
    pub fn delete(&self, bucket: &str, key: &str) -> Result<(), StoreError> {
        check_names(bucket, key)?;
        self.with(|c| {
            let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let removed: Option<u64> = tx
                .prepare_cached(
                    "DELETE FROM entries WHERE bucket = ?1 AND key = ?2 RETURNING \
                     length(CAST(bucket AS BLOB)) + length(CAST(key AS BLOB)) + length(value)",
                )?
                .query_row(params![bucket, key], |row| row.get(0))
                .optional()?;
            if let Some(size) = removed {
                let after = used(&tx)?.saturating_sub(size);
                tx.prepare_cached("UPDATE meta SET value = ?1 WHERE name = 'used'")?
                    .execute(params![after])?;
            }
            tx.commit()
        })
    }

    /// One page of `bucket`'s keys in key order, from `cursor` (an offset); the
    /// next cursor when there may be more.
    pub fn list_keys(
        &self,
        bucket: &str,
        cursor: Option<u64>,
    ) -> Result<(Vec<String>, Option<u64>), StoreError> {
        check_bucket_name(bucket)?;
        let offset = cursor.unwrap_or(0);
        let keys = self.with(|c| {
            c.prepare_cached(
                "SELECT key FROM entries WHERE bucket = ?1 ORDER BY key LIMIT ?2 OFFSET ?3",
            )?
            .query_map(params![bucket, PAGE, offset], |row| row.get(0))?
            .collect::<rusqlite::Result<Vec<String>>>()
        })?;
        let next = (keys.len() as u64 == PAGE).then_some(offset + PAGE);
        Ok((keys, next))
    }

    /// Every entry's bucket, key and value size (for `hookhost state show`).
    pub fn entries(&self) -> Result<Vec<(String, String, u64)>, StoreError> {
        self.with(|c| {
            c.prepare("SELECT bucket, key, length(value) FROM entries ORDER BY bucket, key")?
                .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?
                .collect()
        })
    }

    /// What `hookhost state list` shows of it.
    pub fn summary(&self) -> Result<StoreSummary, StoreError> {
        self.with(|c| {
            let description: String = c
                .query_row(
                    "SELECT value FROM meta WHERE name = 'description'",
                    [],
                    |r| r.get(0),
                )
                .optional()?
                .unwrap_or_default();
            let keys: u64 = c.query_row("SELECT count(*) FROM entries", [], |r| r.get(0))?;
            let used = used(c)?;
            Ok((description, keys, used))
        })
        .map(|(description, keys, used)| StoreSummary {
            path: self.path.clone(),
            description,
            keys,
            used,
        })
    }

    /// Removes every entry.
    pub fn clear(&self) -> Result<(), StoreError> {
        self.with(|c| {
            let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.execute("DELETE FROM entries", [])?;
            tx.execute("UPDATE meta SET value = 0 WHERE name = 'used'", [])?;
            tx.commit()
        })
    }
}

fn used(c: &Connection) -> rusqlite::Result<u64> {
    c.prepare_cached("SELECT value FROM meta WHERE name = 'used'")?
        .query_row([], |row| row.get(0))
}

fn entry_size(bucket: &str, key: &str, value: usize) -> u64 {
    (bucket.len() + key.len() + value) as u64
}

/// Refuses a bucket name longer than [`MAX_BUCKET_BYTES`] (what `open` checks
/// before any key is used).
pub fn check_bucket_name(bucket: &str) -> Result<(), StoreError> {
    check_names(bucket, "")
}

fn check_names(bucket: &str, key: &str) -> Result<(), StoreError> {
    if key.len() > MAX_KEY_BYTES {
        return Err(StoreError::TooLong {
            what: "the key",
            len: key.len(),
            max: MAX_KEY_BYTES,
        });
    }
    if bucket.len() > MAX_BUCKET_BYTES {
        return Err(StoreError::TooLong {
            what: "the bucket name",
            len: bucket.len(),
            max: MAX_BUCKET_BYTES,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_and_the_quota_holds() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s/x.sqlite"), 100, "test").unwrap();
        assert_eq!(store.get("", "a").unwrap(), None);
        store.set("", "a", b"hello").unwrap();
        assert_eq!(store.get("", "a").unwrap().as_deref(), Some(&b"hello"[..]));
        assert!(store.exists("", "a").unwrap());
        assert_eq!(store.summary().unwrap().used, 6);
        let err = store.set("", "b", &[0u8; 100]).unwrap_err();
        assert!(err.to_string().contains("quota"), "{err}");
        // Shrinking a value is always allowed; replacing keeps the count right.
        store.set("", "a", b"hi").unwrap();
        assert_eq!(store.summary().unwrap().used, 3);
        store.delete("", "a").unwrap();
        assert_eq!(store.summary().unwrap().used, 0);
        assert!(store.set("", &"k".repeat(2000), b"").is_err());
    }

    #[test]
    fn keys_page_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("x.sqlite"), 1 << 20, "test").unwrap();
        for i in 0..(PAGE + 5) {
            store.set("b", &format!("{i:05}"), b"").unwrap();
        }
        let (first, next) = store.list_keys("b", None).unwrap();
        assert_eq!(first.len() as u64, PAGE);
        let (rest, end) = store.list_keys("b", next).unwrap();
        assert_eq!(rest.len(), 5);
        assert_eq!(end, None);
        assert!(store.list_keys("other", None).unwrap().0.is_empty());
    }
}
