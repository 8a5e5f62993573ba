//! `once: true` (seeds/003): a hook runs at most once per session. The claim is a
//! file created with `O_EXCL` under hookhost's state directory, so separate
//! `hookhost hook` processes of one session agree, and a race between two fires
//! has exactly one winner. Sessions older than [`EXPIRY`] are removed (at most
//! once per process, a bounded sweep). Without a state directory, claims live in
//! the process only, and the first claim says so in the log.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};
use std::time::{Duration, SystemTime};

use sha2::{Digest, Sha256};

/// Sessions whose claims are older than this are forgotten.
pub const EXPIRY: Duration = Duration::from_secs(7 * 24 * 60 * 60);
/// The most session directories one sweep looks at.
const SWEEP_LIMIT: usize = 4096;

/// Claims the run of the hook with `key` in `session`: true for the first claim
/// only.
pub(crate) fn claim(session: &str, key: &str) -> bool {
    match state_dir() {
        Some(dir) => claim_in(&dir, session, key),
        None => claim_in_memory(session, key),
    }
}

fn state_dir() -> Option<PathBuf> {
    crate::env_file::state_dir().map(|dir| dir.join("once"))
}

fn short_hash(text: &str) -> String {
    hex::encode(&Sha256::digest(text.as_bytes())[..12])
}

fn claim_in(root: &Path, session: &str, key: &str) -> bool {
    static SWEEP: Once = Once::new();
    SWEEP.call_once(|| sweep(root));
    let dir = root.join(short_hash(session));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        tracing::warn!(
            "once: cannot create {}: {e}; remembered in this process only",
            dir.display()
        );
        return claim_in_memory(session, key);
    }
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(dir.join(short_hash(key)))
    {
        Ok(_) => true,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => false,
        Err(e) => {
            tracing::warn!(
                "once: cannot record a run in {}: {e}; remembered in this process only",
                dir.display()
            );
            claim_in_memory(session, key)
        }
    }
}

fn claim_in_memory(session: &str, key: &str) -> bool {
    static CLAIMS: Mutex<Option<HashSet<(String, String)>>> = Mutex::new(None);
    CLAIMS
        .lock()
        .map(|mut claims| {
            claims
                .get_or_insert_with(HashSet::new)
                .insert((session.to_owned(), key.to_owned()))
        })
        .unwrap_or(true)
}

/// Removes session directories not touched for [`EXPIRY`].
fn sweep(root: &Path) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.flatten().take(SWEEP_LIMIT) {
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|modified| now.duration_since(modified).ok())
            .is_some_and(|age| age > EXPIRY);
        if old {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_claim_wins_per_session_and_key() {
        let dir = tempfile::tempdir().unwrap();
        assert!(claim_in(dir.path(), "s1", "k"));
        assert!(!claim_in(dir.path(), "s1", "k"));
        assert!(claim_in(dir.path(), "s2", "k"));
        assert!(claim_in(dir.path(), "s1", "other"));
    }
}
