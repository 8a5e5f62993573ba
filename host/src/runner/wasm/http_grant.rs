//! `wasi:http/outgoing-handler` under the `allowedHosts` grant.
//!
//! wasmtime-wasi-http builds the guest's request; [`HttpGrant::send_request`]
//! decides and sends it:
//!
//! 1. the request's host and port must match an `allowedHosts` entry
//!    ([`HostPattern::allows`]) — otherwise `HTTP-request-denied`;
//! 2. a name is resolved here, once, and an answer in a loopback, private or
//!    link-local range ([`is_internal_address`]) is refused unless that address is
//!    itself listed (an IP literal or a range), so a listed name cannot be pointed
//!    at the local network (DNS rebinding, cloud metadata);
//! 3. the connection goes to the checked address — there is no second lookup —
//!    and, for `https`, through rustls with the system's roots;
//! 4. the response body is cut at [`MAX_RESPONSE_BYTES`] (the guest's stream
//!    errors with `HTTP-response-body-size`);
//! 5. the guest's `request-options` connect and first-byte timeouts apply (the
//!    between-bytes one does not); the hook's `timeout` bounds the whole call.
//!
//! wasi:http never follows redirects: a guest that does sends a new request, which
//! is checked again, so every hop is checked. Denials are error values, never
//! traps, and each adds a line to the call's logs saying why. Time is bounded by
//! the hook's `timeout`: dropping the call drops its connections.

use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Body, Frame};
use http_body_util::BodyExt;
use tokio::net::TcpStream;
use wasmtime_wasi_http::io::TokioIo;
use wasmtime_wasi_http::{Error, RequestOptions, WasiBody, WasiHttpHooks};

use super::logging::CallLogs;
use crate::config::{HostPattern, authority, canonical_address, is_internal_address};

/// The most bytes of one response body a guest can read.
pub const MAX_RESPONSE_BYTES: u64 = 16 * 1024 * 1024;

/// One call's network grant.
#[derive(Debug, Clone)]
pub struct HttpGrant {
    hosts: Arc<[HostPattern]>,
    logs: CallLogs,
}

type Response = http::Response<WasiBody>;
type IoFuture = Box<dyn Future<Output = Result<(), Error>> + Send>;
type SendFuture = Box<dyn Future<Output = Result<(Response, IoFuture), Error>> + Send>;

impl HttpGrant {
    /// The grant of `hosts` (empty: every request is denied), logging to `logs`.
    pub fn new(hosts: Arc<[HostPattern]>, logs: CallLogs) -> HttpGrant {
        HttpGrant { hosts, logs }
    }

    fn deny(&self, why: String) -> Error {
        self.logs
            .push("warn", "hookhost", &format!("request denied: {why}"));
        Error::HttpRequestDenied
    }

    /// The addresses a request to `host:port` may connect to, or why none.
    async fn addresses(&self, host: &str, port: u16) -> Result<Vec<SocketAddr>, Error> {
        let resolved: Vec<SocketAddr> = match host.parse::<IpAddr>() {
            Ok(ip) => vec![SocketAddr::new(ip, port)],
            Err(_) => tokio::net::lookup_host((host, port))
                .await
                .map_err(|e| Error::DnsError {
                    rcode: Some(e.to_string()),
                    info_code: None,
                })?
                .collect(),
        };
        let listed = |ip: IpAddr| self.hosts.iter().any(|h| h.contains_address(ip));
        let (allowed, refused): (Vec<SocketAddr>, Vec<SocketAddr>) = resolved
            .into_iter()
            .partition(|a| !is_internal_address(a.ip()) || listed(a.ip()));
        if allowed.is_empty() {
            let shown: Vec<String> = refused
                .iter()
                .map(|a| canonical_address(a.ip()).to_string())
                .collect();
            return Err(self.deny(format!(
                "{host} resolves to {}, a loopback, private or link-local address not \
                 listed in allowedHosts (list the address itself to allow it)",
                shown.join(", ")
            )));
        }
        Ok(allowed)
    }

    async fn send(
        self,
        mut request: http::Request<WasiBody>,
        options: Option<RequestOptions>,
    ) -> Result<(Response, IoFuture), Error> {
        let uri = request.uri().clone();
        let https = uri.scheme() == Some(&http::uri::Scheme::HTTPS);
        let host = uri
            .host()
            .ok_or(Error::HttpRequestUriInvalid)?
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_ascii_lowercase();
        let port = uri.port_u16().unwrap_or(if https { 443 } else { 80 });
        // What log lines name: no user info or query string (they may carry a
        // secret) — the logs reach trace files and telemetry.
        let at = authority(&host, Some(port));
        let target = format!(
            "{} {}://{at}{}",
            request.method(),
            if https { "https" } else { "http" },
            uri.path()
        );
        if !self.hosts.iter().any(|h| h.allows(&host, port)) {
            let why = if self.hosts.is_empty() {
                format!("{target}: the hook has no \"allowedHosts\"")
            } else {
                format!("{target}: {at} is not in allowedHosts")
            };
            return Err(self.deny(why));
        }
        let addresses = self.addresses(&host, port).await?;
        let options = options.unwrap_or_default();
        // The guest's own timeouts (request-options), within the hook's deadline
        // which bounds everything anyway.
        let connect = connect_any(addresses);
        let stream = within(options.connect_timeout, Error::ConnectionTimeout, connect).await?;
        *request.uri_mut() = origin_form(&uri);
        if https {
            let name = rustls::pki_types::ServerName::try_from(host.clone())
                .map_err(|_| Error::HttpRequestUriInvalid)?;
            let logs = self.logs.clone();
            let handshake = async {
                tokio_rustls::TlsConnector::from(tls_config()?)
                    .connect(name, stream)
                    .await
                    .map_err(|e| {
                        // The guest sees only `TLS-protocol-error`: say why here.
                        logs.push("warn", "hookhost", &format!("{target}: TLS: {e}"));
                        Error::Tls(e)
                    })
            };
            let tls = within(options.connect_timeout, Error::ConnectionTimeout, handshake).await?;
            let exchange = exchange(TokioIo::new(tls), request, self.logs, target);
            within(
                options.first_byte_timeout,
                Error::ConnectionReadTimeout,
                exchange,
            )
            .await
        } else {
            let exchange = exchange(TokioIo::new(stream), request, self.logs, target);
            within(
                options.first_byte_timeout,
                Error::ConnectionReadTimeout,
                exchange,
            )
            .await
        }
    }
}

/// A connection to the first of `addresses` that accepts one.
async fn connect_any(addresses: Vec<SocketAddr>) -> Result<TcpStream, Error> {
    let mut last_error = None;
    for address in addresses {
        match TcpStream::connect(address).await {
            Ok(stream) => return Ok(stream),
            Err(e) => last_error = Some(e),
        }
    }
    Err(last_error.map_or(Error::ConnectionRefused, Error::Connect))
}

/// The request target as sent to the origin server: path and query only.
fn origin_form(uri: &http::Uri) -> http::Uri {
    uri.path_and_query().map_or_else(
        || http::Uri::from_static("/"),
        |p| {
            http::Uri::from_maybe_shared(Bytes::copy_from_slice(p.as_str().as_bytes()))
                .unwrap_or_else(|_| http::Uri::from_static("/"))
        },
    )
}

/// `work`, failing with `timeout` after `limit` if one is set.
async fn within<T>(
    limit: Option<std::time::Duration>,
    timeout: Error,
    work: impl Future<Output = Result<T, Error>>,
) -> Result<T, Error> {
    match limit {
        Some(limit) => tokio::time::timeout(limit, work)
            .await
            .unwrap_or(Err(timeout)),
        None => work.await,
    }
}

/// Sends `request` over `io` (HTTP/1.1) and returns the response, its body capped,
/// and the connection's remaining work.
async fn exchange<I>(
    io: I,
    request: http::Request<WasiBody>,
    logs: CallLogs,
    target: String,
) -> Result<(Response, IoFuture), Error>
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let (mut sender, connection) = hyper::client::conn::http1::handshake(io).await?;
    let mut connection = Box::pin(connection);
    let mut send = std::pin::pin!(sender.send_request(request));
    // The connection must be driven while the response is awaited. A server that
    // answers and closes ends the connection as the response arrives: then the
    // response is already there to take.
    let (response, connection) = tokio::select! {
        biased;
        response = &mut send => (response?, Some(connection)),
        ended = &mut connection => {
            ended?;
            (send.await?, None)
        }
    };
    let response = response.map(|body| {
        CappedBody {
            inner: body,
            left: MAX_RESPONSE_BYTES,
            logs,
            target,
        }
        .boxed_unsync()
    });
    let io: IoFuture = Box::new(async move {
        match connection {
            Some(connection) => connection.await.map_err(Error::from),
            None => Ok(()),
        }
    });
    Ok((response, io))
}

/// The system's root certificates (read once per process), or why there is no
/// TLS configuration.
fn tls_config() -> Result<Arc<rustls::ClientConfig>, Error> {
    static CONFIG: OnceLock<Result<Arc<rustls::ClientConfig>, rustls::Error>> = OnceLock::new();
    CONFIG
        .get_or_init(|| {
            let mut roots = rustls::RootCertStore::empty();
            let found = rustls_native_certs::load_native_certs();
            for problem in &found.errors {
                tracing::warn!("plugins: reading the system's root certificates: {problem}");
            }
            roots.add_parsable_certificates(found.certs);
            let provider = Arc::new(rustls::crypto::ring::default_provider());
            rustls::ClientConfig::builder_with_provider(provider)
                .with_safe_default_protocol_versions()
                .map(|b| Arc::new(b.with_root_certificates(roots).with_no_client_auth()))
        })
        .clone()
        .map_err(|e| Error::Tls(std::io::Error::other(e)))
}

/// A response body that ends with an error past [`MAX_RESPONSE_BYTES`].
struct CappedBody {
    inner: hyper::body::Incoming,
    left: u64,
    logs: CallLogs,
    target: String,
}

impl Body for CappedBody {
    type Data = Bytes;
    type Error = Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Error>>> {
        let frame = match Pin::new(&mut self.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => frame,
            Poll::Ready(Some(Err(e))) => return Poll::Ready(Some(Err(Error::from(e)))),
            Poll::Ready(None) => return Poll::Ready(None),
            Poll::Pending => return Poll::Pending,
        };
        if let Some(data) = frame.data_ref() {
            let len = data.len() as u64;
            if len > self.left {
                let message = format!(
                    "{}: the response body was cut at {MAX_RESPONSE_BYTES} bytes",
                    self.target
                );
                self.logs.push("warn", "hookhost", &message);
                self.left = 0;
                return Poll::Ready(Some(Err(Error::HttpResponseBodySize(Some(
                    MAX_RESPONSE_BYTES,
                )))));
            }
            self.left -= len;
        }
        Poll::Ready(Some(Ok(frame)))
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }
}

impl WasiHttpHooks for HttpGrant {
    fn send_request(
        &mut self,
        request: http::Request<WasiBody>,
        options: Option<RequestOptions>,
        _fut: IoFuture,
    ) -> SendFuture {
        Box::new(self.clone().send(request, options))
    }
}
