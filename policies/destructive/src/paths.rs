//! Where a word of a command line points, resolved the way the shell would:
//! `~`, `$HOME`, `${HOME}`, variables assigned earlier in the same line,
//! `$(mktemp …)`, relative paths against the working directory, `.` and `..`,
//! and patterns (`/*`, `.*`) kept as patterns so that the caller can ask which
//! entries they may match. Then [`classify`] says whether touching the result
//! is harmful.

use crate::{Places, Settings};
use std::collections::HashMap;

/// What a path word resolves to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolved {
    /// A concrete, absolute, normalised path.
    Path(String),
    /// A pattern: the entries of `base` that `pattern` matches, and `rest`
    /// below them (empty when the pattern is the last component).
    Glob {
        base: String,
        pattern: String,
        rest: String,
    },
    /// Not knowable here: an unknown expansion, or a relative path while the
    /// working directory is unknown.
    Unknown,
}

/// What a command does to a path, which decides what is harmful.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Deletes, truncates, moves or overwrites the path itself: harmful
    /// outside the project and temp directories, and on the project directory
    /// itself or its `.git`.
    Remove,
    /// Works on what is under the path (`find … -delete`, `chmod -R`,
    /// `git clean`): the project directory itself is fine, its `.git` is not.
    Modify,
    /// Writes to the path only as a device (`tee`, `cp`): harmful only on a
    /// disk device.
    DeviceOnly,
}

/// Values of variables assigned in the command line; `None` when a name has
/// several values or an unknown one.
pub type Vars = HashMap<String, Option<String>>;

/// How many variable values may be substituted into one word (`A=$B`, …).
const MAX_SUBSTITUTIONS: usize = 4;

/// Resolves `word` against `cwd` (`None`: unknown working directory).
pub fn resolve(word: &str, cwd: Option<&str>, places: &Places, vars: &Vars) -> Resolved {
    match expand(word, cwd, places, vars, 0) {
        Some(path) => normalize(&path),
        None => Resolved::Unknown,
    }
}

/// Substitutes a leading `~`, variable or `$(mktemp …)` and makes the path
/// absolute; `None` when any part of it stays an expansion.
fn expand(
    word: &str,
    cwd: Option<&str>,
    places: &Places,
    vars: &Vars,
    depth: usize,
) -> Option<String> {
    if depth > MAX_SUBSTITUTIONS {
        return None;
    }
    if word == "~" || word.starts_with("~/") {
        return expand_value(&places.home, &word[1..], cwd, places, vars, depth);
    }
    if let Some((name, rest)) = leading_variable(word) {
        let value = match name {
            "HOME" => places.home.clone(),
            "TMPDIR" => places.tmp.clone(),
            "PWD" => cwd?.to_owned(),
            _ => vars.get(name).cloned().flatten()?,
        };
        return expand_value(&value, rest, cwd, places, vars, depth);
    }
    if let Some(rest) = word.strip_prefix("$(mktemp")
        && let Some((args, rest)) = rest.split_once(')')
    {
        return expand_value(&mktemp_path(args, places)?, rest, cwd, places, vars, depth);
    }
    // A quoted `$` or backtick reads the same as an expansion here; treating
    // both as unknown errs on the side of blocking.
    if word.contains(['$', '`']) || word.starts_with('~') || word.is_empty() {
        return None;
    }
    if word.starts_with('/') {
        Some(word.to_owned())
    } else {
        Some(format!("{}/{word}", cwd?))
    }
}

fn expand_value(
    value: &str,
    rest: &str,
    cwd: Option<&str>,
    places: &Places,
    vars: &Vars,
    depth: usize,
) -> Option<String> {
    if value.is_empty() {
        return None;
    }
    expand(&format!("{value}{rest}"), cwd, places, vars, depth + 1)
}

/// `$NAME…` or `${NAME}…` at the start of `word`: the name and the rest.
fn leading_variable(word: &str) -> Option<(&str, &str)> {
    let after = word.strip_prefix('$')?;
    if let Some(braced) = after.strip_prefix('{') {
        let (name, rest) = braced.split_once('}')?;
        return is_name(name).then_some((name, rest));
    }
    let end = after
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(after.len());
    let name = &after[..end];
    is_name(name).then_some((name, &after[end..]))
}

fn is_name(text: &str) -> bool {
    text.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Where `mktemp ARGS` creates its file: the temp directory unless `-p DIR`,
/// `--tmpdir=DIR` or a template with a directory says otherwise (then
/// unknown, unless the directory is the temp directory).
pub fn mktemp_path(args: &str, places: &Places) -> Option<String> {
    let mut words = args.split_whitespace();
    while let Some(word) = words.next() {
        let dir = match word {
            "-p" | "--tmpdir" => words.next(),
            w if w.starts_with("--tmpdir=") => w.strip_prefix("--tmpdir="),
            w if w.starts_with('-') => continue,
            w if w.contains('/') => w.rsplit_once('/').map(|(dir, _)| dir),
            _ => continue,
        };
        return match dir {
            Some(d) if d == places.tmp || d == "$TMPDIR" || d == "/tmp" && places.tmp == "/tmp" => {
                Some(format!("{}/tmp.mktemp", places.tmp))
            }
            _ => None,
        };
    }
    (!places.tmp.is_empty()).then(|| format!("{}/tmp.mktemp", places.tmp))
}

/// Whether a path component holds a pattern character.
fn is_pattern(component: &str) -> bool {
    component.contains(['*', '?', '['])
}

/// Normalises an absolute path lexically (`.`, `..`, `//`), stopping at the
/// first pattern component.
pub fn normalize(path: &str) -> Resolved {
    let mut parts: Vec<&str> = Vec::new();
    let mut components = path.split('/').filter(|c| !c.is_empty());
    while let Some(component) = components.next() {
        match component {
            "." => {}
            ".." => {
                parts.pop();
            }
            c if is_pattern(c) => {
                let rest: Vec<&str> = components.collect();
                // `/tmp/*/../..` climbs out of wherever the pattern matched.
                if rest.contains(&"..") {
                    return Resolved::Unknown;
                }
                return Resolved::Glob {
                    base: join(&parts),
                    pattern: c.to_owned(),
                    rest: rest.join("/"),
                };
            }
            c => parts.push(c),
        }
    }
    Resolved::Path(join(&parts))
}

fn join(parts: &[&str]) -> String {
    format!("/{}", parts.join("/"))
}

/// `path` is `dir` or below it.
pub fn inside(path: &str, dir: &str) -> bool {
    if dir.is_empty() {
        return false;
    }
    path == dir || dir == "/" || path.strip_prefix(dir).is_some_and(|r| r.starts_with('/'))
}

/// `path` is strictly below `dir`.
pub fn below(path: &str, dir: &str) -> bool {
    path != dir && inside(path, dir)
}

/// Why touching `resolved` the way `kind` says is harmful: (rule, what).
pub fn classify(
    resolved: &Resolved,
    kind: Kind,
    places: &Places,
    settings: &Settings,
) -> Option<(&'static str, String)> {
    match resolved {
        Resolved::Unknown => (kind != Kind::DeviceOnly).then(|| {
            (
                "unknown-path",
                "a path whose value is not known here (counted as outside the project)".to_owned(),
            )
        }),
        Resolved::Path(path) => classify_path(path, kind, places, settings),
        Resolved::Glob {
            base,
            pattern,
            rest,
        } => classify_glob(base, pattern, rest, kind, places, settings),
    }
}

/// The block devices whose overwriting destroys a file system.
pub fn is_disk_device(path: &str) -> bool {
    let Some(name) = path.strip_prefix("/dev/") else {
        return false;
    };
    const DISKS: [&str; 13] = [
        "sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "md", "dm-", "mapper/", "loop",
        "sr",
    ];
    DISKS.iter().any(|d| name.starts_with(d)) || matches!(name, "mem" | "kmem" | "port")
}

/// Devices that are not storage: writing to them destroys nothing.
fn is_harmless_device(path: &str) -> bool {
    matches!(
        path,
        "/dev/null"
            | "/dev/zero"
            | "/dev/full"
            | "/dev/stdout"
            | "/dev/stderr"
            | "/dev/stdin"
            | "/dev/tty"
            | "/dev/random"
            | "/dev/urandom"
    ) || path.starts_with("/dev/fd/")
        || path.starts_with("/dev/pts/")
}

fn classify_path(
    path: &str,
    kind: Kind,
    places: &Places,
    settings: &Settings,
) -> Option<(&'static str, String)> {
    if is_disk_device(path) {
        return Some(("disk-device", format!("the disk device {path}")));
    }
    if kind == Kind::DeviceOnly || is_harmless_device(path) {
        return None;
    }
    let project = places.project.as_str();
    let git = format!("{project}/.git");
    if path == project && kind == Kind::Remove {
        return Some((
            "project-root",
            format!("the project directory {path} itself"),
        ));
    }
    if path == git {
        return Some(("git-dir", format!("the project's whole {path}")));
    }
    if inside(path, project) {
        return None;
    }
    if below(project, path) {
        return Some((
            "contains-project",
            format!("{path}, which holds the project"),
        ));
    }
    if below(path, &places.tmp) || settings.allow.iter().any(|dir| inside(path, dir)) {
        return None;
    }
    Some((
        "outside-project",
        format!("{path}, outside the project and temp directories"),
    ))
}

fn classify_glob(
    base: &str,
    pattern: &str,
    rest: &str,
    kind: Kind,
    places: &Places,
    settings: &Settings,
) -> Option<(&'static str, String)> {
    if kind == Kind::DeviceOnly {
        return (base == "/dev").then(|| {
            (
                "disk-device",
                format!("/dev/{pattern}: may match a disk device"),
            )
        });
    }
    let shown = if rest.is_empty() {
        format!("{}/{pattern}", base.trim_end_matches('/'))
    } else {
        format!("{}/{pattern}/{rest}", base.trim_end_matches('/'))
    };
    let project = places.project.as_str();
    if base == format!("{project}/.git") && rest.is_empty() {
        return Some((
            "git-dir",
            format!("{shown}: everything in the project's .git"),
        ));
    }
    if base == project && rest.is_empty() && glob_match(pattern, ".git") {
        return Some(("git-dir", format!("{shown}: matches the project's .git")));
    }
    if inside(base, project) {
        return None;
    }
    if let Some(next) = project
        .strip_prefix(base)
        .map(|r| r.trim_start_matches('/'))
        && below(project, base)
        && let Some(first) = next.split('/').next()
        && glob_match(pattern, first)
    {
        return Some((
            "contains-project",
            format!("{shown}: matches the directory holding the project"),
        ));
    }
    if inside(base, &places.tmp) && !places.tmp.is_empty()
        || settings.allow.iter().any(|dir| inside(base, dir))
    {
        return None;
    }
    Some((
        "outside-project",
        format!("{shown}, outside the project and temp directories"),
    ))
}

/// Whether the shell pattern `pattern` matches the file name `name`: `*`, `?`
/// and bracket expressions; a leading `.` must be matched explicitly.
pub fn glob_match(pattern: &str, name: &str) -> bool {
    // Bounded: a pathological pattern is assumed to match (errs on blocking).
    if pattern.len() > 256 || name.len() > 256 {
        return true;
    }
    if name.starts_with('.') && !pattern.starts_with('.') {
        return false;
    }
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        let step = match p.get(pi) {
            Some('*') => {
                star = Some((pi, ni));
                pi += 1;
                continue;
            }
            Some('?') => Some(pi + 1),
            Some('[') => bracket(&p, pi, n[ni]),
            Some(c) if *c == n[ni] => Some(pi + 1),
            _ => None,
        };
        match (step, star) {
            (Some(next), _) => {
                pi = next;
                ni += 1;
            }
            (None, Some((sp, sn))) => {
                pi = sp + 1;
                ni = sn + 1;
                star = Some((sp, sn + 1));
            }
            (None, None) => return false,
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

/// Matches `c` against the bracket expression starting at `p[at]` (`[`):
/// the index after it on a match; an unclosed `[` is a literal.
fn bracket(p: &[char], at: usize, c: char) -> Option<usize> {
    let mut i = at + 1;
    let negate = matches!(p.get(i), Some('!' | '^'));
    if negate {
        i += 1;
    }
    let mut matched = false;
    let mut first = true;
    while let Some(&x) = p.get(i) {
        if x == ']' && !first {
            return (matched != negate).then_some(i + 1);
        }
        first = false;
        if p.get(i + 1) == Some(&'-') && p.get(i + 2).is_some_and(|e| *e != ']') {
            let end = p[i + 2];
            matched |= x <= c && c <= end;
            i += 3;
        } else {
            matched |= x == c;
            i += 1;
        }
    }
    // No closing `]`: the `[` is an ordinary character.
    (c == '[').then_some(at + 1)
}
