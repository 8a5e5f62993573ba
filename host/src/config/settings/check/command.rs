//! Check of a command hook's own fields: the command for this OS (`command`, or
//! `commandLinux`/`commandDarwin`/`commandWindows` in its place), the exec form
//! (`args`) and the `shell`, into a [`CommandConfig`]. `${…}` variables are left as
//! written: they are replaced when the hook runs, without ever becoming shell syntax
//! ([`crate::runner`]'s command line).

use super::plugin::args;
use super::report::{Report, show};
use crate::config::settings::shape::field::Field;
use crate::config::settings::shape::hook::HookSettings;
use crate::config::spec::{CommandConfig, HookKind, Shell};

/// The key that replaces `command` on the OS hookhost runs on.
pub(crate) const OS_COMMAND_KEY: &str = if cfg!(target_os = "macos") {
    "commandDarwin"
} else if cfg!(windows) {
    "commandWindows"
} else {
    "commandLinux"
};

/// Checks the command fields of `hook`; `None` (with errors) when it cannot run.
pub(super) fn config(at: &str, hook: HookSettings, report: &mut Report<'_>) -> Option<HookKind> {
    let mut ok = true;
    let mut for_this_os = None;
    for (key, field) in [
        ("commandLinux", hook.command_linux),
        ("commandDarwin", hook.command_darwin),
        ("commandWindows", hook.command_windows),
    ] {
        if let Some(command) = command_string(&format!("{at}.{key}"), field, report, &mut ok)
            && key == OS_COMMAND_KEY
        {
            for_this_os = Some(command);
        }
    }
    let base = command_string(&format!("{at}.command"), hook.command, report, &mut ok);
    let exec_args = match hook.args {
        Field::Absent => None,
        field => Some(args(at, field, report, &mut ok)),
    };
    let shell = report
        .take_or_flag(
            &format!("{at}.shell"),
            hook.shell,
            "\"sh\", \"bash\" or \"powershell\"",
            &mut ok,
        )
        .flatten();
    if exec_args.is_some() && shell.is_some() {
        report.warning(
            &format!("{at}.shell"),
            "ignored: with \"args\" the program runs without a shell",
        );
    }
    let shell = shell.unwrap_or_default();
    if shell == Shell::Powershell && exec_args.is_none() && powershell().is_none() {
        report.error(
            &format!("{at}.shell"),
            "\"powershell\" needs pwsh or powershell on PATH, and neither is there",
        );
        ok = false;
    }
    let command = match for_this_os.or(base) {
        Some(command) => command,
        None => {
            if ok {
                report.error(
                    &format!("{at}.command"),
                    format!(
                        "missing (required for a command hook, or {OS_COMMAND_KEY} on this OS)"
                    ),
                );
            }
            return None;
        }
    };
    if exec_args.is_none()
        && report.source.plugin_root.is_some()
        && command.contains("${user_config.")
    {
        // Claude Code 2.1.207 refuses it: the value would be re-parsed by the shell.
        let plugin = report.source.plugin_name.clone().unwrap_or_default();
        report.error(
            &format!("{at}.command"),
            format!(
                "the hook of plugin {plugin} references ${{user_config.*}} in a shell-form \
                 command, where the value would be re-parsed by the shell; use the exec form \
                 ({{\"command\": \"<executable>\", \"args\": [\"${{user_config.KEY}}\", …]}}) or read \
                 $CLAUDE_PLUGIN_OPTION_<KEY> from the environment; the hook is skipped"
            ),
        );
        return None;
    }
    let env = super::plugin::env(at, hook.env, report, &mut ok);
    ok.then_some(HookKind::Command(CommandConfig {
        command,
        args: exec_args,
        shell,
        env,
    }))
}

/// A command string: present, a string, not blank.
fn command_string(
    at: &str,
    field: Field<String>,
    report: &mut Report<'_>,
    ok: &mut bool,
) -> Option<String> {
    match field {
        Field::Absent => None,
        Field::Ok(c) if !c.trim().is_empty() => Some(c),
        Field::Ok(_) => {
            report.error(at, "is empty");
            *ok = false;
            None
        }
        Field::Wrong(other) => {
            report.error(
                at,
                format!("expected a command string, got {}", show(&other)),
            );
            *ok = false;
            None
        }
    }
}

/// The PowerShell on PATH: `pwsh`, else `powershell`.
pub(crate) fn powershell() -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH")?;
    ["pwsh", "powershell"].into_iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|candidate| candidate.is_file())
    })
}
