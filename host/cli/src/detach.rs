//! `async` and `asyncRewake` hooks of a one-shot process (`hookhost hook`,
//! `hookhost fire`), which must not hold the agent's turn.
//!
//! An agent waits for its hook process to exit (Claude Code 2.1.331 took 5.2 s for
//! a tool call whose `async` 4 s hook ran through `hookhost hook`, issue 37). So the
//! one-shot process runs the synchronous hooks only
//! ([`hookhost::BackgroundMode::Defer`]), answers, and — when a background hook
//! matched — starts itself again with [`FLAG`], detached: its own session (so the
//! agent's kill of its process group does not reach it), no inherited pipes (so
//! the agent does not wait for their end), the same input on a pipe of its own.
//! That process runs only the background hooks ([`hookhost::BackgroundMode::Only`]),
//! each still bounded by its timeout, and exits when they end. Its stdout and
//! stderr go nowhere: an `asyncRewake` block after the answer cannot reach the
//! agent from a one-shot process anyway (`hookhost serve` delivers it as a notice).

use std::io::Write as _;
use std::process::{Command, Stdio};

use hookhost::BackgroundMode;

/// The hidden flag of the detached process.
pub const FLAG: &str = "--run-background";

/// The background mode of this process's hook system.
pub fn mode(run_background: bool) -> BackgroundMode {
    if run_background {
        BackgroundMode::Only
    } else {
        BackgroundMode::Defer
    }
}

/// In the detached process, first: a session of its own. Spawned as an ordinary
/// child (not a group leader, which `setsid` refuses), it leaves the agent's
/// process group and terminal here.
pub fn leave_agent_session() {
    if let Err(e) = rustix::process::setsid() {
        tracing::warn!("background hooks: cannot start a session of their own: {e}");
    }
}

/// After the answer: starts this command again, detached, with [`FLAG`] and
/// `input` on its stdin, to run the background hooks the fire left. Does not wait.
pub fn hand_over(input: &[u8]) {
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => {
            tracing::warn!("background hooks not started: cannot find hookhost's own binary: {e}");
            return;
        }
    };
    let spawned = Command::new(exe)
        .args(std::env::args_os().skip(1))
        .arg(FLAG)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) => {
            tracing::warn!("background hooks not started: {e}");
            return;
        }
    };
    // The child reads its stdin first: a long input does not block for long.
    if let Some(mut stdin) = child.stdin.take()
        && let Err(e) = stdin.write_all(input)
    {
        tracing::warn!("background hooks: cannot hand the input over: {e}");
    }
    // Not waited for: it outlives this process (init reaps it).
    drop(child);
}
