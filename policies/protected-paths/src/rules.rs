//! Which paths are protected, and why: agent hook and settings files, git
//! hooks and config, shell start-up files, SSH access, cron and systemd user
//! units, and the paths added with `--protect`.

use hookhost_policy_common::paths::{Part, components, holds_rule, starts_with_rule};
use hookhost_policy_common::places::Places;

/// A protected path family.
struct Rule {
    /// The rule's name in block reasons.
    name: &'static str,
    /// What the paths are.
    what: &'static str,
    /// The parts after the base directory.
    parts: &'static [Part],
    /// Whether everything below the path is protected too.
    under: bool,
}

const fn rule(name: &'static str, what: &'static str, parts: &'static [Part], under: bool) -> Rule {
    Rule {
        name,
        what,
        parts,
        under,
    }
}

use Part::{Any, Lit, Prefix};

/// Agent settings and hook files, under the project and under the home.
const AGENT: &[Rule] = &[
    rule(
        "agent-settings",
        "Claude Code settings",
        &[Lit(".claude"), Lit("settings.json")],
        false,
    ),
    rule(
        "agent-settings",
        "Claude Code settings",
        &[Lit(".claude"), Lit("settings.local.json")],
        false,
    ),
    rule(
        "agent-settings",
        "Codex hooks",
        &[Lit(".codex"), Lit("hooks.json")],
        false,
    ),
    rule(
        "agent-settings",
        "Codex config",
        &[Lit(".codex"), Lit("config.toml")],
        false,
    ),
    rule(
        "agent-settings",
        "Gemini CLI settings",
        &[Lit(".gemini"), Lit("settings.json")],
        false,
    ),
    rule(
        "agent-settings",
        "LLxprt settings",
        &[Lit(".llxprt"), Lit("settings.json")],
        false,
    ),
    rule(
        "agent-settings",
        "hookhost's lock file",
        &[Lit(".llxprt"), Lit("hookhost.lock")],
        false,
    ),
    rule(
        "agent-settings",
        "hookhost's lock file",
        &[Lit("hookhost.lock")],
        false,
    ),
    rule(
        "agent-settings",
        "Copilot settings",
        &[Lit(".copilot"), Lit("settings.json")],
        false,
    ),
    rule(
        "agent-settings",
        "Copilot hooks",
        &[Lit(".github"), Lit("hooks")],
        true,
    ),
    rule(
        "agent-settings",
        "Qwen Code settings",
        &[Lit(".qwen"), Lit("settings.json")],
        false,
    ),
    rule(
        "agent-settings",
        "Factory settings",
        &[Lit(".factory"), Lit("settings.json")],
        false,
    ),
    rule(
        "agent-settings",
        "opencode config",
        &[Lit(".config"), Lit("opencode")],
        true,
    ),
];

/// Files under the home directory that run at login or grant access.
const HOME: &[Rule] = &[
    rule(
        "shell-startup",
        "a shell start-up file",
        &[Lit(".bashrc")],
        false,
    ),
    rule(
        "shell-startup",
        "a shell start-up file",
        &[Lit(".zshrc")],
        false,
    ),
    rule(
        "shell-startup",
        "a shell start-up file",
        &[Lit(".profile")],
        false,
    ),
    rule(
        "shell-startup",
        "a shell start-up file",
        &[Lit(".bash_profile")],
        false,
    ),
    rule(
        "shell-startup",
        "a shell start-up file",
        &[Lit(".zprofile")],
        false,
    ),
    rule(
        "shell-startup",
        "a shell start-up file",
        &[Lit(".bash_login")],
        false,
    ),
    rule(
        "shell-startup",
        "a shell start-up file",
        &[Lit(".zshenv")],
        false,
    ),
    rule(
        "shell-startup",
        "a shell start-up file",
        &[Lit(".zlogin")],
        false,
    ),
    rule(
        "ssh",
        "SSH authorized keys",
        &[Lit(".ssh"), Prefix("authorized_keys", &["authorized_keys"])],
        false,
    ),
    rule(
        "ssh",
        "the SSH client config",
        &[Lit(".ssh"), Lit("config")],
        false,
    ),
    rule(
        "systemd",
        "systemd user units",
        &[Lit(".config"), Lit("systemd"), Lit("user")],
        true,
    ),
];

/// Absolute paths.
const SYSTEM: &[Rule] = &[
    rule(
        "cron",
        "cron tables",
        &[Lit("var"), Lit("spool"), Lit("cron")],
        true,
    ),
    rule(
        "cron",
        "cron tables",
        &[
            Lit("etc"),
            Prefix("cron", &["crontab", "cron.d", "cron.daily"]),
        ],
        true,
    ),
];

/// Git hooks and config in any repository.
const GIT: &[Rule] = &[
    rule("git-hooks", "git hooks", &[Lit(".git"), Lit("hooks")], true),
    rule(
        "git-hooks",
        "the repository's git config",
        &[Lit(".git"), Lit("config")],
        false,
    ),
];

/// Why `path` (absolute, normal) is protected: `(rule, what)`.
pub fn protected(
    path: &str,
    places: &Places,
    extra: &[String],
) -> Option<(&'static str, &'static str)> {
    if extra
        .iter()
        .any(|e| path == e || path.starts_with(&format!("{e}/")))
    {
        return Some(("configured", "a path protected by --protect"));
    }
    let comps = components(path);
    let hit = |base: &[&str], rules: &'static [Rule]| -> Option<(&'static str, &'static str)> {
        let rest = comps.strip_prefix(base)?;
        rules
            .iter()
            .find(|r| starts_with_rule(rest, r.parts) && (r.under || rest.len() == r.parts.len()))
            .map(|r| (r.name, r.what))
    };
    let project = components(&places.project);
    let home = components(&places.home);
    if !project.is_empty()
        && let Some(found) = hit(&project, AGENT)
    {
        return Some(found);
    }
    if !home.is_empty()
        && let Some(found) = hit(&home, AGENT).or_else(|| hit(&home, HOME))
    {
        return Some(found);
    }
    if let Some(found) = hit(&[], SYSTEM) {
        return Some(found);
    }
    // `.git/…` in any repository: the project's, a submodule's, another clone's.
    (0..comps.len()).find_map(|i| hit(comps.get(..i)?, GIT))
}

/// Whether deleting or moving directory `path` takes a protected path with it
/// (`rm -rf .git`, `mv ~/.claude x`, `rm -rf ~`).
pub fn holds_protected(path: &str, places: &Places, extra: &[String]) -> bool {
    let comps = components(path);
    let holds = |base: &[&str], rules: &[Rule]| {
        rules.iter().any(|r| {
            let full: Vec<Part> = base
                .iter()
                .map(|_| Any)
                .chain(r.parts.iter().copied())
                .collect();
            holds_rule(&comps, &full)
                && comps
                    .iter()
                    .zip(base)
                    .all(|(c, b)| c == b || hookhost_policy_common::paths::glob_match(c, b))
        })
    };
    let project = components(&places.project);
    let home = components(&places.home);
    extra.iter().any(|e| {
        let e = components(e);
        e.len() > comps.len() && e.starts_with(&comps)
    }) || holds(&project, AGENT)
        || holds(&home, AGENT)
        || holds(&home, HOME)
        || holds(&[], SYSTEM)
        || comps.last().is_some_and(|l| *l == ".git")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn places() -> Places {
        Places {
            project: "/work/proj".to_owned(),
            home: "/home/u".to_owned(),
        }
    }

    #[test]
    fn protected_paths() {
        let p = |path| protected(path, &places(), &[]).map(|(rule, _)| rule);
        assert_eq!(
            p("/work/proj/.claude/settings.json"),
            Some("agent-settings")
        );
        assert_eq!(p("/home/u/.claude/settings.json"), Some("agent-settings"));
        assert_eq!(p("/home/u/.codex/config.toml"), Some("agent-settings"));
        assert_eq!(
            p("/work/proj/.github/hooks/pre.json"),
            Some("agent-settings")
        );
        assert_eq!(
            p("/home/u/.config/opencode/opencode.json"),
            Some("agent-settings")
        );
        assert_eq!(p("/work/proj/hookhost.lock"), Some("agent-settings"));
        assert_eq!(p("/work/proj/.git/hooks/pre-commit"), Some("git-hooks"));
        assert_eq!(p("/work/proj/vendor/lib/.git/config"), Some("git-hooks"));
        assert_eq!(p("/home/u/.bashrc"), Some("shell-startup"));
        assert_eq!(p("/home/u/.ssh/authorized_keys"), Some("ssh"));
        assert_eq!(p("/etc/cron.d/job"), Some("cron"));
        assert_eq!(p("/etc/crontab"), Some("cron"));
        assert_eq!(p("/var/spool/cron/crontabs/u"), Some("cron"));
        assert_eq!(p("/home/u/.config/systemd/user/x.service"), Some("systemd"));
        assert_eq!(p("/work/proj/.bashrc"), None);
        assert_eq!(p("/work/proj/.claude/commands/x.md"), None);
        assert_eq!(p("/work/proj/src/settings.json"), None);
        assert_eq!(p("/work/proj/.git/COMMIT_EDITMSG"), None);
        assert_eq!(p("/home/u/.ssh/known_hosts"), None);
        assert_eq!(p("/etc/hosts"), None);
        assert_eq!(p("/home/u/.bash*"), Some("shell-startup"));
    }

    #[test]
    fn directories_holding_protected_paths() {
        let h = |path| holds_protected(path, &places(), &[]);
        for dir in [
            "/",
            "/home/u",
            "/work/proj",
            "/work/proj/.git",
            "/home/u/.claude",
            "/etc",
            "/home/u/.config",
        ] {
            assert!(h(dir), "{dir}");
        }
        for dir in [
            "/work/proj/build",
            "/tmp/x",
            "/home/u/src",
            "/work/proj/.claude/commands",
        ] {
            assert!(!h(dir), "{dir}");
        }
    }
}
