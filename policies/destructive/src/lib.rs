//! `destructive`: blocks shell commands that delete, truncate, overwrite or
//! format what lies outside the project and temp directories, or the project
//! directory itself, or its whole `.git`.
//!
//! On `BeforeTool` it reads every program a shell command runs (through
//! `sudo`, `env`, `timeout`, `xargs`, `bash -c`, `eval`, `find -exec`, …, with
//! the SDK's [`shell::read`](hookhost_guest::shell::read)), takes the paths
//! each destructive program works on (`rm`, `rmdir`, `unlink`, `shred`,
//! `truncate`, `mv`, `dd of=`, `mkfs*`, `wipefs`, `find -delete`, recursive
//! `chmod`/`chown`, `git clean -f`, `rsync --delete`), resolves them as the
//! shell would (`~`, `$HOME`, `..`, globs, relative to the working directory
//! followed through `cd`), and blocks when one lies outside the project and
//! temp directories, is the project itself or its `.git`, or is a disk
//! device. Redirections into disk devices (`> /dev/sda`) and Codex patches that
//! delete or move files outside the project are blocked too. A line the shell
//! reading is unsure about (`$cmd -rf /`, `eval "$x"`) is blocked when it
//! mentions a destructive program: it cannot be checked.
//!
//! Settings (the hook's `args`): `--allow-path DIR` (repeatable) also allows
//! deleting below DIR.

mod check;
mod context;
mod ops;
mod paths;
mod tool;

#[cfg(test)]
mod tests;

use hookhost_guest::{HookInput, HookOutput, HookResult, Map, Value};
use hookhost_policy_common::{args, places::var};
use paths::{Kind, Resolved, classify, normalize, resolve};
use tool::Work;

/// The policy's name, first in every block reason.
pub const TAG: &str = "destructive";

/// The directories the policy measures paths against, absolute and
/// normalised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Places {
    /// The project directory: `HOOKHOST_PROJECT_DIR`, else the input's `cwd`.
    pub project: String,
    /// The home directory (`HOME`); empty when unknown.
    pub home: String,
    /// The temp directory: `TMPDIR`, else `/tmp`.
    pub tmp: String,
}

impl Places {
    /// Places from the given directories, normalised (`/work/proj/` →
    /// `/work/proj`); a relative or empty one becomes empty (unknown).
    pub fn new(project: &str, home: &str, tmp: &str) -> Self {
        let clean = |dir: &str| match normalize(dir) {
            Resolved::Path(path) if dir.starts_with('/') => path,
            _ => String::new(),
        };
        Self {
            project: clean(project),
            home: clean(home),
            tmp: clean(tmp),
        }
    }

    /// Places from the environment, with `cwd` (the input's) as the fallback
    /// project directory.
    fn from_env(cwd: &str) -> Self {
        let project = var("HOOKHOST_PROJECT_DIR").unwrap_or_else(|| cwd.to_owned());
        let tmp = var("TMPDIR").unwrap_or_else(|| "/tmp".to_owned());
        Self::new(&project, &var("HOME").unwrap_or_default(), &tmp)
    }
}

/// The hook's settings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Settings {
    /// More directories below which deleting is allowed (`--allow-path`).
    pub allow: Vec<String>,
}

impl Settings {
    /// Reads the hook's `args`.
    ///
    /// # Errors
    /// An unknown option, or `--allow-path` without an absolute directory.
    pub fn from_args(args: impl IntoIterator<Item = String>) -> Result<Self, String> {
        let mut settings = Self::default();
        for value in args::values(args, "--allow-path") {
            let value = value.map_err(|arg| {
                format!("{TAG}: unknown option `{arg}` (the only option is --allow-path DIR)")
            })?;
            match value.as_deref().map(normalize) {
                Some(Resolved::Path(dir))
                    if value.as_deref().is_some_and(|v| v.starts_with('/')) && dir != "/" =>
                {
                    settings.allow.push(dir);
                }
                _ => {
                    return Err(format!(
                        "{TAG}: --allow-path needs an absolute directory other than /, got {value:?}"
                    ));
                }
            }
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
    for item in tool::work(name, input) {
        let reason = match &item {
            Work::Shell(command) => check::check_command(command, cwd, places, settings),
            Work::Patch(patch) => check_patch(patch, cwd, places, settings),
        };
        if reason.is_some() {
            return reason;
        }
    }
    None
}

/// A Codex patch that deletes or moves a file where deleting is not allowed.
fn check_patch(patch: &str, cwd: &str, places: &Places, settings: &Settings) -> Option<String> {
    let vars = paths::Vars::new();
    tool::patch_targets(patch)
        .into_iter()
        .find_map(|(verb, path)| {
            let resolved = resolve(&path, Some(cwd), places, &vars);
            classify(&resolved, Kind::Remove, places, settings).map(|(rule, what)| {
                format!(
                    "{TAG}: {rule}: the patch {verb} `{}`: {what}",
                    check::shorten(&path)
                )
            })
        })
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
