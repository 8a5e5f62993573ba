//! [`Server`]: a running `hookhost serve` over stdin and stdout, its response lines
//! read on a thread and waited for with a bound.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{Project, exit_within};

/// A running `hookhost serve` with its response lines arriving on a channel.
pub struct Server {
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

/// Longest wait for one response; past it the server is hung (a bug).
const ANSWER_LIMIT: Duration = Duration::from_secs(30);

impl Server {
    pub fn start(project: &Project) -> Server {
        Server::start_with(project, &[], &[])
    }

    /// `hookhost serve` with extra flags and environment.
    pub fn start_with(project: &Project, args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut command = project.command();
        command
            .arg("serve")
            .arg("--project-dir")
            .arg(project.dir())
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        let mut child = command.spawn().expect("spawn hookhost serve");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Server {
            child,
            stdin,
            lines,
        }
    }

    pub fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write request");
        stdin.flush().expect("flush request");
    }

    pub fn send(&mut self, id: &str, event: &str, input: Value) {
        let request = json!({"correlationId": id, "eventName": event, "input": input});
        self.send_line(&request.to_string());
    }

    pub fn next(&mut self) -> Value {
        let line = match self.lines.recv_timeout(ANSWER_LIMIT) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                panic!("no response from hookhost serve within {ANSWER_LIMIT:?}");
            }
            Err(RecvTimeoutError::Disconnected) => panic!("hookhost serve closed its stdout"),
        };
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("response is not JSON ({e}): {line}"))
    }

    /// Closes stdin and waits (bounded) for the exit code.
    pub fn finish(mut self) -> (i32, Vec<Value>) {
        drop(self.stdin.take());
        let Some(status) = exit_within(&mut self.child, Instant::now(), ANSWER_LIMIT) else {
            panic!("hookhost serve did not exit after EOF");
        };
        let rest = self
            .lines
            .try_iter()
            .map(|l| serde_json::from_str(&l).expect("JSON response"))
            .collect();
        (status.code().expect("exit code"), rest)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
