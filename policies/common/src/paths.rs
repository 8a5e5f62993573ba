//! Paths resolved the way the shell resolves them, and matched against rules
//! whose parts may meet a glob pattern.
//!
//! A policy sees paths as the agent wrote them: `~/.ssh/id_rsa`,
//! `$HOME/.aws/credentials`, `../../home/u/.netrc`, `.env`. They are turned
//! into one normal absolute form (home and `cwd` filled in, `.` and `..`
//! folded) before any rule looks at them, so that no spelling slips past;
//! [`directories`] adds the directories a command `cd`s into. Symbolic links
//! cannot be seen from here and are not followed.

use hookhost_guest::shell::Reading;

/// `word` as an absolute, normal path: `~`, `~user` (the home's own user),
/// `$HOME`, `${HOME}`, `$PWD` and `$XDG_CONFIG_HOME` (its default) expanded,
/// relative paths joined to `cwd`. `None` when the path depends on something
/// unknown (another variable, another user's `~`).
pub fn resolve(word: &str, cwd: &str, home: &str) -> Option<String> {
    let word = word.trim();
    if word.is_empty() {
        return None;
    }
    let user = home.rsplit('/').find(|c| !c.is_empty()).unwrap_or_default();
    let expanded = if let Some(rest) = tilde(word, user) {
        format!("{home}/{rest}")
    } else if let Some(rest) = variable(word, "HOME") {
        format!("{home}/{rest}")
    } else if let Some(rest) = variable(word, "PWD") {
        format!("{cwd}/{rest}")
    } else if let Some(rest) = variable(word, "XDG_CONFIG_HOME") {
        format!("{home}/.config/{rest}")
    } else {
        word.to_owned()
    };
    if expanded.starts_with('~') || expanded.contains('$') || expanded.contains('`') {
        return None;
    }
    if expanded.starts_with('/') {
        Some(normalize(&expanded))
    } else {
        Some(normalize(&format!("{cwd}/{expanded}")))
    }
}

/// The rest of `word` after a leading `~` or `~user/` naming the home's user.
fn tilde<'a>(word: &'a str, user: &str) -> Option<&'a str> {
    let rest = word.strip_prefix('~')?;
    let (name, tail) = rest.split_once('/').unwrap_or((rest, ""));
    (name.is_empty() || (!user.is_empty() && name == user)).then_some(tail)
}

/// The rest of `word` after a leading `$NAME` or `${NAME}`.
fn variable<'a>(word: &'a str, name: &str) -> Option<&'a str> {
    let rest = word.strip_prefix('$')?;
    let tail = if let Some(braced) = rest.strip_prefix('{') {
        braced.strip_prefix(name)?.strip_prefix('}')?
    } else {
        let tail = rest.strip_prefix(name)?;
        // `$HOMEDIR` is another variable.
        if tail.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            return None;
        }
        tail
    };
    Some(tail.trim_start_matches('/'))
}

/// `path` with empty and `.` components dropped and `..` folded (`/..` is `/`).
pub fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    format!("/{}", parts.join("/"))
}

/// The components of a normal absolute path (none for `/`).
pub fn components(path: &str) -> Vec<&str> {
    path.split('/').filter(|c| !c.is_empty()).collect()
}

/// Whether a word holds characters that pathname expansion would act on.
pub fn is_glob(word: &str) -> bool {
    word.contains(['*', '?', '['])
}

/// Whether `name` matches the shell pattern `pattern` (`*`, `?`, `[…]`); like
/// the shell, a leading `.` in `name` must be matched by a literal `.`.
pub fn glob_match(pattern: &str, name: &str) -> bool {
    if name.starts_with('.') && !pattern.starts_with('.') {
        return false;
    }
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    // Iterative matching with one backtrack point per `*`: linear-ish and
    // without recursion, so a hostile pattern cannot blow the stack.
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ni));
                pi += 1;
            }
            Some(&c) if single_matches(&p, pi, c, n[ni]).is_some() => {
                pi = single_matches(&p, pi, c, n[ni]).unwrap_or(pi + 1);
                ni += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    pi = sp + 1;
                    ni = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    p.get(pi..).unwrap_or_default().iter().all(|&c| c == '*')
}

/// Whether pattern element `c` at `p[pi]` matches `ch`; the index after the
/// element when it does.
fn single_matches(p: &[char], pi: usize, c: char, ch: char) -> Option<usize> {
    match c {
        '?' => Some(pi + 1),
        '[' => {
            // An unclosed `[` is an ordinary character, as in the shell.
            let Some(close) = p
                .get(pi + 2..)
                .and_then(|rest| rest.iter().position(|&x| x == ']'))
                .map(|at| at + pi + 2)
            else {
                return (ch == '[').then_some(pi + 1);
            };
            let set = p.get(pi + 1..close)?;
            let (negate, set) = match set.split_first() {
                Some(('!' | '^', rest)) => (true, rest),
                _ => (false, set),
            };
            let mut hit = false;
            let mut i = 0;
            while i < set.len() {
                if set.get(i + 1) == Some(&'-') && i + 2 < set.len() {
                    hit |= set[i] <= ch && ch <= set[i + 2];
                    i += 3;
                } else {
                    hit |= set[i] == ch;
                    i += 1;
                }
            }
            (hit != negate).then_some(close + 1)
        }
        _ => (c == ch).then_some(pi + 1),
    }
}

/// One part of a path rule.
#[derive(Debug, Clone, Copy)]
pub enum Part {
    /// Exactly this name.
    Lit(&'static str),
    /// Any name starting with the prefix; the samples are names a pattern in
    /// the path is tried against.
    Prefix(&'static str, &'static [&'static str]),
    /// Any name at all.
    Any,
}

impl Part {
    /// Whether path component `comp` (a name or a glob pattern) may be this part.
    pub fn matches(self, comp: &str) -> bool {
        let glob = is_glob(comp);
        match self {
            Self::Lit(name) if glob => glob_match(comp, name),
            Self::Lit(name) => comp == name,
            Self::Prefix(_, samples) if glob => samples.iter().any(|s| glob_match(comp, s)),
            Self::Prefix(prefix, _) => comp.starts_with(prefix),
            Self::Any => !comp.is_empty(),
        }
    }
}

/// Whether `comps` are exactly `rule`, part by part.
pub fn matches_rule(comps: &[&str], rule: &[Part]) -> bool {
    comps.len() == rule.len() && comps.iter().zip(rule).all(|(c, p)| p.matches(c))
}

/// Whether `comps` start with `rule`, part by part.
pub fn starts_with_rule(comps: &[&str], rule: &[Part]) -> bool {
    comps.len() >= rule.len() && comps.iter().zip(rule).all(|(c, p)| p.matches(c))
}

/// Whether `comps` are a proper prefix of something `rule` matches: a
/// directory that holds such a path.
pub fn holds_rule(comps: &[&str], rule: &[Part]) -> bool {
    comps.len() < rule.len() && comps.iter().zip(rule).all(|(c, p)| p.matches(c))
}

/// The directories relative paths may be relative to: `cwd` and every
/// directory the command changes to (`cd`, `pushd`; `cd` alone is home).
pub fn directories(reading: &Reading, cwd: &str, home: &str) -> Vec<String> {
    let mut dirs = vec![cwd.to_owned()];
    for inv in &reading.invocations {
        if !matches!(inv.program(), Some("cd" | "pushd")) {
            continue;
        }
        let target = inv.args().iter().find(|a| !a.starts_with('-'));
        let found: Vec<String> = match target {
            None => vec![home.to_owned()],
            Some(t) => dirs.iter().filter_map(|d| resolve(t, d, home)).collect(),
        };
        for dir in found {
            // Bounded: a line with hundreds of `cd`s needs no more.
            if dirs.len() < 32 && !dirs.contains(&dir) {
                dirs.push(dir);
            }
        }
    }
    dirs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_like_the_shell() {
        let r = |w| resolve(w, "/work/proj", "/home/u");
        assert_eq!(r("~/.ssh/id_rsa").as_deref(), Some("/home/u/.ssh/id_rsa"));
        assert_eq!(r("~").as_deref(), Some("/home/u"));
        assert_eq!(r("~u/.netrc").as_deref(), Some("/home/u/.netrc"));
        assert_eq!(r("~bob/.netrc"), None);
        assert_eq!(r("$HOME/.aws").as_deref(), Some("/home/u/.aws"));
        assert_eq!(r("${HOME}/x").as_deref(), Some("/home/u/x"));
        assert_eq!(r("$HOMEDIR/x"), None);
        assert_eq!(r("../../home/u/./.env").as_deref(), Some("/home/u/.env"));
        assert_eq!(r(".env").as_deref(), Some("/work/proj/.env"));
        assert_eq!(r("/../../etc").as_deref(), Some("/etc"));
        assert_eq!(
            r("$XDG_CONFIG_HOME/gh").as_deref(),
            Some("/home/u/.config/gh")
        );
        assert_eq!(r(""), None);
    }

    #[test]
    fn globs() {
        assert!(glob_match("id_*", "id_rsa"));
        assert!(!glob_match("id_*.pub", "id_rsa"));
        assert!(glob_match("*", "id_rsa"));
        assert!(!glob_match("*", ".env"));
        assert!(glob_match(".env*", ".env"));
        assert!(glob_match("[i]d_rs?", "id_rsa"));
        assert!(glob_match("[!x]d_rsa", "id_rsa"));
        assert!(glob_match("cred*s", "credentials"));
        assert!(glob_match("[", "["));
        assert!(glob_match("**a**b**", "xaxb"));
    }
}
