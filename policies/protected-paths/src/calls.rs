//! The files a tool call writes, deletes or moves, whatever agent sent it.
//!
//! The shared reading ([`hookhost_policy_common::calls`]) gives the SDK's
//! file-write view and every file of a Codex `apply_patch`; this policy also
//! takes the path of the other known file tools, even when their text
//! argument is missing (a tool that deletes, creates or edits by line).

use hookhost_guest::{ToolCall, Value};
pub use hookhost_policy_common::calls::{FileChange, parse_patch, shell_command};
use hookhost_policy_common::calls::{file_write, patch_changes};

/// File tools whose path argument is the file they change, even when their
/// text argument is missing.
const FILE_TOOLS: &[&str] = &[
    "write_file",
    "replace",
    "Write",
    "Edit",
    "MultiEdit",
    "NotebookEdit",
    "multi_edit",
    "notebook_edit",
    "edit",
    "create_file",
    "delete_file",
    "insert",
    "str_replace_based_edit_tool",
    "str_replace_editor",
];

/// Every file a file tool writes, with its new text: the SDK's view for
/// `write_file`/`replace`/`Write`/`Edit`/`MultiEdit`/`NotebookEdit`, the path
/// of other known file tools, and each file of an `apply_patch`.
pub fn file_changes(call: &ToolCall<'_>) -> Vec<FileChange> {
    if let Some(write) = file_write(call) {
        return vec![write];
    }
    if FILE_TOOLS.contains(&call.name) {
        return ["file_path", "absolute_path", "notebook_path", "path"]
            .iter()
            .filter_map(|k| call.input.get(*k).and_then(Value::as_str))
            .map(|path| FileChange {
                path: path.to_owned(),
                content: String::new(),
            })
            .collect();
    }
    patch_changes(call)
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
    fn patches_and_file_tools() {
        let patch = "*** Begin Patch\n*** Add File: a.txt\n+one\n*** Delete File: d\n*** End Patch";
        let (name, map) = call_of("apply_patch", json!({"patch": patch}));
        let files = file_changes(&ToolCall::new(&name, &map));
        let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["a.txt", "d"]);
        let (name, map) = call_of("delete_file", json!({"path": "x/y"}));
        let files = file_changes(&ToolCall::new(&name, &map));
        assert_eq!(
            files,
            [FileChange {
                path: "x/y".to_owned(),
                content: String::new()
            }]
        );
    }
}
