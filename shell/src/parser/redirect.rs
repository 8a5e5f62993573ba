//! Redirections, here-document bodies, and the scripts a command hands to a
//! shell (`sh -c`, `eval`, `trap`, a here-document fed to `bash`), parsed again.

use super::{Parser, Tok};
use crate::ast::{Redirection, ShellCommand, SimpleCommand};
use crate::is_shell;
use crate::program::ProgramSource;

impl Parser {
    /// After a redirection operator: its target, and a here-document's body.
    pub(super) fn parse_redirection(
        &mut self,
        fd: Option<u32>,
        op: &'static str,
    ) -> Option<Redirection> {
        let target = match self.peek() {
            Tok::Word(_) => match self.next() {
                Tok::Word(w) => w,
                _ => return None,
            },
            _ => {
                self.incomplete = true;
                return None;
            }
        };
        let mut target = target;
        let heredoc =
            matches!(op, "<<" | "<<-").then(|| self.read_heredoc(&target.text, op == "<<-"));
        // An unquoted delimiter: the body is expanded, so its `$(…)` run.
        if let Some(body) = &heredoc
            && !target.quoted
            && body.contains(['$', '`'])
        {
            let found = self.expansions_in(body);
            target.substitutions.extend(found);
        }
        Some(Redirection {
            fd,
            op,
            target,
            heredoc,
        })
    }

    /// Reads a here-document body that starts on the line after the current
    /// one (or after the previous here-document's body) and marks it for the
    /// lexer to jump over.
    fn read_heredoc(&mut self, delimiter: &str, strip_tabs: bool) -> String {
        if !self.heredoc_room() {
            return String::new();
        }
        let Some(newline) = self
            .src
            .get(self.pos..)
            .and_then(|rest| rest.find('\n'))
            .map(|offset| self.pos + offset)
        else {
            self.incomplete = true;
            return String::new();
        };
        let start = match self.last_heredoc {
            Some((line, end)) if line == newline => end,
            _ => newline + 1,
        };
        let mut body = String::new();
        let mut line_start = start;
        let len = self.src.len();
        let mut end = len;
        let mut found = false;
        while line_start < len {
            let line_end = self.src[line_start..]
                .find('\n')
                .map_or(len, |o| line_start + o);
            let line = &self.src[line_start..line_end];
            let compared = if strip_tabs {
                line.trim_start_matches('\t')
            } else {
                line
            };
            let next_start = (line_end + 1).min(len);
            if compared == delimiter {
                end = next_start;
                found = true;
                break;
            }
            body.push_str(compared);
            body.push('\n');
            line_start = next_start;
            if line_end >= len {
                break;
            }
        }
        if !found {
            self.incomplete = true;
        }
        self.skips.push((start, end));
        self.last_heredoc = Some((newline, end));
        body
    }

    /// The command lines in the `$(…)` and backticks of `text`, read as the
    /// inside of double quotes (an unquoted here-document's body).
    fn expansions_in(&mut self, text: &str) -> Vec<ShellCommand> {
        if self.depth >= crate::MAX_DEPTH {
            self.stop_too_deep();
            return Vec::new();
        }
        let mut child = Parser::new(text, self.depth + 1, self.words);
        child.backtracks = self.backtracks;
        let mut word = crate::ast::Word::default();
        while let Some(c) = child.peek_char() {
            match c {
                '\\' => {
                    child.bump();
                    child.bump();
                }
                '$' => child.lex_dollar(&mut word, true),
                '`' => {
                    child.bump();
                    child.lex_backquoted(&mut word, true);
                }
                _ => {
                    child.bump();
                }
            }
            if child.halted() {
                break;
            }
        }
        self.words = child.words;
        self.backtracks = child.backtracks;
        if child.too_deep {
            self.stop_too_deep();
        } else if child.too_large {
            self.too_large = true;
            self.stop();
        }
        word.substitutions
    }

    /// The script `simple` hands to a shell, parsed; see [`SimpleCommand::script`].
    pub(super) fn script_of(&mut self, simple: &SimpleCommand) -> Option<ShellCommand> {
        if let Some(line) = simple.env_split_string() {
            return self.parse_text(&line);
        }
        if let Some(line) = simple.shell_string() {
            return self.parse_text(&line.ok()?);
        }
        let text = match simple.program_source()? {
            ProgramSource::Inline(code) if simple.program().is_some_and(is_shell) => {
                code.literal()?.to_owned()
            }
            ProgramSource::Eval => {
                let args = simple.args();
                if args.iter().any(|w| w.dynamic) {
                    return None;
                }
                let mut text = String::new();
                for (i, w) in args.iter().enumerate() {
                    if i > 0 {
                        text.push(' ');
                    }
                    text.push_str(&w.text);
                }
                text
            }
            ProgramSource::Trap(action) => action.literal()?.to_owned(),
            ProgramSource::Stdin if simple.program().is_some_and(is_shell) => {
                let r = simple.redirections.iter().rev().find(|r| {
                    matches!(r.fd, None | Some(0)) && matches!(r.op, "<<" | "<<-" | "<<<")
                })?;
                match &r.heredoc {
                    Some(body) => body.clone(),
                    None => r.target.literal()?.to_owned(),
                }
            }
            _ => return None,
        };
        self.parse_text(&text)
    }
}
