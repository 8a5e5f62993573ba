//! `hookhost serve --http ADDR`: agent hooks over HTTP/1.1 (hyper), for agents
//! whose hooks can be HTTP calls (Claude Code's `"type": "http"`), with the plugins
//! warm and no process per call.
//!
//! * `POST /hook`: the body is an agent's hook input, answered 200 with the JSON
//!   `hookhost hook` would print ([`Call`]); a block is always a decision in the
//!   body, never a status code — Claude reads a non-2xx answer as a non-blocking
//!   error and lets the call go ahead. `POST /fire/EVENT`: the aggregated result
//!   `hookhost fire EVENT` would print.
//! * Every request needs `Authorization: Bearer TOKEN` (`--token-file` or
//!   `HOOKHOST_TOKEN`; none configured: the server does not start). The token is
//!   checked first, in constant time; without it the answer is 401 and nothing is
//!   read or run. Errors are JSON `{"error": {"code", "message"}}`: 400 (bad JSON,
//!   not a hook input), 404 (path, event), 405, 408 (a body not sent within
//!   [`BODY_TIMEOUT`]), 413 (a body over [`MAX_BODY`]), 500 (a fire that panicked
//!   — on `/hook` it is a failure like any other, so fail-closed still denies).
//! * Loopback only unless `--http-public`. The bound address is printed on stdout,
//!   one line: `hookhost: listening on http://ADDR`.
//! * `--max-in-flight` caps the requests fired at once over all connections (a
//!   client may open many); the others wait in FIFO order before their body is
//!   read. At most [`MAX_CONNECTIONS`](super::listener::MAX_CONNECTIONS)
//!   connections are served at once; one idle for [`HEADER_TIMEOUT`] is closed.
//! * SIGTERM or SIGINT: stop accepting, let in-flight requests finish and be
//!   answered (idle keep-alive connections are closed), exit 0. A client that
//!   goes away mid-request ends only its own connection.

use std::convert::Infallible;
use std::net::{SocketAddr, ToSocketAddrs};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use bytes::Bytes;
use hookhost::HookSystem;
use hookhost::dialect::parse_event;
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};

use super::listener::serve_clients;
use super::session::{Tracker, caught};
use super::{Options, Terminate, reload::Shared};
use crate::agent_hook::{Call, Source, failed};
use crate::fire::{fire_on, prepare};

/// The largest request body: the same bound as a request line of the JSON Lines
/// server (a tool input may carry a whole file).
pub const MAX_BODY: usize = hookhost::bus::MAX_LINE;
/// How long a client may take to send its request headers (then the connection is
/// closed) and, separately, its body (then 408): a stalled client must not hold a
/// connection, or an in-flight slot, for ever.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(30);
/// See [`HEADER_TIMEOUT`].
pub const BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// The environment variable that holds the token when `--token-file` is absent.
pub const TOKEN_ENV: &str = hookhost::TOKEN_ENV;

/// What the command line asked for.
#[derive(Debug, Clone)]
pub struct HttpRequest {
    /// `--http ADDR`.
    pub addr: String,
    /// `--http-public`.
    pub public: bool,
    /// `--token-file FILE`.
    pub token_file: Option<PathBuf>,
    /// `--fail-closed`.
    pub fail_closed: bool,
}

/// A bound listener and the token its requests must carry: everything that can
/// refuse the start, checked before the hooks are built.
pub struct Bound {
    listener: TcpListener,
    token: Token,
    fail_closed: bool,
}

impl Bound {
    /// Reads the token and binds the address (loopback unless `public`).
    pub fn bind(request: &HttpRequest) -> anyhow::Result<Bound> {
        let token = Token::configured(request.token_file.as_deref())?;
        let addr = resolve(&request.addr)?;
        if !request.public && !is_loopback(addr) {
            bail!(
                "--http {}: {} is not a loopback address; anyone who can reach it could \
                 call the hooks with the token. Use 127.0.0.1 or [::1], or pass \
                 --http-public to serve on it anyway",
                request.addr,
                addr.ip()
            );
        }
        let listener = std::net::TcpListener::bind(addr)
            .and_then(|l| l.set_nonblocking(true).map(|()| l))
            .and_then(TcpListener::from_std)
            .with_context(|| format!("--http {}: cannot listen on {addr}", request.addr))?;
        Ok(Bound {
            listener,
            token,
            fail_closed: request.fail_closed,
        })
    }
}

/// Whether only this machine can reach `addr` (an IPv4-mapped loopback included).
fn is_loopback(addr: SocketAddr) -> bool {
    addr.ip().to_canonical().is_loopback()
}

/// `ADDR` as a socket address: `IP:PORT`, `[IPv6]:PORT` or `localhost:PORT`.
fn resolve(addr: &str) -> anyhow::Result<SocketAddr> {
    let mut found = addr.to_socket_addrs().with_context(|| {
        format!("--http {addr}: expected IP:PORT (e.g. 127.0.0.1:7878; port 0 picks one)")
    })?;
    found
        .next()
        .with_context(|| format!("--http {addr}: the name resolves to no address"))
}

/// The bearer token, kept as its SHA-256: comparing digests in constant time hides
/// the token's length as well as its content from a client that times the 401s.
struct Token([u8; 32]);

impl Token {
    /// From `--token-file`, else `HOOKHOST_TOKEN`; neither (or an empty one) refuses
    /// the start.
    fn configured(file: Option<&Path>) -> anyhow::Result<Token> {
        let text = match file {
            Some(path) => read_token_file(path)?,
            None => std::env::var(TOKEN_ENV).unwrap_or_default(),
        };
        let token = text.trim();
        if token.is_empty() {
            let from = match file {
                Some(path) => format!("the token file {} is empty", path.display()),
                None => format!("no token: neither --token-file nor {TOKEN_ENV} is set"),
            };
            bail!(
                "serve --http: {from}; every request must carry `Authorization: Bearer \
                 TOKEN`. Make one, e.g. `openssl rand -hex 32 > ~/.config/hookhost/token`, \
                 and pass --token-file ~/.config/hookhost/token (or set {TOKEN_ENV})"
            );
        }
        Ok(Token(Sha256::digest(token.as_bytes()).into()))
    }

    /// Whether `authorization` is `Bearer <this token>` (scheme case-insensitive).
    fn admits(&self, authorization: Option<&HeaderValue>) -> bool {
        let Some(given) = authorization
            .map(HeaderValue::as_bytes)
            .and_then(|v| v.split_at_checked(7))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case(b"bearer "))
            .map(|(_, token)| token.trim_ascii())
        else {
            return false;
        };
        let digest: [u8; 32] = Sha256::digest(given).into();
        digest.ct_eq(&self.0).into()
    }
}

fn read_token_file(path: &Path) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("--token-file {}: cannot read it", path.display()))?;
    if let Ok(meta) = std::fs::metadata(path)
        && meta.permissions().mode() & 0o077 != 0
    {
        eprintln!(
            "hookhost: warning: the token file {} can be read by other users (chmod 600 it)",
            path.display()
        );
    }
    Ok(text)
}

/// What every request handler shares.
struct State {
    system: Shared,
    token: Token,
    fail_closed: bool,
    /// `--max-in-flight` over all connections.
    permits: Arc<Semaphore>,
    tracker: Tracker,
}

pub async fn serve(
    system: Shared,
    options: &Options,
    bound: Bound,
    term: &mut Terminate,
) -> anyhow::Result<()> {
    let Bound {
        listener,
        token,
        fail_closed,
    } = bound;
    let tracker = Tracker::default();
    let state = Arc::new(State {
        system,
        token,
        fail_closed,
        permits: Arc::new(Semaphore::new(options.max_in_flight.max(1))),
        tracker: tracker.clone(),
    });
    let local = listener.local_addr()?;
    // The one line on stdout: a script (or a test) that asked for port 0 reads the
    // port from it.
    crate::write_stdout(&format!("hookhost: listening on http://{local}\n"));
    serve_clients(listener, &tracker, term, |stream, stop| {
        connection(stream, Arc::clone(&state), stop)
    })
    .await;
    Ok(())
}

/// Serves one connection's requests (HTTP/1.1, keep-alive) until it closes, fails,
/// or the server stops (then the request in progress is finished first).
async fn connection(stream: TcpStream, state: Arc<State>, mut stop: watch::Receiver<bool>) {
    // Answers are small and the client waits for each: no Nagle delay.
    let _ = stream.set_nodelay(true);
    let service = service_fn(move |request| {
        let state = Arc::clone(&state);
        async move { Ok::<_, Infallible>(handle(request, &state).await) }
    });
    let conn = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .serve_connection(TokioIo::new(stream), service);
    let mut conn = std::pin::pin!(conn);
    tokio::select! {
        served = conn.as_mut() => {
            if let Err(e) = served {
                tracing::debug!("http connection ended: {e}");
            }
            return;
        }
        _ = stop.wait_for(|stopped| *stopped) => {}
    }
    conn.as_mut().graceful_shutdown();
    if let Err(e) = conn.await {
        tracing::debug!("http connection ended: {e}");
    }
}

/// What a request asks for.
enum Route {
    Hook,
    Fire(String),
}

/// One request: token, route, body, then the fire.
async fn handle(request: Request<Incoming>, state: &State) -> Response<Full<Bytes>> {
    if !state
        .token
        .admits(request.headers().get(header::AUTHORIZATION))
    {
        let mut response = error(
            StatusCode::UNAUTHORIZED,
            "UNAUTHORIZED",
            "this server needs `Authorization: Bearer TOKEN` with the token it was started with",
        );
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        return response;
    }
    let route = match route(request.method(), request.uri().path()) {
        Ok(route) => route,
        Err(response) => return *response,
    };
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return too_large();
    }
    // In flight from here: a drain waits for a request queued for a slot too.
    let _in_flight = state.tracker.enter();
    // Waiting for a slot before reading the body bounds the memory held by bodies
    // to `--max-in-flight` of them, as the line servers stop reading.
    let Ok(_permit) = Arc::clone(&state.permits).acquire_owned().await else {
        return error(StatusCode::SERVICE_UNAVAILABLE, "INTERNAL", "shutting down");
    };
    let body = Limited::new(request.into_body(), MAX_BODY).collect();
    let body = match tokio::time::timeout(BODY_TIMEOUT, body).await {
        Ok(Ok(body)) => body.to_bytes(),
        Ok(Err(e)) if e.is::<LengthLimitError>() => return too_large(),
        Ok(Err(e)) => {
            return error(
                StatusCode::BAD_REQUEST,
                "INVALID_REQUEST",
                format!("cannot read the request body: {e}"),
            );
        }
        Err(_) => {
            return error(
                StatusCode::REQUEST_TIMEOUT,
                "TIMEOUT",
                format!("the request body did not arrive within {BODY_TIMEOUT:?}"),
            );
        }
    };
    let system = state.system.current();
    match route {
        Route::Hook => hook(&system, &body, state.fail_closed).await,
        Route::Fire(name) => fire(&system, &name, &body).await,
    }
}

/// `POST /hook` and `POST /fire/EVENT`; anything else is 404, another method 405.
/// (The refusal is boxed: a `Response` is large and the `Ok` path is the hot one.)
fn route(method: &Method, path: &str) -> Result<Route, Box<Response<Full<Bytes>>>> {
    let route = match path {
        "/hook" => Route::Hook,
        _ => match path.strip_prefix("/fire/") {
            Some(name) if !name.is_empty() && !name.contains('/') => Route::Fire(name.to_owned()),
            _ => {
                return Err(Box::new(error(
                    StatusCode::NOT_FOUND,
                    "NOT_FOUND",
                    format!(
                        "no such endpoint: {path}; this server answers POST /hook and POST /fire/EVENT"
                    ),
                )));
            }
        },
    };
    if method != Method::POST {
        let mut response = error(
            StatusCode::METHOD_NOT_ALLOWED,
            "METHOD_NOT_ALLOWED",
            format!("{method} {path}: only POST is served"),
        );
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("POST"));
        return Err(Box::new(response));
    }
    Ok(route)
}

/// `POST /hook`: `hookhost hook`'s answer, always as a JSON body.
async fn hook(system: &HookSystem, body: &[u8], fail_closed: bool) -> Response<Full<Bytes>> {
    let (call, input) = match Call::parse(body, Source::Body) {
        Ok(parsed) => parsed,
        Err(e) => return error(StatusCode::BAD_REQUEST, e.code, e.message),
    };
    let fail_closed = fail_closed || system.fail_closed();
    // A panic is a failure of the hooks like any other: answered as one (a deny
    // when fail-closed), not as a 500 that Claude would let pass.
    let result = caught(call.fire(system, input))
        .await
        .unwrap_or_else(|what| {
            failed(format!("hookhost failed while firing this request: {what}"))
        });
    json_response(
        StatusCode::OK,
        serde_json::to_vec(&call.reply_json(result, fail_closed)),
    )
}

/// `POST /fire/EVENT`: `hookhost fire EVENT`'s result.
async fn fire(system: &HookSystem, name: &str, body: &[u8]) -> Response<Full<Bytes>> {
    let Some((event, dialect)) = parse_event(name) else {
        let message = crate::args::parse_event_arg(name)
            .err()
            .unwrap_or_else(|| format!("unknown event {name:?}"));
        return error(StatusCode::NOT_FOUND, "UNKNOWN_EVENT", message);
    };
    let mut input = match parse_input(body) {
        Ok(input) => input,
        Err(response) => return *response,
    };
    let notes = prepare(event, dialect, &mut input);
    match caught(fire_on(system, event, input, notes)).await {
        Ok(result) => json_response(StatusCode::OK, serde_json::to_vec(&result)),
        Err(what) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "INTERNAL",
            format!("hookhost failed while firing this request: {what}"),
        ),
    }
}

/// The body of `/fire/EVENT`: a JSON object, or nothing (`{}`, as `fire` reads an
/// empty stdin).
fn parse_input(body: &[u8]) -> Result<Map<String, Value>, Box<Response<Full<Bytes>>>> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Map::new());
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(input)) => Ok(input),
        Ok(_) => Err(Box::new(error(
            StatusCode::BAD_REQUEST,
            "INVALID_REQUEST",
            "the request body must be one JSON object with the event's fields",
        ))),
        Err(e) => Err(Box::new(error(
            StatusCode::BAD_REQUEST,
            "INVALID_JSON",
            format!("the request body is not valid JSON: {e}"),
        ))),
    }
}

fn too_large() -> Response<Full<Bytes>> {
    error(
        StatusCode::PAYLOAD_TOO_LARGE,
        "BODY_TOO_LARGE",
        format!("request body longer than {MAX_BODY} bytes"),
    )
}

/// An error answer: `{"error": {"code", "message"}}`.
fn error(status: StatusCode, code: &str, message: impl Into<String>) -> Response<Full<Bytes>> {
    json_response(
        status,
        serde_json::to_vec(&json!({"error": {"code": code, "message": message.into()}})),
    )
}

/// A JSON answer (`body` serialised by the caller, so that any serialisable type
/// does without an intermediate `Value`).
fn json_response(status: StatusCode, body: serde_json::Result<Vec<u8>>) -> Response<Full<Bytes>> {
    let (status, bytes) = match body {
        Ok(bytes) => (status, bytes),
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            json!({"error": {"code": "INTERNAL", "message": format!("cannot write the answer: {e}")}})
                .to_string()
                .into_bytes(),
        ),
    };
    let mut response = Response::new(Full::new(Bytes::from(bytes)));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_exact_bearer_token_is_admitted() {
        let token = Token(Sha256::digest(b"s3cret").into());
        let admits = |v: &'static str| token.admits(Some(&HeaderValue::from_static(v)));
        assert!(admits("Bearer s3cret"));
        assert!(admits("bearer s3cret"));
        assert!(!admits("Bearer s3cre"));
        assert!(!admits("Bearer s3crett"));
        assert!(!admits("Basic s3cret"));
        assert!(!admits("s3cret"));
        assert!(!token.admits(None));
    }

    #[test]
    fn only_loopback_addresses_count_as_private() {
        let loopback = |addr: &str| resolve(addr).map(is_loopback).unwrap();
        assert!(loopback("127.0.0.1:0"));
        assert!(loopback("127.0.0.2:7878"));
        assert!(loopback("[::1]:0"));
        assert!(loopback("[::ffff:127.0.0.1]:0"));
        assert!(!loopback("0.0.0.0:0"));
        assert!(!loopback("[::]:0"));
        assert!(!loopback("192.168.1.10:7878"));
        assert!(resolve("not an address").is_err());
    }
}
