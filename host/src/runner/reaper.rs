//! The reaper: a small watchdog process that kills the process groups of hooks still
//! running when hookhost dies — even by `kill -9`, which no code of ours survives.
//!
//! Without a reaper a hook's shell dies with hookhost by itself (`PR_SET_PDEATHSIG`,
//! see [`super::command`]), but that signal is not inherited: a script the shell ran,
//! or a `sleep` the script started, would be orphaned and live on. So a long-lived
//! host (`hookhost serve`) starts the reaper once: `/bin/sh` reading `+ PGID` /
//! `- PGID` lines on a pipe from us. Each command hook's group is announced when it
//! spawns and withdrawn just *before* its leader is reaped (while the id is still
//! ours, see [`super::command`]). When the pipe reaches EOF — hookhost exited, for
//! whatever reason — the reaper SIGKILLs every group still announced, then exits.
//! After a clean exit nothing is announced any more, so it only exits.
//!
//! The reaper runs in its own process group with SIGINT, SIGTERM and SIGHUP
//! ignored, so signals meant for hookhost's group do not end it first. One window
//! remains: between hookhost's death and the reaper's kill, init may reap a dead
//! shell and its pid could in theory be reused as a new group id; that window is the
//! reaper's reaction time to EOF. While the reaper runs, shells are spawned without
//! the parent-death signal ([`running`]): setting it needs a `pre_exec`, which makes
//! std `fork` the whole (large) server instead of `posix_spawn`ing. The cost is a
//! second window: a shell spawned but not yet announced when hookhost is killed
//! survives it (the announcement follows the spawn within microseconds).

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::{ChildStdin, Command, Stdio};
use std::sync::{Mutex, OnceLock};

static PIPE: OnceLock<Mutex<Option<ChildStdin>>> = OnceLock::new();

const SCRIPT: &str = r#"trap '' INT TERM HUP
live=' '
while read -r op pg; do
  case $op in
    +) live="$live$pg " ;;
    -) case $live in *" $pg "*) live="${live%% $pg *} ${live#* $pg }" ;; esac ;;
  esac
done
for pg in $live; do kill -KILL "-$pg" 2>/dev/null; done
"#;

/// Starts the reaper for this process (once; later calls do nothing).
pub fn start() -> std::io::Result<()> {
    if PIPE.get().is_some() {
        return Ok(());
    }
    let mut child = Command::new("/bin/sh")
        .arg("-c")
        .arg(SCRIPT)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()?;
    let pipe = child.stdin.take();
    // The reaper must outlive us; it is reaped by init after we are gone.
    drop(child);
    let _ = PIPE.set(Mutex::new(pipe));
    Ok(())
}

/// Whether a reaper is running for this process. While one is, a hook's shell
/// needs no parent-death signal of its own (the reaper kills its whole group), and
/// without that `pre_exec` std spawns by `posix_spawn` (vfork) instead of `fork` —
/// 1.5–1.9 ms less per command hook in a `serve` process with plugins loaded
/// (docs/PERFORMANCE.md). Turns false if the reaper was found gone (which is said
/// on stderr once).
pub(crate) fn running() -> bool {
    pipe().is_some_and(|guard| guard.is_some())
}

/// The pipe to the reaper, locked; `None` if no reaper was started. A poisoned lock
/// is taken over: the pipe holds no invariant a panic could break.
fn pipe() -> Option<std::sync::MutexGuard<'static, Option<ChildStdin>>> {
    PIPE.get().map(|pipe| match pipe.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    })
}

/// Announces a hook's process group.
pub(crate) fn watch(pgid: i32) {
    send(b'+', pgid);
}

/// Withdraws a hook's process group (before its leader is reaped).
pub(crate) fn unwatch(pgid: i32) {
    send(b'-', pgid);
}

fn send(op: u8, pgid: i32) {
    let Some(mut guard) = pipe() else {
        return;
    };
    if let Some(stdin) = guard.as_mut() {
        let mut line = Vec::with_capacity(16);
        line.push(op);
        line.push(b' ');
        line.extend_from_slice(pgid.to_string().as_bytes());
        line.push(b'\n');
        if let Err(e) = stdin.write_all(&line) {
            // The reaper is gone: from now on `running` is false, so later shells
            // get the parent-death signal again; hooks already running lost their
            // protection. Said once, on stderr whatever the log level: whoever
            // started the reaper relies on it, and a guarantee that silently lapsed
            // is the one thing a host must not leave unsaid.
            *guard = None;
            eprintln!(
                "hookhost: the reaper is gone ({e}): hook processes running now \
                 will outlive this process if it is killed; later hooks still die with it"
            );
        }
    }
}
