//! `http/*`: the policy as an `http` hook to a server on 127.0.0.1 — `hook`, a
//! `BeforeTool` fire through `HookSystem::fire` (the hook's client keeps its
//! connection, as under `hookhost serve`) — next to `bare`, the same POST written
//! and its answer read by hand over one kept-alive connection: the server's own
//! time plus the loopback, what any host must pay. The difference is hookhost's
//! overhead (planning, serialising the input, the HTTP client, interpreting the
//! answer, aggregating).
//!
//! The server is a plain HTTP/1.1 keep-alive loop, one thread per connection,
//! implementing the same policy as the other forms: a body naming `/etc` is
//! answered with a block, anything else with `{}`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};

use criterion::{BatchSize, Criterion};
use hookhost::HookEvent;
use serde_json::json;

use crate::support::*;
use crate::{configure, runtime};

pub fn http(c: &mut Criterion) {
    let fx = Fixture::new();
    let rt = runtime();
    let port = serve();
    let url = format!("http://127.0.0.1:{port}/policy");
    let settings = fx.settings(
        "http.json",
        vec![json!({"type": "http", "url": url, "timeout": 10_000})],
        false,
    );
    let system = fx.system(&settings);
    let allowed = rt.block_on(system.fire(HookEvent::BeforeTool, allow_input()));
    assert!(
        allowed.success && !allowed.is_blocked(),
        "{:?}",
        allowed.errors
    );
    let blocked = rt.block_on(system.fire(HookEvent::BeforeTool, block_input()));
    assert!(blocked.is_blocked(), "the http policy must block /etc");

    let input = allow_input();
    let wire = serde_json::to_vec(&input).unwrap();
    let mut group = c.benchmark_group(format!("http{}", backtrace_tag()));
    configure(&mut group, false);
    group.bench_function("hook", |b| {
        b.to_async(&rt).iter_batched(
            || input.clone(),
            |input| system.fire(HookEvent::BeforeTool, input),
            BatchSize::SmallInput,
        )
    });
    let mut client = BareClient::connect(port);
    assert_eq!(client.post(&wire), b"{}");
    group.bench_function("bare", |b| b.iter(|| client.post(&wire)));
    group.finish();
}

/// Starts the policy server on a free loopback port; it lives as long as the
/// bench process.
fn serve() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || answer_all(stream));
        }
    });
    port
}

/// Answers the requests of one connection until the client closes it.
fn answer_all(stream: TcpStream) {
    stream.set_nodelay(true).unwrap();
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    while let Some(body) = read_message(&mut reader) {
        let answer: &[u8] = if body.windows(5).any(|w| w == b"\"/etc") {
            br#"{"decision":"block","reason":"no writes under /etc"}"#
        } else {
            b"{}"
        };
        let mut response = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            answer.len()
        )
        .into_bytes();
        response.extend_from_slice(answer);
        if writer.write_all(&response).is_err() {
            return;
        }
    }
}

/// One HTTP/1.1 message (request or response) with a `Content-Length` body; its
/// body, or `None` at the end of the stream.
fn read_message(reader: &mut BufReader<TcpStream>) -> Option<Vec<u8>> {
    let mut length = 0;
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let trimmed = line.trim_end();
        if trimmed.is_empty() {
            break;
        }
        if let Some((name, value)) = trimmed.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().ok()?;
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(body)
}

/// A hand-written HTTP/1.1 client over one kept-alive connection.
struct BareClient {
    writer: TcpStream,
    reader: BufReader<TcpStream>,
    port: u16,
}

impl BareClient {
    fn connect(port: u16) -> BareClient {
        let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream.set_nodelay(true).unwrap();
        BareClient {
            writer: stream.try_clone().unwrap(),
            reader: BufReader::new(stream),
            port,
        }
    }

    /// POSTs `body` as the hook would and returns the answer's body.
    fn post(&mut self, body: &[u8]) -> Vec<u8> {
        let mut request = format!(
            "POST /policy HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n",
            self.port,
            body.len()
        )
        .into_bytes();
        request.extend_from_slice(body);
        self.writer.write_all(&request).unwrap();
        read_message(&mut self.reader).unwrap()
    }
}
