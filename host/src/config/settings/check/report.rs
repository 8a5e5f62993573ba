//! Check: where the checks of one settings file write their findings, each
//! prefixed with the file and the place in it (`hooks.BeforeTool[0].hooks[1].timeout`),
//! and how a value as written appears in them ([`show`], [`kind_of`]).

use std::fmt::Display;
use std::path::Path;
use std::sync::Arc;

use serde_json::Value;

use crate::config::diagnostic::{Diagnostic, HookAt};
use crate::config::expand::ExpandVars;
use crate::config::settings::shape::field::Field;
use crate::config::source::SettingsSource;

/// The file being checked, its variables, and what was found so far.
pub(super) struct Report<'a> {
    pub(super) source: &'a Arc<SettingsSource>,
    pub(super) vars: ExpandVars<'a>,
    pub(super) diagnostics: Vec<Diagnostic>,
    /// The group or hook being checked, and its place as the messages write it:
    /// what a finding inside it is about ([`Diagnostic::at`]).
    place: Option<(HookAt, String)>,
}

impl<'a> Report<'a> {
    pub(super) fn new(source: &'a Arc<SettingsSource>, vars: ExpandVars<'a>) -> Report<'a> {
        Report {
            source,
            vars,
            diagnostics: Vec::new(),
            place: None,
        }
    }

    /// Findings from now on are about the group or hook at `place` (`None`: about
    /// the file).
    pub(super) fn enter(&mut self, place: Option<&HookAt>) {
        self.place = place.map(|p| (p.clone(), p.to_string()));
    }

    pub(super) fn error(&mut self, at: &str, problem: impl Display) {
        let d = Diagnostic::error(self.message(at, problem));
        self.push(at, d);
    }

    pub(super) fn unenforced(&mut self, at: &str, problem: impl Display) {
        let d = Diagnostic::unenforced(self.message(at, problem));
        self.push(at, d);
    }

    pub(super) fn warning(&mut self, at: &str, problem: impl Display) {
        let d = Diagnostic::warning(self.message(at, problem));
        self.push(at, d);
    }

    fn message(&self, at: &str, problem: impl Display) -> String {
        format!("{}: {at}: {problem}", self.source)
    }

    /// Adds `d`, found at `at` (a path the checks write from the place they are in),
    /// located: the field is what `at` adds to the group's or hook's place.
    fn push(&mut self, at: &str, d: Diagnostic) {
        let located = self.place.as_ref().and_then(|(place, written)| {
            let rest = at.strip_prefix(written.as_str())?;
            (rest.is_empty() || rest.starts_with('.'))
                .then(|| place.clone().with_field(rest.strip_prefix('.')))
        });
        self.diagnostics.push(d.at(located));
    }

    /// A field's value: `Ok(None)` when absent, `Err` (reported as "expected
    /// {expected}, got …") when wrong.
    pub(super) fn take<T>(
        &mut self,
        at: &str,
        field: Field<T>,
        expected: &str,
    ) -> Result<Option<T>, ()> {
        match field {
            Field::Absent => Ok(None),
            Field::Ok(value) => Ok(Some(value)),
            Field::Wrong(value) => {
                self.error(at, format!("expected {expected}, got {}", show(&value)));
                Err(())
            }
        }
    }

    /// Like [`Report::take`], noting a wrong value in `ok`.
    pub(super) fn take_or_flag<T>(
        &mut self,
        at: &str,
        field: Field<T>,
        expected: &str,
        ok: &mut bool,
    ) -> Option<T> {
        self.take(at, field, expected).unwrap_or_else(|()| {
            *ok = false;
            None
        })
    }

    /// Expands and resolves a path against the source's base directory.
    pub(super) fn resolve(&self, raw: &str) -> String {
        let expanded = self.vars.expand(raw);
        let path = Path::new(expanded.as_ref());
        if path.is_absolute() {
            expanded.into_owned()
        } else {
            self.source
                .base_dir
                .join(path)
                .to_string_lossy()
                .into_owned()
        }
    }
}

/// What kind of JSON value `v` is, for messages.
pub(crate) fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A value as it appears in messages: short JSON.
pub(crate) fn show(v: &Value) -> String {
    match v {
        Value::Array(_) | Value::Object(_) => kind_of(v).to_owned(),
        _ => {
            let mut s = v.to_string();
            if s.len() > 60 {
                let cut = (0..=60).rev().find(|&i| s.is_char_boundary(i)).unwrap_or(0);
                s.truncate(cut);
                s.push('…');
            }
            s
        }
    }
}
