//! Commands that run a shell command line given as a string: `env -S STRING`,
//! `su -c`, `runuser`, `sg`, `flock -c`, `script -c`, `watch` — the string is
//! parsed as a script of its own (see `parser/redirect.rs`).

use crate::ast::SimpleCommand;
use crate::program::find_wrapper;
use crate::{basename, is_assignment_text};

impl SimpleCommand {
    /// The command `env -S STRING` runs: the string split as a command line,
    /// followed by the words after it.
    pub(crate) fn env_split_string(&self) -> Option<String> {
        let mut i = 0;
        while let Some(word) = self.words.get(i) {
            let name = basename(word.literal()?);
            let wrapper = find_wrapper(name)?;
            if name == "env" {
                let mut j = i + 1;
                while let Some(arg) = self.words.get(j) {
                    let text = arg.literal()?;
                    let value = if text == "-S" || text == "--split-string" {
                        j += 1;
                        self.words.get(j)?.literal()?
                    } else if let Some(v) = text
                        .strip_prefix("--split-string=")
                        .or_else(|| text.strip_prefix("-S"))
                    {
                        v
                    } else if text.starts_with('-') || is_assignment_text(text) {
                        j += 1;
                        continue;
                    } else {
                        break;
                    };
                    let mut line = value.to_owned();
                    for rest in self.words.get(j + 1..).unwrap_or_default() {
                        line.push(' ');
                        line.push_str(&rest.written);
                    }
                    return Some(line);
                }
            }
            i = self.after_wrapper(wrapper, i + 1)?;
        }
        None
    }

    /// The shell command line a program runs from a string: `su -c CMD`,
    /// `runuser -c CMD`, `sg GROUP -c CMD`, `flock FILE -c CMD`, `script -c CMD`,
    /// `watch CMD…`. `Err(())` when that string is an expansion.
    pub(crate) fn shell_string(&self) -> Option<Result<String, ()>> {
        const TAKERS: &[&str] = &["su", "runuser", "sg", "flock", "script", "watch"];
        // Along the wrapper chain (`sudo flock f -c …`), the first that takes one.
        let mut i = 0;
        let (program, args) = loop {
            let name = basename(self.words.get(i)?.literal()?);
            if TAKERS.contains(&name) {
                break (name, self.words.get(i + 1..).unwrap_or_default());
            }
            i = self.wrapped(i)?;
        };
        if program == "watch" {
            let mut i = 0;
            while let Some(arg) = args.get(i) {
                match arg.text.as_str() {
                    "-n" | "--interval" | "-g" | "-q" => i += 2,
                    t if t.starts_with('-') => i += 1,
                    _ => break,
                }
            }
            let rest = args.get(i..).unwrap_or_default();
            if rest.is_empty() {
                return None;
            }
            if rest.iter().any(|w| w.dynamic) {
                return Some(Err(()));
            }
            let line: Vec<&str> = rest.iter().map(|w| w.text.as_str()).collect();
            return Some(Ok(line.join(" ")));
        }
        if !matches!(program, "su" | "runuser" | "sg" | "flock" | "script") {
            return None;
        }
        let mut i = 0;
        while let Some(arg) = args.get(i) {
            let text = arg.text.as_str();
            let short_cluster_ending_in_c = text.len() > 1
                && text.starts_with('-')
                && !text.starts_with("--")
                && text.ends_with('c');
            let value = if text == "--command" || short_cluster_ending_in_c {
                args.get(i + 1)
            } else if text.starts_with("--command=") || (text.starts_with("-c") && text.len() > 2) {
                Some(arg)
            } else {
                i += 1;
                continue;
            };
            let value = value?;
            if value.dynamic {
                return Some(Err(()));
            }
            let text = value.text.as_str();
            let code = text
                .strip_prefix("--command=")
                .or_else(|| text.strip_prefix("-c"))
                .filter(|_| std::ptr::eq(value, arg))
                .unwrap_or(text);
            return Some(Ok(code.to_owned()));
        }
        // `runuser -u USER -- CMD ARGS…`: the command after `--`, run directly.
        if program == "runuser"
            && let Some(dashes) = args.iter().position(|w| w.text == "--")
        {
            let rest = &args[dashes + 1..];
            let line: Vec<&str> = rest.iter().map(|w| w.written.as_str()).collect();
            return (!rest.is_empty()).then(|| Ok(line.join(" ")));
        }
        // `sg GROUP CMD`: the command is the word after the group.
        if program == "sg" {
            let cmd = args.get(1)?;
            return Some(if cmd.dynamic {
                Err(())
            } else {
                Ok(cmd.text.clone())
            });
        }
        None
    }
}
