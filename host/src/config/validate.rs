//! Reading one settings file into validated hook entries.
//!
//! Validation walks the JSON by hand instead of deriving `Deserialize`, so that every
//! problem names its file, event, group, hook and field, and so that one bad hook is
//! skipped while its neighbours still load.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use super::diagnostic::Diagnostic;
use super::expand::ExpandVars;
use super::hook::{
    DEFAULT_FUEL, DEFAULT_MEMORY_LIMIT, DEFAULT_TIMEOUT, FailurePolicy, HookKind, HookMode,
    HookSpec, ModuleSource, PluginConfig, Preopen, VerifyRule,
};
use super::source::{SettingsFormat, SettingsSource, SourceKind};
use crate::dialect::{self, Dialect};
use crate::distribution::reference::{ModuleRef, SCHEME};
use crate::event::HookEvent;
use crate::planner::Matcher;

/// Settings files larger than this are refused rather than parsed.
pub const MAX_SETTINGS_BYTES: u64 = 16 * 1024 * 1024;
/// The longest `timeout` a hook may have; longer ones are clamped (with a warning)
/// so that deadline arithmetic cannot overflow (a Claude `timeout` of 2^63 s).
pub const MAX_TIMEOUT: Duration = Duration::from_secs(24 * 60 * 60);
/// The largest `memoryLimit` a plugin may have: all of a 32-bit guest's address
/// space. Larger ones are clamped (with a warning): the pool reserves address space
/// per memory, and the limit is a total over every memory and table of the guest.
pub const MAX_MEMORY_LIMIT: u64 = 4 * 1024 * 1024 * 1024;

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

fn read_text(path: &Path) -> Result<String, String> {
    let bytes = crate::bounded_read::read_regular_file(path, MAX_SETTINGS_BYTES)?;
    String::from_utf8(bytes).map_err(|e| format!("not UTF-8: {e}"))
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
                kind_of(&other)
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
    let extension_dir = match source.kind {
        SourceKind::Extension(_) => Some(source.base_dir.as_path()),
        _ => source.plugin_root.as_deref(),
    };
    let mut walker = Walker {
        source: &source,
        vars: ExpandVars {
            project_dir,
            extension_dir,
        },
        diagnostics: Vec::new(),
    };
    parsed.require_trust = walker.require_trust(&root);
    parsed.sticky_blocks = walker.switch(&root, "tools", "stickyHookBlocks");
    parsed.fail_closed = walker.switch(&root, "tools", "hookFailClosed");
    parsed.serve = ServeLimits {
        max_in_flight: walker.limit(&root, "serve", "maxInFlight"),
        max_processes: walker.limit(&root, "serve", "maxProcesses"),
    };
    parsed.verify_rules = walker.verify_rules(&root);
    parsed.enable_hooks = match source.format {
        // `tools.enableHooks` (LLxprt), else Gemini CLI's `hooksConfig.enabled` or
        // `hooks.enabled`.
        SettingsFormat::Llxprt => walker
            .enable_hooks(&root)
            .or_else(|| walker.switch(&root, "hooksConfig", "enabled"))
            .or_else(|| walker.switch(&root, "hooks", "enabled")),
        // Gemini CLI's `hooksConfig.enabled` defaults to true (its settings schema);
        // `tools.enableHooks` is LLxprt's and still counts when set.
        SettingsFormat::Gemini => walker
            .enable_hooks(&root)
            .or_else(|| walker.switch(&root, "hooksConfig", "enabled"))
            .or_else(|| walker.switch(&root, "hooks", "enabled"))
            .or(Some(true)),
        // Claude Code runs hooks unless `disableAllHooks` is true.
        SettingsFormat::Claude => Some(root.get("disableAllHooks") != Some(&Value::Bool(true))),
    };
    walker.misspelt_switches(&root);
    parsed.disabled = ["hooksConfig", "hooks"]
        .iter()
        .flat_map(|parent| walker.names(&root, parent, "disabled"))
        .collect();
    if let Some(hooks) = root.get("hooks") {
        parsed.entries = walker.hooks(hooks);
    }
    parsed.diagnostics = walker.diagnostics;
    parsed
}

struct Walker<'a> {
    source: &'a Arc<SettingsSource>,
    vars: ExpandVars<'a>,
    diagnostics: Vec<Diagnostic>,
}

/// The keys a hook entry may carry, for the unknown-key warning.
const COMMON_KEYS: [&str; 6] = [
    "type",
    "timeout",
    "name",
    "description",
    "failurePolicy",
    "mode",
];
const COMMAND_KEYS: [&str; 1] = ["command"];
const PLUGIN_KEYS: [&str; 9] = [
    "path",
    "source",
    "verify",
    "sha256",
    "fuel",
    "memoryLimit",
    "env",
    "preopens",
    "args",
];

impl Walker<'_> {
    fn error(&mut self, at: &str, problem: impl std::fmt::Display) {
        let source = self.source;
        self.diagnostics
            .push(Diagnostic::error(format!("{source}: {at}: {problem}")));
    }

    fn unenforced(&mut self, at: &str, problem: impl std::fmt::Display) {
        let source = self.source;
        self.diagnostics
            .push(Diagnostic::unenforced(format!("{source}: {at}: {problem}")));
    }

    fn warning(&mut self, at: &str, problem: impl std::fmt::Display) {
        let source = self.source;
        self.diagnostics
            .push(Diagnostic::warning(format!("{source}: {at}: {problem}")));
    }

    /// A boolean `parent.key`: `tools.requireHookTrust`, Gemini CLI's
    /// `hooksConfig.enabled` / `hooks.enabled`.
    fn switch(&mut self, root: &Map<String, Value>, parent: &str, key: &str) -> Option<bool> {
        match root.get(parent)?.get(key)? {
            Value::Bool(b) => Some(*b),
            other => {
                self.error(
                    &format!("{parent}.{key}"),
                    format!("expected true or false, got {}", show(other)),
                );
                None
            }
        }
    }

    /// A positive whole number `parent.key` (`serve.maxInFlight`).
    fn limit(&mut self, root: &Map<String, Value>, parent: &str, key: &str) -> Option<usize> {
        let value = root.get(parent)?.get(key)?;
        match positive_integer(value).and_then(|n| usize::try_from(n).ok()) {
            Some(n) => Some(n),
            None if value.is_null() => None,
            None => {
                self.error(
                    &format!("{parent}.{key}"),
                    format!("expected a positive whole number, got {}", show(value)),
                );
                None
            }
        }
    }

    /// `tools.requireHookTrust`; a value that is not a boolean counts as `true`
    /// (when unsure, review).
    fn require_trust(&mut self, root: &Map<String, Value>) -> Option<bool> {
        match root.get("tools")?.get("requireHookTrust")? {
            Value::Null => None,
            Value::Bool(b) => Some(*b),
            other => {
                self.error(
                    "tools.requireHookTrust",
                    format!(
                        "expected true or false, got {}; trust stays required",
                        show(other)
                    ),
                );
                Some(true)
            }
        }
    }

    /// A list of strings `parent.key` (Gemini CLI's `hooksConfig.disabled`).
    fn names(&mut self, root: &Map<String, Value>, parent: &str, key: &str) -> Vec<String> {
        match root.get(parent).and_then(|p| p.get(key)) {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) if items.iter().all(Value::is_string) => items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            Some(other) => {
                self.error(
                    &format!("{parent}.{key}"),
                    format!("expected an array of hook names, got {}", show(other)),
                );
                Vec::new()
            }
        }
    }

    /// Keys next to the switches that are probably typos of them
    /// (`tools.enabledHooks`): an error, since the switch they meant is not set.
    fn misspelt_switches(&mut self, root: &Map<String, Value>) {
        const SWITCHES: [(&str, &[&str]); 4] = [
            (
                "tools",
                &[
                    "enableHooks",
                    "requireHookTrust",
                    "stickyHookBlocks",
                    "hookFailClosed",
                ],
            ),
            ("hooksConfig", &["enabled", "disabled"]),
            (
                "",
                &["hooks", "hooksConfig", "tools", "disableAllHooks", "serve"],
            ),
            ("serve", &["maxInFlight", "maxProcesses"]),
        ];
        for (parent, known) in SWITCHES {
            let object = if parent.is_empty() {
                Some(root)
            } else {
                root.get(parent).and_then(Value::as_object)
            };
            let Some(object) = object else { continue };
            for key in object.keys() {
                if known.contains(&key.as_str()) {
                    continue;
                }
                if let Some(meant) = crate::suggest::suggestion(key, known.iter().copied()) {
                    let at = if parent.is_empty() {
                        key.clone()
                    } else {
                        format!("{parent}.{key}")
                    };
                    self.error(
                        &at,
                        format!("unknown setting; did you mean {meant:?}? (it is ignored)"),
                    );
                }
            }
        }
    }

    fn enable_hooks(&mut self, root: &Map<String, Value>) -> Option<bool> {
        match root.get("tools")? {
            Value::Object(tools) => match tools.get("enableHooks")? {
                Value::Bool(b) => Some(*b),
                other => {
                    self.error(
                        "tools.enableHooks",
                        format!("expected true or false, got {}", show(other)),
                    );
                    None
                }
            },
            other => {
                self.error("tools", format!("expected an object, got {}", show(other)));
                None
            }
        }
    }

    fn hooks(&mut self, hooks: &Value) -> Vec<HookEntry> {
        let Value::Object(events) = hooks else {
            self.error(
                "hooks",
                format!("expected an object of events, got {}", show(hooks)),
            );
            return Vec::new();
        };
        let mut entries = Vec::new();
        for (name, groups) in events {
            if name == "enabled" || name == "disabled" {
                // Gemini CLI's switches, read by `switch` and `names`.
                continue;
            }
            let at = format!("hooks.{name}");
            let (event, named_dialect, other_name) = match dialect::parse_event(name) {
                Some((event, dialect)) => (event, dialect, None),
                None if self.source.format != SettingsFormat::Llxprt => {
                    // Claude Code and Gemini CLI add events; a file written for a newer
                    // agent must not lose its other hooks, nor fail a fire.
                    let hint = crate::suggest::suggestion(name, known_event_names())
                        .map(|s| format!(" (did you mean {s:?}?)"))
                        .unwrap_or_default();
                    self.warning(
                        &at,
                        format!(
                            "event {name:?} is not one hookhost knows{hint}; its hooks run with \
                             generic semantics when it is fired (e.g. by `hookhost hook`)"
                        ),
                    );
                    let dialect = match self.source.format {
                        SettingsFormat::Claude => Dialect::Claude,
                        _ => Dialect::Llxprt,
                    };
                    (HookEvent::Other, dialect, Some(Arc::from(name.as_str())))
                }
                None => {
                    let e = crate::event::UnknownEvent(name.clone());
                    self.error(
                        &at,
                        format!(
                            "{e}, or a Claude Code name (PreToolUse, PostToolUse, \
                             UserPromptSubmit, Stop, SubagentStop, PermissionRequest, …); \
                             its hooks are skipped"
                        ),
                    );
                    continue;
                }
            };
            let hook_dialect = match self.source.format {
                SettingsFormat::Claude => Dialect::Claude,
                SettingsFormat::Llxprt | SettingsFormat::Gemini => named_dialect,
            };
            let Value::Array(groups) = groups else {
                self.error(
                    &at,
                    format!("expected an array of hook groups, got {}", show(groups)),
                );
                continue;
            };
            for (g, group) in groups.iter().enumerate() {
                let first = entries.len();
                self.group(
                    (event, hook_dialect),
                    &format!("{at}[{g}]"),
                    group,
                    &mut entries,
                );
                for entry in &mut entries[first..] {
                    entry.other_name.clone_from(&other_name);
                }
            }
        }
        entries
    }

    fn group(
        &mut self,
        (event, dialect): (HookEvent, Dialect),
        at: &str,
        group: &Value,
        out: &mut Vec<HookEntry>,
    ) {
        let Value::Object(group) = group else {
            self.error(
                at,
                format!("expected a hook group object, got {}", show(group)),
            );
            return;
        };
        let matcher_raw = match group.get("matcher") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.as_str()),
            Some(other) => {
                self.error(
                    &format!("{at}.matcher"),
                    format!(
                        "expected a regular expression string, got {}; the group is skipped",
                        show(other)
                    ),
                );
                return;
            }
        };
        let sequential = match group.get("sequential") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                self.error(
                    &format!("{at}.sequential"),
                    format!(
                        "expected true or false, got {}; the group is skipped",
                        show(other)
                    ),
                );
                return;
            }
        };
        for key in group.keys() {
            if !matches!(key.as_str(), "matcher" | "sequential" | "hooks") {
                self.warning(&format!("{at}.{key}"), "unknown key, ignored");
            }
        }
        let hooks = match group.get("hooks") {
            Some(Value::Array(hooks)) => hooks,
            Some(other) => {
                self.error(
                    &format!("{at}.hooks"),
                    format!("expected an array of hooks, got {}", show(other)),
                );
                return;
            }
            None => {
                self.error(&format!("{at}.hooks"), "missing (required)");
                return;
            }
        };
        // Claude Code: a plain name (or `A|B` list) is exact, anything else a regex.
        let claude_matcher = dialect == Dialect::Claude && event.matcher_field().is_some();
        // LLxprt/Gemini Notification has no matcher (seeds/001); Claude's filters on
        // `notification_type`.
        let llxprt_notification = dialect != Dialect::Claude && event == HookEvent::Notification;
        let matcher = if claude_matcher {
            let (matcher, warning) = Matcher::claude(matcher_raw);
            if let Some(warning) = warning {
                self.warning(&format!("{at}.matcher"), warning);
            }
            matcher
        } else if event.has_tool_name() || event == HookEvent::Other {
            let (matcher, warning) = Matcher::compile(matcher_raw);
            if let Some(warning) = warning {
                self.warning(&format!("{at}.matcher"), warning);
            }
            matcher
        } else if event.matcher_field().is_some() && !llxprt_notification {
            Matcher::exact(matcher_raw)
        } else {
            if !Matcher::exact(matcher_raw).is_all() {
                self.warning(
                    &format!("{at}.matcher"),
                    format!("{event} has no tool name; the matcher is ignored"),
                );
            }
            Matcher::All
        };
        for (h, hook) in hooks.iter().enumerate() {
            let location = format!("{at}.hooks[{h}]");
            if let Some(spec) = self.hook(&location, hook) {
                out.push(HookEntry {
                    event,
                    dialect,
                    matcher: matcher.clone(),
                    sequential,
                    spec,
                    source: Arc::clone(self.source),
                    location,
                    other_name: None,
                });
            }
        }
    }

    /// Validates one hook; `None` (with an error) when it cannot run.
    fn hook(&mut self, at: &str, hook: &Value) -> Option<HookSpec> {
        let first_diagnostic = self.diagnostics.len();
        let Value::Object(hook) = hook else {
            self.error(
                at,
                format!(
                    "expected a hook object, got {}; the hook is skipped",
                    show(hook)
                ),
            );
            return None;
        };
        let type_name = match hook.get("type") {
            Some(Value::String(t)) if t == "command" || t == "plugin" => t.as_str(),
            Some(other) => {
                self.error(
                    &format!("{at}.type"),
                    format!(
                        "expected \"command\" or \"plugin\", got {}; the hook is skipped",
                        show(other)
                    ),
                );
                return None;
            }
            None => {
                self.error(
                    &format!("{at}.type"),
                    "missing (required: \"command\" or \"plugin\"); the hook is skipped",
                );
                return None;
            }
        };
        let specific: &[&str] = if type_name == "command" {
            &COMMAND_KEYS
        } else {
            &PLUGIN_KEYS
        };
        for key in hook.keys() {
            if !COMMON_KEYS.contains(&key.as_str()) && !specific.contains(&key.as_str()) {
                let known = COMMON_KEYS.iter().chain(specific).copied();
                let hint = crate::suggest::suggestion(key, known)
                    .map(|s| format!(" (did you mean {s:?}?)"))
                    .unwrap_or_default();
                self.warning(
                    &format!("{at}.{key}"),
                    format!("unknown key for a {type_name} hook, ignored{hint}"),
                );
            }
        }
        let mut ok = true;
        let timeout = self
            .millis(at, hook, "timeout")
            .unwrap_or_else(|()| {
                ok = false;
                None
            })
            .unwrap_or(DEFAULT_TIMEOUT);
        let name = self.opt_string(at, hook, "name", &mut ok);
        let description = self.opt_string(at, hook, "description", &mut ok);
        let failure_policy = match hook.get("failurePolicy") {
            None | Some(Value::Null) => FailurePolicy::Allow,
            Some(Value::String(s)) if s == "allow" => FailurePolicy::Allow,
            Some(Value::String(s)) if s == "block" => FailurePolicy::Block,
            Some(other) => {
                self.error(
                    &format!("{at}.failurePolicy"),
                    format!("expected \"allow\" or \"block\", got {}", show(other)),
                );
                ok = false;
                FailurePolicy::Allow
            }
        };
        let mode = match hook.get("mode") {
            None | Some(Value::Null) => HookMode::Enforce,
            Some(Value::String(s)) if s == "enforce" => HookMode::Enforce,
            Some(Value::String(s)) if s == "monitor" => HookMode::Monitor,
            Some(other) => {
                self.error(
                    &format!("{at}.mode"),
                    format!("expected \"enforce\" or \"monitor\", got {}", show(other)),
                );
                ok = false;
                HookMode::Enforce
            }
        };
        let kind = if type_name == "command" {
            self.command(at, hook)
        } else {
            self.plugin(at, hook)
        };
        let Some(kind) = kind.filter(|_| ok) else {
            for d in &mut self.diagnostics[first_diagnostic..] {
                if d.is_error() {
                    d.message.push_str("; the hook is skipped");
                }
            }
            return None;
        };
        let name = name.unwrap_or_else(|| match &kind {
            HookKind::Command { command } => command.clone(),
            HookKind::Plugin(PluginConfig {
                source: Some(source),
                ..
            }) => source.reference.clone(),
            HookKind::Plugin(p) => p
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| p.path.display().to_string()),
        });
        Some(HookSpec {
            name,
            description,
            kind,
            timeout,
            failure_policy,
            mode,
        })
    }

    fn command(&mut self, at: &str, hook: &Map<String, Value>) -> Option<HookKind> {
        match hook.get("command") {
            Some(Value::String(c)) if !c.trim().is_empty() => Some(HookKind::Command {
                command: self.vars.expand_extension_path(c),
            }),
            Some(Value::String(_)) => {
                self.error(&format!("{at}.command"), "is empty");
                None
            }
            Some(other) => {
                self.error(
                    &format!("{at}.command"),
                    format!("expected a command string, got {}", show(other)),
                );
                None
            }
            None => {
                self.error(
                    &format!("{at}.command"),
                    "missing (required for a command hook)",
                );
                None
            }
        }
    }

    fn plugin(&mut self, at: &str, hook: &Map<String, Value>) -> Option<HookKind> {
        let mut ok = true;
        let (path, source) = match (hook.get("path"), hook.get("source")) {
            (Some(_), Some(_)) => {
                self.error(
                    &format!("{at}.source"),
                    "give either \"path\" or \"source\", not both",
                );
                (None, None)
            }
            (None, Some(source)) => match self.source(at, hook, source) {
                Some(source) => (Some(String::new()), Some(Box::new(source))),
                None => (None, None),
            },
            (Some(Value::String(p)), None) if !p.trim().is_empty() => (Some(self.resolve(p)), None),
            (Some(other), None) => {
                self.error(
                    &format!("{at}.path"),
                    format!("expected the path of a .wasm file, got {}", show(other)),
                );
                (None, None)
            }
            (None, None) => {
                self.error(
                    &format!("{at}.path"),
                    "missing (a plugin hook needs \"path\" or \"source\")",
                );
                (None, None)
            }
        };
        if source.is_none() && hook.contains_key("verify") {
            self.warning(
                &format!("{at}.verify"),
                "only a \"source\" module is verified; ignored for \"path\"",
            );
        }
        let sha256 = match hook.get("sha256") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => match parse_sha256(s) {
                Some(digest) => Some(digest),
                None => {
                    self.error(
                        &format!("{at}.sha256"),
                        format!(
                            "expected 64 hexadecimal digits, got {}",
                            show(&Value::String(s.clone()))
                        ),
                    );
                    ok = false;
                    None
                }
            },
            Some(other) => {
                self.error(
                    &format!("{at}.sha256"),
                    format!("expected 64 hexadecimal digits, got {}", show(other)),
                );
                ok = false;
                None
            }
        };
        let fuel = self.count(at, hook, "fuel", "an instruction budget", &mut ok);
        let memory_limit = self
            .count(at, hook, "memoryLimit", "a number of bytes", &mut ok)
            .map(|limit| {
                if limit > MAX_MEMORY_LIMIT {
                    self.warning(
                        &format!("{at}.memoryLimit"),
                        format!(
                            "{limit} bytes is more than the maximum of {MAX_MEMORY_LIMIT} (4 GiB); clamped to it"
                        ),
                    );
                }
                limit.min(MAX_MEMORY_LIMIT)
            });
        let env = self.env(at, hook, &mut ok);
        let args = self.args(at, hook, &mut ok);
        let preopens = self.preopens(at, hook, &mut ok);
        let path = path?;
        ok.then(|| {
            HookKind::Plugin(PluginConfig {
                path: path.into(),
                source,
                sha256,
                fuel: fuel.unwrap_or(DEFAULT_FUEL),
                memory_limit: memory_limit.unwrap_or(DEFAULT_MEMORY_LIMIT),
                env,
                preopens,
                args,
            })
        })
    }

    /// `tools.verifyPlugins`: `[{"prefix": "oci://…", "key": "path/to/cosign.pub"}]`.
    fn verify_rules(&mut self, root: &Map<String, Value>) -> Vec<VerifyRule> {
        let at = "tools.verifyPlugins";
        let Some(value) = root.get("tools").and_then(|t| t.get("verifyPlugins")) else {
            return Vec::new();
        };
        let Value::Array(rules) = value else {
            if !value.is_null() {
                self.error(
                    at,
                    format!(
                        "expected a list of {{\"prefix\", \"key\"}}, got {}",
                        show(value)
                    ),
                );
            }
            return Vec::new();
        };
        let mut parsed = Vec::new();
        for (i, rule) in rules.iter().enumerate() {
            let prefix = rule.get("prefix").and_then(Value::as_str).map(str::trim);
            let key = rule.get("key").and_then(Value::as_str).map(str::trim);
            match (prefix, key) {
                (Some(prefix), Some(key)) if !prefix.is_empty() && !key.is_empty() => {
                    let prefix = if prefix.starts_with(SCHEME) {
                        prefix.to_owned()
                    } else {
                        format!("{SCHEME}{prefix}")
                    };
                    parsed.push(VerifyRule {
                        prefix,
                        key: self.resolve(key).into(),
                    });
                }
                _ => self.error(
                    &format!("{at}[{i}]"),
                    format!(
                        "expected {{\"prefix\": \"oci://REGISTRY/…\", \"key\": \"path/to/cosign.pub\"}}, got {}; \
                         the rule is skipped",
                        show(rule)
                    ),
                ),
            }
        }
        parsed
    }

    /// A plugin's `source` (an OCI reference) and its `verify` key.
    fn source(
        &mut self,
        at: &str,
        hook: &Map<String, Value>,
        source: &Value,
    ) -> Option<ModuleSource> {
        let reference = match source {
            Value::String(text) => match ModuleRef::parse(text) {
                Ok(reference) => reference,
                Err(problem) => {
                    self.error(&format!("{at}.source"), problem);
                    return None;
                }
            },
            other => {
                self.error(
                    &format!("{at}.source"),
                    format!(
                        "expected a reference such as \"oci://ghcr.io/acme/guard:1.0\", got {}",
                        show(other)
                    ),
                );
                return None;
            }
        };
        let verify_key = match hook.get("verify") {
            None | Some(Value::Null) => None,
            Some(Value::Object(verify)) => match verify.get("key") {
                Some(Value::String(key)) if !key.trim().is_empty() => {
                    Some(self.resolve(key).into())
                }
                other => {
                    self.error(
                        &format!("{at}.verify.key"),
                        format!(
                            "expected the path of a cosign public key (PEM), got {}",
                            other.map_or_else(|| "nothing".to_owned(), show)
                        ),
                    );
                    return None;
                }
            },
            Some(other) => {
                self.error(
                    &format!("{at}.verify"),
                    format!(
                        "expected {{\"key\": \"path/to/cosign.pub\"}}, got {}",
                        show(other)
                    ),
                );
                return None;
            }
        };
        Some(ModuleSource {
            reference: reference.to_string(),
            verify_key,
            digest: reference.digest.clone(),
            problem: None,
        })
    }

    /// Expands and resolves a path against the source's base directory.
    fn resolve(&self, raw: &str) -> String {
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

    /// `Ok(None)` when absent, `Err` (reported) when invalid.
    fn millis(
        &mut self,
        at: &str,
        hook: &Map<String, Value>,
        key: &str,
    ) -> Result<Option<Duration>, ()> {
        match hook.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => match (positive_integer(v), self.source.format) {
                (Some(ms), SettingsFormat::Llxprt | SettingsFormat::Gemini) => {
                    if ms < 100 {
                        // Claude Code's timeouts are seconds: `"timeout": 10` copied
                        // here is 10 ms, and the hook times out and fails open.
                        self.unenforced(
                            &format!("{at}.{key}"),
                            format!(
                                "{ms} ms is too short for a hook to start; timeouts here are \
                                 milliseconds (Claude Code's are seconds): did you mean {}?",
                                ms * 1000
                            ),
                        );
                    }
                    Ok(Some(self.clamp_timeout(at, key, Duration::from_millis(ms))))
                }
                (Some(s), SettingsFormat::Claude) => {
                    Ok(Some(self.clamp_timeout(at, key, Duration::from_secs(s))))
                }
                (None, format) => {
                    let unit = match format {
                        SettingsFormat::Llxprt | SettingsFormat::Gemini => "milliseconds",
                        SettingsFormat::Claude => "seconds",
                    };
                    self.error(
                        &format!("{at}.{key}"),
                        format!("expected a positive number of {unit}, got {}", show(v)),
                    );
                    Err(())
                }
            },
        }
    }

    fn clamp_timeout(&mut self, at: &str, key: &str, timeout: Duration) -> Duration {
        if timeout <= MAX_TIMEOUT {
            return timeout;
        }
        self.warning(
            &format!("{at}.{key}"),
            format!(
                "longer than the maximum of {} hours; clamped to it",
                MAX_TIMEOUT.as_secs() / 3600
            ),
        );
        MAX_TIMEOUT
    }

    fn count(
        &mut self,
        at: &str,
        hook: &Map<String, Value>,
        key: &str,
        what: &str,
        ok: &mut bool,
    ) -> Option<u64> {
        let v = hook.get(key).filter(|v| !v.is_null())?;
        let n = positive_integer(v);
        if n.is_none() {
            self.error(
                &format!("{at}.{key}"),
                format!("expected {what} (a positive integer), got {}", show(v)),
            );
            *ok = false;
        }
        n
    }

    fn opt_string(
        &mut self,
        at: &str,
        hook: &Map<String, Value>,
        key: &str,
        ok: &mut bool,
    ) -> Option<String> {
        match hook.get(key) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => {
                self.error(
                    &format!("{at}.{key}"),
                    format!("expected a string, got {}", show(other)),
                );
                *ok = false;
                None
            }
        }
    }

    fn env(&mut self, at: &str, hook: &Map<String, Value>, ok: &mut bool) -> Vec<(String, String)> {
        match hook.get("env") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Object(map)) => {
                let mut env = Vec::with_capacity(map.len());
                for (k, v) in map {
                    match v {
                        Value::String(s) if !k.is_empty() && !k.contains('=') => {
                            let value = if self.source.is_repository_scope() {
                                self.vars.expand_project_vars(s)
                            } else {
                                self.vars.expand(s)
                            };
                            env.push((k.clone(), value.into_owned()));
                        }
                        _ => {
                            self.error(
                                &format!("{at}.env.{k}"),
                                format!(
                                    "expected a string value under a name without '=', got {}",
                                    show(v)
                                ),
                            );
                            *ok = false;
                        }
                    }
                }
                env
            }
            Some(other) => {
                self.error(
                    &format!("{at}.env"),
                    format!("expected an object of strings, got {}", show(other)),
                );
                *ok = false;
                Vec::new()
            }
        }
    }

    fn args(&mut self, at: &str, hook: &Map<String, Value>, ok: &mut bool) -> Vec<String> {
        match hook.get("args") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => {
                let mut args = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    match item {
                        Value::String(s) => args.push(s.clone()),
                        other => {
                            self.error(
                                &format!("{at}.args[{i}]"),
                                format!("expected a string, got {}", show(other)),
                            );
                            *ok = false;
                        }
                    }
                }
                args
            }
            Some(other) => {
                self.error(
                    &format!("{at}.args"),
                    format!("expected an array of strings, got {}", show(other)),
                );
                *ok = false;
                Vec::new()
            }
        }
    }

    fn preopens(&mut self, at: &str, hook: &Map<String, Value>, ok: &mut bool) -> Vec<Preopen> {
        let items = match hook.get("preopens") {
            None | Some(Value::Null) => return Vec::new(),
            Some(Value::Array(items)) => items,
            Some(other) => {
                self.error(
                    &format!("{at}.preopens"),
                    format!(
                        "expected an array of {{host, guest, writable}}, got {}",
                        show(other)
                    ),
                );
                *ok = false;
                return Vec::new();
            }
        };
        let mut preopens = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let pat = format!("{at}.preopens[{i}]");
            let Value::Object(item) = item else {
                self.error(&pat, format!("expected an object, got {}", show(item)));
                *ok = false;
                continue;
            };
            let host = match item.get("host") {
                Some(Value::String(h)) if !h.is_empty() => Some(self.resolve(h)),
                other => {
                    self.error(
                        &format!("{pat}.host"),
                        format!(
                            "expected a host directory path, got {}",
                            other.map_or_else(|| "nothing".to_owned(), show)
                        ),
                    );
                    None
                }
            };
            let guest = match item.get("guest") {
                Some(Value::String(g)) if g.starts_with('/') => Some(g.clone()),
                other => {
                    self.error(
                        &format!("{pat}.guest"),
                        format!(
                            "expected an absolute guest path such as \"/project\", got {}",
                            other.map_or_else(|| "nothing".to_owned(), show)
                        ),
                    );
                    None
                }
            };
            let writable = match item.get("writable") {
                None | Some(Value::Null) => Some(false),
                Some(Value::Bool(b)) => Some(*b),
                Some(other) => {
                    self.error(
                        &format!("{pat}.writable"),
                        format!("expected true or false, got {}", show(other)),
                    );
                    None
                }
            };
            match (host, guest, writable) {
                (Some(host), Some(guest), Some(writable)) => preopens.push(Preopen {
                    host: host.into(),
                    guest,
                    writable,
                }),
                _ => *ok = false,
            }
        }
        preopens
    }
}

/// A JSON number that is a positive whole number (`5000` or `5000.0`).
fn positive_integer(v: &Value) -> Option<u64> {
    if let Some(n) = v.as_u64() {
        return (n > 0).then_some(n);
    }
    let f = v.as_f64()?;
    (f >= 1.0 && f.fract() == 0.0 && f <= u64::MAX as f64).then_some(f as u64)
}

fn parse_sha256(s: &str) -> Option<[u8; 32]> {
    let mut digest = [0u8; 32];
    hex::decode_to_slice(s.trim(), &mut digest).ok()?;
    Some(digest)
}

/// Every event name hookhost knows, for "did you mean".
fn known_event_names() -> impl Iterator<Item = &'static str> {
    HookEvent::ALL
        .iter()
        .map(|e| e.as_str())
        .chain(dialect::CLAUDE_EVENTS.iter().map(|(n, _)| *n))
}

fn kind_of(v: &Value) -> &'static str {
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
fn show(v: &Value) -> String {
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
