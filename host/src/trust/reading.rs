//! A reviewer's reading of a command line: the files it names, and which of them
//! the shell runs as code — its programs (through wrappers), the operands of
//! `source` / `.`, and the same inside the scripts of `sh -c`, `eval`, `trap`,
//! `find -exec` … — with the directories `cd` moves to. [`super::scripts`] pins
//! what this finds.
//!
//! The shell itself is read by `hookhost-shell`, the one reading `if` rules and
//! the guest SDK share (docs/DESIGN.md, "One shell reading"); this adds what only
//! a reviewer needs: which *files* those words are. The values of the project-dir
//! variables, `${cwd}`, the plugin-dir variables and the home directory are known
//! here; any other expansion is not. Where the shell would run code the reading
//! cannot identify — a program or a sourced file that is an expansion or a glob,
//! a relative one after a `cd` to an unknown place, or anything `hookhost-shell`
//! is unsure of (a script that is an expansion, a shell reading its program from
//! its input, `BASH_ENV` set on the line …) — it says so, never skips it: the
//! caller must not approve such a hook silently.
//!
//! Directories are over-approximated: `hookhost-shell` lists commands in source
//! order without their scopes, so a relative path after any `cd` is resolved
//! against every directory moved to so far as well as the project dir.

use std::path::{Path, PathBuf};

use hookhost_shell::Invocation;

use crate::config::PROJECT_DIR_VARS;

/// How many directories a line may `cd` to before the reading stops following.
const MAX_BASES: usize = 16;
/// `hookhost-shell`'s reason for a program that is an expansion: judged here
/// instead, where the project-dir variables are known.
const PROGRAM_EXPANSION: &str = "the program `";

/// What the shell does with a named file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// An argument or an input redirection (maybe read as code:
    /// `python3 check.py`, `sh < x.sh`).
    Word,
    /// A program, named by a path.
    Program,
    /// A program named without a slash: found on `PATH`.
    ProgramBare,
    /// The operand of `source` / `.`, named by a path.
    Sourced,
    /// The operand of `source` / `.` without a slash: `sh` searches `PATH` for
    /// it (bash, then the working directory).
    SourcedBare,
}

/// A word that names a file: where it may be, once per directory the shell may
/// be in, with the key it is shown and pinned by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Named {
    pub(crate) role: Role,
    pub(crate) candidates: Vec<(String, PathBuf)>,
}

/// What the reading found.
#[derive(Debug, Default)]
pub(crate) struct Reading {
    /// The files named, in order.
    pub(crate) named: Vec<Named>,
    /// Code the reading cannot identify: `word (why)`, or why alone.
    pub(crate) unresolved: Vec<String>,
}

/// The values a word may refer to without being computed at run time.
pub(crate) struct Vars {
    /// The project dir: the project-dir variables, `${cwd}`, the hook's cwd.
    pub(crate) project_dir: PathBuf,
    /// An extension's or Claude plugin's directory (`${pluginDir}` …).
    pub(crate) plugin_root: Option<PathBuf>,
    /// The home directory (`~`, `$HOME`, `${homedir}`).
    pub(crate) home: Option<PathBuf>,
}

/// Reads a command line.
pub(crate) fn read(line: &str, vars: &Vars) -> Reading {
    let shell = hookhost_shell::read(line);
    let mut reader = Reader {
        vars,
        bases: vec![Some(vars.project_dir.clone())],
        out: Reading::default(),
    };
    for reason in shell.unsure {
        if !reason.starts_with(PROGRAM_EXPANSION) {
            reader.out.unresolved.push(reason);
        }
    }
    for invocation in &shell.invocations {
        reader.invocation(invocation);
    }
    // Files the shell reads as input (`sh < x.sh`) are named too.
    let parsed = hookhost_shell::parse(line);
    for simple in parsed.simple_commands() {
        for r in simple.redirections.iter().filter(|r| r.op.starts_with('<')) {
            reader.named(&r.target.text, Role::Word);
        }
    }
    reader.out
}

struct Reader<'a> {
    vars: &'a Vars,
    /// The directories the shell may be in; `None`: one the reading cannot know.
    bases: Vec<Option<PathBuf>>,
    out: Reading,
}

impl Reader<'_> {
    fn invocation(&mut self, invocation: &Invocation) {
        for &start in &invocation.starts {
            if let Some(word) = invocation.words.get(start) {
                self.program(word);
            }
        }
        let args = invocation.args();
        match invocation.program() {
            Some("." | "source") => {
                if let Some(operand) = args.first() {
                    self.sourced(operand);
                }
            }
            Some("cd" | "pushd") => self.cd(args.iter().find(|a| !a.starts_with('-'))),
            _ => {}
        }
        for (i, word) in invocation.words.iter().enumerate() {
            if !invocation.starts.contains(&i) {
                self.named(word, Role::Word);
            }
        }
    }

    /// A program: a path is code the project may hold.
    fn program(&mut self, word: &str) {
        match expand(word, self.vars) {
            Some(text) if has_glob(&text) => self.unresolved(word, "a program that is a pattern"),
            Some(text) if !text.contains('/') => self.named(word, Role::ProgramBare),
            Some(_) => self.named(word, Role::Program),
            None => self.unresolved(word, "a program computed at run time"),
        }
    }

    /// The operand of `source` / `.`.
    fn sourced(&mut self, word: &str) {
        match expand(word, self.vars) {
            Some(text) if has_glob(&text) => {
                self.unresolved(word, "a sourced file that is a pattern")
            }
            Some(text) if !text.contains('/') => self.named(word, Role::SourcedBare),
            Some(_) => self.named(word, Role::Sourced),
            None => self.unresolved(word, "a sourced file computed at run time"),
        }
    }

    fn cd(&mut self, target: Option<&String>) {
        if self.bases.len() >= MAX_BASES {
            self.bases.push(None);
            return;
        }
        let moved: Vec<Option<PathBuf>> = match target.map(|t| expand(t, self.vars)) {
            // `cd` alone goes home.
            None => vec![self.vars.home.clone()],
            Some(Some(text)) if Path::new(&text).is_absolute() => vec![Some(text.into())],
            Some(Some(text)) if text != "-" => self
                .bases
                .iter()
                .flatten()
                .map(|b| Some(b.join(&text)))
                .collect(),
            Some(_) => vec![None],
        };
        self.bases.extend(moved);
    }

    /// A word that may name a file in `role`: where it is from each directory
    /// the shell may be in.
    fn named(&mut self, word: &str, role: Role) {
        let Some(text) = expand(word, self.vars) else {
            return;
        };
        if matches!(role, Role::Word) && (text.starts_with('-') || text.contains('=')) {
            return;
        }
        let path = Path::new(&text);
        if path.is_absolute() {
            let candidates = vec![(word.to_owned(), path.to_path_buf())];
            return self.out.named.push(Named { role, candidates });
        }
        let code = !matches!(role, Role::Word | Role::ProgramBare);
        if code && self.bases.iter().any(Option::is_none) {
            return self.unresolved(word, "relative to a directory `cd` moved to");
        }
        let mut candidates: Vec<(String, PathBuf)> = Vec::new();
        for dir in self.bases.iter().flatten() {
            let key = match dir.strip_prefix(&self.vars.project_dir) {
                Ok(rel) if rel.as_os_str().is_empty() => word.to_owned(),
                Ok(rel) => format!("{}/{word}", rel.display()),
                Err(_) => format!("{}/{word}", dir.display()),
            };
            if !candidates.iter().any(|(k, _)| *k == key) {
                candidates.push((key, dir.join(path)));
            }
        }
        self.out.named.push(Named { role, candidates });
    }

    fn unresolved(&mut self, word: &str, why: &str) {
        self.out.unresolved.push(format!("{word} ({why})"));
    }
}

/// `word` with the variables a reviewer can know replaced; `None` when something
/// is left that the shell computes at run time (another variable, `$(…)`, a
/// backquote).
fn expand(word: &str, vars: &Vars) -> Option<String> {
    let home = || vars.home.as_ref().map(|h| h.to_string_lossy().into_owned());
    let mut out = String::with_capacity(word.len());
    let mut rest = word;
    if let Some(after) = rest.strip_prefix('~')
        && (after.is_empty() || after.starts_with('/'))
    {
        out.push_str(&home()?);
        rest = after;
    }
    while let Some(at) = rest.find(['$', '`']) {
        out.push_str(&rest[..at]);
        let after = rest[at..].strip_prefix('$')?;
        let (name, len) = match after.strip_prefix('{') {
            Some(braced) => {
                let end = braced.find('}')?;
                (&braced[..end], end + 2)
            }
            None => {
                let end = after
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(after.len());
                (&after[..end], end)
            }
        };
        let value = match name {
            _ if PROJECT_DIR_VARS.contains(&name) || name == "cwd" => {
                Some(vars.project_dir.to_string_lossy().into_owned())
            }
            "pluginDir" | "extensionPath" | "CLAUDE_PLUGIN_ROOT" => vars
                .plugin_root
                .as_ref()
                .map(|p| p.to_string_lossy().into_owned()),
            "HOME" | "homedir" => home(),
            _ => None,
        };
        out.push_str(&value?);
        rest = &after[len..];
    }
    out.push_str(rest);
    Some(out)
}

fn has_glob(text: &str) -> bool {
    text.contains(['*', '?', '['])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars() -> Vars {
        Vars {
            project_dir: "/p".into(),
            plugin_root: None,
            home: Some("/home/u".into()),
        }
    }

    /// Every candidate: key, path, role.
    fn named(line: &str) -> Vec<(String, String, Role)> {
        read(line, &vars())
            .named
            .into_iter()
            .flat_map(|n| {
                n.candidates
                    .into_iter()
                    .map(move |(k, p)| (k, p.display().to_string(), n.role))
            })
            .collect()
    }

    fn unresolved(line: &str) -> Vec<String> {
        read(line, &vars()).unresolved
    }

    #[test]
    fn scripts_of_c_strings_and_sourced_files_are_followed() {
        let found = named(r#"sh -c ". ./lib.sh; true" && sudo bash -lc 'source hooks/x.sh'"#);
        assert!(found.contains(&("./lib.sh".into(), "/p/./lib.sh".into(), Role::Sourced)));
        assert!(found.contains(&("hooks/x.sh".into(), "/p/hooks/x.sh".into(), Role::Sourced)));
        let found = named("sh -c 'cd hooks && . ./y.sh' && ./z.sh < in.sh > out.log");
        assert!(found.contains(&(
            "hooks/./y.sh".into(),
            "/p/hooks/./y.sh".into(),
            Role::Sourced
        )));
        assert!(found.contains(&("./z.sh".into(), "/p/./z.sh".into(), Role::Program)));
        assert!(found.contains(&("in.sh".into(), "/p/in.sh".into(), Role::Word)));
        assert!(
            !found.iter().any(|(k, _, _)| k.ends_with("out.log")),
            "{found:?}"
        );
        let found = named(r#"eval ". ~/.profile"; find . -exec ./check.sh {} \;"#);
        assert!(found.contains(&(
            "~/.profile".into(),
            "/home/u/.profile".into(),
            Role::Sourced
        )));
        assert!(found.contains(&("./check.sh".into(), "/p/./check.sh".into(), Role::Program)));
    }

    #[test]
    fn code_that_cannot_be_identified_is_reported() {
        let one = |line: &str| {
            let found = unresolved(line);
            assert_eq!(found.len(), 1, "{line}: {found:?}");
            found[0].clone()
        };
        assert!(one(r#"sh -c '. "$LIB"/lib.sh'"#).starts_with("$LIB/lib.sh (a sourced"));
        assert!(one(r#"bash -c "$SCRIPT""#).contains("script that is an expansion"));
        assert!(one("$DIR/run.sh --fast").starts_with("$DIR/run.sh (a program computed"));
        assert!(one("cd $(mktemp -d) && ./x.sh").starts_with("./x.sh (relative"));
        assert!(one("source ./lib/*.sh").contains("pattern"));
        assert!(one("BASH_ENV=./rc.sh true").contains("BASH_ENV"));
        // Variables hookhost knows, and programs found on PATH, are not.
        let known = r#""$LLXPRT_PROJECT_DIR"/hooks/a.sh && ${cwd}/b && $HOME/c && ~/d"#;
        assert_eq!(unresolved(known), Vec::<String>::new());
        let plain = "jq -c '. as $x | $x' && echo $TOKEN && touch ran; echo '{}'";
        assert_eq!(unresolved(plain), Vec::<String>::new());
    }
}
