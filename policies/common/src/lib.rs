//! What hookhost's policies share: the code each policy would otherwise carry
//! its own copy of.
//!
//! - [`places`]: the project and home directories of a run, from the
//!   environment the host sets;
//! - [`paths`]: paths resolved the way the shell resolves them (`~`, `$HOME`,
//!   `..`, relative to the working directory and to the directories a command
//!   `cd`s into), and matched against rules whose parts may meet a glob;
//! - [`calls`]: the parts of a tool call a policy looks at, whatever agent
//!   sent it (LLxprt, Gemini CLI, Claude Code or Codex, `apply_patch` included);
//! - [`args`]: reading a policy's settings from the hook's `args`;
//! - [`shell`]: a command's parse and reading, made once and shared.
//!
//! Everything here is plain logic (the one state is [`shell`]'s memo of
//! what it read): the policies decide, this crate only reads.

pub mod args;
pub mod calls;
pub mod paths;
pub mod places;
pub mod shell;

/// `text` cut to its first `max` characters (and `…`) for a block reason.
pub fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", text.get(..at).unwrap_or(text)),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::shorten;

    #[test]
    fn shortens_by_characters() {
        assert_eq!(shorten("abc", 3), "abc");
        assert_eq!(shorten("abcd", 3), "abc…");
        assert_eq!(shorten("ééé€", 3), "ééé…");
        assert_eq!(shorten("", 0), "");
    }
}
