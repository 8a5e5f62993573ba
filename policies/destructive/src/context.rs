//! What the rest of a command line tells about one of its commands: values
//! assigned to variables earlier (`d=$(mktemp -d); rm -rf "$d"`), what feeds
//! an `xargs` (`find / … | xargs rm`), and whether the text mentions a
//! destructive program at all (for lines the shell reading is unsure about).

use crate::Places;
use crate::ops::find_roots;
use crate::paths::{Kind, Vars, mktemp_path};
use hookhost_guest::shell::{Command, Redirection, ShellCommand, SimpleCommand, Word};
use std::collections::HashMap;

/// Where the names an `xargs` reads come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Producer {
    /// Paths at or below these words (`find ROOT`, `ls DIR`, `echo PATH`).
    Paths(Vec<String>, Kind),
    /// A command whose output cannot be known here (`cat list.txt`).
    Unknown(String),
}

/// Names a destructive program or device, for lines that cannot be read for sure.
const MENTIONS: &[&str] = &[
    "rm",
    "rmdir",
    "unlink",
    "shred",
    "truncate",
    "mv",
    "dd",
    "mkfs",
    "wipefs",
    "chmod",
    "chown",
    "chgrp",
    "srm",
    "blkdiscard",
    "-delete",
    "/dev/sd",
    "/dev/nvme",
    "/dev/vd",
    "/dev/hd",
    "/dev/mmcblk",
];

/// The first destructive program `text` mentions as a word of its own.
pub fn mentions_destructive(text: &str) -> Option<&'static str> {
    let word_char = |c: char| c.is_ascii_alphanumeric() || c == '_';
    MENTIONS.iter().copied().find(|token| {
        text.match_indices(token).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + token.len()..].chars().next();
            let open = token.starts_with(['-', '/'])
                || !before.is_some_and(|c| word_char(c) || c == '-' || c == '.');
            let close = *token == "mkfs" || token.starts_with('/') || !after.is_some_and(word_char);
            open && close
        })
    })
}

/// Values of the variables the line assigns: `NAME=literal`,
/// `NAME=$(mktemp …)`, `export NAME=…`. A name given two values, or an
/// unknown one, maps to `None`.
pub fn collect_vars(parsed: &ShellCommand, places: &Places) -> Vars {
    let mut vars = Vars::new();
    let mut set = |name: &str, value: Option<String>| {
        let entry = vars.entry(name.to_owned()).or_insert_with(|| value.clone());
        if *entry != value {
            *entry = None;
        }
    };
    for simple in parsed.simple_commands() {
        for a in &simple.assignments {
            set(&a.name, word_value(&a.value, places));
        }
        let declares = matches!(
            simple.program(),
            Some("export" | "local" | "declare" | "typeset" | "readonly")
        );
        if declares {
            for w in simple.args() {
                if let Some((name, value)) = w.text.split_once('=') {
                    let value = (!w.dynamic)
                        .then(|| value.to_owned())
                        .or_else(|| word_value(w, places));
                    set(name, value);
                }
            }
        }
        // `for f in …` is a compound command; a `read` fills a name from input.
        if simple.program() == Some("read") {
            for w in simple.args() {
                set(&w.text, None);
            }
        }
    }
    vars
}

/// The value of an assigned word: its text when literal, a path in the temp
/// directory for `$(mktemp …)`.
fn word_value(word: &Word, places: &Places) -> Option<String> {
    if !word.dynamic {
        return Some(word.text.clone());
    }
    let text = word
        .text
        .split_once('=')
        .map_or(word.text.as_str(), |(_, v)| v);
    let inner = text.strip_prefix("$(mktemp")?.strip_suffix(')')?;
    (!inner.contains(['$', '(', '`']))
        .then(|| mktemp_path(inner, places))
        .flatten()
}

/// A simple command as `Invocation::written` spells it, to find it again.
pub fn written(simple: &SimpleCommand) -> String {
    let redirections = simple
        .redirections
        .iter()
        .flat_map(|r: &Redirection| [r.op, r.target.written.as_str()]);
    let pieces: Vec<&str> = simple
        .words
        .iter()
        .map(|w| w.written.as_str())
        .chain(redirections)
        .collect();
    pieces.join(" ")
}

/// For every pipeline stage after the first, what its input is made of, by
/// the stage's written text.
pub fn collect_producers(parsed: &ShellCommand) -> HashMap<String, Producer> {
    let mut out = HashMap::new();
    collect_producers_into(parsed, &mut out, 0);
    out
}

fn collect_producers_into(
    parsed: &ShellCommand,
    out: &mut HashMap<String, Producer>,
    depth: usize,
) {
    if depth > hookhost_guest::shell::MAX_DEPTH {
        return;
    }
    for pipeline in &parsed.pipelines {
        for (i, cmd) in pipeline.commands.iter().enumerate().skip(1) {
            if let Command::Simple(consumer) = cmd {
                // Filters (`sort`, `head`, `grep PATTERN`) pass names through.
                let source = pipeline.commands[..i]
                    .iter()
                    .enumerate()
                    .rev()
                    .find(|(j, c)| *j == 0 || !is_filter(c))
                    .map(|(_, c)| producer(c));
                if let Some(source) = source {
                    out.insert(written(consumer), source);
                }
            }
        }
        for cmd in &pipeline.commands {
            match cmd {
                Command::Simple(simple) => {
                    if let Some(script) = &simple.script {
                        collect_producers_into(script, out, depth + 1);
                    }
                    for w in &simple.words {
                        for nested in &w.substitutions {
                            collect_producers_into(nested, out, depth + 1);
                        }
                    }
                }
                Command::Compound(compound) => {
                    collect_producers_into(&compound.body, out, depth + 1)
                }
            }
        }
    }
}

/// What `cmd` writes to its stdout, as far as paths go.
fn producer(cmd: &Command) -> Producer {
    let Command::Simple(simple) = cmd else {
        return Producer::Unknown("a compound command".to_owned());
    };
    let args: Vec<String> = simple.args().iter().map(|w| w.text.clone()).collect();
    let operands: Vec<String> = args
        .iter()
        .filter(|a| !a.starts_with('-'))
        .cloned()
        .collect();
    let dot = || vec![".".to_owned()];
    match simple.program() {
        Some("find") => Producer::Paths(find_roots(&args), Kind::Modify),
        Some("echo") => Producer::Paths(operands, Kind::Remove),
        Some("printf") => Producer::Paths(operands.into_iter().skip(1).collect(), Kind::Remove),
        Some("ls") | Some("fd" | "fdfind") if operands.is_empty() => {
            Producer::Paths(dot(), Kind::Modify)
        }
        Some("ls") => Producer::Paths(operands, Kind::Modify),
        Some("git") => Producer::Paths(dot(), Kind::Modify),
        Some("grep" | "rg" | "egrep" | "fgrep") => {
            let dirs: Vec<String> = operands.into_iter().skip(1).collect();
            Producer::Paths(if dirs.is_empty() { dot() } else { dirs }, Kind::Modify)
        }
        _ => Producer::Unknown(written(simple)),
    }
}

/// Whether `cmd` only selects or reorders the lines it reads.
fn is_filter(cmd: &Command) -> bool {
    let Command::Simple(simple) = cmd else {
        return false;
    };
    let operands = simple
        .args()
        .iter()
        .filter(|w| !w.text.starts_with('-'))
        .count();
    match simple.program() {
        Some("sort" | "uniq" | "head" | "tail" | "cat") => operands == 0,
        Some("grep" | "egrep" | "fgrep" | "rg") => operands <= 1,
        _ => false,
    }
}
