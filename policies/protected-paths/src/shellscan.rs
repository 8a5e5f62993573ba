//! The paths a shell command writes, deletes or moves: output redirections,
//! `tee`, `sed -i`, `cp`/`mv`/`install`/`ln` destinations, `rm`, `truncate`,
//! `dd of=`, editors, inline interpreter scripts, and `crontab` itself.
//!
//! Programs are read with [`shell::read`](hookhost_guest::shell::read) (wrappers, `bash -c`, `eval` and
//! `find -exec` followed); redirections come from the parse tree at any depth.

use hookhost_guest::shell::{Command, Invocation, Redirection, ShellCommand};

/// What a command does to a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act {
    /// Writes into it (or replaces it).
    Write,
    /// Deletes it or moves it away; a directory takes its contents along.
    Remove,
}

/// One path a command acts on, as written, with the command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The path as written.
    pub path: String,
    /// What happens to it.
    pub act: Act,
    /// The command (or redirection) that does it.
    pub line: String,
}

/// Programs that write into the files named in their arguments.
const WRITERS: &[&str] = &[
    "tee", "sponge", "truncate", "vi", "vim", "nvim", "nano", "emacs", "ed", "ex", "patch",
];

/// Programs that copy or link onto their destination.
const COPIERS: &[&str] = &["cp", "install", "rsync", "scp", "ln", "link"];

/// Programs that delete their arguments.
const REMOVERS: &[&str] = &["rm", "unlink", "shred", "rmdir", "srm"];

/// Interpreters whose inline script (`-c`, `-e`) may write any file.
const INTERPRETERS: &[&str] = &[
    "python", "python3", "python2", "perl", "ruby", "node", "php", "deno", "bun",
];

/// The options of a copier whose next word is a value, not a path.
fn value_options(program: &str) -> &'static [&'static str] {
    match program {
        "cp" | "mv" | "ln" | "link" => &["-S", "--suffix", "-t", "--target-directory"],
        "install" => &[
            "-m",
            "--mode",
            "-o",
            "--owner",
            "-g",
            "--group",
            "-S",
            "--suffix",
            "-t",
            "--target-directory",
        ],
        "rsync" => &["-e", "--rsh", "--exclude", "--include", "-f", "--filter"],
        "scp" => &["-i", "-F", "-P", "-J", "-o", "-c", "-l", "-S", "-D", "-X"],
        _ => &[],
    }
}

/// Every path the command may write, delete or move, or `Err` with the
/// command when it changes cron tables through `crontab`.
pub fn targets(command: &str) -> Result<Vec<Target>, String> {
    let shell = hookhost_policy_common::shell::of(command);
    let (parsed, reading) = (&shell.parsed, &shell.reading);
    let mut out = Vec::new();
    redirections(parsed, &mut out);
    for inv in &reading.invocations {
        invocation(inv, &mut out)?;
    }
    Ok(out)
}

/// The directories the command's `cd`/`pushd` may move to (and `cwd`).
pub fn directories(command: &str, cwd: &str, home: &str) -> Vec<String> {
    let shell = hookhost_policy_common::shell::of(command);
    hookhost_policy_common::paths::directories(&shell.reading, cwd, home)
}

/// The command of `inv`, shortened once: every target of a command with
/// thousands of arguments carries it.
fn line_of(inv: &Invocation) -> String {
    shorten(
        &inv.line_from(inv.starts.len().saturating_sub(1))
            .unwrap_or_default(),
    )
}

/// A command line cut to a readable length for a block reason.
pub fn shorten(line: &str) -> String {
    hookhost_policy_common::shorten(line, 120)
}

fn push(out: &mut Vec<Target>, path: &str, act: Act, line: &str) {
    out.push(Target {
        path: path.to_owned(),
        act,
        line: line.to_owned(),
    });
}

/// The targets of one invocation.
fn invocation(inv: &Invocation, out: &mut Vec<Target>) -> Result<(), String> {
    let Some(program) = inv.program() else {
        return Ok(());
    };
    let args = inv.args();
    let line = line_of(inv);
    let positional = positional(args, value_options(program));
    match program {
        "crontab" => {
            let lists = args
                .iter()
                .all(|a| a == "-l" || a == "-u" || !a.starts_with('-'))
                && args.iter().any(|a| a == "-l");
            if !lists {
                return Err(line);
            }
        }
        "sed" | "perl" if args.iter().any(|a| is_in_place(program, a)) => {
            for p in positional {
                push(out, p, Act::Write, &line);
            }
        }
        "dd" => {
            for a in args {
                if let Some(p) = a.strip_prefix("of=") {
                    push(out, p, Act::Write, &line);
                }
            }
        }
        "mv" => {
            copy_like(program, args, &positional, out, &line);
            for p in sources(program, args, &positional) {
                push(out, p, Act::Remove, &line);
            }
        }
        p if COPIERS.contains(&p) => {
            copy_like(p, args, &positional, out, &line);
            if matches!(p, "ln" | "link") {
                // A link to a protected file is a way to write it later.
                for s in sources(p, args, &positional) {
                    push(out, s, Act::Write, &line);
                }
            }
        }
        p if REMOVERS.contains(&p) => {
            for a in positional {
                push(out, a, Act::Remove, &line);
            }
        }
        p if WRITERS.contains(&p) => {
            for a in positional {
                push(out, a, Act::Write, &line);
            }
        }
        p if INTERPRETERS.contains(&p) => inline_script(args, out, &line),
        _ => {}
    }
    Ok(())
}

/// Whether `arg` is the in-place option of `sed` or `perl`.
fn is_in_place(program: &str, arg: &str) -> bool {
    if arg.starts_with("--in-place") {
        return true;
    }
    let Some(cluster) = arg.strip_prefix('-').filter(|c| !c.starts_with('-')) else {
        return false;
    };
    match program {
        // `-i`, `-i.bak`, `-Ei`, `-ni`: `i` in the flags before a suffix.
        "sed" => {
            cluster.starts_with('i') || cluster.chars().take_while(|c| *c != 'e').any(|c| c == 'i')
        }
        _ => cluster.contains('i'),
    }
}

/// The positional words of `args`, skipping the values of `values`.
fn positional<'a>(args: &'a [String], values: &[&str]) -> Vec<&'a String> {
    let mut out = Vec::new();
    let mut skip = false;
    let mut done = false;
    for arg in args {
        if skip {
            skip = false;
        } else if !done && arg == "--" {
            done = true;
        } else if !done && arg.starts_with('-') && arg.len() > 1 {
            skip = values.contains(&arg.as_str());
        } else {
            out.push(arg);
        }
    }
    out
}

/// The `-t DIR` / `--target-directory=DIR` of `cp`, `mv`, `ln`, `install`.
fn target_directory<'a>(program: &str, args: &'a [String]) -> Option<&'a str> {
    if !matches!(program, "cp" | "mv" | "ln" | "link" | "install") {
        return None;
    }
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "-t" || arg == "--target-directory" {
            return iter.next().map(String::as_str);
        }
        if let Some(dir) = arg.strip_prefix("--target-directory=") {
            return Some(dir);
        }
    }
    None
}

/// The sources of a copier: all positional words with `-t`, else all but the last.
fn sources<'a>(program: &str, args: &[String], positional: &[&'a String]) -> Vec<&'a String> {
    match (target_directory(program, args), positional.split_last()) {
        (Some(_), _) => positional.to_vec(),
        (None, Some((_, rest))) => rest.to_vec(),
        (None, None) => Vec::new(),
    }
}

/// A copier's destination, and the destination joined with each source's
/// name (the destination may be a directory).
fn copy_like(
    program: &str,
    args: &[String],
    positional: &[&String],
    out: &mut Vec<Target>,
    line: &str,
) {
    let dest = match target_directory(program, args) {
        Some(dir) => dir.to_owned(),
        None => match positional.last() {
            Some(last) if positional.len() >= 2 => (*last).clone(),
            _ => return,
        },
    };
    push(out, &dest, Act::Write, line);
    for source in sources(program, args, positional) {
        let name = source
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or_default();
        if !name.is_empty() {
            push(
                out,
                &format!("{}/{name}", dest.trim_end_matches('/')),
                Act::Write,
                line,
            );
        }
    }
}

/// Path-like words in an interpreter's inline script: `open('~/.bashrc', 'a')`.
fn inline_script(args: &[String], out: &mut Vec<Target>, line: &str) {
    let script = args
        .iter()
        .position(|a| {
            matches!(
                a.as_str(),
                "-c" | "-e" | "-E" | "--eval" | "-pe" | "-ne" | "-pie"
            )
        })
        .and_then(|i| args.get(i + 1));
    let Some(script) = script else {
        return;
    };
    let separators = |c: char| c.is_whitespace() || "'\"`(),;[]{}=+<>|&".contains(c);
    for token in script.split(separators) {
        if token.contains('/') || token.starts_with('~') || token.starts_with('.') {
            push(out, token, Act::Write, line);
        }
    }
}

/// Output redirections to files, at any depth, compound commands included.
fn redirections(command: &ShellCommand, out: &mut Vec<Target>) {
    let visit = |r: &Redirection, out: &mut Vec<Target>| {
        let output = matches!(r.op, ">" | ">>" | ">|" | "&>" | "&>>" | "<>");
        if output && !r.target.text.starts_with("/dev/") {
            let line = shorten(&format!("{} {}", r.op, r.target.text));
            push(out, &r.target.text, Act::Write, &line);
        }
    };
    for pipeline in &command.pipelines {
        for cmd in &pipeline.commands {
            match cmd {
                Command::Simple(simple) => {
                    for r in &simple.redirections {
                        visit(r, out);
                    }
                    let values = simple.assignments.iter().map(|a| &a.value);
                    for w in simple.words.iter().chain(values) {
                        for nested in &w.substitutions {
                            redirections(nested, out);
                        }
                    }
                    if let Some(script) = &simple.script {
                        redirections(script, out);
                    }
                }
                Command::Compound(compound) => {
                    for r in &compound.redirections {
                        visit(r, out);
                    }
                    for w in &compound.words {
                        for nested in &w.substitutions {
                            redirections(nested, out);
                        }
                    }
                    redirections(&compound.body, out);
                }
            }
        }
    }
}

/// Here-document bodies and words given to `apply_patch` run through the shell.
pub fn shell_patches(command: &str) -> Vec<String> {
    hookhost_policy_common::shell::of(command)
        .parsed
        .simple_commands()
        .filter(|c| c.program() == Some("apply_patch"))
        .flat_map(|c| {
            let bodies = c.redirections.iter().filter_map(|r| r.heredoc.clone());
            let words = c.args().iter().map(|w| w.text.clone());
            bodies.chain(words).collect::<Vec<_>>()
        })
        .collect()
}
