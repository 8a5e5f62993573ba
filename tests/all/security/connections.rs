//! Unauthenticated connections cannot starve an authenticated one (15): clients
//! without the token that connect to `serve --http` and send nothing, or half a
//! request, hold no slot an authenticated client needs; past the bound on them the
//! oldest is closed, never a connection whose request carried the token.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{HttpServer, Project, TOKEN, cmd, group};

/// How long an authenticated request may take to be answered with the idle clients
/// around: generous (it is a bound on a hang, not a speed). Before the fix it waited
/// for the idle clients' 30 s header timeout.
const ANSWER_BOUND: Duration = Duration::from_secs(10);

/// How long one wave of idle clients may take to connect, at most.
const WAVE_BOUND: Duration = Duration::from_secs(30);

/// How many idle clients the second wave adds: past the server's bound on
/// connections that have not authenticated (1024), so that some are closed.
const MORE: usize = 900;

/// A request on a keep-alive connection (no `Connection: close`).
fn keep_alive_post(path: &str, body: &str) -> Vec<u8> {
    format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {TOKEN}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Sends `raw` on `stream` and reads one answer (by its Content-Length): status
/// and JSON body. The stream's read timeout bounds the wait.
fn exchange(stream: &mut TcpStream, raw: &[u8]) -> (u16, Value) {
    stream.write_all(raw).expect("send");
    let mut seen = Vec::new();
    let mut byte = [0u8; 1];
    while !seen.ends_with(b"\r\n\r\n") {
        let n = stream.read(&mut byte).expect("an answer within the bound");
        assert!(n == 1, "connection closed before an answer: {seen:?}");
        seen.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&seen).to_lowercase();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .expect("content-length");
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).expect("the body");
    (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
}

/// A new connection whose reads are bounded by [`ANSWER_BOUND`].
fn connect(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect_timeout(&addr, ANSWER_BOUND).expect("connect");
    stream.set_read_timeout(Some(ANSWER_BOUND)).unwrap();
    stream
}

/// `count` clients without the token that stay open: every fourth sends half a
/// request line, the others nothing. The wave stops at the first connect that
/// does not succeed within [`ANSWER_BOUND`] (the server stopped accepting), and
/// after [`WAVE_BOUND`] in all.
fn idle_clients(addr: SocketAddr, count: usize) -> Vec<TcpStream> {
    let deadline = Instant::now() + WAVE_BOUND;
    let mut idle = Vec::with_capacity(count);
    for i in 0..count {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        let Ok(mut stream) = TcpStream::connect_timeout(&addr, left.min(ANSWER_BOUND)) else {
            break;
        };
        if i % 4 == 0 {
            let _ = stream.write_all(b"POST /hook HT");
        }
        idle.push(stream);
    }
    idle
}

/// One authenticated request on a new connection; returns the time it took.
fn timed_request(addr: SocketAddr, input: &str) -> Duration {
    let start = Instant::now();
    let mut stream = connect(addr);
    let (status, body) = exchange(&mut stream, &keep_alive_post("/hook", input));
    let took = start.elapsed();
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["systemMessage"], "answered", "{body}");
    took
}

/// Lets this process hold the idle clients: its soft descriptor limit raised to
/// the hard one (as `hookhost` does for itself).
fn raise_descriptor_limit() {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    limit.current = limit.maximum;
    let _ = setrlimit(Resource::Nofile, limit);
}

#[test]
fn unauthenticated_connections_do_not_starve_an_authenticated_request() {
    raise_descriptor_limit();
    let project = Project::new();
    project.settings(json!({"BeforeTool": [group(vec![cmd("echo answered")])]}));
    let server = HttpServer::start(&project, &["--fail-closed"]);
    let input = json!({"hook_event_name": "BeforeTool", "tool_name": "x"}).to_string();
    // An agent's keep-alive connection, authenticated before the flood.
    let mut agent = connect(server.addr);
    assert_eq!(
        exchange(&mut agent, &keep_alive_post("/hook", &input)).0,
        200
    );

    let mut idle = idle_clients(server.addr, 256);
    assert_eq!(idle.len(), 256, "the server stopped accepting");
    std::thread::sleep(Duration::from_millis(200));
    let took = timed_request(server.addr, &input);
    eprintln!("an authenticated request with 256 idle clients connected: {took:?}");

    idle.extend(idle_clients(server.addr, MORE));
    assert_eq!(idle.len(), 256 + MORE, "the server stopped accepting");
    std::thread::sleep(Duration::from_millis(200));
    let took = timed_request(server.addr, &input);
    eprintln!(
        "an authenticated request with {} idle clients: {took:?}",
        256 + MORE
    );
    // The authenticated keep-alive connection was not the one closed.
    let (status, body) = exchange(&mut agent, &keep_alive_post("/hook", &input));
    assert_eq!(
        (status, &body["systemMessage"]),
        (200, &json!("answered")),
        "{body}"
    );
    drop(idle);
    assert!(server.terminate().success());
}
