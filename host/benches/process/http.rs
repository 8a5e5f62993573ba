//! `http round trip: *` and `hook process: *` (issue 26): what one Claude Code
//! `PreToolUse` costs the agent with one plugin policy, three ways —
//!
//! - `POST /hook` to `hookhost serve --http` (Claude's `"type": "http"` hook), a new
//!   TCP connection per request (`Connection: close`), and again over one
//!   kept-alive connection;
//! - `hookhost hook` as a process (Claude's `"type": "command"` hook), spawn to exit;
//! - the same policy as a Python 3 script run as the command hook itself.
//!
//! Two passes, each taking its cases in turns, run by run (`interleaved`), so the
//! machine's drift falls on each alike; `RUST_BACKTRACE` unset:
//!
//! 1. `POST /hook` on a new connection, `hookhost hook`, the Python hook: every
//!    request reaches a server that was idle for the ~30 ms of the two processes
//!    (as an agent's call after it thought), its threads parked — on this VM a
//!    wake-up from idle is a large part of a round trip;
//! 2. the two HTTP cases alone, back to back (a warm server): new connection vs
//!    kept alive.
//!
//! The answers are checked: the plugin allows, so `/hook` answers `{}`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::client::Env;
use crate::support::*;
use crate::timing::{interleaved, stats};

const TOKEN: &str = "bench-token-0123456789abcdef";

pub fn serve_http(env: &mut Env) {
    let wasm = echo_policy_wasm();
    let settings = env
        .fx
        .settings("http-plugin.json", vec![plugin_hook(&wasm, 0)], false);
    let cache = env.fx.root().join("warm-cache");
    let input = claude_input();
    let body = serde_json::to_vec(&input).unwrap();
    let runs = if env.quick { 10 } else { 300 };

    let server = HttpServer::start(env, &settings, &cache);
    // Warm: the compile cache, the server's first fires, one `hook` process.
    for _ in 0..20 {
        assert_eq!(server.post_new(&body), "{}");
    }
    assert_eq!(hook_process(env, &settings, &cache, &body), 0);
    let python = have_python3().then(|| env.fx.python_policy());
    let mut kept = server.connect();

    let mut idle = vec![
        "http round trip: 1 plugin, Claude POST /hook, new connection, server idle before",
        "hook process: 1 plugin, Claude PreToolUse (`hookhost hook`)",
    ];
    if python.is_some() {
        idle.push("hook process: the policy in python3 as the command hook");
    } else {
        println!("hook process: python3 not found, its case skipped");
    }
    let samples = interleaved(idle.len(), runs, 1, |case, _| {
        let start = Instant::now();
        match (case, &python) {
            (0, _) => assert_eq!(server.post_new(&body), "{}"),
            (1, _) => assert_eq!(hook_process(env, &settings, &cache, &body), 0),
            (_, Some(python)) => assert_eq!(python_hook(python, &body), 0),
            (_, None) => unreachable!("no python3 case without python3"),
        }
        start.elapsed()
    });
    let mut idle_medians = push_rows(env, &idle, samples);
    idle_medians.resize(3, f64::NAN);
    let warm = [
        "http round trip: 1 plugin, Claude POST /hook, new connection",
        "http round trip: 1 plugin, Claude POST /hook, kept-alive connection",
    ];
    let samples = interleaved(warm.len(), runs * 10, 1, |case, _| {
        let start = Instant::now();
        match case {
            0 => assert_eq!(server.post_new(&body), "{}"),
            _ => assert_eq!(kept.post(&body), "{}"),
        }
        start.elapsed()
    });
    let warm_medians = push_rows(env, &warm, samples);
    println!(
        "{:<48} idle server, new connection ÷ hook process {:.3}×, ÷ python3 hook {:.3}×; \
         warm: new connection ÷ hook process {:.3}×, kept-alive {:.3}×",
        "http round trip",
        idle_medians[0] / idle_medians[1],
        idle_medians[0] / idle_medians[2],
        warm_medians[0] / idle_medians[1],
        warm_medians[1] / idle_medians[1],
    );
    drop(kept);
    server.stop();
}

/// A row per case; their medians.
fn push_rows(env: &mut Env, names: &[&str], samples: Vec<Vec<Duration>>) -> Vec<f64> {
    let mut medians = Vec::new();
    for (name, mut samples) in names.iter().zip(samples) {
        let row = stats(name, &mut samples);
        medians.push(row["median"].as_f64().unwrap_or(f64::NAN));
        env.results.push(row);
    }
    medians
}

/// Claude Code's stdin for a `Write` the policy allows (the ~300-byte input, plus
/// Claude's fields; `tool_input.path` is what the policy reads).
fn claude_input() -> Value {
    let mut input = allow_input();
    input.insert("hook_event_name".into(), json!("PreToolUse"));
    input.insert("permission_mode".into(), json!("default"));
    input.insert("tool_name".into(), json!("Write"));
    Value::Object(input)
}

/// One `hookhost hook` process with `body` on stdin, spawn to exit; its exit code.
fn hook_process(env: &Env, settings: &Path, cache: &Path, body: &[u8]) -> i32 {
    let mut command = env.command(false);
    command
        .args(["hook", "--settings"])
        .arg(settings)
        .env("CLAUDE_PROJECT_DIR", env.fx.project())
        .env("HOOKHOST_CACHE_DIR", cache)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    finish(command.spawn().unwrap(), body)
}

/// The Python policy as the command hook itself.
fn python_hook(script: &Path, body: &[u8]) -> i32 {
    let child = std::process::Command::new(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    finish(child, body)
}

/// Writes `body` to the child's stdin, reads its stdout, waits: the exit code.
fn finish(mut child: Child, body: &[u8]) -> i32 {
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(body);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    out.status.code().unwrap_or(-1)
}

/// `hookhost serve --http 127.0.0.1:0` with the plugin settings.
struct HttpServer {
    child: Child,
    addr: SocketAddr,
}

impl HttpServer {
    fn start(env: &Env, settings: &Path, cache: &Path) -> HttpServer {
        let mut command = env.command(false);
        command
            .args(["serve", "--http", "127.0.0.1:0", "--project-dir"])
            .arg(env.fx.project())
            .arg("--settings")
            .arg(settings)
            .env("HOOKHOST_CACHE_DIR", cache)
            .env("HOOKHOST_TOKEN", TOKEN)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = command.spawn().unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("hookhost: listening on http://")
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("no address from serve --http: {line:?}"));
        HttpServer { child, addr }
    }

    /// A kept-alive connection.
    fn connect(&self) -> Connection {
        let stream = TcpStream::connect(self.addr).unwrap();
        stream.set_nodelay(true).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        Connection {
            reader: BufReader::new(stream),
            head: String::new(),
        }
    }

    /// One request on a new connection (what a client without a pool does).
    fn post_new(&self, body: &[u8]) -> String {
        self.connect().post_closing(body)
    }

    fn stop(mut self) {
        let pid = rustix::process::Pid::from_raw(self.child.id() as i32).unwrap();
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 connection to the server.
struct Connection {
    reader: BufReader<TcpStream>,
    head: String,
}

impl Connection {
    /// `POST /hook` on this connection, kept alive; the answer's body.
    fn post(&mut self, body: &[u8]) -> String {
        self.send(body, "");
        self.answer()
    }

    /// `POST /hook` with `Connection: close`; the answer's body.
    fn post_closing(mut self, body: &[u8]) -> String {
        self.send(body, "Connection: close\r\n");
        self.answer()
    }

    fn send(&mut self, body: &[u8], extra: &str) {
        let mut request = format!(
            "POST /hook HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {TOKEN}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n{extra}\r\n",
            body.len()
        )
        .into_bytes();
        request.extend_from_slice(body);
        self.reader.get_mut().write_all(&request).unwrap();
    }

    /// Reads one answer: the head up to the blank line, then `Content-Length` bytes.
    fn answer(&mut self) -> String {
        let mut length = 0;
        loop {
            self.head.clear();
            self.reader.read_line(&mut self.head).unwrap();
            let line = self.head.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        self.reader.read_exact(&mut body).unwrap();
        String::from_utf8(body).unwrap()
    }
}
