//! Problems found while loading settings, each naming where it was found.

use std::fmt;

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Something was ignored or guessed (e.g. an unknown key, an invalid regex used
    /// as an exact name); the hook still runs.
    Warning,
    /// Something could not be loaded (a file, a group or a hook); it is skipped and
    /// everything else still loads.
    Error,
}

/// One problem, with a message that names file, event, group, hook and field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// How bad it is.
    pub severity: Severity,
    /// Hooks are declared that will not run (switched off, a program that does not
    /// exist, a timeout too short to start): a warning for a fire, which still
    /// runs the rest, but `hookhost check` fails on it and `hookhost hook` shows it.
    pub unenforced: bool,
    /// A warning the user must see even inside an agent, that fails nothing:
    /// hooks an administrator's setting keeps from running (`hookhost hook` puts it
    /// in `systemMessage`; `fire` and `check` print every diagnostic anyway).
    pub shown: bool,
    /// The complete message, e.g.
    /// `project settings .llxprt/settings.json: hooks.BeforeTool[0].hooks[1].timeout: expected a number of milliseconds, got "5s"`.
    pub message: String,
}

impl Diagnostic {
    /// An error.
    pub fn error(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            unenforced: false,
            shown: false,
            message: message.into(),
        }
    }

    /// A warning.
    pub fn warning(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            unenforced: false,
            shown: false,
            message: message.into(),
        }
    }

    /// A warning that declared hooks will not run (see [`Diagnostic::unenforced`]).
    pub fn unenforced(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            unenforced: true,
            ..Diagnostic::warning(message)
        }
    }

    /// A warning shown inside agents too (see [`Diagnostic::shown`]).
    pub fn shown(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            shown: true,
            ..Diagnostic::warning(message)
        }
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        write!(f, "{level}: {}", self.message)
    }
}
