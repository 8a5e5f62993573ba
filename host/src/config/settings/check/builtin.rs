//! A plugin hook whose `source` is `builtin:NAME` ([`crate::builtin`]): the
//! builtin found, its bytes written once into the cache and pinned, and what
//! hookhost hands it (the project, home and temp directories; a read-only view of
//! the project for one that reads it).

use super::report::Report;
use crate::builtin::{self, Builtin};
use crate::config::settings::shape::field::Field;
use crate::config::spec::Preopen;

/// A `source` of `builtin:NAME`: the builtin (the field is used up), or the field
/// back for [`module`].
pub(super) fn builtin_source(
    at: &str,
    source: Field<String>,
    report: &mut Report<'_>,
    ok: &mut bool,
) -> (Option<&'static Builtin>, Field<String>) {
    let Field::Ok(text) = &source else {
        return (None, source);
    };
    let Some(name) = text.trim().strip_prefix(builtin::SCHEME) else {
        return (None, source);
    };
    match builtin::find(name.trim()) {
        Ok(b) => (Some(b), Field::Absent),
        Err(e) => {
            report.error(&format!("{at}.source"), e.to_string());
            *ok = false;
            (None, Field::Absent)
        }
    }
}

/// The builtin's bytes, written once into the cache; the file's path.
pub(super) fn materialize(
    at: &str,
    b: &'static Builtin,
    report: &mut Report<'_>,
    ok: &mut bool,
) -> Option<String> {
    match b.materialize(&builtin::cache_dir()) {
        Ok(path) => Some(path.to_string_lossy().into_owned()),
        Err(e) => {
            report.error(&format!("{at}.source"), e.to_string());
            *ok = false;
            None
        }
    }
}

/// A builtin is pinned to its own bytes; a `sha256` of another module is an error.
pub(super) fn pin_builtin(
    at: &str,
    b: &'static Builtin,
    given: Option<[u8; 32]>,
    report: &mut Report<'_>,
    ok: &mut bool,
) -> Option<[u8; 32]> {
    if given.is_some_and(|pin| pin != b.sha256()) {
        report.error(
            &format!("{at}.sha256"),
            format!(
                "is not the digest of builtin:{} ({}); remove it or pin that",
                b.name,
                b.digest()
            ),
        );
        *ok = false;
    }
    Some(b.sha256())
}

/// What hookhost hands a builtin: the project and home directories and the temp
/// directory (`HOOKHOST_PROJECT_DIR`, `HOME`, `TMPDIR`, unless the hook's `env`
/// sets them), and a read-only view of the project for one that reads it.
pub(super) fn builtin_grants(
    b: &'static Builtin,
    report: &Report<'_>,
    env: &mut Vec<(String, String)>,
    preopens: &mut Vec<Preopen>,
) {
    let project = report.vars.project_dir.to_string_lossy().into_owned();
    let home = dirs::home_dir().map(|h| h.to_string_lossy().into_owned());
    let tmp = std::env::temp_dir().to_string_lossy().into_owned();
    for (name, value) in [
        ("HOOKHOST_PROJECT_DIR", Some(project.clone())),
        ("HOME", home),
        ("TMPDIR", Some(tmp)),
    ] {
        if let Some(value) = value
            && !env.iter().any(|(k, _)| k == name)
        {
            env.push((name.to_owned(), value));
        }
    }
    if b.reads_project && !preopens.iter().any(|p| p.guest == project) {
        preopens.push(Preopen {
            host: report.vars.project_dir.to_path_buf(),
            guest: project,
            writable: false,
        });
    }
}
