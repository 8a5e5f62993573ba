//! A `git` invocation read the way git reads it: global options (`-C`, `-c`,
//! `--git-dir`, `--config-env` …) before the subcommand, then the
//! subcommand's own options, long options abbreviated as git allows.

/// A `git` command line split into its parts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GitCall<'a> {
    /// `-C DIR` values, in order (each relative to the previous).
    pub dirs: Vec<&'a str>,
    /// `--git-dir` value.
    pub git_dir: Option<&'a str>,
    /// `-c KEY=VALUE` and `--config-env KEY=VAR` settings.
    pub configs: Vec<&'a str>,
    /// The subcommand (`push`, `commit` …); empty when there is none.
    pub sub: &'a str,
    /// The subcommand's arguments.
    pub args: &'a [String],
}

/// Global options that take the next word as their value.
const GLOBAL_VALUES: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--config-env",
    "--super-prefix",
    "--attr-source",
    "--list-cmds",
];

/// Splits the arguments of `git` (the words after the program) into global
/// options, subcommand and the subcommand's arguments.
pub fn parse(args: &[String]) -> GitCall<'_> {
    let mut call = GitCall::default();
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        if !arg.starts_with('-') {
            call.sub = arg;
            call.args = args.get(i + 1..).unwrap_or_default();
            break;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v)),
            _ => (arg.as_str(), None),
        };
        let value = if GLOBAL_VALUES.contains(&name) {
            match inline {
                Some(v) => Some(v),
                None => {
                    i += 1;
                    args.get(i).map(String::as_str)
                }
            }
        } else {
            None
        };
        if let Some(value) = value {
            match name {
                "-C" => call.dirs.push(value),
                "-c" | "--config-env" => call.configs.push(value),
                "--git-dir" => call.git_dir = Some(value),
                _ => {}
            }
        }
        i += 1;
    }
    call
}

/// The canonical name of long option `arg` (`--force-w=x` → `force-with-lease`)
/// among `known`: the exact name, else the one name it abbreviates; `None`
/// for an ambiguous or unknown option (git refuses those).
pub fn long_option<'k>(arg: &str, known: &[&'k str]) -> Option<&'k str> {
    let name = arg.strip_prefix("--")?;
    let name = name.split_once('=').map_or(name, |(n, _)| n);
    if name.is_empty() {
        return None;
    }
    if let Some(exact) = known.iter().find(|k| **k == name) {
        return Some(exact);
    }
    let mut matching = known.iter().filter(|k| k.starts_with(name));
    match (matching.next(), matching.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

/// The letters of a short-option cluster (`-fu` → `fu`), up to the first one in
/// `takes_value` (the rest of the cluster is its value).
pub fn short_flags(arg: &str, takes_value: &[char]) -> String {
    let Some(cluster) = arg.strip_prefix('-') else {
        return String::new();
    };
    if cluster.starts_with('-') {
        return String::new();
    }
    let mut out = String::new();
    for c in cluster.chars() {
        out.push(c);
        if takes_value.contains(&c) {
            break;
        }
    }
    out
}

/// Config keys that run code or move hooks: `core.hooksPath`,
/// `core.fsmonitor`, `core.sshCommand`, and includes (which can set them).
pub fn dangerous_key(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    matches!(
        key.as_str(),
        "core.hookspath" | "core.fsmonitor" | "core.sshcommand" | "include.path"
    ) || (key.starts_with("includeif.") && key.ends_with(".path"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn global_options() {
        let w = words("-C sub --git-dir=x/.git -c core.hooksPath=/h --no-pager push -f");
        let call = parse(&w);
        assert_eq!(call.dirs, ["sub"]);
        assert_eq!(call.git_dir, Some("x/.git"));
        assert_eq!(call.configs, ["core.hooksPath=/h"]);
        assert_eq!(call.sub, "push");
        assert_eq!(call.args, ["-f"]);
        assert_eq!(parse(&words("--version")).sub, "");
    }

    #[test]
    fn abbreviations() {
        let known = ["force", "force-with-lease", "force-if-includes", "mirror"];
        assert_eq!(long_option("--force", &known), Some("force"));
        assert_eq!(
            long_option("--force-w=main", &known),
            Some("force-with-lease")
        );
        assert_eq!(long_option("--mir", &known), Some("mirror"));
        assert_eq!(long_option("--forc", &known), None);
        assert_eq!(long_option("--", &known), None);
        assert_eq!(short_flags("-fu", &['o']), "fu");
        assert_eq!(short_flags("-ofu", &['o']), "o");
        assert!(dangerous_key("CORE.hooksPath"));
        assert!(dangerous_key("includeIf.gitdir:~/w/.path"));
        assert!(!dangerous_key("core.editor"));
    }
}
