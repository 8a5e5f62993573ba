//! Path patterns of `Read`/`Edit`/`Write`/… rules: gitignore syntax under an anchor,
//! as Claude Code's permissions page ("Read and Edit") and hooks reference
//! ("Common fields", v2.1.214 and later) describe them.
//!
//! * Anchors: `//path` the filesystem root, `~/path` the home directory, `/path` the
//!   settings source's directory ([`super::Rule::with_settings_dir`], else the
//!   `cwd`), `path` or `./path` the `cwd`. A rule matches only files under its anchor;
//!   leading `../` segments move the anchor up.
//! * Within the anchor, gitignore: a pattern with no `/` but a trailing one (`.env`,
//!   `*.ts`, `secrets/`) matches at any depth; any other (`src/**`,
//!   `src/components/*.ts`) from the anchor; `*` and `?` and `[...]` stay within one
//!   segment, `**` spans segments; a trailing `/` matches directories only; a matched
//!   directory covers everything under it.
//! * The call's path is made absolute against the `cwd` (a leading `~/` against the
//!   home directory) and `.`/`..` resolved lexically; when the file exists its resolved
//!   path is tried too (Claude checks both a symlink and its target).

use std::path::{Component, Path, PathBuf};

/// Where a rule's relative parts resolve, for one call.
pub(super) struct Places<'a> {
    pub(super) cwd: &'a Path,
    pub(super) home: Option<&'a Path>,
    pub(super) settings: Option<&'a Path>,
}

/// A compiled path pattern.
#[derive(Debug, Clone)]
pub(super) struct PathPattern {
    anchor: Anchor,
    /// Leading `..` segments: the anchor's ancestor to start from.
    up: usize,
    segments: Vec<Segment>,
    dir_only: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Anchor {
    Root,
    Home,
    Settings,
    Cwd,
}

#[derive(Debug, Clone)]
enum Segment {
    /// `**`: any number of segments, none included.
    Any,
    Glob(Vec<Token>),
}

#[derive(Debug, Clone)]
enum Token {
    Star,
    One,
    Char(char),
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
}

impl PathPattern {
    pub(super) fn parse(pattern: &str) -> Result<PathPattern, &'static str> {
        if pattern.starts_with('!') {
            return Err("a `!` negation has no meaning in a single rule");
        }
        let (anchor, body) = if let Some(body) = pattern.strip_prefix("//") {
            (Anchor::Root, body)
        } else if pattern == "~" {
            (Anchor::Home, "**")
        } else if let Some(body) = pattern.strip_prefix("~/") {
            (Anchor::Home, body)
        } else if pattern.starts_with('~') {
            return Err("`~user` paths are not supported; write //<absolute path>");
        } else if let Some(body) = pattern.strip_prefix('/') {
            (Anchor::Settings, body)
        } else {
            (Anchor::Cwd, pattern.strip_prefix("./").unwrap_or(pattern))
        };
        let dir_only = body.ends_with('/');
        let body = body.trim_end_matches('/');
        // gitignore: a slash at the start or in the middle anchors the pattern.
        let anchored = anchor != Anchor::Cwd || body.contains('/');
        let mut parts: Vec<&str> = body
            .split('/')
            .filter(|part| !part.is_empty() && *part != ".")
            .collect();
        let up = parts.iter().take_while(|part| **part == "..").count();
        parts.drain(..up);
        if parts.contains(&"..") {
            return Err("`..` may only start a path pattern");
        }
        let mut segments: Vec<Segment> = parts.into_iter().map(Segment::parse).collect();
        if !anchored || segments.is_empty() {
            segments.insert(0, Segment::Any);
        }
        Ok(PathPattern {
            anchor,
            up,
            segments,
            dir_only,
        })
    }

    /// Whether the call's path `file` matches.
    pub(super) fn matches(&self, file: &str, places: &Places<'_>) -> bool {
        if file.is_empty() {
            return false;
        }
        let Some(anchor) = self.anchor_dir(places) else {
            return false;
        };
        let file = match (file.strip_prefix("~/"), places.home) {
            (Some(rest), Some(home)) => home.join(rest),
            _ => places.cwd.join(file),
        };
        let files = with_resolved(normalize(&file));
        let anchors = with_resolved(anchor);
        files.iter().any(|file| {
            anchors.iter().any(|anchor| {
                file.strip_prefix(anchor)
                    .is_ok_and(|relative| self.matches_relative(relative))
            })
        })
    }

    fn anchor_dir(&self, places: &Places<'_>) -> Option<PathBuf> {
        let mut dir = match self.anchor {
            Anchor::Root => PathBuf::from("/"),
            Anchor::Home => places.home?.to_path_buf(),
            Anchor::Settings => places.settings.unwrap_or(places.cwd).to_path_buf(),
            Anchor::Cwd => places.cwd.to_path_buf(),
        };
        dir = normalize(&dir);
        for _ in 0..self.up {
            dir.pop();
        }
        Some(dir)
    }

    /// A path relative to the anchor matches when it, or a directory above it, does.
    fn matches_relative(&self, relative: &Path) -> bool {
        let names: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        // Directories above the file, then (unless the pattern is for directories
        // only) the file itself.
        let last = if self.dir_only {
            names.len().saturating_sub(1)
        } else {
            names.len()
        };
        (1..=last).any(|len| segments_match(&self.segments, &names[..len]))
    }
}

/// The path, and its resolved form when it exists and differs.
fn with_resolved(path: PathBuf) -> Vec<PathBuf> {
    match std::fs::canonicalize(&path) {
        Ok(resolved) if resolved != path => vec![path, resolved],
        _ => vec![path],
    }
}

/// `.` and `..` resolved without the filesystem.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Whether the segments match the names exactly (dynamic programming over `**`).
fn segments_match(segments: &[Segment], names: &[&str]) -> bool {
    // reach[j]: the segments so far match names[..j].
    let mut reach = vec![false; names.len() + 1];
    reach[0] = true;
    for segment in segments {
        let mut next = vec![false; names.len() + 1];
        match segment {
            Segment::Any => {
                let mut any = false;
                for (j, slot) in next.iter_mut().enumerate() {
                    any |= reach[j];
                    *slot = any;
                }
            }
            Segment::Glob(tokens) => {
                for j in 1..=names.len() {
                    next[j] = reach[j - 1] && glob_match(tokens, names[j - 1]);
                }
            }
        }
        reach = next;
    }
    reach[names.len()]
}

impl Segment {
    fn parse(part: &str) -> Segment {
        if part == "**" {
            return Segment::Any;
        }
        let chars: Vec<char> = part.chars().collect();
        let mut tokens = Vec::new();
        let mut i = 0;
        while let Some(&c) = chars.get(i) {
            i += 1;
            let token = match c {
                '*' => Token::Star,
                '?' => Token::One,
                '\\' => {
                    let escaped = chars.get(i).copied().unwrap_or('\\');
                    i += 1;
                    Token::Char(escaped)
                }
                '[' => match class(&chars[i..]) {
                    Some((token, used)) => {
                        i += used;
                        token
                    }
                    None => Token::Char('['),
                },
                c => Token::Char(c),
            };
            tokens.push(token);
        }
        Segment::Glob(tokens)
    }
}

/// A `[...]` class after its `[`: the token and the characters it used, `]` included;
/// `None` without a closing `]` (the `[` is then literal).
fn class(chars: &[char]) -> Option<(Token, usize)> {
    let mut i = 0;
    let negated = matches!(chars.first(), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut ranges = Vec::new();
    let mut first = true;
    loop {
        let c = *chars.get(i)?;
        i += 1;
        if c == ']' && !first {
            return Some((Token::Class { negated, ranges }, i));
        }
        first = false;
        let low = if c == '\\' {
            let escaped = *chars.get(i)?;
            i += 1;
            escaped
        } else {
            c
        };
        let high = match (chars.get(i), chars.get(i + 1)) {
            (Some('-'), Some(&high)) if high != ']' => {
                i += 2;
                high
            }
            _ => low,
        };
        ranges.push((low, high));
    }
}

/// Whether one name matches one segment's tokens (`*` within the name).
fn glob_match(tokens: &[Token], name: &str) -> bool {
    let chars: Vec<char> = name.chars().collect();
    let (mut ti, mut ci) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ci < chars.len() {
        let single = |token: &Token, c: char| match token {
            Token::Star => false,
            Token::One => true,
            Token::Char(expected) => *expected == c,
            Token::Class { negated, ranges } => {
                ranges.iter().any(|(low, high)| (*low..=*high).contains(&c)) != *negated
            }
        };
        match tokens.get(ti) {
            Some(Token::Star) => {
                star = Some((ti, ci));
                ti += 1;
            }
            Some(token) if single(token, chars[ci]) => {
                ti += 1;
                ci += 1;
            }
            _ => match star {
                Some((star_ti, star_ci)) => {
                    ti = star_ti + 1;
                    ci = star_ci + 1;
                    star = Some((star_ti, star_ci + 1));
                }
                None => return false,
            },
        }
    }
    tokens[ti..].iter().all(|t| matches!(t, Token::Star))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `cwd` is /proj (which does not exist, so no path resolves), home /home/u.
    fn hit(pattern: &str, file: &str) -> bool {
        hit_in(pattern, file, None)
    }

    fn hit_in(pattern: &str, file: &str, settings: Option<&str>) -> bool {
        let places = Places {
            cwd: Path::new("/proj-hookhost-test"),
            home: Some(Path::new("/home-hookhost-test/u")),
            settings: settings.map(Path::new),
        };
        let file = file.replace("/proj", "/proj-hookhost-test");
        PathPattern::parse(pattern)
            .map(|p| p.matches(&file.replace("/home/u", "/home-hookhost-test/u"), &places))
            .unwrap_or_else(|e| panic!("{pattern}: {e}"))
    }

    #[test]
    fn relative_patterns_with_a_slash_start_at_the_cwd() {
        assert!(hit("src/**", "/proj/src/a/b.rs"));
        assert!(hit("src/**", "src/x.rs"));
        assert!(hit("./src/**", "./src/x.rs"));
        assert!(!hit("src/**", "/proj/vendor/src/x.rs"));
        assert!(!hit("src/**", "/elsewhere/src/x.rs"));
        assert!(hit("**/src/**", "/proj/vendor/src/x.rs"));
        assert!(hit("src/*.ts", "/proj/src/a.ts"));
        assert!(!hit("src/*.ts", "/proj/src/sub/a.ts"));
        assert!(hit("src/**/*.ts", "/proj/src/a.ts"));
        assert!(hit("src/**/*.ts", "/proj/src/x/y/a.ts"));
        // `..` in the call's path is resolved first.
        assert!(!hit("src/**", "/proj/src/../secret.env"));
        assert!(hit("../shared/**", "/shared/x"));
    }

    #[test]
    fn names_without_a_slash_match_at_any_depth_under_the_cwd() {
        assert!(hit("*.env", "/proj/config/prod.env"));
        assert!(hit("*.env", "prod.env"));
        assert!(hit("*.env", "/proj/.env"));
        assert!(!hit("*.env", "/elsewhere/a.env"));
        assert!(!hit("*.env", "/proj/a.env.bak"));
        assert!(hit(".env", "/proj/a/b/.env"));
        assert!(hit("./.env", "/proj/a/.env"));
        assert!(hit("**/.env", "/proj/a/.env"));
        // A matched directory covers its files.
        assert!(hit("secrets", "/proj/x/secrets/key"));
        assert!(hit("secrets/", "/proj/x/secrets/key"));
        assert!(!hit("secrets/", "/proj/x/secrets"));
        assert!(hit("file?.[ch]", "/proj/file1.c"));
        assert!(!hit("file?.[!ch]", "/proj/file1.c"));
        assert!(hit("[a-c]*.rs", "/proj/b.rs"));
        assert!(hit("\\*.rs", "/proj/*.rs"));
        assert!(!hit("\\*.rs", "/proj/a.rs"));
        assert!(hit("[oops", "/proj/[oops"));
    }

    #[test]
    fn anchored_patterns() {
        assert!(hit("//tmp/scratch.txt", "/tmp/scratch.txt"));
        assert!(!hit("//tmp/scratch.txt", "/proj/tmp/scratch.txt"));
        assert!(hit("//**/.env", "/any/where/.env"));
        assert!(hit("~/.ssh/**", "/home/u/.ssh/id_rsa"));
        assert!(hit("~/.ssh/**", "~/.ssh/id_rsa"));
        assert!(!hit("~/.ssh/**", "/proj/.ssh/id_rsa"));
        assert!(hit("~/.zshrc", "/home/u/.zshrc"));
        assert!(!hit("~/.zshrc", "/home/u/x/.zshrc"));
        // `/path`: the settings source's directory, else the cwd.
        assert!(hit("/src/**", "/proj/src/a.rs"));
        assert!(!hit("/src/**", "/proj/x/src/a.rs"));
        assert!(hit_in("/src/**", "/settings/src/a.rs", Some("/settings")));
        assert!(!hit_in("/src/**", "/proj/src/a.rs", Some("/settings")));
        assert!(!hit("/.env", "/proj/x/.env"));
        // Without a home directory `~` matches nothing.
        let places = Places {
            cwd: Path::new("/proj"),
            home: None,
            settings: None,
        };
        assert!(
            PathPattern::parse("~/.ssh/**").is_ok_and(|p| !p.matches("/root/.ssh/id_rsa", &places))
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_resolved_path_is_tried_too() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        std::fs::create_dir(&real).unwrap();
        std::fs::write(real.join("key.pem"), "").unwrap();
        std::os::unix::fs::symlink(&real, dir.path().join("link")).unwrap();
        let places = Places {
            cwd: dir.path(),
            home: None,
            settings: None,
        };
        let pattern = PathPattern::parse("real/**").unwrap();
        assert!(pattern.matches("link/key.pem", &places));
        assert!(!pattern.matches("link/other.pem", &places));
    }
}
