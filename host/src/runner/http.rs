//! `http` hooks: the hook's input JSON is POSTed to its `url`, and a 2xx answer's
//! body means what a command's stdout on exit 0 means ([`super::interpret`] reads
//! it: a JSON object is the answer, other text a message, nothing an allow). A
//! non-2xx status, a redirect (never followed), a refused connection, a name that
//! does not resolve or the hook's `timeout` passing is a failed hook, whose
//! `failurePolicy` applies.
//!
//! Header values may name environment variables as `$NAME` or `${NAME}`; only the
//! names the hook lists in `allowedEnvVars` are replaced (when the hook runs, so a
//! changed token is picked up by a long-running `serve`), every other reference is
//! sent as written — and so is `HOOKHOST_TOKEN`, listed or not. What a listed name
//! reads is [`super::hook_env`]'s: under `tools.scrubHookEnv`, a repository's hook
//! (whose list is no grant of the user's) reads only the scrubbed environment
//! (empty when the variable is not there). A value that is not a valid header after
//! replacement (a CR or LF in a variable would split the request) fails the hook,
//! naming the header — never the value, which may hold a secret.

use std::time::Duration;

use super::hook_env::Visible;
use super::{RawOutcome, RunContext};
use crate::config::HttpConfig;
use crate::env_names::TOKEN_ENV;

/// POSTs `input` to the hook's URL; header values read the variables `visible`
/// shows ([`super::hook_env`]).
#[cfg(feature = "http")]
pub async fn run(
    config: &HttpConfig,
    timeout: Duration,
    input: &[u8],
    ctx: &RunContext,
    visible: Visible,
) -> RawOutcome {
    use super::{Captured, HookFailure, Status, web};

    let start = std::time::Instant::now();
    let headers = match headers(config, |name| visible.var(name)) {
        Ok(headers) => headers,
        Err(problem) => {
            return RawOutcome::failed(HookFailure::Request(format!(
                "POST {}: {problem}",
                config.url
            )));
        }
    };
    let answer = web::post(
        &config.url,
        headers,
        input.to_vec(),
        timeout,
        ctx.output_cap,
    )
    .await;
    let status = match &answer {
        Ok(_) => Status::Exited(0),
        Err(web::RequestError::Timeout) => Status::Failed(HookFailure::Timeout(timeout)),
        Err(e) => Status::Failed(HookFailure::Request(e.to_string())),
    };
    RawOutcome {
        status,
        stdout: answer.unwrap_or_default(),
        stderr: Captured::default(),
        duration: start.elapsed(),
        queued: Duration::ZERO,
        fuel_used: None,
        logs: Default::default(),
    }
}

/// Without the `http` feature the hook cannot run.
#[cfg(not(feature = "http"))]
pub async fn run(
    _config: &HttpConfig,
    _timeout: Duration,
    _input: &[u8],
    _ctx: &RunContext,
    _visible: Visible,
) -> RawOutcome {
    RawOutcome::failed(super::HookFailure::NotRun(super::NO_HTTP.to_owned()))
}

/// The request headers: the hook's, with the variables it allows replaced.
#[cfg(feature = "http")]
fn headers(
    config: &HttpConfig,
    lookup: impl Fn(&str) -> Option<std::ffi::OsString>,
) -> Result<reqwest::header::HeaderMap, HeaderError> {
    use reqwest::header::{HeaderMap, HeaderName, HeaderValue};

    let mut headers = HeaderMap::with_capacity(config.headers.len());
    for (name, value) in &config.headers {
        let header =
            HeaderName::from_bytes(name.as_bytes()).map_err(|_| HeaderError::Name(name.clone()))?;
        let value = interpolate(value, &config.allowed_env_vars, &lookup).map_err(
            |NotUtf8(variable)| HeaderError::NotUtf8 {
                name: name.clone(),
                variable,
            },
        )?;
        let value = HeaderValue::from_str(&value).map_err(|_| HeaderError::Value(name.clone()))?;
        headers.append(header, value);
    }
    Ok(headers)
}

/// Why a hook's headers cannot be sent; names the header, never its value.
#[cfg(feature = "http")]
#[derive(Debug, thiserror::Error)]
enum HeaderError {
    #[error("header {0:?}: not a valid header name")]
    Name(String),
    #[error("header {name}: ${variable} is not valid UTF-8")]
    NotUtf8 { name: String, variable: String },
    #[error(
        "header {0}: its value (after replacing the allowedEnvVars) is not a valid header \
         value: a CR, LF or other control character"
    )]
    Value(String),
}

/// An allowed variable whose value is not UTF-8 (its name).
#[derive(Debug, PartialEq, Eq)]
struct NotUtf8(String);

/// `value` with `$NAME` and `${NAME}` replaced by the variable's value (empty when
/// unset) for each NAME in `allowed`; other references stay as written. `Err` names
/// an allowed variable whose value is not UTF-8.
#[cfg_attr(not(feature = "http"), allow(dead_code))]
fn interpolate(
    value: &str,
    allowed: &[String],
    lookup: impl Fn(&str) -> Option<std::ffi::OsString>,
) -> Result<String, NotUtf8> {
    let is_name_char = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        // The reference's name, and the length of the whole reference after `$`.
        let (name, len) = match after.strip_prefix('{') {
            Some(braced) => match braced.find('}') {
                Some(end) => (&braced[..end], end + 2),
                None => ("", 0),
            },
            None => {
                let end = after
                    .find(|c: char| !is_name_char(c))
                    .unwrap_or(after.len());
                (&after[..end], end)
            }
        };
        let valid = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(is_name_char);
        // The server's token is never a hook's, listed or not.
        if valid && name != TOKEN_ENV && allowed.iter().any(|a| a == name) {
            let value = lookup(name).unwrap_or_default();
            out.push_str(value.to_str().ok_or_else(|| NotUtf8(name.to_owned()))?);
        } else {
            // Not a reference, or one the hook may not make: sent as written.
            out.push('$');
            out.push_str(&after[..len]);
        }
        rest = &after[len..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;

    use super::*;

    fn env(name: &str) -> Option<OsString> {
        match name {
            "TOKEN" => Some("s3cret".into()),
            "EVIL" => Some("a\r\nX-Injected: 1".into()),
            "SECRET" => Some("do-not-send".into()),
            "HOOKHOST_TOKEN" => Some("server-token".into()),
            _ => None,
        }
    }

    fn allowed(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| (*n).to_owned()).collect()
    }

    #[test]
    fn only_allowed_variables_are_replaced() {
        let allow = allowed(&["TOKEN", "UNSET", "HOOKHOST_TOKEN"]);
        let cases = [
            ("Bearer $TOKEN", "Bearer s3cret"),
            ("Bearer ${TOKEN}!", "Bearer s3cret!"),
            ("$TOKEN$TOKEN", "s3crets3cret"),
            ("x$SECRET y", "x$SECRET y"),
            ("${SECRET}", "${SECRET}"),
            ("[$UNSET]", "[]"),
            ("$", "$"),
            ("a$ b", "a$ b"),
            ("cost: $5", "cost: $5"),
            ("${TOKEN", "${TOKEN"),
            ("${}", "${}"),
            ("${TO KEN}", "${TO KEN}"),
            ("$TOKEN_2", "$TOKEN_2"),
            ("é$TOKEN€", "és3cret€"),
            ("Bearer $HOOKHOST_TOKEN", "Bearer $HOOKHOST_TOKEN"),
        ];
        for (value, expected) in cases {
            assert_eq!(
                interpolate(value, &allow, env).unwrap(),
                expected,
                "{value}"
            );
        }
    }

    #[cfg(feature = "http")]
    #[test]
    fn a_value_that_would_split_the_request_fails_naming_the_header_not_the_value() {
        let config = HttpConfig {
            url: "http://127.0.0.1:1/".to_owned(),
            headers: vec![("X-Evil".to_owned(), "$EVIL".to_owned())],
            allowed_env_vars: allowed(&["EVIL"]),
        };
        let problem = headers(&config, env).unwrap_err().to_string();
        assert!(problem.contains("header X-Evil"), "{problem}");
        assert!(!problem.contains("Injected"), "{problem}");
        let config = HttpConfig {
            allowed_env_vars: Vec::new(),
            ..config
        };
        let sent = headers(&config, env).unwrap();
        assert_eq!(
            sent["x-evil"], "$EVIL",
            "an unlisted variable is sent as written"
        );
    }
}
