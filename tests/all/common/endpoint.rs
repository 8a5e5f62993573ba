//! [`Endpoint`]: a real HTTP/1.1 server on a free 127.0.0.1 port, for http and
//! prompt hooks to talk to. It records every request it reads whole (method, path,
//! headers, body) and answers as its handler says: a status, headers and a body,
//! or never ([`Reply::Silent`], a server that hangs). One thread accepts, one
//! thread serves each connection (so a silent one holds up no other); every
//! answer closes its connection. Dropped, it stops accepting and lets go of the
//! connections it holds; a silent connection is let go after [`SILENT_LIMIT`] in
//! any case, so the server always stops by itself.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::Value;

/// The longest a silent answer holds its connection.
const SILENT_LIMIT: Duration = Duration::from_secs(60);

/// One request as the server read it.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub path: String,
    /// Header names lowercased, in the order received.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    /// The first header of this (lowercase) name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "request body is not JSON ({e}): {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }
}

/// What the server answers.
pub enum Reply {
    /// A status line, extra headers and a body.
    Respond {
        status: u16,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    },
    /// Nothing, ever: the request is read and the connection held open.
    Silent,
}

impl Reply {
    /// `status` with a body (`Content-Type: application/json` when it parses as JSON).
    pub fn status(status: u16, body: impl Into<Vec<u8>>) -> Reply {
        let body = body.into();
        let headers = if serde_json::from_slice::<Value>(&body).is_ok() {
            vec![("Content-Type".to_owned(), "application/json".to_owned())]
        } else {
            Vec::new()
        };
        Reply::Respond {
            status,
            headers,
            body,
        }
    }

    /// 200 with this JSON.
    pub fn json(body: &Value) -> Reply {
        Reply::status(200, body.to_string())
    }
}

type Handler = dyn Fn(&Request) -> Reply + Send + Sync;

/// A running server.
pub struct Endpoint {
    port: u16,
    requests: Arc<Mutex<Vec<Request>>>,
    stop: Arc<AtomicBool>,
    acceptor: Option<JoinHandle<()>>,
}

impl Endpoint {
    /// A server answering every request with `handler`'s reply.
    pub fn start(handler: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> Endpoint {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let port = listener.local_addr().expect("local address").port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let acceptor = {
            let (requests, stop) = (Arc::clone(&requests), Arc::clone(&stop));
            std::thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    let (requests, stop, handler) = (
                        Arc::clone(&requests),
                        Arc::clone(&stop),
                        Arc::clone(&handler),
                    );
                    std::thread::spawn(move || serve(stream, &requests, &stop, &*handler));
                }
            })
        };
        Endpoint {
            port,
            requests,
            stop,
            acceptor: Some(acceptor),
        }
    }

    /// A server that answers every request with the same `status` and `body`.
    pub fn answering(status: u16, body: &str) -> Endpoint {
        let body = body.to_owned();
        Endpoint::start(move |_| Reply::status(status, body.clone()))
    }

    /// `http://127.0.0.1:PORT` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// The requests read so far.
    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().expect("requests").clone()
    }

    /// The one request read so far; panics unless there is exactly one.
    pub fn only_request(&self) -> Request {
        let mut requests = self.requests();
        assert_eq!(
            requests.len(),
            1,
            "exactly one request expected: {requests:#?}"
        );
        requests.remove(0)
    }
}

impl Drop for Endpoint {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the acceptor, which then sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
    }
}

/// Reads one request from `stream`, records it and answers it.
fn serve(stream: TcpStream, requests: &Mutex<Vec<Request>>, stop: &AtomicBool, handler: &Handler) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    let Some(request) = read_request(&stream) else {
        return;
    };
    let reply = handler(&request);
    requests.lock().expect("requests").push(request);
    match reply {
        Reply::Respond {
            status,
            headers,
            body,
        } => {
            let mut head = format!(
                "HTTP/1.1 {status} {}\r\nContent-Length: {}\r\nConnection: close\r\n",
                reason(status),
                body.len()
            );
            for (name, value) in headers {
                head.push_str(&format!("{name}: {value}\r\n"));
            }
            head.push_str("\r\n");
            let mut stream = &stream;
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
            let _ = stream.flush();
            let _ = stream.shutdown(Shutdown::Write);
        }
        Reply::Silent => {
            let start = Instant::now();
            while !stop.load(Ordering::SeqCst) && start.elapsed() < SILENT_LIMIT {
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}

fn read_request(stream: &TcpStream) -> Option<Request> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut words = line.split_whitespace();
    let (method, path) = (words.next()?.to_owned(), words.next()?.to_owned());
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':')?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Request {
        method,
        path,
        headers,
        body,
    })
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        301 => "Moved Permanently",
        302 => "Found",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        500 => "Internal Server Error",
        _ => "Other",
    }
}
