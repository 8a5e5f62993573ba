//! The MessageBus request/response lines of `hookhost serve` (seeds/002, CONTRACT
//! §1b): parsing a request line, and writing an answer line straight from borrowed
//! data (no intermediate `Value`). Public so that an embedder serving the same
//! protocol (and the fuzzers) use the very same code.

use std::io::Write;

use crate::{AggregatedHookResult, HookEvent};
use serde::Serialize;
use serde_json::{Map, Value};

/// Request lines longer than this are answered with an error and skipped.
pub const MAX_LINE: usize = 64 * 1024 * 1024;

/// A request that parsed: fire `event` with `input`, answer under `id`.
#[derive(Debug)]
pub struct Request {
    /// The `correlationId` (a string or a number).
    pub id: Value,
    /// The event to fire.
    pub event: HookEvent,
    /// The event's input (`{}` when absent or null).
    pub input: Map<String, Value>,
}

/// One answer line.
#[derive(Debug)]
pub struct Answer {
    /// The request's `correlationId`; `None` when it could not be read.
    pub id: Option<Value>,
    /// The result or the error.
    pub body: Body,
}

/// What an answer carries.
#[derive(Debug)]
pub enum Body {
    /// The aggregated result of the fire (`success: true`).
    Output(Box<AggregatedHookResult>),
    /// Why there is no result (`success: false`).
    Error {
        /// A stable code: `INVALID_JSON`, `INVALID_REQUEST`, `UNKNOWN_EVENT`,
        /// `LINE_TOO_LONG`, `FORBIDDEN`, `INTERNAL`.
        code: &'static str,
        /// A message for people.
        message: String,
    },
    /// An `asyncRewake` hook blocked after its fire was answered: written as
    /// `{"notice": {"event", "hook", "reason", "sessionId"}}`, not an answer to a
    /// request (seeds/003: the agent wakes the model with it).
    Notice(Box<crate::Notice>),
}

impl Answer {
    /// An error answer.
    pub fn error(id: Option<Value>, code: &'static str, message: String) -> Answer {
        Answer {
            id,
            body: Body::Error { code, message },
        }
    }

    /// The answer to a line longer than [`MAX_LINE`].
    pub fn line_too_long() -> Answer {
        Answer::error(
            None,
            "LINE_TOO_LONG",
            format!("request line longer than {MAX_LINE} bytes"),
        )
    }

    /// Appends the answer and a newline to `out`.
    pub fn write_line(&self, out: &mut impl Write) -> std::io::Result<()> {
        #[derive(Serialize)]
        struct ErrorBody<'a> {
            code: &'a str,
            message: &'a str,
        }
        #[derive(Serialize)]
        struct Response<'a> {
            #[serde(rename = "correlationId")]
            correlation_id: &'a Option<Value>,
            success: bool,
            #[serde(skip_serializing_if = "Option::is_none")]
            output: Option<&'a AggregatedHookResult>,
            #[serde(skip_serializing_if = "Option::is_none")]
            error: Option<ErrorBody<'a>>,
        }
        let response = match &self.body {
            Body::Notice(notice) => {
                let line = serde_json::json!({"notice": {
                    "event": notice.event,
                    "hook": notice.hook,
                    "reason": notice.reason,
                    "sessionId": notice.session_id,
                }});
                serde_json::to_writer(&mut *out, &line).map_err(std::io::Error::from)?;
                return out.write_all(b"\n");
            }
            Body::Output(result) => Response {
                correlation_id: &self.id,
                success: true,
                output: Some(result),
                error: None,
            },
            Body::Error { code, message } => Response {
                correlation_id: &self.id,
                success: false,
                output: None,
                error: Some(ErrorBody { code, message }),
            },
        };
        serde_json::to_writer(&mut *out, &response).map_err(std::io::Error::from)?;
        out.write_all(b"\n")
    }
}

/// Reads one request line (through [`crate::input::json`]: a lone surrogate escape
/// is read as JavaScript reads it, nesting is bounded); a bad one becomes the error
/// answer to send.
pub fn parse_request(line: &[u8]) -> Result<Request, Answer> {
    let value: Value = crate::input::json::parse(line).map_err(|e| {
        Answer::error(
            None,
            "INVALID_JSON",
            format!("request is not valid JSON: {e}"),
        )
    })?;
    let Value::Object(mut request) = value else {
        return Err(Answer::error(
            None,
            "INVALID_REQUEST",
            "request must be a JSON object".to_owned(),
        ));
    };
    let id = request.remove("correlationId");
    let Some(id) = id.filter(|id| id.is_string() || id.is_number()) else {
        return Err(Answer::error(
            None,
            "INVALID_REQUEST",
            "correlationId (a string) is required".to_owned(),
        ));
    };
    let event = match request.get("eventName") {
        Some(Value::String(name)) => match name.parse::<HookEvent>() {
            Ok(event) => event,
            Err(e) => return Err(Answer::error(Some(id), "UNKNOWN_EVENT", e.to_string())),
        },
        _ => {
            return Err(Answer::error(
                Some(id),
                "INVALID_REQUEST",
                "eventName (a string) is required".to_owned(),
            ));
        }
    };
    let input = match request.remove("input") {
        Some(Value::Object(input)) => input,
        None | Some(Value::Null) => Map::new(),
        Some(_) => {
            return Err(Answer::error(
                Some(id),
                "INVALID_REQUEST",
                "input must be a JSON object".to_owned(),
            ));
        }
    };
    Ok(Request { id, event, input })
}

/// Whether a line holds nothing but whitespace (skipped without an answer).
pub fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(answer: &Answer) -> Value {
        let mut out = Vec::new();
        answer.write_line(&mut out).unwrap();
        assert_eq!(out.last(), Some(&b'\n'));
        serde_json::from_slice(&out).unwrap()
    }

    #[test]
    fn answers_have_the_contract_shape() {
        let ok = Answer {
            id: Some(Value::from("a")),
            body: Body::Output(Box::default()),
        };
        let v = line(&ok);
        assert_eq!(v["correlationId"], "a");
        assert_eq!(v["success"], true);
        assert_eq!(v["output"]["finalOutput"], serde_json::json!({}));
        assert!(v.get("error").is_none());
        let err = line(&Answer::error(None, "X", "m".into()));
        assert_eq!(
            err,
            serde_json::json!({"correlationId": null, "success": false,
                "error": {"code": "X", "message": "m"}})
        );
    }

    #[test]
    fn bad_requests_keep_the_id_when_it_can_be_read() {
        let Err(answer) = parse_request(br#"{"correlationId": 7, "eventName": "Nope"}"#) else {
            panic!("accepted an unknown event");
        };
        assert_eq!(answer.id, Some(Value::from(7)));
        assert!(parse_request(b"[1]").is_err());
        assert!(parse_request(br#"{"correlationId":"x","eventName":"BeforeTool"}"#).is_ok());
    }
}
