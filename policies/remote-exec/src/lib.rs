//! `remote-exec`: blocks code fetched from the network and run in the same
//! command.
//!
//! On `BeforeTool` it blocks a shell command that
//! - pipes or substitutes a download into an interpreter: `curl … | sh`,
//!   `wget -qO- … | sudo bash`, `bash <(curl …)`, `sh -c "$(curl …)"`,
//!   `eval "$(curl …)"`, `source <(curl …)`, `curl … | python3 -` (the SDK's
//!   [`download_into_shell`](hookhost_guest::shell::ShellCommand::download_into_shell));
//!   a program that reads the download as data (`jq`, `python3 -m json.tool`)
//!   is not execution;
//! - saves a download and runs it: `curl -o x.sh … && sh x.sh`,
//!   `wget -O x …; chmod +x x; ./x`, `curl … > x; bash x`, `curl … | tee x |
//!   …; sh x`, or unpacks a downloaded archive and runs what came out of it;
//! - is PowerShell running a download: `iex (irm …)`,
//!   `Invoke-Expression (Invoke-RestMethod …)`, `iwr … | iex`,
//!   `powershell -c "…"`, `-EncodedCommand …`;
//! - cannot be read for sure (`$c …`, `eval "$x"`) and mentions a downloader.
//!
//! Setting (the hook's `args`): `--allow-host HOST` (repeatable; `*.HOST` for
//! its subdomains) allows downloads from that host.

mod check;
mod hosts;
mod powershell;
mod saved;

#[cfg(test)]
mod tests;

use hookhost_guest::{HookInput, HookOutput, HookResult, Map, Value};
use hookhost_policy_common::calls::shell_lines;
use hookhost_policy_common::{args, places::var};

/// The policy's name, first in every block reason.
pub const TAG: &str = "remote-exec";

/// The directories the policy resolves paths with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Places {
    /// The project directory: `HOOKHOST_PROJECT_DIR`, else the input's `cwd`.
    pub project: String,
    /// The home directory (`HOME`).
    pub home: String,
    /// The temp directory: `TMPDIR`, else `/tmp`.
    pub tmp: String,
}

impl Places {
    /// Places from the environment, with `cwd` as the fallback project directory.
    fn from_env(cwd: &str) -> Self {
        Self {
            project: var("HOOKHOST_PROJECT_DIR").unwrap_or_else(|| cwd.to_owned()),
            home: var("HOME").unwrap_or_default(),
            tmp: var("TMPDIR").unwrap_or_else(|| "/tmp".to_owned()),
        }
    }
}

/// The hook's settings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Settings {
    /// Hosts downloads may come from (`--allow-host`), lower case.
    pub allow_hosts: Vec<String>,
}

impl Settings {
    /// Reads the hook's `args`.
    ///
    /// # Errors
    /// An unknown option, or `--allow-host` without a host name.
    pub fn from_args(args: impl IntoIterator<Item = String>) -> Result<Self, String> {
        let mut settings = Self::default();
        for value in args::values(args, "--allow-host") {
            let value = value.map_err(|arg| {
                format!("{TAG}: unknown option `{arg}` (the only option is --allow-host HOST)")
            })?;
            let host = value.unwrap_or_default().to_ascii_lowercase();
            let name = host.strip_prefix("*.").unwrap_or(&host);
            let valid = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'));
            if !valid {
                return Err(format!(
                    "{TAG}: --allow-host needs a host name such as example.com or *.example.com (no scheme or path), got `{host}`"
                ));
            }
            settings.allow_hosts.push(host);
        }
        Ok(settings)
    }
}

/// The block reason for a call of tool `name` with `input`, run in `cwd`.
pub fn decide(
    name: &str,
    input: &Map<String, Value>,
    cwd: &str,
    places: &Places,
    settings: &Settings,
) -> Option<String> {
    let cwd = if cwd.starts_with('/') {
        cwd
    } else {
        places.project.as_str()
    };
    shell_lines(name, input)
        .iter()
        .find_map(|line| check::check_command(line, cwd, places, settings))
}

/// The policy: its answer to `input` under the hook's `args`.
///
/// # Errors
/// Settings it does not know (a load error of the hook: it fails).
pub fn hook(input: &HookInput, args: &[String]) -> HookResult {
    let settings = Settings::from_args(args.iter().cloned())?;
    let (HookInput::BeforeTool(event), Some(call)) = (input, input.tool_call()) else {
        return Ok(HookOutput::allow());
    };
    let places = Places::from_env(&event.base.cwd);
    match decide(call.name, call.input, &event.base.cwd, &places, &settings) {
        Some(reason) => Ok(HookOutput::block(reason)),
        None => Ok(HookOutput::allow()),
    }
}
