//! The Unix socket of `hookhost serve --socket`: private (0600, peer credentials),
//! answering each client apart, fair to a good client beside bad ones, and draining
//! requests in flight on SIGTERM.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{Project, cmd, exit_within};

/// `hookhost serve --socket PATH`, stopped (SIGKILL) on drop.
struct SocketServer {
    child: std::process::Child,
    path: PathBuf,
}

impl SocketServer {
    fn start(p: &Project, args: &[&str], env: &[(&str, &str)]) -> SocketServer {
        let path = p.outside().join("hookhost.sock");
        let mut command = p.command();
        command
            .arg("serve")
            .arg("--project-dir")
            .arg(p.dir())
            .arg("--socket")
            .arg(&path)
            .args(args)
            .envs(env.iter().copied())
            .stdin(std::process::Stdio::null());
        let child = command.spawn().unwrap();
        let start = Instant::now();
        while UnixStream::connect(&path).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "the socket never appeared"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        SocketServer { child, path }
    }

    fn connect(&self) -> Client {
        Client::new(UnixStream::connect(&self.path).unwrap())
    }

    fn terminate(&mut self) -> i32 {
        let pid = rustix::process::Pid::from_raw(self.child.id() as i32).unwrap();
        rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
        let status = exit_within(&mut self.child, Instant::now(), Duration::from_secs(30))
            .expect("no exit after SIGTERM");
        status.code().unwrap_or(-1)
    }
}

impl Drop for SocketServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One socket client: writes requests, reads answers with a bound.
struct Client {
    stream: UnixStream,
    reader: BufReader<UnixStream>,
}

impl Client {
    fn new(stream: UnixStream) -> Client {
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        let reader = BufReader::new(stream.try_clone().unwrap());
        Client { stream, reader }
    }

    fn send(&mut self, id: &str, input: &Value) {
        let request = json!({"correlationId": id, "eventName": "BeforeTool", "input": input});
        writeln!(self.stream, "{request}").unwrap();
    }

    fn next(&mut self) -> Value {
        let mut line = String::new();
        let n = self.reader.read_line(&mut line).expect("an answer in time");
        assert!(n > 0, "the server closed the connection");
        serde_json::from_str(&line).unwrap()
    }
}

fn fast_and_slow(p: &Project) {
    p.settings(json!({"BeforeTool": [
        {"matcher": "fast", "hooks": [cmd("echo fast")]},
        {"matcher": "slow", "hooks": [cmd("sleep 1; echo slow")]},
    ]}));
}

/// The socket is 0600; each client gets its own answers; a stranger (another uid)
/// is refused by its peer credentials even when the mode lets it connect.
#[test]
fn the_socket_is_private_and_answers_each_client() {
    let p = Project::new();
    fast_and_slow(&p);
    let server = SocketServer::start(&p, &[], &[]);
    let mode = std::fs::metadata(&server.path)
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "socket mode {mode:o}");
    let mut a = server.connect();
    let mut b = server.connect();
    a.send("a1", &json!({"tool_name": "slow"}));
    b.send("b1", &json!({"tool_name": "fast"}));
    let answer = b.next();
    assert_eq!(answer["correlationId"], "b1");
    assert_eq!(answer["output"]["finalOutput"]["systemMessage"], "fast");
    let answer = a.next();
    assert_eq!(answer["correlationId"], "a1");
    assert_eq!(answer["output"]["finalOutput"]["systemMessage"], "slow");

    if rustix::process::geteuid().is_root() && Path::new("/usr/bin/python3").exists() {
        // Loosen the mode so that only the peer check stands in the way.
        std::fs::set_permissions(&server.path, std::fs::Permissions::from_mode(0o666)).unwrap();
        let mut dir = server.path.parent().unwrap().to_path_buf();
        while dir != Path::new("/") {
            let mode = std::fs::metadata(&dir).unwrap().permissions().mode();
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(mode | 0o011)).unwrap();
            dir.pop();
        }
        let script = r#"
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
# The refusal comes unasked, and the server closes right after it.
print(s.makefile().readline().strip())
try:
    s.sendall(b'{"correlationId":"x","eventName":"BeforeTool","input":{"tool_name":"fast"}}\n')
except OSError:
    pass
"#;
        let out = std::os::unix::process::CommandExt::uid(
            std::process::Command::new("/usr/bin/python3")
                .arg("-c")
                .arg(script)
                .arg(&server.path),
            65534,
        )
        .output()
        .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let answer: Value = serde_json::from_str(text.trim())
            .unwrap_or_else(|e| panic!("{e}: {text} {}", String::from_utf8_lossy(&out.stderr)));
        assert_eq!(answer["error"]["code"], "FORBIDDEN", "{answer}");
        assert!(answer.get("output").is_none());
    } else {
        println!("peer-credential check skipped: needs root and /usr/bin/python3");
    }
}

/// A client that floods and never reads, one that vanishes mid-request and one that
/// is silent cannot stall another: it gets its answers promptly.
#[test]
fn bad_clients_do_not_stall_a_good_one() {
    let p = Project::new();
    fast_and_slow(&p);
    let server = SocketServer::start(&p, &["--max-in-flight", "4"], &[]);
    // Floods 2,000 requests (big ones, so the socket buffers fill) and never reads.
    let flooder = {
        let mut stream = UnixStream::connect(&server.path).unwrap();
        stream
            .set_write_timeout(Some(Duration::from_secs(2)))
            .unwrap();
        std::thread::spawn(move || {
            let padding = "p".repeat(16 * 1024);
            for i in 0..2_000 {
                let request = json!({"correlationId": format!("f{i}"), "eventName": "BeforeTool",
                    "input": {"tool_name": "fast", "padding": padding}});
                if writeln!(stream, "{request}").is_err() {
                    break;
                }
            }
            stream
        })
    };
    // Vanishes with a slow request in flight.
    {
        let mut gone = server.connect();
        gone.send("gone", &json!({"tool_name": "slow"}));
    }
    let _silent = server.connect();
    std::thread::sleep(Duration::from_millis(300));
    let mut good = server.connect();
    for i in 0..20 {
        let id = format!("g{i}");
        let start = Instant::now();
        good.send(&id, &json!({"tool_name": "fast"}));
        let answer = good.next();
        assert_eq!(answer["correlationId"], id.as_str());
        assert_eq!(answer["output"]["finalOutput"]["systemMessage"], "fast");
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{:?}",
            start.elapsed()
        );
    }
    let _flooder = flooder.join().unwrap();
}

/// SIGTERM: requests in flight finish and are answered, then the server exits 0 and
/// removes its socket.
#[test]
fn sigterm_drains_in_flight_requests() {
    let p = Project::new();
    fast_and_slow(&p);
    let mut server = SocketServer::start(&p, &[], &[]);
    let mut client = server.connect();
    client.send("slow-1", &json!({"tool_name": "slow"}));
    std::thread::sleep(Duration::from_millis(300));
    let waiter = std::thread::spawn(move || client.next());
    assert_eq!(server.terminate(), 0);
    let answer = waiter.join().unwrap();
    assert_eq!(answer["correlationId"], "slow-1");
    assert_eq!(answer["output"]["finalOutput"]["systemMessage"], "slow");
    assert!(!server.path.exists(), "the socket was not removed");
}
