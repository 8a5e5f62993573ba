//! Running the CLI: [`run`] with a hang limit, its [`Run`], the parsed [`Fired`] of
//! `hookhost fire`, and Claude Code's deny answer.

use std::io::{Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::RUN_LIMIT;

/// Runs a prepared `hookhost fire` with `input` and parses its one JSON object.
pub(super) fn fire_run(command: Command, event: &str, input: Value) -> Fired {
    let stdin = serde_json::to_vec(&input).expect("input JSON");
    let run = run(command, &stdin);
    let out = serde_json::from_slice(&run.stdout).unwrap_or_else(|e| {
        panic!(
            "fire {event}: stdout is not one JSON object ({e}); exit {}, stdout {:?}, stderr {}",
            run.code,
            String::from_utf8_lossy(&run.stdout),
            run.stderr
        )
    });
    Fired {
        code: run.code,
        out,
        stderr: run.stderr,
        elapsed: run.elapsed,
    }
}

/// What one run of the CLI produced.
pub struct Run {
    /// The exit code (panics on death by signal happen in [`run`]).
    pub code: i32,
    /// Raw stdout.
    pub stdout: Vec<u8>,
    /// Stderr, decoded.
    pub stderr: String,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let stdout = self.stdout_text();
        let shown: String = stdout.chars().take(4000).collect();
        f.debug_struct("Run")
            .field("code", &self.code)
            .field("stdout", &shown)
            .field("stderr", &self.stderr)
            .field("elapsed", &self.elapsed)
            .finish()
    }
}

impl Run {
    /// Stdout, decoded.
    pub fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

/// The reason of a deny in Claude Code's JSON form (`hookhost hook` on a
/// PreToolUse): exit 0 with `permissionDecision: "deny"`; `None` for anything else.
pub fn claude_deny_reason(run: &Run) -> Option<String> {
    if run.code != 0 {
        return None;
    }
    let answer: Value = serde_json::from_slice(&run.stdout).ok()?;
    let specific = &answer["hookSpecificOutput"];
    (specific["permissionDecision"] == "deny").then(|| {
        specific["permissionDecisionReason"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    })
}

/// Waits for `child` to exit until `limit` after `start`; past it the child is
/// killed and reaped and `None` is returned (the caller names the hang).
pub fn exit_within(child: &mut Child, start: Instant, limit: Duration) -> Option<ExitStatus> {
    loop {
        if let Some(status) = child.try_wait().expect("wait for hookhost") {
            return Some(status);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Runs `command` with `stdin`, reading its output concurrently; kills it and panics
/// past [`RUN_LIMIT`].
pub fn run(command: Command, stdin: &[u8]) -> Run {
    run_within(command, stdin, RUN_LIMIT)
}

/// [`run`] with another hang limit (e.g. for a cold compile of a large plugin).
pub fn run_within(mut command: Command, stdin: &[u8], limit: Duration) -> Run {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = command.spawn().expect("spawn hookhost");
    let mut child_stdin = child.stdin.take().expect("stdin");
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // The CLI may refuse the input early (usage error): EPIPE is fine.
        let _ = child_stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stdout.read_to_end(&mut buf);
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stderr.read_to_end(&mut buf);
        buf
    });
    let Some(status) = exit_within(&mut child, start, limit) else {
        panic!("hookhost ran longer than {limit:?}: {command:?}");
    };
    let elapsed = start.elapsed();
    writer.join().expect("stdin writer");
    let stdout = out_reader.join().expect("stdout reader");
    let stderr = String::from_utf8_lossy(&err_reader.join().expect("stderr reader")).into_owned();
    let code = status.code().unwrap_or_else(|| {
        panic!("hookhost died without exit code ({status:?}); stderr: {stderr}")
    });
    Run {
        code,
        stdout,
        stderr,
        elapsed,
    }
}

/// The outcome of `hookhost fire`: exit code, the aggregated result, stderr.
#[derive(Debug)]
pub struct Fired {
    /// The exit code: 0 ok, 2 blocked, 1 usage error.
    pub code: i32,
    /// The aggregated result printed on stdout.
    pub out: Value,
    /// What the CLI printed on stderr.
    pub stderr: String,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
}

impl Fired {
    /// `finalOutput`.
    pub fn final_output(&self) -> &Value {
        &self.out["finalOutput"]
    }

    /// `finalOutput.hookSpecificOutput.<key>`.
    pub fn specific(&self, key: &str) -> &Value {
        &self.out["finalOutput"]["hookSpecificOutput"][key]
    }

    /// `errors`, as strings.
    pub fn errors(&self) -> Vec<String> {
        self.out["errors"]
            .as_array()
            .unwrap_or_else(|| panic!("errors is not an array: {}", self.out))
            .iter()
            .map(|e| e.as_str().expect("error strings").to_owned())
            .collect()
    }

    /// `allOutputs`.
    pub fn all_outputs(&self) -> &Vec<Value> {
        self.out["allOutputs"]
            .as_array()
            .unwrap_or_else(|| panic!("allOutputs is not an array: {}", self.out))
    }

    /// The per-hook summaries (`hooks`), in plan order.
    pub fn hooks(&self) -> &Vec<Value> {
        self.out["hooks"]
            .as_array()
            .unwrap_or_else(|| panic!("hooks is not an array: {}", self.out))
    }

    /// `success`.
    pub fn success(&self) -> bool {
        self.out["success"].as_bool().expect("success is a boolean")
    }

    /// Asserts exit 0, `success`, and no errors.
    pub fn assert_clean(&self) {
        assert_eq!(self.code, 0, "exit code; {self:#?}");
        assert!(self.success(), "success; {self:#?}");
        assert!(self.errors().is_empty(), "errors; {self:#?}");
    }

    /// Asserts that no hook ran because the settings switch hooks off, and that
    /// the result says so (the switched-off files lead `errors`, as every door
    /// folds the load report): exit 0, `success`, no hook run, every error naming
    /// declared hooks that do not run.
    pub fn assert_switched_off(&self) {
        assert_eq!(self.code, 0, "exit code; {self:#?}");
        assert!(self.success(), "success; {self:#?}");
        assert!(self.hooks().is_empty(), "hooks ran; {self:#?}");
        let errors = self.errors();
        assert!(!errors.is_empty(), "errors; {self:#?}");
        for error in &errors {
            assert!(error.contains("NONE of them runs"), "{error}");
        }
    }

    /// Asserts two errors: the load warning that a command hook's program is not
    /// there (it fails open on every fire), then how its run failed, containing
    /// every one of `parts`; returns that.
    pub fn run_error_after_missing_program(&self, parts: &[&str]) -> String {
        let errors = self.errors();
        assert_eq!(
            errors.len(),
            2,
            "load warning + run error expected; {self:#?}"
        );
        assert!(
            errors[0].contains("not found (not an executable file, nor on PATH)"),
            "{:?}",
            errors[0]
        );
        for part in parts {
            assert!(
                errors[1].contains(part),
                "error {:?} should contain {part:?}",
                errors[1]
            );
        }
        errors[1].clone()
    }

    /// Asserts exactly one error, containing every one of `parts`; returns it.
    pub fn single_error(&self, parts: &[&str]) -> String {
        let errors = self.errors();
        assert_eq!(errors.len(), 1, "exactly one error expected; {self:#?}");
        for part in parts {
            assert!(
                errors[0].contains(part),
                "error {:?} should contain {part:?}",
                errors[0]
            );
        }
        errors[0].clone()
    }
}
