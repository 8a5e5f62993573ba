//! The scripts a command hook runs from inside the project, pinned by content.
//!
//! Approving `"$LLXPRT_PROJECT_DIR"/hooks/lint.sh` by its command string alone would
//! let the repository change what `lint.sh` does after the review. The command is
//! split into words as `sh` would (quotes removed); every word that, after expanding
//! the project-dir variables and resolving against the project dir (the hook's
//! working directory), names a regular file inside the project or the extension's
//! directory is hashed. The approval covers those digests; a changed, added or removed
//! script is a new, unapproved hook. Words the shell would compute at run time
//! (`$(…)`, other variables) cannot be followed; README says to name scripts directly.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::config::PROJECT_DIR_VARS;

/// Scripts larger than this are pinned by a marker instead of their content
/// (nothing legitimate is that large; reading it would only cost time).
const MAX_SCRIPT_BYTES: u64 = 16 * 1024 * 1024;

/// The scripts inside `roots` that `command` names, with their SHA-256 (hex), keyed
/// by the word as written.
pub fn pinned_scripts(
    command: &str,
    project_dir: &Path,
    roots: &[&Path],
) -> BTreeMap<String, String> {
    let words = shlex::split(command)
        .unwrap_or_else(|| command.split_whitespace().map(str::to_owned).collect());
    let roots: Vec<PathBuf> = roots.iter().filter_map(|r| r.canonicalize().ok()).collect();
    let mut pinned = BTreeMap::new();
    for word in words {
        let Some(path) = resolve(&word, project_dir) else {
            continue;
        };
        let Ok(canonical) = path.canonicalize() else {
            continue;
        };
        if !roots.iter().any(|root| canonical.starts_with(root)) || !canonical.is_file() {
            continue;
        }
        pinned.insert(word, digest(&canonical));
    }
    pinned
}

/// A word as a path: project-dir variables expanded, relative to the project dir.
/// Words that are options, assignments or still contain a variable are not paths.
fn resolve(word: &str, project_dir: &Path) -> Option<PathBuf> {
    if word.is_empty() || word.starts_with('-') || word.contains('=') {
        return None;
    }
    let dir = project_dir.to_string_lossy();
    let mut expanded = word.to_owned();
    for var in PROJECT_DIR_VARS {
        expanded = expanded
            .replace(&format!("${{{var}}}"), &dir)
            .replace(&format!("${var}"), &dir);
    }
    if expanded.contains('$') || expanded.contains('`') {
        return None;
    }
    let path = Path::new(&expanded);
    Some(if path.is_absolute() {
        path.to_path_buf()
    } else {
        project_dir.join(path)
    })
}

fn digest(path: &Path) -> String {
    let mut hasher = Sha256::new();
    let read = std::fs::File::open(path)
        .and_then(|file| std::io::copy(&mut file.take(MAX_SCRIPT_BYTES), &mut hasher));
    match read {
        Ok(_) => hex::encode(hasher.finalize()),
        Err(e) => format!("unreadable: {}", e.kind()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_named_by_the_command_are_pinned_and_others_are_not() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(project.join("hooks")).unwrap();
        std::fs::write(project.join("hooks/lint.sh"), "echo 1").unwrap();
        std::fs::write(project.join("hooks/check.py"), "print(1)").unwrap();
        let roots = [project.as_path()];
        let pins = pinned_scripts(
            r#""$LLXPRT_PROJECT_DIR"/hooks/lint.sh --fast && python3 hooks/check.py /etc/passwd"#,
            &project,
            &roots,
        );
        let keys: Vec<&str> = pins.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            ["$LLXPRT_PROJECT_DIR/hooks/lint.sh", "hooks/check.py"]
        );
        let before = pins.clone();
        std::fs::write(project.join("hooks/lint.sh"), "echo 2").unwrap();
        let after = pinned_scripts(
            r#""$LLXPRT_PROJECT_DIR"/hooks/lint.sh --fast && python3 hooks/check.py /etc/passwd"#,
            &project,
            &roots,
        );
        assert_ne!(before, after);
    }
}
