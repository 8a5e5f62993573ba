//! The checks of a settings file: what its shapes ([`super::shape`]) mean. Each
//! level turns its shape into validated values — the switches and limits into
//! [`ParsedSettings`], each hook into a [`HookEntry`](super::HookEntry) with its
//! [`HookSpec`](crate::config::spec::HookSpec) and, for a plugin,
//! [`PluginConfig`](crate::config::spec::PluginConfig) — with the checks serde cannot
//! express (timeouts and their units, ranges and clamps, one of path/source, path and
//! variable expansion). Every problem goes to the [`report::Report`] with its file,
//! event, group, hook and field; a bad value skips only what it must.
//!
//! The levels, outermost first: [`file`](mod@file) → [`event`] → [`group`] →
//! [`hook`] → [`command`] | [`plugin`] | [`http`] | [`prompt`]; [`top_level`] starts
//! them.

mod builtin;
pub(super) mod command;
pub(super) mod event;
pub(super) mod file;
mod grants;
pub(super) mod group;
pub(super) mod hook;
pub(super) mod http;
pub(super) mod plugin;
pub(super) mod prompt;
pub(super) mod report;

use std::path::Path;
use std::sync::Arc;

use serde_json::Value;

use self::report::Report;
use super::ParsedSettings;
use super::shape::field::Section;
use super::shape::file::SettingsFile;
use crate::config::expand::ExpandVars;
use crate::config::source::{SettingsSource, SourceKind};

/// Checks the parsed top level of a settings file into `parsed`.
pub(super) fn top_level(
    root: Value,
    source: &Arc<SettingsSource>,
    project_dir: &Path,
    parsed: &mut ParsedSettings,
) {
    let Section::Ok(file, unknown) = Section::<SettingsFile>::from_value(root) else {
        return;
    };
    let extension_dir = match source.kind {
        SourceKind::Extension(_) => Some(source.base_dir.as_path()),
        _ => source.plugin_root.as_deref(),
    };
    let vars = ExpandVars {
        project_dir,
        extension_dir,
    };
    let mut report = Report::new(source, vars);
    let hooks = file::read(file, &unknown, &mut report, parsed);
    parsed.entries = event::entries(hooks, &mut report);
    parsed.diagnostics = report.diagnostics;
}
