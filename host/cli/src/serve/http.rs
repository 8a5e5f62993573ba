//! `hookhost serve --http ADDR`: agent hooks over HTTP/1.1 (hyper), for agents
//! whose hooks can be HTTP calls (Claude Code's `"type": "http"`), with the plugins
//! warm and no process per call.
//!
//! * `POST /hook`: the body is an agent's hook input, answered 200 with the JSON
//!   `hookhost hook` would print ([`AgentCall`]); a block is always a decision in the
//!   body, never a status code — Claude reads a non-2xx answer as a non-blocking
//!   error and lets the call go ahead. `POST /fire/EVENT`: the aggregated result
//!   `hookhost fire EVENT` would print.
//! * Every request needs `Authorization: Bearer TOKEN` (`--token-file` or
//!   `HOOKHOST_TOKEN`; none configured: the server does not start). The token is
//!   checked first, in constant time; without it the answer is 401 (and the
//!   connection is closed) and nothing is read or run. Errors are JSON
//!   `{"error": {"code", "message"}}`: 400 (bad JSON, not a hook input), 404
//!   (path, event), 405, 408 (a body not sent within [`BODY_TIMEOUT`]), 413 (a body
//!   over [`MAX_BODY`]), 500 (a fire that panicked — on `/hook` it is a failure
//!   like any other, so fail-closed still denies).
//! * With `--fail-closed` (or `tools.hookFailClosed`), a `/hook` body that cannot
//!   be read — not JSON, nested too deep, too large, cut short, late, not a hook
//!   input — is answered 200 with a deny naming why, in the form of the event it
//!   names as far as it can be read (else `decision: "block"`): a 4xx would be a
//!   non-blocking error to Claude, and the tool call would run.
//! * Loopback only unless `--http-public`. The bound address is printed on stdout,
//!   one line: `hookhost: listening on http://ADDR`.
//! * `--max-in-flight` caps the requests fired at once over all connections (a
//!   client may open many); the others wait in FIFO order before their body is
//!   read. Only connections whose request carried the token hold one of the
//!   [`MAX_CONNECTIONS`](super::listener::MAX_CONNECTIONS) connection slots; the
//!   others are bounded apart and the oldest is closed first
//!   ([`super::admission`]), so clients without the token cannot starve those
//!   with it. A connection that sends no request headers for [`HEADER_TIMEOUT`]
//!   is closed.
//! * SIGTERM or SIGINT: stop accepting, let in-flight requests finish and be
//!   answered (idle keep-alive connections are closed), exit 0. A client that
//!   goes away mid-request ends only its own connection.

use std::convert::Infallible;
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use bytes::Bytes;
use hookhost::HookSystem;
use hookhost::dialect::{AgentCall, CallSource, parse_event};
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};

use super::admission::{Admission, Ticket, pending_bound};
use super::listener::{MAX_CONNECTIONS, serve_clients};
use super::reply::{self, MAX_BODY, Refusal};
use super::session::{Tracker, caught};
use super::token::Token;
use super::{Options, Terminate, reload::Shared};
use crate::agent_hook::{failed, log_warnings};

/// How long a client may take to send its request headers (then the connection is
/// closed) and, separately, its body (then 408): a stalled client must not hold a
/// connection, or an in-flight slot, for ever.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(30);
/// See [`HEADER_TIMEOUT`].
pub const BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// Connections that may be told to close but not be done yet, beyond the pending
/// and admitted ones: the accept loop waits only if more are.
const CLOSING: usize = 64;

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

/// What every request handler shares.
struct State {
    system: Shared,
    token: Token,
    fail_closed: bool,
    /// `--max-in-flight` over all connections.
    permits: Arc<Semaphore>,
    tracker: Tracker,
}

impl State {
    /// Whether an unreadable `/hook` body is a deny: `--fail-closed`, or the
    /// settings' `tools.hookFailClosed` as they are now.
    fn fail_closed(&self) -> bool {
        self.fail_closed || self.system.current().fail_closed()
    }
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
    let max_pending = pending_bound();
    let admission = Admission::new(max_pending, MAX_CONNECTIONS);
    let local = listener.local_addr()?;
    // The one line on stdout: a script (or a test) that asked for port 0 reads the
    // port from it.
    crate::write_stdout(&format!("hookhost: listening on http://{local}\n"));
    // The admission bounds the connections; the accept loop's own bound only
    // covers those told to close that have not finished yet.
    let max_clients = max_pending + MAX_CONNECTIONS + CLOSING;
    serve_clients(listener, max_clients, &tracker, term, |stream, stop| {
        // Here, on the accept loop: the oldest pending connection is told to close
        // before the next client is accepted.
        let ticket = admission.enter();
        connection(stream, Arc::clone(&state), ticket, stop)
    })
    .await;
    Ok(())
}

/// Serves one connection's requests (HTTP/1.1, keep-alive) until it closes, fails,
/// is closed to make room while not admitted ([`super::admission`]), or the server
/// stops (then the request in progress is finished first).
async fn connection(
    stream: TcpStream,
    state: Arc<State>,
    ticket: Ticket,
    mut stop: watch::Receiver<bool>,
) {
    // Answers are small and the client waits for each: no Nagle delay.
    let _ = stream.set_nodelay(true);
    let ticket = Arc::new(ticket);
    let service = service_fn({
        let ticket = Arc::clone(&ticket);
        move |request| {
            let state = Arc::clone(&state);
            let ticket = Arc::clone(&ticket);
            async move { Ok::<_, Infallible>(handle(request, &state, &ticket).await) }
        }
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
        () = ticket.evicted() => {
            tracing::debug!("closing a connection without the token to make room");
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

/// One request: token, admission, route, body, then the fire.
async fn handle(
    request: Request<Incoming>,
    state: &State,
    ticket: &Ticket,
) -> Response<Full<Bytes>> {
    if !state
        .token
        .admits(request.headers().get(header::AUTHORIZATION))
    {
        return reply::unauthorized();
    }
    if !ticket.admit().await {
        return reply::error(StatusCode::SERVICE_UNAVAILABLE, "INTERNAL", "closing");
    }
    let route = match route(request.method(), request.uri().path()) {
        Ok(route) => route,
        Err(response) => return *response,
    };
    // Under fail-closed a `/hook` whose body cannot be read is a deny, not a 4xx.
    let refuse = |refusal: Refusal| match route {
        Route::Hook if state.fail_closed() => reply::unreadable(&[], &refusal.message),
        _ => refusal.response(),
    };
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return refuse(Refusal::too_large());
    }
    // In flight from here: a drain waits for a request queued for a slot too.
    let _in_flight = state.tracker.enter();
    // Waiting for a slot before reading the body bounds the memory held by bodies
    // to `--max-in-flight` of them, as the line servers stop reading.
    let Ok(_permit) = Arc::clone(&state.permits).acquire_owned().await else {
        return reply::error(StatusCode::SERVICE_UNAVAILABLE, "INTERNAL", "shutting down");
    };
    let body = match read_body(request.into_body()).await {
        Ok(body) => body,
        Err(refusal) => return refuse(refusal),
    };
    let system = state.system.current();
    match route {
        Route::Hook => hook(&system, &body, state.fail_closed).await,
        Route::Fire(name) => fire(&system, &name, &body).await,
    }
}

/// The whole body, at most [`MAX_BODY`] bytes, within [`BODY_TIMEOUT`].
async fn read_body(body: Incoming) -> Result<Bytes, Refusal> {
    let body = Limited::new(body, MAX_BODY).collect();
    match tokio::time::timeout(BODY_TIMEOUT, body).await {
        Ok(Ok(body)) => Ok(body.to_bytes()),
        Ok(Err(e)) if e.is::<LengthLimitError>() => Err(Refusal::too_large()),
        Ok(Err(e)) => Err(Refusal {
            status: StatusCode::BAD_REQUEST,
            code: "INVALID_REQUEST",
            message: format!("cannot read the request body: {e}"),
        }),
        Err(_) => Err(Refusal {
            status: StatusCode::REQUEST_TIMEOUT,
            code: "TIMEOUT",
            message: format!("the request body did not arrive within {BODY_TIMEOUT:?}"),
        }),
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
                return Err(Box::new(reply::error(
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
        let mut response = reply::error(
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
    let fail_closed = fail_closed || system.fail_closed();
    let (call, input) = match AgentCall::parse(body, CallSource::Body) {
        Ok(parsed) => parsed,
        Err(e) if fail_closed => return reply::unreadable(body, &e.message),
        Err(e) => return reply::error(StatusCode::BAD_REQUEST, e.code, e.message),
    };
    // A panic is a failure of the hooks like any other: answered as one (a deny
    // when fail-closed), not as a 500 that Claude would let pass.
    let result = caught(system.fire_call(&call, input))
        .await
        .unwrap_or_else(|what| {
            failed(format!("hookhost failed while firing this request: {what}"))
        });
    log_warnings(&result);
    reply::json_response(
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
        return reply::error(StatusCode::NOT_FOUND, "UNKNOWN_EVENT", message);
    };
    let input = match AgentCall::fired_input(body, CallSource::Body) {
        Ok(input) => input,
        Err(e) => return reply::error(StatusCode::BAD_REQUEST, e.code, e.message),
    };
    let call = AgentCall::fired(event, dialect);
    match caught(system.fire_call(&call, input)).await {
        Ok(result) => reply::json_response(StatusCode::OK, serde_json::to_vec(&result)),
        Err(what) => reply::error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "INTERNAL",
            format!("hookhost failed while firing this request: {what}"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
