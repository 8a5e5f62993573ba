//! One Claude Code permission rule, as a Claude hook's `"if"` holds it: the hook runs
//! only when the tool call matches the rule. hookhost evaluates it in every dialect, so
//! a rule may name the tool by its Claude name (`Bash(git *)`) or its LLxprt name
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
//! event a hook with an `if` never runs.

mod patch;
mod path;
mod shell;

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::dialect::Dialect;

pub(crate) use patch::APPLY_PATCH;
use path::{PathPattern, Places};
use shell::CommandPattern;

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

/// Why a rule does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// Nothing but blanks.
    #[error("the rule is empty")]
    Empty,
    /// More than one rule (`Bash(a)|Write`, `Edit, Write`).
    #[error(
        "{rule:?} is a list of rules; an `if` holds exactly one rule (write one hook per rule)"
    )]
    List {
        /// The rule as written.
        rule: String,
    },
    /// A `(` without its `)`, or a `)` without its `(`.
    #[error("{rule:?} has unbalanced parentheses")]
    Unbalanced {
        /// The rule as written.
        rule: String,
    },
    /// Text after the pattern's closing parenthesis.
    #[error("{rule:?} has {rest:?} after the closing parenthesis")]
    Trailing {
        /// The rule as written.
        rule: String,
        /// What follows the `)`.
        rest: String,
    },
    /// The tool name has characters no tool name has.
    #[error("{name:?} is not a tool name (letters, digits, `_`, `-` and `*` only)")]
    ToolName {
        /// The tool name as written.
        name: String,
    },
    /// `Tool()`.
    #[error("{rule:?} has an empty pattern; write {tool} alone to match every call")]
    EmptyPattern {
        /// The rule as written.
        rule: String,
        /// The tool as written.
        tool: String,
    },
    /// A pattern that has no meaning for its tool.
    #[error("{rule:?}: {why}")]
    Pattern {
        /// The rule as written.
        rule: String,
        /// What is wrong with the pattern.
        why: PatternError,
    },
}

/// What is wrong with a rule's pattern for its tool.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    /// `Bash(command:…)`: the primary field, which `param:value` cannot match.
    #[error(
        "`{name}` is {tool}'s primary field, which a `param:value` rule cannot match (a compound \
         command would bypass it); write the tool's own pattern instead, e.g. Bash(rm *), \
         Read(./path), WebFetch(domain:host)"
    )]
    PrimaryField {
        /// The field.
        name: String,
        /// The tool.
        tool: String,
    },
    /// A path pattern that does not parse.
    #[error("{0}")]
    Path(&'static str),
    /// A `WebFetch` rule that is not `domain:<host>`.
    #[error("WebFetch rules take `domain:<host>` (e.g. WebFetch(domain:example.com)), not a URL")]
    NotDomain,
    /// `domain:` with something that is no host name.
    #[error("{0:?} is not a host name for `domain:`")]
    NotHost(String),
    /// A path rule for a search tool, which Claude Code never consults.
    #[error(
        "Claude Code never consults a path rule for {0}; write {0} alone, Read(<path>) for the \
         files it reads, or {0}(param:value)"
    )]
    Search(String),
    /// A pattern for a tool that takes none.
    #[error("{0} takes no pattern; write {0} alone or {0}(param:value)")]
    NoPattern(String),
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

/// Which calls a rule's tool name selects.
#[derive(Debug, Clone)]
enum ToolSel {
    /// A tool by its Claude Code name (an LLxprt name in the rule is translated).
    Named(String),
    /// `mcp__server`: every tool of the server; holds `mcp__server__`.
    McpServer(String),
    /// A name with `*`, matched against the whole name in either dialect.
    Glob(String),
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

/// What kind of pattern a tool takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Shell,
    File,
    Web,
    Agent,
    Skill,
    /// Glob and Grep: Claude Code never consults a path rule for them.
    Search,
    /// Every other tool, MCP tools included: only `param:value`.
    Other,
}

/// Input keys of a file tool's path, in order of preference: Claude's `file_path`
/// and `notebook_path`, LLxprt's `absolute_path` (read_file, write_file, replace
/// accept either) and `path`.
const FILE_KEYS: [&str; 4] = ["file_path", "absolute_path", "notebook_path", "path"];

impl Kind {
    fn of(claude_name: &str) -> Kind {
        match claude_name {
            "Bash" => Kind::Shell,
            "Read" | "Edit" | "Write" | "MultiEdit" | "NotebookEdit" | "NotebookRead" => Kind::File,
            "WebFetch" => Kind::Web,
            "Agent" | "Task" => Kind::Agent,
            "Skill" => Kind::Skill,
            "Glob" | "Grep" => Kind::Search,
            _ => Kind::Other,
        }
    }

    /// The tool's primary field(s), which `param:value` must not name (Claude Code
    /// ignores such a rule: a compound command would bypass it).
    fn primary(self) -> &'static [&'static str] {
        match self {
            Kind::Shell => &["command"],
            Kind::File => &["file_path", "absolute_path", "notebook_path"],
            Kind::Web => &["url"],
            Kind::Search => &["path", "dir_path"],
            Kind::Agent | Kind::Skill | Kind::Other => &[],
        }
    }

    /// The parameters `param:value` may name on a tool whose pattern has its own
    /// syntax (a known field tells `Bash(timeout:*)` from the legacy `Bash(ls:*)`);
    /// `None`: any parameter.
    fn params(self) -> Option<&'static [&'static str]> {
        match self {
            Kind::Shell => Some(&[
                "description",
                "timeout",
                "run_in_background",
                "dangerouslyDisableSandbox",
                "directory",
                "dir_path",
            ]),
            Kind::File => Some(&[
                "offset",
                "limit",
                "pages",
                "old_string",
                "new_string",
                "replace_all",
                "content",
                "cell_id",
                "new_source",
                "cell_type",
                "edit_mode",
            ]),
            Kind::Web => Some(&["prompt"]),
            Kind::Agent => Some(&[
                "model",
                "isolation",
                "run_in_background",
                "description",
                "prompt",
                "subagent_type",
                "subagent_name",
                "name",
                "mode",
            ]),
            Kind::Skill => Some(&["args"]),
            Kind::Search | Kind::Other => None,
        }
    }
}

impl Rule {
    /// Parses one rule: `Tool` or `Tool(pattern)`. A rule that does not parse is an
    /// error, never a rule that matches everything.
    pub fn parse(text: &str) -> Result<Rule, RuleError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(RuleError::Empty);
        }
        let (name, pattern) = split(text)?;
        let tool = tool_sel(name)?;
        let spec = match pattern {
            None => Spec::Any,
            Some(p) if p.trim().is_empty() => {
                return Err(RuleError::EmptyPattern {
                    rule: text.to_owned(),
                    tool: name.to_owned(),
                });
            }
            Some(p) => spec(&tool, p).map_err(|why| RuleError::Pattern {
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
            Spec::Domain(domain) => hosts(input).iter().any(|host| domain_matches(domain, host)),
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

impl ToolSel {
    /// Whether the rule's tool is the call's (`tool_name` in the LLxprt dialect).
    fn selects(&self, tool_name: &str) -> bool {
        let claude = Dialect::Claude.tool_name(tool_name);
        match self {
            ToolSel::Named(rule) => {
                rule == claude
                    // "Edit rules apply to all built-in tools that edit files."
                    || (rule == "Edit" && matches!(claude, "Write" | "MultiEdit" | "NotebookEdit"))
                    // Codex's patches are its edits and writes.
                    || (matches!(rule.as_str(), "Edit" | "Write") && tool_name == APPLY_PATCH)
                    // Task is the Agent tool's former name.
                    || matches!((rule.as_str(), claude), ("Agent", "Task") | ("Task", "Agent"))
            }
            ToolSel::McpServer(prefix) => tool_name
                .strip_prefix(prefix.as_str())
                .is_some_and(|tool| !tool.is_empty()),
            ToolSel::Glob(glob) => wildcard(glob, claude) || wildcard(glob, tool_name),
        }
    }

    /// The pattern kind of the selected tool(s).
    fn kind(&self) -> Kind {
        match self {
            ToolSel::Named(name) => Kind::of(name),
            ToolSel::McpServer(_) | ToolSel::Glob(_) => Kind::Other,
        }
    }
}

/// The tool name and the pattern between the first `(` and its `)`.
fn split(text: &str) -> Result<(&str, Option<&str>), RuleError> {
    let rule = || text.to_owned();
    let Some(open) = text.find('(') else {
        if text.contains(')') {
            return Err(RuleError::Unbalanced { rule: rule() });
        }
        if is_list(text) {
            return Err(RuleError::List { rule: rule() });
        }
        return Ok((text, None));
    };
    let name = &text[..open];
    if is_list(name) {
        return Err(RuleError::List { rule: rule() });
    }
    let inner = &text[open + 1..];
    // The pattern ends at the `)` that ends the rule, counting parentheses in quotes
    // (`Read(it's(1).txt)`) or, failing that, not (`Bash(echo ")")`); else at the
    // first `)` that closes it (to say what follows).
    let ends_rule = |close: &usize| inner[close + 1..].trim().is_empty();
    let close = closing_paren(inner, false)
        .filter(ends_rule)
        .or_else(|| closing_paren(inner, true).filter(ends_rule))
        .or_else(|| closing_paren(inner, false))
        .ok_or_else(|| RuleError::Unbalanced { rule: rule() })?;
    let rest = inner[close + 1..].trim();
    if rest.is_empty() {
        Ok((name, Some(&inner[..close])))
    } else if is_list(rest) {
        Err(RuleError::List { rule: rule() })
    } else {
        Err(RuleError::Trailing {
            rule: rule(),
            rest: rest.to_owned(),
        })
    }
}

/// Whether a rule's top level joins rules (`A|B`, `A, B`, `A && B`).
fn is_list(top_level: &str) -> bool {
    top_level.contains(['|', ',']) || top_level.contains("&&")
}

/// The index in `inner` of the `)` closing the pattern: parentheses nest, and those
/// after a backslash (and, with `quotes`, inside quotes) do not count.
fn closing_paren(inner: &str, quotes: bool) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in inner.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match (quote, c) {
            (Some('\''), '\'') => quote = None,
            (Some('\''), _) => {}
            (_, '\\') => escaped = true,
            (Some('"'), '"') => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') if quotes => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') if depth == 0 => return Some(i),
            (None, ')') => depth -= 1,
            (None, _) => {}
        }
    }
    None
}

/// The tool part of a rule.
fn tool_sel(name: &str) -> Result<ToolSel, RuleError> {
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '*'));
    if !valid {
        return Err(RuleError::ToolName {
            name: name.to_owned(),
        });
    }
    if name.contains('*') {
        return Ok(ToolSel::Glob(name.to_owned()));
    }
    if let Some(rest) = name.strip_prefix("mcp__") {
        if rest.is_empty() || rest.starts_with('_') || rest.ends_with("__") {
            return Err(RuleError::ToolName {
                name: name.to_owned(),
            });
        }
        if !rest.contains("__") {
            return Ok(ToolSel::McpServer(format!("{name}__")));
        }
        return Ok(ToolSel::Named(name.to_owned()));
    }
    Ok(ToolSel::Named(Dialect::Claude.tool_name(name).to_owned()))
}

/// The pattern of a rule for `tool`.
fn spec(tool: &ToolSel, pattern: &str) -> Result<Spec, PatternError> {
    let kind = tool.kind();
    let tool_name = match tool {
        ToolSel::Named(name) => name.as_str(),
        ToolSel::McpServer(prefix) => prefix.trim_end_matches('_'),
        ToolSel::Glob(glob) => glob.as_str(),
    };
    if let Some((name, value)) = param_form(pattern) {
        if kind.primary().contains(&name) {
            return Err(PatternError::PrimaryField {
                name: name.to_owned(),
                tool: tool_name.to_owned(),
            });
        }
        if kind.params().is_none_or(|known| known.contains(&name)) {
            return Ok(Spec::Param {
                name: name.to_owned(),
                value: value.to_owned(),
            });
        }
    }
    let pattern = pattern.trim();
    match kind {
        Kind::Shell if pattern == "*" => Ok(Spec::Any),
        Kind::Shell => Ok(Spec::Command(CommandPattern::new(pattern))),
        Kind::File => PathPattern::parse(pattern)
            .map(Spec::Path)
            .map_err(PatternError::Path),
        Kind::Web => domain(pattern),
        Kind::Agent | Kind::Skill if pattern == "*" => Ok(Spec::Any),
        Kind::Agent => Ok(Spec::Agent(pattern.to_owned())),
        Kind::Skill => Ok(Spec::Skill(pattern.to_owned())),
        Kind::Search => Err(PatternError::Search(tool_name.to_owned())),
        Kind::Other => Err(PatternError::NoPattern(tool_name.to_owned())),
    }
}

/// `param:value` with whitespace around the colon ignored; `param` an identifier.
fn param_form(pattern: &str) -> Option<(&str, &str)> {
    let (name, value) = pattern.split_once(':')?;
    let name = name.trim();
    let mut chars = name.chars();
    let ident = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    ident.then(|| (name, value.trim()))
}

/// `WebFetch(domain:host)`.
fn domain(pattern: &str) -> Result<Spec, PatternError> {
    let Some(("domain", host)) = param_form(pattern) else {
        return Err(PatternError::NotDomain);
    };
    let host = host.trim().trim_end_matches('.').to_ascii_lowercase();
    if host.is_empty() || host.contains(['/', ':', ' ']) {
        return Err(PatternError::NotHost(host));
    }
    if host == "*" {
        return Ok(Spec::Any);
    }
    Ok(Spec::Domain(host))
}

/// Whether a host matches a `domain:` pattern: `*.example.com` any subdomain at any
/// depth but not `example.com`; any other `*` within one label.
fn domain_matches(pattern: &str, host: &str) -> bool {
    let labels = |s: &str| s.split('.').map(str::to_owned).collect::<Vec<_>>();
    let host = labels(host);
    if let Some(suffix) = pattern.strip_prefix("*.") {
        let suffix = labels(suffix);
        return host.len() > suffix.len()
            && host[host.len() - suffix.len()..]
                .iter()
                .zip(&suffix)
                .all(|(h, p)| wildcard(p, h));
    }
    let pattern = labels(pattern);
    pattern.len() == host.len() && host.iter().zip(&pattern).all(|(h, p)| wildcard(p, h))
}

/// The hosts a web fetch reaches: its `url`'s, or (LLxprt/Gemini's `web_fetch`, whose
/// input is a prompt with URLs in it) those of every `http(s)://` URL in `prompt`.
fn hosts(input: &Map<String, Value>) -> Vec<String> {
    if let Some(url) = string_arg(input, &["url"]) {
        return host_of(url).into_iter().collect();
    }
    let Some(prompt) = string_arg(input, &["prompt"]) else {
        return Vec::new();
    };
    prompt
        .match_indices("http")
        .filter_map(|(i, _)| {
            let url = &prompt[i..];
            (url.starts_with("http://") || url.starts_with("https://"))
                .then(|| url.split(char::is_whitespace).next().and_then(host_of))
                .flatten()
        })
        .collect()
}

/// A URL's host as the agent's fetch reaches it: parsed by the WHATWG URL
/// standard with IDNA (what Node's `new URL()` does), so percent-encoded,
/// ideographic or full-width dots, full-width letters and tabs in the host give
/// the host they stand for; lowercase, without a trailing dot. A URL the standard
/// rejects is read as text (the agent cannot fetch it either).
fn host_of(url: &str) -> Option<String> {
    let url = url.trim();
    let parsed = url::Url::parse(url).or_else(|_| url::Url::parse(&format!("https://{url}")));
    if let Ok(parsed) = parsed {
        let host = match parsed.host()? {
            url::Host::Domain(d) => d.to_owned(),
            url::Host::Ipv4(a) => a.to_string(),
            url::Host::Ipv6(a) => a.to_string(),
        };
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        return (!host.is_empty()).then_some(host);
    }
    let rest = url.find("://").map_or(url, |i| &url[i + 3..]);
    let authority = rest.split(['/', '\\', '?', '#']).next()?;
    let host_port = authority.rsplit('@').next()?;
    let host = match host_port.strip_prefix('[') {
        Some(v6) => v6.split(']').next()?,
        None => host_port.split(':').next()?,
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    (!host.is_empty()).then_some(host)
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
mod tests {
    use super::*;
    use serde_json::json;

    pub(super) fn input(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    fn rule(text: &str) -> Rule {
        Rule::parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
    }

    fn hits(text: &str, tool: &str, tool_input: Value) -> bool {
        rule(text).matches_in(tool, &input(tool_input), Path::new("/proj"), None)
    }

    #[test]
    fn the_issue_case_git_status_prefix() {
        let cmd = |c: &str| json!({ "command": c });
        assert!(hits(
            "Bash(git status*)",
            "run_shell_command",
            cmd("git status --short")
        ));
        assert!(!hits(
            "Bash(git status*)",
            "run_shell_command",
            cmd("rm -rf /")
        ));
        assert!(hits(
            "Bash(echo guarded*)",
            "run_shell_command",
            cmd("echo guarded run")
        ));
        assert!(!hits(
            "Bash(echo guarded*)",
            "run_shell_command",
            cmd("echo free")
        ));
        // The rule's tool is not the call's.
        assert!(!hits("Bash(git status*)", "write_file", cmd("git status")));
    }

    #[test]
    fn tool_names_in_either_dialect() {
        let cmd = json!({ "command": "git push" });
        assert!(hits("Bash(git *)", "run_shell_command", cmd.clone()));
        assert!(hits(
            "run_shell_command(git *)",
            "run_shell_command",
            cmd.clone()
        ));
        // A call that arrives under Claude's name is understood too.
        assert!(hits("run_shell_command(git *)", "Bash", cmd.clone()));
        assert!(hits("Bash", "run_shell_command", json!({})));
        assert!(hits("Bash(*)", "run_shell_command", json!({})));
        assert!(hits("write_file", "write_file", json!({})));
        assert!(!hits("Write", "replace", json!({})));
        assert!(!hits("Bash", "bash_output", json!({})));
    }

    #[test]
    fn file_rules_in_either_dialect_and_edit_covers_the_editing_tools() {
        let file = json!({ "file_path": "/proj/src/main.ts" });
        assert!(hits("Write(src/**)", "write_file", file.clone()));
        assert!(hits("write_file(src/**)", "write_file", file.clone()));
        assert!(hits("Edit(*.ts)", "replace", file.clone()));
        assert!(hits("Edit(*.ts)", "write_file", file.clone()));
        assert!(hits("Edit(*.ts)", "multi_edit", file.clone()));
        assert!(!hits("Write(*.ts)", "replace", file.clone()));
        assert!(!hits("Read(*.ts)", "write_file", file));
        // LLxprt's read_file takes `absolute_path`.
        let read = json!({ "absolute_path": "/proj/.env" });
        assert!(hits("Read(.env)", "read_file", read));
        // A missing argument does not match.
        assert!(!hits("Edit(*.ts)", "replace", json!({ "old_string": "x" })));
        assert!(!hits(
            "Bash(git *)",
            "run_shell_command",
            json!({ "command": 3 })
        ));
    }

    #[test]
    fn mcp_rules_name_a_server_a_tool_or_a_glob() {
        let call = |rule: &str, tool: &str| hits(rule, tool, json!({}));
        assert!(call("mcp__server__tool", "mcp__server__tool"));
        assert!(!call("mcp__server__tool", "mcp__server__tool2"));
        assert!(call("mcp__server", "mcp__server__anything"));
        assert!(!call("mcp__server", "mcp__server2__anything"));
        assert!(!call("mcp__server", "mcp__server"));
        assert!(call("mcp__server__*", "mcp__server__x"));
        assert!(!call("mcp__server__*", "mcp__other__x"));
        assert!(call("mcp__github__get_*", "mcp__github__get_issue"));
        assert!(!call("mcp__github__get_*", "mcp__github__create_issue"));
        assert!(call("mcp__*", "mcp__a__b"));
        assert!(!call("mcp__*", "run_shell_command"));
        assert!(call("*", "run_shell_command"));
        assert!(call("B*", "run_shell_command"));
        assert!(hits(
            "mcp__db__query(database:prod*)",
            "mcp__db__query",
            json!({ "database": "production" })
        ));
    }

    #[test]
    /// Seen (issue 36, item 2): a `domain:` deny compared the URL's text.
    fn seen_web_fetch_hosts_are_read_as_the_agent_reads_them() {
        for url in [
            "https://evil%2Ecom/x",
            "https://evil\u{3002}com/x",
            "https://evil\u{ff0e}com/x",
            "https://\u{ff45}\u{ff56}\u{ff49}\u{ff4c}.com/x",
            "https://ev\til.com/x",
            "https://EVIL.COM./x",
            "https://user:pw@evil.com:8443/x",
            "https://evil.com\\@good.com/",
        ] {
            assert!(
                hits(
                    "WebFetch(domain:evil.com)",
                    "WebFetch",
                    json!({ "url": url })
                ),
                "{url}"
            );
        }
        assert!(!hits(
            "WebFetch(domain:evil.com)",
            "WebFetch",
            json!({ "url": "https://notevil.com/" })
        ));
    }

    #[test]
    fn web_fetch_domains() {
        let url = |u: &str| json!({ "url": u, "prompt": "summarise" });
        assert!(hits(
            "WebFetch(domain:example.com)",
            "web_fetch",
            url("https://Example.COM./a")
        ));
        assert!(hits(
            "WebFetch(domain:example.com)",
            "web_fetch",
            url("http://u:p@example.com:8080")
        ));
        assert!(!hits(
            "WebFetch(domain:example.com)",
            "web_fetch",
            url("https://api.example.com")
        ));
        assert!(!hits(
            "WebFetch(domain:example.com)",
            "web_fetch",
            url("https://example.com.evil.io")
        ));
        assert!(hits(
            "WebFetch(domain:*.example.com)",
            "web_fetch",
            url("https://a.b.example.com")
        ));
        assert!(!hits(
            "WebFetch(domain:*.example.com)",
            "web_fetch",
            url("https://example.com")
        ));
        assert!(hits(
            "WebFetch(domain:example.*)",
            "web_fetch",
            url("https://example.org")
        ));
        assert!(!hits(
            "WebFetch(domain:example.*)",
            "web_fetch",
            url("https://example.evil.com")
        ));
        assert!(hits("WebFetch(domain:*)", "web_fetch", json!({})));
        assert!(!hits(
            "WebFetch(domain:example.com)",
            "web_fetch",
            json!({})
        ));
        // Gemini/LLxprt web_fetch: URLs inside the prompt.
        let prompt = json!({ "prompt": "compare https://a.io/x and https://example.com/y" });
        assert!(hits(
            "WebFetch(domain:example.com)",
            "web_fetch",
            prompt.clone()
        ));
        assert!(!hits("WebFetch(domain:b.io)", "web_fetch", prompt));
    }

    #[test]
    fn agents_skills_and_parameters() {
        let agent = json!({ "subagent_type": "Explore", "model": "opus" });
        assert!(hits("Agent(Explore)", "agent", agent.clone()));
        assert!(hits("Agent(Explore)", "task", agent.clone()));
        assert!(hits("Task(Explore)", "agent", agent.clone()));
        assert!(!hits("Agent(Plan)", "agent", agent.clone()));
        assert!(hits("Agent(model:opus)", "agent", agent.clone()));
        assert!(!hits("Agent(model:sonnet)", "agent", agent.clone()));
        assert!(!hits("Agent(isolation:*)", "agent", agent));
        assert!(hits(
            "Agent(my-plugin:*)",
            "agent",
            json!({ "subagent_type": "my-plugin:review" })
        ));
        assert!(hits(
            "Agent(Explore)",
            "task",
            json!({ "subagent_name": "Explore" })
        ));
        let bg = json!({ "command": "sleep 9", "run_in_background": true });
        assert!(hits(
            "Bash(run_in_background:true)",
            "run_shell_command",
            bg.clone()
        ));
        assert!(!hits(
            "Bash(run_in_background:false)",
            "run_shell_command",
            bg
        ));
        let skill = json!({ "skill": "deploy prod" });
        assert!(hits("Skill(deploy *)", "skill", skill.clone()));
        assert!(!hits("Skill(dep *)", "skill", skill));
        assert!(hits(
            "TodoWrite(todos:*)",
            "write_todos",
            json!({ "todos": "x" })
        ));
        assert!(!hits(
            "TodoWrite(todos:*)",
            "write_todos",
            json!({ "todos": ["x"] })
        ));
    }

    #[test]
    fn rules_that_do_not_parse_are_errors() {
        let err = |text: &str| Rule::parse(text).err();
        assert_eq!(err(""), Some(RuleError::Empty));
        assert_eq!(err("   "), Some(RuleError::Empty));
        assert!(matches!(err("Bash("), Some(RuleError::Unbalanced { .. })));
        assert!(matches!(
            err("Bash(bash:<(*)"),
            Some(RuleError::Unbalanced { .. })
        ));
        assert!(matches!(err("Bash)"), Some(RuleError::Unbalanced { .. })));
        assert!(matches!(err("Bash(a)|Write"), Some(RuleError::List { .. })));
        assert!(matches!(err("Bash|Write"), Some(RuleError::List { .. })));
        assert!(matches!(err("Edit, Write"), Some(RuleError::List { .. })));
        assert!(matches!(
            err("Edit(*.ts)|Write(*.ts)"),
            Some(RuleError::List { .. })
        ));
        assert!(matches!(
            err("Bash(x) trailing"),
            Some(RuleError::Trailing { .. })
        ));
        assert!(matches!(err("Ba sh"), Some(RuleError::ToolName { .. })));
        assert!(matches!(err("(x)"), Some(RuleError::ToolName { .. })));
        assert!(matches!(err("Stop Task"), Some(RuleError::ToolName { .. })));
        assert!(matches!(err("mcp__"), Some(RuleError::ToolName { .. })));
        assert!(matches!(
            err("mcp__server__"),
            Some(RuleError::ToolName { .. })
        ));
        assert!(matches!(
            err("Bash()"),
            Some(RuleError::EmptyPattern { .. })
        ));
        for text in [
            "Glob(xyz)",
            "Grep(src/**)",
            "Glob(path:src)",
            "TodoWrite(x)",
            "mcp__server__tool(x)",
            "mcp__server(x)",
            "bash(git *)",
            "WebFetch(https://example.com)",
            "WebFetch(domain:)",
            "Bash(command:rm *)",
            "Read(file_path:/etc/passwd)",
            "WebFetch(url:https://x)",
            "Read(!secret)",
            "Read(~alice/x)",
            "Read(a/../b)",
        ] {
            let e = err(text);
            assert!(
                matches!(e, Some(RuleError::Pattern { .. })),
                "{text}: {e:?}"
            );
        }
        let message = err("Glob(xyz)").map(|e| e.to_string()).unwrap_or_default();
        assert!(message.contains("Read("), "{message}");
    }

    #[test]
    fn rules_display_as_written() {
        for text in [
            "Bash(git status*)",
            "Read(~/.ssh/**)",
            "mcp__s",
            "Bash(echo \")\")",
        ] {
            assert_eq!(rule(text).to_string(), text);
        }
        assert_eq!(rule("  Bash  ").to_string(), "Bash");
        assert!(hits(
            "Read(it's(1).txt)",
            "read_file",
            json!({ "file_path": "/proj/it's(1).txt" })
        ));
        assert!(hits(
            "WebFetch(domain : a.io)",
            "web_fetch",
            json!({ "url": "https://a.io" })
        ));
        assert!(hits("Agent(*)", "agent", json!({})));
        // Parentheses nest, and quoted ones do not count.
        assert!(hits(
            "Bash(echo \")\")",
            "run_shell_command",
            json!({ "command": "echo \")\"" })
        ));
    }

    #[test]
    fn wildcards_match_whole_texts() {
        assert!(wildcard("", ""));
        assert!(wildcard("*", ""));
        assert!(wildcard("a*c", "abbbc"));
        assert!(wildcard("a*b*c", "a-b-b-c"));
        assert!(!wildcard("a*c", "abcd"));
        assert!(wildcard("é*", "éa"));
        assert!(!wildcard("abc", "ab"));
    }
}
