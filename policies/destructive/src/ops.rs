//! Which arguments of a program are paths it deletes, truncates, moves or
//! overwrites: per program, because `rm` takes every operand, `chmod -R` all
//! but the mode, `mv -t DIR` a directory in an option, `dd` an `of=` operand.

use crate::paths::Kind;

/// A word a program destroys or overwrites, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The path as written (quotes removed).
    pub word: String,
    /// What the program does to it.
    pub kind: Kind,
}

/// Programs that delete, overwrite or truncate every operand.
const REMOVERS: &[&str] = &["rm", "unlink", "rmdir", "srm", "wipe", "shred", "truncate"];

/// Programs that write file systems or partition tables onto devices.
const FORMATTERS: &[&str] = &[
    "wipefs",
    "blkdiscard",
    "mkswap",
    "mke2fs",
    "mkdosfs",
    "mkntfs",
    "fdisk",
    "sfdisk",
    "cfdisk",
    "parted",
    "sgdisk",
    "gdisk",
    "cryptsetup",
];

/// Whether `program` (a base name) is one this policy reads the targets of.
pub fn is_destructive(program: &str) -> bool {
    REMOVERS.contains(&program)
        || FORMATTERS.contains(&program)
        || program.starts_with("mkfs")
        || program == "mv"
}

/// The options of `program` whose value is the next word.
fn value_options(program: &str) -> &'static [&'static str] {
    match program {
        "shred" => &["-n", "-s", "--iterations", "--size", "--random-source"],
        "truncate" => &["-s", "-r", "--size", "--reference"],
        "mv" | "cp" => &["-t", "-S", "--target-directory", "--suffix"],
        "install" => &[
            "-m", "-o", "-g", "-t", "-S", "--mode", "--owner", "--group", "--suffix",
        ],
        "tee" | "pv" => &[
            "-s",
            "-L",
            "-i",
            "-N",
            "--size",
            "--rate-limit",
            "--interval",
            "--name",
        ],
        _ => &[],
    }
}

/// The operands of `args`: not options, not option values, everything after `--`.
pub fn operands<'a>(args: &'a [String], value_options: &[&str]) -> Vec<&'a String> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut options_done = false;
    while let Some(arg) = args.get(i) {
        i += 1;
        if options_done || arg == "-" || !arg.starts_with('-') {
            out.push(arg);
        } else if arg == "--" {
            options_done = true;
        } else if value_options.contains(&arg.as_str()) {
            i += 1;
        }
    }
    out
}

/// The value of option `short`/`long` (`-t DIR`, `-tDIR`, `--long=DIR`, `--long DIR`).
fn option_value<'a>(args: &'a [String], short: &str, long: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        if arg == "--" {
            break;
        }
        if arg == short || arg == long {
            out.extend(args.get(i + 1).map(String::as_str));
        } else if let Some(v) = arg.strip_prefix(long).and_then(|r| r.strip_prefix('=')) {
            out.push(v);
        } else if let Some(v) = arg
            .strip_prefix(short)
            .filter(|v| !v.is_empty() && !arg.starts_with("--"))
        {
            out.push(v);
        }
    }
    out
}

fn all(words: Vec<&String>, kind: Kind) -> Vec<Target> {
    words
        .into_iter()
        .map(|w| Target {
            word: w.clone(),
            kind,
        })
        .collect()
}

/// The paths `program` with `args` destroys, moves or overwrites.
pub fn targets(program: &str, args: &[String]) -> Vec<Target> {
    match program {
        p if REMOVERS.contains(&p) => all(operands(args, value_options(p)), Kind::Remove),
        p if FORMATTERS.contains(&p) || p.starts_with("mkfs") || p == "mke2fs" => all(
            operands(args, &["-t", "-L", "-b", "-N", "-O", "-E", "-U", "-n"]),
            Kind::Remove,
        ),
        "mv" => {
            let mut out = all(operands(args, value_options("mv")), Kind::Remove);
            for dir in option_value(args, "-t", "--target-directory") {
                out.push(Target {
                    word: dir.to_owned(),
                    kind: Kind::Remove,
                });
            }
            out
        }
        "dd" => args
            .iter()
            .filter_map(|a| a.strip_prefix("of="))
            .map(|w| Target {
                word: w.to_owned(),
                kind: Kind::Remove,
            })
            .collect(),
        "chmod" | "chown" | "chgrp" if recursive(args) => {
            let mut words = operands(args, &["--reference"]);
            // The first operand is the mode or owner, unless `--reference` gives it.
            if !args.iter().any(|a| a.starts_with("--reference")) && !words.is_empty() {
                words.remove(0);
            }
            all(words, Kind::Modify)
        }
        "rsync"
            if args
                .iter()
                .any(|a| a.starts_with("--delete") || a == "--remove-source-files") =>
        {
            let words = operands(
                args,
                &["-e", "--rsh", "-f", "--filter", "--exclude", "--include"],
            );
            let local = words
                .into_iter()
                .filter(|w| !w.contains(':'))
                .collect::<Vec<_>>();
            all(local.into_iter().last().into_iter().collect(), Kind::Remove)
        }
        "tee" | "cp" | "install" | "pv" => {
            all(operands(args, value_options(program)), Kind::DeviceOnly)
        }
        _ => Vec::new(),
    }
}

/// `-R`, `--recursive` or a short cluster holding `R`.
fn recursive(args: &[String]) -> bool {
    args.iter().take_while(|a| *a != "--").any(|a| {
        a == "--recursive" || (a.starts_with('-') && !a.starts_with("--") && a.contains('R'))
    })
}

/// Where `find ARGS` starts: its operands before the expression (`.` when
/// there are none), and the index where the expression starts.
fn find_split(args: &[String]) -> (Vec<String>, usize) {
    let mut i = 0;
    // Leading options: `-H`, `-L`, `-P`, `-D opts`, `-O3`.
    while let Some(arg) = args.get(i) {
        match arg.as_str() {
            "-H" | "-L" | "-P" => i += 1,
            "-D" => i += 2,
            a if a.starts_with("-O") => i += 1,
            _ => break,
        }
    }
    let mut roots = Vec::new();
    while let Some(arg) = args.get(i) {
        if arg.starts_with('-') || matches!(arg.as_str(), "(" | "!" | ")" | ",") {
            break;
        }
        roots.push(arg.clone());
        i += 1;
    }
    if roots.is_empty() {
        roots.push(".".to_owned());
    }
    (roots, i)
}

/// The start points of `find ARGS`.
pub fn find_roots(args: &[String]) -> Vec<String> {
    find_split(args).0
}

/// The start points of `find ARGS` when it deletes what it finds:
/// `-delete`, or `-exec`/`-execdir`/`-ok` running a destructive program or a
/// shell script that mentions one.
pub fn find_targets(args: &[String]) -> Vec<Target> {
    let (roots, start) = find_split(args);
    let expression = args.get(start..).unwrap_or_default();
    let deletes = expression.iter().enumerate().any(|(j, a)| {
        a == "-delete"
            || (matches!(a.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir")
                && expression
                    .get(j + 1)
                    .is_some_and(|p| runs_destructive(p, expression.get(j + 2..))))
    });
    if !deletes {
        return Vec::new();
    }
    // Without a test (`-name`, `-type`, …) it deletes everything it walks.
    let mut in_exec = false;
    let filtered = expression.iter().any(|a| {
        if in_exec {
            in_exec = !matches!(a.as_str(), ";" | "+");
            return false;
        }
        in_exec = matches!(a.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir");
        a.starts_with('-')
            && !matches!(
                a.as_str(),
                "-delete"
                    | "-exec"
                    | "-execdir"
                    | "-ok"
                    | "-okdir"
                    | "-print"
                    | "-print0"
                    | "-depth"
                    | "-d"
                    | "-mindepth"
                    | "-maxdepth"
                    | "-xdev"
                    | "-mount"
                    | "-ignore_readdir_race"
                    | "-noleaf"
            )
    });
    let kind = if filtered { Kind::Modify } else { Kind::Remove };
    roots
        .into_iter()
        .map(|word| Target { word, kind })
        .collect()
}

/// Whether an `-exec` command runs a destructive program: directly, or as a
/// shell script that mentions one.
fn runs_destructive(program: &str, rest: Option<&[String]>) -> bool {
    let name = program.rsplit('/').next().unwrap_or(program);
    if is_destructive(name) {
        return true;
    }
    let script: Vec<&str> = rest
        .unwrap_or_default()
        .iter()
        .map(String::as_str)
        .collect();
    crate::context::mentions_destructive(&script.join(" ")).is_some()
}

/// The directory `git ARGS` cleans when it is `git clean --force` (not a dry
/// run): `-C DIR` (cumulative) or `--work-tree=DIR`, else the working directory.
pub fn git_clean_target(args: &[String]) -> Option<Target> {
    let mut dir = String::from(".");
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        i += 1;
        match arg.as_str() {
            "-C" => {
                let next = args.get(i)?;
                i += 1;
                dir = if next.starts_with('/') || next.starts_with('~') || next.starts_with('$') {
                    next.clone()
                } else {
                    format!("{dir}/{next}")
                };
            }
            "-c" | "--git-dir" | "--namespace" | "--exec-path" => i += 1,
            "--work-tree" => {
                dir = args.get(i)?.clone();
                i += 1;
            }
            a if a.starts_with("--work-tree=") => dir = a["--work-tree=".len()..].to_owned(),
            a if a.starts_with('-') => {}
            "clean" => break,
            _ => return None,
        }
    }
    if args.get(i.checked_sub(1)?)? != "clean" {
        return None;
    }
    let flags = args.get(i..).unwrap_or_default();
    let short = |c: char| {
        flags
            .iter()
            .any(|a| a.starts_with('-') && !a.starts_with("--") && a.contains(c))
    };
    let force = short('f') || flags.iter().any(|a| a == "--force");
    let dry = short('n') || flags.iter().any(|a| a == "--dry-run");
    (force && !dry).then_some(Target {
        word: dir,
        kind: Kind::Modify,
    })
}
