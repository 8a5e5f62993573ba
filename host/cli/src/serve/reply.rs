//! The answers of `serve --http` other than a fire's: named errors
//! (`{"error": {"code", "message"}}`), the 401, and — under fail-closed — the deny
//! that stands in for an error where a `/hook` body cannot be read.

use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{self, HeaderValue};
use hyper::{Response, StatusCode};
use serde_json::json;

use hookhost::dialect::AgentCall;

use crate::agent_hook::failed;

/// The largest request body: the same bound as a request line of the JSON Lines
/// server (a tool input may carry a whole file).
pub const MAX_BODY: usize = hookhost::bus::MAX_LINE;

/// Why a request is refused, before it is answered: an error answer, or under
/// fail-closed on `/hook` a deny naming `message` ([`unreadable`]).
pub struct Refusal {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
}

impl Refusal {
    /// A body longer than [`MAX_BODY`].
    pub fn too_large() -> Refusal {
        Refusal {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            code: "BODY_TOO_LARGE",
            message: format!("request body longer than {MAX_BODY} bytes"),
        }
    }

    /// The error answer.
    pub fn response(self) -> Response<Full<Bytes>> {
        error(self.status, self.code, self.message)
    }
}

/// A request without the token: 401, and the connection is closed after it (a
/// client without the token gets one answer per connection).
pub fn unauthorized() -> Response<Full<Bytes>> {
    let mut response = error(
        StatusCode::UNAUTHORIZED,
        "UNAUTHORIZED",
        "this server needs `Authorization: Bearer TOKEN` with the token it was started with",
    );
    let headers = response.headers_mut();
    headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// The fail-closed answer to a `/hook` body that cannot be read (`cause`): 200
/// and a deny naming the cause, in the form of the event `body` names as far as
/// it can be read ([`AgentCall::guess`]) — a 4xx would be a non-blocking error to
/// Claude Code, which would then run the tool.
pub fn unreadable(body: &[u8], cause: &str) -> Response<Full<Bytes>> {
    let result = failed(format!("cannot read the agent's hook input: {cause}"));
    let answer = AgentCall::guess(body).reply_json(result, true);
    json_response(StatusCode::OK, serde_json::to_vec(&answer))
}

/// An error answer: `{"error": {"code", "message"}}`.
pub fn error(status: StatusCode, code: &str, message: impl Into<String>) -> Response<Full<Bytes>> {
    json_response(
        status,
        serde_json::to_vec(&json!({"error": {"code": code, "message": message.into()}})),
    )
}

/// A JSON answer (`body` serialised by the caller, so that any serialisable type
/// does without an intermediate `Value`).
pub fn json_response(
    status: StatusCode,
    body: serde_json::Result<Vec<u8>>,
) -> Response<Full<Bytes>> {
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
