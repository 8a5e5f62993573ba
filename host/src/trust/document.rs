//! What an approval is for, as one canonical JSON document: the hook's whole
//! settings object as written (keys sorted, at every depth), the format of the
//! file that holds it, and what the object points at — the content of the scripts
//! a command names, a plugin's module digest and its resolved grants.
//!
//! The hook object is taken whole, not field by field, so that a key that changes
//! what runs — `env` (a `PATH` into the repository, `BASH_ENV`), `shell`, `args`,
//! `commandLinux`, a plugin's `fuel` … and any key added later — is covered by
//! construction. Only [`COSMETIC_KEYS`] are left out: nothing reads them to decide
//! whether, what or how a hook runs, or what its answer means. A plugin's `source`
//! is taken in its canonical spelling ([`crate::distribution`]): the spellings of
//! one reference reach the same registry, and the module digest pins what runs.

use serde_json::{Map, Value};

use crate::config::{HookEntry, SettingsFormat};

/// Keys of a hook object an approval does not cover: text shown to people
/// (`hookhost check`, `--explain`, the trace), never read to run the hook. `name`
/// is not one of them: `disabled` lists name hooks by it.
pub const COSMETIC_KEYS: [&str; 2] = ["description", "statusMessage"];

/// `value` with the keys of every object sorted (the workspace keeps insertion
/// order, so equal objects written differently would otherwise differ).
pub(crate) fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), canonical(&map[k])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

/// The hook as written, canonical, without [`COSMETIC_KEYS`]. A hook not read from
/// a file (an embedder's function, never from a repository) is its review text.
pub(crate) fn hook_object(entry: &HookEntry) -> Value {
    let Some(written) = &entry.written else {
        let mut object = Map::new();
        object.insert("type".into(), entry.spec.type_name().into());
        object.insert("review".into(), entry.spec.kind.review_text().into());
        return Value::Object(object);
    };
    let mut hook = canonical(written);
    if let Value::Object(map) = &mut hook {
        for key in COSMETIC_KEYS {
            map.remove(key);
        }
    }
    hook
}

/// How the file's format is named in a document.
pub(crate) fn format_name(format: SettingsFormat) -> &'static str {
    match format {
        SettingsFormat::Llxprt => "llxprt",
        SettingsFormat::Claude => "claude",
        SettingsFormat::Gemini => "gemini",
        SettingsFormat::Codex => "codex",
    }
}

/// What differs between an approved document and the current one, for people:
/// the hook's keys (`env`, `command` …), `script <word>` per script, and the other
/// parts by name (`module`, `grants`, `format`).
pub(crate) fn changes(approved: &Value, current: &Value) -> Vec<String> {
    let mut changed = Vec::new();
    let empty = Map::new();
    let object = |v: &Value, key: &str| v.get(key).and_then(Value::as_object).cloned();
    let parts: Vec<String> = keys(approved.as_object().unwrap_or(&empty))
        .chain(keys(current.as_object().unwrap_or(&empty)))
        .collect();
    for part in sorted_unique(parts) {
        if approved.get(&part) == current.get(&part) {
            continue;
        }
        match part.as_str() {
            "hook" | "scripts" => {
                let (old, new) = (
                    object(approved, &part).unwrap_or_default(),
                    object(current, &part).unwrap_or_default(),
                );
                let names = sorted_unique(keys(&old).chain(keys(&new)).collect());
                let prefix = if part == "scripts" { "script " } else { "" };
                changed.extend(
                    names
                        .into_iter()
                        .filter(|k| old.get(k) != new.get(k))
                        .map(|k| format!("{prefix}{k}")),
                );
            }
            _ => changed.push(part),
        }
    }
    changed
}

fn keys(map: &Map<String, Value>) -> impl Iterator<Item = String> + '_ {
    map.keys().cloned()
}

fn sorted_unique(mut items: Vec<String>) -> Vec<String> {
    items.sort();
    items.dedup();
    items
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn canonical_sorts_keys_at_every_depth() {
        let a = json!({"b": 1, "a": {"y": [{"d": 1, "c": 2}], "x": 0}});
        assert_eq!(
            canonical(&a).to_string(),
            r#"{"a":{"x":0,"y":[{"c":2,"d":1}]},"b":1}"#
        );
    }

    #[test]
    fn changes_name_the_keys_and_scripts_that_differ() {
        let approved = json!({"format": "llxprt", "hook": {"command": "x", "type": "command"},
            "scripts": {"a.sh": "1", "b.sh": "2"}});
        let current = json!({"format": "llxprt",
            "hook": {"command": "x", "env": {"PATH": "/p"}, "type": "command"},
            "scripts": {"a.sh": "9", "b.sh": "2"}, "unpinned": ["$X (why)"]});
        assert_eq!(
            changes(&approved, &current),
            ["env", "script a.sh", "unpinned"]
        );
    }
}
