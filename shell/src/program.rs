//! Which program a simple command runs once its wrappers are stripped (`sudo`,
//! `env`, `nice`, `timeout 5`, `xargs -0`, `exec -a NAME` …), and where an
//! interpreter takes its program from (`sh -c`, `python -`, a file, `eval`).

use crate::ast::{Command, CompoundKind, SimpleCommand, Word};
use crate::kinds::{
    inline_long, interpreter_flags, is_downloader, is_interpreter, takes_value_cluster,
};
use crate::{basename, is_assignment_text};

/// A program that runs the command after it: its name, its options that take
/// the next word as their value, and how many positional arguments come before
/// the command (`timeout 5 cmd`, `chroot DIR cmd`).
pub(crate) struct Wrapper {
    name: &'static str,
    takes_value: &'static [&'static str],
    positional: usize,
}

const fn wrapper(
    name: &'static str,
    takes_value: &'static [&'static str],
    positional: usize,
) -> Wrapper {
    Wrapper {
        name,
        takes_value,
        positional,
    }
}

/// Wrappers that run the command after them.
const WRAPPERS: &[Wrapper] = &[
    wrapper(
        "sudo",
        &[
            "-u",
            "-g",
            "-C",
            "-D",
            "-h",
            "-p",
            "-r",
            "-t",
            "-U",
            "-T",
            "-R",
            "--user",
            "--group",
            "--chdir",
            "--host",
            "--prompt",
            "--role",
            "--type",
            "--other-user",
            "--close-from",
            "--command-timeout",
            "--chroot",
        ],
        0,
    ),
    wrapper("doas", &["-u", "-C"], 0),
    wrapper(
        "run0",
        &["-u", "-g", "-D", "--user", "--group", "--chdir"],
        0,
    ),
    wrapper("pkexec", &["--user"], 0),
    wrapper(
        "env",
        &["-u", "-C", "--unset", "--chdir", "-P", "--default-signal"],
        0,
    ),
    wrapper("nice", &["-n", "--adjustment"], 0),
    wrapper(
        "ionice",
        &["-c", "-n", "-p", "-P", "-u", "--class", "--classdata"],
        0,
    ),
    wrapper("nohup", &[], 0),
    wrapper("setsid", &[], 0),
    wrapper("time", &["-f", "-o", "--format", "--output"], 0),
    wrapper("command", &[], 0),
    wrapper("builtin", &[], 0),
    wrapper("exec", &["-a"], 0),
    wrapper(
        "stdbuf",
        &["-i", "-o", "-e", "--input", "--output", "--error"],
        0,
    ),
    wrapper("timeout", &["-s", "-k", "--signal", "--kill-after"], 1),
    wrapper("chroot", &["--userspec", "--groups"], 1),
    wrapper("taskset", &[], 1),
    wrapper("chrt", &[], 1),
    wrapper(
        "flock",
        &["-w", "-E", "--timeout", "--conflict-exit-code"],
        1,
    ),
    wrapper("unbuffer", &[], 0),
    wrapper("caffeinate", &["-t", "-w"], 0),
    wrapper(
        "strace",
        &[
            "-o", "-e", "-p", "-s", "-u", "-E", "-a", "-b", "-I", "-O", "-P", "-S", "-X",
        ],
        0,
    ),
    wrapper(
        "ltrace",
        &["-o", "-e", "-p", "-s", "-u", "-n", "-a", "-A", "-l"],
        0,
    ),
    wrapper("valgrind", &[], 0),
    wrapper(
        "unshare",
        &["-S", "-G", "-R", "-w", "--setuid", "--setgid"],
        0,
    ),
    wrapper(
        "systemd-run",
        &[
            "-u",
            "--unit",
            "-p",
            "--property",
            "-E",
            "--setenv",
            "--uid",
            "--gid",
            "-M",
        ],
        0,
    ),
    wrapper("firejail", &[], 0),
    wrapper("fakeroot", &["-l", "-s", "-i", "-b"], 0),
    wrapper("eatmydata", &[], 0),
    wrapper("chronic", &[], 0),
    wrapper("proxychains", &["-f"], 0),
    wrapper("proxychains4", &["-f"], 0),
    wrapper("torsocks", &["-u", "-p", "-a", "-P"], 0),
    wrapper("catchsegv", &[], 0),
    wrapper("dbus-run-session", &["--config-file", "--dbus-daemon"], 0),
    wrapper("xvfb-run", &["-n", "-s", "-f", "-e", "-p"], 0),
    wrapper("busybox", &[], 0),
    wrapper("toybox", &[], 0),
    wrapper("coproc", &[], 0),
    wrapper("noglob", &[], 0),
    wrapper(
        "xargs",
        &[
            "-a",
            "-d",
            "-E",
            "-I",
            "-L",
            "-n",
            "-P",
            "-s",
            "--arg-file",
            "--delimiter",
            "--eof",
            "--replace",
            "--max-lines",
            "--max-args",
            "--max-procs",
            "--max-chars",
            "--process-slot-var",
        ],
        0,
    ),
];

#[inline]
pub(crate) fn find_wrapper(name: &str) -> Option<&'static Wrapper> {
    WRAPPERS.iter().find(|w| w.name == name)
}

/// Where an interpreter takes its program from.
pub(crate) enum ProgramSource<'a> {
    /// From stdin (`sh`, `bash -s`, `python -`, `source /dev/stdin`).
    Stdin,
    /// From a file or process substitution named by this word.
    File(&'a Word),
    /// From this word (`sh -c WORD`, `perl -e WORD`, `python -m WORD`).
    Inline(&'a Word),
    /// From all the arguments (`eval`).
    Eval,
    /// The action of `trap ACTION SIGNAL…`, run later by the same shell.
    Trap(&'a Word),
}

impl SimpleCommand {
    /// The index in [`words`](Self::words) of the program that actually runs,
    /// after wrappers such as `sudo`, `env`, `nice`, `nohup`, `time`,
    /// `timeout 5`, `command`, `exec -a NAME`, `xargs -0` and their options and
    /// `NAME=value` words. `None` for a bare assignment, a wrapper with nothing
    /// after it, or `command -v` (which runs nothing).
    pub fn program_index(&self) -> Option<usize> {
        self.program_index_from(0)
    }

    pub(crate) fn program_index_from(&self, mut i: usize) -> Option<usize> {
        while let Some(word) = self.words.get(i) {
            let Some(name) = word.literal().map(basename) else {
                return Some(i);
            };
            let Some(wrapper) = find_wrapper(name) else {
                return Some(i);
            };
            i = self.after_wrapper(wrapper, i + 1)?;
        }
        None
    }

    /// When `words[i]` is a wrapper, where the command it runs starts; `None`
    /// when it is not a wrapper or runs nothing.
    pub(crate) fn wrapped(&self, i: usize) -> Option<usize> {
        let name = basename(self.words.get(i)?.literal()?);
        let wrapper = find_wrapper(name)?;
        self.after_wrapper(wrapper, i + 1)
    }

    /// After a wrapper's name at `i`: past its options, `NAME=value` words and
    /// positional arguments. `None` when the wrapper runs nothing.
    pub(crate) fn after_wrapper(&self, wrapper: &Wrapper, mut i: usize) -> Option<usize> {
        while let Some(arg) = self.words.get(i) {
            let text = arg.text.as_str();
            if text == "--" {
                i += 1;
                break;
            }
            if text.len() > 1 && text.starts_with('-') {
                if wrapper.name == "command" && text.contains(['v', 'V']) {
                    return None;
                }
                // `env -S 'cmd args'`: the command is in the option's value.
                if wrapper.name == "env" && (text.starts_with("-S") || text.starts_with("--split"))
                {
                    return None;
                }
                let with_value = wrapper.takes_value.contains(&text)
                    || (wrapper.name == "sudo" && takes_value_cluster(wrapper.takes_value, text));
                i += if with_value { 2 } else { 1 };
            } else if is_assignment_text(text) && matches!(wrapper.name, "env" | "sudo" | "doas") {
                i += 1;
            } else {
                break;
            }
        }
        Some(i + wrapper.positional)
    }

    /// The word of the program that actually runs (see
    /// [`program_index`](Self::program_index)).
    pub fn program_word(&self) -> Option<&Word> {
        self.words.get(self.program_index()?)
    }

    /// The program that actually runs, as its base name (`/usr/bin/curl` →
    /// `curl`); `None` when there is none or it is [`dynamic`](Self::is_dynamic).
    pub fn program(&self) -> Option<&str> {
        self.program_word()?.literal().map(basename)
    }

    /// The arguments of the program that actually runs.
    pub fn args(&self) -> &[Word] {
        match self.program_index() {
            Some(i) => self.words.get(i + 1..).unwrap_or_default(),
            None => &[],
        }
    }

    /// The program that runs is not known: its name is an expansion (`$c`,
    /// `$(…)`, `"${X}"`).
    pub fn is_dynamic(&self) -> bool {
        self.program_word().is_some_and(|w| w.dynamic)
    }

    /// Whether this command fetches from the network as far as a policy can
    /// tell: its program is a downloader, or is dynamic.
    pub fn is_download(&self) -> bool {
        self.is_dynamic() || self.program().is_some_and(is_downloader)
    }

    /// Where an interpreter takes its program from; `None` if the program is not
    /// an interpreter (or is dynamic).
    pub(crate) fn program_source(&self) -> Option<ProgramSource<'_>> {
        let program = self.program()?;
        let args = self.args();
        if program == "trap" {
            let action = args
                .iter()
                .find(|w| !w.text.starts_with('-') || w.text == "-")?;
            return Some(ProgramSource::Trap(action));
        }
        if !is_interpreter(program) {
            return None;
        }
        if matches!(program, "source" | ".") {
            return Some(args.first().map_or(ProgramSource::Stdin, classify_file));
        }
        if program == "eval" {
            return Some(ProgramSource::Eval);
        }
        let (inline, stdin, takes_value) = interpreter_flags(program);
        let mut i = 0;
        while let Some(arg) = args.get(i) {
            let text = arg.text.as_str();
            if text == "--" {
                return Some(args.get(i + 1).map_or(ProgramSource::Stdin, classify_file));
            }
            if text == "-" {
                return Some(ProgramSource::Stdin);
            }
            let is_option = text.len() > 1 && (text.starts_with('-') || text.starts_with('+'));
            if !is_option || arg.dynamic {
                return Some(classify_file(arg));
            }
            if !text.starts_with("--") && text.starts_with('-') {
                // A cluster of short options: `-ec`, `-lne`, `-s`.
                let letters = &text[1..];
                if letters.chars().any(|c| inline.contains(c)) {
                    return Some(match args.get(i + 1) {
                        Some(code) => ProgramSource::Inline(code),
                        None => ProgramSource::Stdin,
                    });
                }
                if letters.chars().any(|c| stdin.contains(c)) {
                    return Some(ProgramSource::Stdin);
                }
            } else if inline_long(text) {
                return Some(
                    args.get(i + 1)
                        .map_or(ProgramSource::Stdin, ProgramSource::Inline),
                );
            }
            i += if takes_value_cluster(takes_value, text) {
                2
            } else {
                1
            };
        }
        Some(ProgramSource::Stdin)
    }

    /// Whether this command runs what arrives on its stdin as code: an
    /// interpreter reading its program from stdin, or a dynamic program.
    pub(crate) fn executes_stdin(&self) -> bool {
        self.is_dynamic()
            || match self.program_source() {
                Some(ProgramSource::Stdin) => true,
                // `… | while read l; do eval "$l"; done`
                Some(ProgramSource::Eval) => self.args().iter().any(|w| w.dynamic),
                _ => false,
            }
    }
}

impl Command {
    /// The commands of a compound command's body that read the compound's
    /// stdin: the first command of each of its pipelines.
    pub(crate) fn executes_stdin(&self) -> bool {
        match self {
            Command::Simple(simple) => simple.executes_stdin(),
            Command::Compound(compound) => {
                !matches!(compound.kind, CompoundKind::Function(_))
                    && compound
                        .body
                        .pipelines
                        .iter()
                        .filter_map(|p| p.commands.first())
                        .any(Command::executes_stdin)
            }
        }
    }

    pub(crate) fn is_download(&self) -> bool {
        match self {
            Command::Simple(simple) => simple.is_download(),
            Command::Compound(compound) => {
                !matches!(compound.kind, CompoundKind::Function(_))
                    && compound
                        .body
                        .pipelines
                        .iter()
                        .any(|p| p.commands.iter().any(Command::is_download))
            }
        }
    }
}

fn classify_file(word: &Word) -> ProgramSource<'_> {
    if !word.dynamic && matches!(word.text.as_str(), "-" | "/dev/stdin" | "/dev/fd/0") {
        ProgramSource::Stdin
    } else {
        ProgramSource::File(word)
    }
}
