//! `HookSystem`: built once from settings, fired many times (seeds/001 §7.1, §7.8).
//!
//! | file | owns |
//! |---|---|
//! | `builder.rs` | settings → `source` resolution → trust gate → loaded plugins ([`crate::plugins`]) → registered hooks |
//! | `fire.rs` | what a fire takes: an event (or an agent's event name) and an input |
//! | `scheduler.rs` | running a plan's hooks, in parallel or chained |
//! | `fanout.rs` | several hooks at once over the runtime's workers |
//! | `select.rs` | a plan's hooks whose `if` and `once` let them run; allows an undecidable `if` withholds |
//! | `collect.rs` | executions → the aggregated result |
//!
//! A fire plans (see [`crate::planner`]); when nothing matches it returns at once
//! without allocating. Otherwise it completes the base fields, runs the hooks and
//! merges their answers (see [`crate::aggregate`]).

mod background;
mod builder;
mod collect;
mod fanout;
mod fire;
mod functions;
mod once;
mod report;
mod scheduler;
mod select;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Instant, SystemTime};

use serde_json::{Map, Value};

pub use background::{
    BackgroundMode, MAX_NOTICES, Notice, background_running, take_all_notices, wait_for_background,
};
pub use builder::HookSystemBuilder;
pub use fire::{FireEvent, FireInput};
pub use functions::FunctionHookError;
pub use report::LoadReport;

use crate::config::Execution;
use crate::dialect::AgentCall;
use crate::event::{EVENT_COUNT, HookEvent};
use crate::listing::HookListing;
use crate::planner::{EventHooks, Plan};
use crate::result::{AggregatedHookResult, BackgroundHook};
use crate::runner::{RunContext, RunnableHook};
use crate::trace::TraceSink;

/// The hook system of one agent session.
#[derive(Debug)]
pub struct HookSystem {
    enabled: bool,
    enabled_in_settings: bool,
    sticky_blocks: bool,
    fail_closed: bool,
    serve_limits: crate::config::ServeLimits,
    events: [EventHooks<RunnableHook>; EVENT_COUNT],
    /// The `CLAUDE_ENV_FILE` hookhost made for this session, if any.
    env_file: Option<PathBuf>,
    /// Hooks of events hookhost does not know ([`HookEvent::Other`]), by name.
    others: Vec<(Arc<str>, EventHooks<RunnableHook>)>,
    ctx: Arc<RunContext>,
    session_id: String,
    transcript_path: String,
    report: LoadReport,
    trace: Option<TraceSink>,
    /// Told about every fire that ran hooks.
    observer: Option<Arc<dyn crate::FireObserver>>,
    /// Tags the notices of `asyncRewake` hooks this system started.
    notices_id: u64,
    background: background::BackgroundMode,
    /// Function hooks given to the builder.
    functions: functions::SessionHooks,
    /// Function hooks added for the session.
    session_hooks: functions::SessionHooks,
}

impl HookSystem {
    /// A builder with the defaults: current directory, discovered settings.
    pub fn builder() -> HookSystemBuilder {
        HookSystemBuilder::new()
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

    /// What loading found: every diagnostic, the hooks left unrun, the files read
    /// and watched; and how a load problem reaches a fire's result.
    pub fn report(&self) -> &LoadReport {
        &self.report
    }

    /// The `CLAUDE_ENV_FILE` hookhost created for this session (when the caller's
    /// environment has none and Claude Code SessionStart or Setup hooks are
    /// configured): the `export` lines those hooks wrote.
    pub fn env_file(&self) -> Option<&Path> {
        self.env_file.as_deref()
    }

    /// The notices of `asyncRewake` hooks that blocked after their fire returned,
    /// oldest first (at most [`MAX_NOTICES`] are kept); taking them empties the
    /// queue. An agent shows them to the model when it is idle (seeds/003).
    pub fn take_notices(&self) -> Vec<Notice> {
        background::take_notices_of(Some(self.notices_id))
    }

    /// Adds a function hook for this session (seeds/003 "Session hooks"): it runs
    /// for `event` when `matcher` (a hookhost matcher: regex, `A|B`, `*`) selects,
    /// after the hooks of settings files and of the builder. Returns its id.
    pub fn add_session_function_hook(
        &self,
        event: HookEvent,
        matcher: &str,
        name: &str,
        function: impl Fn(&Map<String, Value>) -> crate::runner::FunctionAnswer + Send + Sync + 'static,
    ) -> Result<u64, FunctionHookError> {
        let registered = functions::Registered {
            event,
            matcher: matcher.to_owned(),
            name: name.to_owned(),
            function: crate::runner::FunctionHook(Arc::new(function)),
        };
        let hook = functions::build(registered, &self.ctx.project_dir)?;
        Ok(self.session_hooks.add(hook))
    }

    /// Removes the session hook with `id`; whether there was one.
    pub fn remove_session_function_hook(&self, id: u64) -> bool {
        self.session_hooks.remove(id)
    }

    /// Removes every session hook (on a session change).
    pub fn clear_session_hooks(&self) {
        self.session_hooks.clear();
    }

    /// The project dir.
    pub fn project_dir(&self) -> &Path {
        &self.ctx.project_dir
    }

    /// The hooks registered for `event`, in priority order (duplicates included);
    /// public for the tests (feature `internals`).
    #[cfg(feature = "internals")]
    #[doc(hidden)]
    pub fn hooks(&self, event: HookEvent) -> impl Iterator<Item = &RunnableHook> {
        self.events[event.index()].iter().map(|r| r.hook.as_ref())
    }

    /// How many hooks are registered for `event` — a [`HookEvent`] or an agent's
    /// event name — duplicates included: at most this many run in one fire.
    pub fn hook_count<'a>(&self, event: impl Into<FireEvent<'a>>) -> usize {
        let known = match event.into() {
            FireEvent::Known(event) => event,
            FireEvent::Named(name) => match crate::dialect::detect_event(name, false).0 {
                HookEvent::Other => {
                    return self
                        .other_hooks(name)
                        .map_or(0, |hooks| hooks.iter().count());
                }
                event => event,
            },
        };
        self.events[known.index()].iter().count()
    }

    /// The hooks registered under `name`, an event name hookhost does not know.
    fn other_hooks(&self, name: &str) -> Option<&EventHooks<RunnableHook>> {
        self.others
            .iter()
            .find(|(other, _)| **other == *name)
            .map(|(_, hooks)| hooks)
    }

    /// What `hookhost check` lists: every registered hook per event, in execution
    /// order, duplicates marked.
    pub fn hook_listing(&self) -> HookListing {
        let known = HookEvent::VARIANTS
            .into_iter()
            .filter(|e| *e != HookEvent::Other)
            .map(|e| (e.to_string(), e, &self.events[e.index()]));
        let others = self
            .others
            .iter()
            .map(|(name, hooks)| (name.to_string(), HookEvent::Other, hooks));
        crate::listing::list(
            self.enabled_in_settings,
            &self.report.sources,
            &self.ctx.project_dir,
            known.chain(others),
        )
    }

    /// The `source` references of the plugin hooks of every event, of every dialect
    /// and of event names hookhost does not know (what `hookhost lock` and `install`
    /// fetch).
    pub fn source_references(&self) -> std::collections::BTreeSet<String> {
        self.source_references_by_lock()
            .into_values()
            .flatten()
            .collect()
    }

    /// The `source` references of the plugin hooks, by the lock file each is
    /// locked in (the project's, or the user's for the user's own files:
    /// [`crate::config::SettingsSource::lock_path`]). The project's lock is always
    /// a key, with no references if no project file has a `source`.
    pub fn source_references_by_lock(
        &self,
    ) -> std::collections::BTreeMap<PathBuf, std::collections::BTreeSet<String>> {
        let project_dir = &self.ctx.project_dir;
        let mut by_lock: std::collections::BTreeMap<PathBuf, std::collections::BTreeSet<String>> =
            Default::default();
        by_lock
            .entry(crate::distribution::lock::lock_path(project_dir))
            .or_default();
        let known = self.events.iter().flat_map(|hooks| hooks.iter());
        let others = self.others.iter().flat_map(|(_, hooks)| hooks.iter());
        for registered in known.chain(others) {
            let entry = &registered.hook.entry;
            if let crate::config::HookKind::Plugin(p) = &entry.spec.kind
                && let Some(source) = &p.source
            {
                by_lock
                    .entry(entry.source.lock_path(project_dir))
                    .or_default()
                    .insert(source.reference.clone());
            }
        }
        by_lock
    }

    /// The signature keys each `source` reference must verify with (the user's
    /// required prefix key and the hook's own `verify`): what `hookhost lock` checks
    /// before it writes a digest into the lock.
    pub fn source_keys(
        &self,
    ) -> std::collections::BTreeMap<String, std::collections::BTreeSet<PathBuf>> {
        let mut keys: std::collections::BTreeMap<_, std::collections::BTreeSet<_>> =
            Default::default();
        let known = self.events.iter().flat_map(|hooks| hooks.iter());
        let others = self.others.iter().flat_map(|(_, hooks)| hooks.iter());
        for registered in known.chain(others) {
            if let crate::config::HookKind::Plugin(p) = &registered.hook.entry.spec.kind
                && let Some(source) = &p.source
            {
                keys.entry(source.reference.clone()).or_default().extend(
                    source
                        .required_key
                        .iter()
                        .chain(&source.verify_key)
                        .cloned(),
                );
            }
        }
        keys
    }

    /// Whether a fire of `event` would run any hook; `subject` is the value of the
    /// event's matcher field ([`HookEvent::matcher_field`]: the tool name, or
    /// SessionStart's `source` …). Allocates nothing.
    pub fn has_hooks(&self, event: HookEvent, subject: Option<&str>) -> bool {
        self.enabled
            && (self.events[event.index()]
                .iter()
                .any(|r| r.selects(subject))
                || self.functions.any(event, subject)
                || self.session_hooks.any(event, subject))
    }

    /// Fires an event with an input (the event's fields; missing base fields are
    /// added) and merges the hooks' answers.
    ///
    /// `event` is a [`HookEvent`], or the event's name as an agent gave it (`&str`,
    /// either dialect: a Claude name's input is made canonical first; a name
    /// hookhost does not know runs the hooks registered under exactly that name in
    /// a Claude Code or Gemini CLI file, with OR-merged answers). `input` is moved
    /// in (a `Map`) or borrowed (`&Map`, cloned only when a hook matches, so a
    /// no-match fire costs the check alone).
    pub async fn fire<'a>(
        &self,
        event: impl Into<FireEvent<'a>>,
        input: impl Into<FireInput<'a>>,
    ) -> AggregatedHookResult {
        if !self.enabled {
            return AggregatedHookResult::empty();
        }
        let mut input = input.into();
        let (event, name) = match event.into() {
            FireEvent::Known(event) => (event, None),
            FireEvent::Named(name) => {
                let claude = input.as_map().contains_key("permission_mode");
                match crate::dialect::detect_event(name, claude) {
                    (HookEvent::Other, _) => (HookEvent::Other, Some(name)),
                    (event, dialect) => {
                        // Only a translation needs an input of our own.
                        if dialect != crate::dialect::Dialect::Llxprt {
                            dialect.canonicalize_input(event, input.to_mut());
                        }
                        (event, None)
                    }
                }
            }
        };
        let plan = match name {
            None => {
                let subject = subject(event, input.as_map());
                let plan = self.events[event.index()].plan(subject);
                let plan = self.functions.extend(event, subject, plan);
                self.session_hooks.extend(event, subject, plan)
            }
            Some(name) => self.other_hooks(name).and_then(|hooks| {
                hooks.plan(input.as_map().get("tool_name").and_then(Value::as_str))
            }),
        };
        let Some(mut plan) = plan else {
            return AggregatedHookResult::empty();
        };
        let deferred = self.keep_for_mode(&mut plan);
        if plan.hooks.is_empty() {
            return AggregatedHookResult {
                background_deferred: deferred,
                ..AggregatedHookResult::empty()
            };
        }
        let unsure = select::select(
            &mut plan,
            input.as_map(),
            &self.ctx.project_dir,
            &self.session_id,
        );
        if plan.hooks.is_empty() {
            return AggregatedHookResult::empty();
        }
        let mut input = input.into_owned();
        if let Some(name) = name {
            input
                .entry("hook_event_name")
                .or_insert_with(|| Value::from(name));
        }
        let mut result = self.run_plan(event, plan, input, &unsure).await;
        result.background_deferred = deferred;
        result
    }

    /// Fires an agent's call: its input made canonical (what that says first in
    /// `warnings`), the hooks run, and the load report folded in
    /// ([`LoadReport::fold`]: load failures first in `errors`, each cause once).
    /// Every door of the command line fires this way, and differs only in how it
    /// reads the call and writes the answer.
    pub async fn fire_call(
        &self,
        call: &AgentCall,
        mut input: Map<String, Value>,
    ) -> AggregatedHookResult {
        let notes = call.prepare(&mut input);
        let mut result = self.fire(call, input).await;
        result.warnings.splice(0..0, notes);
        self.report.fold(&mut result);
        result
    }

    /// Drops the hooks this system's [`background::BackgroundMode`] does not run
    /// here (before `if` and `once` are looked at: the process that runs a hook
    /// claims it); whether background hooks were left to another process.
    fn keep_for_mode(&self, plan: &mut Plan<RunnableHook>) -> bool {
        use background::BackgroundMode;
        let background = |h: &RunnableHook| h.entry.spec.execution != Execution::Sync;
        match self.background {
            BackgroundMode::InProcess => false,
            BackgroundMode::Defer => {
                let before = plan.hooks.len();
                plan.hooks.retain(|h| !background(h));
                plan.hooks.len() < before
            }
            BackgroundMode::Only => {
                plan.hooks.retain(|h| background(h));
                false
            }
        }
    }

    /// [`HookSystem::fire`] from a synchronous caller, on a private single-threaded
    /// runtime. Must not be called from inside an async runtime.
    pub fn fire_blocking<'a>(
        &self,
        event: impl Into<FireEvent<'a>>,
        input: impl Into<FireInput<'a>>,
    ) -> AggregatedHookResult {
        let (event, input) = (event.into(), input.into());
        if let FireEvent::Known(known) = event
            && !self.has_hooks(known, subject(known, input.as_map()))
        {
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
        mut plan: Plan<RunnableHook>,
        mut input: Map<String, Value>,
        unsure: &[select::Unsure],
    ) -> AggregatedHookResult {
        let start = Instant::now();
        let started_at = SystemTime::now();
        self.complete_base_fields(event, &mut input);
        let background = self.start_background(event, &mut plan, &input);
        // A chain rewrites the input as it goes; the trace and the observer are
        // about the call the agent asked for.
        let asked = (plan.sequential && (self.trace.is_some() || self.observer.is_some()))
            .then(|| input.clone());
        let executions = if plan.hooks.is_empty() {
            Vec::new()
        } else if plan.sequential {
            scheduler::run_sequential(event, &plan.hooks, &mut input, &self.ctx).await
        } else {
            scheduler::run_parallel(event, &plan.hooks, &input, &self.ctx).await
        };
        let mut executions = executions;
        select::withhold_allows(&mut executions, unsure);
        let mut result = collect::collect(event, executions, self.sticky_blocks);
        let (started, failed) = background;
        result.background = started;
        result.errors.extend(failed);
        if plan.sequential {
            collect::carry_chained_fields(event, &input, &mut result.final_output);
        }
        result.total_duration = start.elapsed();
        let asked = asked.as_ref().unwrap_or(&input);
        if let Some(trace) = &self.trace {
            trace.record(event, asked, &result);
        }
        if let Some(observer) = &self.observer {
            observer.fired(event, started_at, asked, &result);
        }
        result
    }

    /// Takes the `async` and `asyncRewake` hooks out of `plan` and starts them
    /// with the fire's input (before any chain rewrites it): what started, and an
    /// error per hook that could not.
    fn start_background(
        &self,
        event: HookEvent,
        plan: &mut Plan<RunnableHook>,
        input: &Map<String, Value>,
    ) -> (Vec<BackgroundHook>, Vec<String>) {
        if plan
            .hooks
            .iter()
            .all(|h| h.entry.spec.execution == Execution::Sync)
        {
            return (Vec::new(), Vec::new());
        }
        let (background, sync): (Vec<_>, Vec<_>) = std::mem::take(&mut plan.hooks)
            .into_iter()
            .partition(|h| h.entry.spec.execution != Execution::Sync);
        plan.hooks = sync;
        let session_id = input
            .get("session_id")
            .and_then(Value::as_str)
            .unwrap_or(&self.session_id)
            .to_owned();
        let mut started = Vec::new();
        let mut failed = Vec::new();
        for hook in background {
            let spec = &hook.entry.spec;
            let rewake = spec.execution == Execution::AsyncRewake;
            let record = BackgroundHook {
                hook_name: spec.name.clone(),
                hook_type: spec.type_name(),
                mode: if rewake { "asyncRewake" } else { "async" },
                status_message: spec.status_message.clone(),
                source: format!("{} {}", hook.entry.source, hook.entry.location),
            };
            let launch = background::Launch {
                event,
                input: scheduler::serialize_for(&hook, event, input),
                ctx: Arc::clone(&self.ctx),
                session_id: session_id.clone(),
                notices: rewake.then_some(self.notices_id),
            };
            match background::spawn(Arc::clone(&hook), launch) {
                Ok(()) => started.push(record),
                Err(e) => failed.push(format!("{} not started: {e}", hook.describe())),
            }
        }
        (started, failed)
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

/// The value of the event's matcher field in `input`, if it is a string.
fn subject(event: HookEvent, input: &Map<String, Value>) -> Option<&str> {
    event.subject(input)
}
