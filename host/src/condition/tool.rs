//! The tool part of an `if` rule: which calls its tool name selects, in either dialect
//! (a rule may say `Bash` or `run_shell_command`; a call's name comes in LLxprt's), and
//! what kind of pattern that tool takes.

use crate::dialect::Dialect;

use super::error::RuleError;
use super::patch::APPLY_PATCH;
use super::wildcard;

/// Which calls a rule's tool name selects.
#[derive(Debug, Clone)]
pub(super) enum ToolSel {
    /// A tool by its Claude Code name (an LLxprt name in the rule is translated).
    Named(String),
    /// `mcp__server`: every tool of the server; holds `mcp__server__`.
    McpServer(String),
    /// A name with `*`, matched against the whole name in either dialect.
    Glob(String),
}

/// What kind of pattern a tool takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
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

impl Kind {
    pub(super) fn of(claude_name: &str) -> Kind {
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
    pub(super) fn primary(self) -> &'static [&'static str] {
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
    pub(super) fn params(self) -> Option<&'static [&'static str]> {
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

impl ToolSel {
    /// Whether the rule's tool is the call's (`tool_name` in the LLxprt dialect).
    pub(super) fn selects(&self, tool_name: &str) -> bool {
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
    pub(super) fn kind(&self) -> Kind {
        match self {
            ToolSel::Named(name) => Kind::of(name),
            ToolSel::McpServer(_) | ToolSel::Glob(_) => Kind::Other,
        }
    }
}

/// The tool part of a rule.
pub(super) fn tool_sel(name: &str) -> Result<ToolSel, RuleError> {
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
