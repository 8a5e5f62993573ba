//! `protected-paths`: a `BeforeTool` policy that keeps the agent from editing
//! what guards it or what runs at login.
//!
//! Protected ([`rules`]): agent hook and settings files (`.claude/settings.json`,
//! `.claude/settings.local.json`, `.codex/hooks.json`, `.codex/config.toml`,
//! `.gemini/settings.json`, `.llxprt/settings.json`, `.copilot/settings.json`,
//! `.qwen/settings.json`, `.factory/settings.json`, `.github/hooks/*`,
//! `.config/opencode/…` — in the project and in the home directory),
//! hookhost's lock files, `.git/hooks/*` and `.git/config` in any repository,
//! shell start-up files (`~/.bashrc`, `~/.zshrc`, `~/.profile`, …),
//! `~/.ssh/authorized_keys`, `~/.ssh/config`, cron (`crontab -e`/`-r`/FILE,
//! `/var/spool/cron`, `/etc/cron*`), systemd user units, and every
//! `--protect PATH`.
//!
//! Blocked: writing them with a file tool (`write_file`, `replace`, `Write`,
//! `Edit`, `MultiEdit`, `apply_patch`) or the shell (`>`, `>>`, `tee`,
//! `sed -i`, `cp`/`mv`/`install`/`ln` onto them, `truncate`, `dd of=`,
//! editors, `python -c` scripts naming them), and deleting or moving them (or a
//! directory holding them) away (`rm`, `mv`). Reading them is allowed. Paths
//! are resolved like the shell resolves them (`~`, `$HOME`, `..`, relative to
//! the working directory and to the directories the command `cd`s into).

mod calls;
mod rules;
mod shellscan;

#[cfg(test)]
mod tests;

use hookhost_guest::{HookInput, HookOutput, HookResult, ToolCall};

use crate::shellscan::{Act, shorten};
use hookhost_policy_common::args;
use hookhost_policy_common::paths::resolve;
pub use hookhost_policy_common::places::Places;

/// The policy's name, first in every block reason.
const TAG: &str = "protected-paths";

/// The policy's settings, from the hook's `args`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Settings {
    /// Extra protected paths as given (resolved against the places later).
    pub protect: Vec<String>,
}

impl Settings {
    /// Reads `--protect PATH` (or `--protect=PATH`) options.
    ///
    /// # Errors
    /// An unknown option or a missing path, named in the message.
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Self, String> {
        let mut settings = Self::default();
        for value in args::values(args, "--protect") {
            let value = value.map_err(|arg| {
                format!("{TAG}: unknown setting `{arg}` (the only setting is --protect PATH)")
            })?;
            match value.filter(|v| !v.is_empty()) {
                Some(v) => settings.protect.push(v),
                None => return Err(format!("{TAG}: --protect needs a path")),
            }
        }
        Ok(settings)
    }
}

/// The decision for one event: a block naming the rule, or allow.
pub fn check(input: &HookInput, places: &Places, settings: &Settings) -> HookOutput {
    let Some(call) = hookhost_policy_common::calls::before_tool(input) else {
        return HookOutput::allow();
    };
    let cwd = match input.base().cwd.as_str() {
        "" => places.project.as_str(),
        cwd => cwd,
    };
    let extra: Vec<String> = settings
        .protect
        .iter()
        .filter_map(|p| resolve(p, &places.project, &places.home))
        .collect();
    match decide(&call, cwd, places, &extra) {
        Some(reason) => HookOutput::block(format!("{TAG}: {reason}")),
        None => HookOutput::allow(),
    }
}

/// Why `call` is blocked (`RULE: detail`), or `None`.
fn decide(call: &ToolCall<'_>, cwd: &str, places: &Places, extra: &[String]) -> Option<String> {
    let changes = calls::file_changes(call);
    if let Some(reason) = file_tool(call.name, &changes, cwd, places, extra) {
        return Some(reason);
    }
    let command = calls::shell_command(call)?;
    let targets = match shellscan::targets(&command) {
        Ok(targets) => targets,
        Err(line) => {
            return Some(format!(
                "cron: `{}` changes the user's cron table",
                shorten(&line)
            ));
        }
    };
    let dirs = shellscan::directories(&command, cwd, &places.home);
    for target in &targets {
        for dir in &dirs {
            let Some(path) = resolve(&target.path, dir, &places.home) else {
                continue;
            };
            let verb = match target.act {
                Act::Write => "writes",
                Act::Remove => "deletes or moves",
            };
            let line = &target.line;
            if let Some((rule, what)) = rules::protected(&path, places, extra) {
                return Some(format!("{rule}: `{line}` {verb} {path} ({what})"));
            }
            if target.act == Act::Remove && rules::holds_protected(&path, places, extra) {
                return Some(format!(
                    "protected-directory: `{line}` {verb} {path}, which holds protected files"
                ));
            }
        }
    }
    let patched: Vec<calls::FileChange> = shellscan::shell_patches(&command)
        .iter()
        .flat_map(|p| calls::parse_patch(p))
        .collect();
    file_tool("apply_patch", &patched, cwd, places, extra)
}

/// The decision for the files a file tool (or a patch) changes.
fn file_tool(
    tool: &str,
    changes: &[calls::FileChange],
    cwd: &str,
    places: &Places,
    extra: &[String],
) -> Option<String> {
    changes.iter().find_map(|change| {
        let path = resolve(&change.path, cwd, &places.home)?;
        let (rule, what) = rules::protected(&path, places, extra)?;
        Some(format!("{rule}: {tool} would change {path} ({what})"))
    })
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
