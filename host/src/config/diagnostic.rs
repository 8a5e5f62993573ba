//! Problems found while loading settings, each naming where it was found: in its
//! message for people, and — for a problem of one hook — as a [`HookAt`] for code,
//! so that nothing has to read a location back out of a message.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Something was ignored or guessed (e.g. an unknown key, an invalid regex used
    /// as an exact name); the hook still runs.
    Warning,
    /// Hooks are declared that will not run (switched off, a program that does not
    /// exist, a timeout too short to start): a fire still runs the rest, but the
    /// hooks' absence is a failure — `hookhost check` fails on it, and a fire puts
    /// it in its result's `errors` ([`Diagnostic::fails`]).
    Unenforced,
    /// Something could not be loaded (a file, a group or a hook); it is skipped and
    /// everything else still loads.
    Error,
}

/// Where in the settings a hook is configured: its file, the event name as written,
/// the group and the hook, and — for a diagnostic — the field at fault. A hook's
/// results carry the same place, so a load problem and the run failure it causes
/// are known to be one ([`HookAt::same_hook`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct HookAt {
    /// The settings file.
    pub file: PathBuf,
    /// The event as the file names it (`PreToolUse`, `BeforeTool`, a name hookhost
    /// does not know).
    pub event: Arc<str>,
    /// The group's index under the event.
    pub group: usize,
    /// The hook's index in its group; `None` for a problem of the whole group.
    pub hook: Option<usize>,
    /// The field at fault, below the hook (or group): `timeout`, `plugin.fuel`.
    pub field: Option<Arc<str>>,
}

impl HookAt {
    /// The hook at `hook` of group `group` of `event` in `file`.
    pub fn hook(file: PathBuf, event: Arc<str>, group: usize, hook: usize) -> HookAt {
        HookAt {
            file,
            event,
            group,
            hook: Some(hook),
            field: None,
        }
    }

    /// The same place with `field` named.
    pub fn with_field(mut self, field: Option<&str>) -> HookAt {
        self.field = field.filter(|f| !f.is_empty()).map(Arc::from);
        self
    }

    /// Whether `other` is a place in the same hook (whatever field).
    pub fn same_hook(&self, other: &HookAt) -> bool {
        self.hook.is_some()
            && self.hook == other.hook
            && self.group == other.group
            && self.event == other.event
            && self.file == other.file
    }
}

/// The place inside its file, as the messages write it:
/// `hooks.BeforeTool[0].hooks[1].timeout`.
impl fmt::Display for HookAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "hooks.{}[{}]", self.event, self.group)?;
        if let Some(hook) = self.hook {
            write!(f, ".hooks[{hook}]")?;
        }
        match &self.field {
            Some(field) => write!(f, ".{field}"),
            None => Ok(()),
        }
    }
}

/// One problem, with a message that names file, event, group, hook and field.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Diagnostic {
    /// How bad it is.
    pub severity: Severity,
    /// A warning the user must see even inside an agent, that fails nothing:
    /// hooks an administrator's setting keeps from running (a fire puts it in the
    /// answer's `systemMessage`; `fire` and `check` print every diagnostic anyway).
    pub shown: bool,
    /// The hook (and field) it is about, when it is about one hook or group.
    pub at: Option<HookAt>,
    /// The complete message, e.g.
    /// `project settings .llxprt/settings.json: hooks.BeforeTool[0].hooks[1].timeout: expected a number of milliseconds, got "5s"`.
    pub message: String,
}

impl Diagnostic {
    fn new(severity: Severity, message: String) -> Diagnostic {
        Diagnostic {
            severity,
            shown: false,
            at: None,
            message,
        }
    }

    /// An error.
    pub fn error(message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Error, message.into())
    }

    /// A warning.
    pub fn warning(message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Warning, message.into())
    }

    /// A warning that declared hooks will not run (see [`Severity::Unenforced`]).
    pub fn unenforced(message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Unenforced, message.into())
    }

    /// A warning shown inside agents too (see [`Diagnostic::shown`]).
    pub fn shown(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            shown: true,
            ..Diagnostic::warning(message)
        }
    }

    /// The same, about the hook (or group) at `at`.
    pub fn at(mut self, at: Option<HookAt>) -> Diagnostic {
        self.at = at;
        self
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Whether it is a failure: an error, or hooks declared that will not run.
    /// The one rule for what enters a fire's `errors` and what fails `hookhost check`.
    pub fn fails(&self) -> bool {
        self.severity >= Severity::Unenforced
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.severity {
            Severity::Warning | Severity::Unenforced => "warning",
            Severity::Error => "error",
        };
        write!(f, "{level}: {}", self.message)
    }
}
