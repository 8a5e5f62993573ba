//! Check of a plugin hook's grants: `allowedHosts` (each entry parsed, a URL or a
//! bare `*` refused with what to write instead) and `state` (`true`, `false` or
//! `{"maxBytes": N}`), into [`Grants`]. The store's scope comes from the file: a
//! repository's plugin gets its project's store, never the user's.

use serde_json::Value;

use super::report::{Report, show};
use crate::config::grants::{
    DEFAULT_STATE_MAX_BYTES, Grants, HostPattern, MAX_STATE_MAX_BYTES, StateGrant,
};
use crate::config::settings::shape::field::Field;

/// `allowedHosts` and `state` of the hook at `at`.
pub(super) fn grants(
    at: &str,
    allowed_hosts: Field<Option<Vec<Field<String>>>>,
    state: Field<Option<Value>>,
    report: &mut Report<'_>,
    ok: &mut bool,
) -> Grants {
    Grants {
        allowed_hosts: hosts(at, allowed_hosts, report, ok),
        state: state_grant(at, state, report, ok),
    }
}

fn hosts(
    at: &str,
    field: Field<Option<Vec<Field<String>>>>,
    report: &mut Report<'_>,
    ok: &mut bool,
) -> Vec<HostPattern> {
    let expected = "an array of hosts such as \"api.example.com\" or \"127.0.0.1:8080\"";
    let items = report.take_or_flag(&format!("{at}.allowedHosts"), field, expected, ok);
    let mut hosts = Vec::new();
    for (i, item) in items.flatten().unwrap_or_default().into_iter().enumerate() {
        let at = format!("{at}.allowedHosts[{i}]");
        let Some(text) = report.take_or_flag(&at, item, "a host string", ok) else {
            continue;
        };
        match HostPattern::parse(&text) {
            Ok(pattern) => {
                if !hosts.contains(&pattern) {
                    hosts.push(pattern);
                }
            }
            Err(problem) => {
                let got = show(&Value::String(text));
                report.error(&at, format!("{got} is {problem}"));
                *ok = false;
            }
        }
    }
    hosts
}

fn state_grant(
    at: &str,
    field: Field<Option<Value>>,
    report: &mut Report<'_>,
    ok: &mut bool,
) -> Option<StateGrant> {
    let at = format!("{at}.state");
    let expected = "true, false or {\"maxBytes\": N}";
    let value = report.take_or_flag(&at, field, expected, ok).flatten()?;
    let max_bytes = match value {
        Value::Bool(false) => return None,
        Value::Bool(true) => DEFAULT_STATE_MAX_BYTES,
        Value::Object(map) => {
            let mut max_bytes = DEFAULT_STATE_MAX_BYTES;
            for (key, value) in map {
                match (key.as_str(), value.as_u64()) {
                    ("maxBytes", Some(n)) if n > 0 => max_bytes = n,
                    ("maxBytes", _) => {
                        report.error(
                            &format!("{at}.maxBytes"),
                            format!(
                                "expected a number of bytes (a positive integer), got {}",
                                show(&value)
                            ),
                        );
                        *ok = false;
                        return None;
                    }
                    (other, _) => {
                        report.error(
                            &format!("{at}.{other}"),
                            "unknown key (the state grant has only \"maxBytes\")",
                        );
                        *ok = false;
                        return None;
                    }
                }
            }
            max_bytes
        }
        other => {
            report.error(&at, format!("expected {expected}, got {}", show(&other)));
            *ok = false;
            return None;
        }
    };
    if max_bytes > MAX_STATE_MAX_BYTES {
        report.warning(
            &format!("{at}.maxBytes"),
            format!("{max_bytes} bytes is more than the maximum of {MAX_STATE_MAX_BYTES} (1 GiB); clamped to it"),
        );
    }
    let scope = if report.source.is_repository_scope() {
        let dir = report.vars.project_dir;
        let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        format!("project {}", dir.display())
    } else {
        "user".to_owned()
    };
    Some(StateGrant {
        max_bytes: max_bytes.min(MAX_STATE_MAX_BYTES),
        scope,
    })
}
