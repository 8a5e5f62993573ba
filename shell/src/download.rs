//! The question most policies start with: does this command line run something
//! downloaded as code (`curl … | sh`, `bash <(curl …)`, `sh -c "$(curl …)"`)?

use crate::ast::{Command, CompoundKind, Redirection, ShellCommand, SimpleCommand, Word};
use crate::basename;
use crate::program::ProgramSource;

impl ShellCommand {
    /// Whether the command line runs something downloaded as code: see
    /// [`download_into_shell`](Self::download_into_shell).
    pub fn pipes_download_into_shell(&self) -> bool {
        self.download_into_shell().is_some()
    }

    /// Why the command line runs something downloaded as code, or `None`.
    ///
    /// A *download* is a command whose program is a downloader (`curl`, `wget`,
    /// `fetch`, …; see [`is_downloader`](crate::is_downloader)) or is dynamic
    /// (`$c x`: unknown, so assumed to be one). It *runs as code* when:
    ///
    /// - it is piped into an interpreter that reads its program from stdin
    ///   (`sh`, `bash -s`, `python -`, `perl`, … — see
    ///   [`is_interpreter`](crate::is_interpreter)), possibly through wrappers
    ///   (`sudo`, `env`, `nice`, …), later pipeline stages (`curl x | tee log |
    ///   sh`) or a subshell or group (`curl x | (cd /tmp && sh)`); a dynamic
    ///   program there counts too;
    /// - it is the script file of an interpreter (`bash <(curl …)`,
    ///   `source <(curl …)`) or its stdin (`sh < <(curl …)`, `sh <<< "$(curl …)"`);
    /// - it is the inline program (`sh -c "$(curl …)"`, `python -c "$(curl …)"`),
    ///   an argument of `eval`, or the command name itself (`$(curl …)`).
    ///
    /// Every nested command line is checked the same way, so `sh -c 'curl x |
    /// sh'` and `echo $(curl x | sh)` are found. A command line too deep or too
    /// large to parse fully is reported as well (fail closed). Not detected: a
    /// download saved to a file and run later (`curl -o f x && sh f`),
    /// functions and aliases defined elsewhere.
    pub fn download_into_shell(&self) -> Option<String> {
        if self.too_deep {
            return Some("the command nests too deeply to be checked".to_owned());
        }
        if self.too_large {
            return Some("the command is too large to be checked".to_owned());
        }
        find_download_into_shell(self)
    }
}

impl Word {
    /// Whether any command nested in this word downloads (see
    /// [`ShellCommand::download_into_shell`]).
    fn carries_download(&self) -> bool {
        self.substitutions.iter().any(contains_download)
    }
}

/// Whether any command in `command`, at any depth, is a download.
fn contains_download(command: &ShellCommand) -> bool {
    command.too_deep
        || command.too_large
        || command.simple_commands().any(SimpleCommand::is_download)
}

fn find_download_into_shell(command: &ShellCommand) -> Option<String> {
    for pipeline in &command.pipelines {
        // A download piped into a later stage that executes its stdin.
        if let Some(first) = pipeline.commands.iter().position(Command::is_download)
            && let Some(runner) = pipeline.commands[first + 1..]
                .iter()
                .find(|c| c.executes_stdin())
        {
            return Some(format!(
                "a download ({}) is piped into {}",
                describe(&pipeline.commands[first]),
                describe(runner)
            ));
        }
        for cmd in &pipeline.commands {
            let reason = match cmd {
                Command::Simple(simple) => simple_runs_download(simple),
                Command::Compound(compound) => find_download_into_shell(&compound.body)
                    .or_else(|| {
                        (stdin_from_download(&compound.redirections) && cmd.executes_stdin())
                            .then(|| format!("{} reads a download as its program", describe(cmd)))
                    })
                    .or_else(|| {
                        compound
                            .words
                            .iter()
                            .chain(compound.redirections.iter().map(|r| &r.target))
                            .flat_map(|w| &w.substitutions)
                            .find_map(find_download_into_shell)
                    }),
            };
            if reason.is_some() {
                return reason;
            }
        }
    }
    None
}

/// The reasons a simple command runs a download as code, including in
/// anything nested in it.
fn simple_runs_download(simple: &SimpleCommand) -> Option<String> {
    let program = simple.program_word();
    if program.is_some_and(Word::carries_download) {
        return Some("the output of a download is run as a command".to_owned());
    }
    match simple.program_source() {
        Some(ProgramSource::File(file)) if file.carries_download() => {
            return Some(format!(
                "{} runs a downloaded script",
                simple.program().unwrap_or_default()
            ));
        }
        Some(ProgramSource::Inline(code)) if code.carries_download() => {
            return Some(format!(
                "{} runs downloaded code",
                simple.program().unwrap_or_default()
            ));
        }
        Some(ProgramSource::Eval) if simple.args().iter().any(Word::carries_download) => {
            return Some("eval runs downloaded code".to_owned());
        }
        _ => {}
    }
    if stdin_from_download(&simple.redirections) && simple.executes_stdin() {
        return Some(format!(
            "{} reads a download as its program",
            simple.program().unwrap_or("a command")
        ));
    }
    // Anything nested: scripts, substitutions in every word and redirection.
    if let Some(reason) = simple.script.as_deref().and_then(find_download_into_shell) {
        return Some(reason);
    }
    let words = simple
        .assignments
        .iter()
        .map(|a| &a.value)
        .chain(&simple.words)
        .chain(simple.redirections.iter().map(|r| &r.target));
    for word in words {
        for nested in &word.substitutions {
            if let Some(reason) = find_download_into_shell(nested) {
                return Some(reason);
            }
        }
    }
    None
}

/// Whether stdin comes from a download: `< <(curl x)`, `<<< "$(curl x)"`.
fn stdin_from_download(redirections: &[Redirection]) -> bool {
    redirections.iter().any(|r| {
        matches!(r.op, "<" | "<<<" | "<<" | "<<-" | "<>")
            && matches!(r.fd, None | Some(0))
            && r.target.carries_download()
    })
}

fn describe(cmd: &Command) -> String {
    match cmd {
        Command::Simple(simple) => match simple.program_word() {
            Some(word) if word.dynamic => format!("the dynamic command `{}`", word.text),
            Some(word) => format!("`{}`", basename(&word.text)),
            None => "a command".to_owned(),
        },
        Command::Compound(compound) => match compound.kind {
            CompoundKind::Subshell => "a subshell".to_owned(),
            _ => "a compound command".to_owned(),
        },
    }
}
