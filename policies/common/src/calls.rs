//! The parts of a tool call a policy looks at, whatever agent sent it: the
//! shell command, the files written (with their new text) and the files read.
//!
//! The SDK's [`ToolCall`] views cover LLxprt, Gemini CLI and Claude Code
//! names; this adds what they do not: Codex's `apply_patch` (a patch in
//! `patch`, `input` or a `command` array, whose `*** Add File:`,
//! `*** Update File:`, `*** Delete File:` and `*** Move to:` headers name the
//! files), a shell `command` given as an argv array, and the read tools.
//!
//! A shell argv is read in one of two ways: [`shell_command`] takes the script
//! of `sh -c SCRIPT` and quotes every other word, [`shell_lines`] joins the
//! words into one line, quoting only those that need it.

use hookhost_guest::{HookInput, Map, ToolCall, Value};

/// The tool call of a `BeforeTool` event (or an agent's own `PreToolUse`);
/// `None` for any other event.
pub fn before_tool(input: &HookInput) -> Option<ToolCall<'_>> {
    let event_ok = matches!(input, HookInput::BeforeTool(_)) || input.event_name() == "PreToolUse";
    input.tool_call().filter(|_| event_ok)
}

/// One file a tool call writes, deletes or moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChange {
    /// The path as written in the call.
    pub path: String,
    /// The text the call puts into the file (for an edit, the new text only).
    pub content: String,
}

/// The shell command of a shell tool call; an argv array such as
/// `["bash", "-lc", "…"]` gives its script, any other array its words.
pub fn shell_command(call: &ToolCall<'_>) -> Option<String> {
    if let Some(command) = call.shell_command() {
        return Some(command.to_owned());
    }
    if !matches!(
        call.name,
        "run_shell_command" | "Bash" | "shell" | "local_shell" | "exec_command"
    ) {
        return None;
    }
    let value = call
        .input
        .get("command")
        .or_else(|| call.input.get("cmd"))?;
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Array(items) => {
            let words: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
            Some(argv_script(&words))
        }
        _ => None,
    }
}

/// The script an argv runs: the body of `sh -c BODY`, else the words quoted.
fn argv_script(words: &[&str]) -> String {
    if let [shell, flag, body, ..] = words
        && hookhost_guest::shell::is_shell(hookhost_guest::shell::basename(shell))
        && flag.starts_with('-')
        && flag.contains('c')
    {
        return (*body).to_owned();
    }
    words
        .iter()
        .map(|w| format!("'{}'", w.replace('\'', "'\\''")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every file a file tool writes, with its new text: the SDK's view for
/// `write_file`/`replace`/`Write`/`Edit`/`MultiEdit`/`NotebookEdit`, and each
/// file of an `apply_patch`.
pub fn file_changes(call: &ToolCall<'_>) -> Vec<FileChange> {
    match file_write(call) {
        Some(write) => vec![write],
        None => patch_changes(call),
    }
}

/// The file a file tool writes, with its new text: the SDK's view for
/// `write_file`/`replace`/`Write`/`Edit`/`MultiEdit`/`NotebookEdit`.
pub fn file_write(call: &ToolCall<'_>) -> Option<FileChange> {
    let write = call.file_write()?;
    Some(FileChange {
        path: write.path.to_owned(),
        content: write.content.into_owned(),
    })
}

/// Every file of an `apply_patch` call (none for another tool).
pub fn patch_changes(call: &ToolCall<'_>) -> Vec<FileChange> {
    match patch_text(call) {
        Some(patch) => parse_patch(&patch),
        None => Vec::new(),
    }
}

/// The patch of an `apply_patch` call.
fn patch_text(call: &ToolCall<'_>) -> Option<String> {
    if !matches!(call.name, "apply_patch" | "applypatch") {
        return None;
    }
    for key in ["patch", "input"] {
        if let Some(text) = call.input.get(key).and_then(Value::as_str) {
            return Some(text.to_owned());
        }
    }
    match call.input.get("command")? {
        Value::String(s) => Some(s.clone()),
        Value::Array(items) => {
            let texts: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
            // `["apply_patch", PATCH]`: the patch is the argument that is one.
            let patch = texts.iter().find(|t| t.contains("*** ")).or(texts.last())?;
            Some((*patch).to_owned())
        }
        _ => None,
    }
}

/// The files of a Codex patch: `*** Add File:`, `*** Update File:`,
/// `*** Delete File:` and `*** Move to:` headers, each with the `+` lines
/// that follow it (a move's destination gets the lines of its update).
pub fn parse_patch(patch: &str) -> Vec<FileChange> {
    let mut files: Vec<FileChange> = Vec::new();
    for line in patch.lines() {
        let line = line.trim_end_matches('\r');
        let header = ["*** Add File:", "*** Update File:", "*** Delete File:"]
            .iter()
            .find_map(|h| line.strip_prefix(h));
        if let Some(path) = header {
            files.push(FileChange {
                path: path.trim().to_owned(),
                content: String::new(),
            });
        } else if let Some(path) = line.strip_prefix("*** Move to:") {
            let content = files.last().map(|f| f.content.clone()).unwrap_or_default();
            files.push(FileChange {
                path: path.trim().to_owned(),
                content,
            });
        } else if let (Some(added), Some(file)) = (line.strip_prefix('+'), files.last_mut()) {
            file.content.push_str(added);
            file.content.push('\n');
        }
    }
    files
}

/// The files a read tool reads: `read_file`/`Read` (`file_path`,
/// `absolute_path`, `path`) and `read_many_files` (`paths`).
pub fn file_reads(call: &ToolCall<'_>) -> Vec<String> {
    if !matches!(
        call.name,
        "read_file" | "Read" | "read_many_files" | "view" | "NotebookRead"
    ) {
        return Vec::new();
    }
    let mut out: Vec<String> = ["file_path", "absolute_path", "path", "notebook_path"]
        .iter()
        .filter_map(|k| call.input.get(*k).and_then(Value::as_str))
        .map(str::to_owned)
        .collect();
    if let Some(Value::Array(paths)) = call.input.get("paths") {
        out.extend(paths.iter().filter_map(Value::as_str).map(str::to_owned));
    }
    out
}

/// Tools whose `command` is a shell command line or an argv array.
pub const SHELL_TOOLS: &[&str] = &[
    "run_shell_command",
    "Bash",
    "shell",
    "local_shell",
    "exec_command",
    "container.exec",
];

/// The shell command lines of the call of `name` with `input`: the SDK's
/// view, else a shell tool's `command` argv (joined by [`join_argv`]) and its
/// `cmd` line.
pub fn shell_lines(name: &str, input: &Map<String, Value>) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(command) = ToolCall::new(name, input).shell_command() {
        out.push(command.to_owned());
    } else if SHELL_TOOLS.contains(&name) {
        if let Some(words) = input.get("command").and_then(argv) {
            out.push(join_argv(&words));
        }
        out.extend(input.get("cmd").and_then(Value::as_str).map(str::to_owned));
    }
    out
}

/// A `command` that is an array of strings (`None` when any item is not).
pub fn argv(value: &Value) -> Option<Vec<String>> {
    let list = value.as_array()?;
    list.iter().map(|v| v.as_str().map(str::to_owned)).collect()
}

/// An argv as one shell line, each word quoted when it needs to be.
pub fn join_argv(words: &[String]) -> String {
    let quoted: Vec<String> = words
        .iter()
        .map(|w| {
            let plain = !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
            if plain {
                w.clone()
            } else {
                format!("'{}'", w.replace('\'', "'\\''"))
            }
        })
        .collect();
    quoted.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use hookhost_guest::{Map, json};

    fn call_of(name: &str, input: Value) -> (String, Map<String, Value>) {
        let Value::Object(map) = input else {
            panic!("not an object")
        };
        (name.to_owned(), map)
    }

    #[test]
    fn patches_in_every_shape() {
        let patch = "*** Begin Patch\n*** Add File: a.txt\n+one\n+two\n*** Update File: b.rs\n@@\n-x\n+y\n*** Move to: c.rs\n*** Delete File: d\n*** End Patch";
        for input in [
            json!({"patch": patch}),
            json!({"input": patch}),
            json!({"command": ["apply_patch", patch]}),
        ] {
            let (name, map) = call_of("apply_patch", input);
            let files = file_changes(&ToolCall::new(&name, &map));
            let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
            assert_eq!(paths, ["a.txt", "b.rs", "c.rs", "d"]);
            assert_eq!(files[0].content, "one\ntwo\n");
            assert_eq!(files[2].content, "y\n");
        }
    }

    #[test]
    fn argv_commands() {
        let (name, map) = call_of("shell", json!({"command": ["bash", "-lc", "cat .env"]}));
        assert_eq!(
            shell_command(&ToolCall::new(&name, &map)).as_deref(),
            Some("cat .env")
        );
        let (name, map) = call_of("shell", json!({"command": ["cat", "a b"]}));
        assert_eq!(
            shell_command(&ToolCall::new(&name, &map)).as_deref(),
            Some("'cat' 'a b'")
        );
    }

    #[test]
    fn shell_lines_join_argv() {
        let (name, map) = call_of("shell", json!({"command": ["ls", "a b"], "cmd": "pwd"}));
        assert_eq!(shell_lines(&name, &map), ["ls 'a b'", "pwd"]);
        let (name, map) = call_of("shell", json!({"command": ["ls", 1]}));
        assert!(shell_lines(&name, &map).is_empty());
    }
}
