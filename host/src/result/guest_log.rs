//! Lines a plugin logs through `wasi:logging` (and lines hookhost adds about the
//! plugin's grants, such as a denied request), bounded per call: a guest that logs
//! 10⁶ lines costs the host at most [`MAX_LINES`] lines of at most
//! [`MAX_LINE_BYTES`] each, and a count of what was dropped.
//!
//! Who wrote a line is recorded apart from its context ([`LogOrigin`]), because a
//! plugin chooses its context freely — `hookhost` included. The rule: hookhost's
//! own lines are shown with the context `hookhost`; a plugin's are always shown as
//! `plugin:<context>` (`hookhost fire --explain`), and carry `"origin": "plugin"`
//! in JSON (`"origin": "hookhost"` for hookhost's), so no plugin line can pass
//! for one of hookhost's. Contexts and messages are shown through
//! [`crate::terminal_safe`].

/// The most lines kept per call.
pub const MAX_LINES: usize = 200;
/// The longest message kept, in bytes (longer ones are cut at a char boundary).
pub const MAX_LINE_BYTES: usize = 2048;

/// Who wrote a log line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogOrigin {
    /// The plugin, through `wasi:logging`: its context is its own choice.
    Plugin,
    /// hookhost, about the plugin's call (a denied request …).
    Hookhost,
}

impl LogOrigin {
    /// `"plugin"` or `"hookhost"`, as JSON and telemetry carry it.
    pub fn as_str(self) -> &'static str {
        match self {
            LogOrigin::Plugin => "plugin",
            LogOrigin::Hookhost => "hookhost",
        }
    }
}

/// One logged line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuestLog {
    /// `trace`, `debug`, `info`, `warn`, `error` or `critical`.
    pub level: &'static str,
    /// Who wrote it.
    pub origin: LogOrigin,
    /// The guest's context string (`hookhost` for lines hookhost adds).
    pub context: String,
    /// The message, cut to [`MAX_LINE_BYTES`].
    pub message: String,
}

impl GuestLog {
    /// Where the line comes from, for a human: `hookhost` for hookhost's own
    /// lines, `plugin:<context>` for a plugin's (raw: the caller makes it
    /// [`crate::terminal_safe`]).
    pub fn shown_context(&self) -> String {
        match self.origin {
            LogOrigin::Hookhost => "hookhost".to_owned(),
            LogOrigin::Plugin => format!("plugin:{}", self.context),
        }
    }
}

/// The lines of one call.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GuestLogs {
    /// The lines kept, in order.
    pub lines: Vec<GuestLog>,
    /// How many more were logged and dropped.
    pub dropped: u64,
}

impl GuestLogs {
    /// Keeps a line of `origin` if there is room, else counts it.
    pub fn push(&mut self, origin: LogOrigin, level: &'static str, context: &str, message: &str) {
        if self.lines.len() >= MAX_LINES {
            self.dropped = self.dropped.saturating_add(1);
            return;
        }
        self.lines.push(GuestLog {
            level,
            origin,
            context: clip(context, 256),
            message: clip(message, MAX_LINE_BYTES),
        });
    }

    /// Whether nothing was logged.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty() && self.dropped == 0
    }
}

fn clip(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_is_bounded() {
        let mut logs = GuestLogs::default();
        let big = "é".repeat(MAX_LINE_BYTES);
        for _ in 0..10_000 {
            logs.push(LogOrigin::Plugin, "info", "loop", &big);
        }
        assert_eq!(logs.lines.len(), MAX_LINES);
        assert_eq!(logs.dropped, 10_000 - MAX_LINES as u64);
        assert!(logs.lines[0].message.len() <= MAX_LINE_BYTES + '…'.len_utf8());
    }

    #[test]
    fn a_plugin_cannot_pass_for_hookhost() {
        let mut logs = GuestLogs::default();
        logs.push(LogOrigin::Plugin, "warn", "hookhost", "request denied");
        logs.push(LogOrigin::Hookhost, "warn", "hookhost", "request denied");
        let shown: Vec<String> = logs.lines.iter().map(GuestLog::shown_context).collect();
        assert_eq!(shown, ["plugin:hookhost", "hookhost"]);
    }
}
