//! The agents `hookhost setup` wires, each with its user-level file, its format
//! and its event names (CONTRACT §6), and how to tell whether it is installed.
//!
//! Every agent with command hooks gets `hookhost hook` as one hook per event that
//! hookhost's policies use, appended after the user's own hooks (Codex keys its
//! trust by position). opencode and Kilo CLI have no command hooks: they get a
//! plugin file that hands `tool.execute.before` to `hookhost hook`.

use std::path::{Path, PathBuf};

/// An agent `hookhost setup` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    Claude,
    Codex,
    Gemini,
    Llxprt,
    Copilot,
    Qwen,
    Droid,
    Opencode,
    Kilo,
}

/// Every agent, in the order reports list them.
pub const ALL: [Agent; 9] = [
    Agent::Claude,
    Agent::Codex,
    Agent::Gemini,
    Agent::Llxprt,
    Agent::Copilot,
    Agent::Qwen,
    Agent::Droid,
    Agent::Opencode,
    Agent::Kilo,
];

/// How the agent's hook file names things and counts time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Claude Code's names (`PreToolUse` …), matcher `*`, timeout in seconds
    /// (Claude Code, Codex, Copilot CLI, Factory Droid).
    Claude,
    /// Gemini CLI's names (`BeforeTool` …), no matcher (every tool), timeout in
    /// milliseconds (Gemini CLI, LLxprt Code).
    Gemini,
    /// Claude's names in a Gemini-derived agent: Qwen Code (matchers are
    /// unanchored regular expressions over Gemini's tool names; timeout in
    /// seconds, a value of 1000 or more read as milliseconds — measured 0.24.4).
    Qwen,
    /// Claude's names and format in Copilot CLI's user file, with no matcher: its
    /// matchers are whole-name regular expressions (`*` is none), and a group
    /// without one matched every tool (measured 1.0.102).
    Copilot,
}

impl Style {
    /// The events hookhost's policies use, each with the matcher setup writes (a
    /// matcher only on the tool events, and only where the agent takes one).
    pub fn events(self) -> impl Iterator<Item = (&'static str, Option<&'static str>)> {
        const CLAUDE: [&str; 5] = [
            "PreToolUse",
            "PostToolUse",
            "UserPromptSubmit",
            "SessionStart",
            "Stop",
        ];
        const GEMINI: [&str; 5] = [
            "BeforeTool",
            "AfterTool",
            "BeforeAgent",
            "AfterAgent",
            "SessionStart",
        ];
        let (names, tool_matcher) = match self {
            Style::Claude => (CLAUDE, Some("*")),
            Style::Qwen => (CLAUDE, Some(".*")),
            Style::Copilot => (CLAUDE, None),
            Style::Gemini => (GEMINI, None),
        };
        names
            .into_iter()
            .map(move |name| (name, tool_matcher.filter(|_| name.ends_with("ToolUse"))))
    }

    /// The hook's timeout in the file's unit: one minute.
    pub fn timeout(self) -> u64 {
        match self {
            Style::Claude | Style::Qwen | Style::Copilot => 60,
            Style::Gemini => 60_000,
        }
    }
}

/// Where an agent is wired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wiring {
    /// Command hooks in a JSON settings file (`{"hooks": {EVENT: [groups]}}`).
    Hooks { file: PathBuf, style: Style },
    /// A JavaScript plugin file that calls `hookhost hook`.
    Plugin { file: PathBuf },
}

/// The directories setup reads from the environment.
#[derive(Debug, Clone)]
pub struct Places {
    pub home: PathBuf,
    /// `$CODEX_HOME` as Codex resolves it (canonical when set), else `~/.codex`.
    pub codex_home: PathBuf,
    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    pub config: PathBuf,
}

impl Places {
    /// From the environment; `None` without a home directory.
    pub fn from_env() -> Option<Places> {
        let home = dirs::home_dir()?;
        // Codex canonicalises an explicit CODEX_HOME and keys its trust records by
        // that path; the default `~/.codex` is used as it is.
        let codex_home = match std::env::var_os("CODEX_HOME").filter(|v| !v.is_empty()) {
            Some(dir) => {
                let dir = PathBuf::from(dir);
                std::fs::canonicalize(&dir).unwrap_or(dir)
            }
            None => home.join(".codex"),
        };
        let config = std::env::var_os("XDG_CONFIG_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .unwrap_or_else(|| home.join(".config"));
        Some(Places {
            home,
            codex_home,
            config,
        })
    }
}

impl Agent {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
            Agent::Llxprt => "llxprt",
            Agent::Copilot => "copilot",
            Agent::Qwen => "qwen",
            Agent::Droid => "droid",
            Agent::Opencode => "opencode",
            Agent::Kilo => "kilo",
        }
    }

    /// The agent a command-line name means.
    pub fn parse(name: &str) -> Option<Agent> {
        ALL.into_iter().find(|a| a.name() == name)
    }

    /// What people call it.
    pub fn title(self) -> &'static str {
        match self {
            Agent::Claude => "Claude Code",
            Agent::Codex => "Codex",
            Agent::Gemini => "Gemini CLI",
            Agent::Llxprt => "LLxprt Code",
            Agent::Copilot => "GitHub Copilot CLI",
            Agent::Qwen => "Qwen Code",
            Agent::Droid => "Factory Droid",
            Agent::Opencode => "opencode",
            Agent::Kilo => "Kilo CLI",
        }
    }

    /// The agent's own directory of user settings.
    pub fn config_dir(self, places: &Places) -> PathBuf {
        match self {
            Agent::Claude => places.home.join(".claude"),
            Agent::Codex => places.codex_home.clone(),
            Agent::Gemini => places.home.join(".gemini"),
            Agent::Llxprt => places.home.join(".llxprt"),
            Agent::Copilot => places.home.join(".copilot"),
            Agent::Qwen => places.home.join(".qwen"),
            Agent::Droid => places.home.join(".factory"),
            Agent::Opencode => places.config.join("opencode"),
            Agent::Kilo => places.config.join("kilo"),
        }
    }

    /// Where setup wires it.
    pub fn wiring(self, places: &Places) -> Wiring {
        let dir = self.config_dir(places);
        let hooks = |name: &str, style| Wiring::Hooks {
            file: dir.join(name),
            style,
        };
        match self {
            Agent::Claude | Agent::Droid => hooks("settings.json", Style::Claude),
            Agent::Copilot => hooks("settings.json", Style::Copilot),
            Agent::Codex => hooks("hooks.json", Style::Claude),
            Agent::Gemini | Agent::Llxprt => hooks("settings.json", Style::Gemini),
            Agent::Qwen => hooks("settings.json", Style::Qwen),
            Agent::Opencode | Agent::Kilo => Wiring::Plugin {
                file: dir.join("plugin").join("hookhost.js"),
            },
        }
    }

    /// Whether the agent is installed for this user: its directory exists or its
    /// program is on `PATH`.
    pub fn found(self, places: &Places) -> bool {
        // `~/.llxprt` is also where hookhost's own user settings live: only the
        // program says LLxprt Code is installed.
        let dir = self != Agent::Llxprt && self.config_dir(places).is_dir();
        dir || on_path(self.program())
    }

    /// Its program's name (the same as its name on the command line).
    pub fn program(self) -> &'static str {
        self.name()
    }
}

/// Whether an executable `name` is in a directory of `PATH`.
pub fn on_path(name: &str) -> bool {
    let Some(path) = std::env::var_os("PATH") else {
        return false;
    };
    std::env::split_paths(&path).any(|dir| is_executable(&dir.join(name)))
}

/// Whether `path` is a file someone may execute.
pub fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}
