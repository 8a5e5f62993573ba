//! Function hooks of an embedder (seeds/003 "Hook Registration"): closures given
//! to the builder (for the life of the system) and session hooks added and
//! removed while it runs. Both become ordinary [`RunnableHook`]s — the same
//! planner rules (matcher, `if` is not available to them), the same aggregator —
//! and run after the hooks of the settings files, builder ones first.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use crate::config::{HookEntry, HookKind, HookSpec, SettingsSource, SourceKind};
use crate::dialect::Dialect;
use crate::event::HookEvent;
use crate::planner::{Matcher, Plan};
use crate::runner::{FunctionHook, RunnableHook, Runner};

/// A function hook as registered, before it is built.
#[derive(Debug, Clone)]
pub(crate) struct Registered {
    pub(crate) event: HookEvent,
    pub(crate) matcher: String,
    pub(crate) name: String,
    pub(crate) function: FunctionHook,
}

/// Why a function hook cannot be registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("function hook {name:?}: {problem}")]
pub struct FunctionHookError {
    name: String,
    problem: String,
}

/// The runnable hook of a registered function; `Err` when the matcher is not a
/// valid regular expression.
pub(crate) fn build(
    registered: Registered,
    project_dir: &Path,
) -> Result<RunnableHook, FunctionHookError> {
    let (matcher, problem) = Matcher::compile(Some(&registered.matcher));
    if let Some(problem) = problem {
        return Err(FunctionHookError {
            name: registered.name,
            problem,
        });
    }
    let source = SettingsSource::new(
        SourceKind::Explicit,
        project_dir.join("<function hooks>"),
        project_dir,
    );
    let kind = HookKind::Function(registered.name.clone());
    let entry = HookEntry {
        event: registered.event,
        dialect: Dialect::Llxprt,
        matcher,
        sequential: false,
        spec: HookSpec::new(registered.name, kind),
        source: Arc::new(SettingsSource {
            label: "function hooks".to_owned(),
            ..source
        }),
        at: None,
        other_name: None,
        written: None,
    };
    Ok(RunnableHook {
        entry,
        runner: Runner::Function(registered.function),
    })
}

/// The session hooks of one hook system.
#[derive(Debug, Default)]
pub(crate) struct SessionHooks {
    hooks: RwLock<Vec<(u64, Arc<RunnableHook>)>>,
    next: AtomicU64,
}

impl SessionHooks {
    pub(crate) fn add(&self, hook: RunnableHook) -> u64 {
        let id = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        if let Ok(mut hooks) = self.hooks.write() {
            hooks.push((id, Arc::new(hook)));
        }
        id
    }

    pub(crate) fn remove(&self, id: u64) -> bool {
        self.hooks.write().is_ok_and(|mut hooks| {
            let before = hooks.len();
            hooks.retain(|(hook_id, _)| *hook_id != id);
            hooks.len() < before
        })
    }

    pub(crate) fn clear(&self) {
        if let Ok(mut hooks) = self.hooks.write() {
            hooks.clear();
        }
    }

    /// Whether any session hook of `event` selects `subject`.
    pub(crate) fn any(&self, event: HookEvent, subject: Option<&str>) -> bool {
        self.hooks.read().is_ok_and(|hooks| {
            hooks
                .iter()
                .any(|(_, h)| h.entry.event == event && h.entry.matcher.matches(subject))
        })
    }

    /// Appends the session hooks of `event` that select `subject` to `plan` (or
    /// makes one).
    pub(crate) fn extend(
        &self,
        event: HookEvent,
        subject: Option<&str>,
        plan: Option<Plan<RunnableHook>>,
    ) -> Option<Plan<RunnableHook>> {
        let Ok(hooks) = self.hooks.read() else {
            return plan;
        };
        let mut selected = hooks
            .iter()
            .filter(|(_, h)| h.entry.event == event && h.entry.matcher.matches(subject))
            .map(|(_, h)| Arc::clone(h))
            .peekable();
        if selected.peek().is_none() {
            return plan;
        }
        let mut plan = plan.unwrap_or(Plan {
            hooks: Vec::new(),
            sequential: false,
        });
        plan.hooks.extend(selected);
        Some(plan)
    }
}
