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

use std::time::Duration;

use serde_json::Value;

use super::{Hook, RawOutcome, Status};
use crate::config::{FailurePolicy, HookMode};
use crate::output::{Decision, HookOutput};

/// The interpreted result of one hook run.
#[derive(Debug, Clone)]
pub struct HookExecutionResult {
    /// The hook's display name.
    pub hook_name: String,
    /// `"command"` or `"plugin"`.
    pub hook_type: &'static str,
    /// The settings file it came from (its label).
    pub source: String,
    /// Where in the file, e.g. `hooks.BeforeTool[0].hooks[1]`.
    pub location: String,
    /// The matcher that selected it (`*` for all).
    pub matcher: String,
    /// `true` for a hook in monitor mode: its block or stop is reported, not enforced.
    pub monitor: bool,
    /// Fuel a plugin burned.
    pub fuel_used: Option<u64>,
    /// Whether the hook exited 0 (false for a block by exit 2, and for failures).
    pub success: bool,
    /// Its answer, if it gave one that counts.
    pub output: Option<HookOutput>,
    /// Its exit code, when it exited.
    pub exit_code: Option<i32>,
    /// Its stdout, decoded.
    pub stdout: String,
    /// Its stderr, decoded.
    pub stderr: String,
    /// How long it ran.
    pub duration: Duration,
    /// How long it waited for a process or pool slot before it started.
    pub queued: Duration,
    /// Why it failed, when it did.
    pub error: Option<String>,
    /// Things worth a warning that did not make it fail.
    pub warnings: Vec<String>,
}

impl HookExecutionResult {
    /// A short excerpt of stderr, for reports.
    pub fn stderr_excerpt(&self) -> &str {
        let text = self.stderr.trim();
        match text.char_indices().nth(160) {
            Some((i, _)) => &text[..i],
            None => text,
        }
    }

    /// Whether the hook's answer blocks (or, in monitor mode, would block).
    pub fn is_block(&self) -> bool {
        self.output.as_ref().is_some_and(HookOutput::is_block)
    }

    /// Whether the answer is enforced: it blocks and the hook is not monitoring.
    pub fn blocks(&self) -> bool {
        !self.monitor && self.is_block()
    }

    /// The answer as it counts for aggregation and chaining: a monitor-mode hook's
    /// blocks and stops are removed (they are only reported).
    pub fn enforced_output(&self) -> Option<HookOutput> {
        let mut output = self.output.clone()?;
        if self.monitor {
            if output.is_block() {
                output.reason = None;
            }
            output.decision = None;
            output.continue_ = None;
            output.stop_reason = None;
            if let Some(specific) = &mut output.hook_specific_output {
                specific.remove("permissionDecision");
            }
        }
        Some(output)
    }
}

/// Gives a raw outcome its meaning.
pub fn interpret(hook: &Hook, raw: RawOutcome) -> HookExecutionResult {
    let who = hook.describe();
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
    let stdout = raw.stdout.text();
    let stderr = raw.stderr.text();
    let mut result = HookExecutionResult {
        hook_name: hook.spec.name.clone(),
        hook_type: hook.spec.type_name(),
        source: hook.source.label.clone(),
        location: hook.location.clone(),
        matcher: hook.matcher.as_str().to_owned(),
        monitor: hook.spec.mode == HookMode::Monitor,
        fuel_used: raw.fuel_used,
        success: true,
        output: None,
        exit_code: None,
        stdout,
        stderr,
        duration: raw.duration,
        queued: raw.queued,
        error: None,
        warnings,
    };
    match raw.status {
        Status::Exited(0) if raw.stdout.truncated() => {
            // A cut-off answer is not an answer: a JSON object would not parse and
            // the rest would become a megabytes-long systemMessage.
            result.exit_code = Some(0);
            let cause = super::HookFailure::TruncatedOutput {
                kept: raw.stdout.bytes.len(),
                total: raw.stdout.total,
            };
            fail(&mut result, hook, cause.to_string());
        }
        Status::Exited(0) => {
            result.exit_code = Some(0);
            result.output = parse_stdout(hook, &result.stdout, &who, &mut result.warnings);
            if let Some(output) = &mut result.output {
                hook.dialect.normalize_output(output);
            }
        }
        Status::Exited(2) => {
            result.exit_code = Some(2);
            result.success = false;
            // Plain text on stdout is not an answer here: the reason comes from stderr.
            let mut output = parse_json_object(&result.stdout, &who, &mut result.warnings)
                .or_else(|| {
                    plugin_answer_after_text(hook, &result.stdout, &who, &mut result.warnings)
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
            result.output = Some(output);
        }
        Status::Exited(code) => {
            result.exit_code = Some(code);
            fail(
                &mut result,
                hook,
                super::HookFailure::ExitCode { code }.to_string(),
            );
        }
        Status::Failed(failure) => fail(&mut result, hook, failure.to_string()),
    }
    result
}

fn fail(result: &mut HookExecutionResult, hook: &Hook, cause: String) {
    let who = hook.describe();
    let stderr = result.stderr.trim();
    let detail = if stderr.is_empty() {
        String::new()
    } else {
        format!(": {}", cause_line(stderr))
    };
    result.success = false;
    result.error = Some(match hook.spec.failure_policy {
        FailurePolicy::Allow => format!("{who} {cause}{detail} (failing open)"),
        FailurePolicy::Block => format!("{who} {cause}{detail} (failurePolicy block)"),
    });
    if hook.spec.failure_policy == FailurePolicy::Block {
        result.output = Some(HookOutput::block(format!(
            "{who} failed ({cause}) and its failurePolicy is \"block\""
        )));
    }
}

fn first_line(text: &str) -> &str {
    let line = text.lines().next().unwrap_or_default();
    match line.char_indices().nth(200) {
        Some((i, _)) => &line[..i],
        None => line,
    }
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
fn parse_stdout(
    hook: &Hook,
    stdout: &str,
    who: &str,
    warnings: &mut Vec<String>,
) -> Option<HookOutput> {
    let text = stdout.trim();
    if text.is_empty() {
        return None;
    }
    parse_json_object(text, who, warnings)
        .or_else(|| parse_double_encoded(text, who, warnings))
        .or_else(|| plugin_answer_after_text(hook, text, who, warnings))
        .or_else(|| {
            if hook.spec.type_name() == "plugin" {
                warnings.push(format!(
                    "{who}: stdout is not a JSON answer (print() debugging?); it becomes \
                     a message to the user: {}",
                    first_line(text)
                ));
            }
            Some(hook.dialect.plain_text_output(hook.event, text))
        })
}

/// A plugin whose stdout is text followed by a JSON object on its last line (debug
/// prints before the SDK's answer): the answer counts, with a warning, so that a
/// block keeps the policy's own words.
fn plugin_answer_after_text(
    hook: &Hook,
    stdout: &str,
    who: &str,
    warnings: &mut Vec<String>,
) -> Option<HookOutput> {
    if hook.spec.type_name() != "plugin" {
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
