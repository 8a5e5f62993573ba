//! A command's parse and reading, made once per command text and shared.
//!
//! Each policy asks for both the parse ([`shell::parse`]) and the reading
//! ([`shell::read`]) of a command, some in several functions; in the builtin
//! pack five policies ask for the same command. Parsing is most of a policy's
//! time (measured natively on `cargo test --workspace 2>&1 | tail -n 20`: a
//! parse 3.4 µs, a reading 5.5 µs, the five policies 65 µs), so the last few
//! commands are kept: one parse and one walk for every question about them.

use std::cell::RefCell;
use std::rc::Rc;

use hookhost_guest::shell::{self, Reading, ShellCommand};

/// A command's parse and what it runs.
#[derive(Debug)]
pub struct Shell {
    /// The command parsed.
    pub parsed: ShellCommand,
    /// The programs it runs, read from `parsed`.
    pub reading: Reading,
}

/// Commands kept: a call carries one command, sometimes a few (`sh -c` bodies
/// read again, a patch's here-documents).
const KEPT: usize = 4;

thread_local! {
    static KEEP: RefCell<Vec<(String, Rc<Shell>)>> = const { RefCell::new(Vec::new()) };
}

/// The parse and reading of `command`, made on first use.
pub fn of(command: &str) -> Rc<Shell> {
    KEEP.with(|keep| {
        let mut keep = keep.borrow_mut();
        if let Some((_, shell)) = keep.iter().find(|(text, _)| text == command) {
            return Rc::clone(shell);
        }
        let parsed = shell::parse(command);
        let reading = shell::read_parsed(&parsed);
        let made = Rc::new(Shell { parsed, reading });
        if keep.len() == KEPT {
            keep.remove(0);
        }
        keep.push((command.to_owned(), Rc::clone(&made)));
        made
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_command_is_parsed_once_and_others_are_not_confused() {
        let a = of("rm -rf /tmp/x");
        assert!(Rc::ptr_eq(&a, &of("rm -rf /tmp/x")));
        let b = of("ls");
        assert_eq!(b.reading.programs().collect::<Vec<_>>(), ["ls"]);
        assert_eq!(a.reading.programs().collect::<Vec<_>>(), ["rm"]);
        for n in 0..KEPT {
            of(&format!("echo {n}"));
        }
        assert!(
            !Rc::ptr_eq(&a, &of("rm -rf /tmp/x")),
            "only the last {KEPT} are kept"
        );
    }
}
