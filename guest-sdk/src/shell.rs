//! A shell command line, parsed the way a policy needs to see it: the
//! `hookhost-shell` crate, the same reading hookhost's `if` rules use, so a
//! rule and a policy always agree on which programs a command runs.
//!
//! [`parse`] gives the structure (pipelines, commands, words with quotes
//! removed, nested scripts), [`read`] the programs the line runs through
//! wrappers, `sh -c`, `eval`, `find -exec` and the rest, with the reasons it
//! cannot be sure; [`ShellCommand::download_into_shell`] answers the most asked
//! policy question.

pub use hookhost_shell::*;
