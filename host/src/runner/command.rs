//! Command hooks: a shell command in its own process group (seeds/001 §4, §7.6, §7.7).
//!
//! The command runs under `/bin/sh -c` (or its `shell`, or as a program with
//! `args`: [`super::command_line`]) with cwd = the project dir and the environment
//! [`super::hook_env`] makes: the parent's (under `tools.scrubHookEnv` a minimal
//! part of it; never `HOOKHOST_TOKEN`) plus the three project-dir variables (passed
//! as raw bytes, so a non-UTF-8 project path arrives intact). Its input is written
//! once and stdin is closed; stdout and stderr are read concurrently with
//! [`capture`], so no pipe fills up while another is waited on.
//!
//! Before it spawns, a hook waits for one of the process-wide slots
//! ([`super::slots`]); its `timeout` starts only when it has one.
//!
//! On timeout the whole process group gets SIGTERM and, if anything in it is still
//! alive (or still holds the pipes) [`KILL_GRACE`] later, SIGKILL. When the hook
//! exits on its own but something it started keeps the pipes open, hookhost waits
//! only [`DRAIN_GRACE`] for the rest of the output and then kills the group: whatever
//! still writes to the hook's stdout is part of the hook. A process that detached
//! its stdio (a real daemon) is left alone. Dropping the future (a cancelled fire)
//! kills the group too, so no hook outlives the host's interest in it.
//!
//! **The group is signalled only while its id is known to be ours.** The shell's
//! exit is observed through a pidfd (or `waitid(WNOWAIT)`) *without reaping it*:
//! while the shell is an unreaped zombie its pid — which is the group's id — cannot
//! be reused, so `kill(-pgid)` cannot reach another hook's (or anyone's) group. Only
//! after the last signal is the shell reaped, and the guard disarmed.
//!
//! **Parent death.** Under `hookhost serve` the [`super::reaper`] kills a hook's
//! whole group when hookhost dies, even by `kill -9`. Without a reaper (`hookhost
//! fire`, a library embedder) the shell gets `PR_SET_PDEATHSIG(SIGKILL)`, so it dies
//! when hookhost dies. Setting that signal takes a `pre_exec`, which makes std spawn
//! by `fork` instead of `posix_spawn` (vfork): in a `serve` process with plugins
//! loaded that costs 1.5–1.9 ms per hook, so it is left out while a reaper runs.
//! Linux sends the signal when the *thread* that forked exits, not the process:
//! hooks are spawned from runtime worker threads, which live as long as the
//! runtime, and a fire on a short-lived thread (`fire_blocking`) waits for its hooks
//! before that thread can end. The signal is not inherited across `fork`, so what
//! the shell starts is covered only by the group kill above (while hookhost lives)
//! or by the reaper.

use std::os::unix::process::ExitStatusExt;
use std::pin::pin;
use std::process::Stdio;
use std::time::{Duration, Instant};

use rustix::process::{Pid, PidfdFlags, Signal, WaitId, WaitIdOptions, kill_process_group};
use tokio::io::unix::AsyncFd;
use tokio::io::{AsyncWriteExt, Interest};
use tokio::process::{Child, Command};
use tokio::time::sleep_until;

use super::capture::{Captured, capture};
use super::command_line::CommandLine;
use super::failure::HookFailure;
use super::hook_env::command_env;
use super::slots::acquire_process_slot;
use super::{RawOutcome, RunContext, Status};
pub use crate::env_names::{NESTED_ENV, TOKEN_ENV};

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
/// How often the exit is polled where pidfds are unavailable (Linux < 5.3).
const EXIT_POLL: Duration = Duration::from_millis(5);

/// Runs the command `line` with `input` on stdin.
pub async fn run_command(
    line: &CommandLine,
    timeout: Duration,
    input: &[u8],
    ctx: &RunContext,
) -> RawOutcome {
    let (_slot, queued) = acquire_process_slot().await;
    let start = Instant::now();
    let mut raw = spawn_and_wait(line, timeout, input, ctx, start).await;
    raw.duration = start.elapsed();
    raw.queued = queued;
    raw
}

async fn spawn_and_wait(
    line: &CommandLine,
    timeout: Duration,
    input: &[u8],
    ctx: &RunContext,
    start: Instant,
) -> RawOutcome {
    let env = match command_env(line, ctx) {
        Ok(env) => env,
        Err(e) => return RawOutcome::failed(HookFailure::Spawn(e.to_string())),
    };
    let mut cmd = Command::new(&line.program);
    // The whole environment is given, so that what the hook inherits is decided
    // in one place (`hook_env`): scrubbed or not, never the server's token.
    cmd.args(&line.args)
        .current_dir(&ctx.project_dir)
        .env_clear()
        .envs(env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    if !super::reaper::running() {
        die_with_parent(&mut cmd);
    }
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
            return RawOutcome::failed(failure);
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
        // A timeout too large to add to now (a Claude `timeout` of 2^63 s) never fires.
        let deadline = start.checked_add(timeout);
        wait(&mut child, &mut io, &mut group, deadline, timeout).await
    };
    RawOutcome {
        status,
        stdout: out,
        stderr: err,
        duration: Duration::ZERO,
        queued: Duration::ZERO,
        fuel_used: None,
        logs: Default::default(),
    }
}

/// Asks the kernel to SIGKILL the shell when hookhost dies (see the module docs for
/// the thread pitfall).
fn die_with_parent(cmd: &mut Command) {
    let parent = rustix::process::getpid();
    #[allow(unsafe_code)]
    // SAFETY: the closure runs between fork and exec; it only makes two system calls
    // (prctl, getppid), which are async-signal-safe, and allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
            // The parent may have died before the prctl: then nobody would send it.
            if rustix::process::getppid() != Some(parent) {
                return Err(std::io::Error::other("hookhost exited"));
            }
            Ok(())
        });
    }
}

/// Waits for the child while pumping its I/O; enforces the timeout. Returns with
/// the child reaped and the group guard disarmed, unless waiting failed.
async fn wait<F: Future<Output = ((), (), ())>>(
    child: &mut Child,
    io: &mut std::pin::Pin<&mut F>,
    group: &mut GroupGuard,
    deadline: Option<Instant>,
    timeout: Duration,
) -> Status {
    let mut io_done = false;
    let exited = {
        let mut exit = pin!(exited(child));
        let mut expired = pin!(sleep_until_opt(deadline));
        loop {
            tokio::select! {
                () = &mut exit => break true,
                () = &mut expired => break false,
                _ = io.as_mut(), if !io_done => io_done = true,
            }
        }
    };
    if exited {
        if !io_done
            && tokio::time::timeout(DRAIN_GRACE, io.as_mut())
                .await
                .is_err()
        {
            // Something the hook started still holds its pipes. The shell is not
            // reaped yet, so the group id is still ours.
            group.kill(Signal::KILL);
        }
        match reap(child, group).await {
            Ok(status) => match (status.code(), status.signal()) {
                (Some(code), _) => Status::Exited(code),
                (None, Some(signal)) => Status::Failed(HookFailure::Signal(signal)),
                (None, None) => Status::Failed(HookFailure::Spawn("no exit status".into())),
            },
            Err(e) => {
                group.kill(Signal::KILL);
                Status::Failed(HookFailure::Spawn(format!("waiting for the process: {e}")))
            }
        }
    } else {
        terminate(child, io, io_done, group).await;
        Status::Failed(HookFailure::Timeout(timeout))
    }
}

async fn sleep_until_opt(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => sleep_until(deadline.into()).await,
        None => std::future::pending().await,
    }
}

/// Resolves when the child has exited, without reaping it.
async fn exited(child: &Child) {
    let Some(pid) = child
        .id()
        .and_then(|id| i32::try_from(id).ok())
        .and_then(Pid::from_raw)
    else {
        // Already reaped by tokio: nothing to wait for.
        return;
    };
    #[allow(unsafe_code)]
    // SAFETY: an `OwnedFd` is a valid open descriptor, always returns the same raw
    // fd, and stays open until the `AsyncFd` that owns it is dropped.
    let registered = |pidfd| unsafe { AsyncFd::register_with_interest(pidfd, Interest::READABLE) };
    if let Ok(pidfd) = rustix::process::pidfd_open(pid, PidfdFlags::NONBLOCK)
        && let Ok(pidfd) = registered(pidfd)
    {
        // A pidfd polls readable once the process has terminated.
        if pidfd.readable().await.is_ok() {
            return;
        }
    }
    loop {
        let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
        match rustix::process::waitid(WaitId::Pid(pid), options) {
            Ok(Some(_)) | Err(_) => return,
            Ok(None) => tokio::time::sleep(EXIT_POLL).await,
        }
    }
}

/// Reaps the exited child; from then on its group id may be reused, so the guard
/// is disarmed.
async fn reap(
    child: &mut Child,
    group: &mut GroupGuard,
) -> std::io::Result<std::process::ExitStatus> {
    // Withdrawn from the reaper while the id is still ours.
    group.unwatch();
    let status = child.wait().await;
    if status.is_ok() {
        group.disarm();
    }
    status
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
    {
        let mut exit = pin!(exited(child));
        while !(child_done && io_done) {
            tokio::select! {
                () = &mut exit, if !child_done => child_done = true,
                _ = io.as_mut(), if !io_done => io_done = true,
                _ = sleep_until(grace_end) => break,
            }
        }
    }
    // Still unreaped: the group id is ours.
    group.kill(Signal::KILL);
    let _ = tokio::time::timeout(Duration::from_secs(1), reap(child, group)).await;
    if !io_done {
        let _ = tokio::time::timeout(DRAIN_GRACE, io.as_mut()).await;
    }
}

/// Kills the hook's process group when dropped, unless disarmed. Armed exactly while
/// the group leader (the shell) is unreaped, so the id cannot name another group.
/// Also announces the group to the [`super::reaper`] while it may be alive.
struct GroupGuard {
    pgid: Option<Pid>,
    watched: bool,
}

impl GroupGuard {
    fn new(child: &Child) -> GroupGuard {
        let pgid = child
            .id()
            .and_then(|id| i32::try_from(id).ok())
            .and_then(Pid::from_raw);
        if let Some(pgid) = pgid {
            super::reaper::watch(pgid.as_raw_nonzero().get());
        }
        GroupGuard {
            pgid,
            watched: pgid.is_some(),
        }
    }

    fn unwatch(&mut self) {
        if let Some(pgid) = self.pgid
            && std::mem::take(&mut self.watched)
        {
            super::reaper::unwatch(pgid.as_raw_nonzero().get());
        }
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
        self.unwatch();
    }
}
