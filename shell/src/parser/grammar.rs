//! The grammar: lists, pipelines, simple commands and every compound command
//! bash has (`( )`, `{ }`, `if`, loops, `case`, functions, `coproc`, `(( ))`,
//! `[[ ]]`).

use super::{Parser, Tok};
use crate::ast::{
    Assignment, Command, CompoundCommand, CompoundKind, Connector, Pipeline, ShellCommand,
    SimpleCommand, Word,
};

impl Parser {
    /// A list of pipelines, up to (not including) one of the `stops` keywords
    /// or operators, or the end.
    pub(super) fn parse_list(&mut self, stops: &[&str]) -> ShellCommand {
        let mut command = ShellCommand::default();
        loop {
            while matches!(self.peek(), Tok::Newline | Tok::Op(";" | "&")) {
                self.next();
            }
            if matches!(self.peek(), Tok::Eof) || stops.iter().any(|s| self.peek_is(s)) {
                break;
            }
            let before = self.pos;
            let pipeline = self.parse_pipeline();
            if pipeline.commands.is_empty() && !pipeline.negated {
                if self.pos == before && self.peeked.is_some() {
                    // A token no command starts with (a stray `)`, `fi`, `;;`):
                    // skip it so the parse goes on.
                    self.next();
                    self.incomplete = true;
                }
                continue;
            }
            let next = match self.peek() {
                Tok::Op("&&") => Some(Connector::And),
                Tok::Op("||") => Some(Connector::Or),
                Tok::Op(";") | Tok::Newline => Some(Connector::Sequence),
                Tok::Op("&") => Some(Connector::Background),
                _ => None,
            };
            if next.is_some() {
                self.next();
                if matches!(next, Some(Connector::And | Connector::Or)) {
                    self.skip_newlines();
                }
            }
            command.pipelines.push(Pipeline { next, ..pipeline });
        }
        if let Some(last) = command.pipelines.last_mut()
            && last.next == Some(Connector::Sequence)
        {
            last.next = None;
        }
        command
    }

    fn parse_pipeline(&mut self) -> Pipeline {
        let mut pipeline = Pipeline::default();
        while self.peek_is("!") || self.peek_is("time") {
            if let Tok::Word(w) = self.next()
                && w.text == "!"
            {
                pipeline.negated = !pipeline.negated;
            }
            // `time -p`: its option.
            while self.peek_is("-p") {
                self.next();
            }
        }
        while let Some(command) = self.parse_command() {
            pipeline.commands.push(command);
            if matches!(self.peek(), Tok::Op("|" | "|&")) {
                self.next();
                self.skip_newlines();
            } else {
                break;
            }
        }
        pipeline
    }

    pub(super) fn parse_command(&mut self) -> Option<Command> {
        if self.halted() {
            return None;
        }
        if self.peek_is("(") {
            return self.parse_paren();
        }
        let keyword = match self.peek() {
            Tok::Word(w) if !w.quoted && !w.dynamic => w.text.clone(),
            Tok::Word(_) | Tok::Redir(..) => return Some(self.parse_simple()),
            _ => return None,
        };
        let (kind, middles, end): (CompoundKind, &[&str], &str) = match keyword.as_str() {
            "{" => (CompoundKind::Group, &[], "}"),
            "if" => (CompoundKind::If, &["then", "elif", "else"], "fi"),
            "while" => (CompoundKind::While, &["do"], "done"),
            "until" => (CompoundKind::Until, &["do"], "done"),
            "for" | "select" => {
                self.next();
                let words = self.for_header();
                let body = self.nested(|p| p.parse_for_body())?;
                return Some(self.compound_with(CompoundKind::For, body, words));
            }
            "case" => {
                self.next();
                let words = match self.peek() {
                    Tok::Word(_) => match self.next() {
                        Tok::Word(w) => vec![w],
                        _ => Vec::new(),
                    },
                    _ => Vec::new(),
                };
                let body = self.nested(Self::parse_case)?;
                return Some(self.compound_with(CompoundKind::Case, body, words));
            }
            "function" => {
                self.next();
                let name = match self.next() {
                    Tok::Word(w) => w.text,
                    _ => {
                        self.incomplete = true;
                        String::new()
                    }
                };
                return self.parse_function_body(name);
            }
            "coproc" => {
                self.next();
                return self.parse_coproc();
            }
            "[[" => {
                self.next();
                return Some(self.parse_conditional());
            }
            _ => return Some(self.parse_simple()),
        };
        self.next();
        let body = self.nested(|p| p.parse_keyword_body(middles, end))?;
        Some(self.compound(kind, body))
    }

    /// At `(`: `(( arithmetic ))` when it reads as one, else a subshell.
    fn parse_paren(&mut self) -> Option<Command> {
        if self.peek_char() == Some('(') && matches!(self.peeked, Some(Tok::Op("("))) {
            let mark = self.mark();
            self.peeked = None;
            self.bump();
            let mut word = Word {
                dynamic: true,
                ..Word::default()
            };
            let start = self.pos;
            let arithmetic = self
                .nested(|p| p.lex_arithmetic(&mut word, "))"))
                .unwrap_or(true);
            if arithmetic {
                word.text = format!("(({}", self.slice(start, self.pos));
                word.written = word.text.clone();
                return Some(self.compound_with(
                    CompoundKind::Arithmetic,
                    ShellCommand::default(),
                    vec![word],
                ));
            }
            self.reset(mark);
        }
        self.next();
        let body = self.nested(|p| p.parse_list(&[")"]))?;
        self.expect_close(")");
        Some(self.compound(CompoundKind::Subshell, body))
    }

    /// After `[[`: its words up to `]]`; `&&`, `||`, `<`, `>`, `(`, `)` inside
    /// are the test's operators, not the shell's.
    fn parse_conditional(&mut self) -> Command {
        let mut words = Vec::new();
        loop {
            match self.next() {
                Tok::Word(w) if !w.quoted && w.text == "]]" => break,
                Tok::Word(w) => words.push(w),
                Tok::Eof => {
                    self.incomplete = true;
                    break;
                }
                Tok::Op(_) | Tok::Redir(..) | Tok::Newline => {}
            }
        }
        self.compound_with(CompoundKind::Conditional, ShellCommand::default(), words)
    }

    /// After `coproc`: `NAME compound`, a compound, or a simple command.
    fn parse_coproc(&mut self) -> Option<Command> {
        let mut name = None;
        let candidate = match self.peek() {
            Tok::Word(w)
                if !w.quoted
                    && !w.dynamic
                    && !matches!(
                        w.text.as_str(),
                        "{" | "if" | "while" | "until" | "for" | "case"
                    ) =>
            {
                Some(w.text.clone())
            }
            _ => None,
        };
        if let Some(candidate) = candidate {
            let mark = self.mark();
            self.next();
            let compound_follows = self.peek_is("(")
                || ["{", "if", "while", "until", "for", "case", "select", "[["]
                    .iter()
                    .any(|k| self.peek_is(k));
            if compound_follows {
                name = Some(candidate);
            } else {
                self.reset(mark);
            }
        }
        let inner = self.nested(Self::parse_command)??;
        let body = alone(inner);
        Some(self.compound(CompoundKind::Coproc(name), body))
    }

    /// The body of `if`, `while`, `until`, `for` or `{`: lists separated by
    /// the `middles` keywords, up to `end`, all in one [`ShellCommand`].
    fn parse_keyword_body(&mut self, middles: &[&str], end: &str) -> ShellCommand {
        let mut stops = middles.to_vec();
        stops.push(end);
        let mut body = ShellCommand::default();
        loop {
            let part = self.parse_list(&stops);
            body.pipelines.extend(part.pipelines);
            if self.peek_is(end) {
                self.next();
                break;
            }
            if middles.iter().any(|m| self.peek_is(m)) {
                self.next();
                continue;
            }
            self.incomplete = true;
            break;
        }
        body
    }

    /// A `for` loop's body: `do … done`, or bash's `{ …; }`.
    fn parse_for_body(&mut self) -> ShellCommand {
        if self.peek_is("{") {
            self.next();
            return self.parse_keyword_body(&[], "}");
        }
        if self.peek_is("do") {
            self.next();
        } else {
            self.incomplete = true;
        }
        self.parse_keyword_body(&[], "done")
    }

    /// After `for`/`select`: the name, then `in words…`, or `(( … ))`, up to
    /// the separator before `do`; returns the words.
    fn for_header(&mut self) -> Vec<Word> {
        let mut words = Vec::new();
        if self.peek_is("(") && self.peek_char() == Some('(') {
            self.peeked = None;
            self.bump();
            let mut word = Word {
                dynamic: true,
                ..Word::default()
            };
            self.nested(|p| p.lex_arithmetic(&mut word, "))"));
            words.push(word);
        }
        loop {
            if self.peek_is("do") || self.peek_is("{") {
                return words;
            }
            match self.next() {
                Tok::Eof => {
                    self.incomplete = true;
                    return words;
                }
                Tok::Op(";") | Tok::Newline => {
                    self.skip_newlines();
                    return words;
                }
                Tok::Word(word) => words.push(word),
                _ => {}
            }
        }
    }

    /// After `case`: the word, `in`, then `pattern) list ;;` items up to `esac`.
    fn parse_case(&mut self) -> ShellCommand {
        let mut body = ShellCommand::default();
        self.skip_newlines();
        if self.peek_is("in") {
            self.next();
        } else {
            self.incomplete = true;
        }
        loop {
            self.skip_newlines();
            if self.peek_is("esac") {
                self.next();
                return body;
            }
            // The patterns, up to `)`.
            loop {
                match self.next() {
                    Tok::Op(")") => break,
                    Tok::Eof => {
                        self.incomplete = true;
                        return body;
                    }
                    _ => {}
                }
            }
            let part = self.parse_list(&[";;", ";&", ";;&", "esac"]);
            body.pipelines.extend(part.pipelines);
            if matches!(self.peek(), Tok::Op(";;" | ";&" | ";;&")) {
                self.next();
            } else if !self.peek_is("esac") {
                self.incomplete = true;
                return body;
            }
        }
    }

    /// The body of a function definition (any command), then its redirections.
    fn parse_function_body(&mut self, name: String) -> Option<Command> {
        if self.peek_is("(") {
            self.next();
            self.expect_close(")");
        }
        self.skip_newlines();
        let inner = self.nested(Self::parse_command)??;
        let body = alone(inner);
        Some(self.compound(CompoundKind::Function(name), body))
    }

    /// A compound command and the redirections after it.
    fn compound(&mut self, kind: CompoundKind, body: ShellCommand) -> Command {
        self.compound_with(kind, body, Vec::new())
    }

    fn compound_with(
        &mut self,
        kind: CompoundKind,
        body: ShellCommand,
        words: Vec<Word>,
    ) -> Command {
        let mut redirections = Vec::new();
        while let Tok::Redir(..) = self.peek() {
            if let Tok::Redir(fd, op) = self.next()
                && let Some(r) = self.parse_redirection(fd, op)
            {
                redirections.push(r);
            }
        }
        Command::Compound(CompoundCommand {
            kind,
            body,
            words,
            redirections,
        })
    }

    fn parse_simple(&mut self) -> Command {
        let mut simple = SimpleCommand::default();
        loop {
            match self.peek() {
                Tok::Redir(..) => {
                    if let Tok::Redir(fd, op) = self.next()
                        && let Some(r) = self.parse_redirection(fd, op)
                    {
                        simple.redirections.push(r);
                    }
                }
                Tok::Word(_) => {
                    let Tok::Word(word) = self.next() else {
                        break;
                    };
                    if simple.words.is_empty()
                        && word.assignment
                        && let Some((name, value)) = word.text.split_once('=')
                    {
                        let name = name.trim_end_matches('+').to_owned();
                        let value = Word {
                            text: value.to_owned(),
                            assignment: false,
                            ..word.clone()
                        };
                        simple.assignments.push(Assignment { name, value });
                        continue;
                    }
                    // `name() body`: a function definition.
                    if simple.words.is_empty()
                        && simple.assignments.is_empty()
                        && simple.redirections.is_empty()
                        && !word.dynamic
                        && self.peek_is("(")
                    {
                        self.next();
                        self.expect_close(")");
                        if let Some(def) = self.parse_function_body(word.text.clone()) {
                            return def;
                        }
                    }
                    simple.words.push(word);
                }
                _ => break,
            }
        }
        simple.script = self.script_of(&simple).map(Box::new);
        Command::Simple(simple)
    }
}

/// A body of one command (a function's, a `coproc`'s).
fn alone(command: Command) -> ShellCommand {
    ShellCommand {
        pipelines: vec![Pipeline {
            commands: vec![command],
            ..Pipeline::default()
        }],
        ..ShellCommand::default()
    }
}
