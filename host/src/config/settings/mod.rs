//! Reading one settings file into hook entries.
//!
//! The format is typed: one struct per level (the file in [`file`], events in
//! [`event`], a group in [`group`], a hook in [`hook`], a plugin's fields in
//! [`plugin`]), each field a [`field::Field`] so that a wrong value is reported with
//! its file, event, group, hook and field while its neighbours still load. The
//! checks serde cannot express follow each level's deserialisation, and the JSON
//! Schema (`docs/settings.schema.json`) is generated from the same types by
//! [`settings_schema`].

mod event;
mod field;
mod file;
mod group;
mod hook_settings;
mod plugin;
mod report;
mod value;

use std::path::Path;
use std::sync::Arc;

use serde_json::Value;

use self::field::Section;
use self::report::Report;
use super::diagnostic::Diagnostic;
use super::expand::ExpandVars;
use super::spec::{HookSpec, VerifyRule};
use super::source::{SettingsSource, SourceKind};
use crate::dialect::Dialect;
use crate::event::HookEvent;
use crate::planner::Matcher;

/// Settings files larger than this are refused rather than parsed.
pub const MAX_SETTINGS_BYTES: u64 = 16 * 1024 * 1024;

/// One hook as it was configured: event, group settings, the hook, and its source.
#[derive(Debug, Clone)]
pub struct HookEntry {
    /// The event the hook is registered for.
    pub event: HookEvent,
    /// The dialect the hook speaks (from the event name it was registered under, or
    /// the file's format).
    pub dialect: Dialect,
    /// The group's matcher, compiled.
    pub matcher: Matcher,
    /// The group's `sequential` flag.
    pub sequential: bool,
    /// The hook.
    pub spec: HookSpec,
    /// The file it came from.
    pub source: Arc<SettingsSource>,
    /// Where in the file, e.g. `hooks.BeforeTool[0].hooks[1]`.
    pub location: String,
    /// For [`HookEvent::Other`]: the event name as written in the file.
    pub other_name: Option<Arc<str>>,
}

/// What one settings file contributed.
#[derive(Debug, Default)]
pub struct ParsedSettings {
    /// `tools.enableHooks`, when the file sets it.
    pub enable_hooks: Option<bool>,
    /// `tools.requireHookTrust`, when the file sets it.
    pub require_trust: Option<bool>,
    /// `tools.stickyHookBlocks`, when the file sets it.
    pub sticky_blocks: Option<bool>,
    /// `tools.hookFailClosed`, when the file sets it.
    pub fail_closed: Option<bool>,
    /// Hook names (or command strings) this file disables (Gemini CLI's
    /// `hooksConfig.disabled` / `hooks.disabled`).
    pub disabled: Vec<String>,
    /// The hooks that loaded, in file order.
    pub entries: Vec<HookEntry>,
    /// Everything that was wrong.
    pub diagnostics: Vec<Diagnostic>,
    /// The file could not be read or is not a JSON object: what it asks for is
    /// unknown (trust stays required when it is the user's).
    pub unreadable: bool,
    /// `serve.maxInFlight` / `serve.maxProcesses` (`hookhost serve`'s limits).
    pub serve: ServeLimits,
    /// `tools.verifyPlugins`: signature keys per reference prefix.
    pub verify_rules: Vec<VerifyRule>,
}

/// The limits of `hookhost serve` a settings file may set (`"serve": {"maxInFlight":
/// 64, "maxProcesses": 8}`); the command-line flags and environment win over them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ServeLimits {
    /// Requests of one stream in flight at most.
    pub max_in_flight: Option<usize>,
    /// Hook processes at once, across all requests.
    pub max_processes: Option<usize>,
}

/// Reads and validates a settings file. Never fails: problems become diagnostics.
pub fn load_file(source: Arc<SettingsSource>, project_dir: &Path) -> ParsedSettings {
    match read_text(&source.path) {
        Ok(text) => parse_settings(&text, source, project_dir),
        Err(problem) => ParsedSettings {
            diagnostics: vec![Diagnostic::error(format!("{source}: {problem}"))],
            unreadable: true,
            ..ParsedSettings::default()
        },
    }
}

/// Why the text of a settings file cannot be read (the caller names the file).
#[derive(Debug, thiserror::Error)]
enum ReadTextError {
    /// Not a regular file, too large, or unreadable.
    #[error(transparent)]
    Read(#[from] crate::bounded_read::ReadError),
    /// The bytes are not UTF-8.
    #[error("not UTF-8: {0}")]
    NotUtf8(#[from] std::string::FromUtf8Error),
}

fn read_text(path: &Path) -> Result<String, ReadTextError> {
    let bytes = crate::bounded_read::read_regular_file(path, MAX_SETTINGS_BYTES)?;
    Ok(String::from_utf8(bytes)?)
}

/// Validates the text of a settings file.
pub fn parse_settings(
    text: &str,
    source: Arc<SettingsSource>,
    project_dir: &Path,
) -> ParsedSettings {
    let mut parsed = ParsedSettings::default();
    // Editors on some systems save a byte-order mark; JSON parsers in the agents skip it.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        // An empty file is an empty configuration, as editors leave it.
        return parsed;
    }
    // Agents' settings files are JSON with comments (LLxprt and Gemini CLI strip
    // `//` and `/* */` comments); comments become whitespace, so positions in
    // parse errors stay right.
    let stripped = json_comments::StripComments::new(text.as_bytes());
    let root = match serde_json::from_reader::<_, Value>(stripped) {
        Ok(Value::Object(root)) => root,
        Ok(other) => {
            parsed.diagnostics.push(Diagnostic::error(format!(
                "{source}: expected a JSON object at the top level, got {}",
                value::kind_of(&other)
            )));
            parsed.unreadable = true;
            return parsed;
        }
        Err(e) => {
            parsed
                .diagnostics
                .push(Diagnostic::error(format!("{source}: not valid JSON: {e}")));
            parsed.unreadable = true;
            return parsed;
        }
    };
    check(Value::Object(root), &source, project_dir, &mut parsed);
    parsed
}

/// Checks the parsed top level of a settings file.
fn check(
    root: Value,
    source: &Arc<SettingsSource>,
    project_dir: &Path,
    parsed: &mut ParsedSettings,
) {
    let Section::Ok(file, unknown) = Section::<file::SettingsFile>::from_value(root) else {
        return;
    };
    let extension_dir = match source.kind {
        SourceKind::Extension(_) => Some(source.base_dir.as_path()),
        _ => source.plugin_root.as_deref(),
    };
    let mut report = Report {
        source,
        vars: ExpandVars {
            project_dir,
            extension_dir,
        },
        diagnostics: Vec::new(),
    };
    let hooks = file::read(file, &unknown, &mut report, parsed);
    parsed.entries = event::entries(hooks, &mut report);
    parsed.diagnostics = report.diagnostics;
}

/// The JSON Schema of settings files, generated from the types that read them
/// (`docs/settings.schema.json` is this, pretty-printed).
pub fn settings_schema() -> Value {
    let mut schema = schemars::generate::SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<file::SettingsFile>()
        .to_value();
    unwrap_descriptions(&mut schema);
    schema
}

/// Joins the lines of doc comments (wrapped for the source, not for an editor's
/// tooltip); paragraphs stay apart.
fn unwrap_descriptions(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            for (key, value) in object.iter_mut() {
                match value {
                    Value::String(text) if key == "description" => {
                        *text = text
                            .split("\n\n")
                            .map(|paragraph| paragraph.replace('\n', " "))
                            .collect::<Vec<_>>()
                            .join("\n\n");
                    }
                    other => unwrap_descriptions(other),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(unwrap_descriptions),
        _ => {}
    }
}

#[cfg(test)]
mod tests;
