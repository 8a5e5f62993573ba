//! Reading one settings file into hook entries.
//!
//! The format is typed, and every level of it is read in two halves:
//!
//! - its *shape* ([`shape`]): a serde / schemars type saying what the level may hold,
//!   each field a [`Field`](shape::field::Field) that keeps a wrong value for the
//!   message instead of failing the level. The JSON Schema
//!   (`docs/settings.schema.json`) is generated from these types by
//!   [`settings_schema`].
//! - its *check* ([`check`]): what serde cannot express (timeouts and their units,
//!   ranges and clamps, one of path/source, path and variable expansion), turning the
//!   shape into [`ParsedSettings`], [`HookEntry`] and [`HookSpec`] values and
//!   reporting each problem with its file, event, group, hook and field while its
//!   neighbours still load.
//!
//! | level                                     | shape             | check             |
//! |-------------------------------------------|-------------------|-------------------|
//! | the file: `tools`, `hooksConfig`, `serve` | [`shape::file`]   | [`check::file`]   |
//! | `hooks`: event name → groups              | [`shape::event`]  | [`check::event`]  |
//! | a group: `matcher`, `sequential`          | [`shape::group`]  | [`check::group`]  |
//! | a hook: `type`, `timeout`, `command` …    | [`shape::hook`]   | [`check::hook`]   |
//! | a plugin hook's `verify`, `preopens` …    | [`shape::plugin`] | [`check::plugin`] |
//!
//! Beside them: [`shape::field`] (`Field`, `Section`), [`shape::value`] (`Count`),
//! and [`check::report`] (where the findings go, and how a value appears in them).
//! This module reads the file's text and hands its top level to
//! [`check::top_level`].

mod check;
mod codex_toml;
mod shape;

use std::path::Path;
use std::sync::Arc;

use serde_json::Value;

pub(crate) use self::check::command::powershell;
pub use self::shape::settings_schema;
use super::diagnostic::Diagnostic;
use super::remote::HookModel;
use super::source::{SettingsFormat, SettingsSource};
use super::spec::{HookSpec, VerifyRule};
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
    /// Where it is configured (`None` for an embedder's function hook): what its
    /// diagnostics and results are about ([`HookEntry::location`] in messages).
    pub at: Option<crate::config::HookAt>,
    /// For [`HookEvent::Other`]: the event name as written in the file.
    pub other_name: Option<Arc<str>>,
    /// The hook's object as written in its file, every key included (`None` for
    /// an embedder's functions): what an approval covers (`crate::trust`).
    pub written: Option<Arc<Value>>,
}

impl HookEntry {
    /// Where in the file, as messages write it: `hooks.BeforeTool[0].hooks[1]`, or
    /// `function` for an embedder's function hook.
    pub fn location(&self) -> String {
        self.at
            .as_ref()
            .map_or_else(|| "function".to_owned(), ToString::to_string)
    }
}

/// What one settings file contributed.
#[derive(Debug, Default)]
pub struct ParsedSettings {
    /// `tools.scrubHookEnv`.
    pub scrub_env: Option<bool>,
    /// `tools.allowManagedHooksOnly` (Claude files: `allowManagedHooksOnly`);
    /// honoured in system settings only.
    pub managed_only: Option<bool>,
    /// A Claude file's `disableAllHooks`, as written.
    pub disable_all_hooks: Option<bool>,
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
    /// `tools.allowedHttpHookUrls`, when the file sets it.
    pub allowed_http_hook_urls: Option<Vec<String>>,
    /// `tools.hookModel`, when the file sets a usable one.
    pub hook_model: Option<HookModel>,
    /// `tools.trace`, as written.
    pub trace: Option<String>,
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
    if source.format == SettingsFormat::Codex
        && source.path.extension().is_some_and(|e| e == "toml")
    {
        match codex_toml::json_root(text) {
            Ok(root) => check::top_level(Value::Object(root), &source, project_dir, &mut parsed),
            Err(e) => {
                parsed
                    .diagnostics
                    .push(Diagnostic::error(format!("{source}: not valid TOML: {e}")));
                parsed.unreadable = true;
            }
        }
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
                check::report::kind_of(&other)
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
    check::top_level(Value::Object(root), &source, project_dir, &mut parsed);
    parsed
}

#[cfg(test)]
mod tests;
