//! A fire, end to end: the event (a [`HookEvent`], or a name as an agent gave it,
//! made canonical), the plan, the `if`/`once` selection, background hooks started
//! and the rest run, the answers merged; and [`HookSystem::fire_call`], an agent's
//! call with the load report folded in, which every door of the command line uses.

use std::sync::Arc;
use std::time::{Instant, SystemTime};

use serde_json::{Map, Value};

use super::{FireEvent, FireInput, HookSystem, background, collect, scheduler, select};
use crate::config::Execution;
use crate::dialect::AgentCall;
use crate::event::HookEvent;
use crate::planner::Plan;
use crate::result::{AggregatedHookResult, BackgroundHook};
use crate::runner::RunnableHook;

impl HookSystem {
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
    /// ([`super::LoadReport::fold`]: load failures first in `errors`, each cause once).
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
                source: format!("{} {}", hook.entry.source, hook.entry.location()),
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
