//! Shared helpers: a throw-away project with its own settings, hook scripts and HOME,
//! and runs of the real `hookhost` binary against it.
//!
//! Every CLI run gets `HOME` = a private temp dir and `LLXPRT_SYSTEM_SETTINGS_PATH` = a
//! file that does not exist, so no settings or extensions of the machine leak in, and
//! its working directory is *outside* the project, so only `--project-dir` can point
//! hooks at the project.

use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tempfile::TempDir;

/// The CLI under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_hookhost");

/// A CLI run that lasts longer than this is a hang (a bug), not slowness: it is
/// killed and the test fails.
pub const RUN_LIMIT: Duration = Duration::from_secs(120);

/// A `{"type": "command", "command": …}` hook.
/// The repository root: the test binary belongs to `host/cli`.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn cmd(command: &str) -> Value {
    json!({"type": "command", "command": command})
}

/// A command hook with a timeout in milliseconds.
pub fn cmd_timeout(command: &str, timeout_ms: u64) -> Value {
    json!({"type": "command", "command": command, "timeout": timeout_ms})
}

/// A group of hooks without matcher.
pub fn group(hooks: Vec<Value>) -> Value {
    json!({"hooks": hooks})
}

/// A command that prints `text` (plain text, so it becomes the hook's `systemMessage`).
pub fn say(text: &str) -> String {
    format!("echo {text}")
}

/// A temporary project dir, HOME dir and scratch dir, removed on drop.
pub struct Project {
    root: TempDir,
    project: PathBuf,
    home: PathBuf,
}

impl Project {
    /// A new, empty project.
    pub fn new() -> Project {
        Project::named("project")
    }

    /// A new project whose directory has the given name (e.g. with a space).
    pub fn named(name: &str) -> Project {
        let root = tempfile::Builder::new()
            .prefix("hookhost-it-")
            .tempdir()
            .expect("temp dir");
        // Canonical, so that paths reported by `pwd -P` compare equal.
        let base = root.path().canonicalize().expect("canonical temp dir");
        let project = base.join(name);
        let home = base.join("home");
        std::fs::create_dir_all(&project).expect("project dir");
        std::fs::create_dir_all(&home).expect("home dir");
        Project {
            root,
            project,
            home,
        }
    }

    /// The project directory.
    pub fn dir(&self) -> &Path {
        &self.project
    }

    /// The HOME of every CLI run.
    pub fn home(&self) -> &Path {
        &self.home
    }

    /// A scratch directory outside the project (the CLI's working directory).
    pub fn outside(&self) -> PathBuf {
        self.root.path().canonicalize().expect("canonical temp dir")
    }

    /// A path inside the project.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.project.join(rel)
    }

    /// Writes a file (creating parent dirs); `rel` is relative to the project unless
    /// absolute.
    pub fn write(&self, rel: impl AsRef<Path>, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.project.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("parent dir");
        }
        std::fs::write(&path, contents).expect("write file");
        path
    }

    /// Reads a file the hooks left behind; panics with a clear message when absent.
    pub fn read(&self, rel: &str) -> String {
        let path = self.project.join(rel);
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("expected {} to exist: {e}", path.display()))
    }

    /// Reads a JSON file the hooks left behind.
    pub fn read_json(&self, rel: &str) -> Value {
        let text = self.read(rel);
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{rel} is not JSON ({e}): {text}"))
    }

    /// Whether a file exists in the project.
    pub fn exists(&self, rel: &str) -> bool {
        self.project.join(rel).exists()
    }

    /// Writes `.llxprt/settings.json` with hooks enabled and these `hooks`.
    pub fn settings(&self, hooks: Value) -> PathBuf {
        self.settings_raw(&json!({"tools": {"enableHooks": true}, "hooks": hooks}))
    }

    /// Writes `.llxprt/settings.json` exactly as given.
    pub fn settings_raw(&self, settings: &Value) -> PathBuf {
        self.settings_text(&serde_json::to_string_pretty(settings).expect("settings JSON"))
    }

    /// Writes `.llxprt/settings.json` as raw text (for broken files).
    pub fn settings_text(&self, text: &str) -> PathBuf {
        self.write(".llxprt/settings.json", text)
    }

    /// Writes a settings file with hooks enabled outside the project (for
    /// `--settings`); returns its path.
    pub fn extra_settings(&self, name: &str, hooks: Value) -> PathBuf {
        let path = self.outside().join(name);
        let settings = json!({"tools": {"enableHooks": true}, "hooks": hooks});
        std::fs::write(&path, serde_json::to_vec_pretty(&settings).expect("JSON")).expect("write");
        path
    }

    /// Writes an executable POSIX `sh` script `hooks/<name>` and returns the command
    /// that runs it (relative: hooks run with cwd = the project dir).
    pub fn script(&self, name: &str, body: &str) -> String {
        self.executable(format!("hooks/{name}"), &format!("#!/bin/sh\n{body}\n"));
        format!("hooks/{name}")
    }

    /// Writes an executable Python 3 script `hooks/<name>` and returns its command.
    pub fn python(&self, name: &str, body: &str) -> String {
        self.executable(
            format!("hooks/{name}"),
            &format!("#!/usr/bin/env python3\n{body}\n"),
        );
        format!("hooks/{name}")
    }

    /// Writes an executable file at `rel` (relative to the project unless absolute).
    pub fn executable(&self, rel: impl AsRef<Path>, contents: &str) -> PathBuf {
        let path = self.write(rel, contents);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        path
    }

    /// A `hookhost` command with the isolated environment; no arguments yet.
    pub fn command(&self) -> Command {
        let mut command = Command::new(BIN);
        command
            .current_dir(self.outside())
            .env("HOME", &self.home)
            .env(
                "LLXPRT_SYSTEM_SETTINGS_PATH",
                self.outside().join("no-system-settings.json"),
            )
            .env_remove("HOOKHOST_LOG")
            .env_remove("LLXPRT_PROJECT_DIR")
            .env_remove("GEMINI_PROJECT_DIR")
            .env_remove("CLAUDE_PROJECT_DIR");
        command
    }

    /// `hookhost fire EVENT --project-dir <project>` with discovered settings.
    pub fn fire(&self, event: &str, input: Value) -> Fired {
        self.fire_with(event, input, &[], &[])
    }

    /// `hookhost fire EVENT --project-dir <project> --settings F…` (exactly these files).
    pub fn fire_settings(&self, event: &str, input: Value, settings: &[&Path]) -> Fired {
        self.fire_with(event, input, settings, &[])
    }

    /// `fire` with explicit settings files (none = discovery) and extra environment.
    pub fn fire_with(
        &self,
        event: &str,
        input: Value,
        settings: &[&Path],
        env: &[(&str, &str)],
    ) -> Fired {
        let mut command = self.command();
        command
            .arg("fire")
            .arg(event)
            .arg("--project-dir")
            .arg(&self.project);
        for file in settings {
            command.arg("--settings").arg(file);
        }
        for (k, v) in env {
            command.env(k, v);
        }
        fire_run(command, event, input)
    }

    /// `hookhost fire EVENT --project-dir <project> FLAGS…` with discovered settings.
    pub fn fire_flags(&self, event: &str, input: Value, flags: &[&str]) -> Fired {
        let mut command = self.command();
        command
            .arg("fire")
            .arg(event)
            .arg("--project-dir")
            .arg(&self.project)
            .args(flags);
        fire_run(command, event, input)
    }

    /// `hookhost trust --project-dir <project> EXTRA…` (e.g. `--list`).
    pub fn trust(&self, extra: &[&str]) -> Run {
        let mut command = self.command();
        command
            .arg("trust")
            .arg("--project-dir")
            .arg(&self.project)
            .args(extra);
        run(command, b"")
    }

    /// `hookhost check --project-dir <project> [--settings F…]`.
    pub fn check(&self, settings: &[&Path]) -> Run {
        let mut command = self.command();
        command.arg("check").arg("--project-dir").arg(&self.project);
        for file in settings {
            command.arg("--settings").arg(file);
        }
        run(command, b"")
    }
}

/// Runs a prepared `hookhost fire` with `input` and parses its one JSON object.
fn fire_run(command: Command, event: &str, input: Value) -> Fired {
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

/// Runs `command` with `stdin`, reading its output concurrently; kills it and panics
/// past [`RUN_LIMIT`].
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

/// Whether a process is alive (a zombie counts as dead: it runs no more code).
pub fn process_alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => false,
        Ok(stat) => {
            let state = stat
                .rsplit(')')
                .next()
                .and_then(|rest| rest.split_whitespace().next());
            !matches!(state, Some("Z" | "X") | None)
        }
    }
}

/// Waits (bounded) until `pid` is gone; returns whether it is.
pub fn wait_gone(pid: i32, within: Duration) -> bool {
    let start = Instant::now();
    while process_alive(pid) {
        if start.elapsed() > within {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

/// Reads a pid a hook wrote into a file of the project.
pub fn read_pid(project: &Project, rel: &str) -> i32 {
    project
        .read(rel)
        .trim()
        .parse()
        .unwrap_or_else(|e| panic!("{rel} holds no pid: {e}"))
}

/// Sends SIGKILL to a process a test's hook started (cleanup only).
pub fn kill_pid(pid: i32) {
    let _ = Command::new("kill")
        .arg("-KILL")
        .arg(pid.to_string())
        .status();
}

/// Calls `count` every `every` on a thread until stopped; yields the largest count
/// seen (e.g. processes running at once).
pub struct MaxSampler {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    handle: std::thread::JoinHandle<usize>,
}

impl MaxSampler {
    /// Starts sampling.
    pub fn start(every: Duration, count: impl Fn() -> usize + Send + 'static) -> MaxSampler {
        use std::sync::atomic::{AtomicBool, Ordering};
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let flag = std::sync::Arc::clone(&stop);
        let handle = std::thread::spawn(move || {
            let mut max = 0;
            while !flag.load(Ordering::Relaxed) {
                max = max.max(count());
                std::thread::sleep(every);
            }
            max
        });
        MaxSampler { stop, handle }
    }

    /// Stops sampling; the maximum.
    pub fn max(self) -> usize {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        self.handle.join().expect("sampler thread")
    }
}
