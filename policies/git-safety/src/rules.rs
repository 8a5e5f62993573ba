//! The rules, applied to one `git` invocation: force pushes, mirror pushes
//! and deletions of protected branches, skipped hooks, history rewrites and
//! configuration that moves or replaces hooks.

use crate::git::{GitCall, dangerous_key, long_option, parse, short_flags};

/// Reads the current branch of the repository a call made in a directory
/// works on: `Ok(None)` for a detached HEAD, `Err` when it cannot be read.
pub type BranchOf<'a> = &'a dyn Fn(&str, &GitCall<'_>) -> Result<Option<String>, String>;

/// What a rule needs besides the invocation.
pub struct Context<'a> {
    /// The protected branch names.
    pub protected: &'a [String],
    /// The current branch of the repository a call made in directory `cwd`
    /// works on: `Ok(None)` for a detached HEAD, `Err` when it cannot be read.
    pub branch: BranchOf<'a>,
    /// The directory the call runs in.
    pub cwd: &'a str,
    /// The home directory (for `cd ~` and `-C ~/x`).
    pub home: &'a str,
    /// How many aliases deep the check is (aliases may expand to aliases).
    pub depth: usize,
    /// The command as written, for the block reason.
    pub line: &'a str,
}

/// How many alias expansions are followed.
const MAX_ALIAS_DEPTH: usize = 4;

/// Why a `git` call is blocked, or `None`.
pub fn check(call: &GitCall<'_>, ctx: &Context<'_>) -> Option<String> {
    let line = ctx.line;
    for config in &call.configs {
        let key = config.split_once('=').map_or(*config, |(k, _)| k);
        if dangerous_key(key) {
            return Some(format!("hooks-config: `{line}` sets {key} for the command"));
        }
    }
    if let Some(reason) = alias(call, ctx) {
        return Some(reason);
    }
    match call.sub {
        "push" => push(call, ctx),
        "commit" => no_verify(call.args, Some('n'), &['m', 'F', 'c', 'C', 't'])
            .then(|| format!("no-verify: `{line}` skips the commit hooks")),
        "merge" | "am" | "rebase" | "cherry-pick" | "revert" => no_verify(call.args, None, &[])
            .then(|| format!("no-verify: `{line}` skips the git hooks")),
        "filter-branch" | "filter-repo" => Some(format!(
            "history-rewrite: `{line}` rewrites the repository's history"
        )),
        "config" => config(call.args, ctx),
        _ => None,
    }
}

/// `git -c alias.NAME=VALUE NAME …`: the alias's expansion is checked in its place.
fn alias(call: &GitCall<'_>, ctx: &Context<'_>) -> Option<String> {
    let value = call.configs.iter().rev().find_map(|c| {
        let (key, value) = c.split_once('=')?;
        let name = key.get(..6).filter(|p| p.eq_ignore_ascii_case("alias."))?;
        (key.get(name.len()..)? == call.sub).then_some(value)
    })?;
    expansion(value, call.args, ctx)
}

/// Checks what an alias `value` runs with `args` after it.
fn expansion(value: &str, args: &[String], ctx: &Context<'_>) -> Option<String> {
    if ctx.depth >= MAX_ALIAS_DEPTH {
        return Some(format!(
            "hooks-config: `{}` nests aliases too deeply to check",
            ctx.line
        ));
    }
    let inner = Context {
        depth: ctx.depth + 1,
        ..*ctx
    };
    if let Some(script) = value.strip_prefix('!') {
        return crate::check_shell(script, &inner);
    }
    let words: Vec<String> = value
        .split_whitespace()
        .map(str::to_owned)
        .chain(args.iter().cloned())
        .collect();
    check(&parse(&words), &inner)
}

/// Whether `args` hold `--no-verify` (abbreviations included) or, when given,
/// the short flag for it in a cluster (`-anm msg`).
fn no_verify(args: &[String], short: Option<char>, takes_value: &[char]) -> bool {
    let known = ["no-verify", "no-verbose", "verify", "verbose"];
    let mut skip = false;
    for arg in args {
        if skip {
            skip = false;
            continue;
        }
        if arg == "--" {
            break;
        }
        if arg.starts_with("--") {
            if long_option(arg, &known) == Some("no-verify") {
                return true;
            }
            continue;
        }
        let flags = short_flags(arg, takes_value);
        if short.is_some_and(|s| flags.contains(s)) {
            return true;
        }
        // `-m MSG`: the next word is the value, not an option.
        skip = flags.ends_with(takes_value) && flags.len() == arg.len() - 1;
    }
    false
}

/// The options of `git push` that matter here, and the rest of its long options
/// (so that abbreviations resolve as git resolves them).
const PUSH_LONG: &[&str] = &[
    "force",
    "force-with-lease",
    "force-if-includes",
    "mirror",
    "delete",
    "no-verify",
    "verify",
    "dry-run",
    "all",
    "branches",
    "tags",
    "follow-tags",
    "repo",
    "push-option",
    "receive-pack",
    "exec",
    "set-upstream",
    "quiet",
    "verbose",
    "progress",
    "prune",
    "atomic",
    "signed",
    "porcelain",
    "recurse-submodules",
    "thin",
    "ipv4",
    "ipv6",
    "no-force-with-lease",
    "no-atomic",
    "no-follow-tags",
    "no-force-if-includes",
    "no-signed",
    "no-thin",
    "no-progress",
    "no-recurse-submodules",
];

/// The parsed options and operands of `git push`.
#[derive(Debug, Default)]
struct Push<'a> {
    force: bool,
    mirror: bool,
    delete: bool,
    no_verify: bool,
    dry_run: bool,
    all: bool,
    repo_option: bool,
    operands: Vec<&'a str>,
}

fn parse_push(args: &[String]) -> Push<'_> {
    let mut push = Push::default();
    let mut i = 0;
    let mut options_done = false;
    while let Some(arg) = args.get(i) {
        i += 1;
        if options_done || !arg.starts_with('-') || arg == "-" {
            push.operands.push(arg);
            continue;
        }
        if arg == "--" {
            options_done = true;
            continue;
        }
        if arg.starts_with("--") {
            let name = long_option(arg, PUSH_LONG).unwrap_or_default();
            match name {
                "force" | "force-with-lease" => push.force = true,
                "mirror" => push.mirror = true,
                "delete" => push.delete = true,
                "no-verify" => push.no_verify = true,
                "dry-run" => push.dry_run = true,
                "all" | "branches" => push.all = true,
                "repo" => push.repo_option = true,
                _ => {}
            }
            let takes_value = matches!(name, "repo" | "push-option" | "receive-pack" | "exec");
            if takes_value && !arg.contains('=') {
                i += 1;
            }
            continue;
        }
        let flags = short_flags(arg, &['o']);
        push.force |= flags.contains('f');
        push.delete |= flags.contains('d');
        push.dry_run |= flags.contains('n');
        if flags.ends_with('o') && flags.len() == arg.len() - 1 {
            i += 1;
        }
    }
    push
}

/// The push rules.
fn push(call: &GitCall<'_>, ctx: &Context<'_>) -> Option<String> {
    let line = ctx.line;
    let push = parse_push(call.args);
    if push.no_verify {
        return Some(format!("no-verify: `{line}` skips the pre-push hook"));
    }
    if push.dry_run {
        return None;
    }
    if push.mirror {
        return Some(format!(
            "mirror-push: `{line}` overwrites and deletes every remote branch"
        ));
    }
    let refspecs = if push.repo_option {
        &push.operands[..]
    } else {
        push.operands.get(1..).unwrap_or_default()
    };
    if refspecs.is_empty() {
        return implied_push(call, &push, ctx);
    }
    for spec in refspecs {
        if let Some(reason) = refspec(spec, call, &push, ctx) {
            return Some(reason);
        }
    }
    None
}

/// A push without refspecs: it pushes the current branch (or all of them).
fn implied_push(call: &GitCall<'_>, push: &Push<'_>, ctx: &Context<'_>) -> Option<String> {
    let line = ctx.line;
    if !push.force || push.delete {
        return None;
    }
    if push.all {
        return Some(format!(
            "force-push: `{line}` force-pushes every branch, protected ones included"
        ));
    }
    match (ctx.branch)(ctx.cwd, call) {
        Ok(Some(branch)) if is_protected(&branch, ctx) => Some(format!(
            "force-push: `{line}` force-pushes the current branch `{branch}`, which is protected"
        )),
        Ok(_) => None,
        Err(why) => Some(format!(
            "force-push: `{line}` force-pushes the current branch, and the policy cannot tell which it is ({why})"
        )),
    }
}

/// The rules for one refspec of a push.
fn refspec(spec: &str, call: &GitCall<'_>, push: &Push<'_>, ctx: &Context<'_>) -> Option<String> {
    let line = ctx.line;
    let forced = push.force || spec.starts_with('+');
    let spec = spec.trim_start_matches('+');
    if spec.contains('$') || spec.contains('`') {
        return (forced || push.delete).then(|| {
            format!("force-push: `{line}` pushes to `{spec}`, an expansion the policy cannot read")
        });
    }
    let (deletes, dst) = match spec.split_once(':') {
        Some(("", dst)) => (true, dst),
        Some((_, dst)) => (push.delete, dst),
        None => (push.delete, spec),
    };
    let dst = match dst {
        "HEAD" | "@" | "" => match (ctx.branch)(ctx.cwd, call) {
            Ok(Some(branch)) => branch,
            Ok(None) => return None,
            Err(why) if forced || deletes => {
                return Some(format!(
                    "force-push: `{line}` pushes HEAD, and the policy cannot tell which branch it is ({why})"
                ));
            }
            Err(_) => return None,
        },
        other => branch_name(other).to_owned(),
    };
    if !is_protected(&dst, ctx) {
        return None;
    }
    if deletes {
        return Some(format!(
            "delete-branch: `{line}` deletes the protected branch `{dst}`"
        ));
    }
    forced.then(|| format!("force-push: `{line}` rewrites the protected branch `{dst}`"))
}

/// A ref's branch name: `refs/heads/main` → `main`; other refs stay whole.
fn branch_name(reference: &str) -> &str {
    reference
        .strip_prefix("refs/heads/")
        .or_else(|| reference.strip_prefix("heads/"))
        .unwrap_or(reference)
}

/// Whether `branch` is protected; a wildcard refspec may be any branch.
fn is_protected(branch: &str, ctx: &Context<'_>) -> bool {
    branch.contains('*') || ctx.protected.iter().any(|p| p == branch)
}

/// Options of `git config` that read or remove rather than set.
const CONFIG_READS: &[&str] = &[
    "--get",
    "--get-all",
    "--get-regexp",
    "--get-urlmatch",
    "--get-color",
    "--get-colorbool",
    "--list",
    "-l",
    "--unset",
    "--unset-all",
    "--rename-section",
    "--remove-section",
    "--show-origin",
    "--name-only",
];

/// Options of `git config` that take the next word as their value.
const CONFIG_VALUES: &[&str] = &[
    "--file",
    "-f",
    "--blob",
    "--type",
    "--default",
    "--comment",
    "--value",
    "-t",
];

/// `git config KEY VALUE` (and `git config set KEY VALUE`) of a key that moves
/// or replaces hooks, or of an alias that would be blocked.
fn config(args: &[String], ctx: &Context<'_>) -> Option<String> {
    let mut operands: Vec<&str> = Vec::new();
    let mut skip = false;
    for arg in args {
        if skip {
            skip = false;
        } else if CONFIG_READS.contains(&arg.as_str()) {
            return None;
        } else if CONFIG_VALUES.contains(&arg.as_str()) {
            skip = true;
        } else if !arg.starts_with('-') {
            operands.push(arg);
        }
    }
    let (key, value) = match operands.as_slice() {
        ["set", key, value, ..] => (*key, *value),
        [
            "get" | "unset" | "list" | "rename-section" | "remove-section" | "edit",
            ..,
        ] => {
            return None;
        }
        [key, value, ..] => (*key, *value),
        _ => return None,
    };
    if dangerous_key(key) {
        return Some(format!(
            "hooks-config: `{}` sets {key}, which moves or replaces git hooks",
            ctx.line
        ));
    }
    key.get(..6).filter(|p| p.eq_ignore_ascii_case("alias."))?;
    // An alias is defined now and run later, on a branch unknown now.
    let later = Context {
        branch: &|_, _| Err("an alias runs later, on any branch".to_owned()),
        ..*ctx
    };
    expansion(value, &[], &later).map(|why| {
        format!(
            "hooks-config: `{}` defines an alias that would be blocked: {why}",
            ctx.line
        )
    })
}
