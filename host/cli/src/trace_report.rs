//! `hookhost trace [FILE]`: a rollout's review. Reads a trace file (JSON lines
//! written by `HOOKHOST_TRACE` or `tools.trace`) and prints, per hook, how often
//! it ran, blocked, would have blocked (monitor mode) and failed, and its p50
//! and p95 durations — the table a team decides from when to switch a policy
//! from `"mode": "monitor"` to enforce. Lines that are not trace lines are
//! counted and skipped, never fatal: a trace file is appended to by many
//! processes and may end in a cut line.
//!
//! Every text read from the file (hook names, events, sources, digests, times)
//! comes from settings or hooks and is made [`terminal_safe`] before it is laid
//! out: the table goes to a terminal.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::BufRead;
use std::path::Path;
use std::process::ExitCode;

use hookhost::terminal_safe;
use serde_json::Value;

use crate::{Failure, Outcome};

/// One hook's figures.
#[derive(Debug, Default)]
struct HookStats {
    events: std::collections::BTreeSet<String>,
    runs: usize,
    blocks: usize,
    would_block: usize,
    failures: usize,
    durations: Vec<f64>,
    digests: BTreeMap<String, usize>,
    sessions: std::collections::BTreeSet<String>,
}

/// The whole file's figures.
#[derive(Debug, Default)]
struct Report {
    /// Per hook, keyed by (name, source) so that two hooks of one name in two
    /// files stay apart.
    hooks: BTreeMap<(String, String), HookStats>,
    skipped: usize,
    first: Option<String>,
    last: Option<String>,
}

impl Report {
    fn add(&mut self, line: &str) {
        let Ok(Value::Object(record)) = serde_json::from_str::<Value>(line) else {
            if !line.trim().is_empty() {
                self.skipped += 1;
            }
            return;
        };
        // Made safe as read: every figure below is laid out from these.
        let text =
            |key: &str| terminal_safe(record.get(key).and_then(Value::as_str).unwrap_or_default());
        // Background starts are lines of their own: not a run with a result.
        if record.contains_key("background") || !record.contains_key("name") {
            return;
        }
        let timestamp = text("timestamp").into_owned();
        if !timestamp.is_empty() {
            if self.first.is_none() {
                self.first = Some(timestamp.clone());
            }
            self.last = Some(timestamp);
        }
        let stats = self
            .hooks
            .entry((text("name").into_owned(), text("source").into_owned()))
            .or_default();
        stats.runs += 1;
        stats.events.insert(text("event").into_owned());
        let monitor = text("mode") == "monitor";
        if monitor && record.get("wouldBlock") == Some(&Value::Bool(true)) {
            stats.would_block += 1;
        } else if !monitor && record.get("blocked") == Some(&Value::Bool(true)) {
            stats.blocks += 1;
        }
        if record.contains_key("error") {
            stats.failures += 1;
        }
        if let Some(ms) = record.get("duration").and_then(Value::as_f64) {
            stats.durations.push(ms);
        }
        let digest = text("pluginDigest");
        if !digest.is_empty() {
            *stats.digests.entry(digest.into_owned()).or_default() += 1;
        }
        let session = text("sessionId");
        if !session.is_empty() {
            stats.sessions.insert(session.into_owned());
        }
    }

    fn render(&self, path: &Path) -> String {
        let mut out = String::new();
        let runs: usize = self.hooks.values().map(|h| h.runs).sum();
        let _ = writeln!(
            out,
            "{}: {runs} hook run(s) of {} hook(s){}",
            terminal_safe(&path.display().to_string()),
            self.hooks.len(),
            match (&self.first, &self.last) {
                (Some(first), Some(last)) => format!(", {first} to {last}"),
                _ => String::new(),
            }
        );
        if self.skipped > 0 {
            let _ = writeln!(out, "{} line(s) skipped: not trace lines", self.skipped);
        }
        if self.hooks.is_empty() {
            return out;
        }
        let header = [
            "hook",
            "events",
            "runs",
            "sessions",
            "blocks",
            "would block",
            "failed",
            "p50",
            "p95",
        ];
        let mut rows = vec![header.map(str::to_owned).to_vec()];
        for ((name, _), stats) in &self.hooks {
            let mut sorted = stats.durations.clone();
            sorted.sort_by(f64::total_cmp);
            rows.push(vec![
                name.clone(),
                stats.events.iter().cloned().collect::<Vec<_>>().join(","),
                stats.runs.to_string(),
                stats.sessions.len().to_string(),
                stats.blocks.to_string(),
                stats.would_block.to_string(),
                stats.failures.to_string(),
                percentile(&sorted, 50),
                percentile(&sorted, 95),
            ]);
        }
        let widths: Vec<usize> = (0..header.len())
            .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
            .collect();
        for row in &rows {
            let cells: Vec<String> = row
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(c, (cell, width))| {
                    if c < 2 {
                        format!("{cell:<width$}")
                    } else {
                        format!("{cell:>width$}")
                    }
                })
                .collect();
            let _ = writeln!(out, "{}", cells.join("  ").trim_end());
        }
        self.notes(&mut out);
        out
    }

    /// Per hook: where it comes from, the modules it ran, what monitor mode saw.
    fn notes(&self, out: &mut String) {
        for ((name, source), stats) in &self.hooks {
            let _ = writeln!(out, "{name}: from {source}");
            if stats.digests.len() > 1 {
                let _ = writeln!(
                    out,
                    "  ran {} different modules: {}",
                    stats.digests.len(),
                    stats
                        .digests
                        .iter()
                        .map(|(d, n)| format!("{d} ({n})"))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            } else if let Some(digest) = stats.digests.keys().next() {
                let _ = writeln!(out, "  module {digest}");
            }
            if stats.would_block > 0 && stats.blocks == 0 {
                let _ = writeln!(
                    out,
                    "  monitor mode: would have blocked {} of {} run(s); review them (\"wouldBlock\": true in the trace) before enforcing",
                    stats.would_block, stats.runs
                );
            }
        }
    }
}

/// The `p`th percentile of sorted milliseconds (nearest rank), e.g. `12.3 ms`.
fn percentile(sorted: &[f64], p: usize) -> String {
    if sorted.is_empty() {
        return "-".to_owned();
    }
    let rank = (p * sorted.len()).div_ceil(100).clamp(1, sorted.len());
    format!("{:.1} ms", sorted[rank - 1])
}

/// Summarises the trace at `path` (default: `HOOKHOST_TRACE`).
pub fn run(path: Option<&Path>) -> Outcome {
    let env = std::env::var_os(hookhost::TraceSink::ENV_NAME).filter(|v| !v.is_empty() && v != "-");
    let Some(path) = path.map(Path::to_path_buf).or_else(|| env.map(Into::into)) else {
        return Err(Failure::of(
            "hookhost trace",
            "no trace file: give one (hookhost trace FILE) or set HOOKHOST_TRACE",
        ));
    };
    let file = std::fs::File::open(&path).map_err(|e| {
        Failure::of(
            "hookhost trace",
            format!("cannot read {}: {e}", path.display()),
        )
    })?;
    let mut report = Report::default();
    for line in std::io::BufReader::new(file).split(b'\n') {
        let line = line.map_err(|e| {
            Failure::of(
                "hookhost trace",
                format!("cannot read {}: {e}", path.display()),
            )
        })?;
        report.add(&String::from_utf8_lossy(&line));
    }
    crate::write_stdout(&report.render(&path));
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn counts_runs_blocks_would_blocks_failures_and_percentiles() {
        let mut report = Report::default();
        for i in 0..20 {
            let line = serde_json::json!({"timestamp": format!("t{i:02}"), "event": "BeforeTool",
                "sessionId": format!("s{}", i % 3), "name": "guard", "source": "user settings",
                "duration": f64::from(i + 1), "blocked": i % 5 == 0, "mode": "monitor",
                "wouldBlock": i % 5 == 0, "pluginDigest": "sha256:ab"});
            report.add(&line.to_string());
        }
        report.add(r#"{"name":"audit","source":"project","event":"AfterTool","duration":2,"blocked":false,"error":"timed out"}"#);
        report.add("{\"cut");
        report.add(r#"{"hook":"bg","background":"async"}"#);
        let text = report.render(Path::new("t.jsonl"));
        assert!(
            text.contains("21 hook run(s) of 2 hook(s), t00 to t19"),
            "{text}"
        );
        assert!(text.contains("1 line(s) skipped"), "{text}");
        let guard = text.lines().find(|l| l.starts_with("guard ")).unwrap();
        let cells: Vec<&str> = guard
            .split("  ")
            .filter(|c| !c.trim().is_empty())
            .map(str::trim)
            .collect();
        assert_eq!(
            cells,
            [
                "guard",
                "BeforeTool",
                "20",
                "3",
                "0",
                "4",
                "0",
                "10.0 ms",
                "19.0 ms"
            ],
            "{text}"
        );
        let audit = text.lines().find(|l| l.starts_with("audit ")).unwrap();
        assert!(
            audit.contains(" 1 ") && audit.trim_end().ends_with("2.0 ms"),
            "{audit}"
        );
        assert!(text.contains("would have blocked 4 of 20 run(s)"), "{text}");
        assert!(text.contains("module sha256:ab"), "{text}");
    }
}
