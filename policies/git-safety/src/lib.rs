//! `git-safety`: a `BeforeTool` policy against losing history on protected
//! branches and against getting around git hooks.
//!
//! On protected branches (default `main` and `master`; `--protect-branch NAME`
//! adds more) it blocks
//! - **`force-push`**: `git push --force`/`-f`/`--force-with-lease` or a
//!   `+ref` refspec to a protected branch — named in the refspec, or implied by
//!   the current branch when no refspec is given (read from
//!   `<project>/.git/HEAD`; when it cannot be read, the push is blocked because
//!   the policy cannot tell). A force push of a feature branch is allowed.
//! - **`mirror-push`**: `git push --mirror`.
//! - **`delete-branch`**: deleting a protected remote branch (`--delete main`,
//!   `-d main`, `:main`).
//!
//! On any branch it blocks
//! - **`no-verify`**: `git commit`/`git push` (and `merge`, `am`, `rebase`,
//!   `cherry-pick`, `revert`) with `--no-verify`, or `-n` for commit;
//! - **`history-rewrite`**: `git filter-branch`, `git filter-repo`;
//! - **`hooks-config`**: setting `core.hooksPath`, `core.fsmonitor`,
//!   `core.sshCommand` or a config include (`git config`, `git -c`,
//!   `GIT_CONFIG_KEY_n`), and aliases that would run any of the above.
//!
//! `git reset --hard`, other `git config` and reading config are allowed.
//! Commands are read with [`shell::read`](hookhost_guest::shell::read), so `git -C dir`, `--git-dir`,
//! options before the subcommand, `sudo`, `env`, `bash -c` and `cd dir && …`
//! are seen through.

mod git;
mod repo;
mod rules;

#[cfg(test)]
mod tests;

use hookhost_guest::{HookInput, HookOutput, HookResult};

use crate::git::GitCall;
use crate::rules::Context;
use hookhost_policy_common::args;
use hookhost_policy_common::paths::resolve;
pub use hookhost_policy_common::places::Places;

/// The policy's name, first in every block reason.
const TAG: &str = "git-safety";

/// The policy's settings, from the hook's `args`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Protected branch names.
    pub protected: Vec<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            protected: vec!["main".to_owned(), "master".to_owned()],
        }
    }
}

impl Settings {
    /// Reads `--protect-branch NAME` (or `--protect-branch=NAME`) options.
    ///
    /// # Errors
    /// An unknown option or a missing or malformed branch name, named.
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Self, String> {
        let mut settings = Self::default();
        for value in args::values(args, "--protect-branch") {
            let value = value.map_err(|arg| {
                format!(
                    "{TAG}: unknown setting `{arg}` (the only setting is --protect-branch NAME)"
                )
            })?;
            let name = value.unwrap_or_default();
            let name = name.strip_prefix("refs/heads/").unwrap_or(&name);
            if name.is_empty() || name.contains(char::is_whitespace) {
                return Err(format!(
                    "{TAG}: --protect-branch needs a branch name, got `{name}`"
                ));
            }
            settings.protected.push(name.to_owned());
        }
        Ok(settings)
    }
}

/// The decision for one event: a block naming the rule, or allow.
pub fn check(input: &HookInput, places: &Places, settings: &Settings) -> HookOutput {
    let Some(command) =
        hookhost_policy_common::calls::before_tool(input).and_then(|call| shell_command(&call))
    else {
        return HookOutput::allow();
    };
    let branch = |cwd: &str, call: &GitCall<'_>| current_branch(places, cwd, call);
    let ctx = Context {
        protected: &settings.protected,
        branch: &branch,
        cwd: &places.project,
        home: &places.home,
        depth: 0,
        line: "",
    };
    match check_shell(&command, &ctx) {
        Some(reason) => HookOutput::block(format!("{TAG}: {reason}")),
        None => HookOutput::allow(),
    }
}

/// The command of a shell tool call; an argv array (Codex) is quoted back.
fn shell_command(call: &hookhost_guest::ToolCall<'_>) -> Option<String> {
    if let Some(command) = call.shell_command() {
        return Some(command.to_owned());
    }
    if !matches!(
        call.name,
        "shell" | "local_shell" | "exec_command" | "Bash" | "run_shell_command"
    ) {
        return None;
    }
    let words = call
        .input
        .get("command")
        .or_else(|| call.input.get("cmd"))?;
    let words: Vec<String> = words
        .as_array()?
        .iter()
        .filter_map(|w| w.as_str())
        .map(|w| format!("'{}'", w.replace('\'', "'\\''")))
        .collect();
    Some(words.join(" "))
}

/// The current branch for a git call made in `cwd`: after its `-C` dirs, in
/// its `--git-dir` or the nearest work tree.
fn current_branch(
    places: &Places,
    cwd: &str,
    call: &GitCall<'_>,
) -> Result<Option<String>, String> {
    let mut dir = cwd.to_owned();
    for d in &call.dirs {
        dir = resolve(d, &dir, &places.home).ok_or_else(|| format!("`-C {d}` is an expansion"))?;
    }
    match call.git_dir {
        Some(g) => {
            let git_dir = resolve(g, &dir, &places.home)
                .ok_or_else(|| format!("`--git-dir {g}` is an expansion"))?;
            repo::branch_in_git_dir(&git_dir)
        }
        None => repo::branch_of_worktree(&dir),
    }
}

/// Why a shell command is blocked, or `None`: every `git` it runs is checked,
/// in the directory the command's `cd`s leave it in.
pub fn check_shell(command: &str, ctx: &Context<'_>) -> Option<String> {
    if let Some(reason) = config_environment(command) {
        return Some(reason);
    }
    let shell = hookhost_policy_common::shell::of(command);
    let reading = &shell.reading;
    let mut cwd = ctx.cwd.to_owned();
    for inv in &reading.invocations {
        let Some(program) = inv.program() else {
            continue;
        };
        let line = shorten(
            &inv.line_from(inv.starts.len().saturating_sub(1))
                .unwrap_or_default(),
        );
        match program {
            "cd" | "pushd" => {
                cwd = match inv.args().iter().find(|a| !a.starts_with('-')) {
                    Some(dir) => resolve(dir, &cwd, ctx.home).unwrap_or(cwd),
                    None => ctx.home.to_owned(),
                };
            }
            "git" => {
                let inner = Context {
                    cwd: &cwd,
                    line: &line,
                    ..*ctx
                };
                if let Some(reason) = rules::check(&git::parse(inv.args()), &inner) {
                    return Some(reason);
                }
            }
            "git-filter-repo" | "git-filter-branch" => {
                return Some(format!(
                    "history-rewrite: `{line}` rewrites the repository's history"
                ));
            }
            _ => {}
        }
    }
    None
}

/// `GIT_CONFIG_KEY_n=core.hooksPath` in an assignment, `env` or `export`:
/// configuration given through the environment.
fn config_environment(command: &str) -> Option<String> {
    let shell = hookhost_policy_common::shell::of(command);
    for simple in shell.parsed.simple_commands() {
        let assigned = simple
            .assignments
            .iter()
            .map(|a| (a.name.as_str(), a.value.text.as_str()));
        let words = simple.words.iter().filter_map(|w| w.text.split_once('='));
        for (name, value) in assigned.chain(words) {
            if name.starts_with("GIT_CONFIG_KEY_") && git::dangerous_key(value) {
                return Some(format!(
                    "hooks-config: `{name}={value}` sets {value} through the environment"
                ));
            }
        }
    }
    None
}

/// A command line cut to a readable length for a block reason.
fn shorten(line: &str) -> String {
    hookhost_policy_common::shorten(line, 160)
}

/// The hook: settings from `args`, places from the environment.
/// The policy: its answer to `input` under the hook's `args`.
///
/// # Errors
/// Settings it does not know (a load error of the hook: it fails).
pub fn hook(input: &HookInput, args: &[String]) -> HookResult {
    let settings = Settings::parse(args.iter().cloned())?;
    let places = Places::from_env(&input.base().cwd);
    Ok(check(input, &places, &settings))
}
