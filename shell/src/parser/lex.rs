//! The lexer: blanks, comments, operators, and words with their quotes removed,
//! escapes and `$'…'` decoded, and the command lines inside `$( … )`, backticks
//! and `<( … )` parsed on the way.

use super::{Parser, Tok};
use crate::ast::Word;
use crate::expand::ansi_c_escape;
use crate::is_name;

/// Operators, longest first so that the first match is the right one.
const OPERATORS: &[&str] = &[
    ";;&", "&>>", "<<<", "<<-", ";;", ";&", "&&", "||", "|&", "&>", "<<", ">>", "<&", ">&", "<>",
    ">|", "<", ">", "|", "&", ";", "(", ")",
];

const REDIRECTIONS: &[&str] = &[
    "&>>", "<<<", "<<-", "&>", "<<", ">>", "<&", ">&", "<>", ">|", "<", ">",
];

impl Parser {
    /// Blanks, line continuations and comments before the next token.
    fn skip_blanks(&mut self) {
        loop {
            match self.peek_char() {
                Some(' ' | '\t' | '\r') => {
                    self.bump();
                }
                Some('\\') if self.peek_char_at(1) == Some('\n') => {
                    self.bump();
                    self.bump();
                }
                Some('#') => {
                    while self.peek_char().is_some_and(|c| c != '\n') {
                        self.bump();
                    }
                }
                _ => break,
            }
        }
    }

    pub(super) fn lex(&mut self) -> Tok {
        self.skip_blanks();
        let Some(c) = self.peek_char() else {
            return Tok::Eof;
        };
        if c == '\n' {
            self.bump();
            return Tok::Newline;
        }
        // A descriptor number right before a redirection: `2>`, `0<`.
        let digits = self.src.get(self.pos..).map_or(0, |rest| {
            rest.bytes().take_while(u8::is_ascii_digit).count()
        });
        if digits > 0
            && digits <= 9
            && matches!(self.peek_char_at(digits), Some('<' | '>'))
            && self.peek_char_at(digits + 1) != Some('(')
        {
            let fd = self.slice(self.pos, self.pos + digits).parse().ok();
            for _ in 0..digits {
                self.bump();
            }
            if let Some(Tok::Redir(_, op)) = self.lex_operator() {
                return Tok::Redir(fd, op);
            }
        }
        if matches!(c, '<' | '>') && self.peek_char_at(1) == Some('(') {
            return Tok::Word(self.lex_word());
        }
        if let Some(tok) = self.lex_operator() {
            return tok;
        }
        Tok::Word(self.lex_word())
    }

    fn lex_operator(&mut self) -> Option<Tok> {
        // Most tokens are words: one look at the first byte spares them the
        // comparison with every operator (measured: a fifth of a parse).
        let first = *self.src.as_bytes().get(self.pos)?;
        if !matches!(first, b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')') {
            return None;
        }
        let op = OPERATORS.iter().find(|op| self.at(op))?;
        for _ in 0..op.len() {
            self.bump();
        }
        Some(if REDIRECTIONS.contains(op) {
            Tok::Redir(None, op)
        } else {
            Tok::Op(op)
        })
    }

    pub(super) fn lex_word(&mut self) -> Word {
        let start = self.pos;
        let mut word = Word::default();
        if !self.count_word() {
            return word;
        }
        // A process substitution is a word of its own.
        if matches!(self.peek_char(), Some('<' | '>')) && self.peek_char_at(1) == Some('(') {
            self.bump();
            self.bump();
            word.dynamic = true;
            word.process_substitution = true;
            if let Some(body) = self.nested(|p| p.parse_list(&[")"])) {
                word.substitutions.push(body);
                self.expect_close(")");
            }
            word.text.push_str(self.slice(start, self.pos));
            word.written = word.text.clone();
            return word;
        }
        let mut unquoted_prefix = true;
        while let Some(c) = self.peek_char() {
            match c {
                ' ' | '\t' | '\r' | '\n' | '|' | '&' | ';' | '<' | '>' | '(' | ')' => {
                    // `NAME=(a b c)`: a bash array assignment.
                    if c == '('
                        && unquoted_prefix
                        && word.text.ends_with('=')
                        && is_name(word.text.trim_end_matches(['=', '+']))
                    {
                        self.lex_balanced_parens(&mut word);
                        continue;
                    }
                    break;
                }
                '\\' => {
                    self.bump();
                    match self.bump() {
                        Some('\n') => {}
                        Some(escaped) => {
                            word.text.push(escaped);
                            word.quoted = true;
                            unquoted_prefix = false;
                        }
                        None => word.text.push('\\'),
                    }
                }
                '\'' => {
                    self.bump();
                    word.quoted = true;
                    unquoted_prefix = false;
                    self.lex_single_quoted(&mut word);
                }
                '"' => {
                    self.bump();
                    word.quoted = true;
                    unquoted_prefix = false;
                    self.lex_double_quoted(&mut word);
                }
                '`' => {
                    self.bump();
                    unquoted_prefix = false;
                    self.lex_backquoted(&mut word, false);
                }
                '$' => {
                    unquoted_prefix = false;
                    self.lex_dollar(&mut word, false);
                }
                '=' => {
                    self.bump();
                    if unquoted_prefix && !word.assignment {
                        let name = word.text.strip_suffix('+').unwrap_or(&word.text);
                        word.assignment = is_name(name);
                    }
                    word.text.push('=');
                }
                _ => {
                    self.bump();
                    match c {
                        '{' => word.brace = true,
                        '*' | '?' | '[' => word.glob = true,
                        _ => {}
                    }
                    word.text.push(c);
                }
            }
            if self.halted() {
                break;
            }
        }
        word.written = self.slice(start, self.pos).to_owned();
        word
    }

    fn lex_balanced_parens(&mut self, word: &mut Word) {
        let mut depth = 0usize;
        while let Some(c) = self.peek_char() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        self.bump();
                        word.text.push(')');
                        return;
                    }
                }
                '$' if self.peek_char_at(1) == Some('(') => {
                    // `a=($(rm x))`: the substitution runs.
                    self.lex_dollar(word, false);
                    continue;
                }
                '`' => {
                    self.bump();
                    self.lex_backquoted(word, false);
                    continue;
                }
                '$' => word.dynamic = true,
                _ => {}
            }
            self.bump();
            word.text.push(c);
            if self.halted() {
                return;
            }
        }
        self.incomplete = true;
    }

    fn lex_single_quoted(&mut self, word: &mut Word) {
        while let Some(c) = self.bump() {
            if c == '\'' {
                return;
            }
            word.text.push(c);
        }
        self.incomplete = true;
    }

    pub(super) fn lex_double_quoted(&mut self, word: &mut Word) {
        while let Some(c) = self.peek_char() {
            match c {
                '"' => {
                    self.bump();
                    return;
                }
                '\\' => {
                    self.bump();
                    match self.bump() {
                        Some('\n') => {}
                        Some(e @ ('$' | '`' | '"' | '\\')) => word.text.push(e),
                        Some(other) => {
                            word.text.push('\\');
                            word.text.push(other);
                        }
                        None => word.text.push('\\'),
                    }
                }
                '$' => self.lex_dollar(word, true),
                '`' => {
                    self.bump();
                    self.lex_backquoted(word, true);
                }
                _ => {
                    self.bump();
                    word.text.push(c);
                }
            }
            if self.halted() {
                return;
            }
        }
        self.incomplete = true;
    }

    /// After the opening backquote: reads to the closing one and parses the
    /// text between as a command line.
    pub(super) fn lex_backquoted(&mut self, word: &mut Word, in_double_quotes: bool) {
        let mut inner = String::new();
        let mut closed = false;
        while let Some(c) = self.bump() {
            match c {
                '`' => {
                    closed = true;
                    break;
                }
                '\\' => match self.bump() {
                    Some(e @ ('$' | '`' | '\\')) => inner.push(e),
                    Some('"') if in_double_quotes => inner.push('"'),
                    Some(other) => {
                        inner.push('\\');
                        inner.push(other);
                    }
                    None => inner.push('\\'),
                },
                _ => inner.push(c),
            }
        }
        if !closed {
            self.incomplete = true;
        }
        word.dynamic = true;
        word.text.push('`');
        word.text.push_str(&inner);
        word.text.push('`');
        if let Some(nested) = self.parse_text(&inner) {
            self.incomplete |= nested.incomplete;
            word.substitutions.push(nested);
        }
    }

    /// At a `$`: a parameter, `${…}`, `$(…)`, `$((…))`, `$[…]`, `$'…'`, `$"…"`,
    /// or a literal dollar sign.
    pub(super) fn lex_dollar(&mut self, word: &mut Word, in_double_quotes: bool) {
        let start = self.pos;
        self.bump();
        match self.peek_char() {
            Some('(') if self.peek_char_at(1) == Some('(') => {
                // `$(( … ))` is arithmetic unless a `)` closes it alone
                // (`$((cd x) && y)`): then it is `$(` and a subshell, as bash reads it.
                let mark = self.mark();
                self.bump();
                self.bump();
                word.dynamic = true;
                let mut inner = Word::default();
                let arithmetic = self
                    .nested(|p| p.lex_arithmetic(&mut inner, "))"))
                    .unwrap_or(true);
                if arithmetic {
                    word.substitutions.append(&mut inner.substitutions);
                } else {
                    self.reset(mark);
                    self.bump();
                    if let Some(body) = self.nested(|p| p.parse_list(&[")"])) {
                        word.substitutions.push(body);
                        self.expect_close(")");
                    }
                }
                word.text.push_str(self.slice(start, self.pos));
            }
            Some('[') => {
                self.bump();
                word.dynamic = true;
                self.nested(|p| p.lex_arithmetic(word, "]"));
                word.text.push_str(self.slice(start, self.pos));
            }
            Some('(') => {
                self.bump();
                word.dynamic = true;
                if let Some(body) = self.nested(|p| p.parse_list(&[")"])) {
                    word.substitutions.push(body);
                    self.expect_close(")");
                }
                word.text.push_str(self.slice(start, self.pos));
            }
            Some('{') => {
                word.dynamic = true;
                self.nested(|p| p.lex_parameter(word));
                word.text.push_str(self.slice(start, self.pos));
            }
            Some('\'') if !in_double_quotes => {
                self.bump();
                word.quoted = true;
                let mut raw = String::new();
                loop {
                    match self.bump() {
                        Some('\'') => break,
                        Some('\\') => {
                            raw.push('\\');
                            if let Some(e) = self.bump() {
                                raw.push(e);
                            }
                        }
                        Some(c) => raw.push(c),
                        None => {
                            self.incomplete = true;
                            break;
                        }
                    }
                }
                word.text.push_str(&ansi_c_escape(&raw));
            }
            Some('"') if !in_double_quotes => {
                self.bump();
                word.quoted = true;
                self.lex_double_quoted(word);
            }
            Some(c) if c.is_ascii_alphanumeric() || c == '_' => {
                word.dynamic = true;
                word.text.push('$');
                if c.is_ascii_digit() {
                    self.bump();
                    word.text.push(c);
                } else {
                    while let Some(c) = self
                        .peek_char()
                        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
                    {
                        self.bump();
                        word.text.push(c);
                    }
                }
            }
            Some(c @ ('@' | '*' | '#' | '?' | '$' | '!' | '-')) => {
                self.bump();
                word.dynamic = true;
                word.text.push('$');
                word.text.push(c);
            }
            _ => word.text.push('$'),
        }
    }

    /// After `${`'s `$`: up to the matching `}`, with the substitutions inside
    /// (`${x:-$(rm y)}`, `${x:-`rm y`}`) parsed.
    fn lex_parameter(&mut self, word: &mut Word) {
        let mut depth = 0usize;
        while let Some(c) = self.peek_char() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        self.bump();
                        return;
                    }
                }
                '\\' => {
                    self.bump();
                }
                '\'' => {
                    self.bump();
                    let mut ignored = Word::default();
                    self.lex_single_quoted(&mut ignored);
                    continue;
                }
                '"' => {
                    self.bump();
                    let mut inner = Word::default();
                    self.lex_double_quoted(&mut inner);
                    word.substitutions.append(&mut inner.substitutions);
                    continue;
                }
                '$' if self.peek_char_at(1) != Some('{') => {
                    self.lex_inner_expansion(word);
                    continue;
                }
                '`' => {
                    self.lex_inner_expansion(word);
                    continue;
                }
                _ => {}
            }
            self.bump();
            if self.halted() {
                return;
            }
        }
        self.incomplete = true;
    }

    /// At a `$` or a backquote inside `${…}` or arithmetic: the expansion, whose
    /// command substitutions are added to `word` (its text is not the word's).
    fn lex_inner_expansion(&mut self, word: &mut Word) {
        let mut inner = Word::default();
        if self.peek_char() == Some('`') {
            self.bump();
            self.lex_backquoted(&mut inner, true);
        } else {
            self.lex_dollar(&mut inner, true);
        }
        word.substitutions.append(&mut inner.substitutions);
    }

    /// An arithmetic expression up to `close` (`))` or `]`) at depth zero; the
    /// command substitutions in it run, so they are parsed. `false` when a lone
    /// `)` closes it first: it was not arithmetic (the caller reads it again).
    pub(super) fn lex_arithmetic(&mut self, word: &mut Word, close: &str) -> bool {
        let mut depth = 0usize;
        while self.peek_char().is_some() {
            if depth == 0 && self.at(close) {
                for _ in 0..close.len() {
                    self.bump();
                }
                return true;
            }
            match self.peek_char() {
                Some('(') => depth += 1,
                Some(')') if depth == 0 => return false,
                Some(')') => depth -= 1,
                Some('$' | '`') => {
                    self.lex_inner_expansion(word);
                    continue;
                }
                _ => {}
            }
            self.bump();
            if self.halted() {
                return true;
            }
        }
        self.incomplete = true;
        true
    }
}
