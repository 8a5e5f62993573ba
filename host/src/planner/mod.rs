//! The planner: which hooks run for one fire, in what order, and how.
//!
//! Hooks are grouped per event once, at build time, in priority order. A fire asks the
//! event's list for a [`Plan`]: matchers are tested against the event's matcher
//! field (`tool_name`, or `source`/`reason`/`trigger` for the session and compression
//! events, see [`crate::HookEvent::matcher_field`]), duplicates are dropped keeping the highest-priority
//! instance (seeds/001 §7.9), and the plan is sequential when any selected hook's
//! group asked for it (§7.4). When nothing matches, planning allocates nothing.
//!
//! A hook's `if` is not the planner's: it is [`crate::condition`]'s language, asked
//! yes/no/unsure of each planned hook afterwards (the dedup key includes it, so
//! filtering a plan equals planning with it).

use std::collections::HashMap;
use std::sync::Arc;

use crate::dialect::APPLY_PATCH;
use crate::dialect::Dialect;

mod matcher;

pub use matcher::Matcher;

/// One registered hook of an event, ready to plan.
#[derive(Debug)]
pub struct Registered<H> {
    /// The group's matcher.
    pub matcher: Matcher,
    /// The group's `sequential` flag.
    pub sequential: bool,
    /// The hook's dialect: its matcher sees the tool name in that dialect.
    pub dialect: Dialect,
    /// Equal for hooks with the same dedup key within the event.
    pub dedup_id: usize,
    /// From the user's own settings (not from the repository): among duplicates it
    /// is kept over a repository's instance, whatever their priority.
    pub trusted: bool,
    /// The hook.
    pub hook: Arc<H>,
}

/// A hook as the builder hands it to [`EventHooks::new`].
#[derive(Debug)]
pub struct Registration<H> {
    /// The group's matcher.
    pub matcher: Matcher,
    /// The group's `sequential` flag.
    pub sequential: bool,
    /// The hook's dialect.
    pub dialect: Dialect,
    /// The dedup key (seeds/001 §7.9).
    pub key: String,
    /// From the user's own settings rather than the repository's.
    pub trusted: bool,
    /// The hook.
    pub hook: Arc<H>,
}

/// The hooks of one event in priority order.
#[derive(Debug)]
pub struct EventHooks<H> {
    hooks: Vec<Registered<H>>,
    /// The number of distinct dedup keys (ids are `0..keys`).
    keys: usize,
}

impl<H> Default for EventHooks<H> {
    fn default() -> Self {
        EventHooks {
            hooks: Vec::new(),
            keys: 0,
        }
    }
}

impl<H> Registered<H> {
    /// Whether this hook's matcher selects `subject`, the value of the event's
    /// matcher field; a tool name is given in the LLxprt dialect and a Claude hook's
    /// matcher sees Claude's name for it (other values have no translation).
    pub fn selects(&self, subject: Option<&str>) -> bool {
        let selected = match (self.dialect, subject) {
            (Dialect::Claude, Some(name)) => {
                self.matcher.matches(Some(Dialect::Claude.tool_name(name)))
            }
            _ => self.matcher.matches(subject),
        };
        selected
            || subject.is_some_and(|name| {
                matcher_aliases(self.dialect, name)
                    .iter()
                    .any(|alias| self.matcher.matches(Some(alias)))
            })
    }
}

/// Other names a matcher may select a tool by, as Codex 0.171 does
/// (`HookToolName`'s matcher aliases): its `apply_patch` is an edit and a write,
/// its `spawn_agent` Claude's `Agent`. A hook's input keeps the tool's own name.
fn matcher_aliases(dialect: Dialect, tool_name: &str) -> &'static [&'static str] {
    match (dialect, tool_name) {
        (Dialect::Claude, APPLY_PATCH) => &["Write", "Edit"],
        (Dialect::Llxprt, APPLY_PATCH) => &["write_file", "replace"],
        (Dialect::Claude, "spawn_agent") => &["Agent"],
        _ => &[],
    }
}

/// How a registered hook stands among the duplicates of its event (what `hookhost
/// check` lists); the same rule as a fire's plan applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Standing {
    /// The first instance of its dedup key: it runs when its matcher selects.
    First,
    /// A later duplicate: not run.
    Duplicate,
    /// A duplicate from the user's own settings of a repository hook listed earlier:
    /// it runs in the repository copy's place.
    ReplacesRepositoryCopy,
}

/// The hooks selected for one fire.
#[derive(Debug)]
pub struct Plan<H> {
    /// Hooks in execution order (priority order, duplicates removed).
    pub hooks: Vec<Arc<H>>,
    /// Run one after another, chaining outputs into inputs.
    pub sequential: bool,
}

impl<H> EventHooks<H> {
    /// Builds the list from hooks in priority order.
    pub fn new(hooks: impl IntoIterator<Item = Registration<H>>) -> Self {
        // A map, not a search: settings may hold tens of thousands of hooks.
        let mut keys: HashMap<String, usize> = HashMap::new();
        let hooks = hooks
            .into_iter()
            .map(|r| {
                let next = keys.len();
                let dedup_id = *keys.entry(r.key).or_insert(next);
                Registered {
                    matcher: r.matcher,
                    sequential: r.sequential,
                    dialect: r.dialect,
                    dedup_id,
                    trusted: r.trusted,
                    hook: r.hook,
                }
            })
            .collect();
        EventHooks {
            hooks,
            keys: keys.len(),
        }
    }

    /// Whether no hook is registered.
    pub fn is_empty(&self) -> bool {
        self.hooks.is_empty()
    }

    /// The registered hooks, in priority order.
    pub fn iter(&self) -> impl Iterator<Item = &Registered<H>> {
        self.hooks.iter()
    }

    /// Each registered hook with its [`Standing`], in priority order.
    pub fn standings(&self) -> impl Iterator<Item = (&Registered<H>, Standing)> {
        // Per dedup id, whether the instance seen last was a repository's.
        let mut seen: Vec<Option<bool>> = vec![None; self.keys];
        self.hooks.iter().map(move |r| {
            let standing = match seen[r.dedup_id].replace(!r.trusted) {
                None => Standing::First,
                Some(true) if r.trusted => Standing::ReplacesRepositoryCopy,
                Some(_) => Standing::Duplicate,
            };
            (r, standing)
        })
    }

    /// Plans a fire; `None` (without allocating) when no hook matches. `subject` is
    /// the value of the event's matcher field (see [`Registered::selects`]).
    pub fn plan(&self, subject: Option<&str>) -> Option<Plan<H>> {
        let first = self.hooks.iter().position(|r| r.selects(subject))?;
        let mut selected: Vec<&Registered<H>> = Vec::with_capacity(self.hooks.len() - first);
        // Per dedup id, the index of the selected instance.
        let mut seen: Vec<Option<usize>> = vec![None; self.keys];
        for registered in &self.hooks[first..] {
            if !registered.selects(subject) {
                continue;
            }
            match seen[registered.dedup_id] {
                None => {
                    seen[registered.dedup_id] = Some(selected.len());
                    selected.push(registered);
                }
                // The highest-priority instance is kept (§7.9) — unless it came with
                // the repository and the user's own settings have the same hook: a
                // repository must not replace the user's guard (say, by a copy in
                // monitor mode).
                Some(i) if registered.trusted && !selected[i].trusted => {
                    selected[i] = registered;
                }
                Some(_) => {}
            }
        }
        Some(Plan {
            sequential: selected.iter().any(|r| r.sequential),
            hooks: selected.into_iter().map(|r| Arc::clone(&r.hook)).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn hooks(specs: &[(&str, bool, &str)]) -> EventHooks<String> {
        EventHooks::new(specs.iter().enumerate().map(|(i, (m, seq, key))| {
            let (matcher, _) = Matcher::compile(Some(m));
            Registration {
                matcher,
                sequential: *seq,
                dialect: Dialect::Llxprt,
                key: (*key).to_owned(),
                trusted: !key.starts_with("repo:"),
                hook: Arc::new(format!("{i}:{key}")),
            }
        }))
    }

    pub(super) fn names(plan: Option<Plan<String>>) -> Vec<String> {
        plan.map(|p| p.hooks.iter().map(|h| h.to_string()).collect())
            .unwrap_or_default()
    }

    #[test]
    fn duplicates_keep_the_first_instance_and_sequential_is_contagious() {
        let e = hooks(&[
            ("x", false, "same"),
            ("", true, "other"),
            ("", false, "same"),
        ]);
        let plan = e.plan(Some("y")).unwrap();
        assert!(plan.sequential);
        assert_eq!(names(Some(plan)), ["1:other", "2:same"]);
        let plan = e.plan(Some("x")).unwrap();
        assert_eq!(plan.hooks.len(), 2);
        assert_eq!(plan.hooks[0].as_str(), "0:same");
    }
    #[test]
    fn a_repository_duplicate_never_replaces_the_users_hook() {
        // Priority order puts the repository's copy first; the user's copy is kept,
        // in the repository copy's place.
        let e = EventHooks::new(
            [("repo", false), ("other", true), ("user", true)]
                .into_iter()
                .map(|(name, trusted)| Registration {
                    matcher: Matcher::All,
                    sequential: false,
                    dialect: Dialect::Llxprt,
                    key: if name == "other" { "b" } else { "a" }.to_owned(),
                    trusted,
                    hook: Arc::new(name.to_owned()),
                }),
        );
        assert_eq!(names(e.plan(None)), ["user", "other"]);
    }
    #[test]
    fn no_match_plans_nothing() {
        let e = hooks(&[("write", false, "a")]);
        assert!(e.plan(Some("read")).is_none());
        assert!(e.plan(None).is_none());
    }
}
