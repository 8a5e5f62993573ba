//! Check of a plugin hook's own fields: where its module comes from (`path` or
//! `source` + `verify`), its pin, limits and grants (`env`, `preopens`, `args`), with
//! the checks serde cannot express (one of path/source, clamps, path expansion,
//! which variables a repository's `env` may expand), into a [`PluginConfig`]. A
//! `source` of `builtin:NAME` is one of hookhost's own policies ([`crate::builtin`]):
//! its bytes are written once into the cache and pinned, and it is handed the
//! project, home and temp directories.

use serde_json::{Map, Value};

use super::builtin::{builtin_grants, builtin_source, materialize, pin_builtin};
use super::report::{Report, show};
use crate::config::settings::shape::field::{Field, Section};
use crate::config::settings::shape::hook::HookSettings;
use crate::config::settings::shape::plugin::{PreopenSettings, VerifySettings};
use crate::config::settings::shape::value::Count;
use crate::config::spec::{
    DEFAULT_FUEL, DEFAULT_MEMORY_LIMIT, HookKind, ModuleSource, PluginConfig, Preopen,
};
use crate::distribution::reference::ModuleRef;

/// The largest `memoryLimit` a plugin may have: all of a 32-bit guest's address
/// space. Larger ones are clamped (with a warning): the pool reserves address space
/// per memory, and the limit is a total over every memory and table of the guest.
pub(crate) const MAX_MEMORY_LIMIT: u64 = 4 * 1024 * 1024 * 1024;

/// Checks the plugin fields of `hook`; `None` (with errors) when it cannot run.
pub(super) fn config(at: &str, hook: HookSettings, report: &mut Report<'_>) -> Option<HookKind> {
    let mut ok = true;
    let (builtin, source_field) = builtin_source(at, hook.source, report, &mut ok);
    let (path, source) = match builtin {
        Some(b) => (
            materialize(at, b, report, &mut ok),
            None::<Box<ModuleSource>>,
        ),
        None => module(at, hook.path, source_field, hook.verify, report),
    };
    let mut sha256 = sha256(at, hook.sha256, report, &mut ok);
    let fuel = report
        .take_or_flag(
            &format!("{at}.fuel"),
            hook.fuel,
            "an instruction budget (a positive integer)",
            &mut ok,
        )
        .flatten();
    let memory_limit = memory_limit(at, hook.memory_limit, report, &mut ok);
    let env = env(at, hook.env, report, &mut ok);
    let args = args(at, hook.args, report, &mut ok);
    let preopens = preopens(at, hook.preopens, report, &mut ok);
    let grants = super::grants::grants(at, hook.allowed_hosts, hook.state, report, &mut ok);
    let (mut env, mut preopens) = (env, preopens);
    if let Some(b) = builtin {
        sha256 = pin_builtin(at, b, sha256, report, &mut ok);
        builtin_grants(b, report, &mut env, &mut preopens);
    }
    let path = path?;
    ok.then(|| {
        HookKind::Plugin(PluginConfig {
            builtin: builtin.map(|b| b.name),
            path: path.into(),
            source,
            sha256,
            fuel: fuel.map_or(DEFAULT_FUEL, |Count(n)| n),
            memory_limit: memory_limit.unwrap_or(DEFAULT_MEMORY_LIMIT),
            env,
            preopens,
            args,
            grants,
        })
    })
}

/// Where the module comes from: `path` (resolved), or `source` (with an empty path)
/// and its `verify` key. The path is `None` (with an error) when neither or both are
/// given or the one given is wrong.
fn module(
    at: &str,
    path: Field<String>,
    source: Field<String>,
    verify: Field<Option<Section<VerifySettings>>>,
    report: &mut Report<'_>,
) -> (Option<String>, Option<Box<ModuleSource>>) {
    let verify_given = !verify.is_absent();
    let (path, source) = match (path, source) {
        (path, source) if !path.is_absent() && !source.is_absent() => {
            report.error(
                &format!("{at}.source"),
                "give either \"path\" or \"source\", not both",
            );
            (None, None)
        }
        (Field::Absent, Field::Absent) => {
            report.error(
                &format!("{at}.path"),
                "missing (a plugin hook needs \"path\" or \"source\")",
            );
            (None, None)
        }
        (Field::Absent, source) => match module_source(at, source, verify, report) {
            Some(source) => (Some(String::new()), Some(Box::new(source))),
            None => (None, None),
        },
        (Field::Ok(p), _) if !p.trim().is_empty() => (Some(report.resolve(&p)), None),
        (path, _) => {
            report.error(
                &format!("{at}.path"),
                format!("expected the path of a .wasm file, got {}", got(&path)),
            );
            (None, None)
        }
    };
    if source.is_none() && verify_given {
        report.warning(
            &format!("{at}.verify"),
            "only a \"source\" module is verified; ignored for \"path\"",
        );
    }
    (path, source)
}

/// `sha256`: the pin, 64 hexadecimal digits.
fn sha256(
    at: &str,
    field: Field<Option<String>>,
    report: &mut Report<'_>,
    ok: &mut bool,
) -> Option<[u8; 32]> {
    let at = format!("{at}.sha256");
    let text = report
        .take_or_flag(&at, field, "64 hexadecimal digits", ok)
        .flatten()?;
    let digest = parse_sha256(&text);
    if digest.is_none() {
        let got = show(&Value::String(text));
        report.error(&at, format!("expected 64 hexadecimal digits, got {got}"));
        *ok = false;
    }
    digest
}

/// `memoryLimit` in bytes, clamped to [`MAX_MEMORY_LIMIT`].
fn memory_limit(
    at: &str,
    field: Field<Option<Count>>,
    report: &mut Report<'_>,
    ok: &mut bool,
) -> Option<u64> {
    let at = format!("{at}.memoryLimit");
    let expected = "a number of bytes (a positive integer)";
    let Count(limit) = report.take_or_flag(&at, field, expected, ok).flatten()?;
    if limit > MAX_MEMORY_LIMIT {
        report.warning(
            &at,
            format!(
                "{limit} bytes is more than the maximum of {MAX_MEMORY_LIMIT} (4 GiB); \
                 clamped to it"
            ),
        );
    }
    Some(limit.min(MAX_MEMORY_LIMIT))
}

/// A string field as it appears in messages ("nothing" when absent).
fn got(field: &Field<String>) -> String {
    match field {
        Field::Absent => "nothing".to_owned(),
        Field::Ok(text) => show(&Value::String(text.clone())),
        Field::Wrong(value) => show(value),
    }
}

/// A plugin's `source` (an OCI reference) and its `verify` key.
fn module_source(
    at: &str,
    source: Field<String>,
    verify: Field<Option<Section<VerifySettings>>>,
    report: &mut Report<'_>,
) -> Option<ModuleSource> {
    let reference = match source {
        Field::Ok(text) => match ModuleRef::parse(&text) {
            Ok(reference) => reference,
            Err(problem) => {
                report.error(&format!("{at}.source"), problem);
                return None;
            }
        },
        other => {
            report.error(
                &format!("{at}.source"),
                format!(
                    "expected a reference such as \"oci://ghcr.io/acme/guard:1.0\", got {}",
                    got(&other)
                ),
            );
            return None;
        }
    };
    let verify_key = match verify {
        Field::Absent | Field::Ok(None) => None,
        Field::Ok(Some(Section::Ok(verify, _))) => match verify.key {
            Field::Ok(key) if !key.trim().is_empty() => Some(report.resolve(&key).into()),
            other => {
                report.error(
                    &format!("{at}.verify.key"),
                    format!(
                        "expected the path of a cosign public key (PEM), got {}",
                        got(&other)
                    ),
                );
                return None;
            }
        },
        Field::Ok(Some(Section::Wrong(other))) | Field::Wrong(other) => {
            report.error(
                &format!("{at}.verify"),
                format!(
                    "expected {{\"key\": \"path/to/cosign.pub\"}}, got {}",
                    show(&other)
                ),
            );
            return None;
        }
        Field::Ok(Some(Section::Absent)) => None,
    };
    Some(ModuleSource {
        reference: reference.to_string(),
        verify_key,
        required_key: None,
        digest: reference.digest.clone(),
        problem: None,
    })
}

fn parse_sha256(s: &str) -> Option<[u8; 32]> {
    let mut digest = [0u8; 32];
    hex::decode_to_slice(s.trim(), &mut digest).ok()?;
    Some(digest)
}

/// `env` (of a plugin or command hook); a repository's values expand only the
/// project-dir variables.
pub(super) fn env(
    at: &str,
    field: Field<Option<Map<String, Value>>>,
    report: &mut Report<'_>,
    ok: &mut bool,
) -> Vec<(String, String)> {
    let expected = "an object of strings";
    let Some(map) = report
        .take_or_flag(&format!("{at}.env"), field, expected, ok)
        .flatten()
    else {
        return Vec::new();
    };
    let mut env = Vec::with_capacity(map.len());
    for (k, v) in map {
        match v {
            Value::String(s) if !k.is_empty() && !k.contains('=') => {
                let value = if report.source.is_repository_scope() {
                    report.vars.expand_project_vars(&s)
                } else {
                    report.vars.expand(&s)
                };
                env.push((k, value.into_owned()));
            }
            other => {
                report.error(
                    &format!("{at}.env.{k}"),
                    format!(
                        "expected a string value under a name without '=', got {}",
                        show(&other)
                    ),
                );
                *ok = false;
            }
        }
    }
    env
}

/// `args`: every item a string.
pub(super) fn args(
    at: &str,
    field: Field<Option<Vec<Field<String>>>>,
    report: &mut Report<'_>,
    ok: &mut bool,
) -> Vec<String> {
    let expected = "an array of strings";
    let items = report.take_or_flag(&format!("{at}.args"), field, expected, ok);
    let mut args = Vec::new();
    for (i, item) in items.flatten().unwrap_or_default().into_iter().enumerate() {
        let at = format!("{at}.args[{i}]");
        if let Some(arg) = report.take_or_flag(&at, item, "a string", ok) {
            args.push(arg);
        }
    }
    args
}

/// `preopens`, each checked.
fn preopens(
    at: &str,
    field: Field<Option<Vec<Section<PreopenSettings>>>>,
    report: &mut Report<'_>,
    ok: &mut bool,
) -> Vec<Preopen> {
    let expected = "an array of {host, guest, writable}";
    let items = report.take_or_flag(&format!("{at}.preopens"), field, expected, ok);
    let mut preopens = Vec::new();
    for (i, item) in items.flatten().unwrap_or_default().into_iter().enumerate() {
        let at = format!("{at}.preopens[{i}]");
        match item {
            Section::Ok(item, _) => match preopen(&at, item, report) {
                Some(preopen) => preopens.push(preopen),
                None => *ok = false,
            },
            Section::Wrong(value) => {
                report.error(&at, format!("expected an object, got {}", show(&value)));
                *ok = false;
            }
            Section::Absent => {}
        }
    }
    preopens
}

/// One preopen (at `at`, e.g. `….preopens[0]`); `None` (with errors) when any of its
/// fields is wrong.
fn preopen(at: &str, item: PreopenSettings, report: &mut Report<'_>) -> Option<Preopen> {
    let host = match item.host {
        Field::Ok(h) if !h.is_empty() => Some(report.resolve(&h)),
        other => {
            let got = got(&other);
            report.error(
                &format!("{at}.host"),
                format!("expected a host directory path, got {got}"),
            );
            None
        }
    };
    let guest = match item.guest {
        Field::Ok(g) if g.starts_with('/') => Some(g),
        other => {
            let got = got(&other);
            report.error(
                &format!("{at}.guest"),
                format!("expected an absolute guest path such as \"/project\", got {got}"),
            );
            None
        }
    };
    let writable = report
        .take(&format!("{at}.writable"), item.writable, "true or false")
        .map(|w| w.flatten().unwrap_or(false));
    match (host, guest, writable) {
        (Some(host), Some(guest), Ok(writable)) => Some(Preopen {
            host: host.into(),
            guest,
            writable,
        }),
        _ => None,
    }
}
