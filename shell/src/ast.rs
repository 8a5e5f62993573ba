//! The structure a command line parses into: lists of pipelines, simple and
//! compound commands, words and redirections.

/// A parsed command line (or script): its pipelines in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShellCommand {
    /// The pipelines, in order; each says how it is joined to the next.
    pub pipelines: Vec<Pipeline>,
    /// The input was not complete shell: an unterminated quote, a missing `)`,
    /// `}`, `fi`, `done` or `esac`, a stray operator. What could be read is here.
    pub incomplete: bool,
    /// The input nested deeper than [`MAX_DEPTH`](crate::MAX_DEPTH) (or carried
    /// too many here-documents): the parse stopped there and the rest is missing.
    pub too_deep: bool,
    /// The input held more than [`MAX_WORDS`](crate::MAX_WORDS) words: the parse
    /// stopped there and the rest is missing.
    pub too_large: bool,
}

/// Commands joined by `|` (or `|&`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pipeline {
    /// The commands, left to right: each one's stdout feeds the next one's stdin.
    pub commands: Vec<Command>,
    /// The pipeline starts with `!`.
    pub negated: bool,
    /// How this pipeline is joined to the next one; `None` for the last.
    pub next: Option<Connector>,
}

/// What joins a pipeline to the one after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Connector {
    /// `&&`: the next runs if this one succeeded.
    And,
    /// `||`: the next runs if this one failed.
    Or,
    /// `;` or a newline: the next runs after this one.
    Sequence,
    /// `&`: this one runs in the background.
    Background,
}

/// One element of a pipeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// A program or builtin with its words.
    Simple(SimpleCommand),
    /// A subshell, group, `if`, loop, `case`, function definition, `coproc`,
    /// `(( … ))` or `[[ … ]]`.
    Compound(CompoundCommand),
}

/// What kind of compound command a [`CompoundCommand`] is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompoundKind {
    /// `( … )`.
    Subshell,
    /// `{ …; }`.
    Group,
    /// `if … then … elif … else … fi` (conditions and branches in one body).
    If,
    /// `while … do … done`.
    While,
    /// `until … do … done`.
    Until,
    /// `for NAME in …; do … done` (and `select`, and `for (( … ))`).
    For,
    /// `case WORD in … esac` (every branch in one body).
    Case,
    /// A function definition `NAME() …` or `function NAME …`: the body is
    /// defined, not run, here.
    Function(String),
    /// `coproc [NAME] command`: the body runs in the background.
    Coproc(Option<String>),
    /// `(( expression ))`: arithmetic; the expression is the one word, whose
    /// substitutions run.
    Arithmetic,
    /// `[[ … ]]`: a test; its words' substitutions run.
    Conditional,
}

/// A compound command: its kind, its body and its redirections.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompoundCommand {
    /// What it is.
    pub kind: CompoundKind,
    /// Every command inside it (for `if` and `case`, all branches).
    pub body: ShellCommand,
    /// The words of a `for`/`select` header (`for f in a $(ls)`), the subject
    /// of a `case`, the expression of `(( … ))`, the words of `[[ … ]]`; empty
    /// for the other kinds.
    pub words: Vec<Word>,
    /// Redirections after the closing word, e.g. `( … ) > log`.
    pub redirections: Vec<Redirection>,
}

/// `NAME=value` before a command's name (or alone).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assignment {
    /// The variable name.
    pub name: String,
    /// The value, as a word (it may hold substitutions).
    pub value: Word,
}

/// A redirection such as `> out`, `2>&1`, `< in`, `<<EOF`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirection {
    /// The file descriptor written before the operator (`2` in `2>err`).
    pub fd: Option<u32>,
    /// The operator: one of `<`, `>`, `>>`, `>|`, `<>`, `<&`, `>&`, `&>`,
    /// `&>>`, `<<`, `<<-`, `<<<`.
    pub op: &'static str,
    /// The file, descriptor, here-document delimiter or here-string.
    pub target: Word,
    /// For `<<` and `<<-`: the here-document's text.
    pub heredoc: Option<String>,
}

/// A word: a command name, an argument, a value or a redirection target.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Word {
    /// The word with its quotes removed and `$'…'` decoded. Expansions are kept
    /// as written (`$c`, `$(curl x)`), so for a [`dynamic`](Self::dynamic) word
    /// this is not the value the shell would use.
    pub text: String,
    /// The word as written in the command line, quotes and all.
    pub written: String,
    /// The value depends on an expansion: a parameter (`$c`, `${c}`), a command
    /// substitution, arithmetic or a process substitution.
    pub dynamic: bool,
    /// Part of the word was quoted (`'…'`, `"…"`, `$'…'`, `\x`).
    pub quoted: bool,
    /// The word is a process substitution, `<( … )` or `>( … )`: the shell
    /// passes a file name (`/dev/fd/63`) whose contents are the commands' output.
    pub process_substitution: bool,
    /// The commands in the word's `$( … )`, backticks or process substitution.
    pub substitutions: Vec<ShellCommand>,
    /// Starts with an unquoted `NAME=` (or `NAME+=`): an assignment when it
    /// comes before the command name.
    pub(crate) assignment: bool,
    /// Holds an unquoted `{`: brace expansion may turn it into several words.
    pub(crate) brace: bool,
    /// Holds an unquoted `*`, `?` or `[`: pathname expansion may change it.
    pub(crate) glob: bool,
}

/// A program or builtin with its assignments, words and redirections.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SimpleCommand {
    /// `NAME=value` words before the command name.
    pub assignments: Vec<Assignment>,
    /// The command name and its arguments (empty for a bare assignment).
    pub words: Vec<Word>,
    /// The redirections, wherever they appeared in the command.
    pub redirections: Vec<Redirection>,
    /// The script this command hands to a shell, parsed: the body of
    /// `sh -c '…'` (also through wrappers: `sudo bash -c '…'`), the arguments of
    /// `eval`, the action of `trap`, or a here-document / here-string given to
    /// a shell that reads its program from stdin. `None` when there is none or
    /// it is dynamic.
    pub script: Option<Box<ShellCommand>>,
}

impl Word {
    /// The word as a literal, or `None` if it is [`dynamic`](Self::dynamic).
    pub fn literal(&self) -> Option<&str> {
        (!self.dynamic).then_some(self.text.as_str())
    }

    /// Whether brace expansion (`{a,b}`, `{1..3}`) may apply to the word.
    pub fn has_brace(&self) -> bool {
        self.brace
    }

    /// Whether pathname expansion (`*`, `?`, `[…]` unquoted) may apply to the word.
    pub fn has_glob(&self) -> bool {
        self.glob
    }
}

impl ShellCommand {
    /// The parse stopped early or could not read everything: incomplete, too
    /// deep or too large.
    pub fn partial(&self) -> bool {
        self.incomplete || self.too_deep || self.too_large
    }
}
