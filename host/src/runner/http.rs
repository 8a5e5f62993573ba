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
use super::web::{self, Header, Headers};
use super::{Captured, HookFailure, RawOutcome, RunContext, Status};
use crate::config::HttpConfig;
use crate::env_names::TOKEN_ENV;

/// POSTs `input` to the hook's URL; header values read the variables `visible`
/// shows ([`super::hook_env`]).
pub async fn run(
    config: &HttpConfig,
    timeout: Duration,
    input: &[u8],
    ctx: &RunContext,
    visible: Visible,
) -> RawOutcome {
    if let Err(e) = web::available() {
        return RawOutcome::failed(e.failure(timeout));
    }
    let start = std::time::Instant::now();
    let headers = match headers(config, |name| visible.var(name))
        .and_then(|list| Headers::new(list).map_err(HeaderError::from))
    {
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
    let (status, stdout) = match answer {
        Ok(body) => (Status::Exited(0), body),
        Err(e) => (Status::Failed(e.failure(timeout)), Captured::default()),
    };
    RawOutcome {
        status,
        stdout,
        stderr: Captured::default(),
        duration: start.elapsed(),
        queued: Duration::ZERO,
        fuel_used: None,
        logs: Default::default(),
    }
}

/// The request headers: the hook's, with the variables it allows replaced.
fn headers(
    config: &HttpConfig,
    lookup: impl Fn(&str) -> Option<std::ffi::OsString>,
) -> Result<Vec<Header>, HeaderError> {
    config
        .headers
        .iter()
        .map(|(name, value)| {
            let value = interpolate(value, &config.allowed_env_vars, &lookup).map_err(
                |NotUtf8(variable)| HeaderError::NotUtf8 {
                    name: name.clone(),
                    variable,
                },
            )?;
            Ok((name.clone(), value, false))
        })
        .collect()
}

/// Why a hook's headers cannot be sent; names the header, never its value.
#[derive(Debug, thiserror::Error)]
enum HeaderError {
    #[error("header {name}: ${variable} is not valid UTF-8")]
    NotUtf8 { name: String, variable: String },
    /// A name or value the HTTP client refuses.
    #[error(transparent)]
    Refused(#[from] web::HeaderError),
}

/// An allowed variable whose value is not UTF-8 (its name).
#[derive(Debug, PartialEq, Eq)]
struct NotUtf8(String);

/// `value` with `$NAME` and `${NAME}` replaced by the variable's value (empty when
/// unset) for each NAME in `allowed`; other references stay as written. `Err` names
/// an allowed variable whose value is not UTF-8.
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

    #[test]
    fn only_listed_variables_reach_the_header_list() {
        let config = HttpConfig {
            url: "http://127.0.0.1:1/".to_owned(),
            headers: vec![("X-Evil".to_owned(), "$EVIL".to_owned())],
            allowed_env_vars: allowed(&["EVIL"]),
        };
        let sent = headers(&config, env).unwrap();
        assert_eq!(
            sent,
            [("X-Evil".to_owned(), "a\r\nX-Injected: 1".to_owned(), false)],
            "the client, not this list, refuses a value that would split the request"
        );
        let config = HttpConfig {
            allowed_env_vars: Vec::new(),
            ..config
        };
        let sent = headers(&config, env).unwrap();
        assert_eq!(
            sent[0].1, "$EVIL",
            "an unlisted variable is sent as written"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_variable_that_is_not_utf8_fails_naming_the_header_and_the_variable() {
        use std::os::unix::ffi::OsStringExt;

        let config = HttpConfig {
            url: "http://127.0.0.1:1/".to_owned(),
            headers: vec![("X-Key".to_owned(), "$KEY".to_owned())],
            allowed_env_vars: allowed(&["KEY"]),
        };
        let problem = headers(&config, |_| Some(OsString::from_vec(vec![0xff])))
            .unwrap_err()
            .to_string();
        assert_eq!(problem, "header X-Key: $KEY is not valid UTF-8");
    }
}
