//! A small HTTP client for plugins granted network access.
//!
//! hookhost gives a plugin no network by default. A hook whose settings list
//! hosts in `"allowedHosts"` may send HTTP(S) requests to them through
//! `wasi:http/outgoing-handler@0.2.12`:
//!
//! ```json
//! { "type": "plugin", "path": "policy.wasm",
//!   "allowedHosts": ["api.example.com", "127.0.0.1:8080", "*.corp.example"] }
//! ```
//!
//! Every request is checked against the list; one to any other host fails
//! with [`HttpError::Denied`] (the host answers `HTTP-request-denied`; nothing
//! is sent). Redirects are not followed: a `3xx` response is returned as is,
//! and a guest that follows its `location` sends a new request, which is
//! checked again. The host caps response bodies: past its cap, reading the
//! body fails with [`HttpError::Body`].
//!
//! ```no_run
//! use hookhost_guest::http;
//!
//! # fn main() -> Result<(), http::HttpError> {
//! let answer: hookhost_guest::Value = http::get("https://api.example.com/v1/check")?.json()?;
//! let created = http::Request::post("https://api.example.com/v1/events")
//!     .header("content-type", "application/json")
//!     .body(r#"{"event":"push"}"#)
//!     .send()?;
//! assert!(created.is_success());
//! # let _ = answer;
//! # Ok(())
//! # }
//! ```
//!
//! [`Response::bytes`], [`Response::text`] and [`Response::json`] read the
//! whole body, up to [`DEFAULT_MAX_BODY`] bytes ([`Response::bytes_limited`]
//! takes another limit); [`Response::read_chunk`],
//! [`Response::for_each_chunk`] and the [`std::io::Read`] implementation
//! stream it without keeping it.
//!
//! Only `wasm32-wasip2` plugins have HTTP: on every other target
//! [`Request::send`] fails with [`HttpError::Unsupported`].
//!
//! This module needs the crate's `http` feature:
//!
//! ```toml
//! hookhost-guest = { path = "…/guest-sdk", features = ["http"] }
//! ```
//!
//! It is off by default because the `wasi:http` bindings refer to
//! `wasi:io@0.2.12`, and naming that version at all makes the component import
//! `wasi:io` at 0.2.12 instead of the 0.2.6 of Rust's standard library (the
//! host links both; the import list just changes). A plugin built with the
//! feature that never sends a request imports no `wasi:http`.

use std::fmt;
use std::time::Duration;

use serde::de::DeserializeOwned;

/// How many body bytes [`Response::bytes`], [`Response::text`] and
/// [`Response::json`] accept before failing with [`HttpError::TooLarge`]:
/// 4 MiB. The host's own cap may be lower.
pub const DEFAULT_MAX_BODY: usize = 4 * 1024 * 1024;

/// The most bytes one read of the body asks the host for.
#[cfg_attr(not(all(target_os = "wasi", target_env = "p2")), allow(dead_code))]
const CHUNK: u64 = 64 * 1024;

/// The most bytes one write of a request body hands the host (the
/// `blocking-write-and-flush` limit of `wasi:io/streams`).
#[cfg_attr(not(all(target_os = "wasi", target_env = "p2")), allow(dead_code))]
const WRITE_CHUNK: usize = 4096;

/// Why a request failed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HttpError {
    /// The host refused the request: `host` is not in the hook's
    /// `"allowedHosts"` (`HTTP-request-denied`).
    Denied {
        /// The request's host (and port, when the URL has one).
        host: String,
    },
    /// The URL is not an absolute `http://` or `https://` URL this client
    /// can send.
    InvalidUrl {
        /// The URL as given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The host rejected part of the request (a header, the method, a
    /// timeout) before sending it.
    InvalidRequest(String),
    /// The request failed: the `wasi:http` error code (`connection-refused`,
    /// `DNS-error`, `HTTP-response-timeout`, …) with its details.
    Request {
        /// The error code's WIT name and details.
        code: String,
    },
    /// Reading the response body failed, for example past the host's body
    /// cap (`HTTP-response-body-size`).
    Body {
        /// The error code's WIT name and details, or the stream error's text.
        code: String,
    },
    /// The body is longer than the limit of [`Response::bytes_limited`]
    /// ([`DEFAULT_MAX_BODY`] for [`Response::bytes`]).
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// The body is not what [`Response::text`] or [`Response::json`] expected.
    Decode(String),
    /// This build has no HTTP: the plugin is not a `wasm32-wasip2` component.
    Unsupported,
}

impl fmt::Display for HttpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Denied { host } => write!(
                f,
                "HTTP request to {host} denied: add \"{host}\" to the hook's \"allowedHosts\""
            ),
            Self::InvalidUrl { url, reason } => write!(f, "invalid URL {url:?}: {reason}"),
            Self::InvalidRequest(reason) => write!(f, "invalid HTTP request: {reason}"),
            Self::Request { code } => write!(f, "HTTP request failed: {code}"),
            Self::Body { code } => write!(f, "reading the HTTP response body failed: {code}"),
            Self::TooLarge { limit } => {
                write!(f, "the HTTP response body is larger than {limit} bytes")
            }
            Self::Decode(reason) => write!(f, "unexpected HTTP response body: {reason}"),
            Self::Unsupported => f.write_str("HTTP needs the wasm32-wasip2 plugin build"),
        }
    }
}

impl std::error::Error for HttpError {}

/// An HTTP method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Method {
    /// `GET`
    Get,
    /// `HEAD`
    Head,
    /// `POST`
    Post,
    /// `PUT`
    Put,
    /// `DELETE`
    Delete,
    /// `PATCH`
    Patch,
    /// `OPTIONS`
    Options,
    /// Any other method, by name.
    Other(String),
}

/// The parts of a URL a request needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Target {
    /// `true` for `https`.
    pub(crate) https: bool,
    /// `host` or `host:port`, as written.
    pub(crate) authority: String,
    /// The path and query, at least `/`; the fragment is dropped.
    pub(crate) path_with_query: String,
}

/// Splits an absolute `http://` or `https://` URL.
pub(crate) fn parse_url(url: &str) -> Result<Target, HttpError> {
    let invalid = |reason: &str| HttpError::InvalidUrl {
        url: url.to_owned(),
        reason: reason.to_owned(),
    };
    let (scheme, rest) = url
        .split_once("://")
        .ok_or_else(|| invalid("not an absolute URL (scheme://host/path)"))?;
    let https = if scheme.eq_ignore_ascii_case("https") {
        true
    } else if scheme.eq_ignore_ascii_case("http") {
        false
    } else {
        return Err(invalid("only http and https URLs are supported"));
    };
    let rest = rest.split_once('#').map_or(rest, |(before, _)| before);
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(end);
    if authority.is_empty() {
        return Err(invalid("no host"));
    }
    if authority.contains('@') {
        return Err(invalid(
            "credentials in the URL are not supported; send an authorization header",
        ));
    }
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(invalid("whitespace or control characters"));
    }
    let path_with_query = match path.chars().next() {
        None => "/".to_owned(),
        Some('?') => format!("/{path}"),
        Some(_) => path.to_owned(),
    };
    Ok(Target {
        https,
        authority: authority.to_owned(),
        path_with_query,
    })
}

/// A request to send: method, URL, headers, body.
#[derive(Debug, Clone)]
pub struct Request {
    #[cfg_attr(not(all(target_os = "wasi", target_env = "p2")), allow(dead_code))]
    method: Method,
    url: String,
    headers: Vec<(String, Vec<u8>)>,
    body: Vec<u8>,
    timeout: Option<Duration>,
}

impl Request {
    /// A request with `method` to `url` (absolute, `http` or `https`), no
    /// headers and no body.
    pub fn new(method: Method, url: impl Into<String>) -> Self {
        Self {
            method,
            url: url.into(),
            headers: Vec::new(),
            body: Vec::new(),
            timeout: None,
        }
    }

    /// A `GET` request.
    pub fn get(url: impl Into<String>) -> Self {
        Self::new(Method::Get, url)
    }

    /// A `POST` request.
    pub fn post(url: impl Into<String>) -> Self {
        Self::new(Method::Post, url)
    }

    /// Adds a header (names are case-insensitive; a name may repeat).
    pub fn header(mut self, name: impl Into<String>, value: impl AsRef<[u8]>) -> Self {
        self.headers.push((name.into(), value.as_ref().to_vec()));
        self
    }

    /// Sets the body; a `content-length` header is added when it is sent.
    pub fn body(mut self, body: impl Into<Vec<u8>>) -> Self {
        self.body = body.into();
        self
    }

    /// Sets `value` as a JSON body with `content-type: application/json`.
    pub fn json<T: serde::Serialize + ?Sized>(self, value: &T) -> Result<Self, HttpError> {
        let body =
            serde_json::to_vec(value).map_err(|e| HttpError::InvalidRequest(e.to_string()))?;
        Ok(self.header("content-type", "application/json").body(body))
    }

    /// Asks the host to give up when connecting, the first response byte, or
    /// any gap between body bytes takes longer than `timeout` (the
    /// `request-options` of `wasi:http`). A host may ignore them; the hook's
    /// own `timeout` bounds the whole run in any case.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Sends the request and waits for the response's status and headers;
    /// the body is read from the [`Response`].
    pub fn send(self) -> Result<Response, HttpError> {
        #[cfg(all(target_os = "wasi", target_env = "p2"))]
        {
            wasi::send(self)
        }
        #[cfg(not(all(target_os = "wasi", target_env = "p2")))]
        {
            // The URL is still checked, so the error is the same as on wasip2
            // for a URL that could never be sent.
            parse_url(&self.url)?;
            Err(HttpError::Unsupported)
        }
    }
}

/// Sends `GET url`.
pub fn get(url: &str) -> Result<Response, HttpError> {
    Request::get(url).send()
}

/// The first value of header `name` (case-insensitive) that is UTF-8.
pub(crate) fn find_header<'a>(headers: &'a [(String, Vec<u8>)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case(name))
        .find_map(|(_, v)| std::str::from_utf8(v).ok())
}

#[cfg(all(target_os = "wasi", target_env = "p2"))]
type Body = wasi::Body;
/// No response can exist on this target.
#[cfg(not(all(target_os = "wasi", target_env = "p2")))]
type Body = std::convert::Infallible;

/// A response: status and headers, and a body still to be read.
#[derive(Debug)]
pub struct Response {
    status: u16,
    headers: Vec<(String, Vec<u8>)>,
    body: Body,
}

impl Response {
    /// The status code.
    pub fn status(&self) -> u16 {
        self.status
    }

    /// Whether the status is 2xx.
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// Whether the status is 3xx (this client does not follow redirects).
    pub fn is_redirect(&self) -> bool {
        (300..400).contains(&self.status)
    }

    /// Every header, in the order received (names in lower case, as the host
    /// gives them).
    pub fn headers(&self) -> &[(String, Vec<u8>)] {
        &self.headers
    }

    /// The first value of header `name` (case-insensitive), if it is UTF-8.
    pub fn header(&self, name: &str) -> Option<&str> {
        find_header(&self.headers, name)
    }

    /// The next piece of the body, `None` at its end. Pieces are at most
    /// 64 KiB.
    pub fn read_chunk(&mut self) -> Result<Option<Vec<u8>>, HttpError> {
        #[cfg(all(target_os = "wasi", target_env = "p2"))]
        {
            self.body.read(CHUNK)
        }
        #[cfg(not(all(target_os = "wasi", target_env = "p2")))]
        {
            match self.body {}
        }
    }

    /// Calls `f` with each piece of the body, without keeping them, and
    /// returns how many bytes there were. On an error the pieces before it
    /// have been passed to `f`.
    pub fn for_each_chunk(mut self, mut f: impl FnMut(&[u8])) -> Result<u64, HttpError> {
        let mut total = 0u64;
        while let Some(chunk) = self.read_chunk()? {
            total = total.saturating_add(chunk.len() as u64);
            f(&chunk);
        }
        Ok(total)
    }

    /// The whole body, failing with [`HttpError::TooLarge`] past
    /// [`DEFAULT_MAX_BODY`] bytes.
    pub fn bytes(self) -> Result<Vec<u8>, HttpError> {
        self.bytes_limited(DEFAULT_MAX_BODY)
    }

    /// The whole body, failing with [`HttpError::TooLarge`] past `limit` bytes.
    pub fn bytes_limited(mut self, limit: usize) -> Result<Vec<u8>, HttpError> {
        let mut body = Vec::new();
        while let Some(chunk) = self.read_chunk()? {
            if body.len().saturating_add(chunk.len()) > limit {
                return Err(HttpError::TooLarge { limit });
            }
            body.extend_from_slice(&chunk);
        }
        Ok(body)
    }

    /// The whole body as UTF-8 text (up to [`DEFAULT_MAX_BODY`] bytes).
    pub fn text(self) -> Result<String, HttpError> {
        String::from_utf8(self.bytes()?)
            .map_err(|_| HttpError::Decode("the body is not UTF-8".to_owned()))
    }

    /// The whole body decoded from JSON (up to [`DEFAULT_MAX_BODY`] bytes).
    pub fn json<T: DeserializeOwned>(self) -> Result<T, HttpError> {
        decode_json(&self.bytes()?)
    }
}

/// Decodes a JSON body.
pub(crate) fn decode_json<T: DeserializeOwned>(body: &[u8]) -> Result<T, HttpError> {
    serde_json::from_slice(body)
        .map_err(|e| HttpError::Decode(format!("not the expected JSON: {e}")))
}

/// Reads the body into `buf`, as much as one host read gives; `Ok(0)` at the
/// end.
impl std::io::Read for Response {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        #[cfg(all(target_os = "wasi", target_env = "p2"))]
        {
            let want = u64::try_from(buf.len()).unwrap_or(CHUNK);
            match self.body.read(want) {
                Ok(None) => Ok(0),
                Ok(Some(chunk)) => {
                    let n = chunk.len().min(buf.len());
                    buf[..n].copy_from_slice(&chunk[..n]);
                    Ok(n)
                }
                Err(e) => Err(std::io::Error::other(e)),
            }
        }
        #[cfg(not(all(target_os = "wasi", target_env = "p2")))]
        {
            match self.body {}
        }
    }
}

#[cfg(all(target_os = "wasi", target_env = "p2"))]
mod wasi {
    //! The `wasi:http` side of [`super`].

    use super::{HttpError, Method, Request, Response, WRITE_CHUNK, find_header, parse_url};

    mod bindings {
        // Only `wasi:http/outgoing-handler` (and the types it uses): a world
        // of its own keeps the component's imports to what the plugin calls
        // (see `exit.rs`).
        wit_bindgen::generate!({
            inline: "
                package hookhost:guest-sdk-http;
                world http-only {
                    import wasi:http/outgoing-handler@0.2.12;
                }
            ",
            path: "wit",
            world: "hookhost:guest-sdk-http/http-only",
            generate_all,
        });
    }

    use bindings::wasi::http::outgoing_handler;
    use bindings::wasi::http::types::{
        ErrorCode, Fields, HeaderError, IncomingBody, IncomingResponse, Method as WasiMethod,
        OutgoingBody, OutgoingRequest, RequestOptions, Scheme, http_error_code,
    };
    use bindings::wasi::io::streams::{InputStream, StreamError};

    /// A response body being read. Fields drop in declaration order, and a
    /// child resource must go before its parent: the stream, then the body,
    /// then the response.
    #[derive(Debug)]
    pub(super) struct Body {
        stream: Option<InputStream>,
        body: Option<IncomingBody>,
        _response: IncomingResponse,
    }

    impl Body {
        /// Up to `max` bytes (at least one), `None` at the end of the body.
        pub(super) fn read(&mut self, max: u64) -> Result<Option<Vec<u8>>, HttpError> {
            let Some(stream) = &self.stream else {
                return Ok(None);
            };
            loop {
                match stream.blocking_read(max) {
                    Ok(bytes) if bytes.is_empty() => continue,
                    Ok(bytes) => return Ok(Some(bytes)),
                    Err(StreamError::Closed) => {
                        self.close();
                        return Ok(None);
                    }
                    Err(StreamError::LastOperationFailed(error)) => {
                        let code = match http_error_code(&error) {
                            Some(code) => code_text(&code),
                            None => error.to_debug_string(),
                        };
                        self.close();
                        return Err(HttpError::Body { code });
                    }
                }
            }
        }

        fn close(&mut self) {
            self.stream = None;
            if let Some(body) = self.body.take() {
                // The trailers are of no interest; finishing releases the body.
                drop(IncomingBody::finish(body));
            }
        }
    }

    fn method(method: &Method) -> WasiMethod {
        match method {
            Method::Get => WasiMethod::Get,
            Method::Head => WasiMethod::Head,
            Method::Post => WasiMethod::Post,
            Method::Put => WasiMethod::Put,
            Method::Delete => WasiMethod::Delete,
            Method::Patch => WasiMethod::Patch,
            Method::Options => WasiMethod::Options,
            Method::Other(name) => WasiMethod::Other(name.clone()),
        }
    }

    fn header_error(name: &str, error: HeaderError) -> HttpError {
        let why = match error {
            HeaderError::InvalidSyntax => "invalid syntax",
            HeaderError::Forbidden => "forbidden by the host",
            HeaderError::Immutable => "immutable",
        };
        HttpError::InvalidRequest(format!("header {name:?}: {why}"))
    }

    fn request_error(code: ErrorCode, authority: &str) -> HttpError {
        match code {
            ErrorCode::HttpRequestDenied => HttpError::Denied {
                host: authority.to_owned(),
            },
            code => HttpError::Request {
                code: code_text(&code),
            },
        }
    }

    fn rejected(what: &str) -> HttpError {
        HttpError::InvalidRequest(format!("the host rejected the {what}"))
    }

    pub(super) fn send(request: Request) -> Result<Response, HttpError> {
        let target = parse_url(&request.url)?;

        let fields = Fields::new();
        for (name, value) in &request.headers {
            fields
                .append(name, value)
                .map_err(|e| header_error(name, e))?;
        }
        if !request.body.is_empty() && find_header(&request.headers, "content-length").is_none() {
            // A known length, not chunked encoding.
            fields
                .append("content-length", request.body.len().to_string().as_bytes())
                .map_err(|e| header_error("content-length", e))?;
        }
        let outgoing = OutgoingRequest::new(fields);
        outgoing
            .set_method(&method(&request.method))
            .map_err(|()| rejected("method"))?;
        let scheme = if target.https {
            Scheme::Https
        } else {
            Scheme::Http
        };
        outgoing
            .set_scheme(Some(&scheme))
            .map_err(|()| rejected("scheme"))?;
        outgoing
            .set_authority(Some(&target.authority))
            .map_err(|()| rejected("host"))?;
        outgoing
            .set_path_with_query(Some(&target.path_with_query))
            .map_err(|()| rejected("path"))?;
        // Without a body the request has an empty one (no chunked encoding).
        let body = if request.body.is_empty() {
            None
        } else {
            Some(outgoing.body().map_err(|()| rejected("body"))?)
        };
        let options = match request.timeout {
            None => None,
            Some(timeout) => {
                let nanos = u64::try_from(timeout.as_nanos()).unwrap_or(u64::MAX);
                let options = RequestOptions::new();
                options
                    .set_connect_timeout(Some(nanos))
                    .map_err(|()| rejected("connect timeout"))?;
                options
                    .set_first_byte_timeout(Some(nanos))
                    .map_err(|()| rejected("first-byte timeout"))?;
                options
                    .set_between_bytes_timeout(Some(nanos))
                    .map_err(|()| rejected("between-bytes timeout"))?;
                Some(options)
            }
        };

        let future = outgoing_handler::handle(outgoing, options)
            .map_err(|code| request_error(code, &target.authority))?;
        // The body goes out after `handle`, so that a body larger than the
        // host's buffer streams instead of waiting for a reader.
        if let Some(body) = body {
            write_body(body, &request.body)?;
        }
        let pollable = future.subscribe();
        pollable.block();
        drop(pollable);
        let response = match future.get() {
            Some(Ok(Ok(response))) => response,
            Some(Ok(Err(code))) => return Err(request_error(code, &target.authority)),
            Some(Err(())) => {
                return Err(HttpError::Request {
                    code: "the response was already taken".to_owned(),
                });
            }
            None => {
                return Err(HttpError::Request {
                    code: "no response after waiting for it".to_owned(),
                });
            }
        };
        drop(future);

        let status = response.status();
        let headers = {
            let fields = response.headers();
            fields.entries()
        };
        let body = response
            .consume()
            .map_err(|()| rejected("reading of the body"))?;
        let stream = body
            .stream()
            .map_err(|()| rejected("reading of the body"))?;
        Ok(Response {
            status,
            headers,
            body: Body {
                stream: Some(stream),
                body: Some(body),
                _response: response,
            },
        })
    }

    fn write_body(body: OutgoingBody, bytes: &[u8]) -> Result<(), HttpError> {
        let failed = |e: StreamError| HttpError::Request {
            code: match e {
                StreamError::Closed => "the request body stream closed".to_owned(),
                StreamError::LastOperationFailed(error) => match http_error_code(&error) {
                    Some(code) => code_text(&code),
                    None => error.to_debug_string(),
                },
            },
        };
        {
            let stream = body.write().map_err(|()| rejected("request body"))?;
            for chunk in bytes.chunks(WRITE_CHUNK) {
                stream.blocking_write_and_flush(chunk).map_err(failed)?;
            }
        }
        OutgoingBody::finish(body, None).map_err(|code| HttpError::Request {
            code: code_text(&code),
        })
    }

    fn opt<T: std::fmt::Display>(name: &str, value: Option<T>) -> String {
        value.map_or_else(String::new, |v| format!(" {name}={v}"))
    }

    /// The WIT name of an error code, with its details.
    pub(super) fn code_text(code: &ErrorCode) -> String {
        let name = |s: &str| s.to_owned();
        match code {
            ErrorCode::DnsTimeout => name("DNS-timeout"),
            ErrorCode::DnsError(p) => format!(
                "DNS-error{}{}",
                opt("rcode", p.rcode.as_deref()),
                opt("info-code", p.info_code)
            ),
            ErrorCode::DestinationNotFound => name("destination-not-found"),
            ErrorCode::DestinationUnavailable => name("destination-unavailable"),
            ErrorCode::DestinationIpProhibited => name("destination-IP-prohibited"),
            ErrorCode::DestinationIpUnroutable => name("destination-IP-unroutable"),
            ErrorCode::ConnectionRefused => name("connection-refused"),
            ErrorCode::ConnectionTerminated => name("connection-terminated"),
            ErrorCode::ConnectionTimeout => name("connection-timeout"),
            ErrorCode::ConnectionReadTimeout => name("connection-read-timeout"),
            ErrorCode::ConnectionWriteTimeout => name("connection-write-timeout"),
            ErrorCode::ConnectionLimitReached => name("connection-limit-reached"),
            ErrorCode::TlsProtocolError => name("TLS-protocol-error"),
            ErrorCode::TlsCertificateError => name("TLS-certificate-error"),
            ErrorCode::TlsAlertReceived(p) => format!(
                "TLS-alert-received{}{}",
                opt("id", p.alert_id),
                opt("message", p.alert_message.as_deref())
            ),
            ErrorCode::HttpRequestDenied => name("HTTP-request-denied"),
            ErrorCode::HttpRequestLengthRequired => name("HTTP-request-length-required"),
            ErrorCode::HttpRequestBodySize(n) => {
                format!("HTTP-request-body-size{}", opt("size", *n))
            }
            ErrorCode::HttpRequestMethodInvalid => name("HTTP-request-method-invalid"),
            ErrorCode::HttpRequestUriInvalid => name("HTTP-request-URI-invalid"),
            ErrorCode::HttpRequestUriTooLong => name("HTTP-request-URI-too-long"),
            ErrorCode::HttpRequestHeaderSectionSize(n) => {
                format!("HTTP-request-header-section-size{}", opt("size", *n))
            }
            ErrorCode::HttpRequestHeaderSize(p) => format!(
                "HTTP-request-header-size{}{}",
                opt("field", p.as_ref().and_then(|p| p.field_name.as_deref())),
                opt("size", p.as_ref().and_then(|p| p.field_size))
            ),
            ErrorCode::HttpRequestTrailerSectionSize(n) => {
                format!("HTTP-request-trailer-section-size{}", opt("size", *n))
            }
            ErrorCode::HttpRequestTrailerSize(p) => format!(
                "HTTP-request-trailer-size{}{}",
                opt("field", p.field_name.as_deref()),
                opt("size", p.field_size)
            ),
            ErrorCode::HttpResponseIncomplete => name("HTTP-response-incomplete"),
            ErrorCode::HttpResponseHeaderSectionSize(n) => {
                format!("HTTP-response-header-section-size{}", opt("size", *n))
            }
            ErrorCode::HttpResponseHeaderSize(p) => format!(
                "HTTP-response-header-size{}{}",
                opt("field", p.field_name.as_deref()),
                opt("size", p.field_size)
            ),
            ErrorCode::HttpResponseBodySize(n) => {
                format!("HTTP-response-body-size{}", opt("size", *n))
            }
            ErrorCode::HttpResponseTrailerSectionSize(n) => {
                format!("HTTP-response-trailer-section-size{}", opt("size", *n))
            }
            ErrorCode::HttpResponseTrailerSize(p) => format!(
                "HTTP-response-trailer-size{}{}",
                opt("field", p.field_name.as_deref()),
                opt("size", p.field_size)
            ),
            ErrorCode::HttpResponseTransferCoding(c) => {
                format!(
                    "HTTP-response-transfer-coding{}",
                    opt("coding", c.as_deref())
                )
            }
            ErrorCode::HttpResponseContentCoding(c) => {
                format!(
                    "HTTP-response-content-coding{}",
                    opt("coding", c.as_deref())
                )
            }
            ErrorCode::HttpResponseTimeout => name("HTTP-response-timeout"),
            ErrorCode::HttpUpgradeFailed => name("HTTP-upgrade-failed"),
            ErrorCode::HttpProtocolError => name("HTTP-protocol-error"),
            ErrorCode::LoopDetected => name("loop-detected"),
            ErrorCode::ConfigurationError => name("configuration-error"),
            ErrorCode::InternalError(message) => message.as_deref().map_or_else(
                || name("internal-error"),
                |message| format!("internal-error: {message}"),
            ),
        }
    }
}
