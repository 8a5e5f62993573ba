//! Shell commands: the credential files a command reads or copies, and the
//! text it may write into files.
//!
//! Programs are read with [`shell::read`](hookhost_guest::shell::read) (wrappers, `bash -c`, `eval` and
//! `find -exec` followed); redirections and here-documents come from the
//! parse tree, at any depth, compound commands included
//! (`{ cat; } < ~/.netrc`).

use hookhost_guest::shell::{Command, Reading, Redirection, ShellCommand};

use crate::credentials::{Extra, arg_credential, holds_credentials};
use hookhost_policy_common::paths::{directories, resolve};

/// Programs that print, send or transform the files named in their arguments.
const READERS: &[&str] = &[
    "cat", "tac", "nl", "less", "more", "most", "head", "tail", "bat", "batcat", "view", "vi",
    "vim", "nvim", "nano", "emacs", "strings", "od", "xxd", "hexdump", "hd", "base64", "base32",
    "basenc", "uuencode", "gzip", "bzip2", "xz", "zstd", "lz4", "gpg", "openssl", "age", "curl",
    "wget", "http", "https", "grep", "egrep", "fgrep", "rg", "ag", "ack", "awk", "gawk", "mawk",
    "sed", "cut", "sort", "uniq", "diff", "comm", "paste", "jq", "yq", "dd", "fold", "column",
    "pr", "rev", "xclip", "gh", "split", "iconv", "tr",
];

/// Programs that copy their source arguments (all but the destination).
const COPIERS: &[&str] = &["cp", "scp", "rsync", "install", "sftp", "rclone"];

/// Archivers: every argument may be a source.
const ARCHIVERS: &[&str] = &["tar", "zip", "7z", "7za", "jar", "rar", "bsdtar", "gtar"];

/// Options of the copiers that take the next word as a value that is not a
/// source (an identity file, a port, a remote shell).
const COPIER_VALUES: &[&str] = &[
    "-i",
    "-F",
    "-o",
    "-P",
    "-c",
    "-l",
    "-S",
    "-J",
    "-D",
    "-e",
    "--rsh",
    "-t",
    "--target-directory",
    "-m",
    "--mode",
    "-g",
    "-O",
    "--suffix",
];

/// Programs whose arguments may end up in a file (besides redirections).
const PERSISTERS: &[&str] = &[
    "tee", "dd", "sponge", "sed", "perl", "python", "python3", "node", "ruby", "php", "git", "awk",
    "gawk", "install", "ex", "ed",
];

/// What a command reads: the first credential file it reads or copies, as
/// `(the command, the path, what it is)`.
pub fn credential_read(
    parsed: &ShellCommand,
    reading: &Reading,
    cwd: &str,
    home: &str,
    extra: &Extra,
) -> Option<(String, String, &'static str)> {
    let cwds = directories(reading, cwd, home);
    for inv in &reading.invocations {
        let Some(program) = inv.program() else {
            continue;
        };
        let args = inv.args();
        let sources: Vec<&String> = if READERS.contains(&program) {
            if program == "sed" && args.iter().any(|a| a.starts_with("-i")) {
                continue;
            }
            reader_files(program, args)
        } else if COPIERS.contains(&program) {
            copier_sources(args)
        } else if ARCHIVERS.contains(&program) {
            archiver_sources(args)
        } else {
            continue;
        };
        let copies = !READERS.contains(&program);
        for arg in sources {
            if let Some((path, kind)) = arg_credential(arg, &cwds, home, extra) {
                return Some((inv.line_from(inv.starts.len() - 1)?, path, kind));
            }
            let holds = cwds
                .iter()
                .find_map(|c| resolve(arg, c, home))
                .filter(|p| holds_credentials(p, home));
            if copies && let Some(path) = holds {
                return Some((
                    inv.line_from(inv.starts.len() - 1)?,
                    path,
                    "a directory holding credentials",
                ));
            }
        }
    }
    parts(parsed)
        .redirections
        .iter()
        .filter(|r| matches!(r.op, "<" | "<>"))
        .find_map(|r| {
            let (path, kind) = arg_credential(&r.target.text, &cwds, home, extra)?;
            Some((format!("< {}", r.target.text), path, kind))
        })
}

/// Programs whose first positional argument is a pattern or a script, not a
/// file, unless `-e` or `-f` gives it.
const PATTERN_FIRST: &[&str] = &[
    "grep", "egrep", "fgrep", "rg", "ag", "ack", "awk", "gawk", "mawk", "sed", "jq", "yq",
];

/// The arguments of a reader that may be files it reads: all of them, but a
/// pattern-first program's pattern (`grep '.env' .gitignore` reads
/// `.gitignore`, not `.env`).
fn reader_files<'a>(program: &str, args: &'a [String]) -> Vec<&'a String> {
    if !PATTERN_FIRST.contains(&program) {
        return args.iter().collect();
    }
    let explicit = args.iter().any(|a| {
        matches!(
            a.as_str(),
            "-e" | "-f" | "--regexp" | "--file" | "--from-file"
        )
    });
    let mut out = Vec::new();
    let mut pattern_seen = explicit;
    let mut skip = false;
    for arg in args {
        if skip {
            skip = false;
        } else if matches!(arg.as_str(), "-e" | "--regexp") {
            skip = true;
        } else if !pattern_seen && !arg.starts_with('-') {
            pattern_seen = true;
        } else {
            out.push(arg);
        }
    }
    out
}

/// The source arguments of a copier: positional words but the last (the
/// destination), skipping option values; all of them after `-t DIR`.
fn copier_sources(args: &[String]) -> Vec<&String> {
    let mut positional = Vec::new();
    let mut target_given = false;
    let mut skip = false;
    let mut options_done = false;
    for arg in args {
        if skip {
            skip = false;
            continue;
        }
        if !options_done && arg == "--" {
            options_done = true;
        } else if !options_done && arg.starts_with('-') && arg.len() > 1 {
            if COPIER_VALUES.contains(&arg.as_str()) {
                skip = true;
            }
            target_given |= arg == "-t" || arg.starts_with("--target-directory");
        } else {
            positional.push(arg);
        }
    }
    if !target_given {
        positional.pop();
    }
    positional
}

/// The arguments of an archiver but its exclusions (`--exclude=.env`,
/// `-x .env`): excluding a credential is the opposite of copying it.
fn archiver_sources(args: &[String]) -> Vec<&String> {
    let mut out = Vec::new();
    let mut skip = false;
    for arg in args {
        if skip {
            skip = false;
        } else if matches!(arg.as_str(), "--exclude" | "-x" | "--exclude-from" | "-X") {
            skip = true;
        } else if !arg.starts_with("--exclude") {
            out.push(arg);
        }
    }
    out
}

/// Whether the command writes into a file: a redirection of output to a path
/// (not `/dev/null` and friends, not `>&2`), or a program that stores its
/// arguments (`tee`, `sed -i`, `python -c`, `git config` …).
pub fn writes_files(parsed: &ShellCommand, reading: &Reading) -> bool {
    let to_file = parts(parsed).redirections.iter().any(|r| {
        let output = matches!(r.op, ">" | ">>" | ">|" | "&>" | "&>>" | "<>");
        let target = r.target.text.as_str();
        let device = target.starts_with("/dev/") && !target.starts_with("/dev/shm");
        output && !device && !target.is_empty()
    });
    to_file
        || reading
            .invocations
            .iter()
            .any(|inv| inv.program().is_some_and(|p| PERSISTERS.contains(&p)))
}

/// The text a command may write: its words with quotes removed and escapes
/// decoded, and its here-document bodies, one per line.
pub fn decoded_text(parsed: &ShellCommand) -> String {
    let parts = parts(parsed);
    let mut text = String::new();
    for r in &parts.redirections {
        if let Some(body) = &r.heredoc {
            text.push_str(body);
            text.push('\n');
        }
        text.push_str(&r.target.text);
        text.push('\n');
    }
    for word in &parts.words {
        text.push_str(word);
        text.push('\n');
    }
    text
}

/// The redirections and words of a parsed command, at any depth.
#[derive(Default)]
struct Parts<'a> {
    redirections: Vec<&'a Redirection>,
    words: Vec<&'a str>,
}

/// Collects every redirection and every word and assignment value of
/// `command`, in substitutions, compound bodies and parsed scripts too.
fn collect<'a>(command: &'a ShellCommand, parts: &mut Parts<'a>) {
    for pipeline in &command.pipelines {
        for cmd in &pipeline.commands {
            match cmd {
                Command::Simple(simple) => {
                    let values = simple.assignments.iter().map(|a| &a.value);
                    for w in simple.words.iter().chain(values) {
                        parts.words.push(&w.text);
                        for nested in &w.substitutions {
                            collect(nested, parts);
                        }
                    }
                    for r in &simple.redirections {
                        parts.redirections.push(r);
                        for nested in &r.target.substitutions {
                            collect(nested, parts);
                        }
                    }
                    if let Some(script) = &simple.script {
                        collect(script, parts);
                    }
                }
                Command::Compound(compound) => {
                    for w in &compound.words {
                        parts.words.push(&w.text);
                    }
                    parts.redirections.extend(&compound.redirections);
                    collect(&compound.body, parts);
                }
            }
        }
    }
}

fn parts(command: &ShellCommand) -> Parts<'_> {
    let mut parts = Parts::default();
    collect(command, &mut parts);
    parts
}

/// Parses and reads `command` once for all the checks (and for every other
/// policy of the builtin pack).
pub fn analyse(command: &str) -> std::rc::Rc<hookhost_policy_common::shell::Shell> {
    hookhost_policy_common::shell::of(command)
}
