//! What a command hook executes: the program, its arguments and the variables its
//! command line refers to, prepared once when the hook is built.
//!
//! **Variables never become shell syntax.** seeds/004's `${pluginDir}`,
//! `${pluginDataDir}`, `${cwd}`, `${homedir}`, `${sep}`, `${env:NAME}`, Gemini's
//! `${extensionPath}` and Claude Code's `${CLAUDE_PLUGIN_ROOT}` /
//! `${CLAUDE_PLUGIN_DATA}` are not pasted into the command line: each reference is
//! rewritten into a reference to an environment variable of the hook's process
//! (`"${HOOKHOST_VAR_3}"`), whose value is set when the hook spawns. The shell
//! expands it as data, so a directory named `$(rm -rf ~)` or an `${env:X}` holding
//! `'; rm -rf ~` stays a string. The rewrite keeps the reference's meaning in
//! every quoting context: bare, it is double-quoted (no word splitting); inside
//! double quotes it stays as is; inside single quotes — where an agent's textual
//! substitution would still apply — the single quotes are closed around it.
//! Unknown `${…}` (a typo such as `${plugindir}`) is left as written. In exec form
//! (`args`) nothing is rewritten and no shell runs.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use crate::config::{CommandConfig, Shell};
use crate::env_names::TOKEN_ENV;

/// The prefix of the environment variables that carry the values.
const VAR_PREFIX: &str = "HOOKHOST_VAR_";

/// Where a variable's value comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VarValue {
    /// Known when the hook is built (a plugin's directory, the home directory …).
    Fixed(OsString),
    /// A plugin's data directory: created on first use.
    DataDir(PathBuf),
    /// The project directory of the run.
    ProjectDir,
    /// The hook process's environment variable, read when the hook runs (empty when
    /// unset, and for `HOOKHOST_TOKEN`).
    Env(String),
}

/// The plugin directories a command may refer to (none outside extensions and
/// Claude Code plugins).
#[derive(Debug, Clone, Default)]
pub struct PluginDirs {
    /// The plugin's (or extension's) directory.
    pub root: Option<PathBuf>,
    /// Its persistent data directory.
    pub data: Option<PathBuf>,
    /// A Claude Code plugin's options, key and value.
    pub options: Vec<(String, String)>,
}

/// A command hook ready to spawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandLine {
    /// The program: a shell, or the exec-form program.
    pub program: OsString,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// Environment variables to set, with where their values come from.
    pub vars: Vec<(String, VarValue)>,
}

/// A plugin data directory (`${pluginDataDir}`) that cannot be created.
#[derive(Debug, thiserror::Error)]
#[error("cannot create the plugin data directory {}: {source}", .dir.display())]
pub struct DataDirError {
    dir: PathBuf,
    #[source]
    source: std::io::Error,
}

impl CommandLine {
    /// Prepares `config`; `dirs` are the plugin directories of the file it came from.
    pub fn prepare(config: &CommandConfig, dirs: &PluginDirs) -> CommandLine {
        let own = config
            .env
            .iter()
            .map(|(name, value)| (name.clone(), VarValue::Fixed(value.into())));
        if let Some(args) = &config.args {
            let mut vars = plugin_env(dirs);
            vars.extend(own);
            return CommandLine {
                program: config.command.clone().into(),
                args: args.iter().map(|arg| exec_arg(arg, dirs)).collect(),
                vars,
            };
        }
        let (script, mut vars) = rewrite(&config.command, config.shell, dirs);
        vars.extend(plugin_env(dirs));
        vars.extend(own);
        let (program, flag): (OsString, &str) = match config.shell {
            Shell::Sh => ("/bin/sh".into(), "-c"),
            Shell::Bash => ("bash".into(), "-c"),
            Shell::Powershell => (
                crate::config::powershell().map_or_else(|| "pwsh".into(), PathBuf::into_os_string),
                "-Command",
            ),
        };
        CommandLine {
            program,
            args: vec![flag.into(), script.into()],
            vars,
        }
    }

    /// Adds the variables' values for a run in `project_dir` to `env`, the hook's
    /// environment as built so far ([`super::hook_env`]): first every value
    /// hookhost knows (the hook's own `env` among them), then each `${env:NAME}`
    /// read from `env` as it then is — what the hook's own process sees as `$NAME`,
    /// so a variable scrubbed from the hook is not reachable through its command
    /// line either. Data directories are created (an error names the one that
    /// cannot be).
    pub fn add_env(
        &self,
        project_dir: &Path,
        env: &mut BTreeMap<OsString, OsString>,
    ) -> Result<(), DataDirError> {
        let mut references = Vec::new();
        for (name, value) in &self.vars {
            let value = match value {
                VarValue::Fixed(v) => v.clone(),
                VarValue::ProjectDir => project_dir.as_os_str().to_owned(),
                VarValue::Env(var) => {
                    references.push((name, var));
                    continue;
                }
                VarValue::DataDir(dir) => {
                    std::fs::create_dir_all(dir).map_err(|source| DataDirError {
                        dir: dir.clone(),
                        source,
                    })?;
                    dir.as_os_str().to_owned()
                }
            };
            env.insert(name.into(), value);
        }
        let values: Vec<(OsString, OsString)> = references
            .into_iter()
            .map(|(name, var)| {
                let value = (var != TOKEN_ENV)
                    .then(|| env.get(OsStr::new(var)).cloned())
                    .flatten();
                (name.into(), value.unwrap_or_default())
            })
            .collect();
        env.extend(values);
        Ok(())
    }
}

/// Claude Code sets these for a plugin's hooks; so does hookhost.
fn plugin_env(dirs: &PluginDirs) -> Vec<(String, VarValue)> {
    let mut vars = Vec::new();
    if let Some(root) = &dirs.root {
        vars.push((
            "CLAUDE_PLUGIN_ROOT".to_owned(),
            VarValue::Fixed(root.clone().into_os_string()),
        ));
    }
    if let Some(data) = &dirs.data {
        vars.push((
            "CLAUDE_PLUGIN_DATA".to_owned(),
            VarValue::DataDir(data.clone()),
        ));
    }
    for (key, value) in &dirs.options {
        vars.push((
            crate::config::plugin_option_env(key),
            VarValue::Fixed(value.into()),
        ));
    }
    vars
}

/// One exec-form argument with Claude Code's substitutions (2.1.331):
/// `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}` and a plugin's
/// `${user_config.KEY}` replaced textually — no shell reads the result, so a value
/// stays one argument whatever it holds. Anything else stays as written.
fn exec_arg(arg: &str, dirs: &PluginDirs) -> OsString {
    if !arg.contains("${") {
        return arg.into();
    }
    let mut out = arg.to_owned();
    let path = |p: &Option<PathBuf>| p.as_ref().map(|p| p.to_string_lossy().into_owned());
    for (name, value) in [
        ("CLAUDE_PLUGIN_ROOT", path(&dirs.root)),
        ("CLAUDE_PLUGIN_DATA", path(&dirs.data)),
    ] {
        if let Some(value) = value {
            out = out.replace(&format!("${{{name}}}"), &value);
        }
    }
    for (key, value) in &dirs.options {
        out = out.replace(&format!("${{user_config.{key}}}"), value);
    }
    out.into()
}

/// The value of a variable named in a command, if hookhost knows it here.
fn lookup(name: &str, dirs: &PluginDirs) -> Option<VarValue> {
    let fixed = |p: &Option<PathBuf>| p.clone().map(|p| VarValue::Fixed(p.into_os_string()));
    match name {
        "pluginDir" | "extensionPath" | "CLAUDE_PLUGIN_ROOT" => fixed(&dirs.root),
        "pluginDataDir" | "CLAUDE_PLUGIN_DATA" => dirs.data.clone().map(VarValue::DataDir),
        "cwd" => Some(VarValue::ProjectDir),
        "homedir" => dirs::home_dir().map(|h| VarValue::Fixed(h.into_os_string())),
        "sep" => Some(VarValue::Fixed(std::path::MAIN_SEPARATOR_STR.into())),
        _ => {
            let var = name.strip_prefix("env:")?;
            valid_env_name(var).then(|| VarValue::Env(var.to_owned()))
        }
    }
}

fn valid_env_name(name: &str) -> bool {
    !name.is_empty() && !name.contains(['=', '\0', '}'])
}

/// The names that may also be written without braces (`$CLAUDE_PLUGIN_ROOT`), as
/// hookhost accepted before and Claude Code documents.
const BARE_NAMES: [&str; 3] = ["CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA", "extensionPath"];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Quote {
    None,
    Single,
    Double,
}

/// The command with every known variable reference replaced by a reference to an
/// environment variable, and those variables.
fn rewrite(command: &str, shell: Shell, dirs: &PluginDirs) -> (String, Vec<(String, VarValue)>) {
    let mut out = String::with_capacity(command.len());
    let mut vars: Vec<(String, VarValue)> = Vec::new();
    let mut quote = Quote::None;
    let mut rest = command;
    while let Some(c) = rest.chars().next() {
        if c == '$'
            && quote != Quote::Single
            && let Some((name, len)) = reference(rest)
            && let Some(value) = lookup(name, dirs)
        {
            let var = intern(&mut vars, name, value);
            out.push_str(&shell_reference(&var, shell, quote));
            rest = &rest[len..];
            continue;
        }
        if c == '$'
            && quote == Quote::Single
            && shell != Shell::Powershell
            && let Some((name, len)) = reference(rest)
            && let Some(value) = lookup(name, dirs)
        {
            // Close the single quotes around a double-quoted reference.
            let var = intern(&mut vars, name, value);
            out.push_str(&format!("'\"${{{var}}}\"'"));
            rest = &rest[len..];
            continue;
        }
        let len = c.len_utf8();
        match (quote, c) {
            (Quote::None, '\\') | (Quote::Double, '\\') if shell != Shell::Powershell => {
                // The escaped character is copied as is.
                let escaped = rest[len..].chars().next().map_or(0, char::len_utf8);
                out.push_str(&rest[..len + escaped]);
                rest = &rest[len + escaped..];
                continue;
            }
            (Quote::None, '\'') => quote = Quote::Single,
            (Quote::Single, '\'') => quote = Quote::None,
            (Quote::None, '"') => quote = Quote::Double,
            (Quote::Double, '"') => quote = Quote::None,
            _ => {}
        }
        out.push(c);
        rest = &rest[len..];
    }
    (out, vars)
}

/// `${name}` (or a bare `$NAME` of [`BARE_NAMES`]) at the start of `text`: the name
/// and the length of the reference.
fn reference(text: &str) -> Option<(&str, usize)> {
    if let Some(inner) = text.strip_prefix("${") {
        let end = inner.find('}')?;
        return Some((&inner[..end], end + 3));
    }
    let inner = text.strip_prefix('$')?;
    BARE_NAMES.iter().find_map(|name| {
        let after = inner.strip_prefix(name)?;
        let continues = after
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        (!continues).then(|| (*name, name.len() + 1))
    })
}

/// The environment variable that carries `name`'s value (one per distinct name).
fn intern(vars: &mut Vec<(String, VarValue)>, name: &str, value: VarValue) -> String {
    if let Some((var, _)) = vars.iter().find(|(_, v)| *v == value) {
        return var.clone();
    }
    let _ = name;
    let var = format!("{VAR_PREFIX}{}", vars.len());
    vars.push((var.clone(), value));
    var
}

/// How the shell reads the variable `var` in `quote`.
fn shell_reference(var: &str, shell: Shell, quote: Quote) -> String {
    match (shell, quote) {
        (Shell::Powershell, _) => format!("$env:{var}"),
        (_, Quote::None) => format!("\"${{{var}}}\""),
        _ => format!("${{{var}}}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dirs() -> PluginDirs {
        PluginDirs {
            root: Some("/p/it's $(x)".into()),
            data: Some("/d".into()),
            options: vec![("key".into(), "v a;l".into())],
        }
    }

    fn line(command: &str) -> (String, Vec<(String, VarValue)>) {
        rewrite(command, Shell::Sh, &dirs())
    }

    #[test]
    fn references_become_environment_references_in_every_quoting() {
        let (s, vars) = line("node ${pluginDir}/a.js \"${pluginDir}/b\" '${CLAUDE_PLUGIN_ROOT}/c'");
        assert_eq!(
            s,
            "node \"${HOOKHOST_VAR_0}\"/a.js \"${HOOKHOST_VAR_0}/b\" ''\"${HOOKHOST_VAR_0}\"'/c'"
        );
        assert_eq!(vars.len(), 1);
        assert_eq!(vars[0].1, VarValue::Fixed("/p/it's $(x)".into()));
    }

    #[test]
    fn unknown_and_escaped_references_stay_as_written() {
        let (s, vars) = line("echo ${plugindir} \\${pluginDir} $HOME ${HOME}");
        assert_eq!(s, "echo ${plugindir} \\${pluginDir} $HOME ${HOME}");
        assert!(vars.is_empty());
    }

    #[test]
    fn env_cwd_and_bare_names() {
        let (s, vars) =
            line("x ${env:TOKEN} ${cwd}${sep}y $CLAUDE_PLUGIN_ROOT/z $CLAUDE_PLUGIN_ROOTS");
        assert_eq!(
            s,
            "x \"${HOOKHOST_VAR_0}\" \"${HOOKHOST_VAR_1}\"\"${HOOKHOST_VAR_2}\"y \"${HOOKHOST_VAR_3}\"/z $CLAUDE_PLUGIN_ROOTS"
        );
        assert_eq!(vars[0].1, VarValue::Env("TOKEN".into()));
        assert_eq!(vars[1].1, VarValue::ProjectDir);
    }

    #[test]
    fn plugin_variables_outside_a_plugin_stay_as_written() {
        let (s, _) = rewrite("${pluginDir}/x", Shell::Sh, &PluginDirs::default());
        assert_eq!(s, "${pluginDir}/x");
    }
}
