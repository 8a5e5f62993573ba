//! What kind of program a base name is: a downloader, a shell, an interpreter,
//! and how an interpreter's options say where its program comes from.
//!
//! These and the other small helpers the parser calls for every command
//! (`basename`, `is_name`, `find_wrapper` …) are `#[inline]`: once split into
//! modules of their own they landed in other codegen units, uninlined, and a
//! 1 MiB read took 1.6–2× as long (measured with `cargo bench -p hookhost-shell`).

/// Whether `program` (a base name) fetches from the network: `curl`, `wget`,
/// `wget2`, `fetch`, `aria2c`, HTTPie's `http`/`https`, `xh`, `curlie`,
/// `lwp-request`, `GET`.
#[inline]
pub fn is_downloader(program: &str) -> bool {
    matches!(
        program,
        "curl"
            | "wget"
            | "wget2"
            | "fetch"
            | "aria2c"
            | "http"
            | "https"
            | "xh"
            | "xhs"
            | "curlie"
            | "lwp-request"
            | "lwp-download"
            | "GET"
    )
}

/// Whether `program` (a base name) is a shell.
#[inline]
pub fn is_shell(program: &str) -> bool {
    matches!(
        program,
        "sh" | "bash"
            | "zsh"
            | "dash"
            | "ksh"
            | "mksh"
            | "pdksh"
            | "ash"
            | "yash"
            | "fish"
            | "csh"
            | "tcsh"
    )
}

/// Whether `program` (a base name) runs code it is given: a shell, `python*`,
/// `perl*`, `ruby`, `node`, `php`, `lua*`, `tclsh`, `pwsh`, `osascript`, or the
/// builtins `source`, `.` and `eval`.
#[inline]
pub fn is_interpreter(program: &str) -> bool {
    is_shell(program)
        || ["python", "perl", "lua", "ruby", "php"]
            .iter()
            .any(|p| program.strip_prefix(p).is_some_and(is_version))
        || matches!(
            program,
            "node"
                | "nodejs"
                | "pypy"
                | "pypy3"
                | "tclsh"
                | "wish"
                | "pwsh"
                | "powershell"
                | "osascript"
                | "source"
                | "."
                | "eval"
        )
}

/// `""`, `"3"`, `"3.12"`, `"5.36.0"`: a version suffix of a program name.
#[inline]
fn is_version(suffix: &str) -> bool {
    suffix.chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// An interpreter's short options that give the program inline (or name a
/// module, so stdin is data), its short options that make it read the program
/// from stdin, and its options that take a separate value.
#[inline]
pub(crate) fn interpreter_flags(
    program: &str,
) -> (&'static str, &'static str, &'static [&'static str]) {
    if is_shell(program) {
        ("c", "s", &["-o", "+o", "-O", "+O"])
    } else if program.starts_with("python") || program.starts_with("pypy") {
        ("cm", "", &["-W", "-X", "-Q"])
    } else if program.starts_with("perl") {
        ("eE", "", &["-I", "-x"])
    } else if program == "ruby" {
        ("e", "", &["-r", "-I", "-C", "-E"])
    } else if program == "node" || program == "nodejs" {
        ("ep", "", &["-r", "--require", "--import", "--loader"])
    } else if program.starts_with("php") {
        ("rRBEF", "", &["-d", "-c", "-z"])
    } else if program.starts_with("lua") {
        ("el", "", &[])
    } else if program == "pwsh" || program == "powershell" {
        ("c", "", &[])
    } else {
        ("e", "", &[])
    }
}

/// Whether `option` takes the next word as its value: it is one of
/// `takes_value`, or a cluster of short options ending in one (`-euo` ends in
/// `-o`).
#[inline]
pub(crate) fn takes_value_cluster(takes_value: &[&str], option: &str) -> bool {
    takes_value.iter().any(|t| {
        *t == option
            || (t.len() == 2
                && !option.starts_with("--")
                && option.len() > 2
                && option.starts_with(&t[..1])
                && option.ends_with(&t[1..]))
    })
}

#[inline]
pub(crate) fn inline_long(option: &str) -> bool {
    let name = option.split('=').next().unwrap_or_default();
    matches!(name, "--eval" | "--print" | "--command" | "-Command" | "-c")
}
