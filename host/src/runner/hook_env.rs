//! The environment hooks see: one definition for the process a command hook
//! runs in, the `${env:NAME}` references of its command line, and the variables
//! an http hook's headers may name.
//!
//! * What is inherited from hookhost: all of its environment, or under
//!   `tools.scrubHookEnv` only [`KEPT_ENV`] and `LC_*` — and never
//!   [`TOKEN_ENV`], `serve --http`'s bearer token, which no hook needs.
//! * A command hook's process gets that, the project-dir variables, hookhost's
//!   own (`CLAUDE_ENV_FILE`, a plugin's `CLAUDE_PLUGIN_*`), the hook's own `env`,
//!   and `${env:NAME}` reads exactly that environment: a scrubbed secret is not
//!   reachable through the command line either.
//! * An http hook's `allowedEnvVars` read the scrubbed environment when the hook
//!   comes from a repository (project settings, an extension); a hook of the
//!   user's own files lists them as a grant of the user's, as an `env` value in
//!   the user's file is one, and reads hookhost's environment (the token aside).

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};

use super::RunContext;
use super::command_line::CommandLine;
use crate::config::{HookEntry, PROJECT_DIR_VARS};
use crate::env_names::{NESTED_ENV, TOKEN_ENV};

/// What a command hook keeps of the environment under `tools.scrubHookEnv`
/// (besides `LC_*`, the variables hookhost sets and the hook's own `env`).
pub const KEPT_ENV: [&str; 10] = [
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "TMPDIR", "TZ", "LANG", "LANGUAGE", "TERM",
];

/// Which of hookhost's environment a hook may read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visible {
    /// All of it (but [`TOKEN_ENV`]).
    All,
    /// [`KEPT_ENV`] and `LC_*` only.
    Scrubbed,
}

impl Visible {
    /// What a command hook inherits under `scrub`.
    pub fn inherited(scrub: bool) -> Visible {
        if scrub {
            Visible::Scrubbed
        } else {
            Visible::All
        }
    }

    /// What an http hook's `allowedEnvVars` read: scrubbed for a repository's hook
    /// under `scrub`.
    pub fn for_headers(scrub: bool, entry: &HookEntry) -> Visible {
        Visible::inherited(scrub && entry.source.is_repository_scope())
    }

    /// Whether the variable `name` of hookhost's environment is visible.
    pub fn shows(self, name: &OsStr) -> bool {
        if name == TOKEN_ENV {
            return false;
        }
        match self {
            Visible::All => true,
            Visible::Scrubbed => name
                .to_str()
                .is_some_and(|n| KEPT_ENV.contains(&n) || n.starts_with("LC_")),
        }
    }

    /// The variable `name` of hookhost's environment, if visible.
    pub fn var(self, name: &str) -> Option<OsString> {
        self.shows(OsStr::new(name))
            .then(|| std::env::var_os(name))
            .flatten()
    }
}

/// The whole environment of a command hook's process.
pub fn command_env(
    line: &CommandLine,
    ctx: &RunContext,
) -> Result<BTreeMap<OsString, OsString>, super::command_line::DataDirError> {
    let visible = Visible::inherited(ctx.scrub_env);
    let mut env: BTreeMap<OsString, OsString> = std::env::vars_os()
        .filter(|(name, _)| visible.shows(name))
        .collect();
    for name in PROJECT_DIR_VARS {
        env.insert(name.into(), ctx.project_dir.as_os_str().to_owned());
    }
    for (name, value) in &ctx.command_env {
        env.insert(name.into(), value.into());
    }
    line.add_env(&ctx.project_dir, &mut env)?;
    env.insert(NESTED_ENV.into(), std::process::id().to_string().into());
    // Not even a hook's own `env` hands the token on under its name.
    env.remove(OsStr::new(TOKEN_ENV));
    Ok(env)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_is_never_visible_and_scrub_keeps_only_the_listed_names() {
        for visible in [Visible::All, Visible::Scrubbed] {
            assert!(!visible.shows(OsStr::new(TOKEN_ENV)));
            assert!(visible.shows(OsStr::new("PATH")));
            assert!(visible.shows(OsStr::new("LC_ALL")));
        }
        assert!(Visible::All.shows(OsStr::new("AWS_SECRET_ACCESS_KEY")));
        assert!(!Visible::Scrubbed.shows(OsStr::new("AWS_SECRET_ACCESS_KEY")));
    }
}
