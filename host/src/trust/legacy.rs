//! Approvals written by earlier versions, whose keys covered less than the whole
//! hook: a command by its command line (with its shell and exec-form arguments) and
//! the scripts its words named, an http or prompt hook by its review text, a
//! plugin by its digest and grants.
//!
//! Such an approval still counts where its key saw every setting the hook has —
//! the hook object holds no key beyond [`covered`] for its type, the scripts pinned
//! now are the ones pinned then, and nothing is unpinned — so an old approval
//! never admits a hook it did not see whole (a command that gained `env` asks
//! again). Everywhere else the hook asks again, and the reason names what the old
//! key did not cover.

use std::collections::BTreeMap;

use serde_json::Value;

/// What an earlier version approved a hook as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Earlier {
    /// `commands` (and `scripts`) of the trust file: the review text, and the
    /// scripts as pinned now (to compare with those pinned then).
    Text {
        text: String,
        scripts: BTreeMap<String, String>,
    },
    /// `pluginGrants`: `sha256:… grants:…`; `plugins`: the digest alone.
    Plugin { entry: String, sha256: [u8; 32] },
}

/// An earlier key of a hook, with what it did not see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct EarlierKey {
    pub(crate) key: Earlier,
    /// The hook's settings the earlier key did not cover; empty when it saw all.
    pub(crate) uncovered: Vec<String>,
}

/// How an earlier approval matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EarlierMatch {
    /// Not approved by an earlier version.
    None,
    /// Approved as it is now.
    Same,
    /// Approved with other script contents.
    OtherScripts,
    /// A plugin approved by its digest alone (grants not covered).
    DigestOnly,
}

/// The keys of a hook object the earlier key of its type saw in full.
fn covered(kind: &str) -> &'static [&'static str] {
    match kind {
        "command" => &["type", "command"],
        "http" => &["type", "url", "headers", "allowedEnvVars"],
        "prompt" => &["type", "prompt", "model"],
        "plugin" => &[
            "type",
            "path",
            "sha256",
            "env",
            "preopens",
            "args",
            "allowedHosts",
            "state",
        ],
        _ => &[],
    }
}

/// The earlier key of a hook whose object (canonical, cosmetic keys removed) is
/// `hook`; `unpinned` when the hook has code that cannot be pinned (which no
/// earlier key knew of).
pub(crate) fn earlier_key(hook: &Value, key: Earlier, unpinned: bool) -> EarlierKey {
    let kind = hook.get("type").and_then(Value::as_str).unwrap_or_default();
    let covered = covered(kind);
    let mut uncovered: Vec<String> = hook
        .as_object()
        .map(|map| {
            map.keys()
                .filter(|k| !covered.contains(&k.as_str()))
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    if unpinned {
        uncovered.push("scripts that cannot be pinned".to_owned());
    }
    EarlierKey { key, uncovered }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn only_keys_the_earlier_key_saw_are_covered() {
        let text = || Earlier::Text {
            text: "x".into(),
            scripts: BTreeMap::new(),
        };
        let plain = earlier_key(&json!({"type": "command", "command": "x"}), text(), false);
        assert!(plain.uncovered.is_empty());
        let env = earlier_key(
            &json!({"type": "command", "command": "x", "env": {}, "timeout": 5}),
            text(),
            false,
        );
        assert_eq!(env.uncovered, ["env", "timeout"]);
        let unpinned = earlier_key(&json!({"type": "command", "command": "x"}), text(), true);
        assert_eq!(unpinned.uncovered, ["scripts that cannot be pinned"]);
    }
}
