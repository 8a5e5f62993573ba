//! The check of one shell command line: a download piped or substituted into
//! an interpreter (the SDK's `download_into_shell`), a download saved and run
//! ([`saved`](crate::saved)), PowerShell's forms
//! ([`powershell`](crate::powershell)), and a line the shell reading is
//! unsure about that mentions a downloader.

use crate::hosts::download_allowed;
use crate::{Places, Settings, TAG, powershell, saved};

/// How much of a command a block reason quotes.
const SHOWN_CHARS: usize = 160;

/// `text` cut to [`SHOWN_CHARS`] characters.
pub fn shorten(text: &str) -> String {
    hookhost_policy_common::shorten(text, SHOWN_CHARS)
}

/// Names a downloader, for lines that cannot be read for sure.
const MENTIONS: &[&str] = &[
    "curl",
    "wget",
    "wget2",
    "aria2c",
    "xh",
    "curlie",
    "lwp-request",
    "lwp-download",
    "irm",
    "iwr",
    "invoke-webrequest",
    "invoke-restmethod",
    "downloadstring",
];

/// The first downloader `text` mentions as a word of its own.
fn mentions_downloader(text: &str) -> Option<&'static str> {
    let lower = text.to_ascii_lowercase();
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    MENTIONS.iter().copied().find(|token| {
        lower.match_indices(token).any(|(at, _)| {
            !lower[..at].chars().next_back().is_some_and(word)
                && !lower[at + token.len()..].chars().next().is_some_and(word)
        })
    })
}

/// The block reason for shell command `command` run in `cwd`, if any.
pub fn check_command(
    command: &str,
    cwd: &str,
    places: &Places,
    settings: &Settings,
) -> Option<String> {
    let shell = hookhost_policy_common::shell::of(command);
    let (parsed, reading) = (&shell.parsed, &shell.reading);
    let allowed = &settings.allow_hosts;
    let downloads: Vec<_> = parsed
        .simple_commands()
        .filter(|s| s.is_download())
        .collect();
    let all_allowed =
        !downloads.is_empty() && downloads.iter().all(|s| download_allowed(s, allowed));
    let shown = shorten(command);
    if !all_allowed && let Some(why) = parsed.download_into_shell() {
        return Some(format!("{TAG}: pipe-to-interpreter: {why}: `{shown}`"));
    }
    if let Some((rule, why)) = saved::check(parsed, cwd, &places.home, allowed) {
        return Some(format!("{TAG}: {rule}: {why}"));
    }
    let scripts = powershell::scripts(command, reading);
    for script in &scripts {
        if let Some(why) = powershell::check(script, allowed) {
            return Some(format!("{TAG}: powershell: {why}: `{}`", shorten(script)));
        }
    }
    let powershell_allowed =
        !scripts.is_empty() && scripts.iter().all(|s| powershell::all_allowed(s, allowed));
    if !all_allowed
        && !powershell_allowed
        && !reading.unsure.is_empty()
        && let Some(name) = mentions_downloader(command)
    {
        return Some(format!(
            "{TAG}: unchecked: the command mentions `{name}` but cannot be checked: {}",
            reading.unsure.join("; ")
        ));
    }
    None
}
