//! Settings discovery (seeds/001 §6.3–6.4, CONTRACT §1): the project, user and system
//! settings files and the extensions, in priority order.

use std::path::{Path, PathBuf};

use super::source::{SettingsFormat, SettingsSource, SourceKind};

/// The environment variable that overrides the system settings path.
pub const SYSTEM_SETTINGS_ENV: &str = "LLXPRT_SYSTEM_SETTINGS_PATH";
/// The system settings path when [`SYSTEM_SETTINGS_ENV`] is unset.
pub const DEFAULT_SYSTEM_SETTINGS: &str = "/etc/llxprt-code/settings.json";
/// Extension manifest names, tried in this order inside an extension directory.
pub const EXTENSION_MANIFESTS: [&str; 2] = ["llxprt-extension.json", "gemini-extension.json"];

/// Every place discovery looks: the settings files and the extension directories,
/// whether they exist or not.
pub fn discovery_locations(project_dir: &Path, compat: Compat) -> Vec<PathBuf> {
    let home = dirs::home_dir();
    let mut paths: Vec<PathBuf> = scope_files(project_dir, false, compat)
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    if let Some(home) = &home {
        paths.extend(scope_files(home, true, compat).into_iter().map(|(p, _)| p));
    }
    paths.push(system_settings_path());
    paths.extend(extension_roots(project_dir, home.as_deref(), compat));
    paths
}

fn system_settings_path() -> PathBuf {
    std::env::var_os(SYSTEM_SETTINGS_ENV)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_SYSTEM_SETTINGS))
}

/// Which other agents' settings discovery also reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Compat {
    /// Claude Code: `.claude/settings.local.json`, `.claude/settings.json`,
    /// `~/.claude/settings.json` (Claude's format and dialect), and the installed
    /// plugins those files enable.
    pub claude: bool,
    /// Gemini CLI: `.gemini/settings.json`, `~/.gemini/settings.json` and the
    /// extensions under `.gemini/extensions/`.
    pub gemini: bool,
    /// Codex: `hooks.json` and the `[hooks]` tables of `config.toml` in
    /// `<project>/.codex` and `$CODEX_HOME` (default `~/.codex`), Claude's format.
    pub codex: bool,
}

/// The environment variable that names the directory of Claude Code's managed
/// settings (default `/etc/claude-code`, as Claude Code reads it on Linux).
pub const CLAUDE_MANAGED_DIR_ENV: &str = "HOOKHOST_CLAUDE_MANAGED_DIR";

/// Claude Code's managed settings: `managed-settings.json`, then the files of
/// `managed-settings.d/` by name — system scope, Claude's format.
fn claude_managed_files() -> Vec<PathBuf> {
    let dir = std::env::var_os(CLAUDE_MANAGED_DIR_ENV)
        .filter(|d| !d.is_empty())
        .map_or_else(|| PathBuf::from("/etc/claude-code"), PathBuf::from);
    let mut files = vec![dir.join("managed-settings.json")];
    if let Ok(entries) = std::fs::read_dir(dir.join("managed-settings.d")) {
        let mut drop_ins: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        drop_ins.sort();
        files.extend(drop_ins);
    }
    files
}

/// The environment variable that names Codex's home directory.
pub const CODEX_HOME_ENV: &str = "CODEX_HOME";

/// The settings files of one scope directory (`<project>` or `~`, `user`), in
/// priority order.
fn scope_files(root: &Path, user: bool, compat: Compat) -> Vec<(PathBuf, SettingsFormat)> {
    let mut files = vec![(
        root.join(".llxprt").join("settings.json"),
        SettingsFormat::Llxprt,
    )];
    if compat.gemini {
        files.push((
            root.join(".gemini").join("settings.json"),
            SettingsFormat::Gemini,
        ));
    }
    if compat.claude {
        for name in ["settings.local.json", "settings.json"] {
            files.push((root.join(".claude").join(name), SettingsFormat::Claude));
        }
    }
    if compat.codex {
        let dir = match std::env::var_os(CODEX_HOME_ENV).filter(|d| user && !d.is_empty()) {
            Some(codex_home) => PathBuf::from(codex_home),
            None => root.join(".codex"),
        };
        for name in ["hooks.json", "config.toml"] {
            files.push((dir.join(name), SettingsFormat::Codex));
        }
    }
    files
}

/// Finds the settings files that exist, highest priority first: project, user,
/// system, then extensions (project extensions before user ones, each by name).
/// Other agents' files (see [`Compat`]) join their scope after hookhost's own.
pub fn discover(project_dir: &Path, compat: Compat) -> Vec<SettingsSource> {
    let home = dirs::home_dir();
    let mut found = Vec::new();
    let mut push = |kind: SourceKind, path: PathBuf, format: SettingsFormat| {
        if path.is_file() {
            found.push(SettingsSource::new(kind, path, project_dir).with_format(format));
        }
    };
    for (path, format) in scope_files(project_dir, false, compat) {
        push(SourceKind::Project, path, format);
    }
    if let Some(home) = &home {
        for (path, format) in scope_files(home, true, compat) {
            push(SourceKind::User, path, format);
        }
    }
    push(
        SourceKind::System,
        system_settings_path(),
        SettingsFormat::Llxprt,
    );
    if compat.claude {
        for path in claude_managed_files() {
            push(SourceKind::System, path, SettingsFormat::Claude);
        }
    }
    for root in extension_roots(project_dir, home.as_deref(), compat) {
        found.extend(extensions_in(&root, project_dir));
    }
    // The settings files are read again (as plain JSON) only when Claude has
    // plugins installed: a `hook` call without any pays one `stat`.
    if compat.claude
        && let Some(home) = &home
        && home.join(INSTALLED_PLUGINS).is_file()
    {
        let claude_files: Vec<PathBuf> = found
            .iter()
            .filter(|s| s.format == SettingsFormat::Claude)
            .map(|s| s.path.clone())
            .collect();
        let settings = super::plugin_options::read_claude_settings(&claude_files);
        found.extend(
            enabled_claude_plugins(home, &settings)
                .iter()
                .map(|(dir, id)| {
                    SettingsSource::claude_plugin(dir, Some(id), &settings, project_dir)
                }),
        );
    }
    found
}

/// Claude Code's record of installed plugins, below the home directory.
const INSTALLED_PLUGINS: &str = ".claude/plugins/installed_plugins.json";

/// The directories of Claude Code's installed plugins (`~/.claude/plugins/
/// installed_plugins.json`, version 1 or 2) that Claude settings enable
/// (`enabledPlugins: {"name@marketplace": true}`; the highest-priority file that
/// names a plugin decides; `settings` are theirs, highest priority first) and that
/// have hooks, each with its id.
pub fn enabled_claude_plugins(
    home: &Path,
    settings: &[serde_json::Value],
) -> Vec<(PathBuf, String)> {
    use serde_json::Value;
    let read = |path: &Path| -> Option<Value> {
        serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
    };
    let Some(installed) = read(&home.join(INSTALLED_PLUGINS)) else {
        return Vec::new();
    };
    let Some(plugins) = installed.get("plugins").and_then(Value::as_object) else {
        return Vec::new();
    };
    let enabled = |id: &str| {
        settings
            .iter()
            .find_map(|s| s.get("enabledPlugins")?.get(id)?.as_bool())
            == Some(true)
    };
    let mut dirs = Vec::new();
    for (id, records) in plugins {
        if !enabled(id) {
            continue;
        }
        // v2: a list of installs (one per scope); v1: one install.
        let records = match records {
            Value::Array(list) => list.iter().collect(),
            other => vec![other],
        };
        for record in records {
            if let Some(dir) = record.get("installPath").and_then(Value::as_str) {
                let dir = PathBuf::from(dir);
                if dir.join("hooks").join("hooks.json").is_file()
                    && !dirs.iter().any(|(d, _)| *d == dir)
                {
                    dirs.push((dir, id.clone()));
                }
            }
        }
    }
    dirs
}

/// Only the other agents' files that [`Compat`] names (project and user scope, and
/// Gemini CLI's extensions), for explicit settings combined with
/// `--claude-settings` / `--gemini-settings`.
pub fn agent_files(project_dir: &Path, compat: Compat) -> Vec<SettingsSource> {
    if !compat.claude && !compat.gemini && !compat.codex {
        return Vec::new();
    }
    discover(project_dir, compat)
        .into_iter()
        .filter(|s| {
            s.format != SettingsFormat::Llxprt
                && !s.path.components().any(|c| c.as_os_str() == ".llxprt")
        })
        .collect()
}

fn extension_roots(project_dir: &Path, home: Option<&Path>, compat: Compat) -> Vec<PathBuf> {
    let agents: &[&str] = if compat.gemini {
        &[".llxprt", ".gemini"]
    } else {
        &[".llxprt"]
    };
    let mut roots = Vec::new();
    for base in std::iter::once(project_dir).chain(home) {
        for agent in agents {
            roots.push(base.join(agent).join("extensions"));
        }
    }
    roots
}

/// The extensions under `root`, sorted by directory name; a directory without a
/// manifest is not an extension.
pub fn extensions_in(root: &Path, project_dir: &Path) -> Vec<SettingsSource> {
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs.into_iter()
        .filter_map(|dir| {
            let manifest = EXTENSION_MANIFESTS
                .iter()
                .map(|name| dir.join(name))
                .find(|p| p.is_file())?;
            let name = dir.file_name()?.to_string_lossy().into_owned();
            let format = if manifest.ends_with("gemini-extension.json") {
                SettingsFormat::Gemini
            } else {
                SettingsFormat::Llxprt
            };
            // Gemini CLI extensions keep their hooks in `hooks/hooks.json`.
            let hooks_file = dir.join("hooks").join("hooks.json");
            let file = if hooks_file.is_file() {
                hooks_file
            } else {
                manifest
            };
            let mut source = SettingsSource::new(SourceKind::Extension(name), file, project_dir)
                .with_format(format);
            source.base_dir = dir;
            Some(source)
        })
        .collect()
}
