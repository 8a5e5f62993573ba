//! The audit trace: one JSON line per hook run, to a file or stderr.
//!
//! Enabled by `HOOKHOST_TRACE=<file>` (appended to) or `HOOKHOST_TRACE=-` (stderr), or
//! [`crate::HookSystemBuilder::trace`]. Each line has the time, event, session, and
//! the fields of `hookhost fire --explain`: hook name, type, source file and
//! location, matcher, exit code or failure, duration, fuel used, decision (and
//! whether it was only monitored), reason, and a stderr excerpt.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;
use std::time::SystemTime;

use serde_json::Value;

use crate::event::HookEvent;
use crate::result::{AggregatedHookResult, execution_summary};

/// The environment variable that enables the trace.
pub const TRACE_ENV: &str = "HOOKHOST_TRACE";

/// Where trace lines go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TraceSink {
    /// Appended to this file.
    File(PathBuf),
    /// Written to stderr.
    Stderr,
}

impl TraceSink {
    /// The sink named by `HOOKHOST_TRACE`, if set.
    pub fn from_env() -> Option<TraceSink> {
        let value = std::env::var_os(TRACE_ENV).filter(|v| !v.is_empty())?;
        Some(if value == "-" {
            TraceSink::Stderr
        } else {
            TraceSink::File(value.into())
        })
    }

    /// Writes one line per hook run of `result`. Failures to write are ignored: the
    /// trace must never break a fire.
    pub fn record(&self, event: HookEvent, session_id: &str, result: &AggregatedHookResult) {
        let timestamp = humantime::format_rfc3339_millis(SystemTime::now()).to_string();
        let mut lines = Vec::new();
        for execution in &result.executions {
            let mut line = execution_summary(execution);
            if let Value::Object(map) = &mut line {
                map.insert("timestamp".into(), Value::from(timestamp.as_str()));
                map.insert("event".into(), Value::from(event.as_str()));
                map.insert("sessionId".into(), Value::from(session_id));
                if let Some(output) = &execution.output {
                    if let Some(decision) = output.effective_decision() {
                        map.insert(
                            "decision".into(),
                            serde_json::to_value(decision).unwrap_or(Value::Null),
                        );
                    }
                    if let Some(reason) = output.effective_reason() {
                        map.insert("reason".into(), Value::from(reason));
                    }
                }
                let stderr = execution.stderr_excerpt();
                if !stderr.is_empty() {
                    map.insert("stderr".into(), Value::from(stderr));
                }
                if let Some(status) = &execution.status_message {
                    map.insert("statusMessage".into(), Value::from(status.as_str()));
                }
            }
            let _ = serde_json::to_writer(&mut lines, &line);
            lines.push(b'\n');
        }
        for hook in &result.background {
            let line = serde_json::json!({
                "timestamp": timestamp,
                "event": event.as_str(),
                "sessionId": session_id,
                "hook": hook.hook_name,
                "type": hook.hook_type,
                "background": hook.mode,
                "statusMessage": hook.status_message,
                "source": hook.source,
            });
            let _ = serde_json::to_writer(&mut lines, &line);
            lines.push(b'\n');
        }
        let _ = match self {
            TraceSink::Stderr => std::io::stderr().write_all(&lines),
            // Reasons and stderr excerpts may carry secrets: the file is the user's
            // alone (the mode applies when the file is created).
            TraceSink::File(path) => std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .mode(0o600)
                .open(path)
                .and_then(|mut file| file.write_all(&lines)),
        };
    }
}
