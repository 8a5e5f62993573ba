//! Codex's `apply_patch` as an editing tool: Codex selects a hook whose matcher
//! says `Write` or `Edit` for it (its `HookToolName::apply_patch` matcher
//! aliases), so an `if: "Edit(*.env)"` must see the files the patch touches.
//! They are named by the patch's `*** Add File:`, `*** Update File:`,
//! `*** Delete File:` and `*** Move to:` headers; Codex hands the patch over in
//! `tool_input.command` (a string, or an argv whose patch is the word holding
//! `*** `), older builds in `patch` or `input`.

use serde_json::{Map, Value};

pub(crate) use crate::dialect::APPLY_PATCH;

/// The files a patch call touches, as written in its headers.
pub(super) fn patch_files(input: &Map<String, Value>) -> Vec<&str> {
    let Some(patch) = patch_text(input) else {
        return Vec::new();
    };
    const HEADERS: [&str; 4] = [
        "*** Add File:",
        "*** Update File:",
        "*** Delete File:",
        "*** Move to:",
    ];
    patch
        .lines()
        .filter_map(|line| HEADERS.iter().find_map(|h| line.strip_prefix(h)))
        .map(str::trim)
        .filter(|path| !path.is_empty())
        .collect()
}

fn patch_text(input: &Map<String, Value>) -> Option<&str> {
    for key in ["patch", "input"] {
        if let Some(text) = input.get(key).and_then(Value::as_str) {
            return Some(text);
        }
    }
    match input.get("command")? {
        Value::String(text) => Some(text),
        Value::Array(words) => {
            let words: Vec<&str> = words.iter().filter_map(Value::as_str).collect();
            words
                .iter()
                .find(|w| w.contains("*** "))
                .or(words.last())
                .copied()
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn files(input: Value) -> Vec<String> {
        let Value::Object(map) = input else {
            return Vec::new();
        };
        patch_files(&map).into_iter().map(str::to_owned).collect()
    }

    #[test]
    fn every_header_names_a_file() {
        let patch = "*** Begin Patch\n*** Add File: a/.env\n+K=1\n*** Update File: src/x.rs\n\
                     *** Move to: src/y.rs\n@@\n-a\n+b\n*** Delete File: old.txt\r\n*** End Patch\n";
        assert_eq!(
            files(json!({"command": patch})),
            ["a/.env", "src/x.rs", "src/y.rs", "old.txt"]
        );
        assert_eq!(
            files(json!({"command": ["apply_patch", patch]})),
            ["a/.env", "src/x.rs", "src/y.rs", "old.txt"]
        );
        assert_eq!(files(json!({"patch": patch})).len(), 4);
        assert!(files(json!({"command": 7})).is_empty());
        assert!(files(json!({"command": "*** Add File:   \n"})).is_empty());
    }
}
