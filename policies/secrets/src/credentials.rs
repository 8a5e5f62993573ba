//! Credential files: which paths hold credentials, and which arguments of a
//! program name a file it reads.

use hookhost_policy_common::paths::{Part, components, glob_match, is_glob, matches_rule, resolve};

/// Credential files under a home directory, as path parts after the home.
const HOME_FILES: &[(&[Part], &str)] = &[
    (
        &[
            Part::Lit(".ssh"),
            Part::Prefix("id_", &["id_rsa", "id_ed25519", "id_ecdsa", "id_dsa"]),
        ],
        "an SSH private key",
    ),
    (
        &[Part::Lit(".aws"), Part::Lit("credentials")],
        "AWS credentials",
    ),
    (&[Part::Lit(".netrc")], "a .netrc with passwords"),
    (&[Part::Lit(".git-credentials")], "git credentials"),
    (
        &[Part::Lit(".docker"), Part::Lit("config.json")],
        "Docker registry credentials",
    ),
    (
        &[Part::Lit(".kube"), Part::Lit("config")],
        "a Kubernetes config",
    ),
    (
        &[
            Part::Lit(".config"),
            Part::Lit("gh"),
            Part::Lit("hosts.yml"),
        ],
        "GitHub CLI tokens",
    ),
];

/// `.env` files that are templates, not secrets.
const ENV_TEMPLATES: &[&str] = &[".env.example", ".env.sample", ".env.template"];

/// Samples a pattern for a `.env.*` file is tried against.
const ENV_SAMPLES: &[&str] = &[".env.local", ".env.production"];

/// The configured extra credential paths (absolute, normal).
pub type Extra = [String];

/// What credential `path` (absolute, normal; its last parts may be glob
/// patterns) is, if it is one. `home` is the user's home; other users' homes
/// (`/root`, `/home/NAME`) count too.
pub fn credential(path: &str, home: &str, extra: &Extra) -> Option<&'static str> {
    if extra
        .iter()
        .any(|e| path == e || path.starts_with(&format!("{e}/")))
    {
        return Some("a configured credential file");
    }
    let comps = components(path);
    let last = *comps.last()?;
    if is_env_file(last) {
        return Some("a .env file");
    }
    for rest in after_homes(&comps, home) {
        if let Some((_, kind)) = HOME_FILES.iter().find(|(rule, _)| {
            matches_rule(rest, rule) && !rest.last().is_some_and(|l| l.ends_with(".pub"))
        }) {
            return Some(kind);
        }
    }
    None
}

/// Whether a file name is `.env` or `.env.*` but not a template.
fn is_env_file(name: &str) -> bool {
    if ENV_TEMPLATES.contains(&name) {
        return false;
    }
    if is_glob(name) {
        return Part::Lit(".env").matches(name) || Part::Prefix("", ENV_SAMPLES).matches(name);
    }
    name == ".env" || name.starts_with(".env.")
}

/// The parts of `comps` after each home directory it may be under.
fn after_homes<'a, 'b>(comps: &'b [&'a str], home: &str) -> Vec<&'b [&'a str]> {
    let mut out = Vec::new();
    let home_comps = components(home);
    if !home_comps.is_empty() && comps.starts_with(&home_comps) {
        out.push(&comps[home_comps.len()..]);
    }
    match comps {
        ["root", rest @ ..] => out.push(rest),
        ["home", _, rest @ ..] => out.push(rest),
        _ => {}
    }
    out
}

/// Whether `path` is a directory that holds credential files (a home, `~/.ssh`,
/// `/home`, `/`): copying or archiving it copies them.
pub fn holds_credentials(path: &str, home: &str) -> bool {
    let comps = components(path);
    let mut homes = vec![components(home)];
    homes.push(vec!["root"]);
    if let ["home", user, ..] = comps.as_slice() {
        homes.push(vec!["home", user]);
    }
    homes.iter().filter(|h| !h.is_empty()).any(|h| {
        HOME_FILES.iter().any(|(rule, _)| {
            let full = h.len() + rule.len();
            comps.len() < full
                && comps.iter().enumerate().all(|(i, c)| match h.get(i) {
                    Some(name) => c == name || (is_glob(c) && glob_match(c, name)),
                    None => rule.get(i - h.len()).is_some_and(|p| p.matches(c)),
                })
        })
    })
}

/// The paths an argument of a reading program may name: the argument itself,
/// the value after `=` (`--data-binary=@f`, `if=f`), after `@` (`-d @f`,
/// `-F file=@f;type=x`), and the path of `host:path`.
pub fn arg_paths(arg: &str) -> Vec<&str> {
    let mut out = vec![arg];
    if let Some((_, value)) = arg.split_once('=') {
        out.push(value);
    }
    if let Some(at) = arg.rfind('@') {
        let after = &arg[at + 1..];
        out.push(after.split(';').next().unwrap_or(after));
    }
    if !arg.starts_with('/')
        && let Some((host, path)) = arg.split_once(':')
        && !host.is_empty()
        && !host.contains('/')
    {
        out.push(path);
    }
    out
}

/// The credential an argument names, with the path it resolves to.
pub fn arg_credential(
    arg: &str,
    cwds: &[String],
    home: &str,
    extra: &Extra,
) -> Option<(String, &'static str)> {
    for candidate in arg_paths(arg) {
        for cwd in cwds {
            let Some(path) = resolve(candidate, cwd, home) else {
                continue;
            };
            if let Some(kind) = credential(&path, home, extra) {
                return Some((path, kind));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOME: &str = "/home/u";

    #[test]
    fn credential_paths() {
        let c = |p| credential(p, HOME, &[]);
        assert!(c("/home/u/.ssh/id_rsa").is_some());
        assert!(c("/home/u/.ssh/id_ed25519_work").is_some());
        assert!(c("/home/u/.ssh/id_*").is_some());
        assert!(c("/home/u/.ssh/*").is_some());
        assert!(c("/home/u/.ssh/id_rsa.pub").is_none());
        assert!(c("/home/u/.ssh/id_*.pub").is_none());
        assert!(c("/home/u/.ssh/known_hosts").is_none());
        assert!(c("/root/.aws/credentials").is_some());
        assert!(c("/home/bob/.netrc").is_some());
        assert!(c("/work/proj/.env").is_some());
        assert!(c("/work/proj/.env.local").is_some());
        assert!(c("/work/proj/.env*").is_some());
        assert!(c("/work/proj/.env.example").is_none());
        assert!(c("/work/proj/env.sh").is_none());
        assert!(c("/work/proj/.aws/credentials").is_none());
        assert!(c("/home/u/.kube/config").is_some());
        assert!(c("/home/u/.config/gh/hosts.yml").is_some());
        assert!(c("/home/u/.docker/config.json").is_some());
        assert!(credential("/srv/key", HOME, &["/srv".to_owned()]).is_some());
    }

    #[test]
    fn directories_that_hold_credentials() {
        for dir in [
            "/",
            "/home",
            "/home/u",
            "/home/u/.ssh",
            "/root",
            "/home/u/.config",
        ] {
            assert!(holds_credentials(dir, HOME), "{dir}");
        }
        for dir in ["/work/proj", "/home/u/src", "/tmp", "/home/u/.ssh/id_rsa"] {
            assert!(!holds_credentials(dir, HOME), "{dir}");
        }
    }

    #[test]
    fn argument_forms() {
        assert!(arg_paths("-F file=@/x/.env;type=text/plain").contains(&"/x/.env"));
        assert!(arg_paths("--data-binary=@.env").contains(&".env"));
        assert!(arg_paths("server:~/.ssh/id_rsa").contains(&"~/.ssh/id_rsa"));
        assert!(arg_paths("if=/home/u/.netrc").contains(&"/home/u/.netrc"));
    }
}
