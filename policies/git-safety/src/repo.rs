//! The current branch of a repository, read from its `HEAD` file through the
//! filesystem (the plugin gets the project directory preopened read-only).

use std::io::Read;

/// The most of a `HEAD` or `.git` file that is read: both are one short line.
const MAX_READ: u64 = 4096;

/// How many parent directories are searched for `.git`.
const MAX_UP: usize = 64;

/// A small file's text, or why it cannot be read.
fn read_small(path: &str) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut text = String::new();
    file.take(MAX_READ)
        .read_to_string(&mut text)
        .map_err(|e| format!("{path}: {e}"))?;
    Ok(text)
}

/// The branch a `HEAD` file names (`ref: refs/heads/NAME`), `None` when HEAD
/// is detached.
pub fn branch_of_head(text: &str) -> Option<String> {
    let reference = text.trim().strip_prefix("ref:")?.trim();
    Some(
        reference
            .strip_prefix("refs/heads/")
            .unwrap_or(reference)
            .to_owned(),
    )
}

/// The current branch of the git directory `git_dir`.
pub fn branch_in_git_dir(git_dir: &str) -> Result<Option<String>, String> {
    Ok(branch_of_head(&read_small(&format!("{git_dir}/HEAD"))?))
}

/// The current branch of the work tree that holds `dir`: the nearest `.git`
/// directory (or `.git` file with `gitdir: PATH`, as in worktrees and
/// submodules) at or above `dir`.
pub fn branch_of_worktree(dir: &str) -> Result<Option<String>, String> {
    let mut current = dir.trim_end_matches('/').to_owned();
    let mut first_error = None;
    for _ in 0..MAX_UP {
        let dot_git = format!("{current}/.git");
        match read_small(&format!("{dot_git}/HEAD")) {
            Ok(head) => return Ok(branch_of_head(&head)),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
        if let Ok(link) = read_small(&dot_git)
            && let Some(target) = link.trim().strip_prefix("gitdir:")
        {
            let target = target.trim();
            let git_dir = if target.starts_with('/') {
                target.to_owned()
            } else {
                format!("{current}/{target}")
            };
            return branch_in_git_dir(&git_dir);
        }
        match current.rfind('/') {
            Some(at) if at > 0 => current.truncate(at),
            _ => break,
        }
    }
    Err(first_error.unwrap_or_else(|| format!("no .git above {dir}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_files() {
        assert_eq!(
            branch_of_head("ref: refs/heads/main\n").as_deref(),
            Some("main")
        );
        assert_eq!(
            branch_of_head("ref: refs/heads/feat/x").as_deref(),
            Some("feat/x")
        );
        assert_eq!(branch_of_head("3f2a9c0d1e\n"), None);
        assert!(branch_of_worktree("/nonexistent/dir/for/git-safety").is_err());
    }
}
