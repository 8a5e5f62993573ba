//! Recognising obviously destructive shell commands.
//!
//! This is a guard rail, not a sandbox: it catches the classic accidents
//! (`rm -rf /`, `rm -rf ~`, `mkfs`, `dd` onto a device, a fork bomb) in each
//! simple command of a pipeline or list. A determined caller can always hide a
//! command from a lexical check.

/// Targets whose recursive removal is never intended.
const PRECIOUS: &[&str] = &[
    "/", "/*", "~", "~/", "~/*", "$HOME", "${HOME}", "$HOME/", "${HOME}/", "/home", "/usr", "/etc",
    "/var", "/boot",
];

/// Wrappers that run the rest of the command line.
const WRAPPERS: &[&str] = &[
    "sudo", "doas", "env", "nohup", "time", "command", "exec", "xargs",
];

/// Why `command` is destructive, if it looks so.
pub fn destructive(command: &str) -> Option<&'static str> {
    if command.replace(' ', "").contains(":(){:|:&};:") {
        return Some("it is a fork bomb");
    }
    command
        .split([';', '&', '|', '\n', '(', ')', '`'])
        .find_map(|simple| simple_destructive(simple))
}

fn simple_destructive(simple: &str) -> Option<&'static str> {
    let words: Vec<&str> = simple
        .split_whitespace()
        .map(|w| w.trim_matches(|c| c == '"' || c == '\''))
        .skip_while(|w| WRAPPERS.contains(w) || w.contains('='))
        .collect();
    let (program, args) = words.split_first()?;
    let program = program.rsplit('/').next().unwrap_or(program);
    match program {
        "rm" => {
            let recursive = args.iter().any(|a| {
                *a == "--recursive"
                    || (a.starts_with('-') && !a.starts_with("--") && a.contains(['r', 'R']))
            });
            let precious = args.iter().any(|a| PRECIOUS.contains(a));
            (recursive && precious).then_some("it recursively deletes a system or home directory")
        }
        p if p.starts_with("mkfs") => Some("it formats a file system"),
        "dd" => args
            .iter()
            .any(|a| a.starts_with("of=/dev/"))
            .then_some("it writes onto a device"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::destructive;

    #[test]
    fn blocks_the_classics() {
        for cmd in [
            "rm -rf /",
            "rm -rf /*",
            "sudo rm -fr ~",
            "cd /tmp && rm -r -f $HOME",
            "ls; /bin/rm --recursive --force /",
            "mkfs.ext4 /dev/sda1",
            "dd if=/dev/zero of=/dev/sda",
            ":(){ :|:& };:",
        ] {
            assert!(destructive(cmd).is_some(), "{cmd}");
        }
    }

    #[test]
    fn allows_ordinary_commands() {
        for cmd in [
            "rm -rf target",
            "rm -f /tmp/x",
            "ls -la /",
            "cargo build",
            "dd if=a of=b",
            "echo rm -rf",
        ] {
            assert!(destructive(cmd).is_none(), "{cmd}");
        }
    }
}
