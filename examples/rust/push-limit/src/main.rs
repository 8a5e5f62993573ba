//! `push-limit`: at most N force pushes per agent session.
//!
//! On `BeforeTool` it finds every `git push` in a shell command that rewrites
//! the remote's history — `--force`, `-f` (also in a cluster such as `-fu`),
//! `--force-with-lease[=…]`, or a `+refspec` — with the SDK's shell parser, so
//! `git -C repo push -f`, `sudo git push --force` and `sh -c 'git push -f'`
//! count, and `echo "git push -f"` does not.
//!
//! It counts them per session in its private state (`wasi:keyvalue`; key
//! `push:<session_id>` of bucket `""`) and blocks the push that would go past
//! the limit, saying how many were made. The limit is the hook's first
//! argument (default 1). A blocked push is not counted.
//!
//! ```json
//! { "type": "plugin", "path": "policies/push-limit.wasm", "state": true, "args": ["2"] }
//! ```
//!
//! Without the `"state"` grant (or natively, where there is no state) a force
//! push makes the hook fail with a message that says so: the agent proceeds
//! (fail-open) unless the hook sets `"failurePolicy": "block"`. Concurrent
//! hooks of one session can race on the counter (the store has no
//! transactions); agents run a session's tool calls one at a time.

use hookhost_guest::shell::{self, SimpleCommand};
use hookhost_guest::state::Bucket;
use hookhost_guest::{HookInput, HookOutput, HookResult, log, register_hook};

const TAG: &str = "push-limit";
/// Force pushes allowed per session when the hook has no argument.
const DEFAULT_LIMIT: u64 = 1;

/// The limit from the hook's first argument.
fn limit(arg: Option<String>) -> Result<u64, String> {
    match arg {
        None => Ok(DEFAULT_LIMIT),
        Some(arg) => arg
            .trim()
            .parse()
            .map_err(|_| format!("{TAG}: the limit (first argument) {arg:?} is not a number")),
    }
}

/// Whether `command` is a `git push` that forces.
fn is_force_push(command: &SimpleCommand) -> bool {
    if command.program() != Some("git") {
        return false;
    }
    let args = command.args();
    // git's own options come before the subcommand: `git -C dir -c k=v push`.
    let mut i = 0;
    while let Some(word) = args.get(i) {
        match word.text.as_str() {
            "-C" | "-c" | "--git-dir" | "--work-tree" | "--namespace" => i += 2,
            option if option.starts_with('-') => i += 1,
            _ => break,
        }
    }
    if args.get(i).map(|w| w.text.as_str()) != Some("push") {
        return false;
    }
    let push_args = args.get(i + 1..).unwrap_or_default();
    push_args.iter().any(|w| is_force_argument(&w.text))
}

/// `--force`, `--force-with-lease[=…]`, a short cluster with `f`, `+refspec`.
fn is_force_argument(arg: &str) -> bool {
    if let Some(long) = arg.strip_prefix("--") {
        return long == "force" || long.starts_with("force-with-lease");
    }
    if let Some(short) = arg.strip_prefix('-') {
        return short.contains('f');
    }
    arg.len() > 1 && arg.starts_with('+')
}

/// The new count, or the block reason when `pushes` more would exceed `limit`
/// after `made`.
fn check(made: u64, pushes: u64, limit: u64) -> Result<u64, String> {
    let total = made.saturating_add(pushes);
    if total <= limit {
        return Ok(total);
    }
    let plural = if made == 1 { "" } else { "es" };
    Err(format!(
        "{TAG}: {made} force push{plural} already made in this session; the limit is {limit}"
    ))
}

fn push_limit(input: HookInput) -> HookResult {
    let (HookInput::BeforeTool(_), Some(call)) = (&input, input.tool_call()) else {
        return Ok(HookOutput::allow());
    };
    let Some(command) = call.shell_command() else {
        return Ok(HookOutput::allow());
    };
    let parsed = shell::parse(command);
    let pushes = parsed
        .simple_commands()
        .filter(|c| is_force_push(c))
        .count() as u64;
    if pushes == 0 {
        return Ok(HookOutput::allow());
    }
    let limit = limit(std::env::args().nth(1))?;
    let key = format!("push:{}", input.base().session_id);
    let bucket = Bucket::open("")?;
    let made = bucket.counter(&key)?;
    match check(made, pushes, limit) {
        Ok(total) => {
            bucket.set_string(&key, &total.to_string())?;
            log::info(TAG, &format!("allowed: force push {total} of {limit}"));
            Ok(HookOutput::allow())
        }
        Err(reason) => {
            log::info(TAG, &format!("blocked: {made} of {limit} already made"));
            Ok(HookOutput::block(reason))
        }
    }
}

register_hook!(push_limit);

#[cfg(test)]
mod tests {
    use super::{check, is_force_push, limit, push_limit};
    use hookhost_guest::{EXIT_FAILED, EXIT_OK, handle, json, shell};

    fn force_pushes(command: &str) -> usize {
        shell::parse(command)
            .simple_commands()
            .filter(|c| is_force_push(c))
            .count()
    }

    #[test]
    fn finds_force_pushes() {
        for command in [
            "git push --force",
            "git push -f origin main",
            "git push -fu origin main",
            "git push --force-with-lease=main:abc origin main",
            "git -C ../repo push origin +main",
            "sudo git push --force",
            "cd repo && git push -f",
            "sh -c 'git push -f'",
        ] {
            assert_eq!(force_pushes(command), 1, "{command}");
        }
        for command in [
            "git push",
            "git push origin main",
            "git push -u origin feature",
            "echo 'git push -f'",
            "git commit -m '+1' && git push",
            "git fetch --force",
        ] {
            assert_eq!(force_pushes(command), 0, "{command}");
        }
        assert_eq!(force_pushes("git push -f a && git push -f b"), 2);
    }

    #[test]
    fn counts_against_the_limit() {
        assert_eq!(check(0, 1, 1), Ok(1));
        assert_eq!(check(1, 1, 2), Ok(2));
        let reason = check(1, 1, 1).unwrap_err();
        assert_eq!(
            reason,
            "push-limit: 1 force push already made in this session; the limit is 1"
        );
        assert!(check(2, 1, 2).unwrap_err().contains("2 force pushes"));
        assert_eq!(limit(None), Ok(1));
        assert_eq!(limit(Some("3".to_owned())), Ok(3));
        assert!(limit(Some("many".to_owned())).is_err());
    }

    #[test]
    fn needs_state_only_for_force_pushes() {
        let run = |command: &str| {
            let event = json!({"hook_event_name": "BeforeTool", "session_id": "s1",
                "tool_name": "run_shell_command", "tool_input": {"command": command}});
            handle(event.to_string().as_bytes(), push_limit)
        };
        assert_eq!(run("git push origin main").exit_code, EXIT_OK);
        // Natively there is no state: the hook fails (fail-open) and says why.
        let outcome = run("git push -f");
        assert_eq!(outcome.exit_code, EXIT_FAILED);
        assert!(
            outcome.stderr.contains("wasm32-wasip2"),
            "{}",
            outcome.stderr
        );
    }
}
