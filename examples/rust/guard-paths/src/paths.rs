//! Lexical path checks: inside the project, and not a sensitive file.
//!
//! Lexical on purpose: the plugin has no file system to resolve symlinks
//! against, and the path the tool will use is the string it was given.

/// Resolves `path` against `base` (when relative) and removes `.` and `..`
/// without touching the file system. `..` at the root stays at the root.
pub fn normalise(base: &str, path: &str) -> Vec<String> {
    let joined = if path.starts_with('/') {
        path.to_owned()
    } else {
        format!("{base}/{path}")
    };
    let mut parts: Vec<String> = Vec::new();
    for part in joined.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other.to_owned()),
        }
    }
    parts
}

/// Why a path component is sensitive, if it is.
fn sensitive(component: &str, is_last: bool) -> Option<&'static str> {
    let lower = component.to_ascii_lowercase();
    match lower.as_str() {
        ".git" => Some("it is inside .git/"),
        ".ssh" => Some("it is inside .ssh/"),
        ".env" => Some(".env files hold secrets"),
        _ if is_last && lower.starts_with(".env.") && !lower.ends_with(".example") => {
            Some(".env files hold secrets")
        }
        _ if is_last && lower.starts_with("id_rsa") => Some("it is an SSH key"),
        _ if is_last && lower.ends_with(".pem") => Some("*.pem files hold keys and certificates"),
        _ => None,
    }
}

/// `Ok` when writing `target` is fine, else the reason it is not.
pub fn check(project: &str, target: &str) -> Result<(), String> {
    let resolved = normalise(project, target);
    let root = normalise("/", project);
    if root.is_empty() {
        return Err("the project directory is unknown".to_owned());
    }
    if !resolved.starts_with(&root) {
        return Err(format!(
            "/{} is outside the project directory /{}",
            resolved.join("/"),
            root.join("/")
        ));
    }
    let last = resolved.len().saturating_sub(1);
    for (i, component) in resolved.iter().enumerate() {
        if let Some(why) = sensitive(component, i == last) {
            return Err(why.to_owned());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_dot_dot() {
        assert_eq!(normalise("/p", "a/../b/./c"), ["p", "b", "c"]);
        assert_eq!(normalise("/p", "/../../etc"), ["etc"]);
    }

    #[test]
    fn inside_project_is_fine() {
        assert_eq!(check("/home/u/proj", "src/main.rs"), Ok(()));
        assert_eq!(check("/home/u/proj", "/home/u/proj/README.md"), Ok(()));
        assert_eq!(check("/home/u/proj", ".env.example"), Ok(()));
    }

    #[test]
    fn escapes_are_blocked() {
        assert!(check("/home/u/proj", "../other/file").is_err());
        assert!(check("/home/u/proj", "/etc/passwd").is_err());
        // A sibling that shares the prefix is not inside.
        assert!(check("/home/u/proj", "/home/u/project2/x").is_err());
        assert!(check("/home/u/proj", "src/../../../etc/x").is_err());
    }

    #[test]
    fn sensitive_files_are_blocked() {
        for path in [
            ".env",
            "config/.env.local",
            ".git/config",
            "keys/server.pem",
            ".ssh/x",
            "id_rsa",
        ] {
            assert!(check("/p", path).is_err(), "{path}");
        }
    }
}
