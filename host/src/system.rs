//! `HookSystem`: built once from settings, fired many times (seeds/001 §7.1, §7.8).
//!
//! A fire plans (see [`crate::planner`]); when nothing matches it returns at once
//! without allocating. Otherwise it completes the base fields, runs the hooks —
//! concurrently, or one after another with chaining when the plan is sequential —
//! and merges their answers (see [`crate::aggregate`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Instant, SystemTime};

use serde_json::{Map, Value};

use crate::aggregate;
use crate::chain;
use crate::config::{
    Compat, Diagnostic, HookKind, LoadedSettings, SettingsLocation, SettingsSource,
};
use crate::dialect::Dialect;
use crate::event::{EVENT_COUNT, HookEvent};
use crate::output::HookOutput;
use crate::planner::{EventHooks, Plan, Registration};
use crate::plugins::{EngineOptions, PluginLoader};
use crate::result::AggregatedHookResult;
use crate::runner::{
    DEFAULT_OUTPUT_CAP, Hook, HookExecutionResult, HookFailure, RawOutcome, RunContext, Runner,
    interpret,
};
use crate::trace::TraceSink;
use crate::trust::TrustKey;
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
    engine: EngineOptions,
    only_event: Option<HookEvent>,
}

impl HookSystemBuilder {
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
    /// extensions only if approved with `hookhost trust` (see [`crate::trust`]).
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

    /// Options of the Wasm engine (compile cache, pooling).
    pub fn engine_options(mut self, options: EngineOptions) -> Self {
        self.engine = options;
        self
    }

    /// Builds only the hooks of `event` (every other event then has none): a caller
    /// that fires once (`hookhost fire`, `hookhost hook`) need not load the plugins of
    /// events it will not fire. Settings are still read and reported whole.
    pub fn only_event(mut self, event: HookEvent) -> Self {
        self.only_event = Some(event);
        self
    }

    /// Reads the settings, loads plugins, and builds the system. Problems become
    /// [`HookSystem::diagnostics`]; building itself never fails.
    pub fn build(self) -> HookSystem {
        let project_dir = absolute(&self.project_dir);
        let plugins: Vec<PathBuf> = self.claude_plugins.iter().map(|d| absolute(d)).collect();
        #[cfg_attr(not(feature = "plugins"), allow(unused_mut))]
        let mut settings =
            LoadedSettings::load_with_plugins(&self.settings, &plugins, &project_dir);
        // `source` plugins become files of the module store (offline) before the
        // gate hashes them.
        #[cfg(feature = "plugins")]
        crate::distribution::resolve::resolve_entries(
            &mut settings.entries,
            &settings.verify_rules,
            &project_dir,
        );
        let enabled = self.enable_hooks.unwrap_or(settings.enabled);
        let mut diagnostics = settings.diagnostics;
        if !enabled {
            diagnostics.extend(settings.switched_off.iter().cloned());
        }
        missing_programs(&settings.entries, &project_dir, &mut diagnostics);
        let required = self.require_trust.unwrap_or(settings.require_trust);
        let mut gate = TrustGate::new(required, &project_dir, &mut diagnostics);
        // The gate runs before anything is loaded: an unapproved plugin is never
        // compiled and never sizes the engine the user's plugins share.
        let admitted: Vec<_> = settings
            .entries
            .into_iter()
            .filter(|entry| self.only_event.is_none_or(|only| only == entry.event))
            .filter(|entry| gate.admits(entry, &mut diagnostics))
            .collect();
        let loader = PluginLoader::new(enabled, &admitted, &self.engine, &project_dir);
        let mut per_event: [Vec<_>; EVENT_COUNT] = std::array::from_fn(|_| Vec::new());
        let mut per_other: Vec<(Arc<str>, Vec<_>)> = Vec::new();
        for entry in admitted {
            let runner = match &entry.spec.kind {
                HookKind::Command { command } => Runner::Command(command.clone()),
                HookKind::Plugin(config) => loader.load(config, &entry, &mut diagnostics),
            };
            let key = entry.spec.dedup_key();
            let trusted = !entry.source.is_repository_scope();
            let hook = Hook {
                event: entry.event,
                dialect: entry.dialect,
                spec: entry.spec,
                matcher: entry.matcher.clone(),
                source: entry.source,
                location: entry.location,
                other_name: entry.other_name.clone(),
                runner,
            };
            let registration = Registration {
                matcher: entry.matcher,
                sequential: entry.sequential,
                dialect: entry.dialect,
                key,
                trusted,
                hook: Arc::new(hook),
            };
            match entry.other_name {
                Some(name) => match per_other.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, list)) => list.push(registration),
                    None => per_other.push((name, vec![registration])),
                },
                None => per_event[entry.event.index()].push(registration),
            }
        }
        loader.finish(&mut diagnostics);
        let events = per_event.map(EventHooks::new);
        let others = per_other
            .into_iter()
            .map(|(name, list)| (name, EventHooks::new(list)))
            .collect();
        let watched = watched_paths(&self.settings, &project_dir, &settings.sources);
        let session_id = self.session_id.unwrap_or_else(generate_session_id);
        let mut ctx = RunContext::new(project_dir, self.output_cap);
        let env_file = crate::env_file::for_session(&events, &session_id, &mut diagnostics);
        if let Some(path) = &env_file {
            ctx.command_env.push((
                crate::env_file::CLAUDE_ENV_FILE.to_owned(),
                path.to_string_lossy().into_owned(),
            ));
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
            switched_off: settings.switched_off,
            transcript_path: self.transcript_path,
            diagnostics,
            sources: settings.sources,
            watched,
            untrusted: gate.untrusted,
            trace: self.trace,
        }
    }
}

/// The hook system of one agent session.
#[derive(Debug)]
pub struct HookSystem {
    enabled: bool,
    enabled_in_settings: bool,
    sticky_blocks: bool,
    fail_closed: bool,
    serve_limits: crate::config::ServeLimits,
    events: [EventHooks<Hook>; EVENT_COUNT],
    /// The `CLAUDE_ENV_FILE` hookhost made for this session, if any.
    env_file: Option<PathBuf>,
    /// What the settings' switch leaves unrun (see [`HookSystem::switched_off`]).
    switched_off: Vec<Diagnostic>,
    /// Hooks of events hookhost does not know ([`HookEvent::Other`]), by name.
    others: Vec<(Arc<str>, EventHooks<Hook>)>,
    ctx: Arc<RunContext>,
    session_id: String,
    transcript_path: String,
    diagnostics: Vec<Diagnostic>,
    sources: Vec<Arc<SettingsSource>>,
    watched: Vec<PathBuf>,
    untrusted: Vec<(TrustKey, String)>,
    trace: Option<TraceSink>,
}

impl HookSystem {
    /// A builder with the defaults: current directory, discovered settings.
    pub fn builder() -> HookSystemBuilder {
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
            engine: EngineOptions::default(),
            only_event: None,
        }
    }

    /// Whether `tools.enableHooks` is on.
    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// Whether a settings file turns on `tools.hookFailClosed`: a caller that answers
    /// for the hooks (`hookhost hook`) turns any failure into a deny.
    pub fn fail_closed(&self) -> bool {
        self.fail_closed
    }

    /// `hookhost serve`'s limits as the user's settings give them (`serve.maxInFlight`,
    /// `serve.maxProcesses`).
    pub fn serve_limits(&self) -> crate::config::ServeLimits {
        self.serve_limits
    }

    /// What the settings say about `tools.enableHooks` (before any builder override).
    pub fn enabled_in_settings(&self) -> bool {
        self.enabled_in_settings
    }

    /// The problems found while loading.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The settings files that were read.
    pub fn sources(&self) -> &[Arc<SettingsSource>] {
        &self.sources
    }

    /// Files and directories whose change means the settings may have changed:
    /// every settings file read, the discovery locations that do not exist yet, and
    /// the extension directories (seeds/001 §7.8: re-initialise on change).
    pub fn watched_paths(&self) -> &[PathBuf] {
        &self.watched
    }

    /// Hooks skipped because they were not approved (with a description each);
    /// `hookhost trust` approves them.
    pub fn untrusted(&self) -> &[(TrustKey, String)] {
        &self.untrusted
    }

    /// When the settings switch hooks off: an error per file whose declared hooks
    /// will not run, with the fix (also among the diagnostics unless the builder
    /// turned hooks on).
    pub fn switched_off(&self) -> &[Diagnostic] {
        &self.switched_off
    }

    /// The `CLAUDE_ENV_FILE` hookhost created for this session (when the caller's
    /// environment has none and Claude Code SessionStart or Setup hooks are
    /// configured): the `export` lines those hooks wrote.
    pub fn env_file(&self) -> Option<&Path> {
        self.env_file.as_deref()
    }

    /// The project dir.
    pub fn project_dir(&self) -> &Path {
        &self.ctx.project_dir
    }

    /// The hooks registered for `event`, in priority order (duplicates included).
    pub fn hooks(&self, event: HookEvent) -> impl Iterator<Item = &Hook> {
        self.events[event.index()].iter().map(|r| r.hook.as_ref())
    }

    /// Whether a fire of `event` would run any hook; `subject` is the value of the
    /// event's matcher field ([`HookEvent::matcher_field`]: the tool name, or
    /// SessionStart's `source` …). Allocates nothing.
    pub fn has_hooks(&self, event: HookEvent, subject: Option<&str>) -> bool {
        self.enabled
            && self.events[event.index()]
                .iter()
                .any(|r| r.selects(subject))
    }

    /// Fires `event` with `input` (the event's fields; missing base fields are added).
    pub async fn fire(&self, event: HookEvent, input: Map<String, Value>) -> AggregatedHookResult {
        if !self.enabled {
            return AggregatedHookResult::empty();
        }
        let Some(plan) = self.events[event.index()].plan(subject(event, &input)) else {
            return AggregatedHookResult::empty();
        };
        self.run_plan(event, plan, input).await
    }

    /// Fires `event` with a borrowed input, cloning it only when a hook matches: a
    /// no-match fire then costs the check alone, not the drop of the caller's input.
    pub async fn fire_ref(
        &self,
        event: HookEvent,
        input: &Map<String, Value>,
    ) -> AggregatedHookResult {
        if !self.enabled {
            return AggregatedHookResult::empty();
        }
        let Some(plan) = self.events[event.index()].plan(subject(event, input)) else {
            return AggregatedHookResult::empty();
        };
        self.run_plan(event, plan, input.clone()).await
    }

    /// Fires an event by the name an agent gave it: a known name (either dialect)
    /// fires that event; any other name runs the hooks registered under exactly
    /// that name in a Claude Code or Gemini CLI file, with generic semantics
    /// (OR-merged answers). Unknown names without hooks answer nothing.
    pub async fn fire_named(
        &self,
        name: &str,
        mut input: Map<String, Value>,
    ) -> AggregatedHookResult {
        if let Some((event, dialect)) = crate::dialect::parse_event(name) {
            dialect.canonicalize_input(event, &mut input);
            return self.fire(event, input).await;
        }
        if !self.enabled {
            return AggregatedHookResult::empty();
        }
        let Some((_, hooks)) = self.others.iter().find(|(n, _)| &**n == name) else {
            return AggregatedHookResult::empty();
        };
        let Some(plan) = hooks.plan(input.get("tool_name").and_then(Value::as_str)) else {
            return AggregatedHookResult::empty();
        };
        input
            .entry("hook_event_name")
            .or_insert_with(|| Value::from(name));
        self.run_plan(HookEvent::Other, plan, input).await
    }

    /// The hooks registered under event names hookhost does not know, by name.
    pub fn other_hooks(&self) -> impl Iterator<Item = (&str, impl Iterator<Item = &Hook>)> {
        self.others
            .iter()
            .map(|(name, hooks)| (&**name, hooks.iter().map(|r| r.hook.as_ref())))
    }

    /// Fires a typed input (see [`crate::input`]).
    pub async fn fire_input(
        &self,
        input: &crate::input::HookInput,
    ) -> Result<AggregatedHookResult, crate::UnknownEvent> {
        let (event, map) = crate::input::into_fire(input)?;
        Ok(self.fire(event, map).await)
    }

    /// Fires `event` from a synchronous caller, on a private single-threaded runtime.
    /// Must not be called from inside an async runtime.
    pub fn fire_blocking(
        &self,
        event: HookEvent,
        input: Map<String, Value>,
    ) -> AggregatedHookResult {
        if !self.has_hooks(event, subject(event, &input)) {
            return AggregatedHookResult::empty();
        }
        match tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        {
            Ok(runtime) => runtime.block_on(self.fire(event, input)),
            Err(e) => AggregatedHookResult {
                errors: vec![format!("cannot start a runtime for the hooks: {e}")],
                ..AggregatedHookResult::empty()
            },
        }
    }

    async fn run_plan(
        &self,
        event: HookEvent,
        plan: Plan<Hook>,
        mut input: Map<String, Value>,
    ) -> AggregatedHookResult {
        let start = Instant::now();
        self.complete_base_fields(event, &mut input);
        let executions = if plan.sequential {
            self.run_sequential(event, &plan.hooks, &mut input).await
        } else {
            self.run_parallel(event, &plan.hooks, &input).await
        };
        let mut result = collect(event, executions, self.sticky_blocks);
        if plan.sequential {
            carry_chained_fields(event, &input, &mut result.final_output);
        }
        result.total_duration = start.elapsed();
        if let Some(trace) = &self.trace {
            trace.record(event, &self.session_id, &result);
        }
        result
    }

    /// Runs hooks concurrently. One hook runs inline; several run as tasks so that
    /// plugins use every core. The tasks are aborted (and their process groups
    /// killed) if the fire is cancelled.
    async fn run_parallel(
        &self,
        event: HookEvent,
        hooks: &[Arc<Hook>],
        input: &Map<String, Value>,
    ) -> Vec<HookExecutionResult> {
        if let [hook] = hooks {
            return vec![
                hook.execute(serialize_for(hook, event, input), &self.ctx)
                    .await,
            ];
        }
        // Serialise once per dialect, not once per hook.
        let llxprt = serialize(input);
        let mut claude: Option<Arc<[u8]>> = None;
        let mut tasks = tokio::task::JoinSet::new();
        for (i, hook) in hooks.iter().enumerate() {
            let input = match hook.dialect {
                Dialect::Llxprt => Arc::clone(&llxprt),
                Dialect::Claude => {
                    Arc::clone(claude.get_or_insert_with(|| serialize_for(hook, event, input)))
                }
            };
            let (hook, ctx) = (Arc::clone(hook), Arc::clone(&self.ctx));
            tasks.spawn(async move { (i, hook.execute(input, &ctx).await) });
        }
        let mut done: Vec<Option<HookExecutionResult>> = vec![None; hooks.len()];
        while let Some(joined) = tasks.join_next().await {
            if let Ok((i, execution)) = joined {
                done[i] = Some(execution);
            }
        }
        hooks
            .iter()
            .zip(done)
            .map(|(hook, execution)| {
                execution.unwrap_or_else(|| {
                    interpret(
                        hook,
                        RawOutcome::failed(HookFailure::Trap("the hook's task panicked".into())),
                    )
                })
            })
            .collect()
    }

    async fn run_sequential(
        &self,
        event: HookEvent,
        hooks: &[Arc<Hook>],
        input: &mut Map<String, Value>,
    ) -> Vec<HookExecutionResult> {
        let mut executions = Vec::with_capacity(hooks.len());
        for hook in hooks {
            let execution = hook
                .execute(serialize_for(hook, event, input), &self.ctx)
                .await;
            let blocked = execution.blocks();
            if let Some(output) = &execution.enforced_output() {
                chain::apply_to_input(event, input, output);
            }
            executions.push(execution);
            if blocked {
                break;
            }
        }
        executions
    }

    fn complete_base_fields(&self, event: HookEvent, input: &mut Map<String, Value>) {
        let mut add = |key: &str, value: &dyn Fn() -> Value| {
            if !input.contains_key(key) {
                input.insert(key.to_owned(), value());
            }
        };
        add("session_id", &|| Value::from(self.session_id.as_str()));
        add("transcript_path", &|| {
            Value::from(self.transcript_path.as_str())
        });
        add("cwd", &|| {
            Value::from(self.ctx.project_dir.to_string_lossy())
        });
        add("hook_event_name", &|| Value::from(event.as_str()));
        add("timestamp", &|| {
            Value::from(humantime::format_rfc3339_millis(SystemTime::now()).to_string())
        });
    }
}

/// Command hooks whose program does not exist fail open on every fire: an error
/// once per hook at load, naming the program and the fix.
fn missing_programs(
    entries: &[crate::config::HookEntry],
    project_dir: &Path,
    diagnostics: &mut Vec<Diagnostic>,
) {
    for entry in entries {
        if let HookKind::Command { command } = &entry.spec.kind
            && let Some(program) = crate::config::missing_program(command, project_dir)
        {
            diagnostics.push(Diagnostic::unenforced(format!(
                "{}: {}: program {program:?} not found (not an executable file, nor on PATH); \
                 the hook fails open on every fire — install it, or give its full path",
                entry.source, entry.location
            )));
        }
    }
}

/// Merges the executions of one fire into the aggregated result.
fn collect(
    event: HookEvent,
    executions: Vec<HookExecutionResult>,
    sticky_blocks: bool,
) -> AggregatedHookResult {
    let mut result = AggregatedHookResult::empty();
    for execution in &executions {
        result.success &= execution.success;
        result.errors.extend(execution.error.iter().cloned());
        // Truncated output, ignored fields: worth seeing, though the answer counted.
        result.warnings.extend(execution.warnings.iter().cloned());
        for warning in &execution.warnings {
            tracing::warn!("{warning}");
        }
        if let Some(error) = &execution.error {
            tracing::warn!("{error}");
        } else if !execution.stderr.trim().is_empty() {
            tracing::info!(hook = %execution.hook_name, "stderr: {}", execution.stderr.trim());
        }
    }
    let enforced: Vec<HookOutput> = executions
        .iter()
        .filter_map(|e| e.enforced_output())
        .collect();
    result.final_output = aggregate::merge(event, &enforced.iter().collect::<Vec<_>>());
    aggregate::keep_blocks(&executions, &mut result.final_output, sticky_blocks);
    // allOutputs shows what each hook said, monitor-mode blocks included (marked).
    result.all_outputs = executions
        .iter()
        .filter_map(|e| {
            let mut output = e.output.clone()?;
            if e.monitor {
                output.extra.insert("monitor".to_owned(), Value::Bool(true));
            }
            Some(output)
        })
        .collect();
    result.executions = executions;
    result
}

/// The value of the event's matcher field in `input`, if it is a string.
fn subject(event: HookEvent, input: &Map<String, Value>) -> Option<&str> {
    input.get(event.matcher_field()?)?.as_str()
}

/// After a sequential chain, the chained input *is* the final modification: report it
/// whole, so that partial `llm_request` patches from several hooks are not lost.
fn carry_chained_fields(event: HookEvent, input: &Map<String, Value>, output: &mut HookOutput) {
    let key = match event {
        HookEvent::BeforeModel => "llm_request",
        HookEvent::AfterModel => "llm_response",
        _ => return,
    };
    if output.specific(key).is_some()
        && let Some(value) = input.get(key)
    {
        output.set_specific(key, value.clone());
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

/// The stdin bytes for `hook`: the input in the hook's dialect.
fn serialize_for(hook: &Hook, event: HookEvent, input: &Map<String, Value>) -> Arc<[u8]> {
    match hook.dialect.input_for_hook(event, input) {
        Some(translated) => serialize(&translated),
        None => serialize(input),
    }
}

fn serialize(input: &Map<String, Value>) -> Arc<[u8]> {
    // Serialising a `Map` of `Value`s cannot fail (keys are strings).
    serde_json::to_vec(input).unwrap_or_default().into()
}

fn absolute(dir: &Path) -> PathBuf {
    std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf())
}

fn generate_session_id() -> String {
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    format!("hookhost-{:x}-{:x}", std::process::id(), nanos)
}
