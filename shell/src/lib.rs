//! A shell command line, read the way the shell reads it.
//!
//! Agents run shell commands through a tool (`run_shell_command`, Claude's
//! `Bash`) whose input is one string. Matching that string with `contains`, a
//! regular expression or a split on blanks misses what the shell actually runs
//! (`'rm' -rf x`, `\rm`, `{rm,} -rf x`, `$'\x72m'`, `sudo bash -c "rm …"`,
//! `f() { rm …; }; f`) and fires on text that only mentions a command
//! (`grep 'curl | sh' notes.md`). This crate follows the shell's own steps
//! instead, and is shared by hookhost's `if` rules and its guest SDK, so that a
//! rule and a policy always agree on which programs a command runs:
//!
//! - [`parse`] gives the structure: lists of [`Pipeline`]s, [`Command`]s
//!   (simple and compound: subshells, groups, `if`, loops, `case`, functions,
//!   `coproc`, `(( … ))`, `[[ … ]]`), [`Word`]s with quotes removed, escapes and
//!   `$'…'` decoded, the commands nested in `$( … )`, backticks and `<( … )`,
//!   here-documents (bodies skipped, their expansions parsed when the delimiter
//!   is unquoted), and the scripts a command hands to a shell parsed again
//!   (`sh -c '…'`, `eval …`, `trap '…'`, `env -S '…'`, a here-document fed to
//!   `bash`).
//! - [`read`] gives what runs: every [`Invocation`] with its words after brace
//!   expansion and the programs it starts through wrappers (`sudo`, `doas`,
//!   `env`, `command`, `builtin`, `exec -a`, `timeout`, `nice`, `xargs`,
//!   `find -exec` …), program paths compared by base name, and the reasons the
//!   reading cannot be sure ([`Reading::unsure`]).
//! - Policy questions sit on top, such as
//!   [`ShellCommand::download_into_shell`].
//!
//! It never panics and never fails: input that is not valid shell parses as
//! far as it can and is marked [`incomplete`](ShellCommand::incomplete). It is
//! linear in the input and bounded: nesting past [`MAX_DEPTH`], more than
//! [`MAX_HEREDOCS`] here-documents or more than [`MAX_WORDS`] words stop the
//! parse (marked [`too_deep`](ShellCommand::too_deep) /
//! [`too_large`](ShellCommand::too_large)), and a reading of such a line is
//! unsure. It expands nothing it cannot know: aliases, functions defined
//! elsewhere, `PATH` and variable values are unknown to it, which is what the
//! `dynamic` flags and the unsure reasons say.
//!
//! Its agreement with bash is tested differentially (`tests/differential.rs`):
//! generated commands run under `bash` with `PATH` holding only stubs that log
//! their name, and every program bash started must be one [`read`] names, or
//! the reading must say it is unsure.

mod ast;
mod download;
mod expand;
mod kinds;
mod parser;
mod program;
mod runs;
mod strings;

#[cfg(test)]
mod tests;

pub use ast::{
    Assignment, Command, CompoundCommand, CompoundKind, Connector, Pipeline, Redirection,
    ShellCommand, SimpleCommand, Word,
};
pub use expand::{MAX_BRACE_WORDS, ansi_c_escape, brace_expand};
pub use kinds::{is_downloader, is_interpreter, is_shell};
pub use runs::{Invocation, Reading, read, read_parsed};

/// How deeply commands may nest (subshells, substitutions, compound commands,
/// nested scripts) before the parse stops and sets
/// [`ShellCommand::too_deep`].
pub const MAX_DEPTH: usize = 48;

/// How many here-documents one command line may carry before the parse stops
/// and sets [`ShellCommand::too_deep`].
pub const MAX_HEREDOCS: usize = 64;

/// How many words one parse reads, nested scripts included, before it stops
/// and sets [`ShellCommand::too_large`]. Bounds time and memory (measured:
/// `cargo bench -p hookhost-shell`, docs/PERFORMANCE.md): a mebibyte of short
/// words is about 300,000 words; no agent's command comes near 50,000.
pub const MAX_WORDS: usize = 50_000;

/// Parses a command line. Never panics, never fails: see the
/// [crate documentation](crate) for what an odd input gives.
pub fn parse(command: &str) -> ShellCommand {
    parser::Parser::new(command, 0, 0).parse_root()
}

impl ShellCommand {
    /// Every simple command, in source order, at any depth: in pipelines,
    /// compound bodies, substitutions, redirection targets and parsed scripts.
    pub fn simple_commands(&self) -> impl Iterator<Item = &SimpleCommand> {
        let mut out = Vec::new();
        collect_simple(self, &mut out);
        out.into_iter()
    }
}

/// The last component of a path: how the shell's program names compare
/// (`/usr/bin/rm` and `rm` are the same program to a rule).
#[inline]
pub fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

#[inline]
pub(crate) fn is_name(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[inline]
pub(crate) fn is_assignment_text(text: &str) -> bool {
    text.split_once('=')
        .is_some_and(|(name, _)| is_name(name.strip_suffix('+').unwrap_or(name)))
}

fn collect_simple<'a>(command: &'a ShellCommand, out: &mut Vec<&'a SimpleCommand>) {
    fn word<'a>(word: &'a Word, out: &mut Vec<&'a SimpleCommand>) {
        for nested in &word.substitutions {
            collect_simple(nested, out);
        }
    }
    fn redirections<'a>(list: &'a [Redirection], out: &mut Vec<&'a SimpleCommand>) {
        for r in list {
            word(&r.target, out);
        }
    }
    for pipeline in &command.pipelines {
        for cmd in &pipeline.commands {
            match cmd {
                Command::Simple(simple) => {
                    out.push(simple);
                    for a in &simple.assignments {
                        word(&a.value, out);
                    }
                    for w in &simple.words {
                        word(w, out);
                    }
                    redirections(&simple.redirections, out);
                    if let Some(script) = &simple.script {
                        collect_simple(script, out);
                    }
                }
                Command::Compound(compound) => {
                    for w in &compound.words {
                        word(w, out);
                    }
                    collect_simple(&compound.body, out);
                    redirections(&compound.redirections, out);
                }
            }
        }
    }
}
