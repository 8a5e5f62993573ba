//! The scripts a command hook runs from inside the project, pinned by content.
//!
//! Approving `"$LLXPRT_PROJECT_DIR"/hooks/lint.sh` by its command alone would let
//! the repository change what `lint.sh` does after the review. The command is read
//! as a reviewer would ([`super::reading`], on `hookhost-shell`): every word that
//! names a regular file inside the project or the extension's directory is hashed
//! — the programs and arguments of the line, the files `source` / `.` read, input
//! redirections, at any depth of `sh -c` / `bash -c` / `eval` / `find -exec`
//! scripts, from every directory a `cd` may have moved to — and what the hook's
//! own `env` brings in: the in-project files its values name (`BASH_ENV`), and a
//! program found on its `PATH` in the project (or its absence from every project
//! directory searched before the one it is found in, where the repository could
//! add one later). The approval covers those digests; a changed, added or removed
//! script is a new, unapproved hook.
//!
//! Where the shell would run code the reading cannot identify — a program or a
//! sourced file computed at run time (`"$LIB"/lib.sh`, `$(…)`, a glob), a `-c`
//! script held in a variable, a relative path after a `cd` to an unknown place,
//! an in-project program or sourced file that does not exist yet, `BASH_ENV` set
//! on the line — the hook *cannot be pinned*: [`Pins::unpinned`] says what and
//! why. Such a hook is never approved silently (see [`super`]).

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::reading::{Reading, Role, Vars, read};
use crate::config::CommandConfig;

/// Scripts larger than this are pinned by a marker instead of their content
/// (nothing legitimate is that large; reading it would only cost time).
const MAX_SCRIPT_BYTES: u64 = 16 * 1024 * 1024;

/// What an approval of a command pins, and what it cannot.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pins {
    /// The scripts inside the project (or extension) the command names: the word as
    /// written → SHA-256 (hex).
    pub scripts: BTreeMap<String, String>,
    /// Code the command runs that cannot be identified: `word (why)`.
    pub unpinned: Vec<String>,
}

/// Where a command's files are looked for.
pub struct PinScope<'a> {
    /// The project dir: the hook's working directory.
    pub project_dir: &'a Path,
    /// The directories whose files are pinned: the project and the settings
    /// file's scope (an extension's directory).
    pub roots: &'a [&'a Path],
    /// An extension's or Claude plugin's directory, for `${pluginDir}` and its
    /// aliases.
    pub plugin_root: Option<&'a Path>,
}

/// The pins of a command hook: its command line, or exec form's program and
/// arguments (read as the line that quotes them: no shell splits them).
pub fn pin_command(config: &CommandConfig, scope: &PinScope<'_>) -> Pins {
    let line = match &config.args {
        None => Some(config.command.clone()),
        Some(args) => shlex::try_join(
            std::iter::once(config.command.as_str()).chain(args.iter().map(String::as_str)),
        )
        .ok(),
    };
    let Some(line) = line else {
        // A NUL byte cannot be quoted (nor passed to a program).
        return Pins {
            unpinned: vec!["the arguments (a NUL byte)".to_owned()],
            ..Pins::default()
        };
    };
    let vars = Vars {
        project_dir: scope.project_dir.to_path_buf(),
        plugin_root: scope.plugin_root.map(Path::to_path_buf),
        home: dirs::home_dir(),
    };
    let roots: Vec<PathBuf> = scope
        .roots
        .iter()
        .filter_map(|r| r.canonicalize().ok())
        .collect();
    let inside = |path: &Path| roots.iter().any(|root| path.starts_with(root));
    let mut pins = Pins::default();
    env_files(config, scope.project_dir, &inside, &mut pins);
    let path = hook_path(config, scope.project_dir);
    pin_reading(read(&line, &vars), &path, &inside, &mut pins);
    pins
}

/// Pins the in-project files the hook's own `env` names (`BASH_ENV`, `ENV`,
/// `NODE_OPTIONS=--require ./x.js` …): the shell or the program reads them as
/// code, and the approval saw the value, not the file.
fn env_files(
    config: &CommandConfig,
    project_dir: &Path,
    inside: &dyn Fn(&Path) -> bool,
    pins: &mut Pins,
) {
    for (name, value) in &config.env {
        let parts = value.split(|c: char| matches!(c, ':' | '=' | ',') || c.is_whitespace());
        for part in parts.filter(|p| !p.is_empty()) {
            let file = project_dir.join(part).canonicalize().ok();
            if let Some(file) = file.filter(|f| f.is_file() && inside(f)) {
                pins.scripts
                    .insert(format!("env {name}: {part}"), digest(&file));
            }
        }
    }
}

/// The `PATH` the hook's programs are looked up in: its own `env`'s, else
/// hookhost's (which it inherits, scrubbed or not); relative entries are relative
/// to the project dir, the hook's working directory.
fn hook_path(config: &CommandConfig, project_dir: &Path) -> Vec<PathBuf> {
    let own = config.env.iter().rev().find(|(name, _)| name == "PATH");
    let value = match own {
        Some((_, value)) => value.into(),
        None => std::env::var_os("PATH").unwrap_or_default(),
    };
    std::env::split_paths(&value)
        .map(|dir| project_dir.join(dir))
        .collect()
}

/// Pins a program found on `PATH` when it is the project's, and its absence from
/// every directory of the project searched before it: a file the repository adds
/// there later would run instead.
fn pin_on_path(name: &str, path: &[PathBuf], inside: &dyn Fn(&Path) -> bool, pins: &mut Pins) {
    for dir in path {
        let candidate = dir.join(name);
        let found = candidate.canonicalize().ok().filter(|f| f.is_file());
        let key = format!("PATH {}", candidate.display());
        match found {
            Some(file) if inside(&file) => {
                pins.scripts.insert(key, digest(&file));
                return;
            }
            Some(_) => return,
            None if dir.canonicalize().is_ok_and(|d| inside(&d)) => {
                pins.scripts.insert(key, "absent".to_owned());
            }
            None => {}
        }
    }
}

/// Pins what the reading found; what it cannot pin goes to `unpinned`.
fn pin_reading(
    reading: Reading,
    path: &[PathBuf],
    inside: &dyn Fn(&Path) -> bool,
    pins: &mut Pins,
) {
    pins.unpinned.extend(reading.unresolved);
    for named in reading.named {
        if named.role == Role::ProgramBare
            && let Some((key, _)) = named.candidates.first()
        {
            pin_on_path(key, path, inside, pins);
        }
        let mut found = false;
        for (key, path) in &named.candidates {
            let Some(file) = path.canonicalize().ok().filter(|p| p.is_file()) else {
                continue;
            };
            found = true;
            if inside(&file) {
                pins.scripts.insert(key.clone(), digest(&file));
            }
        }
        if found {
            continue;
        }
        let Some((key, path)) = named.candidates.first() else {
            continue;
        };
        match named.role {
            Role::Word | Role::ProgramBare => {}
            Role::SourcedBare if path.file_name().is_some_and(on_path) => {}
            Role::SourcedBare | Role::Sourced => {
                pins.unpinned.push(format!("{key} (no such file)"));
            }
            Role::Program => {
                // A program in the project that does not exist yet is code the
                // repository creates at run time; one outside is not its code.
                if named
                    .candidates
                    .iter()
                    .any(|(_, p)| resolved_inside(p, inside))
                {
                    pins.unpinned
                        .push(format!("{key} (not in the project yet)"));
                }
            }
        }
    }
}

/// Whether a path that does not exist would lie inside a root: its nearest
/// existing ancestor is inside.
fn resolved_inside(path: &Path, inside: &dyn Fn(&Path) -> bool) -> bool {
    path.ancestors()
        .find_map(|a| a.canonicalize().ok())
        .is_some_and(|a| inside(&a))
}

/// Whether `sh` finds a file of this name on `PATH` (what `. name` reads first).
fn on_path(name: &std::ffi::OsStr) -> bool {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).any(|dir| dir.join(name).is_file())
}

fn digest(path: &Path) -> String {
    let mut hasher = Sha256::new();
    let read = std::fs::File::open(path)
        .and_then(|file| std::io::copy(&mut file.take(MAX_SCRIPT_BYTES), &mut hasher));
    match read {
        Ok(_) => hex::encode(hasher.finalize()),
        Err(e) => format!("unreadable: {}", e.kind()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Shell;

    fn command(line: &str) -> CommandConfig {
        CommandConfig {
            command: line.to_owned(),
            args: None,
            shell: Shell::Sh,
            env: Vec::new(),
        }
    }

    #[test]
    fn scripts_named_by_the_command_are_pinned_and_others_are_not() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(project.join("hooks")).unwrap();
        std::fs::write(project.join("hooks/lint.sh"), "echo 1").unwrap();
        std::fs::write(project.join("hooks/check.py"), "print(1)").unwrap();
        std::fs::write(project.join("lib.sh"), "echo lib").unwrap();
        let roots = [project.as_path()];
        let scope = PinScope {
            project_dir: &project,
            roots: &roots,
            plugin_root: None,
        };
        let line = r#""$LLXPRT_PROJECT_DIR"/hooks/lint.sh --fast && python3 hooks/check.py /etc/passwd && sh -c '. ./lib.sh'"#;
        let pins = pin_command(&command(line), &scope);
        let keys: Vec<&str> = pins.scripts.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "$LLXPRT_PROJECT_DIR/hooks/lint.sh",
                "./lib.sh",
                "hooks/check.py"
            ]
        );
        assert!(pins.unpinned.is_empty(), "{pins:?}");
        std::fs::write(project.join("lib.sh"), "echo changed").unwrap();
        assert_ne!(pin_command(&command(line), &scope), pins);
    }

    #[test]
    fn what_the_hooks_env_brings_in_is_pinned() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(project.join("bin")).unwrap();
        std::fs::write(project.join("rc.sh"), "true").unwrap();
        let roots = [project.as_path()];
        let scope = PinScope {
            project_dir: &project,
            roots: &roots,
            plugin_root: None,
        };
        let p = project.display();
        let config = CommandConfig {
            env: vec![
                ("PATH".to_owned(), format!("{p}/bin:/usr/bin:/bin")),
                ("BASH_ENV".to_owned(), format!("{p}/rc.sh")),
            ],
            ..command("touch x")
        };
        let before = pin_command(&config, &scope);
        assert!(
            before
                .scripts
                .contains_key(&format!("env BASH_ENV: {p}/rc.sh")),
            "{before:?}"
        );
        let touch = format!("PATH {p}/bin/touch");
        assert_eq!(
            before.scripts.get(&touch).map(String::as_str),
            Some("absent")
        );
        // The repository adds a `touch` where the approved PATH finds it first.
        std::fs::write(project.join("bin/touch"), "echo pwned").unwrap();
        let after = pin_command(&config, &scope);
        assert_ne!(
            after.scripts.get(&touch).map(String::as_str),
            Some("absent")
        );
    }

    #[test]
    fn code_that_cannot_be_identified_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().canonicalize().unwrap();
        let roots = [project.as_path()];
        let scope = PinScope {
            project_dir: &project,
            roots: &roots,
            plugin_root: None,
        };
        let pins = pin_command(
            &command(r#"sh -c '. "$LIB"/lib.sh' && . ./missing.sh && ./build/tool"#),
            &scope,
        );
        assert_eq!(
            pins.unpinned,
            [
                "$LIB/lib.sh (a sourced file computed at run time)",
                "./missing.sh (no such file)",
                "./build/tool (not in the project yet)"
            ]
        );
        let exec = CommandConfig {
            command: "bash".to_owned(),
            args: Some(vec!["-c".to_owned(), ". \"$LIB\"/x.sh".to_owned()]),
            ..command("")
        };
        assert_eq!(
            pin_command(&exec, &scope).unpinned,
            ["$LIB/x.sh (a sourced file computed at run time)"]
        );
    }
}
