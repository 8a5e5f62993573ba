//! The builtin policies: five WASI 0.2 components built from `policies/` and
//! embedded in the binary, so a user switches a guard on with
//! `"source": "builtin:NAME"` — no toolchain, no download.
//!
//! The bytes are `policies/dist/NAME.wasm`, committed and rebuilt byte for byte
//! by CI (`scripts/build-policies.sh --check`): reproducible, so a builtin's
//! digest is the same in every build of the same source, and the same bytes can
//! be pushed and signed with `hookhost plugin push` like any other module.
//!
//! A builtin runs as an ordinary plugin hook: the settings check writes its bytes
//! once into the cache (`builtins/NAME-SHA256.wasm`, content-addressed) and pins
//! their SHA-256, so trust, the compile cache and `check` treat it like a module
//! on disk. What runs is bytes in the binary, never that file: the hook's
//! `PluginConfig::builtin` says it is a builtin (set by the settings check from
//! `builtin:NAME`, not read back from a file name), so a file someone changed
//! there changes nothing, and a `path` to it is an ordinary module.
//!
//! **The pack.** What runs is not `NAME.wasm` but the [`PACK`]: one component
//! built from the same sources (`policies/pack`), holding the five policies, told
//! which to run by its arguments (`NAME COUNT ARGS…` per policy). One compiled
//! artifact serves every builtin hook (one load, one cold compile), and several
//! builtin hooks of one call run in one instance of it
//! ([`crate::runner::wasm::together`]): five separate instances cost a call about
//! five times one (docs/PERFORMANCE.md, "Builtin policies"). `NAME.wasm` stays the
//! policy's identity — its digest is what `policy list` shows, a `sha256` pin
//! names and `plugin push` publishes — and runs exactly as the pack runs it (the
//! same library code, `policies/NAME/src/lib.rs`, in both).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use sha2::{Digest, Sha256};

/// One builtin policy.
#[derive(Debug)]
pub struct Builtin {
    /// What `builtin:NAME` names.
    pub name: &'static str,
    /// One line: what it guards against.
    pub summary: &'static str,
    /// The events and tools it reads.
    pub reads: &'static str,
    /// Its README: what it blocks, what it allows, its settings, examples.
    pub readme: &'static str,
    /// It reads the project (`.git/HEAD`): hookhost preopens the project read-only.
    pub reads_project: bool,
    bytes: &'static [u8],
    /// Its SHA-256, read once per process from `policies/dist/SHA256SUMS` (written
    /// by scripts/build-policies.sh; a unit test checks it against the bytes): a
    /// `hookhost hook` process used to hash every builtin's ~380 KB several times
    /// (42 % of a warm five-builtin call, measured with perf).
    digest: OnceLock<[u8; 32]>,
}

macro_rules! builtin {
    ($name:literal, $summary:literal, $reads:literal, $project:literal) => {
        Builtin {
            name: $name,
            summary: $summary,
            reads: $reads,
            readme: include_str!(concat!("../builtins/", $name, ".md")),
            reads_project: $project,
            bytes: include_bytes!(concat!("../builtins/dist/", $name, ".wasm")),
            digest: OnceLock::new(),
        }
    };
}

/// Every builtin, in the order `hookhost policy list` shows them.
pub static BUILTINS: [Builtin; 5] = [
    builtin!(
        "destructive",
        "blocks deleting, truncating or overwriting outside the project and the temp directory, or the project or its .git",
        "BeforeTool: run_shell_command/Bash, apply_patch",
        false
    ),
    builtin!(
        "remote-exec",
        "blocks code downloaded and run in the same command (curl | sh, bash <(curl …), download then run)",
        "BeforeTool: run_shell_command/Bash",
        false
    ),
    builtin!(
        "secrets",
        "blocks writing a live secret into a file and reading or copying credential files",
        "BeforeTool: run_shell_command/Bash, write_file/Write, replace/Edit/MultiEdit, read_file/Read, apply_patch",
        false
    ),
    builtin!(
        "git-safety",
        "blocks force pushes to protected branches, --no-verify, filter-branch and hook-disabling git config",
        "BeforeTool: run_shell_command/Bash",
        true
    ),
    builtin!(
        "protected-paths",
        "blocks edits to agent settings and hooks, .git/hooks, shell start-up files, ssh and cron",
        "BeforeTool: run_shell_command/Bash, write_file/Write, replace/Edit/MultiEdit, apply_patch",
        false
    ),
];

/// The five policies in one component: what every builtin hook runs.
pub static PACK: Pack = Pack {
    bytes: include_bytes!("../builtins/dist/pack.wasm"),
    digest: OnceLock::new(),
};

/// The component that runs the builtins ([`PACK`]).
#[derive(Debug)]
pub struct Pack {
    bytes: &'static [u8],
    digest: OnceLock<[u8; 32]>,
}

impl Pack {
    /// The component's bytes.
    pub fn bytes(&self) -> &'static [u8] {
        self.bytes
    }

    /// The SHA-256 of its bytes (recorded at build time, like a builtin's).
    pub fn sha256(&self) -> [u8; 32] {
        embedded_sha256(&self.digest, "pack", self.bytes)
    }

    /// `sha256:HEX`.
    pub fn digest(&self) -> String {
        format!("sha256:{}", hex::encode(self.sha256()))
    }
}

/// The SHA-256 of the embedded component `NAME.wasm`: its recorded digest (or,
/// were it missing, its bytes hashed), worked out once per process.
fn embedded_sha256(cell: &OnceLock<[u8; 32]>, name: &str, bytes: &[u8]) -> [u8; 32] {
    *cell.get_or_init(|| recorded_digest(name).unwrap_or_else(|| Sha256::digest(bytes).into()))
}

/// `sha256sum` lines of the committed components.
const SHA256SUMS: &str = include_str!("../builtins/dist/SHA256SUMS");

/// The recorded digest of `NAME.wasm`.
fn recorded_digest(name: &str) -> Option<[u8; 32]> {
    let file = format!("{name}.wasm");
    let line = SHA256SUMS
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(file.as_str()))?;
    let mut digest = [0u8; 32];
    hex::decode_to_slice(line.split_whitespace().next()?, &mut digest).ok()?;
    Some(digest)
}

/// The prefix of a plugin `source` that names a builtin.
pub const SCHEME: &str = "builtin:";

/// Why a builtin cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum BuiltinError {
    /// No builtin has that name.
    #[error("no builtin policy is called {name:?} (builtins: {})", names().join(", "))]
    Unknown {
        /// The name as written.
        name: String,
    },
    /// Its bytes could not be written to the cache.
    #[error("cannot write the builtin policy {name:?} to {}: {source}", path.display())]
    Write {
        /// The builtin.
        name: &'static str,
        /// Where it was to go.
        path: PathBuf,
        /// Why not.
        source: std::io::Error,
    },
}

/// The names of every builtin.
pub fn names() -> Vec<&'static str> {
    BUILTINS.iter().map(|b| b.name).collect()
}

/// The builtin `name` names.
pub fn find(name: &str) -> Result<&'static Builtin, BuiltinError> {
    BUILTINS
        .iter()
        .find(|b| b.name == name)
        .ok_or_else(|| BuiltinError::Unknown {
            name: name.to_owned(),
        })
}

impl Builtin {
    /// The component's bytes.
    pub fn bytes(&self) -> &'static [u8] {
        self.bytes
    }

    /// The SHA-256 of its bytes.
    pub fn sha256(&self) -> [u8; 32] {
        embedded_sha256(&self.digest, self.name, self.bytes)
    }

    /// `sha256:HEX`, as `hookhost policy list` and `check` show it.
    pub fn digest(&self) -> String {
        format!("sha256:{}", hex::encode(self.sha256()))
    }

    /// The file that holds its bytes under `cache`, written if it is not there
    /// or not of their size. The file is for people and tools (`wasm-tools`,
    /// `hookhost plugin push`): a hook on it runs the bytes in this binary
    /// (`PluginConfig::builtin`), so it is not read back here (reading and comparing
    /// the five was ~7 % of a five-builtin `hookhost hook` process).
    pub fn materialize(&self, cache: &Path) -> Result<PathBuf, BuiltinError> {
        let dir = cache.join("builtins");
        let path = dir.join(format!("{}-{}.wasm", self.name, hex::encode(self.sha256())));
        let size = u64::try_from(self.bytes.len()).unwrap_or(u64::MAX);
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file() && m.len() == size) {
            return Ok(path);
        }
        let write = || -> std::io::Result<()> {
            std::fs::create_dir_all(&dir)?;
            let mut file = tempfile::NamedTempFile::new_in(&dir)?;
            std::io::Write::write_all(&mut file, self.bytes)?;
            file.persist(&path).map_err(|e| e.error)?;
            Ok(())
        };
        write().map_err(|source| BuiltinError::Write {
            name: self.name,
            path: path.clone(),
            source,
        })?;
        Ok(path)
    }
}

/// Where builtins are written: `$HOOKHOST_CACHE_DIR`, else the user's cache
/// directory (`~/.cache/hookhost`), else the temp directory.
pub fn cache_dir() -> PathBuf {
    match std::env::var_os("HOOKHOST_CACHE_DIR").filter(|d| !d.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => dirs::cache_dir()
            .unwrap_or_else(std::env::temp_dir)
            .join("hookhost"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_is_a_component_with_a_readme() {
        assert_eq!(names().len(), 5);
        for b in &BUILTINS {
            // A WASI 0.2 component: the component-model layer in its preamble.
            assert_eq!(&b.bytes[..4], b"\0asm", "{}", b.name);
            assert_eq!(b.bytes[6], 0x01, "{} is not a component", b.name);
            assert!(b.readme.contains(b.name), "{}", b.name);
            assert!(
                b.bytes.len() <= 400 * 1024,
                "{}: {} bytes",
                b.name,
                b.bytes.len()
            );
        }
        assert!(matches!(find("nope"), Err(BuiltinError::Unknown { .. })));
    }

    #[test]
    fn recorded_digests_are_the_bytes() {
        for b in &BUILTINS {
            let computed: [u8; 32] = Sha256::digest(b.bytes).into();
            assert_eq!(recorded_digest(b.name), Some(computed), "{}", b.name);
            assert_eq!(b.sha256(), computed);
        }
        let pack: [u8; 32] = Sha256::digest(PACK.bytes()).into();
        assert_eq!(recorded_digest("pack"), Some(pack));
        assert_eq!(PACK.sha256(), pack);
        assert_eq!(&PACK.bytes()[..4], b"\0asm");
    }

    #[test]
    fn materialized_bytes_are_the_builtins_and_a_truncated_file_is_replaced() {
        let cache = tempfile::tempdir().unwrap();
        let b = find("secrets").unwrap();
        let path = b.materialize(cache.path()).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b.bytes());
        std::fs::write(&path, b"tampered").unwrap();
        let again = b.materialize(cache.path()).unwrap();
        assert_eq!(again, path);
        assert_eq!(std::fs::read(&path).unwrap(), b.bytes());
    }
}
