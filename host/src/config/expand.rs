//! `$VAR`, `${VAR}`, `~` and `${extensionPath}` expansion for paths in settings.
//!
//! Command strings are *not* expanded here: they run under `sh -c` with the
//! project-dir variables in the environment, so the shell expands `$VAR`, `${VAR}`
//! and `~` itself and quoting keeps its meaning (`'$HOME'` stays literal, and a
//! variable's value can never inject shell syntax).

use std::borrow::Cow;
use std::path::Path;

/// The variables a settings file can refer to besides the process environment.
#[derive(Debug, Clone)]
pub struct ExpandVars<'a> {
    /// The project directory, the value of the three project-dir variables.
    pub project_dir: &'a Path,
    /// The extension's directory, for `${extensionPath}`.
    pub extension_dir: Option<&'a Path>,
}

/// The variables every hook sees whose value is the project dir (seeds/001 §7.6).
pub const PROJECT_DIR_VARS: [&str; 3] = [
    "LLXPRT_PROJECT_DIR",
    "GEMINI_PROJECT_DIR",
    "CLAUDE_PROJECT_DIR",
];

impl ExpandVars<'_> {
    /// Expands variables and a leading `~`; unknown variables, and
    /// `HOOKHOST_TOKEN`, stay as written.
    pub fn expand<'s>(&self, input: &'s str) -> Cow<'s, str> {
        let home = || dirs::home_dir().map(|h| h.to_string_lossy().into_owned());
        shellexpand::full_with_context_no_errors(input, home, |name| self.lookup(name))
    }

    /// Expands only the project-dir variables and `${extensionPath}`: for values a
    /// repository hands to a plugin, which must not be able to copy the user's
    /// environment (`"$AWS_SECRET_ACCESS_KEY"`) into a guest. Anything else stays
    /// as written.
    pub fn expand_project_vars<'s>(&self, input: &'s str) -> Cow<'s, str> {
        let no_home = || None::<String>;
        shellexpand::full_with_context_no_errors(input, no_home, |name| {
            (PROJECT_DIR_VARS.contains(&name) || name == "extensionPath")
                .then(|| self.lookup(name))
                .flatten()
        })
    }

    fn lookup(&self, name: &str) -> Option<String> {
        if name == crate::env_names::TOKEN_ENV {
            // `serve --http`'s bearer token is no hook's business: it stays as written.
            return None;
        }
        if PROJECT_DIR_VARS.contains(&name) {
            return Some(self.project_dir.to_string_lossy().into_owned());
        }
        if name == "extensionPath" || name == "CLAUDE_PLUGIN_ROOT" {
            return self.extension_dir.map(|d| d.to_string_lossy().into_owned());
        }
        std::env::var(name).ok()
    }
}
