//! Trust for project hooks: a repository's settings are code execution.
//!
//! A project's `.llxprt/settings.json` (and an extension's manifest) can make the
//! agent run any command on the next tool call — cloning a repository and starting
//! the agent in it would be enough. With trust required (`tools.requireHookTrust`
//! in user or system settings, `--require-trust`, or
//! [`crate::HookSystemBuilder::require_trust`]), a hook from project settings or an
//! extension runs only if it was approved before with `hookhost trust`.
//!
//! **An approval covers everything that decides what runs**, within that project
//! (or extension) directory ([`document`]): the hook's whole settings object as
//! written — `env`, `shell`, `args`, a plugin's grants and limits, any key added
//! later — except the purely cosmetic `description` and `statusMessage`; the
//! format of its file; the content of every script inside the project the command
//! names, including those a `sh -c` string or a `source` / `.` names and those its
//! `env` brings in (`BASH_ENV`, a `PATH` into the project) ([`scripts`]); and a
//! plugin's module digest. Anything else is a new, unapproved hook.
//!
//! **A hook whose code cannot be identified** (a sourced file or `-c` script held
//! in a variable, a program computed at run time …) *cannot be pinned*: it is
//! listed as "cannot pin — approve again on every change" and a plain
//! `hookhost trust` does not approve it. `hookhost trust --unpinned` does, for the
//! hook as it is; every fire that runs it then warns that hookhost cannot notice
//! when that code changes, so the reviewer must approve again whenever it does.
//!
//! Approvals of earlier versions, whose keys were narrower (a command string, a
//! plugin's digest and grants), still count only where they saw the whole hook
//! ([`legacy`]); elsewhere the hook asks again and says why.
//!
//! Approvals live in `$XDG_CONFIG_HOME/hookhost/trusted.json` (or
//! `~/.config/hookhost/trusted.json`; `HOOKHOST_TRUST_FILE` overrides), a file of the
//! user's own that project settings cannot write ([`store`]). An untrusted hook is
//! skipped with a warning that says why and how to approve it. The gate itself is
//! [`gate`]; what a reviewer is shown and approves, [`review`].

mod document;
pub(crate) mod gate;
mod legacy;
mod reading;
mod review;
pub mod scripts;
mod store;

use std::path::{Path, PathBuf};

pub use store::TrustStore;

use crate::config::SettingsSource;
use legacy::EarlierKey;

/// The environment variable that overrides the trust file's location.
pub const TRUST_FILE_ENV: &str = "HOOKHOST_TRUST_FILE";

/// What a hook is approved as: its document within a project or extension
/// directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustKey {
    /// The project or extension directory.
    pub(crate) scope: PathBuf,
    /// The document ([`document`]) as canonical JSON text.
    pub(crate) document: String,
    /// Where the hook is configured: settings file and location in it.
    pub(crate) at: String,
    /// Code the hook runs that cannot be pinned: `word (why)`.
    pub(crate) unpinned: Vec<String>,
    /// What earlier versions approved the hook as.
    pub(crate) earlier: Option<EarlierKey>,
    /// Why it is not approved (set by the gate for the hooks it skips).
    pub(crate) reason: String,
}

impl TrustKey {
    /// The project or extension directory the approval is for.
    pub fn scope(&self) -> &Path {
        &self.scope
    }

    /// What is approved, as canonical JSON.
    pub fn document(&self) -> &str {
        &self.document
    }

    /// Code the hook runs that cannot be pinned (`word (why)`): approving such a
    /// hook is a decision of its own (`hookhost trust --unpinned`).
    pub fn unpinned(&self) -> &[String] {
        &self.unpinned
    }

    /// Why the hook is not approved: never approved, what changed since its
    /// approval, what an earlier version's approval did not cover, what cannot be
    /// pinned.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

/// Whether hooks from this source need approval.
pub fn needs_trust(source: &SettingsSource) -> bool {
    source.is_repository_scope()
}

/// Why the trust file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum TrustError {
    /// There is no config directory to keep the file in.
    #[error("no configuration directory (set {TRUST_FILE_ENV})")]
    NoLocation,
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The trust file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not valid.
    #[error("{path}: not a valid trust file: {source}")]
    Invalid {
        /// The trust file.
        path: PathBuf,
        /// The parse error.
        source: serde_json::Error,
    },
}
