//! Check of an http hook's own fields: `url` (http or https, with a host),
//! `headers` (string values) and `allowedEnvVars`, into an [`HttpConfig`]. Header
//! values keep their `$VAR` references: they are replaced when the hook runs, from
//! the names `allowedEnvVars` lists only (never `HOOKHOST_TOKEN`: said here).

use super::report::{Report, show};
use crate::config::settings::shape::field::Field;
use crate::config::settings::shape::hook::HookSettings;
use crate::config::spec::{HookKind, HttpConfig};
use crate::env_names::TOKEN_ENV;

/// Checks the http fields of `hook`; `None` (with errors) when it cannot run.
pub(super) fn config(at: &str, hook: HookSettings, report: &mut Report<'_>) -> Option<HookKind> {
    let mut ok = true;
    let url = url(&format!("{at}.url"), hook.url, report, &mut ok);
    let mut headers = Vec::new();
    let at_headers = format!("{at}.headers");
    let map = report.take_or_flag(&at_headers, hook.headers, "an object of strings", &mut ok);
    for (name, value) in map.flatten().unwrap_or_default() {
        let at = format!("{at_headers}.{name}");
        if !valid_header_name(&name) {
            report.error(&at, "is not a valid HTTP header name");
            ok = false;
        }
        match value {
            serde_json::Value::String(value) => headers.push((name, value)),
            other => {
                report.error(&at, format!("expected a string, got {}", show(&other)));
                ok = false;
            }
        }
    }
    let allowed_env_vars = report
        .take_or_flag(
            &format!("{at}.allowedEnvVars"),
            hook.allowed_env_vars,
            "an array of variable names",
            &mut ok,
        )
        .flatten()
        .unwrap_or_default();
    if allowed_env_vars.iter().any(|name| name == TOKEN_ENV) {
        report.warning(
            &format!("{at}.allowedEnvVars"),
            format!(
                "{TOKEN_ENV} is never sent: it is the bearer token of `hookhost serve --http`, \
                 and no hook run by hookhost gets it (the reference is sent as written)"
            ),
        );
    }
    let url = url?;
    ok.then_some(HookKind::Http(HttpConfig {
        url,
        headers,
        allowed_env_vars,
    }))
}

/// `url`: required, `http://` or `https://` with a host.
fn url(at: &str, field: Field<String>, report: &mut Report<'_>, ok: &mut bool) -> Option<String> {
    let url = match field {
        Field::Absent => {
            report.error(at, "missing (required for an http hook)");
            *ok = false;
            return None;
        }
        Field::Wrong(other) => {
            report.error(at, format!("expected a URL string, got {}", show(&other)));
            *ok = false;
            return None;
        }
        Field::Ok(url) => url.trim().to_owned(),
    };
    let host = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .map(|rest| rest.split(['/', '?', '#']).next().unwrap_or(""));
    match host {
        Some(host) if !host.is_empty() => Some(url),
        Some(_) => {
            report.error(at, format!("{url:?} has no host"));
            *ok = false;
            None
        }
        None => {
            report.error(at, format!("{url:?} is not an http:// or https:// URL"));
            *ok = false;
            None
        }
    }
}

/// An RFC 9110 token: what a header name may be.
fn valid_header_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}
