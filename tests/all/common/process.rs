//! Processes seen through `/proc`: alive or gone, found by command line, killed; this
//! process's resident memory; polling until a probe comes up empty; sampling a count
//! for its maximum.

use std::process::Command;
use std::time::{Duration, Instant};

use super::Project;

/// Whether a process is alive (a zombie counts as dead: it runs no more code).
pub fn process_alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => false,
        Ok(stat) => {
            let state = stat
                .rsplit(')')
                .next()
                .and_then(|rest| rest.split_whitespace().next());
            !matches!(state, Some("Z" | "X") | None)
        }
    }
}

/// Waits (bounded) until `pid` is gone; returns whether it is.
pub fn wait_gone(pid: i32, within: Duration) -> bool {
    let start = Instant::now();
    while process_alive(pid) {
        if start.elapsed() > within {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

/// Reads a pid a hook wrote into a file of the project.
pub fn read_pid(project: &Project, rel: &str) -> i32 {
    project
        .read(rel)
        .trim()
        .parse()
        .unwrap_or_else(|e| panic!("{rel} holds no pid: {e}"))
}

/// Sends SIGKILL to a process a test's hook started (cleanup only).
pub fn kill_pid(pid: i32) {
    let _ = Command::new("kill")
        .arg("-KILL")
        .arg(pid.to_string())
        .status();
}

pub fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS in /proc/self/status")
}

/// Processes whose command line contains `needle` (not counting this one).
pub fn processes_with(needle: &str) -> Vec<(i32, String)> {
    let me = std::process::id() as i32;
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().filter_map(Result::ok) {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(raw) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&raw).replace('\0', " ");
        if pid != me && cmdline.contains(needle) {
            found.push((pid, cmdline));
        }
    }
    found
}

/// Polls `condition` for up to `within`; returns its last value.
pub fn eventually<T: Default + PartialEq + std::fmt::Debug>(
    within: Duration,
    mut probe: impl FnMut() -> T,
) -> T {
    let start = Instant::now();
    loop {
        let value = probe();
        if value == T::default() || start.elapsed() > within {
            return value;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Calls `count` every `every` on a thread until stopped; yields the largest count
/// seen (e.g. processes running at once).
pub struct MaxSampler {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    handle: std::thread::JoinHandle<usize>,
}

impl MaxSampler {
    /// Starts sampling.
    pub fn start(every: Duration, count: impl Fn() -> usize + Send + 'static) -> MaxSampler {
        use std::sync::atomic::{AtomicBool, Ordering};
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let flag = std::sync::Arc::clone(&stop);
        let handle = std::thread::spawn(move || {
            let mut max = 0;
            while !flag.load(Ordering::Relaxed) {
                max = max.max(count());
                std::thread::sleep(every);
            }
            max
        });
        MaxSampler { stop, handle }
    }

    /// Stops sampling; the maximum.
    pub fn max(self) -> usize {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        self.handle.join().expect("sampler thread")
    }
}
