//! The parser: a hand-written lexer and recursive-descent grammar over the
//! command line's text, in one pass.
//!
//! It works on byte offsets into the text (never a copy per character), keeps
//! one token of look-ahead, and jumps over here-document bodies it has already
//! read. Three bounds keep it linear and small whatever the input: nesting
//! ([`MAX_DEPTH`]), here-documents ([`MAX_HEREDOCS`]) and words
//! ([`MAX_WORDS`], counted across every nested script, so `eval eval … x`
//! cannot re-parse its text once per level without paying for it).

mod grammar;
mod lex;
mod redirect;

use crate::ast::{ShellCommand, Word};
use crate::{MAX_DEPTH, MAX_HEREDOCS, MAX_WORDS};

/// A token: what the lexer hands the parser.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Word(Word),
    /// An operator such as `|`, `&&`, `;`, `(`, `)`, `;;`.
    Op(&'static str),
    /// A redirection operator with its optional descriptor number.
    Redir(Option<u32>, &'static str),
    Newline,
    Eof,
}

/// How many times one parse may take a reading back (see [`Parser::reset`]).
const MAX_BACKTRACKS: usize = 16;

/// A position to come back to: see [`Parser::mark`].
struct Mark {
    pos: usize,
    peeked: Option<Tok>,
    skips: usize,
    next_skip: usize,
    last_heredoc: Option<(usize, usize)>,
    incomplete: bool,
}

pub(crate) struct Parser {
    src: String,
    pos: usize,
    depth: usize,
    peeked: Option<Tok>,
    /// Here-document bodies already read: (start, end) byte ranges the lexer
    /// jumps over, in the order it reaches them.
    skips: Vec<(usize, usize)>,
    next_skip: usize,
    /// The newline the last here-document followed and where its body ended:
    /// a second `<<` on the same line reads its body from there.
    last_heredoc: Option<(usize, usize)>,
    /// Words read so far, here and in every nested script.
    words: usize,
    /// Readings taken back so far (see [`Parser::reset`]), here and in every
    /// nested script: each costs a second pass over part of the text.
    backtracks: usize,
    incomplete: bool,
    too_deep: bool,
    too_large: bool,
}

impl Parser {
    pub(crate) fn new(text: &str, depth: usize, words: usize) -> Self {
        Self {
            src: text.to_owned(),
            pos: 0,
            depth,
            peeked: None,
            skips: Vec::new(),
            next_skip: 0,
            last_heredoc: None,
            words,
            backtracks: 0,
            incomplete: false,
            too_deep: false,
            too_large: false,
        }
    }

    pub(crate) fn parse_root(&mut self) -> ShellCommand {
        let mut command = self.parse_list(&[]);
        command.incomplete |= self.incomplete;
        command.too_deep |= self.too_deep;
        command.too_large |= self.too_large;
        command
    }

    // -- characters ---------------------------------------------------------

    fn peek_char(&self) -> Option<char> {
        self.src.get(self.pos..)?.chars().next()
    }

    fn peek_char_at(&self, offset: usize) -> Option<char> {
        self.src.get(self.pos..)?.chars().nth(offset)
    }

    /// Whether the text at the current position starts with `s`.
    fn at(&self, s: &str) -> bool {
        self.src
            .get(self.pos..)
            .is_some_and(|rest| rest.starts_with(s))
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek_char()?;
        self.pos += c.len_utf8();
        // Jump over here-document bodies that were read already.
        while let Some(&(start, end)) = self.skips.get(self.next_skip) {
            if start > self.pos {
                break;
            }
            if start == self.pos {
                self.pos = end.max(self.pos);
            }
            self.next_skip += 1;
        }
        Some(c)
    }

    /// The text between two byte offsets (empty if they are not boundaries).
    fn slice(&self, start: usize, end: usize) -> &str {
        self.src.get(start..end.min(self.src.len())).unwrap_or("")
    }

    /// Stops the whole parse: nesting is too deep.
    fn stop_too_deep(&mut self) {
        self.too_deep = true;
        self.stop();
    }

    fn stop(&mut self) {
        self.pos = self.src.len();
        self.next_skip = self.skips.len();
        self.peeked = Some(Tok::Eof);
    }

    /// Counts a word against [`MAX_WORDS`]; stops the parse when over.
    fn count_word(&mut self) -> bool {
        self.words += 1;
        if self.words > MAX_WORDS {
            self.too_large = true;
            self.stop();
            return false;
        }
        true
    }

    fn halted(&self) -> bool {
        self.too_deep || self.too_large
    }

    /// Runs `f` one level deeper, or stops the parse if that is too deep.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> Option<T> {
        if self.depth >= MAX_DEPTH {
            self.stop_too_deep();
            return None;
        }
        self.depth += 1;
        let result = f(self);
        self.depth -= 1;
        Some(result)
    }

    /// Parses `text` as a separate command line one level deeper (backticks,
    /// `sh -c` bodies, here-documents given to a shell).
    fn parse_text(&mut self, text: &str) -> Option<ShellCommand> {
        if self.depth >= MAX_DEPTH {
            self.stop_too_deep();
            return None;
        }
        let mut child = Parser::new(text, self.depth + 1, self.words);
        child.backtracks = self.backtracks;
        let result = child.parse_root();
        self.words = child.words;
        self.backtracks = child.backtracks;
        if result.too_deep {
            self.stop_too_deep();
        } else if result.too_large {
            self.too_large = true;
            self.stop();
        }
        Some(result)
    }

    /// Where the parse is, to come back to when a reading turns out wrong
    /// (`((` that is not arithmetic, `coproc NAME` that is a simple command).
    fn mark(&self) -> Mark {
        Mark {
            pos: self.pos,
            peeked: self.peeked.clone(),
            skips: self.skips.len(),
            next_skip: self.next_skip,
            last_heredoc: self.last_heredoc,
            incomplete: self.incomplete,
        }
    }

    /// Goes back to `mark`. Bounded: after [`MAX_BACKTRACKS`] the parse stops
    /// as too large, so no input makes it re-read its text without end.
    fn reset(&mut self, mark: Mark) {
        if self.halted() {
            return;
        }
        self.backtracks += 1;
        if self.backtracks > MAX_BACKTRACKS {
            self.too_large = true;
            self.stop();
            return;
        }
        self.pos = mark.pos;
        self.peeked = mark.peeked;
        self.skips.truncate(mark.skips);
        self.next_skip = mark.next_skip;
        self.last_heredoc = mark.last_heredoc;
        self.incomplete = mark.incomplete;
    }

    // -- tokens -------------------------------------------------------------

    fn peek(&mut self) -> &Tok {
        if self.peeked.is_none() {
            let tok = self.lex();
            self.peeked = Some(tok);
        }
        self.peeked.as_ref().unwrap_or(&Tok::Eof)
    }

    fn next(&mut self) -> Tok {
        match self.peeked.take() {
            Some(tok) => tok,
            None => self.lex(),
        }
    }

    /// Whether the next token is the unquoted keyword or operator `word`.
    fn peek_is(&mut self, word: &str) -> bool {
        match self.peek() {
            Tok::Op(op) => *op == word,
            Tok::Word(w) => !w.quoted && !w.dynamic && w.text == word,
            _ => false,
        }
    }

    /// Consumes the closing operator of a nested list, or marks the input
    /// incomplete.
    fn expect_close(&mut self, close: &str) {
        if self.peek_is(close) {
            self.next();
        } else {
            self.incomplete = true;
        }
    }

    fn skip_newlines(&mut self) {
        while matches!(self.peek(), Tok::Newline) {
            self.next();
        }
    }

    /// Whether a here-document may still be read.
    fn heredoc_room(&mut self) -> bool {
        if self.skips.len() >= MAX_HEREDOCS {
            self.stop_too_deep();
            return false;
        }
        true
    }
}
