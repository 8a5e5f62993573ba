//! What a hook's exit status and output mean (seeds/001 §4.2–4.4, §7.2, §9).
//!
//! | outcome                   | meaning                                                   |
//! |---------------------------|-----------------------------------------------------------|
//! | exit 0, stdout truncated | failed: the answer was cut off at the output cap      |
//! | exit 0, JSON object       | its fields are the hook's answer                          |
//! | exit 0, JSON string of an object | that object is the answer (double-encoded JSON)    |
//! | exit 0, other text        | allow; the text becomes `systemMessage`                   |
//! | exit 0, nothing           | allow, no answer                                          |
//! | exit 2                    | block; `reason` from stdout JSON, else stderr             |
//! | anything else             | failed: warn and proceed (or block, `failurePolicy: block`) |
//!
//! `success` is true only for exit 0 (seeds/001 §7.2): a hook that exits 2 to block
//! is `success: false` without being an error, and its block counts. Callers decide
//! on the decision, never on `success`.

//! What happened is interpreted here without the hook's settings: failure policy,
//! monitor mode and dialect are applied after it, in [`super::policy`].

use std::time::Duration;

use serde_json::Value;

use super::{HookFailure, RawOutcome, Status};
use crate::output::{Decision, HookOutput};

/// The answer a hook gave.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// None (no stdout, or a failure).
    None,
    /// A JSON object's fields (exit 0), or a block (exit 2).
    Json(HookOutput),
    /// Plain text on exit 0: a message, or context in some dialects.
    Text(String),
}

/// What a hook's exit status and output mean, before policy.
#[derive(Debug, Clone)]
pub struct Interpreted {
    /// Its exit code, when it exited.
    pub exit_code: Option<i32>,
    /// Its answer.
    pub answer: Answer,
    /// Why it failed, when it did.
    pub failure: Option<Failed>,
    /// Its stdout, decoded.
    pub stdout: String,
    /// Its stderr, decoded.
    pub stderr: String,
    /// How long it ran.
    pub duration: Duration,
    /// How long it waited for a process or pool slot before it started.
    pub queued: Duration,
    /// Fuel a plugin burned.
    pub fuel_used: Option<u64>,
    /// Lines a plugin logged.
    pub logs: super::GuestLogs,
    /// Things worth a warning that did not make it fail.
    pub warnings: Vec<String>,
}

/// Why a hook failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failed {
    /// The cause: `timed out after 5s`, `exit code 3` …
    pub cause: String,
    /// The line of its stderr that says why, if it wrote any.
    pub detail: Option<String>,
}

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.detail {
            Some(detail) => write!(f, "{}: {detail}", self.cause),
            None => f.write_str(&self.cause),
        }
    }
}

impl Interpreted {
    /// Whether the hook exited 0 and did not fail (false for a block by exit 2).
    pub fn success(&self) -> bool {
        self.exit_code == Some(0) && self.failure.is_none()
    }
}

/// Gives a raw outcome its meaning. `who` names the hook in messages
/// (`plugin hook "guard"`); `plugin` says whether it is a Wasm plugin (whose
/// debugging prints before its JSON answer are forgiven, with a warning).
pub fn interpret(raw: RawOutcome, who: &str, plugin: bool) -> Interpreted {
    let mut warnings = Vec::new();
    for (name, stream) in [("stdout", &raw.stdout), ("stderr", &raw.stderr)] {
        if stream.truncated() {
            warnings.push(format!(
                "{who}: {name} truncated to {} of {} bytes",
                stream.bytes.len(),
                stream.total
            ));
        }
    }
    let mut result = Interpreted {
        exit_code: None,
        answer: Answer::None,
        failure: None,
        stdout: raw.stdout.text(),
        stderr: raw.stderr.text(),
        duration: raw.duration,
        queued: raw.queued,
        fuel_used: raw.fuel_used,
        logs: raw.logs,
        warnings,
    };
    match raw.status {
        Status::Exited(0) if raw.stdout.truncated() => {
            // A cut-off answer is not an answer: a JSON object would not parse and
            // the rest would become a megabytes-long systemMessage.
            result.exit_code = Some(0);
            let cause = HookFailure::TruncatedOutput {
                kept: raw.stdout.bytes.len(),
                total: raw.stdout.total,
            };
            fail(&mut result, cause.to_string());
        }
        Status::Exited(0) => {
            result.exit_code = Some(0);
            result.answer = parse_stdout(plugin, &result.stdout, who, &mut result.warnings);
        }
        Status::Exited(2) => {
            result.exit_code = Some(2);
            // Plain text on stdout is not an answer here: the reason comes from stderr.
            let mut output = parse_json_object(&result.stdout, who, &mut result.warnings)
                .or_else(|| {
                    plugin_answer_after_text(plugin, &result.stdout, who, &mut result.warnings)
                })
                .unwrap_or_default();
            if !output.is_block() {
                output.decision = Some(Decision::Block);
            }
            if output.effective_reason().is_none_or(str::is_empty) {
                let stderr = result.stderr.trim();
                output.reason = Some(if stderr.is_empty() {
                    format!("blocked by {who} (exit code 2)")
                } else {
                    stderr.to_owned()
                });
            } else if output.reason.is_none() {
                output.reason = output.effective_reason().map(str::to_owned);
            }
            result.answer = Answer::Json(output);
        }
        Status::Exited(code) => {
            result.exit_code = Some(code);
            fail(&mut result, HookFailure::ExitCode { code }.to_string());
        }
        Status::Failed(failure) => fail(&mut result, failure.to_string()),
    }
    result
}

fn fail(result: &mut Interpreted, cause: String) {
    let stderr = result.stderr.trim();
    result.failure = Some(Failed {
        cause,
        detail: (!stderr.is_empty()).then(|| cause_line(stderr)),
    });
}

fn first_line(text: &str) -> &str {
    crate::text::prefix(text.lines().next().unwrap_or_default(), 200)
}

/// The line of a failed hook's stderr that says why: a Rust panic's message (the
/// line after `panicked at …`), a Python traceback's last line, else the first line.
fn cause_line(stderr: &str) -> String {
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if let Some(i) = lines.iter().position(|l| l.contains("panicked at")) {
        let at = first_line(lines[i]);
        return match lines.get(i + 1) {
            Some(message) if at.ends_with(':') => {
                format!("{at} {}", first_line(message))
            }
            _ => at.to_owned(),
        };
    }
    if lines
        .first()
        .is_some_and(|l| l.starts_with("Traceback (most recent call last)"))
    {
        return first_line(lines.last().copied().unwrap_or_default()).to_owned();
    }
    first_line(stderr.trim()).to_owned()
}

/// Exit-0 stdout: a JSON object (or a JSON string holding one) is an answer, other
/// text a system message (Claude Code hooks on SessionStart / UserPromptSubmit:
/// context for the model), nothing no answer.
fn parse_stdout(plugin: bool, stdout: &str, who: &str, warnings: &mut Vec<String>) -> Answer {
    let text = stdout.trim();
    if text.is_empty() {
        return Answer::None;
    }
    let json = parse_json_object(text, who, warnings)
        .or_else(|| parse_double_encoded(text, who, warnings))
        .or_else(|| plugin_answer_after_text(plugin, text, who, warnings));
    if let Some(output) = json {
        return Answer::Json(output);
    }
    if plugin {
        warnings.push(format!(
            "{who}: stdout is not a JSON answer (print() debugging?); it becomes \
             a message to the user: {}",
            first_line(text)
        ));
    }
    Answer::Text(text.to_owned())
}

/// A plugin whose stdout is text followed by a JSON object on its last line (debug
/// prints before the SDK's answer): the answer counts, with a warning, so that a
/// block keeps the policy's own words.
fn plugin_answer_after_text(
    plugin: bool,
    stdout: &str,
    who: &str,
    warnings: &mut Vec<String>,
) -> Option<HookOutput> {
    if !plugin {
        return None;
    }
    let (before, last) = stdout.trim().rsplit_once('\n')?;
    let output = parse_json_object(last, who, warnings)?;
    warnings.push(format!(
        "{who}: stdout has text before its JSON answer (print() debugging?), ignored: {}",
        first_line(before.trim())
    ));
    Some(output)
}

/// Stdout that is a JSON string whose content is a JSON object: a hook that encoded
/// its answer twice (both reference runners decode it once more).
fn parse_double_encoded(stdout: &str, who: &str, warnings: &mut Vec<String>) -> Option<HookOutput> {
    match serde_json::from_str::<Value>(stdout) {
        Ok(Value::String(inner)) => parse_json_object(&inner, who, warnings),
        _ => None,
    }
}

/// Stdout that is exactly one JSON object, read as an answer.
fn parse_json_object(stdout: &str, who: &str, warnings: &mut Vec<String>) -> Option<HookOutput> {
    let Ok(Value::Object(object)) = serde_json::from_str::<Value>(stdout.trim()) else {
        return None;
    };
    let (output, field_warnings) = HookOutput::from_json_object(object);
    warnings.extend(
        field_warnings
            .into_iter()
            .map(|w| format!("{who}: output field {}: {}", w.field, w.problem)),
    );
    Some(output)
}
