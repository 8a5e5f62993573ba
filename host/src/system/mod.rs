//! `HookSystem`: built once from settings, fired many times (seeds/001 §7.1, §7.8).
//!
//! | file | owns |
//! |---|---|
//! | `builder.rs` | settings → `source` resolution → trust gate → loaded plugins ([`crate::plugins`]) → registered hooks |
//! | `fire.rs` | what a fire takes: an event (or an agent's event name) and an input |
//! | `firing.rs` | a fire end to end, and an agent's call with the load report folded in |
//! | `report.rs` | the load report: diagnostics, hooks left unrun, and how they reach a result |
//! | `sources.rs` | the `source` plugins the settings name (`lock`, `install`) |
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
mod firing;
mod functions;
mod once;
mod report;
mod scheduler;
mod select;
mod sources;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Map, Value};

pub use background::{
    BackgroundMode, MAX_NOTICES, Notice, background_running, take_all_notices, wait_for_background,
};
pub use builder::HookSystemBuilder;
pub use fire::{FireEvent, FireInput};
pub use functions::FunctionHookError;
pub use report::LoadReport;

use crate::event::{EVENT_COUNT, HookEvent};
use crate::listing::HookListing;
use crate::planner::EventHooks;
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
}
