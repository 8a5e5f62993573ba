//! `pack`: the five builtin policies in one component. When several builtin
//! hooks answer one call, hookhost runs this once instead of each policy's own
//! component: one instance, one read of the input, one copy of the code in the
//! caches (five separate instances cost a call ~5× one; docs/PERFORMANCE.md).
//!
//! Arguments: one group per policy to run, `NAME COUNT ARG…` — the policy's
//! name, how many of its hook's `args` follow, and those args.
//! With one group the pack is that policy's own component: its stdout, stderr
//! and exit status. With several, standard output is one JSON line per group,
//! in order, `{"exit":N,"stdout":"…","stderr":"…"}` — exactly what each policy
//! alone would have written and exited with — and the exit status 0. Arguments
//! that are not such groups (hookhost writes them, so never in practice): status 1.

use std::io::{Read, Write};

use hookhost_guest::{HookInput, HookResult, Outcome, answer, json};

type Policy = fn(&HookInput, &[String]) -> HookResult;

/// The policy called `name`.
fn policy(name: &str) -> Option<Policy> {
    Some(match name {
        "destructive" => hookhost_policy_destructive::hook,
        "remote-exec" => hookhost_policy_remote_exec::hook,
        "secrets" => hookhost_policy_secrets::hook,
        "git-safety" => hookhost_policy_git_safety::hook,
        "protected-paths" => hookhost_policy_protected_paths::hook,
        _ => return None,
    })
}

/// The groups of the arguments: each policy with its args.
fn groups(mut args: impl Iterator<Item = String>) -> Result<Vec<(Policy, Vec<String>)>, String> {
    let mut groups = Vec::new();
    while let Some(name) = args.next() {
        let policy = policy(&name).ok_or_else(|| format!("no policy is called {name:?}"))?;
        let count: usize = args
            .next()
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| format!("{name}: the count of its args is missing"))?;
        let own: Vec<String> = args.by_ref().take(count).collect();
        if own.len() != count {
            return Err(format!(
                "{name}: {count} args announced, {} given",
                own.len()
            ));
        }
        groups.push((policy, own));
    }
    Ok(groups)
}

fn main() {
    let groups = match groups(std::env::args().skip(1)) {
        Ok(groups) => groups,
        Err(e) => {
            eprintln!("pack: {e}");
            hookhost_guest::exit(1);
        }
    };
    let mut stdin = Vec::with_capacity(16 * 1024);
    let input = std::io::stdin()
        .read_to_end(&mut stdin)
        .map_err(|e| format!("hook could not read stdin: {e}"))
        .and_then(|_| {
            HookInput::from_json(&stdin)
                .map_err(|e| format!("hook input is not a valid event JSON object: {e}"))
        });
    let outcomes: Vec<Outcome> = groups
        .iter()
        .map(|(policy, args)| match &input {
            Ok(input) => answer(input.event_name(), policy(input, args)),
            Err(e) => Outcome {
                stdout: String::new(),
                stderr: format!("{e}\n"),
                exit_code: hookhost_guest::EXIT_FAILED,
            },
        })
        .collect();
    // Write errors (a closed pipe) cannot be reported better than by the status.
    if let [alone] = outcomes.as_slice() {
        let _ = std::io::stdout().write_all(alone.stdout.as_bytes());
        let _ = std::io::stderr().write_all(alone.stderr.as_bytes());
        hookhost_guest::exit(alone.exit_code);
    }
    let mut out = String::new();
    for outcome in &outcomes {
        let line =
            json!({"exit": outcome.exit_code, "stdout": outcome.stdout, "stderr": outcome.stderr});
        out.push_str(&line.to_string());
        out.push('\n');
    }
    let _ = std::io::stdout().write_all(out.as_bytes());
    hookhost_guest::exit(0)
}

#[cfg(test)]
mod tests {
    use super::groups;

    fn args(list: &[&str]) -> impl Iterator<Item = String> {
        list.iter()
            .map(|s| (*s).to_owned())
            .collect::<Vec<_>>()
            .into_iter()
    }

    #[test]
    fn a_hooks_args_that_look_like_groups_stay_its_args() {
        let read = groups(args(&[
            "remote-exec",
            "2",
            "--allow-host",
            "destructive",
            "secrets",
            "0",
        ]))
        .unwrap_or_default();
        let own: Vec<&[String]> = read.iter().map(|(_, a)| a.as_slice()).collect();
        assert_eq!(own, [&["--allow-host", "destructive"][..], &[][..]]);
    }

    #[test]
    fn malformed_groups_are_refused() {
        for bad in [
            &["nope", "0"][..],
            &["secrets"],
            &["secrets", "x"],
            &["secrets", "3", "a"],
            &["secrets", "-1"],
        ] {
            assert!(groups(args(bad)).is_err(), "{bad:?}");
        }
        assert_eq!(groups(args(&[])).map(|g| g.len()), Ok(0));
    }
}
