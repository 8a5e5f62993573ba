//! `Bash(pattern)`: a command pattern tested against each command a shell
//! command line runs, as Claude Code's hooks reference ("Bash `if` matching") and
//! permissions page ("Bash", "Compound commands", "Wrappers") describe it — on
//! hookhost's shared shell reading ([`hookhost_shell::read`]), the same one the
//! guest SDK's policies use, so a rule sees what the shell runs, not what the
//! line spells: `'rm'`, `\rm`, `r''m`, `$'\x72m'`, `/bin/rm`, `{rm,}`, a function
//! body, `coproc`, `exec -a NAME rm`, `sudo`/`env -S`/`xargs`/`find -exec`,
//! `bash -c`/`eval`/`trap` bodies and `$(…)` are all `rm`.
//!
//! Each invocation is tried as its program's base name and arguments (quotes
//! removed), from each program start — the wrappers (`timeout 30 npm test`) and
//! the program they run (`npm test`) — and as written (its words with their
//! quotes, and its redirections: `npm test > *`). The rule matches when ANY of
//! them matches: an `if` asks whether the call contains what the hook guards.
//!
//! A pattern is matched against the whole candidate; `*` matches any run of
//! characters, spaces included; a trailing ` *` (or the legacy `:*`) is a word
//! boundary that may match nothing (`ls *` matches `ls` and `ls -la`, not `lsof`).
//!
//! When the reading cannot be sure (an unparsable or cut-off line, a program name
//! that is an expansion or a pattern, a script that is an expansion, a shell
//! reading its program from a pipe), and when the line holds `$(…)`, backticks or
//! `${…}` and the pattern says more than a command name (`git push *`, not
//! `rm *`), the verdict is [`Verdict::Unsure`], even where a command matches: the hook runs (toward
//! enforcement) and an allow it gives is not applied. A plain `$VAR` elsewhere is
//! an ordinary word, as Claude Code 2.1.331 reads it (tests/agents/FINDINGS.md).

use hookhost_shell::{Invocation, read};

use super::Verdict;

/// A compiled `Bash(...)` pattern.
#[derive(Debug, Clone)]
pub(super) struct CommandPattern {
    /// Blanks outside quotes collapsed, `:*` written ` *`.
    pattern: String,
    /// The pattern names a command and nothing more (`rm`, `rm *`, `ls*`).
    name_only: bool,
}

/// How many program starts of one invocation are tried from the front (then the
/// last): a line of a thousand wrappers costs a bounded number of candidates.
const STARTS_TRIED: usize = 8;

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
    pub(super) fn verdict(&self, command: &str) -> Verdict {
        let reading = read(command);
        let hit = reading.invocations.iter().any(|inv| self.hits(inv));
        // Something runs that the reading cannot name, or the pattern names
        // arguments and the line holds a value the reading cannot know
        // (`git status $(rm -rf /)`): a match could not be trusted to allow.
        let doubtful = !reading.is_sure() || (reading.expands && !self.name_only);
        match (hit, doubtful) {
            (true, false) => Verdict::Yes,
            (_, true) => Verdict::Unsure,
            (false, false) => Verdict::No,
        }
    }

    fn hits(&self, inv: &Invocation) -> bool {
        let starts = inv.starts.len();
        let tried =
            (0..starts.min(STARTS_TRIED)).chain((starts > STARTS_TRIED).then(|| starts - 1));
        for k in tried {
            if inv
                .line_from(k)
                .is_some_and(|line| prefix_match(&self.pattern, &line))
            {
                return true;
            }
        }
        prefix_match(&self.pattern, &inv.written)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(pattern: &str, command: &str) -> bool {
        CommandPattern::new(pattern).verdict(command) != Verdict::No
    }

    fn sure_hit(pattern: &str, command: &str) -> bool {
        CommandPattern::new(pattern).verdict(command) == Verdict::Yes
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
        // xargs with options runs its program too (Claude strips bare xargs only;
        // a guard must not be skipped by `xargs -n1 rm`).
        assert!(hit("grep *", "xargs -n1 grep pattern"));
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

    /// Seen (issue 36, item 1): a deny scoped `Bash(rm *)` skipped each of these.
    #[test]
    fn seen_what_the_shell_runs_is_what_the_rule_sees() {
        for command in [
            "'rm' -rf x",
            "\\rm -rf x",
            "r''m -rf x",
            "(( 1<<2 ))\nrm -rf x",
            "f() { rm -rf x; }; f",
            "coproc rm -rf x",
            "coproc C { rm -rf x; }",
            "exec -a NAME rm -rf x",
            "{rm,} -rf x",
            "$'\\x72m' -rf x",
            "sudo -u root /bin/rm -rf x",
            "env -S 'rm -rf x'",
            "echo x | xargs -0 rm",
            "find . -exec rm {} +",
            "bash -c 'rm -rf x'",
            "trap 'rm -rf x' EXIT",
        ] {
            assert!(sure_hit("rm *", command), "{command}");
        }
        // Unsure, so the deny hook runs; and still nothing else is caught.
        assert!(hit("rm *", "r? -rf x"));
        assert!(!sure_hit("rm *", "r? -rf x"));
        assert!(!hit("rm *", "echo rm -rf x"));
        assert!(!hit("rm *", "grep 'rm -rf' notes"));
    }

    /// Seen (issue 36, item 1): 192 KB of repeated wrappers took quadratic memory.
    #[test]
    fn seen_a_line_of_wrappers_is_read_in_bounded_time() {
        let line = "nice ".repeat(192 * 1024 / 5) + "rm -rf x";
        assert!(hit("rm *", &line));
        let line = "sudo ".repeat((1 << 20) / 5);
        let _ = hit("* --version", &line);
    }
}
