//! [`HttpServer`]: a running `hookhost serve --http 127.0.0.1:0` (its address read
//! from the line it prints on stdout), and a minimal HTTP/1.1 client over a raw
//! `TcpStream` — one connection per request, `Connection: close` — that can also
//! send what no well-behaved client would (a body cut short, a lying length).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Child, ExitStatus, Stdio};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{Project, exit_within};

/// The token every [`HttpServer`] is started with (from a 0600 file).
pub const TOKEN: &str = "test-token-6f1c2a9e";

/// Longest wait for the server to start or to answer; past it, it is hung (a bug).
const LIMIT: Duration = Duration::from_secs(30);

/// A running `hookhost serve --http`.
pub struct HttpServer {
    pub child: Child,
    pub addr: SocketAddr,
}

/// One HTTP answer.
#[derive(Debug)]
pub struct HttpReply {
    pub status: u16,
    /// The header lines, as received (lower-case names from hyper).
    pub headers: String,
    /// The body as JSON (`Value::Null` when it is not JSON).
    pub body: Value,
}

impl HttpReply {
    /// `error.code` of an error answer.
    pub fn code(&self) -> &str {
        self.body["error"]["code"].as_str().unwrap_or_default()
    }
}

impl HttpServer {
    /// `hookhost serve --http 127.0.0.1:0 --project-dir <project> --token-file F`
    /// plus `args`, `HOOKHOST_TOKEN` unset; waits for its address.
    pub fn start(project: &Project, args: &[&str]) -> HttpServer {
        let token_file = token_file(project);
        let mut command = project.command();
        command
            .args(["serve", "--http", "127.0.0.1:0", "--project-dir"])
            .arg(project.dir())
            .arg("--token-file")
            .arg(&token_file)
            .args(args)
            .env_remove("HOOKHOST_TOKEN")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        let mut child = command.spawn().expect("spawn hookhost serve --http");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = match rx.recv_timeout(LIMIT) {
            Ok(line) => line,
            Err(_) => {
                let _ = child.kill();
                panic!("hookhost serve --http printed no address within {LIMIT:?}");
            }
        };
        let addr = line
            .trim()
            .strip_prefix("hookhost: listening on http://")
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("not an address line: {line:?}"));
        HttpServer { child, addr }
    }

    /// `POST path` with `body`, authorised with `token` (none: no header).
    pub fn post(&self, path: &str, token: Option<&str>, body: &str) -> HttpReply {
        request(self.addr, &post_bytes(path, token, body))
    }

    /// `POST path` with the right token.
    pub fn post_ok(&self, path: &str, body: &str) -> HttpReply {
        self.post(path, Some(TOKEN), body)
    }

    /// Sends SIGTERM and waits (bounded) for the exit.
    pub fn terminate(mut self) -> ExitStatus {
        signal_term(&self.child);
        exit_within(&mut self.child, Instant::now(), LIMIT)
            .unwrap_or_else(|| panic!("hookhost serve --http did not exit after SIGTERM"))
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// SIGTERM to `child`.
pub fn signal_term(child: &Child) {
    let pid = rustix::process::Pid::from_raw(child.id() as i32).expect("a pid");
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).expect("SIGTERM");
}

/// Writes the token to a 0600 file outside the project.
pub fn token_file(project: &Project) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = project.outside().join("token");
    std::fs::write(&path, format!("{TOKEN}\n")).expect("token file");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    path
}

/// The bytes of `POST path` with a JSON `body`, `Connection: close`.
pub fn post_bytes(path: &str, token: Option<&str>, body: &str) -> Vec<u8> {
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n{auth}\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Sends `raw` on a new connection and reads the answer until the server closes.
pub fn request(addr: SocketAddr, raw: &[u8]) -> HttpReply {
    let mut stream = TcpStream::connect_timeout(&addr, LIMIT).expect("connect");
    stream.set_read_timeout(Some(LIMIT)).expect("read timeout");
    stream
        .set_write_timeout(Some(LIMIT))
        .expect("write timeout");
    stream.write_all(raw).expect("send the request");
    let mut answer = Vec::new();
    // A server that answers without reading all of a body may reset the
    // connection after its answer: what arrived before counts.
    if let Err(e) = stream.read_to_end(&mut answer) {
        assert!(!answer.is_empty(), "no answer: {e}");
    }
    parse(&answer)
}

fn parse(answer: &[u8]) -> HttpReply {
    let text = String::from_utf8_lossy(answer);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("not an HTTP answer: {text:?}"));
    let (status_line, headers) = head.split_once("\r\n").unwrap_or((head, ""));
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {status_line:?}"));
    HttpReply {
        status,
        headers: headers.to_owned(),
        body: serde_json::from_str(body).unwrap_or(Value::Null),
    }
}
