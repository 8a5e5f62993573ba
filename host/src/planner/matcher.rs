//! A group's `matcher` compiled once (seeds/001 §6.2): how a tool name (or the
//! event's other matcher field) selects a hook. Literal names and `.*` patterns are
//! tested without compiling a regex (the regex crate zero-fills a ~400 KB table for
//! a dot: docs/PERFORMANCE.md).

use regex::Regex;

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
    /// Claude Code's plain matcher: names separated by `|` (or `,`), each
    /// compared exactly (`Bash` does not match `BashOutput`, `code-reviewer` not
    /// `senior-code-reviewer`).
    Names {
        /// The names, trimmed.
        names: Vec<String>,
        /// The matcher as written.
        raw: String,
    },
    /// Claude Code: a matcher that is not a valid regular expression selects
    /// nothing (2.1.331 logs "Invalid regex pattern in hook matcher").
    Nothing(String),
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

    /// A matcher in Claude Code's syntax (2.1.331, after 2.1.191 and 2.1.195):
    /// only letters, digits, `_` and `|` — and, where `comma_lists`
    /// ([`crate::HookEvent::claude_comma_lists`]), also `,`, `-` and spaces — is a
    /// list of exact names split on `|` (and `,`); anything else is an unanchored,
    /// case-sensitive regular expression, and one that does not compile selects
    /// nothing. A legacy tool name in a list also selects its new name (`Task`
    /// selects `Agent`).
    pub fn claude(raw: Option<&str>, comma_lists: bool) -> (Matcher, Option<String>) {
        let plain = |c: char| {
            c.is_ascii_alphanumeric() || c == '_' || c == '|' || (comma_lists && ", -".contains(c))
        };
        match raw.map(str::trim) {
            None | Some("") | Some("*") => (Matcher::All, None),
            Some(list) if list.chars().all(plain) => {
                let names = list
                    .split(|c| c == '|' || (comma_lists && c == ','))
                    .map(str::trim)
                    .filter(|n| !n.is_empty())
                    .map(str::to_owned)
                    .collect();
                let raw = list.to_owned();
                (Matcher::Names { names, raw }, None)
            }
            Some(pattern) => match Matcher::compile(Some(pattern)) {
                (Matcher::Exact(raw), Some(warning)) => (
                    Matcher::Nothing(raw),
                    Some(warning.replace(
                        "matching the tool name exactly instead",
                        "Claude Code matches nothing with it, and neither does hookhost",
                    )),
                ),
                compiled => compiled,
            },
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
            (Matcher::Names { names, .. }, Some(name)) => names
                .iter()
                .any(|n| n == name || legacy_tool_name(n) == Some(name)),
            (Matcher::Nothing(_), _) | (_, None) => false,
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
            | Matcher::Names { raw, .. }
            | Matcher::Nothing(raw) => raw,
        }
    }
}

/// The current name of a Claude Code tool that was renamed, as Claude 2.1.331
/// maps a matcher's names (`Task` is now `Agent`).
fn legacy_tool_name(name: &str) -> Option<&'static str> {
    const RENAMED: [(&str, &str); 9] = [
        ("Task", "Agent"),
        ("KillShell", "TaskStop"),
        ("KillBash", "TaskStop"),
        ("ListPeers", "ListAgents"),
        ("Brief", "SendUserMessage"),
        ("ListMcpResources", "ListMcpResourcesTool"),
        ("ReadMcpResource", "ReadMcpResourceTool"),
        ("ReadMcpResourceDir", "ReadMcpResourceDirTool"),
        ("ProposeGoal", "SetGoal"),
    ];
    RENAMED
        .iter()
        .find(|(old, _)| *old == name)
        .map(|(_, new)| *new)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::tests::{hooks, names};
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
        let (bash, _) = Matcher::claude(Some("Bash"), true);
        assert!(bash.matches(Some("Bash")));
        assert!(!bash.matches(Some("BashOutput")));
        let (list, _) = Matcher::claude(Some("Write|Edit"), true);
        assert!(list.matches(Some("Edit")) && !list.matches(Some("MultiEdit")));
        let (re, _) = Matcher::claude(Some("mcp__.*"), true);
        assert!(re.matches(Some("mcp__memory__read")));
        assert!(Matcher::claude(Some("*"), true).0.is_all());
    }

    /// Claude Code 2.1.191: comma lists; 2.1.195: hyphenated names are exact.
    #[test]
    fn claude_comma_lists_and_hyphenated_names_are_exact() {
        let (list, _) = Matcher::claude(Some("Write,Bash"), true);
        assert!(list.matches(Some("Write")) && list.matches(Some("Bash")));
        assert!(!list.matches(Some("Write,Bash")) && !list.matches(Some("BashOutput")));
        let (spaced, _) = Matcher::claude(Some(" Bash | Write , Edit "), true);
        assert!(
            ["Bash", "Write", "Edit"]
                .iter()
                .all(|n| spaced.matches(Some(n)))
        );
        let (agent, _) = Matcher::claude(Some("code-reviewer"), true);
        assert!(agent.matches(Some("code-reviewer")));
        assert!(!agent.matches(Some("senior-code-reviewer")));
        let (server, _) = Matcher::claude(Some("mcp__brave-search"), true);
        assert!(!server.matches(Some("mcp__brave-search__search")));
        // Where Claude takes `|` lists only, a comma or hyphen makes a regex.
        let (regex, _) = Matcher::claude(Some("a-b"), false);
        assert!(regex.matches(Some("xa-by")));
        let (legacy, _) = Matcher::claude(Some("Task"), true);
        assert!(legacy.matches(Some("Agent")) && legacy.matches(Some("Task")));
        assert_eq!(list.as_str(), "Write,Bash");
    }

    #[test]
    fn a_claude_matcher_that_does_not_compile_selects_nothing() {
        let (m, warning) = Matcher::claude(Some("Bash("), true);
        assert!(warning.is_some_and(|w| w.contains("Bash(")));
        assert!(!m.matches(Some("Bash(")) && !m.matches(Some("Bash")));
        assert!(!m.is_all());
    }
}
