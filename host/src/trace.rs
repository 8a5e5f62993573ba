//! The audit trace: one JSON line per hook run, to a file or stderr.
//!
//! Enabled by `HOOKHOST_TRACE=<file>` (appended to) or `HOOKHOST_TRACE=-` (stderr),
//! the settings key `tools.trace`, or [`crate::HookSystemBuilder::trace`]. Each line
//! has the time, event, the agent's session id, the tool and a bounded excerpt of
//! what it acts on (the command, path or URL), and the fields of `hookhost fire
//! --explain`: hook name, type, source file and location, matcher, exit code or
//! failure, duration, fuel used, decision (and, in monitor mode, `wouldBlock`),
//! reason, a stderr excerpt, and for a plugin the module's digest and `oci://`
//! reference — what a team needs to review a rollout (`hookhost trace FILE`).

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;
use std::time::SystemTime;

use serde_json::{Map, Value};

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
    /// The environment variable that names the trace (`HOOKHOST_TRACE`).
    pub const ENV_NAME: &'static str = TRACE_ENV;

    /// The sink named by `HOOKHOST_TRACE`, if set.
    pub fn from_env() -> Option<TraceSink> {
        let value = std::env::var_os(TRACE_ENV).filter(|v| !v.is_empty())?;
        Some(if value == "-" {
            TraceSink::Stderr
        } else {
            TraceSink::File(value.into())
        })
    }

    /// The sink `tools.trace` names: `-` is stderr; otherwise a file, `~` and
    /// `$VAR` expanded, a relative path taken from `project_dir`.
    pub fn from_setting(text: &str, project_dir: &std::path::Path) -> TraceSink {
        let text = text.trim();
        if text == "-" {
            return TraceSink::Stderr;
        }
        let expanded = shellexpand::full(text).map_or_else(|_| text.into(), |e| e.into_owned());
        TraceSink::File(project_dir.join(expanded))
    }

    /// Writes one line per hook run of `result`, fired with `input` (the agent's
    /// `session_id`, `tool_name` and `tool_input` are read from it). Failures to
    /// write are ignored: the trace must never break a fire.
    pub fn record(
        &self,
        event: HookEvent,
        input: &Map<String, Value>,
        result: &AggregatedHookResult,
    ) {
        let timestamp = humantime::format_rfc3339_millis(SystemTime::now()).to_string();
        let session_id = input
            .get("session_id")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let tool = input.get("tool_name").and_then(Value::as_str);
        let target = input
            .get("tool_input")
            .and_then(Value::as_object)
            .and_then(call_target);
        let mut lines = Vec::new();
        for execution in &result.executions {
            let mut line = execution_summary(execution);
            if let Value::Object(map) = &mut line {
                map.insert("timestamp".into(), Value::from(timestamp.as_str()));
                map.insert("event".into(), Value::from(event.as_str()));
                map.insert("sessionId".into(), Value::from(session_id));
                if let Some(tool) = tool {
                    map.insert("tool".into(), Value::from(tool));
                }
                if let Some(target) = &target {
                    map.insert("target".into(), Value::from(target.as_str()));
                }
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
        let _ = self.write(&lines);
    }

    fn write(&self, lines: &[u8]) -> std::io::Result<()> {
        match self {
            TraceSink::Stderr => std::io::stderr().write_all(lines),
            // Reasons and stderr excerpts may carry secrets: the file is the user's
            // alone (the mode applies when the file is created).
            TraceSink::File(path) => {
                // A configured trace (`tools.trace`) may name a directory that does
                // not exist yet on a developer's machine: made, private.
                if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                    use std::os::unix::fs::DirBuilderExt;
                    let _ = std::fs::DirBuilder::new()
                        .recursive(true)
                        .mode(0o700)
                        .create(parent);
                }
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .mode(0o600)
                    .open(path)
                    .and_then(|mut file| file.write_all(lines))
            }
        }
    }
}

/// The most a trace line keeps of a command, path or URL.
pub const TARGET_EXCERPT: usize = 200;

/// What a tool call acts on, for a reviewer: its command, else its path or URL
/// (the first of `command`, `file_path`, `absolute_path`, `notebook_path`,
/// `path`, `url`, `pattern` that is a string), at most [`TARGET_EXCERPT`]
/// characters (the last one `…` when it was cut).
pub fn call_target(tool_input: &Map<String, Value>) -> Option<String> {
    const KEYS: [&str; 7] = [
        "command",
        "file_path",
        "absolute_path",
        "notebook_path",
        "path",
        "url",
        "pattern",
    ];
    let text = KEYS
        .iter()
        .find_map(|k| tool_input.get(*k).and_then(Value::as_str))?;
    Some(crate::text::clip(text, TARGET_EXCERPT).into_owned())
}
