//! `secrets`: a `BeforeTool` policy that keeps secrets out of files and
//! credential files out of the agent's reach.
//!
//! It blocks
//! - **`secret-in-file`**: a file write, edit or patch (`write_file`,
//!   `replace`, `Write`, `Edit`, `MultiEdit`, `apply_patch`) or a shell command
//!   that writes files (a redirection, a here-document, `tee`, `sed -i`,
//!   `python -c`, `git config` …) carrying a high-confidence secret: a private
//!   key with its body, an AWS key id *with* its secret, GitHub, GitLab, Slack,
//!   Stripe live, OpenAI or Anthropic tokens in their documented formats
//!   ([`tokens`]);
//! - **`credential-read`**: reading or copying a credential file with a read
//!   tool or the shell (`cat`, `head`, `cp`, `scp`, `base64`, `curl -d @…`,
//!   `tar`, `rsync`, `< file` …): `~/.ssh/id_*`, `~/.aws/credentials`,
//!   `~/.netrc`, `~/.git-credentials`, `~/.docker/config.json`,
//!   `~/.kube/config`, `~/.config/gh/hosts.yml`, `.env` and `.env.*` anywhere
//!   ([`credentials`]).
//!
//! Mentions of secrets stay allowed: `grep -- '-----BEGIN' src`, a regex for
//! AWS ids, placeholders (`sk-...`, `<your-key>`, `xxxx`), documented example
//! keys, public keys, `.env.example`.
//!
//! Settings (the hook's `args`): `--credential-file PATH`, repeatable, adds a
//! credential file or directory.

mod credentials;
mod shellscan;
mod tokens;

#[cfg(test)]
mod tests;

use hookhost_guest::{HookInput, HookOutput, HookResult, ToolCall};
use hookhost_policy_common::args;
use hookhost_policy_common::calls;
use hookhost_policy_common::paths::resolve;
use hookhost_policy_common::places::Places;

/// The policy's name, first in every block reason.
const TAG: &str = "secrets";

/// The policy's settings, from the hook's `args`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Settings {
    /// Extra credential paths as given (resolved against the places later).
    pub credential_files: Vec<String>,
}

impl Settings {
    /// Reads `--credential-file PATH` (or `--credential-file=PATH`) options.
    ///
    /// # Errors
    /// An unknown option or a missing value, named in the message.
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Self, String> {
        let mut settings = Self::default();
        for value in args::values(args, "--credential-file") {
            let value = value.map_err(|arg| {
                format!(
                    "{TAG}: unknown setting `{arg}` (the only setting is --credential-file PATH)"
                )
            })?;
            match value.filter(|v| !v.is_empty()) {
                Some(v) => settings.credential_files.push(v),
                None => return Err(format!("{TAG}: --credential-file needs a path")),
            }
        }
        Ok(settings)
    }
}

/// The decision for one event: a block naming the rule, or allow.
pub fn check(input: &HookInput, places: &Places, settings: &Settings) -> HookOutput {
    let Some(call) = calls::before_tool(input) else {
        return HookOutput::allow();
    };
    let cwd = match input.base().cwd.as_str() {
        "" => places.project.as_str(),
        cwd => cwd,
    };
    match decide(&call, cwd, places, settings) {
        Some(reason) => HookOutput::block(format!("{TAG}: {reason}")),
        None => HookOutput::allow(),
    }
}

/// Why `call` is blocked (`RULE: detail`), or `None`.
fn decide(call: &ToolCall<'_>, cwd: &str, places: &Places, settings: &Settings) -> Option<String> {
    let extra: Vec<String> = settings
        .credential_files
        .iter()
        .filter_map(|f| resolve(f, &places.project, &places.home))
        .collect();
    for change in calls::file_changes(call) {
        if let Some(found) = tokens::find(&change.content) {
            return Some(format!(
                "secret-in-file: {} would write {} ({}) into {}",
                call.name, found.kind, found.shown, change.path
            ));
        }
    }
    for path in calls::file_reads(call) {
        let resolved = resolve(&path, cwd, &places.home);
        if let Some(kind) = resolved
            .as_deref()
            .and_then(|p| credentials::credential(p, &places.home, &extra))
        {
            return Some(format!(
                "credential-read: {} of {path} would read {kind}",
                call.name
            ));
        }
    }
    let command = calls::shell_command(call)?;
    shell_decision(&command, cwd, places, &extra)
}

/// The decision for a shell command.
fn shell_decision(command: &str, cwd: &str, places: &Places, extra: &[String]) -> Option<String> {
    let shell = shellscan::analyse(command);
    let (parsed, reading) = (&shell.parsed, &shell.reading);
    if let Some((line, path, kind)) =
        shellscan::credential_read(parsed, reading, cwd, &places.home, extra)
    {
        return Some(format!(
            "credential-read: `{}` reads {path} ({kind})",
            shorten(&line)
        ));
    }
    if shellscan::writes_files(parsed, reading) {
        let found =
            tokens::find(command).or_else(|| tokens::find(&shellscan::decoded_text(parsed)));
        if let Some(found) = found {
            return Some(format!(
                "secret-in-file: the command writes {} ({}) into a file",
                found.kind, found.shown
            ));
        }
    }
    // A patch handed to `apply_patch` through the shell.
    if reading
        .invocations
        .iter()
        .any(|i| i.program() == Some("apply_patch"))
    {
        let text = shellscan::decoded_text(parsed);
        for change in calls::parse_patch(&text) {
            if let Some(found) = tokens::find(&change.content) {
                return Some(format!(
                    "secret-in-file: apply_patch would write {} ({}) into {}",
                    found.kind, found.shown, change.path
                ));
            }
        }
    }
    None
}

/// A command line cut to a readable length for a block reason.
fn shorten(line: &str) -> String {
    hookhost_policy_common::shorten(line, 120)
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
