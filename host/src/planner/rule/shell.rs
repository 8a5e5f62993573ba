//! `Bash(pattern)`: a command pattern tested against each subcommand of a shell
//! command, as Claude Code's hooks reference ("Bash `if` matching") and permissions
//! page ("Bash", "Compound commands", "Wrappers") describe it.
//!
//! The command is split by a small shell scanner (not `shlex`, which knows no
//! operators): subcommands are separated by `&&`, `||`, `;`, `|`, `|&`, `&`, newlines
//! and parentheses outside quotes; commands inside `$(…)`, backticks and `<(…)`/`>(…)`
//! are subcommands too; comments and heredoc bodies are skipped. Each subcommand is its
//! words joined by one space (quotes kept as written, so runs of blanks do not matter),
//! tried as written, without its redirections, and with leading `VAR=value`
//! assignments, shell keywords (`if`, `then`, `do`, `!`, `{`, …) and wrappers stripped
//! (`timeout`, `time`, `nice`, `nohup`, `stdbuf`, `command`, `builtin`, `noglob`, bare
//! `xargs` — Claude's list — and `env` and `exec`, which hookhost adds: an `if` guard
//! should not be skipped by `env rm …`). The rule matches when ANY subcommand matches: an `if`
//! asks whether the call contains what the hook guards.
//!
//! A pattern is matched against the whole subcommand; `*` matches any run of
//! characters, spaces included; a trailing ` *` (or the legacy `:*`) is a word
//! boundary that may match nothing (`ls *` matches `ls` and `ls -la`, not `lsof`).
//!
//! Like Claude's, the filter fails open (the hook runs) when the command cannot be
//! parsed, and when it holds `$(…)`, backticks or `${…}` and the pattern says more than
//! a command name (`git push *`, not `rm *`), and on a subcommand whose command name
//! is itself an expansion (`$CMD -rf /`). A plain `$VAR` elsewhere is an ordinary
//! word, as Claude Code 2.1.331 reads it (measured: tests/agents/FINDINGS.md).

/// A compiled `Bash(...)` pattern.
#[derive(Debug, Clone)]
pub(super) struct CommandPattern {
    /// Blanks outside quotes collapsed, `:*` written ` *`.
    pattern: String,
    /// The pattern names a command and nothing more (`rm`, `rm *`, `ls*`).
    name_only: bool,
}

impl CommandPattern {
    pub(super) fn new(pattern: &str) -> CommandPattern {
        let pattern = normalize(pattern);
        let head = pattern.strip_suffix(" *").unwrap_or(&pattern);
        CommandPattern {
            name_only: !head.contains(' '),
            pattern,
        }
    }

    /// Whether the command (the call's `command`) matches.
    pub(super) fn matches(&self, command: &str) -> bool {
        let Ok(parsed) = parse(command) else {
            return true;
        };
        if parsed.expands && !self.name_only {
            return true;
        }
        parsed.commands.iter().any(|simple| {
            let (candidates, dynamic_name) = simple.candidates();
            dynamic_name || candidates.iter().any(|c| prefix_match(&self.pattern, c))
        })
    }
}

/// A pattern with a trailing ` *` (or `:*`) matches the text before it alone, or
/// followed by a space and anything; otherwise [`super::wildcard`].
pub(super) fn prefix_match(pattern: &str, text: &str) -> bool {
    let legacy = pattern.strip_suffix(":*").map(|head| format!("{head} *"));
    let pattern = legacy.as_deref().unwrap_or(pattern);
    pattern
        .strip_suffix(" *")
        .is_some_and(|head| super::wildcard(head, text))
        || super::wildcard(pattern, text)
}

/// The pattern trimmed, blank runs outside quotes made one space, `X:*` made `X *`.
fn normalize(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut quote: Option<char> = None;
    let mut blank = false;
    for c in pattern.trim().chars() {
        if quote.is_none() && (c == ' ' || c == '\t') {
            blank = true;
            continue;
        }
        if blank {
            out.push(' ');
            blank = false;
        }
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if q == c => quote = None,
            _ => {}
        }
        out.push(c);
    }
    match out.strip_suffix(":*") {
        Some("") => "*".to_owned(),
        Some(head) => format!("{head} *"),
        None => out,
    }
}

/// A command the scanner could not parse (unterminated quote or substitution, a
/// stray `)`, nesting too deep): the filter fails open.
#[derive(Debug)]
struct Unparsable;

/// The subcommands of a command.
#[derive(Debug, Default)]
struct Parsed {
    commands: Vec<Simple>,
    /// The command holds `$(…)`, backticks, `<(…)` or `${…}`.
    expands: bool,
}

/// One simple command: its words and redirections in order, as written.
#[derive(Debug, Default)]
struct Simple {
    items: Vec<Item>,
}

#[derive(Debug)]
enum Item {
    Word(String),
    Redirect(String),
}

/// Shell keywords that may start a simple command in a compound one.
const KEYWORDS: [&str; 11] = [
    "!", "{", "}", "if", "then", "else", "elif", "do", "while", "until", "exec",
];

impl Simple {
    /// The texts to match: the words after assignments and keywords, then after each
    /// wrapper stripped, then everything as written (redirections included); and
    /// whether the command's name is an expansion.
    fn candidates(&self) -> (Vec<String>, bool) {
        let words: Vec<&str> = self
            .items
            .iter()
            .filter_map(|item| match item {
                Item::Word(w) => Some(w.as_str()),
                Item::Redirect(_) => None,
            })
            .collect();
        let mut k = 0;
        while words
            .get(k)
            .is_some_and(|w| KEYWORDS.contains(w) || is_assignment(w))
        {
            k += 1;
        }
        let mut candidates = vec![words[k..].join(" ")];
        while let Some(next) = strip_wrapper(&words, k) {
            k = next;
            candidates.push(words[k..].join(" "));
        }
        let dynamic_name = words.get(k).is_some_and(|w| w.contains(['$', '`']));
        let as_written = self
            .items
            .iter()
            .map(|item| match item {
                Item::Word(w) | Item::Redirect(w) => w.as_str(),
            })
            .collect::<Vec<_>>()
            .join(" ");
        if !candidates.contains(&as_written) {
            candidates.push(as_written);
        }
        (candidates, dynamic_name)
    }
}

/// `NAME=value` or `NAME+=value`.
fn is_assignment(word: &str) -> bool {
    let Some((name, _)) = word.split_once('=') else {
        return false;
    };
    let name = name.strip_suffix('+').unwrap_or(name);
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// When `words[k]` is a wrapper that runs the rest as a command, the index of that
/// command.
fn strip_wrapper(words: &[&str], k: usize) -> Option<usize> {
    let wrapper = *words.get(k)?;
    // Options of the wrapper that take the next word as their value.
    let with_value: &[&str] = match wrapper {
        "nohup" | "builtin" | "noglob" | "time" => &[],
        "command"
            if words[k + 1..]
                .iter()
                .take_while(|w| w.starts_with('-'))
                .any(|w| w.contains(['v', 'V'])) =>
        {
            return None;
        }
        "command" => &[],
        "nice" => &["-n"],
        "timeout" => &["-s", "-k", "--signal", "--kill-after"],
        "stdbuf" => &["-i", "-o", "-e"],
        "env" => &["-u", "-C", "--unset", "--chdir"],
        "xargs" if words.get(k + 1).is_some_and(|w| w.starts_with('-')) => return None,
        "xargs" => &[],
        _ => return None,
    };
    let mut j = k + 1;
    while let Some(word) = words.get(j).filter(|w| w.starts_with('-') && w.len() > 1) {
        j += if *word == "--" {
            1
        } else if with_value.contains(word) {
            2
        } else {
            1
        };
        if *word == "--" {
            break;
        }
    }
    match wrapper {
        "timeout" => j += 1, // the duration
        "env" => {
            while words.get(j).is_some_and(|w| is_assignment(w)) {
                j += 1;
            }
        }
        _ => {}
    }
    (j < words.len()).then_some(j)
}

/// Nesting deeper than this is not parsed (the filter fails open).
const MAX_DEPTH: usize = 32;

fn parse(command: &str) -> Result<Parsed, Unparsable> {
    let mut parsed = Parsed::default();
    Scanner::new(command, 0).list(&mut parsed, false)?;
    Ok(parsed)
}

/// A heredoc whose body starts at the next newline.
struct Heredoc {
    delimiter: String,
    strip_tabs: bool,
    /// A quoted delimiter: the body is literal.
    quoted: bool,
}

struct Scanner<'s> {
    s: &'s str,
    b: &'s [u8],
    i: usize,
    depth: usize,
    heredocs: Vec<Heredoc>,
}

impl<'s> Scanner<'s> {
    fn new(s: &'s str, depth: usize) -> Scanner<'s> {
        Scanner {
            s,
            b: s.as_bytes(),
            i: 0,
            depth,
            heredocs: Vec::new(),
        }
    }

    fn at(&self, offset: usize) -> Option<u8> {
        self.b.get(self.i + offset).copied()
    }

    /// A list of commands up to the end, or (`nested`) up to and past its `)`.
    fn list(&mut self, out: &mut Parsed, nested: bool) -> Result<(), Unparsable> {
        if self.depth > MAX_DEPTH {
            return Err(Unparsable);
        }
        let mut cmd = Simple::default();
        loop {
            self.skip_blanks();
            let Some(c) = self.at(0) else {
                finish(&mut cmd, out);
                return if nested { Err(Unparsable) } else { Ok(()) };
            };
            match c {
                b'\n' => {
                    self.i += 1;
                    finish(&mut cmd, out);
                    self.heredoc_bodies(out)?;
                }
                b';' => {
                    self.i += 1;
                    finish(&mut cmd, out);
                }
                b'&' if self.at(1) == Some(b'>') => self.redirect(&mut cmd, out)?,
                b'&' | b'|' => {
                    self.i += 1;
                    if matches!(self.at(0), Some(b'&' | b'|')) {
                        self.i += 1;
                    }
                    finish(&mut cmd, out);
                }
                b'(' => {
                    self.i += 1;
                    finish(&mut cmd, out);
                    self.nested(out)?;
                }
                b')' if nested => {
                    self.i += 1;
                    finish(&mut cmd, out);
                    return Ok(());
                }
                b')' => return Err(Unparsable),
                b'#' => {
                    while self.at(0).is_some_and(|c| c != b'\n') {
                        self.i += 1;
                    }
                }
                b'<' | b'>' => self.redirect(&mut cmd, out)?,
                b'0'..=b'9' if self.fd_redirect_ahead() => self.redirect(&mut cmd, out)?,
                _ => {
                    let word = self.word(out)?;
                    cmd.items.push(Item::Word(word));
                }
            }
        }
    }

    /// A nested list after its `(` (a subshell, `$(`, `<(`), consuming its `)`.
    fn nested(&mut self, out: &mut Parsed) -> Result<(), Unparsable> {
        self.depth += 1;
        let result = self.list(out, true);
        self.depth -= 1;
        result
    }

    fn skip_blanks(&mut self) {
        loop {
            match (self.at(0), self.at(1)) {
                (Some(b' ' | b'\t' | b'\r'), _) => self.i += 1,
                (Some(b'\\'), Some(b'\n')) => self.i += 2,
                _ => return,
            }
        }
    }

    /// Digits followed by `<` or `>` (`2>&1`).
    fn fd_redirect_ahead(&self) -> bool {
        let digits = self.b[self.i..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        matches!(self.at(digits), Some(b'<' | b'>'))
    }

    /// A redirection and its target, or a process substitution (a word).
    fn redirect(&mut self, cmd: &mut Simple, out: &mut Parsed) -> Result<(), Unparsable> {
        let start = self.i;
        while self.at(0).is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        if let (Some(b'<' | b'>'), Some(b'(')) = (self.at(0), self.at(1)) {
            self.i += 2;
            out.expands = true;
            self.nested(out)?;
            cmd.items.push(Item::Word(self.s[start..self.i].to_owned()));
            return Ok(());
        }
        let ops = [
            "<<<", "<<-", "&>>", "<<", ">>", ">|", ">&", "<&", "<>", "&>", "<", ">",
        ];
        let op = ops
            .iter()
            .find(|op| self.s[self.i..].starts_with(**op))
            .ok_or(Unparsable)?;
        self.i += op.len();
        let op = &self.s[start..self.i];
        self.skip_blanks();
        if self
            .at(0)
            .is_none_or(|c| matches!(c, b'\n' | b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>'))
        {
            return Err(Unparsable);
        }
        let target = self.word(out)?;
        if let Some(kind) = op
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .strip_prefix("<<")
            && kind != "<"
        {
            self.heredocs.push(Heredoc {
                quoted: target.contains(['\'', '"', '\\']),
                delimiter: target.replace(['\'', '"', '\\'], ""),
                strip_tabs: kind == "-",
            });
        }
        // `2>&1` as written, `>out` and `> out` alike as `> out`.
        let space = if op.ends_with('&') { "" } else { " " };
        cmd.items
            .push(Item::Redirect(format!("{op}{space}{target}")));
        Ok(())
    }

    /// One word as written, its quotes and substitutions included.
    fn word(&mut self, out: &mut Parsed) -> Result<String, Unparsable> {
        let start = self.i;
        while let Some(c) = self.at(0) {
            match c {
                b' ' | b'\t' | b'\r' | b'\n' | b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>' => {
                    break;
                }
                b'\\' => self.i = (self.i + 2).min(self.b.len()),
                b'\'' => self.single_quote()?,
                b'"' => self.double_quote(out)?,
                b'`' => self.backtick(out)?,
                b'$' => self.dollar(out, false)?,
                _ => self.i += 1,
            }
        }
        Ok(self.s[start..self.i].to_owned())
    }

    fn single_quote(&mut self) -> Result<(), Unparsable> {
        let close = self.s[self.i + 1..].find('\'').ok_or(Unparsable)?;
        self.i += close + 2;
        Ok(())
    }

    fn double_quote(&mut self, out: &mut Parsed) -> Result<(), Unparsable> {
        self.i += 1;
        loop {
            match self.at(0).ok_or(Unparsable)? {
                b'"' => {
                    self.i += 1;
                    return Ok(());
                }
                b'\\' => self.i = (self.i + 2).min(self.b.len()),
                b'`' => self.backtick(out)?,
                b'$' => self.dollar(out, true)?,
                _ => self.i += 1,
            }
        }
    }

    /// A backquoted command: its text unescaped and parsed on its own.
    fn backtick(&mut self, out: &mut Parsed) -> Result<(), Unparsable> {
        out.expands = true;
        self.i += 1;
        let mut inner = String::new();
        loop {
            let rest = &self.s[self.i..];
            let c = rest.chars().next().ok_or(Unparsable)?;
            self.i += c.len_utf8();
            match c {
                '`' => break,
                '\\' => match self.at(0) {
                    Some(e @ (b'`' | b'\\' | b'$')) => {
                        inner.push(char::from(e));
                        self.i += 1;
                    }
                    _ => inner.push('\\'),
                },
                _ => inner.push(c),
            }
        }
        let mut scanner = Scanner::new(&inner, self.depth + 1);
        if scanner.depth > MAX_DEPTH {
            return Err(Unparsable);
        }
        scanner.list(out, false)
    }

    /// `$(…)`, `$((…))`, `${…}`, `$'…'`, `$NAME`, or a lone `$`.
    fn dollar(&mut self, out: &mut Parsed, in_double_quotes: bool) -> Result<(), Unparsable> {
        match self.at(1) {
            Some(b'(') => {
                // `$((…))` parses as a list holding a subshell: close enough.
                out.expands = true;
                self.i += 2;
                self.nested(out)
            }
            Some(b'{') => {
                out.expands = true;
                let close = self.s[self.i..].find('}').ok_or(Unparsable)?;
                let inner = &self.s[self.i + 2..self.i + close];
                // `${x:-$(cmd)}`: a command we do not look into.
                if inner.contains(['`', '(']) {
                    return Err(Unparsable);
                }
                self.i += close + 1;
                Ok(())
            }
            Some(b'\'') if !in_double_quotes => {
                self.i += 2;
                loop {
                    match self.at(0).ok_or(Unparsable)? {
                        b'\\' => self.i = (self.i + 2).min(self.b.len()),
                        b'\'' => {
                            self.i += 1;
                            return Ok(());
                        }
                        _ => self.i += 1,
                    }
                }
            }
            // A plain `$NAME` is an ordinary word, as Claude Code 2.1.331 reads it
            // (tests/agents/FINDINGS.md: `touch $HOME/x` is not `git status*`); only
            // an expanded command name fails open (`Simple::candidates`).
            Some(c) if c.is_ascii_alphanumeric() || b"_@*#?$!-".contains(&c) => {
                self.i += 2;
                Ok(())
            }
            _ => {
                self.i += 1;
                Ok(())
            }
        }
    }

    /// The bodies of the heredocs opened on the line just ended.
    fn heredoc_bodies(&mut self, out: &mut Parsed) -> Result<(), Unparsable> {
        for heredoc in std::mem::take(&mut self.heredocs) {
            while self.i < self.b.len() {
                let rest = &self.s[self.i..];
                let line = rest.split('\n').next().unwrap_or_default();
                self.i = (self.i + line.len() + 1).min(self.b.len());
                let text = if heredoc.strip_tabs {
                    line.trim_start_matches('\t')
                } else {
                    line
                };
                if text.trim_end_matches('\r') == heredoc.delimiter {
                    break;
                }
                if !heredoc.quoted {
                    // An unquoted body runs its substitutions: not looked into.
                    if line.contains('`') || line.contains("$(") {
                        return Err(Unparsable);
                    }
                    out.expands |= line.contains("${");
                }
            }
        }
        Ok(())
    }
}

fn finish(cmd: &mut Simple, out: &mut Parsed) {
    if !cmd.items.is_empty() {
        out.commands.push(std::mem::take(cmd));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(pattern: &str, command: &str) -> bool {
        CommandPattern::new(pattern).matches(command)
    }

    #[test]
    fn prefixes_and_word_boundaries() {
        assert!(hit("git status*", "git status --short"));
        assert!(hit("git status*", "git status"));
        assert!(!hit("git status*", "rm -rf /"));
        assert!(hit("echo guarded*", "echo guarded x"));
        assert!(!hit("echo guarded*", "echo free"));
        assert!(hit("ls *", "ls -la"));
        assert!(hit("ls *", "ls"));
        assert!(!hit("ls *", "lsof"));
        assert!(hit("ls*", "lsof"));
        assert!(hit("git *", "git status"));
        assert!(!hit("git *", "gitk"));
        assert!(hit("ls:*", "ls -la"));
        assert!(!hit("ls:*", "lsof"));
        assert!(hit("npm run test:*", "npm run test --watch"));
        assert!(!hit("npm run test:*", "npm run test:unit"));
        assert!(hit("npm run build", "npm run build"));
        assert!(!hit("npm run build", "npm run build:dev"));
        assert!(hit("* --version", "node --version"));
        assert!(hit("git * main", "git push origin main"));
        assert!(!hit("git * main", "git push origin dev"));
        // `:` elsewhere is literal.
        assert!(!hit("git:* push", "git push"));
    }

    #[test]
    fn each_subcommand_of_a_compound_command_is_tried() {
        assert!(hit("git push*", "ls && git push"));
        assert!(hit("git push*", "ls || git push origin"));
        assert!(hit("git push*", "ls; git push"));
        assert!(hit("git push*", "ls | git push"));
        assert!(hit("git push*", "ls |& git push"));
        assert!(hit("git push*", "ls & git push"));
        assert!(hit("git push*", "ls\ngit push"));
        assert!(hit("rm *", "(cd x && rm -rf y)"));
        assert!(hit("rm *", "if true; then rm -rf x; fi"));
        assert!(hit("rm *", "{ rm -rf x; }"));
        assert!(!hit("git push*", "ls && git status"));
        // Operators inside quotes do not split.
        assert!(!hit("rm *", "echo 'x; rm -rf /'"));
        assert!(!hit("rm *", "echo \"x && rm -rf /\""));
        assert!(!hit("b*", "echo \"a && b\""));
        // A comment is not a command.
        assert!(!hit("rm *", "ls # && rm -rf /"));
        assert!(hit("ls *", "ls #comment"));
    }

    #[test]
    fn assignments_wrappers_and_redirections_are_stripped() {
        assert!(hit("git status*", "FOO=1 git status"));
        assert!(hit("git *", "FOO=bar BAZ+=x git push"));
        assert!(hit("npm test *", "timeout 30 npm test"));
        assert!(hit("npm test *", "timeout -s KILL 30s npm test --ci"));
        assert!(hit("rm *", "nice -n 5 nohup rm -rf x"));
        assert!(hit("rm *", "env -i PATH=/bin rm x"));
        assert!(hit("grep *", "xargs grep pattern"));
        assert!(!hit("grep *", "xargs -n1 grep pattern"));
        assert!(!hit("rm *", "command -v rm"));
        assert!(hit("rm *", "command rm x"));
        // The wrapped form still matches a rule for the wrapper.
        assert!(hit("timeout *", "timeout 30 npm test"));
        assert!(hit("npm test", "npm test > out.txt 2>&1"));
        assert!(hit("npm test", "npm test >out.txt"));
        assert!(hit("python *", "python script.py > output.txt"));
        assert!(hit("npm test > *", "npm test > out.txt"));
        assert!(hit("git commit *", "git   commit \t -m x"));
        assert!(hit("git commit -m \"a  b\"", "git commit -m \"a  b\""));
    }

    #[test]
    fn substitutions_are_looked_into_or_fail_open() {
        assert!(hit("rm *", "echo $(rm -rf /)"));
        assert!(hit("rm *", "echo \"$(rm -rf /)\""));
        assert!(hit("rm *", "echo `rm -rf /`"));
        assert!(hit("rm *", "diff <(rm x) y"));
        assert!(!hit("rm *", "echo $(date)"));
        assert!(!hit("rm *", "echo $HOME"));
        // A pattern that says more than a command name runs on any expansion.
        assert!(hit("git push *", "echo $(date)"));
        assert!(!hit("git push *", "echo $HOME"));
        assert!(!hit("git status*", "touch $HOME/should-not-exist"));
        assert!(!hit("git status*", "echo \"$HOME\""));
        assert!(hit("git status*", "echo ${HOME}"));
        assert!(hit("git status*", "git status $HOME"));
        assert!(hit("git status*", "X=$HOME git status"));
        assert!(hit("git push *", "echo `date`"));
        assert!(!hit("git push *", "echo '$HOME'"));
        // A command name that is an expansion could be anything.
        assert!(hit("rm *", "$CMD -rf /"));
        // Unparsable commands fail open.
        assert!(hit("rm *", "echo \"unterminated"));
        assert!(hit("rm *", "echo $(unterminated"));
        assert!(hit("rm *", "echo )"));
        assert!(hit(
            "rm *",
            &format!("{}x{}", "$(".repeat(40), ")".repeat(40))
        ));
    }

    #[test]
    fn heredoc_bodies_are_not_commands() {
        assert!(!hit("rm *", "cat <<EOF\nrm -rf /\nEOF\nls"));
        assert!(hit("ls *", "cat <<EOF\nrm -rf /\nEOF\nls"));
        assert!(!hit("rm *", "cat <<-'EOF' > f\n\trm $(x)\n\tEOF"));
        assert!(hit("rm *", "cat <<EOF\n$(rm -rf /)\nEOF"));
        assert!(!hit("git push *", "cat <<EOF\n$HOME\nEOF"));
        assert!(hit("git push *", "cat <<EOF\n${HOME}\nEOF"));
    }

    #[test]
    fn unicode_and_odd_input_do_not_panic() {
        for command in [
            "",
            " ",
            "é",
            "echo é && rm é",
            "\\",
            "'",
            "\"",
            "`",
            "$",
            "${",
            "$'",
            "2>",
            ">",
            "a >",
            "<(",
            "cat <<",
            "cat <<E\n",
            "echo `é\\`x`",
            "\u{feff}ls",
            "((",
        ] {
            let _ = hit("rm *", command);
        }
        assert!(!hit("rm *", ""));
        assert!(hit("é *", "echo x && é y"));
    }
}
