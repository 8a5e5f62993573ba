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
        SettingsFormat::Claude | SettingsFormat::Codex => {
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

/// Shell builtins and keywords a command may start with: never a missing program.
const SHELL_WORDS: [&str; 36] = [
    "cd", "export", "if", "[", "[[", "test", "echo", "exec", "source", ".", "true", "false",
    "printf", "read", "set", "unset", ":", "{", "(", "for", "while", "until", "case", "exit",
    "return", "eval", "command", "type", "trap", "wait", "shift", "local", "umask", "ulimit", "!",
    "time",
];

/// The program a command hook starts, when it does not exist: a path that is not
/// an executable file, or a name found nowhere on `PATH`. Commands whose first word
/// is a variable, an assignment or a shell word are not judged.
pub fn missing_program(command: &str, project_dir: &std::path::Path) -> Option<String> {
    let words = shlex::split(command)?;
    let first = words.first()?;
    if first.contains('$')
        || first.contains('=')
        || first.contains('`')
        || first.starts_with('~')
        || SHELL_WORDS.contains(&first.as_str())
    {
        return None;
    }
    let runnable = |p: &std::path::Path| {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if first.contains('/') {
        let path = project_dir.join(first);
        return (!runnable(&path)).then(|| first.clone());
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = std::env::split_paths(&path).any(|dir| runnable(&dir.join(first)));
    (!found).then(|| first.clone())
}

/// Whether a command runs `hookhost hook` (hookhost registered in an agent's
/// settings that hookhost itself reads).
pub fn is_hookhost_itself(command: &str) -> bool {
    let Some(words) = shlex::split(command) else {
        return false;
    };
    words
        .windows(2)
        .any(|w| is_hookhost_program(&w[0]) && w[1] == "hook")
}

/// Whether `program` names hookhost: a `hookhost` binary, or the launcher of its
/// npm package (`…/node_modules/hookhost/bin/hookhost.js`, what the `hookhost` on
/// `PATH` resolves to after `npm install -g`).
pub fn is_hookhost_program(program: &str) -> bool {
    std::path::Path::new(program)
        .file_name()
        .is_some_and(|n| n == "hookhost" || n == "hookhost.js")
}
