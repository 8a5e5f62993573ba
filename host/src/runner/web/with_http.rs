//! The `http` feature on: requests go out through `reqwest`. One POST with a
//! deadline, its 2xx body captured like a command's stdout, everything else a typed
//! [`RequestError`] that names the URL and what came back.
//!
//! One `reqwest` client serves the whole process (two: plain HTTP and HTTPS, see
//! [`client`]); connections are kept and reused by `hookhost serve` and embedders
//! that fire many times. It follows no redirect:
//! a hook's answer must come from the URL the user configured (or admitted in
//! `tools.allowedHttpHookUrls`), not from wherever that URL points next. Its
//! connect timeout bounds a connection attempt to an unresponsive address even
//! for a hook with a long `timeout`; the hook's `timeout` bounds the whole exchange
//! (connect, send, answer, body), so a server that never answers is a timed-out
//! hook, never a hang.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue, LOCATION};

use super::Header;
use crate::runner::{Captured, HookFailure};

/// The longest a connection attempt may take, whatever the hook's `timeout`.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How much of a refused request's body is read for the message.
const ERROR_BODY_BYTES: usize = 4096;

/// A runner's headers, checked and ready to send.
#[derive(Debug)]
pub struct Headers(HeaderMap);

impl Headers {
    /// `list` as reqwest's headers, in order (a repeated name is sent repeatedly);
    /// `Err` names the first header that cannot be sent, never its value.
    pub fn new(list: Vec<Header>) -> Result<Headers, HeaderError> {
        let mut headers = HeaderMap::with_capacity(list.len());
        for (name, value, sensitive) in list {
            let header = HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| HeaderError::Name(name.clone()))?;
            let mut value = HeaderValue::from_str(&value).map_err(|_| HeaderError::Value(name))?;
            value.set_sensitive(sensitive);
            headers.append(header, value);
        }
        Ok(Headers(headers))
    }
}

/// Why a header cannot be sent; names the header, never its value (which may hold
/// a secret). The words are an `http` hook's, whose values may have had variables
/// replaced; a `prompt` hook says instead which variable held its key.
#[derive(Debug, thiserror::Error)]
pub enum HeaderError {
    #[error("header {0:?}: not a valid header name")]
    Name(String),
    #[error(
        "header {0}: its value (after replacing the allowedEnvVars) is not a valid header \
         value: a CR, LF or other control character"
    )]
    Value(String),
}

/// Whether requests can be sent at all: in this build, always.
pub fn available() -> Result<(), RequestError> {
    Ok(())
}

/// Why a POST gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    /// The process's HTTP client could not be built (its TLS set-up failed).
    #[error("cannot set up the HTTP client: {0}")]
    Client(String),
    /// No connection: refused, no route, a name that does not resolve, a
    /// connect timeout.
    #[error("POST {url}: cannot connect: {cause}")]
    Connect {
        /// The URL.
        url: String,
        /// The innermost cause, e.g. `Connection refused (os error 111)`.
        cause: String,
    },
    /// The request or its answer broke off.
    #[error("POST {url}: {cause}")]
    Broken {
        /// The URL.
        url: String,
        /// The innermost cause.
        cause: String,
    },
    /// A 3xx: not followed.
    #[error("POST {url}: HTTP {status}, a redirect to {location}; redirects are not followed")]
    Redirect {
        /// The URL.
        url: String,
        /// The status line's code and reason.
        status: String,
        /// The `Location` header as sent, or what stands for its absence.
        location: String,
    },
    /// Any other status that is not 2xx.
    #[error("POST {url}: HTTP {status}{}", detail(.body))]
    Status {
        /// The URL.
        url: String,
        /// The status line's code and reason.
        status: String,
        /// The start of the body: servers say why there.
        body: String,
    },
    /// The hook's `timeout` passed first.
    #[error("timed out")]
    Timeout,
}

impl RequestError {
    /// The failure of a hook whose request got no answer within `timeout`.
    pub fn failure(self, timeout: Duration) -> HookFailure {
        match self {
            RequestError::Timeout => HookFailure::Timeout(timeout),
            e => HookFailure::Request(e.to_string()),
        }
    }
}

fn detail(body: &str) -> String {
    let line = body.trim().lines().next().unwrap_or_default().trim();
    if line.is_empty() {
        String::new()
    } else {
        format!(": {}", crate::text::clip(line, 300))
    }
}

/// The process's client for `url`, built on first use: one for `https://` URLs,
/// with the system's roots, and one for plain `http://` URLs, which never verifies
/// a certificate and so is given none. Loading the system's roots reads every file
/// of the certificate directory (~300 on Debian); a one-shot `hookhost fire` whose
/// hook is a plain-HTTP server on 127.0.0.1 does not pay for it
/// (docs/PERFORMANCE.md, "HTTP hooks").
fn client(url: &str) -> Result<&'static reqwest::Client, RequestError> {
    static PLAIN: OnceLock<Result<reqwest::Client, Arc<reqwest::Error>>> = OnceLock::new();
    static TLS: OnceLock<Result<reqwest::Client, Arc<reqwest::Error>>> = OnceLock::new();
    let plain = url
        .get(..7)
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("http://"));
    let cell = if plain { &PLAIN } else { &TLS };
    cell.get_or_init(|| {
        // reqwest is built without a crypto provider of its own (host/Cargo.toml
        // says why); ring is installed as the process default, as the registry
        // client does. One installed earlier by someone else is kept.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let builder = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(CONNECT_TIMEOUT)
            .user_agent(concat!("hookhost/", env!("CARGO_PKG_VERSION")));
        let builder = if plain {
            // An empty root store instead of the system's: this client only ever
            // speaks plain HTTP (redirects, the one way to another scheme, are not
            // followed).
            builder.tls_certs_only(std::iter::empty())
        } else {
            builder
        };
        builder.build().map_err(Arc::new)
    })
    .as_ref()
    .map_err(|e| RequestError::Client(innermost(e)))
}

/// POSTs `body` (JSON) to `url` with `headers`; the body of a 2xx answer, kept up
/// to `cap` bytes (the rest is read and counted, as a command's stdout is).
pub async fn post(
    url: &str,
    Headers(mut headers): Headers,
    body: Vec<u8>,
    timeout: Duration,
    cap: usize,
) -> Result<Captured, RequestError> {
    let client = client(url)?;
    headers
        .entry(CONTENT_TYPE)
        .or_insert(HeaderValue::from_static("application/json"));
    let exchange = async {
        let mut response = client
            .post(url)
            .headers(headers)
            .body(body)
            .send()
            .await
            .map_err(|e| send_error(url, &e))?;
        let status = response.status();
        let code = || {
            format!(
                "{} {}",
                status.as_u16(),
                status.canonical_reason().unwrap_or_default()
            )
            .trim_end()
            .to_owned()
        };
        if status.is_redirection() {
            let location = response
                .headers()
                .get(LOCATION)
                .map(|l| String::from_utf8_lossy(l.as_bytes()).into_owned())
                .unwrap_or_else(|| "nowhere (no Location header)".to_owned());
            return Err(RequestError::Redirect {
                url: url.to_owned(),
                status: code(),
                location,
            });
        }
        let limit = if status.is_success() {
            cap
        } else {
            ERROR_BODY_BYTES
        };
        let mut captured = Captured::default();
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) => captured.push(&chunk, limit),
                Ok(None) => break,
                Err(e) => return Err(send_error(url, &e)),
            }
            if !status.is_success() && captured.truncated() {
                // Enough to say why; the rest of a refusal is not read.
                break;
            }
        }
        if status.is_success() {
            Ok(captured)
        } else {
            Err(RequestError::Status {
                url: url.to_owned(),
                status: code(),
                body: captured.text(),
            })
        }
    };
    tokio::time::timeout(timeout, exchange)
        .await
        .unwrap_or(Err(RequestError::Timeout))
}

/// A failed send or body read, by what failed.
fn send_error(url: &str, e: &reqwest::Error) -> RequestError {
    let cause = innermost(e);
    if e.is_connect() {
        RequestError::Connect {
            url: url.to_owned(),
            cause: if e.is_timeout() {
                format!("no connection within {} s", CONNECT_TIMEOUT.as_secs())
            } else {
                cause
            },
        }
    } else {
        RequestError::Broken {
            url: url.to_owned(),
            cause,
        }
    }
}

/// The innermost error of a chain: the one that says what happened
/// (`Connection refused (os error 111)`, `failed to lookup address information: …`),
/// where the outer ones only say where.
fn innermost(e: &reqwest::Error) -> String {
    let mut at: &dyn std::error::Error = e;
    while let Some(inner) = at.source() {
        at = inner;
    }
    at.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(name: &str, value: &str, sensitive: bool) -> Header {
        (name.to_owned(), value.to_owned(), sensitive)
    }

    #[test]
    fn a_value_that_would_split_the_request_fails_naming_the_header_not_the_value() {
        let problem = Headers::new(vec![header("X-Evil", "a\r\nX-Injected: 1", false)])
            .unwrap_err()
            .to_string();
        assert!(problem.contains("header X-Evil"), "{problem}");
        assert!(problem.contains("not a valid header value"), "{problem}");
        assert!(!problem.contains("Injected"), "{problem}");
        let problem = Headers::new(vec![header("X Evil", "v", false)])
            .unwrap_err()
            .to_string();
        assert_eq!(problem, "header \"X Evil\": not a valid header name");
    }

    #[test]
    fn headers_keep_their_order_repeats_and_secrecy() {
        let Headers(sent) = Headers::new(vec![
            header("X-A", "1", false),
            header("x-a", "2", false),
            header("x-api-key", "k", true),
        ])
        .unwrap();
        let a: Vec<_> = sent.get_all("x-a").iter().collect();
        assert_eq!(a, ["1", "2"]);
        assert!(sent["x-api-key"].is_sensitive());
        assert!(!sent["x-a"].is_sensitive());
    }
}
