//! How the bench starts `hookhost` and talks to it: [`Env`] (the fixture, the
//! environment every process gets, the rows measured so far) starts `hookhost fire`
//! and `hookhost serve`; [`Server`] is the client of a `serve` (or of `cat`, the
//! pipe floor) over its stdin and stdout, and reads its memory and context switches
//! from `/proc`. Nothing here is timed by itself: the measurements time its calls.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::Fixture;

/// The binary measured: `$HOOKHOST_BIN` (scripts/bench.sh points it at an
/// installed copy of the release build), else the one cargo built with the bench.
pub fn bin() -> PathBuf {
    std::env::var_os("HOOKHOST_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_hookhost")))
}

/// The state of one run of the bench.
pub struct Env {
    pub fx: Fixture,
    /// `HOME` of every process (an empty dir): the user's own settings stay out.
    pub home: PathBuf,
    /// The rows of `process.json`, in the order measured.
    pub results: Vec<Value>,
    pub quick: bool,
}

impl Env {
    /// `hookhost` in the fixture's root with a clean environment: its own `HOME`, no
    /// system settings, no logging, `RUST_BACKTRACE` as asked.
    pub fn command(&self, backtrace: bool) -> Command {
        let mut command = Command::new(bin());
        command
            .current_dir(self.fx.root())
            .env("HOME", &self.home)
            .env(
                "LLXPRT_SYSTEM_SETTINGS_PATH",
                self.fx.root().join("no-system-settings.json"),
            )
            .env_remove("HOOKHOST_LOG")
            .env_remove("RUST_LIB_BACKTRACE");
        if backtrace {
            command.env("RUST_BACKTRACE", "1");
        } else {
            command.env_remove("RUST_BACKTRACE");
        }
        command
    }

    /// One `hookhost fire BeforeTool` with `input` on stdin, timed from spawn to
    /// exit; its exit code.
    pub fn fire_once(
        &self,
        settings: &Path,
        cache: &Path,
        backtrace: bool,
        input: &[u8],
    ) -> (Duration, i32) {
        let mut command = self.command(backtrace);
        command
            .args(["fire", "BeforeTool", "--project-dir"])
            .arg(self.fx.project())
            .arg("--settings")
            .arg(settings)
            .env("HOOKHOST_CACHE_DIR", cache)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let start = Instant::now();
        let mut child = command.spawn().unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let _ = stdin.write_all(input);
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        let elapsed = start.elapsed();
        (elapsed, out.status.code().unwrap_or(-1))
    }

    /// `cat` behind the same client: the floor of a round trip over two pipes.
    pub fn spawn_cat(&self) -> Server {
        let child = Command::new("cat")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        Server::over(child)
    }

    /// `hookhost serve` with `settings` and the compile cache `cache`.
    pub fn serve(&self, settings: &Path, cache: &Path, backtrace: bool) -> Server {
        let mut command = self.command(backtrace);
        command
            .args(["serve", "--project-dir"])
            .arg(self.fx.project())
            .arg("--settings")
            .arg(settings)
            .env("HOOKHOST_CACHE_DIR", cache)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        Server::over(command.spawn().unwrap())
    }
}

/// A client of a line-per-request server (`hookhost serve`, or `cat`).
pub struct Server {
    pub child: Child,
    /// `None` while a writer thread holds it (the throughput run).
    pub stdin: Option<ChildStdin>,
    pub stdout: BufReader<ChildStdout>,
    /// The last answer (kept to reuse its buffer).
    pub line: String,
}

impl Server {
    /// A client over the piped stdin and stdout of `child`.
    fn over(mut child: Child) -> Server {
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Server {
            child,
            stdin: Some(stdin),
            stdout,
            line: String::new(),
        }
    }

    /// Writes `line` (one request, newline included) and reads one answer.
    pub fn request(&mut self, line: &[u8]) -> &str {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line).unwrap();
        stdin.flush().unwrap();
        self.line.clear();
        self.stdout.read_line(&mut self.line).unwrap();
        &self.line
    }

    /// VmRSS, VmHWM and the anonymous part of VmRSS (RssAnon: what the process
    /// owns; the rest is file-backed, mostly the mapped code of the plugins'
    /// artifacts — shared page cache), in KiB.
    pub fn rss_kib(&self) -> (u64, u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let field = |name: &str| {
            status
                .lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        };
        (field("VmRSS:"), field("VmHWM:"), field("RssAnon:"))
    }

    /// `runs` timed round trips of `line` after `warmup` untimed ones; every
    /// answer must be a success.
    pub fn round_trips(&mut self, line: &[u8], warmup: usize, runs: usize) -> Vec<Duration> {
        for _ in 0..warmup {
            self.request(line);
        }
        (0..runs)
            .map(|_| {
                let start = Instant::now();
                let answer = self.request(line);
                let elapsed = start.elapsed();
                assert!(answer.contains("\"success\":true"), "{answer}");
                elapsed
            })
            .collect()
    }

    /// Voluntary + involuntary context switches of every thread of the server so
    /// far (`/proc/PID/task/*/status`; the process's own line counts only the main
    /// thread).
    pub fn context_switches(&self) -> u64 {
        let tasks = std::fs::read_dir(format!("/proc/{}/task", self.child.id())).unwrap();
        tasks
            .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("status")).ok())
            .flat_map(|status| {
                status
                    .lines()
                    .filter(|l| l.contains("ctxt_switches:"))
                    .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
                    .collect::<Vec<_>>()
            })
            .sum()
    }

    /// Closes stdin (the server's end of input) and waits for the exit.
    pub fn close(mut self) {
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}

/// One request line of the `serve` protocol, newline included.
pub fn request_line(id: usize, event: &str, input: &Value) -> Vec<u8> {
    let mut line =
        serde_json::to_vec(&json!({"correlationId": id, "eventName": event, "input": input}))
            .unwrap();
    line.push(b'\n');
    line
}
