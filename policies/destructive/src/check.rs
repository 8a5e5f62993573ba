//! The check of one shell command line: every program it runs (through
//! wrappers, `sh -c`, `eval`, `find -exec`, `xargs`), in order, with the
//! working directory followed through `cd`; then every redirection; then, if
//! the shell reading is unsure and the line mentions a destructive program, a
//! block saying it cannot be checked.

use crate::context::{Producer, collect_producers, collect_vars, mentions_destructive};
use crate::ops::{Target, find_targets, git_clean_target, is_destructive, operands, targets};
use crate::paths::{Kind, Resolved, Vars, classify, is_disk_device, resolve};
use crate::{Places, Settings, TAG};
use hookhost_guest::shell::{self, Command, Invocation, Redirection, ShellCommand};
use std::collections::HashMap;

/// How much of a command a block reason quotes.
const SHOWN_CHARS: usize = 160;

/// Everything one command line's checks share.
struct Line<'a> {
    places: &'a Places,
    settings: &'a Settings,
    vars: Vars,
    producers: HashMap<String, Producer>,
    /// Some program fills in names (`find -exec`, `xargs`): `{}`, `$1`, `"$@"`
    /// are its names, checked through its producer.
    fed: bool,
}

/// The block reason for shell command `command` run in `cwd`, if any.
pub fn check_command(
    command: &str,
    cwd: &str,
    places: &Places,
    settings: &Settings,
) -> Option<String> {
    let shell = hookhost_policy_common::shell::of(command);
    let (parsed, reading) = (&shell.parsed, &shell.reading);
    let fed = reading.invocations.iter().any(|inv| {
        inv.programs().any(|p| p == "xargs")
            || (inv.program() == Some("find")
                && inv
                    .args()
                    .iter()
                    .any(|a| a.starts_with("-exec") || a.starts_with("-ok")))
    });
    let line = Line {
        places,
        settings,
        vars: collect_vars(parsed, places),
        producers: collect_producers(parsed),
        fed,
    };
    let mut dir = Some(cwd.to_owned());
    for inv in &reading.invocations {
        if let Some(reason) = check_invocation(inv, &mut dir, &line) {
            return Some(reason);
        }
    }
    if let Some(reason) = check_redirections(parsed, cwd, &line, 0) {
        return Some(reason);
    }
    if !reading.unsure.is_empty()
        && let Some(name) = mentions_destructive(command)
    {
        return Some(format!(
            "{TAG}: unchecked: the command mentions `{name}` but cannot be checked: {}",
            reading.unsure.join("; ")
        ));
    }
    None
}

/// `text` cut to [`SHOWN_CHARS`] characters.
pub fn shorten(text: &str) -> String {
    hookhost_policy_common::shorten(text, SHOWN_CHARS)
}

/// What `program` does to its targets, for the block reason.
fn verb(program: &str) -> &'static str {
    match program {
        "rm" | "unlink" | "rmdir" | "srm" => "deletes",
        "shred" | "wipe" => "shreds",
        "truncate" => "truncates",
        "mv" => "moves",
        "dd" | "tee" | "cp" | "install" | "pv" => "overwrites",
        "chmod" => "recursively changes the mode of",
        "chown" | "chgrp" => "recursively changes the owner of",
        "find" => "deletes files under",
        "git" => "deletes untracked files in",
        "rsync" => "deletes files in",
        _ => "wipes or formats",
    }
}

/// How `program` treats the names `xargs` gives it.
fn program_kind(program: &str) -> Kind {
    match program {
        "chmod" | "chown" | "chgrp" | "find" | "git" => Kind::Modify,
        "tee" | "cp" | "install" | "pv" => Kind::DeviceOnly,
        _ => Kind::Remove,
    }
}

fn check_invocation(inv: &Invocation, dir: &mut Option<String>, line: &Line) -> Option<String> {
    let program = inv.program()?;
    let args = inv.args();
    match program {
        "cd" | "pushd" => {
            *dir = change_dir(args, dir.as_deref(), line);
            return None;
        }
        "popd" => {
            *dir = None;
            return None;
        }
        _ => {}
    }
    let mut found = match program {
        "find" => find_targets(args),
        "git" => git_clean_target(args).into_iter().collect(),
        _ => targets(program, args),
    };
    let via_xargs = inv.programs().any(|p| p == "xargs");
    if via_xargs && (is_destructive(program) || !found.is_empty()) {
        match line.producers.get(&inv.written) {
            Some(Producer::Paths(paths, kind)) => {
                let kind = match (program_kind(program), kind) {
                    (Kind::DeviceOnly, _) => Kind::DeviceOnly,
                    (_, Kind::Modify) => Kind::Modify,
                    (own, _) => own,
                };
                found.extend(paths.iter().map(|word| Target {
                    word: word.clone(),
                    kind,
                }));
            }
            Some(Producer::Unknown(what)) => {
                return Some(format!(
                    "{TAG}: unchecked: `{}` {} the names `{}` prints, which cannot be checked",
                    shorten(&inv.written),
                    verb(program),
                    shorten(what)
                ));
            }
            None => {
                return Some(format!(
                    "{TAG}: unchecked: `{}` {} names read from its input, which cannot be checked",
                    shorten(&inv.written),
                    verb(program)
                ));
            }
        }
    }
    for target in found {
        if is_placeholder(&target.word, line.fed) {
            continue;
        }
        let resolved = resolve(&target.word, dir.as_deref(), line.places, &line.vars);
        if let Some((rule, what)) = classify(&resolved, target.kind, line.places, line.settings) {
            return Some(format!(
                "{TAG}: {rule}: `{}` {} {what}",
                shorten(&inv.written),
                verb(program)
            ));
        }
    }
    None
}

/// Words a feeding program replaces: `{}` of `find -exec` and `xargs -I{}`,
/// and a script's positional parameters when a feeder runs it.
fn is_placeholder(word: &str, fed: bool) -> bool {
    if word == "{}" {
        return true;
    }
    let positional = |name: &str| {
        name.len() == 1
            && name
                .chars()
                .all(|c| c.is_ascii_digit() || c == '@' || c == '*')
    };
    fed && word
        .strip_prefix('$')
        .map(|name| {
            name.strip_prefix('{')
                .and_then(|n| n.strip_suffix('}'))
                .unwrap_or(name)
        })
        .is_some_and(positional)
}

/// The working directory after `cd ARGS`; `None` when it is not known.
fn change_dir(args: &[String], dir: Option<&str>, line: &Line) -> Option<String> {
    let target = operands(args, &[]).into_iter().next();
    let word = match target.map(String::as_str) {
        None => return (!line.places.home.is_empty()).then(|| line.places.home.clone()),
        Some("-") => return None,
        Some(word) => word,
    };
    match resolve(word, dir, line.places, &line.vars) {
        Resolved::Path(path) => Some(path),
        _ => None,
    }
}

/// Redirections that write to a disk device (`> /dev/sda`), at any depth.
fn check_redirections(
    parsed: &ShellCommand,
    cwd: &str,
    line: &Line,
    depth: usize,
) -> Option<String> {
    if depth > shell::MAX_DEPTH {
        return None;
    }
    for pipeline in &parsed.pipelines {
        for cmd in &pipeline.commands {
            let (redirections, nested): (&[Redirection], Vec<&ShellCommand>) = match cmd {
                Command::Simple(simple) => {
                    let mut nested: Vec<&ShellCommand> =
                        simple.script.as_deref().into_iter().collect();
                    for w in simple
                        .words
                        .iter()
                        .chain(simple.assignments.iter().map(|a| &a.value))
                    {
                        nested.extend(&w.substitutions);
                    }
                    (&simple.redirections, nested)
                }
                Command::Compound(compound) => (&compound.redirections, vec![&compound.body]),
            };
            for r in redirections {
                if let Some(reason) = check_redirection(r, cwd, line) {
                    return Some(reason);
                }
                for nested in &r.target.substitutions {
                    if let Some(reason) = check_redirections(nested, cwd, line, depth + 1) {
                        return Some(reason);
                    }
                }
            }
            for body in nested {
                if let Some(reason) = check_redirections(body, cwd, line, depth + 1) {
                    return Some(reason);
                }
            }
        }
    }
    None
}

fn check_redirection(r: &Redirection, cwd: &str, line: &Line) -> Option<String> {
    let writes = matches!(r.op, ">" | ">>" | ">|" | "&>" | "&>>" | "<>" | ">&");
    let target = r.target.literal()?;
    if !writes || target.chars().all(|c| c.is_ascii_digit() || c == '-') {
        return None;
    }
    let hit = match resolve(target, Some(cwd), line.places, &line.vars) {
        Resolved::Path(path) => is_disk_device(&path),
        Resolved::Glob { base, .. } => base == "/dev",
        Resolved::Unknown => false,
    };
    hit.then(|| {
        format!(
            "{TAG}: disk-device: `{} {}` writes to a disk device",
            r.op,
            shorten(&r.target.written)
        )
    })
}
