//! Settings: discovery, per-file validation, and layering by priority.
//!
//! Files are read once when a [`crate::HookSystem`] is built (seeds/001 §7.8). Every
//! file contributes its hooks; the priority of a file (Project > User > System >
//! Extensions, or the order of explicit files) orders hooks and decides which of two
//! duplicates is kept. `tools.enableHooks` is taken from the highest-priority settings
//! file that sets it and defaults to `false`; an extension manifest contributes hooks
//! but cannot switch them on (seeds/001 §6.1, §6.3).

mod detect;
mod diagnostic;
mod discover;
mod expand;
mod grants;
mod layer;
mod managed;
mod plugin_options;
mod remote;
mod settings;
mod source;
mod spec;

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use detect::{is_hookhost_itself, is_hookhost_program, missing_program};
pub use diagnostic::{Diagnostic, HookAt, Severity};
pub use discover::{Compat, discover, discovery_locations};
pub use expand::PROJECT_DIR_VARS;
pub use grants::{
    DEFAULT_STATE_MAX_BYTES, Grants, HostPattern, HostPatternError, MAX_STATE_MAX_BYTES, StateGrant,
};
// What only the HTTP grant reads.
#[cfg(feature = "plugins")]
pub use grants::{authority, canonical as canonical_address, is_internal as is_internal_address};
pub use remote::{HookModel, HttpUrlAllowList, ModelProvider};
pub use spec::{
    CommandConfig, Execution, FailurePolicy, HookKind, HookMode, HookSpec, HttpConfig,
    ModuleSource, PluginConfig, PromptConfig, Shell, VerifyRule,
};
// What only the Wasm runner reads.
pub(crate) use plugin_options::env_name as plugin_option_env;
pub(crate) use settings::powershell;
pub use settings::{HookEntry, MAX_SETTINGS_BYTES, ServeLimits, load_file, settings_schema};
pub use source::{SettingsFormat, SettingsSource, SourceKind};
#[cfg(feature = "plugins")]
pub use spec::{DEFAULT_FUEL, DEFAULT_MEMORY_LIMIT, Preopen};
// What the fuzz targets build hooks from (through `internals`).
#[cfg(feature = "internals")]
pub use settings::parse_settings;

/// Where settings come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingsLocation {
    /// Discover project, user and system settings and extensions, and the other
    /// agents' settings that [`Compat`] names.
    Discover(Compat),
    /// Exactly these files, first = highest priority, then the other agents' settings
    /// that [`Compat`] names (`--settings X --claude-settings` reads both).
    Files(Vec<PathBuf>, Compat),
}

/// All settings, layered.
#[derive(Debug, Default)]
pub struct LoadedSettings {
    /// `tools.enableHooks` after layering.
    pub enabled: bool,
    /// `tools.requireHookTrust` after layering; project settings and extensions
    /// cannot set it (a repository must not be able to waive its own review).
    pub require_trust: bool,
    /// `tools.stickyHookBlocks`: on when any settings file turns it on (it only ever
    /// adds blocks, so no file can waive another's).
    pub sticky_blocks: bool,
    /// `tools.hookFailClosed`: on when any settings file turns it on (it only ever
    /// adds denies). `hookhost hook` then turns any failure into a deny.
    pub fail_closed: bool,
    /// `tools.scrubHookEnv`: on when any settings file turns it on (no file, a
    /// repository's least of all, can hand the agent's secrets back to hooks).
    pub scrub_env: bool,
    /// `hookhost serve`'s limits from the user's own files (the highest-priority file
    /// that sets each); a repository's are ignored with a warning.
    pub serve: ServeLimits,
    /// Every hook that loaded, highest-priority source first, file order within one.
    pub entries: Vec<HookEntry>,
    /// Every problem found, in source order.
    pub diagnostics: Vec<Diagnostic>,
    /// The files that were read, highest priority first.
    pub sources: Vec<Arc<SettingsSource>>,
    /// When hooks are off: an error per file whose declared hooks will not run
    /// (kept apart: a caller that turns hooks on itself has no such problem).
    pub switched_off: Vec<Diagnostic>,
    /// `tools.verifyPlugins` of the user's own files (user, system, explicit).
    pub verify_rules: Vec<VerifyRule>,
    /// `tools.allowedHttpHookUrls` of the user's own files, their lists merged;
    /// `None` when none sets it (no restriction). A repository cannot widen it.
    pub http_url_allow_list: Option<HttpUrlAllowList>,
    /// `tools.hookModel` of the highest-priority file of the user's own that sets
    /// it: the endpoint prompt hooks ask.
    pub hook_model: Option<HookModel>,
    /// `tools.trace` of the highest-priority file of the user's own that sets it
    /// (HOOKHOST_TRACE, read by the builder, takes precedence).
    pub trace: Option<String>,
}

impl LoadedSettings {
    /// Reads and layers the settings at `location` for the project at
    /// `project_dir`, plus the hooks of Claude Code plugin directories (lowest
    /// priority, in the order given).
    pub fn load_with_plugins(
        location: &SettingsLocation,
        claude_plugins: &[PathBuf],
        project_dir: &Path,
    ) -> LoadedSettings {
        let mut loaded = LoadedSettings::default();
        let sources: Vec<SettingsSource> = sources(location, claude_plugins, project_dir)
            .into_iter()
            .map(|source| detect::explicit_format(source, &mut loaded.diagnostics))
            .collect();
        let mut switches = Vec::new();
        let mut managed = managed::Managed::default();
        for source in sources {
            let source = Arc::new(source);
            loaded.sources.push(Arc::clone(&source));
            let mut parsed = load_file(Arc::clone(&source), project_dir);
            // Sticky blocks only ever add blocks: any file may turn them on, none off.
            loaded.sticky_blocks |= parsed.sticky_blocks == Some(true);
            loaded.fail_closed |= parsed.fail_closed == Some(true);
            loaded.scrub_env |= parsed.scrub_env == Some(true);
            serve_limits(&source, parsed.serve, &mut loaded);
            if matches!(source.kind, SourceKind::Extension(_)) && parsed.enable_hooks.is_some() {
                // An extension contributes hooks; it does not get to switch them on.
                loaded.diagnostics.push(Diagnostic::warning(format!(
                    "{source}: tools.enableHooks: ignored in an extension manifest; \
                     only settings files turn hooks on or off"
                )));
            }
            if source.is_repository_scope() && !parsed.verify_rules.is_empty() {
                // A repository must not choose the key its own modules are checked with.
                loaded.diagnostics.push(Diagnostic::warning(format!(
                    "{source}: tools.verifyPlugins: ignored here; only user, system or \
                     explicit settings can set it (a hook's own \"verify\" still applies)"
                )));
            } else {
                loaded.verify_rules.append(&mut parsed.verify_rules);
            }
            remote_hook_settings(&source, &mut parsed, &mut loaded);
            managed.read(&source, &parsed, &mut loaded.diagnostics);
            switches.push(layer::FileSwitches::take(&source, &mut parsed));
            loaded.entries.extend(parsed.entries);
            loaded.diagnostics.extend(parsed.diagnostics);
        }
        // Whether trust is required decides what a repository's switches may do.
        let require_trust = layer::require_trust(&switches, &mut loaded.diagnostics);
        managed.apply(&mut loaded.entries, require_trust, &mut loaded.diagnostics);
        let layered = layer::layer(
            &switches,
            require_trust,
            &mut loaded.entries,
            &mut loaded.diagnostics,
        );
        loaded.switched_off = layered.switched_off;
        loaded.enabled = layered.enabled;
        loaded.require_trust = layered.require_trust;
        loaded
    }
}

/// The settings files at `location`, then those of the Claude Code plugin
/// directories (lowest priority, reading their options from Claude's files).
fn sources(
    location: &SettingsLocation,
    claude_plugins: &[PathBuf],
    project_dir: &Path,
) -> Vec<SettingsSource> {
    let mut sources = match location {
        SettingsLocation::Discover(compat) => discover(project_dir, *compat),
        SettingsLocation::Files(files, compat) => {
            let mut sources: Vec<SettingsSource> = files
                .iter()
                .map(|f| SettingsSource::new(SourceKind::Explicit, f.clone(), project_dir))
                .collect();
            sources.extend(discover::agent_files(project_dir, *compat));
            sources
        }
    };
    if !claude_plugins.is_empty() {
        let claude_files: Vec<PathBuf> = sources
            .iter()
            .filter(|s| s.format == SettingsFormat::Claude)
            .map(|s| s.path.clone())
            .collect();
        let settings = plugin_options::read_claude_settings(&claude_files);
        sources.extend(
            claude_plugins
                .iter()
                .map(|dir| SettingsSource::claude_plugin(dir, None, &settings, project_dir)),
        );
    }
    sources
}

/// Takes `serve.*` from a file of the user's own when no higher-priority file set it.
fn serve_limits(source: &SettingsSource, limits: ServeLimits, loaded: &mut LoadedSettings) {
    if limits == ServeLimits::default() {
        return;
    }
    if source.is_repository_scope() {
        // The server's limits protect the user's machine; a repository does not set them.
        loaded.diagnostics.push(Diagnostic::warning(format!(
            "{source}: serve: ignored here; only user, system or explicit settings set the server's limits"
        )));
        return;
    }
    let current = &mut loaded.serve;
    current.max_in_flight = current.max_in_flight.or(limits.max_in_flight);
    current.max_processes = current.max_processes.or(limits.max_processes);
}

/// Takes `tools.allowedHttpHookUrls` (merged), `tools.hookModel` and
/// `tools.trace` (the first found, files being read highest priority first) from a
/// file of the user's own.
/// A repository's are ignored with a warning: its allow-list would widen the
/// user's, and its endpoint would receive every prompt hook's input, with the
/// user's API key.
fn remote_hook_settings(
    source: &SettingsSource,
    parsed: &mut settings::ParsedSettings,
    loaded: &mut LoadedSettings,
) {
    let urls = parsed.allowed_http_hook_urls.take();
    let model = parsed.hook_model.take();
    let trace = parsed.trace.take();
    if source.is_repository_scope() {
        for (set, key) in [
            (urls.is_some(), "tools.allowedHttpHookUrls"),
            (model.is_some(), "tools.hookModel"),
            (trace.is_some(), "tools.trace"),
        ] {
            if set {
                loaded.diagnostics.push(Diagnostic::warning(format!(
                    "{source}: {key}: ignored here; only user, system or explicit settings can set it"
                )));
            }
        }
        return;
    }
    if let Some(mut patterns) = urls {
        loaded
            .http_url_allow_list
            .get_or_insert_with(HttpUrlAllowList::default)
            .patterns
            .append(&mut patterns);
    }
    if loaded.hook_model.is_none() {
        loaded.hook_model = model;
    }
    if loaded.trace.is_none() {
        loaded.trace = trace;
    }
}
