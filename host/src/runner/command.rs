//! Command hooks: a shell command in its own process group (seeds/001 §4, §7.6, §7.7).
//!
//! The command runs under `/bin/sh -c` with cwd = the project dir and the parent's
//! environment plus the three project-dir variables. Its input is written once and
//! stdin is closed; stdout and stderr are read concurrently with [`capture`], so no
//! pipe fills up while another is waited on.
//!
//! On timeout the whole process group gets SIGTERM and, if anything in it is still
//! alive (or still holds the pipes) [`KILL_GRACE`] later, SIGKILL. When the hook
//! exits on its own but something it started keeps the pipes open, hookhost waits
//! only [`DRAIN_GRACE`] for the rest of the output and then kills the group: whatever
//! still writes to the hook's stdout is part of the hook. A process that detached
//! its stdio (a real daemon) is left alone. Dropping the future (a cancelled fire)
//! kills the group too, so no hook outlives the host's interest in it.

use std::os::unix::process::ExitStatusExt;
use std::pin::pin;
use std::process::Stdio;
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, kill_process_group};
use tokio::io::AsyncWriteExt;
use tokio::process::{Child, Command};
use tokio::time::sleep_until;

use super::capture::{Captured, capture};
use super::failure::HookFailure;
use super::{RawOutcome, RunContext, Status};

/// Set in every command hook's environment to the process id of the hookhost that
/// runs it, so that `hookhost hook` run *as* a hook of hookhost notices and does not
/// recurse. Only a value naming the caller's parent (or, through `sh -c`, its
/// grandparent) counts: the variable is inherited by anything a hook starts, and an
/// agent started from a hook must not run with hookhost silently off.
pub const NESTED_ENV: &str = "HOOKHOST_ACTIVE";

/// The errno values that mean "the host is out of resources" (Linux).
mod libc_errno {
    pub const EAGAIN: i32 = rustix::io::Errno::AGAIN.raw_os_error();
    pub const ENOMEM: i32 = rustix::io::Errno::NOMEM.raw_os_error();
    pub const EMFILE: i32 = rustix::io::Errno::MFILE.raw_os_error();
    pub const ENFILE: i32 = rustix::io::Errno::NFILE.raw_os_error();
}

/// Time between SIGTERM and SIGKILL on timeout (seeds/001 §7.7).
pub const KILL_GRACE: Duration = Duration::from_secs(5);
/// How long output is still read after the hook exited while something else holds
/// its pipes.
pub const DRAIN_GRACE: Duration = Duration::from_millis(200);

/// Runs `command` with `input` on stdin.
pub async fn run_command(
    command: &str,
    timeout: Duration,
    input: &[u8],
    ctx: &RunContext,
) -> RawOutcome {
    let start = Instant::now();
    let mut cmd = Command::new("/bin/sh");
    cmd.arg("-c")
        .arg(command)
        .current_dir(&ctx.project_dir)
        .envs(ctx.project_env.iter().map(|(k, v)| (k, v)))
        .env(NESTED_ENV, std::process::id().to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    let mut child = match cmd.spawn() {
        Ok(child) => child,
        Err(e) => {
            let exhausted = matches!(
                e.raw_os_error(),
                Some(code) if [libc_errno::EMFILE, libc_errno::ENFILE, libc_errno::EAGAIN, libc_errno::ENOMEM]
                    .contains(&code)
            );
            let failure = if exhausted {
                HookFailure::HostResources(e.to_string())
            } else {
                HookFailure::Spawn(format!("{e} (cwd {})", ctx.project_dir.display()))
            };
            let mut raw = RawOutcome::failed(failure);
            raw.duration = start.elapsed();
            return raw;
        }
    };
    let mut group = GroupGuard::new(&child);
    let (stdin, stdout, stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
    let mut out = Captured::default();
    let mut err = Captured::default();
    let status = {
        let feed = async {
            if let Some(mut stdin) = stdin {
                // A hook may exit without reading stdin: EPIPE is expected, not an error.
                let _ = stdin.write_all(input).await;
            }
        };
        let read_out = async {
            if let Some(stdout) = stdout {
                capture(stdout, ctx.output_cap, &mut out).await;
            }
        };
        let read_err = async {
            if let Some(stderr) = stderr {
                capture(stderr, ctx.output_cap, &mut err).await;
            }
        };
        let mut io = pin!(async { tokio::join!(feed, read_out, read_err) });
        wait(&mut child, &mut io, &mut group, start + timeout, timeout).await
    };
    if matches!(status, Status::Exited(_)) {
        group.disarm();
    }
    RawOutcome {
        status,
        stdout: out,
        stderr: err,
        duration: start.elapsed(),
        fuel_used: None,
    }
}

/// Waits for the child while pumping its I/O; enforces the timeout.
async fn wait<F: Future<Output = ((), (), ())>>(
    child: &mut Child,
    io: &mut std::pin::Pin<&mut F>,
    group: &mut GroupGuard,
    deadline: Instant,
    timeout: Duration,
) -> Status {
    let mut io_done = false;
    let exited = loop {
        tokio::select! {
            status = child.wait() => break Some(status),
            _ = sleep_until(deadline.into()) => break None,
            _ = io.as_mut(), if !io_done => io_done = true,
        }
    };
    match exited {
        Some(Ok(status)) => {
            if !io_done
                && tokio::time::timeout(DRAIN_GRACE, io.as_mut())
                    .await
                    .is_err()
            {
                // Something the hook started still holds its pipes.
                group.kill(Signal::KILL);
            }
            match (status.code(), status.signal()) {
                (Some(code), _) => Status::Exited(code),
                (None, Some(signal)) => Status::Failed(HookFailure::Signal(signal)),
                (None, None) => Status::Failed(HookFailure::Spawn("no exit status".into())),
            }
        }
        Some(Err(e)) => {
            group.kill(Signal::KILL);
            Status::Failed(HookFailure::Spawn(format!("waiting for the process: {e}")))
        }
        None => {
            terminate(child, io, io_done, group).await;
            Status::Failed(HookFailure::Timeout(timeout))
        }
    }
}

/// SIGTERM to the group; SIGKILL after [`KILL_GRACE`] unless the child exited and the
/// pipes closed; then reap.
async fn terminate<F: Future<Output = ((), (), ())>>(
    child: &mut Child,
    io: &mut std::pin::Pin<&mut F>,
    mut io_done: bool,
    group: &mut GroupGuard,
) {
    group.kill(Signal::TERM);
    let grace_end = tokio::time::Instant::now() + KILL_GRACE;
    let mut child_done = false;
    while !(child_done && io_done) {
        tokio::select! {
            _ = child.wait(), if !child_done => child_done = true,
            _ = io.as_mut(), if !io_done => io_done = true,
            _ = sleep_until(grace_end) => break,
        }
    }
    group.kill(Signal::KILL);
    let _ = tokio::time::timeout(Duration::from_secs(1), child.wait()).await;
    if !io_done {
        let _ = tokio::time::timeout(DRAIN_GRACE, io.as_mut()).await;
    }
}

/// Kills the hook's process group when dropped, unless disarmed.
struct GroupGuard {
    pgid: Option<Pid>,
}

impl GroupGuard {
    fn new(child: &Child) -> GroupGuard {
        let pgid = child
            .id()
            .and_then(|id| i32::try_from(id).ok())
            .and_then(Pid::from_raw);
        GroupGuard { pgid }
    }

    fn kill(&self, signal: Signal) {
        if let Some(pgid) = self.pgid {
            // ESRCH (the group is gone) is the common, harmless case.
            let _ = kill_process_group(pgid, signal);
        }
    }

    fn disarm(&mut self) {
        self.pgid = None;
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        self.kill(Signal::KILL);
    }
}
