//! Claude Code's cap on what one hook puts into the conversation: a plain-text
//! stdout, `additionalContext`, `systemMessage` or `initialUserMessage` longer
//! than 10,000 characters (UTF-16 units, as JavaScript counts) is saved to a file,
//! and the model gets a `<persisted-output>` block with the path and a 2 KB
//! preview instead (2.1.331; 2.1.89 introduced it at 50K). A Claude hook run by
//! hookhost is capped the same way, one hook at a time as Claude does, so the
//! merged answer holds what Claude would have shown of each.
//!
//! The files go under hookhost's state directory (`hook-output/`), named by the
//! hook and a hash of the text, so a repeated answer reuses its file. A file that
//! cannot be written leaves the text cut at the cap with a note, as Claude does.

use std::path::PathBuf;

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::output::HookOutput;

/// The longest text, in UTF-16 units, that reaches the conversation as it is.
pub const CLAUDE_OUTPUT_CAP: usize = 10_000;

/// How much of a spilled text the model still sees.
const PREVIEW: usize = 2_000;

/// Spills every over-long text field of one Claude hook's `output` (`hook`
/// names it in the file name).
pub fn spill_long_texts(hook: &str, output: &mut HookOutput) {
    if let Some(message) = output.system_message.as_mut() {
        spill(hook, "systemMessage", message);
    }
    for key in ["additionalContext", "initialUserMessage"] {
        if let Some(Value::String(text)) = output
            .hook_specific_output
            .as_mut()
            .and_then(|specific| specific.get_mut(key))
        {
            spill(hook, key, text);
        }
    }
}

/// Replaces `text` by its `<persisted-output>` block when it is over the cap.
fn spill(hook: &str, source: &str, text: &mut String) {
    let units = text.encode_utf16().count();
    if units <= CLAUDE_OUTPUT_CAP {
        return;
    }
    *text = match save(hook, source, text) {
        Ok(path) => persisted(text, units, &path),
        Err(e) => format!(
            "{} [Hook {source} truncated at {CLAUDE_OUTPUT_CAP} chars — persist-to-disk failed: {e}]",
            prefix_units(text, CLAUDE_OUTPUT_CAP)
        ),
    };
}

/// Writes `text` to its file (once: the name holds its hash).
fn save(hook: &str, source: &str, text: &str) -> std::io::Result<PathBuf> {
    let dir = crate::env_file::state_dir()
        .ok_or_else(|| std::io::Error::other("no state directory"))?
        .join("hook-output");
    let mut hasher = Sha256::new();
    for part in [hook, "\0", source, "\0", text] {
        hasher.update(part.as_bytes());
    }
    let digest = hex::encode(&hasher.finalize()[..16]);
    let name: String = hook
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_.-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .take(60)
        .collect();
    let path = dir.join(format!("hook-{name}-{digest}-{source}.txt"));
    if !path.is_file() {
        // Named by the text's hash: a concurrent writer writes the same bytes.
        std::fs::create_dir_all(&dir)?;
        std::fs::write(&path, text.as_bytes())?;
    }
    Ok(path)
}

/// Claude's block for a saved text: its size, the path, a preview cut at the last
/// line break when that keeps at least half of it.
fn persisted(text: &str, units: usize, path: &std::path::Path) -> String {
    let mut preview = prefix_units(text, PREVIEW);
    if let Some(newline) = preview.rfind('\n')
        && newline > preview.len() / 2
    {
        preview = &preview[..newline];
    }
    let more = if units > PREVIEW { "\n..." } else { "" };
    format!(
        "<persisted-output>\nOutput too large ({}). Full output saved to: {}\n\nPreview (first 2KB):\n{preview}{more}\n</persisted-output>",
        size(text.len()),
        path.display()
    )
}

/// The longest prefix of `text` of at most `limit` UTF-16 units.
fn prefix_units(text: &str, limit: usize) -> &str {
    let mut units = 0;
    for (at, c) in text.char_indices() {
        units += c.len_utf16();
        if units > limit {
            return &text[..at];
        }
    }
    text
}

/// A byte count as Claude writes it (`12.3KB`).
fn size(bytes: usize) -> String {
    match bytes {
        b if b < 1024 => format!("{b}B"),
        b if b < 1024 * 1024 => format!("{:.1}KB", b as f64 / 1024.0),
        b => format!("{:.1}MB", b as f64 / (1024.0 * 1024.0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_count_utf16_units() {
        assert_eq!(prefix_units("abc", 2), "ab");
        assert_eq!(prefix_units("a😀b", 2), "a");
        assert_eq!(prefix_units("a😀b", 3), "a😀");
        assert_eq!(size(12_595), "12.3KB");
    }

    #[test]
    fn short_texts_stay_and_long_ones_become_a_preview() {
        let mut short = "x".repeat(CLAUDE_OUTPUT_CAP);
        spill("h", "additionalContext", &mut short);
        assert_eq!(short.len(), CLAUDE_OUTPUT_CAP);
        let long = "line\n".repeat(3_000);
        let block = persisted(&long, long.len(), std::path::Path::new("/s/f.txt"));
        assert!(block.starts_with("<persisted-output>\nOutput too large (14.6KB). Full output saved to: /s/f.txt\n\nPreview (first 2KB):\nline\n"));
        assert!(block.ends_with("line\n...\n</persisted-output>"), "{block}");
    }
}
