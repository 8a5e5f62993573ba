//! What a command line runs: every program the shell would start, found the way
//! the shell finds it, and where the reading cannot be sure.
//!
//! [`read`] parses the line, then walks every simple command at any depth —
//! pipelines, lists, compound bodies, function bodies (defined here, so assumed
//! called), `coproc`, substitutions, here-documents with unquoted delimiters,
//! and the scripts handed to a shell (`sh -c`, `eval`, `trap`, `env -S`, a
//! here-document fed to `bash`). Each gives an [`Invocation`]: its words after
//! quote removal and brace expansion, and where each program starts among them
//! (the wrappers `sudo`, `env`, `timeout 5`, `xargs` … and the program they
//! run); `find -exec` commands are invocations of their own.
//!
//! Where it cannot know, [`Reading::unsure`] says why: a program name that is an
//! expansion or a pattern, a script that is an expansion, a shell reading its
//! program from a pipe, an input cut short. A caller guarding against a program
//! treats an unsure reading as "may run it".
//!
//! It is linear in the input: each word is stored once per invocation, however
//! many wrappers precede it.

use crate::ast::{Command, Redirection, ShellCommand, SimpleCommand, Word};
use crate::expand::brace_expand;
use crate::program::ProgramSource;
use crate::{basename, is_assignment_text, is_shell, parse};

/// One simple command the shell would run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Invocation {
    /// Its words after the leading `NAME=value` assignments, quotes removed and
    /// braces expanded (expansions such as `$x` kept as written).
    pub words: Vec<String>,
    /// Where a program starts in [`words`](Self::words): the wrappers first
    /// (`sudo`, `env`, `timeout`, `xargs` …), the program they run last.
    pub starts: Vec<usize>,
    /// The command as written: its words and redirections, one space apart.
    pub written: String,
    /// Which of [`words`](Self::words) are expansions or patterns.
    odd: Vec<bool>,
}

/// What a command line runs, as far as it can be known without running it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reading {
    /// Every simple command, in source order, at any depth.
    pub invocations: Vec<Invocation>,
    /// Why the reading may miss a program the shell would run; empty when sure.
    pub unsure: Vec<String>,
    /// The line holds an expansion whose value the reading does not know:
    /// `$(…)`, backticks, `${…}`, `<(…)`.
    pub expands: bool,
    /// How many `find -exec` commands deep the reading is.
    depth: usize,
}

/// How many `find … -exec find … -exec …` levels are read.
const MAX_EXEC_DEPTH: usize = 4;

/// `word` in single quotes, so that a word read back is the same word.
fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

impl Invocation {
    /// The program that runs in the end, as a base name (`/usr/bin/rm` → `rm`).
    pub fn program(&self) -> Option<&str> {
        let start = *self.starts.last()?;
        self.words.get(start).map(|w| basename(w))
    }

    /// Every program that starts, wrappers included, as base names.
    pub fn programs(&self) -> impl Iterator<Item = &str> {
        self.starts
            .iter()
            .filter_map(|&i| self.words.get(i).map(|w| basename(w)))
    }

    /// The arguments of the program that runs in the end.
    pub fn args(&self) -> &[String] {
        match self.starts.last() {
            Some(&i) => self.words.get(i + 1..).unwrap_or_default(),
            None => &[],
        }
    }

    /// The command from the `k`-th program on: its base name and arguments, one
    /// space apart (`sudo /bin/rm -rf x`, k = 1 → `rm -rf x`).
    pub fn line_from(&self, k: usize) -> Option<String> {
        let start = *self.starts.get(k)?;
        let mut line = basename(self.words.get(start)?).to_owned();
        for word in self.words.get(start + 1..).unwrap_or_default() {
            line.push(' ');
            line.push_str(word);
        }
        Some(line)
    }
}

impl Reading {
    /// Every program that runs, wrappers included, as base names.
    pub fn programs(&self) -> impl Iterator<Item = &str> {
        self.invocations.iter().flat_map(Invocation::programs)
    }

    /// Whether the reading is sure it names every program the line runs.
    pub fn is_sure(&self) -> bool {
        self.unsure.is_empty()
    }
}

/// Reads `command`: see the [module documentation](self).
pub fn read(command: &str) -> Reading {
    read_parsed(&parse(command))
}

/// Reads a command already parsed with [`parse`]: the same as [`read`] of its
/// text, for a caller that needs both (no second parse).
pub fn read_parsed(parsed: &ShellCommand) -> Reading {
    let mut reading = Reading::default();
    walk(parsed, &mut reading);
    reading
}

fn unsure(reading: &mut Reading, why: impl Into<String>) {
    let why = why.into();
    if reading.unsure.len() < 8 && !reading.unsure.contains(&why) {
        reading.unsure.push(why);
    }
}

fn walk(command: &ShellCommand, reading: &mut Reading) {
    if command.incomplete {
        unsure(reading, "the command is not complete shell");
    }
    if command.too_deep {
        unsure(reading, "the command nests too deeply to be read");
    }
    if command.too_large {
        unsure(reading, "the command is too large to be read");
    }
    for pipeline in &command.pipelines {
        for (stage, cmd) in pipeline.commands.iter().enumerate() {
            match cmd {
                Command::Simple(simple) => simple_command(simple, stage > 0, reading),
                // A function's body is defined here: assume it is called.
                Command::Compound(compound) => {
                    words(&compound.words, reading);
                    walk(&compound.body, reading);
                    redirections(&compound.redirections, reading);
                }
            }
        }
    }
}

fn words(list: &[Word], reading: &mut Reading) {
    for w in list {
        word(w, reading);
    }
}

fn word(w: &Word, reading: &mut Reading) {
    if w.dynamic && (w.text.contains("$(") || w.text.contains('`') || w.text.contains("${"))
        || w.process_substitution
    {
        reading.expands = true;
    }
    for nested in &w.substitutions {
        reading.expands = true;
        walk(nested, reading);
    }
}

fn redirections(list: &[Redirection], reading: &mut Reading) {
    for r in list {
        word(&r.target, reading);
        // An unquoted here-document's body is expanded like a double-quoted word.
        if let Some(body) = &r.heredoc
            && !r.target.quoted
            && (body.contains("${") || body.contains("$(") || body.contains('`'))
        {
            reading.expands = true;
        }
    }
}

/// Variables the shell itself runs or sources as code.
const CODE_VARIABLES: &[&str] = &[
    "PS0",
    "PS1",
    "PS2",
    "PS4",
    "PROMPT_COMMAND",
    "BASH_ENV",
    "ENV",
    "BASH_LOADABLES_PATH",
];

fn simple_command(simple: &SimpleCommand, piped: bool, reading: &mut Reading) {
    if !simple.words.is_empty() {
        let invocation = invocation(simple, reading);
        check_program(simple, &invocation, piped, reading);
        let found = find_exec(&invocation, reading);
        reading.invocations.push(invocation);
        reading.invocations.extend(found);
    }
    for a in &simple.assignments {
        if CODE_VARIABLES.contains(&a.name.as_str()) {
            unsure(
                reading,
                format!("it sets {}, which the shell may run", a.name),
            );
        }
        word(&a.value, reading);
    }
    words(&simple.words, reading);
    redirections(&simple.redirections, reading);
    if let Some(script) = &simple.script {
        walk(script, reading);
    }
}

/// The invocation of `simple`: expanded words and program starts.
fn invocation(simple: &SimpleCommand, reading: &mut Reading) -> Invocation {
    let mut out = Invocation::default();
    // Which expanded words are dynamic or patterns (for the program checks).
    let mut odd = Vec::new();
    for w in &simple.words {
        let expanded = if w.brace && !w.dynamic {
            brace_expand(&w.written)
        } else {
            None
        };
        match expanded {
            Some(list) => {
                for text in list {
                    out.words.push(text);
                    odd.push(w.glob);
                }
            }
            None => {
                if w.brace && !w.dynamic {
                    unsure(reading, "a brace expansion gives too many words to read");
                }
                out.words.push(w.text.clone());
                odd.push(w.dynamic || w.glob || w.brace);
            }
        }
    }
    let mut written = String::new();
    for piece in simple
        .words
        .iter()
        .map(|w| w.written.as_str())
        .chain(simple.redirections.iter().flat_map(redirection_written))
    {
        if !written.is_empty() {
            written.push(' ');
        }
        written.push_str(piece);
    }
    out.written = written;
    out.starts = starts(&out.words, &odd, reading);
    out.odd = odd;
    out
}

fn redirection_written(r: &Redirection) -> [&str; 2] {
    [r.op, r.target.written.as_str()]
}

/// Where each program starts among `words`, wrappers first. `odd[i]`: the
/// word is an expansion or a pattern, so a program there is unknown.
fn starts(words: &[String], odd: &[bool], reading: &mut Reading) -> Vec<usize> {
    // The wrapper logic is the parser's; run it over the expanded words.
    let simple = SimpleCommand {
        words: words
            .iter()
            .zip(odd)
            .map(|(text, &dynamic)| Word {
                text: text.clone(),
                dynamic,
                ..Word::default()
            })
            .collect(),
        ..SimpleCommand::default()
    };
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(word) = simple.words.get(i) {
        out.push(i);
        if word.dynamic {
            unsure(
                reading,
                format!("the program `{}` is an expansion or a pattern", word.text),
            );
            break;
        }
        match simple.wrapped(i) {
            Some(next) if next > i => i = next,
            _ => break,
        }
    }
    out
}

/// What else makes the reading unsure about a simple command's program.
fn check_program(simple: &SimpleCommand, inv: &Invocation, piped: bool, reading: &mut Reading) {
    let Some(program) = inv.program() else {
        return;
    };
    let args = inv.args();
    match program {
        "shopt" if args.iter().any(|a| a == "expand_aliases") => {
            unsure(reading, "it turns on aliases, which may name any program");
        }
        "hash" if args.iter().any(|a| a.starts_with("-p")) => {
            unsure(reading, "`hash -p` maps a name to another program");
        }
        "enable" if args.iter().any(|a| a.starts_with("-f")) => {
            unsure(reading, "`enable -f` loads a builtin from a file");
        }
        "export" | "declare" | "typeset" | "local" | "readonly" => {
            for arg in args {
                if let Some((name, _)) = arg.split_once('=')
                    && is_assignment_text(arg)
                    && CODE_VARIABLES.contains(&name)
                {
                    unsure(reading, format!("it sets {name}, which the shell may run"));
                }
            }
        }
        _ => {}
    }
    if simple.script.is_some() {
        return;
    }
    if let Some(Err(())) = simple.shell_string() {
        unsure(
            reading,
            format!("`{program}` runs a script that is an expansion"),
        );
    }
    match simple.program_source() {
        Some(ProgramSource::Inline(code)) if code.dynamic && is_shell(program) => {
            unsure(
                reading,
                format!("`{program}` runs a script that is an expansion"),
            );
        }
        Some(ProgramSource::Eval) if simple.args().iter().any(|w| w.dynamic) => {
            unsure(reading, "`eval` runs a script that is an expansion");
        }
        Some(ProgramSource::Trap(action)) if action.dynamic => {
            unsure(reading, "`trap` runs a script that is an expansion");
        }
        Some(ProgramSource::File(file)) if file.process_substitution => {
            unsure(
                reading,
                format!("`{program}` runs the output of a command as a script"),
            );
        }
        Some(ProgramSource::Stdin) if is_shell(program) || matches!(program, "source" | ".") => {
            let fed = piped
                || simple
                    .redirections
                    .iter()
                    .any(|r| matches!(r.fd, None | Some(0)) && matches!(r.op, "<" | "<>"));
            if fed {
                unsure(
                    reading,
                    format!("`{program}` reads its script from its input"),
                );
            }
        }
        _ => {}
    }
    if simple.env_split_string().is_none()
        && simple.words.iter().any(|w| w.dynamic)
        && simple
            .words
            .first()
            .and_then(Word::literal)
            .is_some_and(|w| basename(w) == "env")
        && simple
            .words
            .iter()
            .any(|w| w.text.starts_with("-S") || w.text.starts_with("--split"))
    {
        unsure(reading, "`env -S` runs a command that is an expansion");
    }
}

/// `find … -exec CMD … ;` (and `-execdir`, `-ok`, `-okdir`): CMD is an
/// invocation of its own.
fn find_exec(inv: &Invocation, reading: &mut Reading) -> Vec<Invocation> {
    let mut found = Vec::new();
    if inv.program() != Some("find") {
        return found;
    }
    let Some(&start) = inv.starts.last() else {
        return found;
    };
    let mut i = start + 1;
    while i < inv.words.len() {
        if matches!(
            inv.words[i].as_str(),
            "-exec" | "-execdir" | "-ok" | "-okdir"
        ) {
            let end = inv.words[i + 1..]
                .iter()
                .position(|w| w == ";" || w == "+")
                .map_or(inv.words.len(), |o| i + 1 + o);
            let words = &inv.words[i + 1..end];
            if !words.is_empty() {
                // Read as a line of its own, so `-exec sh -c '…' \;` is followed in;
                // an expansion stays one.
                let line: Vec<String> = words
                    .iter()
                    .zip(&inv.odd[i + 1..end])
                    .map(|(w, &odd)| if odd { w.clone() } else { quote(w) })
                    .collect();
                reading.depth += 1;
                if reading.depth > MAX_EXEC_DEPTH {
                    unsure(reading, "`find -exec` nests too deeply to be read");
                } else {
                    let mut inner = Reading {
                        depth: reading.depth,
                        ..Reading::default()
                    };
                    walk(&parse(&line.join(" ")), &mut inner);
                    found.append(&mut inner.invocations);
                    for why in inner.unsure {
                        unsure(reading, why);
                    }
                    reading.expands |= inner.expands;
                }
                reading.depth -= 1;
            }
            i = end;
        }
        i += 1;
    }
    found
}
