//! `wasi:logging/logging`: a plugin's log lines, kept bounded in the call's
//! [`GuestLogs`] (shared with [`super::http_grant`], which adds hookhost's own
//! lines about denied requests). Linked for every plugin: logging grants nothing.

use std::sync::{Arc, Mutex};

use super::capabilities::logging::{Host, Level};
use crate::result::{GuestLogs, LogOrigin};

/// The lines of one call, shared by the logging host and the HTTP grant.
#[derive(Debug, Clone, Default)]
pub struct CallLogs(Arc<Mutex<GuestLogs>>);

impl CallLogs {
    /// Adds one of hookhost's own lines (bounded: see [`GuestLogs::push`]);
    /// `context` names the part of hookhost (`hookhost`).
    pub fn push(&self, level: &'static str, context: &str, message: &str) {
        self.push_from(LogOrigin::Hookhost, level, context, message);
    }

    fn push_from(&self, origin: LogOrigin, level: &'static str, context: &str, message: &str) {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(origin, level, context, message);
    }

    /// The lines so far.
    pub fn take(&self) -> GuestLogs {
        std::mem::take(
            &mut *self
                .0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    }
}

impl Host for CallLogs {
    fn log(&mut self, level: Level, context: String, message: String) {
        let level = match level {
            Level::Trace => "trace",
            Level::Debug => "debug",
            Level::Info => "info",
            Level::Warn => "warn",
            Level::Error => "error",
            Level::Critical => "critical",
        };
        // The plugin's line: its context never passes for hookhost's own.
        self.push_from(LogOrigin::Plugin, level, &context, &message);
    }
}
