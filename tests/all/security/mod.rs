//! A hostile repository or another local user cannot switch off, widen or hijack the
//! user's policies (docs/SECURITY.md). Each test reproduces an attack that worked
//! before its fix, with the real CLI, real processes and real plugins.
//!
//! One file per subject (the numbered attacks keep their numbers), the helpers they
//! share here:
//! * `guards` — the user's guards stay on (1), approvals cover the grants and project
//!   env is not expanded (3), trust fails closed (7), approved code that changes and
//!   copied guards (9);
//! * `plugins` — unapproved plugins (2), cache poisoning (4), handle exhaustion (6),
//!   preopens through symlinks (10), symlinks planted by a guest (12);
//! * `inputs` — Claude tools no policy sees (5), files that never end (8), a stray
//!   `HOOKHOST_ACTIVE` (11), quoting in the examples and private trace files (13);
//! * `doors` — input a door cannot read is a deny under `--fail-closed`, and lone
//!   surrogates are read as JavaScript reads them (14);
//! * `connections` — unauthenticated connections cannot starve `serve --http` (15);
//! * `approvals` — an approval covers the whole hook, the scripts a `-c` string or
//!   `source` names; hooks that cannot be pinned; why a hook is not approved (16);
//! * `switches` — other agents' hooks-off switches in a repository (17);
//! * `scrub` — `${env:…}` and http headers under `tools.scrubHookEnv`, and
//!   `HOOKHOST_TOKEN` (18).

mod approvals;
mod connections;
mod doors;
mod guards;
mod inputs;
mod plugins;
mod scrub;
mod switches;

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::common::{Fired, Project, cache_dir};

/// A blocking guard in the user's own settings.
const GUARD: &str = "echo 'user guard: no' >&2; exit 2";

fn write_user_settings(p: &Project, settings: &Value) -> PathBuf {
    write_user_text(p, &settings.to_string())
}

fn write_user_text(p: &Project, text: &str) -> PathBuf {
    let dir = p.home().join(".llxprt");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("settings.json");
    std::fs::write(&path, text).unwrap();
    path
}

fn tool_call() -> Value {
    json!({"tool_name": "write_file", "tool_input": {"file_path": "/etc/passwd"}})
}

fn fire_cached(p: &Project, event: &str, input: Value) -> Fired {
    p.fire_with(event, input, &[], &[("HOOKHOST_CACHE_DIR", &cache_dir())])
}
