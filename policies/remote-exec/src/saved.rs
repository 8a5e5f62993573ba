//! Downloads saved to a file that the same command line then runs:
//! `curl -o x.sh URL && sh x.sh`, `wget -O x URL; chmod +x x; ./x`,
//! `curl URL > x && bash x`, `curl URL | tee x.sh && sh x.sh`, and archives
//! fetched and unpacked (`curl URL | tar xz && ./pkg/install.sh`). Paths are
//! compared after resolving them against the working directory, followed
//! through `cd`.

use crate::hosts::{download_allowed, download_urls};
use hookhost_guest::shell::{
    Command, ShellCommand, SimpleCommand, Word, basename, is_downloader, is_interpreter,
};

/// What a command does with files, in source order.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Event {
    /// `cd WORD` (`None`: home).
    Cd(Option<String>),
    /// Writes a download (not from an allowed host) to this file.
    Download(String, String),
    /// Unpacks a downloaded archive (`None`: from its input) into a directory.
    Extract(Option<String>, String),
    /// Runs this file as a program or script.
    Run(String, String),
}

/// Short options that take a value, for the downloaders read here.
const VALUE_SHORTS: &str = "ACEFHKQTXYbcdehmoruwxyzOPDIalnt";

/// The option values and operands of a downloader's `args`: (option, value)
/// pairs and the literal operands.
fn options(program: &str, args: &[Word]) -> (Vec<(String, Option<String>)>, Vec<String>) {
    // curl's `-O` takes no value, wget's does.
    let shorts: String = if program.starts_with("wget") {
        VALUE_SHORTS.to_owned()
    } else {
        VALUE_SHORTS.replace(['O', 'P', 'D', 'I', 'a', 'l', 'n', 't'], "")
    };
    let (mut opts, mut operands) = (Vec::new(), Vec::new());
    let mut i = 0;
    while let Some(word) = args.get(i) {
        i += 1;
        let text = word.text.as_str();
        if let Some((name, value)) = text.split_once('=').filter(|(n, _)| n.starts_with("--")) {
            opts.push((name.to_owned(), Some(value.to_owned())));
        } else if text.starts_with("--") {
            let takes = matches!(
                text,
                "--output"
                    | "--output-document"
                    | "--directory-prefix"
                    | "--output-dir"
                    | "--dir"
                    | "--out"
            );
            let value = takes.then(|| args.get(i).map(|w| w.text.clone())).flatten();
            i += usize::from(takes);
            opts.push((text.to_owned(), value));
        } else if let Some(cluster) = text.strip_prefix('-').filter(|c| !c.is_empty()) {
            for (at, c) in cluster.char_indices() {
                if shorts.contains(c) {
                    let rest = &cluster[at + c.len_utf8()..];
                    let value = if rest.is_empty() {
                        i += 1;
                        args.get(i - 1).map(|w| w.text.clone())
                    } else {
                        Some(rest.to_owned())
                    };
                    opts.push((format!("-{c}"), value));
                    break;
                }
                opts.push((format!("-{c}"), None));
            }
        } else if !word.dynamic {
            operands.push(text.to_owned());
        }
    }
    (opts, operands)
}

/// The file name at the end of a URL's path.
fn url_file_name(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let rest = rest.split(['?', '#']).next().unwrap_or(rest);
    let (_, path) = rest.split_once('/')?;
    path.rsplit('/')
        .next()
        .filter(|n| !n.is_empty())
        .map(str::to_owned)
}

/// The files a download command writes.
fn download_files(simple: &SimpleCommand, program: &str) -> Vec<String> {
    let (opts, _) = options(program, simple.args());
    let value = |names: &[&str]| -> Vec<String> {
        opts.iter()
            .filter(|(n, _)| names.contains(&n.as_str()))
            .filter_map(|(_, v)| v.clone())
            .collect()
    };
    let has = |names: &[&str]| opts.iter().any(|(n, _)| names.contains(&n.as_str()));
    let urls = download_urls(program, simple.args()).unwrap_or_default();
    let names = || {
        urls.iter()
            .filter_map(|u| url_file_name(u))
            .collect::<Vec<_>>()
    };
    let mut files = if program.starts_with("wget") {
        let outputs = value(&["-O", "--output-document"]);
        let prefix = value(&["-P", "--directory-prefix"]).pop();
        if outputs.is_empty() {
            names()
                .into_iter()
                .map(|n| prefix.as_ref().map_or(n.clone(), |p| format!("{p}/{n}")))
                .collect()
        } else {
            outputs
        }
    } else {
        let mut files = value(&["-o", "--output", "--out"]);
        let dir = value(&["--output-dir", "-d", "--dir"]).pop();
        if has(&["-O", "--remote-name", "--remote-name-all"])
            || (program == "aria2c" && files.is_empty())
        {
            files.extend(names());
        }
        files
            .into_iter()
            .map(|f| dir.as_ref().map_or(f.clone(), |d| format!("{d}/{f}")))
            .collect()
    };
    for r in &simple.redirections {
        if matches!(r.op, ">" | ">>" | ">|" | "&>" | "&>>")
            && r.fd.is_none_or(|fd| fd == 1)
            && let Some(target) = r.target.literal()
        {
            files.push(target.to_owned());
        }
    }
    files.retain(|f| f != "-" && !f.starts_with("/dev/"));
    files
}

/// The files a simple command runs: its program when that is a path, the
/// script of an interpreter, or a file fed to an interpreter's stdin.
fn run_files(simple: &SimpleCommand) -> Vec<String> {
    let mut files = Vec::new();
    // Expansions stay as written: `$HOME/x` resolves, `$D/x` matches itself.
    if let Some(program) = simple.program_word().map(|w| w.text.as_str())
        && program.contains('/')
    {
        files.push(program.to_owned());
    }
    let Some(program) = simple.program() else {
        return files;
    };
    if !is_interpreter(program) || program == "eval" {
        return files;
    }
    let args = simple.args();
    let inline = args.iter().any(|a| {
        let t = a.text.as_str();
        t == "-"
            || t.starts_with("--eval")
            || (t.starts_with('-') && !t.starts_with("--") && t.contains(['c', 'm', 'e']))
    });
    if !inline
        && let Some(script) = args
            .iter()
            .find(|a| !a.text.starts_with('-') && !a.text.starts_with('+'))
    {
        files.push(script.text.clone());
    }
    for r in &simple.redirections {
        if r.op == "<" && r.fd.is_none_or(|fd| fd == 0) {
            files.push(r.target.text.clone());
        }
    }
    files
}

/// Whether `simple` unpacks an archive: `tar x…`, `unzip`, `bsdtar -x`,
/// `cpio -i`; with the archive file if one is named, and the directory.
fn extraction(simple: &SimpleCommand) -> Option<(Option<String>, String)> {
    let program = simple.program()?;
    let args: Vec<&str> = simple.args().iter().map(|w| w.text.as_str()).collect();
    let value_of = |flags: &[&str]| {
        args.iter()
            .position(|a| flags.contains(a))
            .and_then(|i| args.get(i + 1))
            .map(|s| (*s).to_owned())
    };
    match program {
        "tar" | "bsdtar" | "gtar" => {
            let first = args.first().copied().unwrap_or_default();
            let extracts = (!first.starts_with('-') && first.contains('x'))
                || args.iter().any(|a| {
                    *a == "--extract"
                        || (a.starts_with('-') && !a.starts_with("--") && a.contains('x'))
                });
            if !extracts {
                return None;
            }
            let file = args
                .iter()
                .position(|a| {
                    !a.starts_with("--") && a.ends_with('f') && a.contains('x')
                        || *a == "-f"
                        || *a == "--file"
                })
                .and_then(|i| args.get(i + 1))
                .map(|s| (*s).to_owned());
            Some((
                file,
                value_of(&["-C", "--directory"]).unwrap_or_else(|| ".".to_owned()),
            ))
        }
        "unzip" => {
            let file = args
                .iter()
                .find(|a| !a.starts_with('-'))
                .map(|s| (*s).to_owned());
            Some((file, value_of(&["-d"]).unwrap_or_else(|| ".".to_owned())))
        }
        "cpio" if args.iter().any(|a| a.starts_with('-') && a.contains('i')) => {
            Some((None, ".".to_owned()))
        }
        _ => None,
    }
}

/// The events of `parsed`, in source order.
fn events(parsed: &ShellCommand, allowed: &[String], out: &mut Vec<Event>, depth: usize) {
    if depth > hookhost_guest::shell::MAX_DEPTH {
        return;
    }
    for pipeline in &parsed.pipelines {
        let mut fed = false;
        for cmd in &pipeline.commands {
            match cmd {
                Command::Simple(simple) => {
                    if fed {
                        piped_events(simple, out);
                    }
                    simple_events(simple, allowed, out, depth);
                    fed |= simple.is_download() && !download_allowed(simple, allowed);
                }
                Command::Compound(compound) => events(&compound.body, allowed, out, depth + 1),
            }
        }
    }
}

/// What a pipeline stage after a download does with it: `tee FILE` saves
/// it, `tar x` unpacks it.
fn piped_events(simple: &SimpleCommand, out: &mut Vec<Event>) {
    if simple.program() == Some("tee") {
        for w in simple.args().iter().filter(|w| !w.text.starts_with('-')) {
            out.push(Event::Download(
                w.text.clone(),
                "a download piped into `tee`".to_owned(),
            ));
        }
    } else if let Some((None, dir)) = extraction(simple) {
        out.push(Event::Extract(None, dir));
    }
}

fn simple_events(simple: &SimpleCommand, allowed: &[String], out: &mut Vec<Event>, depth: usize) {
    let written = crate::check::shorten(
        &simple
            .words
            .iter()
            .map(|w| w.written.as_str())
            .collect::<Vec<_>>()
            .join(" "),
    );
    match simple.program() {
        Some("cd" | "pushd") => {
            let target = simple
                .args()
                .iter()
                .find(|w| !w.text.starts_with('-') || w.text == "-");
            out.push(Event::Cd(target.map(|w| {
                if w.dynamic {
                    format!("${}", w.text)
                } else {
                    w.text.clone()
                }
            })));
        }
        Some(program) if is_downloader(basename(program)) && !download_allowed(simple, allowed) => {
            for file in download_files(simple, program) {
                out.push(Event::Download(file, format!("`{written}`")));
            }
        }
        _ => {}
    }
    if let Some((Some(file), dir)) = extraction(simple) {
        out.push(Event::Extract(Some(file), dir));
    }
    for file in run_files(simple) {
        out.push(Event::Run(file, written.clone()));
    }
    for w in simple
        .words
        .iter()
        .chain(simple.redirections.iter().map(|r| &r.target))
    {
        for nested in &w.substitutions {
            events(nested, allowed, out, depth + 1);
        }
    }
    if let Some(script) = &simple.script {
        events(script, allowed, out, depth + 1);
    }
}

/// `word` as an absolute path from `cwd`; words that stay expansions are
/// kept as written, so the same expansion still matches itself.
fn resolve(word: &str, cwd: &str, home: &str) -> String {
    let expanded = if word == "~" || word.starts_with("~/") {
        format!("{home}{}", &word[1..])
    } else if let Some(rest) = word
        .strip_prefix("$HOME")
        .or_else(|| word.strip_prefix("${HOME}"))
    {
        format!("{home}{rest}")
    } else if word.starts_with('/') {
        word.to_owned()
    } else {
        format!("{cwd}/{word}")
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in expanded.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    format!("/{}", parts.join("/"))
}

/// Why `command` runs a file it downloaded (or unpacked from a download).
pub fn check(
    parsed: &ShellCommand,
    cwd: &str,
    home: &str,
    allowed: &[String],
) -> Option<(String, String)> {
    let mut list = Vec::new();
    events(parsed, allowed, &mut list, 0);
    let mut dir = cwd.to_owned();
    let mut downloaded: Vec<(String, String)> = Vec::new();
    let mut unpacked: Vec<String> = Vec::new();
    for (n, event) in list.into_iter().enumerate() {
        match event {
            Event::Cd(None) => dir = home.to_owned(),
            // An unknown directory: a name of its own, so that its files still match.
            Event::Cd(Some(w)) if w.contains('$') || w == "-" => dir = format!("/?{n}"),
            Event::Cd(Some(w)) => dir = resolve(&w, &dir, home),
            Event::Download(file, what) => downloaded.push((resolve(&file, &dir, home), what)),
            Event::Extract(None, into) => unpacked.push(resolve(&into, &dir, home)),
            Event::Extract(Some(file), into) => {
                if downloaded
                    .iter()
                    .any(|(f, _)| *f == resolve(&file, &dir, home))
                {
                    unpacked.push(resolve(&into, &dir, home));
                }
            }
            Event::Run(file, what) => {
                let path = resolve(&file, &dir, home);
                if let Some((_, how)) = downloaded.iter().find(|(f, _)| *f == path) {
                    return Some((
                        "download-then-run".to_owned(),
                        format!("`{what}` runs {file}, which {how} downloaded"),
                    ));
                }
                if unpacked.iter().any(|d| path.starts_with(&format!("{d}/"))) {
                    return Some((
                        "download-then-run".to_owned(),
                        format!("`{what}` runs {file}, unpacked from a download"),
                    ));
                }
            }
        }
    }
    None
}
