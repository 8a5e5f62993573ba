//! Where a settings file came from: its scope, its priority, and the directory its
//! relative paths resolve against.

use std::fmt;
use std::path::{Path, PathBuf};

/// The scope of a settings file. Declaration order is priority order (seeds/001 §6.3:
/// Project > User > System > Extensions); explicit `--settings` files rank by position.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SourceKind {
    /// A file given explicitly (`--settings`), ranked by its position.
    Explicit,
    /// `<project>/.llxprt/settings.json`.
    Project,
    /// `~/.llxprt/settings.json`.
    User,
    /// The system settings file (`LLXPRT_SYSTEM_SETTINGS_PATH` or
    /// `/etc/llxprt-code/settings.json`).
    System,
    /// An extension's manifest; carries the extension's name.
    Extension(String),
}

/// The format of a settings file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum SettingsFormat {
    /// LLxprt / Gemini CLI settings: timeouts in milliseconds, `tools.enableHooks`.
    #[default]
    Llxprt,
    /// Claude Code settings (`.claude/settings.json`): timeouts in seconds, hooks on
    /// unless `disableAllHooks`, every hook in Claude's dialect.
    Claude,
    /// Gemini CLI settings (`.gemini/settings.json`, extensions' `hooks/hooks.json`):
    /// as LLxprt's, but hooks are on unless `hooksConfig.enabled` is false (Gemini
    /// CLI's settings schema), and event names hookhost does not know are run
    /// generically instead of refused.
    Gemini,
    /// Codex (`.codex/hooks.json`, the `[hooks]` tables of `.codex/config.toml`):
    /// Claude Code's format and dialect (Codex's files use Claude's vocabulary),
    /// hooks on unless `[features] hooks = false`.
    Codex,
}

impl SettingsFormat {
    /// The format a file's location says it has: in a `.claude` directory (or a
    /// Claude Code plugin's `hooks/`), Claude's; in a `.gemini` directory, Gemini's.
    pub fn from_location(path: &Path) -> Option<SettingsFormat> {
        let dir = path.parent()?;
        match dir.file_name()?.to_str()? {
            ".claude" => Some(SettingsFormat::Claude),
            ".gemini" => Some(SettingsFormat::Gemini),
            ".codex" => Some(SettingsFormat::Codex),
            "hooks" => {
                let root = dir.parent()?;
                if root.join(".claude-plugin").join("plugin.json").is_file() {
                    Some(SettingsFormat::Claude)
                } else if root.join("gemini-extension.json").is_file() {
                    Some(SettingsFormat::Gemini)
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// The format the content says: `hooks` keyed by Claude-only event names, or
    /// Claude's `disableAllHooks` / `permissions`, without LLxprt's switch.
    pub fn from_content(
        root: &serde_json::Map<String, serde_json::Value>,
    ) -> Option<SettingsFormat> {
        if root
            .get("tools")
            .and_then(|t| t.get("enableHooks"))
            .is_some()
        {
            return None;
        }
        let claude_events = root
            .get("hooks")
            .and_then(serde_json::Value::as_object)
            .is_some_and(|hooks| {
                hooks.keys().any(|name| {
                    crate::dialect::parse_event(name)
                        .is_some_and(|(_, d)| d == crate::dialect::Dialect::Claude)
                })
            });
        let claude_keys = root.contains_key("disableAllHooks") || root.contains_key("permissions");
        if claude_events || claude_keys {
            Some(SettingsFormat::Claude)
        } else if root.contains_key("hooksConfig") {
            Some(SettingsFormat::Gemini)
        } else {
            None
        }
    }

    /// Whether hooks in this format are read as Claude Code reads them (Claude's
    /// event and tool names, timeouts in seconds, `disableAllHooks`): Claude's and
    /// Codex's files.
    pub fn is_claude_like(self) -> bool {
        matches!(self, SettingsFormat::Claude | SettingsFormat::Codex)
    }

    /// The agent whose format this is, for messages.
    pub fn agent(self) -> &'static str {
        match self {
            SettingsFormat::Llxprt => "LLxprt Code",
            SettingsFormat::Claude => "Claude Code",
            SettingsFormat::Gemini => "Gemini CLI",
            SettingsFormat::Codex => "Codex",
        }
    }
}

/// One settings file and how to read paths inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsSource {
    /// The scope of the file.
    pub kind: SourceKind,
    /// The format of the file.
    pub format: SettingsFormat,
    /// The file itself.
    pub path: PathBuf,
    /// Relative plugin paths resolve against this directory: the project dir for
    /// project settings, the extension's dir for extensions, else the file's dir
    /// (or its parent when the file sits in a `.llxprt`, `.gemini` or `.claude` dir).
    pub base_dir: PathBuf,
    /// How the file is named in messages, e.g. `project settings .llxprt/settings.json`.
    pub label: String,
    /// For a Claude Code plugin's `hooks/hooks.json`: the plugin's directory, the
    /// value of `${CLAUDE_PLUGIN_ROOT}`.
    pub plugin_root: Option<PathBuf>,
    /// For a Claude Code plugin: its name (`.claude-plugin/plugin.json`), which
    /// names its data directory.
    pub plugin_name: Option<String>,
    /// For a Claude Code plugin: its id as Claude's settings name it
    /// (`name@marketplace` when installed), which names Claude's data directory.
    pub plugin_id: Option<String>,
    /// For a Claude Code plugin: its options (`CLAUDE_PLUGIN_OPTION_<KEY>`,
    /// `${user_config.KEY}`), key and value.
    pub plugin_options: Vec<(String, String)>,
}

impl SettingsSource {
    /// A source for `path` of the given kind; `project_dir` shortens labels.
    pub fn new(kind: SourceKind, path: PathBuf, project_dir: &Path) -> SettingsSource {
        let shown = path
            .strip_prefix(project_dir)
            .map(Path::to_path_buf)
            .unwrap_or_else(|_| path.clone());
        let label = match &kind {
            SourceKind::Explicit => format!("settings {}", shown.display()),
            SourceKind::Project => format!("project settings {}", shown.display()),
            SourceKind::User => format!("user settings {}", shown.display()),
            SourceKind::System => format!("system settings {}", shown.display()),
            SourceKind::Extension(name) => format!("extension {name} ({})", shown.display()),
        };
        let base_dir = base_dir_of(&kind, &path, project_dir);
        SettingsSource {
            kind,
            format: SettingsFormat::Llxprt,
            path,
            base_dir,
            label,
            plugin_root: None,
            plugin_name: None,
            plugin_id: None,
            plugin_options: Vec::new(),
        }
    }

    /// The same source read as a Claude Code settings file.
    pub fn claude(self) -> SettingsSource {
        self.with_format(SettingsFormat::Claude)
    }

    /// The same source read in `format` (labelled `claude …` / `gemini …`).
    pub fn with_format(mut self, format: SettingsFormat) -> SettingsSource {
        if format == self.format {
            return self;
        }
        self.format = format;
        let prefix = match format {
            SettingsFormat::Claude => "claude ",
            SettingsFormat::Codex => "codex ",
            SettingsFormat::Gemini => "",
            SettingsFormat::Llxprt => "",
        };
        self.label = format!("{prefix}{}", self.label);
        self
    }

    /// The hooks of a Claude Code plugin directory (`.claude-plugin/plugin.json` +
    /// `hooks/hooks.json`): read in Claude's format, paths and
    /// `${CLAUDE_PLUGIN_ROOT}` relative to `dir`. `id` is its id in Claude's
    /// settings (`name@marketplace`; default its name); its options come from
    /// `claude_settings` (`config/plugin_options.rs`).
    pub fn claude_plugin(
        dir: &Path,
        id: Option<&str>,
        claude_settings: &[serde_json::Value],
        project_dir: &Path,
    ) -> SettingsSource {
        let name = std::fs::read_to_string(dir.join(".claude-plugin").join("plugin.json"))
            .ok()
            .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
            .and_then(|v| v.get("name").and_then(|n| n.as_str()).map(str::to_owned))
            .or_else(|| dir.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "plugin".to_owned());
        let path = dir.join("hooks").join("hooks.json");
        let mut source = SettingsSource::new(SourceKind::Explicit, path, project_dir).claude();
        source.label = format!("claude plugin {name} ({})", source.path.display());
        source.base_dir = dir.to_path_buf();
        source.plugin_root = Some(dir.to_path_buf());
        let id = id.map_or_else(|| name.clone(), str::to_owned);
        source.plugin_options = super::plugin_options::options(dir, &id, claude_settings);
        source.plugin_id = Some(id);
        source.plugin_name = Some(name);
        source
    }

    /// Whether the file comes with the repository rather than from the user: project
    /// settings and extensions. Such a file is code the user did not write; with
    /// trust required its hooks need approval, and it can never switch off, disable
    /// or outrank the hooks of the user's own files.
    pub fn is_repository_scope(&self) -> bool {
        matches!(self.kind, SourceKind::Project | SourceKind::Extension(_))
    }

    /// Whether this file's `source` plugins are locked in the user's lock rather
    /// than the project's: the user's and the system's settings (Claude's and
    /// Gemini's user files too), and explicit files, extensions and Claude plugins
    /// that live outside `project_dir` (a team's central file, an installed
    /// plugin). What is inside the project is locked with the project.
    pub fn uses_user_lock(&self, project_dir: &Path) -> bool {
        let outside = |path: &Path| {
            let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
            !canonical(path).starts_with(canonical(project_dir))
        };
        match &self.kind {
            SourceKind::User | SourceKind::System => true,
            SourceKind::Project => false,
            SourceKind::Explicit | SourceKind::Extension(_) => {
                outside(self.plugin_root.as_deref().unwrap_or(&self.path))
            }
        }
    }

    /// The lock a hook of this file is locked in: the user's for the user's and
    /// the system's files and anything outside the project
    /// ([`SettingsSource::uses_user_lock`]), else the project's.
    pub fn lock_path(&self, project_dir: &Path) -> PathBuf {
        use crate::distribution::lock::{lock_path, user_lock_path};
        if self.uses_user_lock(project_dir)
            && let Some(user) = user_lock_path()
        {
            return user;
        }
        lock_path(project_dir)
    }

    /// An extension's or Claude Code plugin's persistent data directory
    /// (`${pluginDataDir}`, `${CLAUDE_PLUGIN_DATA}`): Claude's own for a Claude
    /// plugin (`~/.claude/plugins/data/<id>`), else
    /// `$XDG_DATA_HOME/hookhost/plugin-data/<name>`, by name so that it survives
    /// reinstalls and upgrades (which move the plugin's own directory). Not created
    /// here: on first use.
    pub fn plugin_data_dir(&self) -> Option<PathBuf> {
        if let Some(id) = &self.plugin_id {
            // A Claude Code plugin's data lives where Claude keeps it, shared.
            return super::plugin_options::claude_data_dir(id);
        }
        let name = match &self.kind {
            SourceKind::Extension(name) => Some(name.as_str()),
            _ => self.plugin_name.as_deref(),
        }?;
        // A name is one path component: no separators, no `..`.
        let name: String = name
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || "-_.@".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let name = if name.trim_matches('.').is_empty() {
            "_".to_owned()
        } else {
            name
        };
        Some(
            dirs::data_dir()?
                .join("hookhost")
                .join("plugin-data")
                .join(name),
        )
    }

    /// A short name of the scope, as `hookhost check` shows it.
    pub fn scope(&self) -> &str {
        match &self.kind {
            SourceKind::Explicit => "settings",
            SourceKind::Project => "project",
            SourceKind::User => "user",
            SourceKind::System => "system",
            SourceKind::Extension(_) => "extension",
        }
    }
}

fn base_dir_of(kind: &SourceKind, path: &Path, project_dir: &Path) -> PathBuf {
    let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    match kind {
        SourceKind::Project => project_dir.to_path_buf(),
        SourceKind::Extension(_) => dir,
        _ => {
            let in_agent_dir = dir
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| matches!(n, ".llxprt" | ".gemini" | ".claude"));
            match (in_agent_dir, dir.parent()) {
                (true, Some(parent)) => parent.to_path_buf(),
                _ => dir,
            }
        }
    }
}

impl fmt::Display for SettingsSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label)
    }
}
