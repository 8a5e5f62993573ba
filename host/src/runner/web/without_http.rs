//! The `http` feature off (`default-features = false`, an agent that wants no HTTP
//! client in its binary): no request is ever sent, and every `http` and `prompt`
//! hook is a hook not run whose error says so.

use std::time::Duration;

use super::Header;
use crate::runner::{Captured, HookFailure};

/// Why no request is sent. Documentation and tests quote it.
const NO_HTTP: &str = "hookhost was built without http support (feature \"http\")";

/// A runner's headers; without the `http` feature nothing reads them.
#[derive(Debug)]
pub struct Headers;

impl Headers {
    /// Accepts any list: there is no client whose rules it could break.
    pub fn new(_list: Vec<Header>) -> Result<Headers, HeaderError> {
        Ok(Headers)
    }
}

/// Without the `http` feature no header is ever refused: no value of this type exists.
#[derive(Debug)]
pub enum HeaderError {}

impl std::fmt::Display for HeaderError {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {}
    }
}

impl std::error::Error for HeaderError {}

/// Why a POST gave no answer: this build cannot send one.
#[derive(Debug, thiserror::Error)]
#[error("{NO_HTTP}")]
pub struct RequestError;

impl RequestError {
    /// The hook is not run (`not run: …`): it never got as far as a request.
    pub fn failure(self, _timeout: Duration) -> HookFailure {
        HookFailure::NotRun(self.to_string())
    }
}

/// Whether requests can be sent at all: never. The runners ask before anything
/// else, so a hook's own settings (an endpoint, a header) are not reported as its
/// problem in a build that could not run it anyway.
pub fn available() -> Result<(), RequestError> {
    Err(RequestError)
}

/// Sends nothing.
pub async fn post(
    _url: &str,
    _headers: Headers,
    _body: Vec<u8>,
    _timeout: Duration,
    _cap: usize,
) -> Result<Captured, RequestError> {
    Err(RequestError)
}
