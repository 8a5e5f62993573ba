//! Where a policy's relative and home-relative paths point: the project
//! directory the host names (`HOOKHOST_PROJECT_DIR`, or the agent's own
//! variable), else the input's `cwd`, and the user's home (`HOME`).

/// The project-dir variables hosts and agents set, first found wins.
const PROJECT_VARS: &[&str] = &[
    "HOOKHOST_PROJECT_DIR",
    "LLXPRT_PROJECT_DIR",
    "GEMINI_PROJECT_DIR",
    "CLAUDE_PROJECT_DIR",
];

/// Where relative and home-relative paths point.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Places {
    /// The project directory (`HOOKHOST_PROJECT_DIR`, else the input's `cwd`).
    pub project: String,
    /// The user's home directory (`HOME`).
    pub home: String,
}

impl Places {
    /// The places of this run: the host's project-dir variables (then the
    /// input's `cwd`) and `HOME`.
    pub fn from_env(cwd: &str) -> Self {
        let project = PROJECT_VARS
            .iter()
            .find_map(|name| var(name))
            .unwrap_or_else(|| cwd.to_owned());
        let home = std::env::var("HOME").unwrap_or_default();
        Self { project, home }
    }
}

/// The environment variable `name` when it is set and not empty.
pub fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}
