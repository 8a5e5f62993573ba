//! Building a [`HookSystem`]: settings read and layered, `source` modules
//! resolved, the trust gate, plugins loaded, and each admitted entry turned into a
//! runnable hook registered with its event's planner — once, before any fire.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::HookSystem;
use crate::config::{
    Compat, Diagnostic, HookEntry, HookKind, HttpUrlAllowList, LoadedSettings, SettingsLocation,
    SettingsSource,
};
use crate::event::{EVENT_COUNT, HookEvent};
use crate::observer::FireObserver;
use crate::planner::{EventHooks, Registration};
use crate::plugins::{self, EngineOptions};
use crate::runner::{DEFAULT_OUTPUT_CAP, HookFailure, RunContext, RunnableHook, Runner};
use crate::trace::TraceSink;
use crate::trust::gate::TrustGate;

/// Builds a [`HookSystem`].
#[derive(Debug, Clone)]
pub struct HookSystemBuilder {
    project_dir: PathBuf,
    settings: SettingsLocation,
    claude_plugins: Vec<PathBuf>,
    session_id: Option<String>,
    transcript_path: String,
    output_cap: usize,
    enable_hooks: Option<bool>,
    require_trust: Option<bool>,
    sticky_blocks: Option<bool>,
    trace: Option<TraceSink>,
    observer: Option<Arc<dyn FireObserver>>,
    engine: EngineOptions,
    only_event: Option<HookEvent>,
    functions: Vec<super::functions::Registered>,
    background: super::background::BackgroundMode,
}

impl HookSystemBuilder {
    /// The defaults: current directory, discovered settings, the trace of
    /// `HOOKHOST_TRACE`.
    pub(super) fn new() -> HookSystemBuilder {
        HookSystemBuilder {
            project_dir: PathBuf::from("."),
            settings: SettingsLocation::Discover(Compat::default()),
            claude_plugins: Vec::new(),
            session_id: None,
            transcript_path: String::new(),
            output_cap: DEFAULT_OUTPUT_CAP,
            enable_hooks: None,
            require_trust: None,
            sticky_blocks: None,
            trace: TraceSink::from_env(),
            observer: None,
            engine: EngineOptions::default(),
            only_event: None,
            functions: Vec::new(),
            background: super::background::BackgroundMode::default(),
        }
    }

    /// Where the `async` and `asyncRewake` hooks of fires run (default: in this
    /// process, see [`super::background::BackgroundMode`]).
    pub fn background(mut self, mode: super::background::BackgroundMode) -> Self {
        self.background = mode;
        self
    }

    /// The project directory (default: the current directory).
    pub fn project_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.project_dir = dir.into();
        self
    }

    /// Also discover Claude Code's settings files (`.claude/settings.json`,
    /// `.claude/settings.local.json`, `~/.claude/settings.json`); hooks there speak
    /// Claude's dialect. With explicit settings files, they are read after those.
    pub fn claude_settings(mut self, enabled: bool) -> Self {
        match &mut self.settings {
            SettingsLocation::Discover(compat) | SettingsLocation::Files(_, compat) => {
                compat.claude = enabled;
            }
        }
        self
    }

    /// Also discover Codex's hooks: `hooks.json` and the `[hooks]` tables of
    /// `config.toml`, in `<project>/.codex` and `$CODEX_HOME` (default `~/.codex`);
    /// Claude's format and dialect. With explicit settings files, they are read
    /// after those.
    pub fn codex_settings(mut self, enabled: bool) -> Self {
        match &mut self.settings {
            SettingsLocation::Discover(compat) | SettingsLocation::Files(_, compat) => {
                compat.codex = enabled;
            }
        }
        self
    }

    /// Also discover Gemini CLI's settings (`.gemini/settings.json`,
    /// `~/.gemini/settings.json`) and extensions (`.gemini/extensions/`). With
    /// explicit settings files, they are read after those.
    pub fn gemini_settings(mut self, enabled: bool) -> Self {
        match &mut self.settings {
            SettingsLocation::Discover(compat) | SettingsLocation::Files(_, compat) => {
                compat.gemini = enabled;
            }
        }
        self
    }

    /// Also read the hooks of these Claude Code plugin directories
    /// (`.claude-plugin/plugin.json` + `hooks/hooks.json`; `${CLAUDE_PLUGIN_ROOT}` is
    /// the directory), after every settings file.
    pub fn claude_plugins(mut self, dirs: impl IntoIterator<Item = impl Into<PathBuf>>) -> Self {
        self.claude_plugins = dirs.into_iter().map(Into::into).collect();
        self
    }

    /// Use exactly these settings files, first = highest priority (default: discover).
    pub fn settings_files(mut self, files: impl IntoIterator<Item = impl Into<PathBuf>>) -> Self {
        let compat = match &self.settings {
            SettingsLocation::Discover(compat) | SettingsLocation::Files(_, compat) => *compat,
        };
        self.settings =
            SettingsLocation::Files(files.into_iter().map(Into::into).collect(), compat);
        self
    }

    /// The `session_id` given to hooks when the input lacks one (default: generated).
    pub fn session_id(mut self, id: impl Into<String>) -> Self {
        self.session_id = Some(id.into());
        self
    }

    /// The `transcript_path` given to hooks when the input lacks one (default: empty).
    pub fn transcript_path(mut self, path: impl Into<String>) -> Self {
        self.transcript_path = path.into();
        self
    }

    /// The cap on each hook's stdout and stderr (default 16 MiB).
    pub fn output_cap(mut self, bytes: usize) -> Self {
        self.output_cap = bytes;
        self
    }

    /// Overrides `tools.enableHooks` from the settings.
    pub fn enable_hooks(mut self, enabled: bool) -> Self {
        self.enable_hooks = Some(enabled);
        self
    }

    /// Overrides `tools.requireHookTrust`: run hooks from project settings and
    /// extensions only if approved with `hookhost trust` (see [`crate::TrustStore`]).
    pub fn require_trust(mut self, required: bool) -> Self {
        self.require_trust = Some(required);
        self
    }

    /// Overrides `tools.stickyHookBlocks`: in BeforeModel and AfterModel, a block
    /// and `continue: false` stay whatever later hooks answer, instead of the last
    /// hook winning each field (seeds/001 §7.3).
    pub fn sticky_blocks(mut self, sticky: bool) -> Self {
        self.sticky_blocks = Some(sticky);
        self
    }

    /// Where to write the audit trace (default: `HOOKHOST_TRACE`, else none).
    pub fn trace(mut self, sink: Option<TraceSink>) -> Self {
        self.trace = sink;
        self
    }

    /// Tells `observer` about every fire that ran hooks (`hookhost` exports
    /// OpenTelemetry spans this way).
    pub fn observer(mut self, observer: Arc<dyn FireObserver>) -> Self {
        self.observer = Some(observer);
        self
    }

    /// Options of the Wasm engine (compile cache, pooling).
    pub fn engine_options(mut self, options: EngineOptions) -> Self {
        self.engine = options;
        self
    }

    /// Builds only the hooks of `event` (every other event then has none): a caller
    /// that fires once (`hookhost fire`, `hookhost hook`) need not load the plugins of
    /// events it will not fire. Settings are still read and reported whole. The Wasm
    /// engine's pool then has one slot per plugin hook of the event (more calls at
    /// once would wait for a slot, not fail).
    pub fn only_event(mut self, event: HookEvent) -> Self {
        self.only_event = Some(event);
        self
    }

    /// Adds a function hook (seeds/003 "Executors: Function"): `function` runs for
    /// `event` when `matcher` (regex, `A|B`, `*`) selects, after the settings'
    /// hooks, with the same answer semantics as a command (see
    /// [`crate::runner::FunctionAnswer`]). A matcher that does not compile is a
    /// load error of the built system.
    pub fn function_hook(
        mut self,
        event: HookEvent,
        matcher: &str,
        name: &str,
        function: impl Fn(&serde_json::Map<String, serde_json::Value>) -> crate::runner::FunctionAnswer
        + Send
        + Sync
        + 'static,
    ) -> Self {
        self.functions.push(super::functions::Registered {
            event,
            matcher: matcher.to_owned(),
            name: name.to_owned(),
            function: crate::runner::FunctionHook(Arc::new(function)),
        });
        self
    }

    /// Reads the settings, loads plugins, and builds the system. Problems become
    /// [`HookSystem::report`]; building itself never fails.
    pub fn build(self) -> HookSystem {
        let project_dir = absolute(&self.project_dir);
        let plugins: Vec<PathBuf> = self.claude_plugins.iter().map(|d| absolute(d)).collect();
        let settings = LoadedSettings::load_with_plugins(&self.settings, &plugins, &project_dir);
        let enabled = self.enable_hooks.unwrap_or(settings.enabled);
        let mut diagnostics = settings.diagnostics;
        if !enabled {
            diagnostics.extend(settings.switched_off.iter().cloned());
        }
        missing_programs(&settings.entries, &project_dir, &mut diagnostics);
        let mut entries: Vec<HookEntry> = settings
            .entries
            .into_iter()
            .filter(|entry| self.only_event.is_none_or(|only| only == entry.event))
            .collect();
        // `source` plugins become files of the module store (offline) before the
        // gate hashes them.
        plugins::resolve_entries(&mut entries, &settings.verify_rules, &project_dir);
        let required = self.require_trust.unwrap_or(settings.require_trust);
        let mut gate = TrustGate::new(required, &project_dir, &mut diagnostics);
        // The gate runs before anything is loaded: an unapproved plugin is never
        // compiled and never sizes the engine the user's plugins share.
        let admitted: Vec<_> = entries
            .into_iter()
            .filter(|entry| gate.admits(entry, &mut diagnostics))
            .collect();
        let engine = plugins::engine(enabled, &admitted, &self.engine, self.only_event.is_some());
        let urls = settings.http_url_allow_list.as_ref();
        let (events, others) = register(admitted, &engine, urls, &project_dir, &mut diagnostics);
        plugins::report(&engine, &mut diagnostics);
        let watched = watched_paths(&self.settings, &project_dir, &settings.sources);
        let functions = function_hooks(self.functions, &project_dir, &mut diagnostics);
        let session_id = self.session_id.unwrap_or_else(generate_session_id);
        let ctx_project_dir = project_dir.clone();
        let mut ctx = RunContext::new(project_dir, self.output_cap);
        ctx.hook_model = settings.hook_model;
        ctx.scrub_env = settings.scrub_env;
        let env_file = crate::env_file::for_session(&events, &session_id, &mut diagnostics);
        if let Some(path) = &env_file {
            let var = crate::env_file::CLAUDE_ENV_FILE.to_owned();
            ctx.command_env
                .push((var, path.to_string_lossy().into_owned()));
        }
        HookSystem {
            enabled,
            enabled_in_settings: settings.enabled,
            sticky_blocks: self.sticky_blocks.unwrap_or(settings.sticky_blocks),
            fail_closed: settings.fail_closed,
            serve_limits: settings.serve,
            events,
            others,
            ctx: Arc::new(ctx),
            session_id,
            env_file,
            transcript_path: self.transcript_path,
            report: super::LoadReport {
                diagnostics,
                switched_off: settings.switched_off,
                switched_off_listed: !enabled,
                untrusted: gate.untrusted,
                sources: settings.sources,
                watched,
            },
            // HOOKHOST_TRACE (or the embedder's choice) first, then tools.trace.
            trace: self.trace.or_else(|| {
                settings
                    .trace
                    .as_deref()
                    .map(|text| TraceSink::from_setting(text, &ctx_project_dir))
            }),
            observer: self.observer,
            notices_id: super::background::new_system_id(),
            background: self.background,
            functions,
            session_hooks: Default::default(),
        }
    }
}

/// The builder's function hooks, each checked (a bad matcher is an error).
fn function_hooks(
    registered: Vec<super::functions::Registered>,
    project_dir: &Path,
    diagnostics: &mut Vec<Diagnostic>,
) -> super::functions::SessionHooks {
    let functions = super::functions::SessionHooks::default();
    for registered in registered {
        match super::functions::build(registered, project_dir) {
            Ok(hook) => {
                functions.add(hook);
            }
            Err(e) => diagnostics.push(Diagnostic::error(e.to_string())),
        }
    }
    functions
}

/// Per-event hook lists of the admitted entries, each with its runner (plugins are
/// loaded from `engine`), and the lists of event names hookhost does not know.
fn register(
    admitted: Vec<HookEntry>,
    engine: &plugins::Engine,
    allow_list: Option<&HttpUrlAllowList>,
    project_dir: &Path,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Events, Others) {
    let mut per_event: [Vec<_>; EVENT_COUNT] = std::array::from_fn(|_| Vec::new());
    let mut per_other: Vec<(Arc<str>, Vec<_>)> = Vec::new();
    for entry in admitted {
        let runner = match &entry.spec.kind {
            HookKind::Plugin(config) => {
                plugins::load(engine, config, &entry, project_dir, diagnostics)
            }
            HookKind::Http(config) if allow_list.is_some_and(|list| !list.admits(&config.url)) => {
                refused_url(&entry, &config.url, diagnostics)
            }
            kind => Runner::build(kind, &entry),
        };
        let (event, other_name) = (entry.event, entry.other_name.clone());
        let registration = Registration {
            matcher: entry.matcher.clone(),
            sequential: entry.sequential,
            dialect: entry.dialect,
            key: entry.spec.dedup_key(),
            trusted: !entry.source.is_repository_scope(),
            hook: Arc::new(RunnableHook { entry, runner }),
        };
        match other_name {
            Some(name) => match per_other.iter_mut().find(|(n, _)| *n == name) {
                Some((_, list)) => list.push(registration),
                None => per_other.push((name, vec![registration])),
            },
            None => per_event[event.index()].push(registration),
        }
    }
    let others = per_other
        .into_iter()
        .map(|(name, list)| (name, EventHooks::new(list)))
        .collect();
    (per_event.map(EventHooks::new), others)
}

/// The runner of an http hook whose URL `tools.allowedHttpHookUrls` does not
/// admit: kept, so that every fire names it (and its `failurePolicy` applies), and
/// reported once at load.
fn refused_url(entry: &HookEntry, url: &str, diagnostics: &mut Vec<Diagnostic>) -> Runner {
    let why = format!(
        "URL {url} is not admitted by tools.allowedHttpHookUrls of your user or system settings"
    );
    // An error, not only unenforced: the hook never runs, and its every run
    // failure is this cause again (said once: `LoadReport::fold`).
    diagnostics.push(
        Diagnostic::error(format!(
            "{}: {}: http hook {:?}: {why}; the hook is not run (every fire reports it)",
            entry.source,
            entry.location(),
            entry.spec.name
        ))
        .at(entry.at.clone()),
    );
    Runner::Broken(HookFailure::NotRun(why))
}

/// The hooks of every known event, indexed by [`HookEvent::index`].
type Events = [EventHooks<RunnableHook>; EVENT_COUNT];
/// The hooks of event names hookhost does not know, by name.
type Others = Vec<(Arc<str>, EventHooks<RunnableHook>)>;

/// Command hooks whose program does not exist fail open on every fire: an error
/// once per hook at load, naming the program and the fix.
fn missing_programs(entries: &[HookEntry], project_dir: &Path, diagnostics: &mut Vec<Diagnostic>) {
    for entry in entries {
        // The command line without the `bash: ` label `line()` gives a reviewer.
        if let HookKind::Command(c) = &entry.spec.kind
            && let Some(program) = crate::config::missing_program(
                &c.args
                    .as_ref()
                    .map_or_else(|| c.command.clone(), |_| c.line()),
                project_dir,
            )
        {
            diagnostics.push(
                Diagnostic::unenforced(format!(
                    "{}: {}: program {program:?} not found (not an executable file, nor on PATH); \
                 the hook fails open on every fire — install it, or give its full path",
                    entry.source,
                    entry.location()
                ))
                .at(entry.at.clone()),
            );
        }
    }
}

fn watched_paths(
    location: &SettingsLocation,
    project_dir: &Path,
    sources: &[Arc<SettingsSource>],
) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = sources.iter().map(|s| s.path.clone()).collect();
    if let SettingsLocation::Discover(compat) = location {
        paths.extend(crate::config::discovery_locations(project_dir, *compat));
    }
    paths.sort();
    paths.dedup();
    paths
}

fn absolute(dir: &Path) -> PathBuf {
    std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf())
}

fn generate_session_id() -> String {
    format!("hookhost-{}", uuid::Uuid::new_v4())
}
