//! Whether `hookhost hook` runs as a hook of hookhost itself (`HOOKHOST_ACTIVE`
//! names its parent or, through `sh -c`, its grandparent): then it answers `{}` at
//! once instead of recursing. Any other value is ignored.

/// Names the npm launcher (`packaging/npm/hookhost.js`) that started this
/// process: its pid, set by the launcher for the binary it spawns.
pub const LAUNCHER_ENV: &str = "HOOKHOST_LAUNCHER";

/// Whether `value` is the pid of our parent or grandparent (a hook runs as
/// `sh -c COMMAND`; the shell may or may not exec the command). The npm launcher
/// is a step of its own (Node cannot exec): when [`LAUNCHER_ENV`] names our
/// parent, its parent counts as ours — else a hookhost installed from npm and
/// wired into an agent file it reads ran itself until the hook timed out.
pub fn runs_inside_hookhost(value: &str) -> bool {
    let Ok(pid) = value.trim().parse::<u32>() else {
        return false;
    };
    let Some(parent) = rustix::process::getppid() else {
        return false;
    };
    let mut parent = parent.as_raw_nonzero().get().unsigned_abs();
    let launcher = std::env::var(LAUNCHER_ENV)
        .ok()
        .and_then(|v| v.trim().parse::<u32>().ok());
    if launcher == Some(parent)
        && let Some(above) = parent_of(parent)
    {
        parent = above;
    }
    parent == pid || parent_of(parent) == Some(pid)
}

/// The parent pid of `pid`, from `/proc/PID/stat` (Linux).
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (comm) state ppid …`; comm may contain spaces and parentheses.
    let after_comm = &stat[stat.rfind(')')? + 1..];
    after_comm.split_whitespace().nth(1)?.parse().ok()
}
