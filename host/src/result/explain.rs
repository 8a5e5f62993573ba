//! Why the hooks of one fire decided what they did, as a table (`hookhost fire
//! --explain` prints it on stderr; stdout stays the one JSON object of the contract).
//!
//! Every text that settings, hooks or plugins supply (names, matchers, reasons,
//! stderr, status messages, log lines, warnings) is [`terminal_safe`] here: the
//! table goes to a terminal. A plugin's log lines are shown as `plugin:<context>`
//! ([`super::GuestLog::shown_context`]).

use std::fmt::Write as _;

use super::{AggregatedHookResult, HookExecutionResult};
use crate::text::{clip, terminal_safe};

impl AggregatedHookResult {
    /// The table `hookhost fire --explain` prints: one row per hook that ran (outcome,
    /// time, fuel, decision, reason or stderr, where it comes from), then the verdict.
    pub fn explain(&self) -> String {
        render(self)
    }
}

fn render(result: &AggregatedHookResult) -> String {
    let mut out = String::new();
    for warning in &result.warnings {
        let _ = writeln!(out, "warning: {}", terminal_safe(warning));
    }
    for b in &result.background {
        let what = match b.mode {
            "asyncRewake" => "a block becomes a notice for the agent",
            _ => "its answer is discarded",
        };
        let _ = writeln!(
            out,
            "{} hook {:?} started in the background ({}: {what}){}\n    from {}",
            b.hook_type,
            b.hook_name,
            b.mode,
            b.status_message
                .as_ref()
                .map(|s| format!("; status: {}", terminal_safe(s)))
                .unwrap_or_default(),
            terminal_safe(&b.source)
        );
    }
    if result.background_deferred {
        out.push_str(
            "background hooks (async, asyncRewake) matched: they run in a detached process \
             after this answer\n",
        );
    }
    if result.executions.is_empty() {
        if result.background.is_empty() && !result.background_deferred {
            out.push_str(
                "no hook ran (hooks disabled, none configured, or no matcher or `if` rule matched)\n",
            );
        }
        return out;
    }
    let _ = writeln!(
        out,
        "{:<3} {:<24} {:<8} {:<20} {:>10} {:>10} {:>12}  {:<14} detail",
        "#", "hook", "type", "matcher", "outcome", "time ms", "fuel", "decision"
    );
    for (i, e) in result.executions.iter().enumerate() {
        row(&mut out, i + 1, e);
    }
    let verdict = if result.is_blocked() {
        format!(
            "BLOCKED: {}",
            terminal_safe(result.block_reason().unwrap_or_default())
        )
    } else {
        "allowed".to_owned()
    };
    let _ = writeln!(
        out,
        "=> {verdict} ({:.3} ms)",
        result.total_duration.as_secs_f64() * 1000.0
    );
    out
}

/// The row of the `n`th hook that ran, and its indented lines (source, status,
/// logs).
fn row(out: &mut String, n: usize, e: &HookExecutionResult) {
    let _ = writeln!(
        out,
        "{:<3} {:<24} {:<8} {:<20} {:>10} {:>10.3} {:>12}  {:<14} {}",
        n,
        clip(&terminal_safe(&e.hook_name), 24),
        e.hook_type,
        clip(&terminal_safe(&e.matcher), 20),
        outcome(e),
        e.duration.as_secs_f64() * 1000.0,
        e.fuel_used
            .map_or_else(|| "-".to_owned(), |f| f.to_string()),
        decision(e),
        terminal_safe(&detail(e)),
    );
    let _ = writeln!(
        out,
        "    from {} {}",
        terminal_safe(&e.source),
        terminal_safe(&e.location)
    );
    if let Some(status) = &e.status_message {
        let _ = writeln!(out, "    status: {}", terminal_safe(status));
    }
    for line in &e.logs.lines {
        let _ = writeln!(
            out,
            "    log {:<5} {}: {}",
            line.level,
            terminal_safe(&line.shown_context()),
            terminal_safe(&line.message)
        );
    }
    if e.logs.dropped > 0 {
        let _ = writeln!(out, "    log … {} more lines dropped", e.logs.dropped);
    }
}

fn outcome(e: &HookExecutionResult) -> String {
    match (e.exit_code, &e.error) {
        (Some(code), _) => format!("exit {code}"),
        (None, Some(_)) => "failed".to_owned(),
        (None, None) => "-".to_owned(),
    }
}

fn decision(e: &HookExecutionResult) -> String {
    let decided = e
        .output
        .as_ref()
        .and_then(|o| o.effective_decision())
        .map(|d| format!("{d:?}").to_lowercase())
        .unwrap_or_else(|| "-".to_owned());
    if e.monitor && e.is_block() {
        format!("{decided} (monitor)")
    } else {
        decided
    }
}

fn detail(e: &HookExecutionResult) -> String {
    if let Some(error) = &e.error {
        return error.clone();
    }
    let reason = e
        .output
        .as_ref()
        .and_then(|o| o.effective_reason())
        .unwrap_or_default();
    let stderr = e.stderr_excerpt();
    match (reason.is_empty(), stderr.is_empty()) {
        (false, false) => format!("{reason} | stderr: {stderr}"),
        (false, true) => reason.to_owned(),
        (true, false) => format!("stderr: {stderr}"),
        (true, true) => String::new(),
    }
}
