//! Which agent a settings file given with `--settings` was written for: a Claude
//! Code or Gemini CLI file read as LLxprt's would run nothing (hooks off by default)
//! or run with the wrong units, silently.

use super::diagnostic::Diagnostic;
use super::source::{SettingsFormat, SettingsSource, SourceKind};

/// An explicit LLxprt-format source, re-read in the format its location (a
/// `.claude` / `.gemini` directory) or content (Claude-only event names,
/// `disableAllHooks`, Gemini's `hooksConfig`) shows; said with a warning.
pub(super) fn explicit_format(
    source: SettingsSource,
    diagnostics: &mut Vec<Diagnostic>,
) -> SettingsSource {
    if source.kind != SourceKind::Explicit || source.format != SettingsFormat::Llxprt {
        return source;
    }
    let (format, why) = match SettingsFormat::from_location(&source.path) {
        Some(format) => (format, "by its location"),
        None => match content_format(&source) {
            Some(format) => (format, "by its content"),
            None => return source,
        },
    };
    let units = match format {
        SettingsFormat::Claude => {
            "Claude's event and tool names, timeouts in seconds, hooks on unless disableAllHooks"
        }
        _ => "timeouts in milliseconds, hooks on unless hooksConfig.enabled is false",
    };
    diagnostics.push(Diagnostic::warning(format!(
        "{source}: read as {} settings ({why}): {units}",
        format.agent()
    )));
    source.with_format(format)
}

fn content_format(source: &SettingsSource) -> Option<SettingsFormat> {
    let meta = std::fs::metadata(&source.path).ok()?;
    if !meta.is_file() || meta.len() > super::MAX_SETTINGS_BYTES {
        return None;
    }
    let text = std::fs::read_to_string(&source.path).ok()?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let stripped = json_comments::StripComments::new(text.as_bytes());
    match serde_json::from_reader::<_, serde_json::Value>(stripped).ok()? {
        serde_json::Value::Object(root) => SettingsFormat::from_content(&root),
        _ => None,
    }
}
