//! Settings discovery (seeds/001 §6.3–6.4, CONTRACT §1): the project, user and system
//! settings files and the extensions, in priority order.

use std::path::{Path, PathBuf};

use super::source::{SettingsSource, SourceKind};

/// The environment variable that overrides the system settings path.
pub const SYSTEM_SETTINGS_ENV: &str = "LLXPRT_SYSTEM_SETTINGS_PATH";
/// The system settings path when [`SYSTEM_SETTINGS_ENV`] is unset.
pub const DEFAULT_SYSTEM_SETTINGS: &str = "/etc/llxprt-code/settings.json";
/// Extension manifest names, tried in this order inside an extension directory.
pub const EXTENSION_MANIFESTS: [&str; 2] = ["llxprt-extension.json", "gemini-extension.json"];

/// Every place discovery looks: the three settings files and the two extension
/// directories, whether they exist or not.
pub fn discovery_locations(project_dir: &Path) -> Vec<PathBuf> {
    let mut paths = vec![
        project_dir.join(".llxprt").join("settings.json"),
        project_dir.join(".llxprt").join("extensions"),
        system_settings_path(),
    ];
    if let Some(home) = dirs::home_dir() {
        paths.push(home.join(".llxprt").join("settings.json"));
        paths.push(home.join(".llxprt").join("extensions"));
        paths.push(home.join(".claude").join("settings.json"));
    }
    paths.push(project_dir.join(".claude").join("settings.json"));
    paths.push(project_dir.join(".claude").join("settings.local.json"));
    paths
}

fn system_settings_path() -> PathBuf {
    std::env::var_os(SYSTEM_SETTINGS_ENV)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_SYSTEM_SETTINGS))
}

/// Finds the settings files that exist, highest priority first: project, user,
/// system, then extensions (project extensions before user ones, each by name).
/// With `claude`, Claude Code's files join their scope, after hookhost's own:
/// `.claude/settings.local.json` and `.claude/settings.json` after the project
/// settings, `~/.claude/settings.json` after the user settings.
pub fn discover(project_dir: &Path, claude: bool) -> Vec<SettingsSource> {
    let home = dirs::home_dir();
    let mut found = Vec::new();
    let mut push = |kind: SourceKind, path: PathBuf, is_claude: bool| {
        if path.is_file() {
            let source = SettingsSource::new(kind, path, project_dir);
            found.push(if is_claude { source.claude() } else { source });
        }
    };
    push(
        SourceKind::Project,
        project_dir.join(".llxprt").join("settings.json"),
        false,
    );
    if claude {
        let dir = project_dir.join(".claude");
        push(SourceKind::Project, dir.join("settings.local.json"), true);
        push(SourceKind::Project, dir.join("settings.json"), true);
    }
    if let Some(home) = &home {
        push(
            SourceKind::User,
            home.join(".llxprt").join("settings.json"),
            false,
        );
        if claude {
            push(
                SourceKind::User,
                home.join(".claude").join("settings.json"),
                true,
            );
        }
    }
    push(SourceKind::System, system_settings_path(), false);
    let mut extension_roots = vec![project_dir.join(".llxprt").join("extensions")];
    if let Some(home) = &home {
        extension_roots.push(home.join(".llxprt").join("extensions"));
    }
    for root in extension_roots {
        found.extend(extensions_in(&root, project_dir));
    }
    found
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
            Some(SettingsSource::new(
                SourceKind::Extension(name),
                manifest,
                project_dir,
            ))
        })
        .collect()
}
