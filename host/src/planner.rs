//! The planner: which hooks run for one fire, in what order, and how.
//!
//! Hooks are grouped per event once, at build time, in priority order. A fire asks the
//! event's list for a [`Plan`]: matchers are tested against the event's matcher
//! field (`tool_name`, or `source`/`reason`/`trigger` for the session and compression
//! events, see [`crate::HookEvent::matcher_field`]), duplicates are dropped keeping the highest-priority
//! instance (seeds/001 §7.9), and the plan is sequential when any selected hook's
//! group asked for it (§7.4). When nothing matches, planning allocates nothing.

use std::collections::HashMap;
use std::sync::Arc;

use regex::Regex;

use crate::dialect::Dialect;

/// A compiled `matcher` (seeds/001 §6.2).
#[derive(Debug, Clone)]
pub enum Matcher {
    /// Absent, empty or `*`: every tool.
    All,
    /// A regex that selects every tool *name* (`.*`, `foo|.*`, as written) — but
    /// not a fire without one, unlike [`Matcher::All`].
    AnyName(String),
    /// A regex that is literal names joined by `|`, each maybe with `.*` before or
    /// after (`write_file|replace`, `mcp__.*`, as written): selects a tool name
    /// that contains any of the literals, which is what the regex selects.
    Contains {
        /// The literals, `.*` removed.
        literals: Vec<String>,
        /// The matcher as written.
        raw: String,
    },
    /// A regular expression, tested unanchored against `tool_name`.
    Regex(Regex),
    /// An invalid regular expression, used as an exact tool name.
    Exact(String),
    /// Claude Code's plain matcher: names separated by `|`, each compared exactly
    /// (`Bash` does not match `BashOutput`).
    Names(String),
}

impl Matcher {
    /// Compiles a raw matcher; an invalid regex falls back to an exact match and
    /// comes with a warning.
    pub fn compile(raw: Option<&str>) -> (Matcher, Option<String>) {
        match raw.map(str::trim) {
            None | Some("") | Some("*") => (Matcher::All, None),
            // Not compiled when it need not be: for a `.` the regex crate's UTF-8
            // compiler zero-fills a ~400 KB table, 90–150 page faults in every
            // `hookhost fire` process (docs/PERFORMANCE.md, "Matchers").
            Some(pattern) if let Some(literals) = literal_branches(pattern) => {
                let raw = pattern.to_owned();
                if literals.iter().any(|l| l.is_empty()) {
                    (Matcher::AnyName(raw), None)
                } else {
                    let literals = literals.into_iter().map(str::to_owned).collect();
                    (Matcher::Contains { literals, raw }, None)
                }
            }
            Some(pattern) => match Regex::new(pattern) {
                Ok(regex) => (Matcher::Regex(regex), None),
                Err(e) => {
                    let first_line = e.to_string().lines().last().unwrap_or_default().to_owned();
                    (
                        Matcher::Exact(pattern.to_owned()),
                        Some(format!(
                            "invalid regular expression {pattern:?} ({first_line}); matching the tool name exactly instead"
                        )),
                    )
                }
            },
        }
    }

    /// A matcher in Claude Code's syntax: only letters, digits, `_` and `|` is a
    /// list of exact names; anything else is a regular expression (unanchored).
    pub fn claude(raw: Option<&str>) -> (Matcher, Option<String>) {
        match raw.map(str::trim) {
            Some(names)
                if !names.is_empty()
                    && names
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|') =>
            {
                (Matcher::Names(names.to_owned()), None)
            }
            other => Matcher::compile(other),
        }
    }

    /// A matcher compared exactly (SessionStart `source`, SessionEnd `reason`,
    /// PreCompress `trigger`, as both reference planners compare them); absent, empty
    /// or `*` still selects everything.
    pub fn exact(raw: Option<&str>) -> Matcher {
        match raw.map(str::trim) {
            None | Some("") | Some("*") => Matcher::All,
            Some(value) => Matcher::Exact(value.to_owned()),
        }
    }

    /// Whether the matcher selects every tool.
    pub fn is_all(&self) -> bool {
        matches!(self, Matcher::All)
    }

    /// Whether the matcher selects `tool_name`. A fire without a tool name matches
    /// only [`Matcher::All`].
    pub fn matches(&self, tool_name: Option<&str>) -> bool {
        match (self, tool_name) {
            (Matcher::All, _) | (Matcher::AnyName(_), Some(_)) => true,
            (Matcher::Contains { literals, .. }, Some(name)) => {
                literals.iter().any(|l| name.contains(l.as_str()))
            }
            (Matcher::Regex(re), Some(name)) => re.is_match(name),
            (Matcher::Exact(exact), Some(name)) => exact == name,
            (Matcher::Names(names), Some(name)) => names.split('|').any(|n| n == name),
            (_, None) => false,
        }
    }

    /// The matcher as written, for display.
    pub fn as_str(&self) -> &str {
        match self {
            Matcher::All => "*",
            Matcher::Regex(re) => re.as_str(),
            Matcher::AnyName(raw)
            | Matcher::Contains { raw, .. }
            | Matcher::Exact(raw)
            | Matcher::Names(raw) => raw,
        }
    }
}

/// The branches of `pattern` as literals, when it is only literal branches joined
/// by `|`, each with any number of `.*` before and after (which an unanchored
/// match makes redundant: `mcp__.*` selects what `mcp__` selects); `None` for
/// anything else. Only characters that are literal in a regex count, so every `|`
/// is a top-level alternation.
fn literal_branches(pattern: &str) -> Option<Vec<&str>> {
    let literal = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ':' | '/');
    pattern
        .split('|')
        .map(|branch| {
            let mut branch = branch;
            while let Some(rest) = branch.strip_prefix(".*") {
                branch = rest;
            }
            while let Some(rest) = branch.strip_suffix(".*") {
                branch = rest;
            }
            branch.chars().all(literal).then_some(branch)
        })
        .collect()
}

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
        match (self.dialect, subject) {
            (Dialect::Claude, Some(name)) => {
                self.matcher.matches(Some(Dialect::Claude.tool_name(name)))
            }
            _ => self.matcher.matches(subject),
        }
    }
}

/// How a registered hook stands among the duplicates of its event (what `hookhost
/// check` lists); the same rule as [`EventHooks::plan`] applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

    fn hooks(specs: &[(&str, bool, &str)]) -> EventHooks<String> {
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

    fn names(plan: Option<Plan<String>>) -> Vec<String> {
        plan.map(|p| p.hooks.iter().map(|h| h.to_string()).collect())
            .unwrap_or_default()
    }

    #[test]
    fn matchers_are_unanchored_regexes_and_star_matches_all() {
        let e = hooks(&[
            ("write_.*", false, "a"),
            ("*", false, "b"),
            ("file", false, "c"),
        ]);
        assert_eq!(names(e.plan(Some("write_file"))), ["0:a", "1:b", "2:c"]);
        assert_eq!(names(e.plan(Some("read_file"))), ["1:b", "2:c"]);
        assert_eq!(names(e.plan(Some("shell"))), ["1:b"]);
    }

    #[test]
    fn literal_matchers_select_exactly_what_their_regex_selects() {
        let tool_names = [
            "write_file",
            "read_file",
            "",
            "a\nb",
            "mcp__x__y",
            "mcp_x",
            "é",
            "replace",
            "my-tool",
            "srv:tool",
            "Notebook",
            "NotebookEdit",
            ".*",
        ];
        let cases = [
            (".*", "any"),
            (" .* ", "any"),
            (".*.*", "any"),
            ("write_file|.*", "any"),
            ("write_file|", "any"),
            ("write_file|replace", "contains"),
            ("write_.*", "contains"),
            (".*_file", "contains"),
            ("mcp__.*|Notebook.*", "contains"),
            ("my-tool|srv:tool", "contains"),
            ("write.file", "regex"),
            ("^write_.*", "regex"),
            ("write_.*$", "regex"),
            (".*.", "regex"),
            ("(?i)notebook", "regex"),
            ("a.*b", "regex"),
        ];
        for (pattern, kind) in cases {
            let (m, warning) = Matcher::compile(Some(pattern));
            assert!(warning.is_none(), "{pattern}");
            let got = match &m {
                Matcher::AnyName(_) => "any",
                Matcher::Contains { .. } => "contains",
                Matcher::Regex(_) => "regex",
                _ => "other",
            };
            assert_eq!(got, kind, "{pattern}");
            assert_eq!(m.as_str(), pattern.trim(), "shown as written");
            let regex = Regex::new(pattern.trim()).unwrap();
            for name in tool_names {
                assert_eq!(
                    m.matches(Some(name)),
                    regex.is_match(name),
                    "{pattern} on {name:?}"
                );
            }
            assert!(!m.matches(None), "{pattern}: a fire without a name");
            assert!(!m.is_all(), "{pattern}");
        }
        let e = hooks(&[(".*", false, "a"), ("mcp__.*", false, "b")]);
        assert_eq!(names(e.plan(Some("mcp__fs__read"))), ["0:a", "1:b"]);
        assert!(e.plan(None).is_none());
    }

    #[test]
    fn invalid_regex_falls_back_to_exact_match() {
        let (m, warning) = Matcher::compile(Some("write_file("));
        assert!(warning.unwrap().contains("write_file("));
        assert!(m.matches(Some("write_file(")));
        assert!(!m.matches(Some("write_file")));
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
    fn exact_matchers_are_not_regexes() {
        let m = Matcher::exact(Some(" startup "));
        assert!(m.matches(Some("startup")));
        assert!(!m.matches(Some("startup2")) && !m.matches(Some("start")));
        assert!(!m.matches(None));
        assert!(!Matcher::exact(Some("exit")).matches(Some("prompt_input_exit")));
        assert!(!Matcher::exact(Some("a|b")).matches(Some("a")));
        for all in [None, Some(""), Some("*")] {
            assert!(Matcher::exact(all).is_all());
        }
    }

    #[test]
    fn claude_plain_names_are_exact_and_patterns_are_regexes() {
        let (bash, _) = Matcher::claude(Some("Bash"));
        assert!(bash.matches(Some("Bash")));
        assert!(!bash.matches(Some("BashOutput")));
        let (list, _) = Matcher::claude(Some("Write|Edit"));
        assert!(list.matches(Some("Edit")) && !list.matches(Some("MultiEdit")));
        let (re, _) = Matcher::claude(Some("mcp__.*"));
        assert!(re.matches(Some("mcp__memory__read")));
        assert!(Matcher::claude(Some("*")).0.is_all());
    }

    #[test]
    fn no_match_plans_nothing() {
        let e = hooks(&[("write", false, "a")]);
        assert!(e.plan(Some("read")).is_none());
        assert!(e.plan(None).is_none());
    }
}
