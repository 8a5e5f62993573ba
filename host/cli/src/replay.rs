//! `hookhost test DIR`: replay recorded events against the configured hooks and
//! compare the decisions with what each case expects — the offline test bench of a
//! policy team.
//!
//! Every `*.json` file in DIR (sorted) is one case:
//!
//! ```json
//! {
//!   "event": "BeforeTool",
//!   "input": {"tool_name": "write_file", "tool_input": {"file_path": "/etc/passwd"}},
//!   "expect": {"decision": "block", "reason": "outside the project"}
//! }
//! ```
//!
//! `expect.decision` is `"block"` (any blocking decision) or `"allow"` (anything
//! else); `reason` and `systemMessage` must be contained in the merged ones;
//! `success` compares the aggregated `success` (false when a hook exited 2 or failed).
//! Unknown `expect` keys are errors. Case names, warnings and reasons are
//! [`terminal_safe`] as printed.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use hookhost::dialect::{AgentCall, parse_event};
use hookhost::{AggregatedHookResult, terminal_safe};
use serde_json::Value;

use crate::{Failure, Outcome, SettingsArgs};

pub fn run(dir: &Path, settings: &SettingsArgs) -> Outcome {
    let cases = cases(dir)
        .map_err(|e| Failure::from(format_args!("cannot read {}: {e}", dir.display())))?;
    if cases.is_empty() {
        return Err(Failure::from(format_args!(
            "no *.json cases in {}",
            dir.display()
        )));
    }
    let system = settings.builder().build();
    for d in system.report().diagnostics() {
        eprintln!("hookhost: {}", terminal_safe(&d.to_string()));
    }
    let runtime = super::runtime()?;
    let mut failed = 0;
    for path in &cases {
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let verdict = case(path).and_then(|(event, dialect, input, expect)| {
            // A hook that could not load is a policy that never ran: every case
            // says so (the load failures lead its `errors`).
            let call = AgentCall::fired(event, dialect);
            let result = runtime.block_on(system.fire_call(&call, input));
            for warning in &result.warnings {
                println!("WARN {}: {}", terminal_safe(&name), terminal_safe(warning));
            }
            check(&expect, &result)
        });
        match verdict {
            Ok(()) => println!("PASS {}", terminal_safe(&name)),
            Err(why) => {
                failed += 1;
                println!("FAIL {}: {}", terminal_safe(&name), terminal_safe(&why));
            }
        }
    }
    runtime.shutdown_background();
    println!("{} passed, {failed} failed", cases.len() - failed);
    Ok(ExitCode::from(if failed == 0 { 0 } else { 1 }))
}

fn cases(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json") && p.is_file())
        .collect();
    cases.sort();
    Ok(cases)
}

type Case = (
    hookhost::HookEvent,
    hookhost::dialect::Dialect,
    serde_json::Map<String, Value>,
    serde_json::Map<String, Value>,
);

fn case(path: &Path) -> Result<Case, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| format!("not JSON: {e}"))?;
    let event_name = value["event"].as_str().ok_or("missing \"event\"")?;
    let (event, dialect) =
        parse_event(event_name).ok_or_else(|| format!("unknown event {event_name:?}"))?;
    let input = value["input"]
        .as_object()
        .cloned()
        .ok_or("\"input\" must be an object")?;
    let expect = value["expect"]
        .as_object()
        .cloned()
        .ok_or("\"expect\" must be an object")?;
    Ok((event, dialect, input, expect))
}

fn check(
    expect: &serde_json::Map<String, Value>,
    result: &AggregatedHookResult,
) -> Result<(), String> {
    let mut problems = Vec::new();
    for (key, want) in expect {
        match key.as_str() {
            "decision" => {
                let got = if result.is_blocked() {
                    "block"
                } else {
                    "allow"
                };
                if want.as_str() != Some(got) {
                    problems.push(format!(
                        "decision: expected {want}, got {got}{}",
                        result
                            .block_reason()
                            .map(|r| format!(" ({r})"))
                            .unwrap_or_default()
                    ));
                }
            }
            "reason" | "systemMessage" => {
                let got = if key == "reason" {
                    result.final_output.effective_reason()
                } else {
                    result.system_message()
                };
                let want = want.as_str().unwrap_or_default();
                if !got.is_some_and(|g| g.contains(want)) {
                    problems.push(format!("{key}: expected to contain {want:?}, got {got:?}"));
                }
            }
            "success" => {
                if want.as_bool() != Some(result.success) {
                    problems.push(format!(
                        "success: expected {want}, got {} ({:?})",
                        result.success, result.errors
                    ));
                }
            }
            other => problems.push(format!("unknown expectation {other:?}")),
        }
    }
    // A decision reached while a hook failed (fail-open) or did not load is not the
    // policy's: the case fails unless it expects the failure (`"success": false`).
    if !result.errors.is_empty() && expect.get("success") != Some(&Value::Bool(false)) {
        problems.push(format!(
            "a hook failed or did not load: {}",
            result.errors.join("; ")
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}
