//! The `if` language: one Claude Code permission rule, as a Claude hook's `"if"` holds
//! it; the hook runs only when the tool call matches the rule, and the rule answers
//! yes, no or unsure ([`Verdict`]). hookhost evaluates it in every dialect, so a rule
//! may name the tool by its Claude name (`Bash(git *)`) or its LLxprt name
//! (`run_shell_command(git *)`), and the call's tool name comes in the canonical
//! (LLxprt) dialect.
//!
//! Verified against Claude Code's documentation as of v2.1.239 (August 2026):
//! "Hooks reference" (code.claude.com/docs/en/hooks, "Common fields" and the Bash `if`
//! table), "Configure permissions" (code.claude.com/docs/en/permissions, "Permission
//! rule syntax" and "Tool-specific permission rules") and the changelog entries for
//! `if` (2.1.85, 2.1.89, 2.1.163, 2.1.176, 2.1.214). What the rule forms mean:
//!
//! * `Tool` (and `Bash(*)`): every call of the tool. `mcp__server`: every tool of that
//!   MCP server; `mcp__server__tool`: that tool; a `*` in the name is a glob over the
//!   whole name (`mcp__server__*`, `mcp__*`).
//! * `Bash(pattern)`: see [`shell`] (each subcommand of a compound command is tried,
//!   leading `VAR=value` and wrappers stripped, `*` wildcard, ` *`/`:*` word boundary).
//! * `Read/Edit/Write/MultiEdit/NotebookEdit(path)`: gitignore-style path patterns,
//!   see [`path`]. An `Edit` rule also covers the other editing tools (Write,
//!   MultiEdit, NotebookEdit), as Claude's permission rules do.
//! * `WebFetch(domain:host)`: the URL's host; `*.example.com` any subdomain (not the
//!   apex), another `*` stays within one label.
//! * `Agent(name)` (also `Task`): the subagent type; `Skill(name)`, `Skill(name *)`.
//! * `Tool(param:value)`: a top-level scalar input parameter equal to the value (`*`
//!   wildcard), e.g. `Agent(model:opus)`. A tool's primary field (`command`,
//!   `file_path`, `url`, Grep/Glob's `path`) cannot be matched this way.
//!
//! Anything else is a [`RuleError`]: an `if` that cannot be understood never matches
//! everything by accident.
//!
//! Left to the caller: Claude evaluates `if` only on tool events (PreToolUse,
//! PostToolUse, PostToolUseFailure, PermissionRequest, PermissionDenied); on any other
//! event a hook with an `if` never runs. The planner never sees a rule: a fire's plan
//! is filtered by [`Rule::verdict`] after planning (`system/select.rs`).
//!
//! A rule's text is read in [`parse`] (its tool name in [`tool`], what is rejected in
//! [`error`]); each kind of pattern has its own file: [`shell`] (on hookhost-shell's
//! reading), [`path`], [`web`] and [`patch`] (Codex's `apply_patch` as an edit).

mod error;
mod parse;
mod patch;
mod path;
mod shell;
mod tool;
mod web;

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

pub use error::RuleError;
pub(crate) use patch::APPLY_PATCH;
use path::{PathPattern, Places};
use shell::CommandPattern;
use tool::ToolSel;

/// One permission rule in Claude Code's syntax: a tool and an optional pattern.
#[derive(Debug, Clone)]
pub struct Rule {
    /// As written (trimmed).
    text: String,
    tool: ToolSel,
    spec: Spec,
    /// Where a `/path` pattern is anchored: the settings source's directory.
    settings_dir: Option<PathBuf>,
}

/// What a rule says of a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The call matches.
    Yes,
    /// The call does not match.
    No,
    /// The rule cannot tell (a shell command that cannot be read for sure): the
    /// hook runs, toward enforcement, and an allow it answers is not applied.
    Unsure,
}

/// What a rule's pattern tests.
#[derive(Debug, Clone)]
enum Spec {
    /// No pattern: every call of the tool.
    Any,
    /// `Bash(...)`: the `command`.
    Command(CommandPattern),
    /// A file tool's path.
    Path(PathPattern),
    /// `WebFetch(domain:...)`: lowercase, without a trailing dot.
    Domain(String),
    /// `Agent(name)`: the subagent type, `*` wildcard.
    Agent(String),
    /// `Skill(name)`: the skill, prefix rules as for Bash.
    Skill(String),
    /// `Tool(param:value)`.
    Param { name: String, value: String },
}

/// Input keys of a file tool's path, in order of preference: Claude's `file_path`
/// and `notebook_path`, LLxprt's `absolute_path` (read_file, write_file, replace
/// accept either) and `path`.
const FILE_KEYS: [&str; 4] = ["file_path", "absolute_path", "notebook_path", "path"];

impl Rule {
    /// Parses one rule: `Tool` or `Tool(pattern)`. A rule that does not parse is an
    /// error, never a rule that matches everything.
    pub fn parse(text: &str) -> Result<Rule, RuleError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(RuleError::Empty);
        }
        let (name, pattern) = parse::split(text)?;
        let tool = tool::tool_sel(name)?;
        let spec = match pattern {
            None => Spec::Any,
            Some(p) if p.trim().is_empty() => {
                return Err(RuleError::EmptyPattern {
                    rule: text.to_owned(),
                    tool: name.to_owned(),
                });
            }
            Some(p) => parse::spec(&tool, p).map_err(|why| RuleError::Pattern {
                rule: text.to_owned(),
                why,
            })?,
        };
        Ok(Rule {
            text: text.to_owned(),
            tool,
            spec,
            settings_dir: None,
        })
    }

    /// Anchors `/path` patterns at `dir`, the directory of the rule's settings source
    /// (Claude Code: the project root for project settings, `~/.claude` for user
    /// settings, the file's directory for `--settings <file>`). Without it they are
    /// anchored at the call's `cwd`.
    pub fn with_settings_dir(mut self, dir: impl Into<PathBuf>) -> Rule {
        self.settings_dir = Some(dir.into());
        self
    }

    /// Whether the call matches the rule. `tool_name` is the call's tool name in the
    /// LLxprt (canonical) dialect; `tool_input` its input; `cwd` anchors relative path
    /// patterns. An argument the pattern needs but the input lacks: no match. A
    /// shell command the reading cannot be sure of: [`Verdict::Unsure`].
    pub fn verdict(&self, tool_name: &str, tool_input: &Map<String, Value>, cwd: &Path) -> Verdict {
        let home = dirs::home_dir();
        if let Spec::Command(pattern) = &self.spec {
            if !self.tool.selects(tool_name) {
                return Verdict::No;
            }
            return string_arg(tool_input, &["command"])
                .map_or(Verdict::No, |c| pattern.verdict(c));
        }
        if self.matches_in(tool_name, tool_input, cwd, home.as_deref()) {
            Verdict::Yes
        } else {
            Verdict::No
        }
    }

    fn matches_in(
        &self,
        tool_name: &str,
        input: &Map<String, Value>,
        cwd: &Path,
        home: Option<&Path>,
    ) -> bool {
        if !self.tool.selects(tool_name) {
            return false;
        }
        match &self.spec {
            Spec::Any => true,
            Spec::Command(pattern) => {
                string_arg(input, &["command"]).is_some_and(|c| pattern.verdict(c) != Verdict::No)
            }
            Spec::Path(pattern) => {
                let places = Places {
                    cwd,
                    home,
                    settings: self.settings_dir.as_deref(),
                };
                if tool_name == APPLY_PATCH {
                    // Any file the patch touches.
                    return patch::patch_files(input)
                        .into_iter()
                        .any(|file| pattern.matches(file, &places));
                }
                string_arg(input, &FILE_KEYS).is_some_and(|file| pattern.matches(file, &places))
            }
            Spec::Domain(domain) => web::hosts(input)
                .iter()
                .any(|host| web::domain_matches(domain, host)),
            Spec::Agent(name) => string_arg(input, &["subagent_type", "subagent_name"])
                .is_some_and(|agent| wildcard(name, agent)),
            Spec::Skill(name) => string_arg(input, &["skill", "name"])
                .is_some_and(|skill| shell::prefix_match(name, skill)),
            Spec::Param { name, value } => {
                scalar(input.get(name)).is_some_and(|actual| wildcard(value, &actual))
            }
        }
    }
}

impl fmt::Display for Rule {
    /// The rule as written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// The first of `keys` whose value is a string.
fn string_arg<'a>(input: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a str> {
    keys.iter()
        .find_map(|key| input.get(*key).and_then(Value::as_str))
}

/// A scalar input value as text (`true`, `42`, the string itself).
fn scalar(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::Null | Value::Array(_) | Value::Object(_) => None,
    }
}

/// Whether `text` matches `pattern` as a whole, where `*` matches any run of
/// characters (spaces and `/` included) and everything else is literal.
fn wildcard(pattern: &str, text: &str) -> bool {
    // Byte-wise: literal runs of valid UTF-8 only ever match at character boundaries.
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    let (mut pi, mut ti) = (0, 0);
    // The last `*` seen and where in `text` its match ends so far.
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if p.get(pi) == Some(&b'*') {
            star = Some((pi, ti));
            pi += 1;
        } else if p.get(pi) == Some(&t[ti]) {
            pi += 1;
            ti += 1;
        } else if let Some((star_pi, star_ti)) = star {
            pi = star_pi + 1;
            ti = star_ti + 1;
            star = Some((star_pi, star_ti + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests;
