//! Nothing is left behind when hookhost dies: `kill -9` of `serve` or of `fire` takes
//! the hooks' processes with it, and a lost reaper is reported once while serving
//! goes on.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{Project, Server, cmd, exit_within, group, process_alive};

/// The process groups (by pgid) that have a live member.
fn live_groups(pgids: &[i32]) -> Vec<(i32, i32)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // Fields after the command name: state ppid pgrp …
        let rest: Vec<&str> = stat
            .rsplit(')')
            .next()
            .unwrap()
            .split_whitespace()
            .collect();
        if let Some(pgrp) = rest.get(2).and_then(|g| g.parse::<i32>().ok())
            && pgids.contains(&pgrp)
            && process_alive(pid)
        {
            found.push((pid, pgrp));
        }
    }
    found
}

fn wait_for_files(dir: &Path, n: usize, within: Duration) -> Vec<i32> {
    let start = Instant::now();
    loop {
        let pids: Vec<i32> = std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .flatten()
                    .filter_map(|e| e.file_name().to_string_lossy().parse().ok())
                    .collect()
            })
            .unwrap_or_default();
        if pids.len() >= n {
            return pids;
        }
        assert!(
            start.elapsed() < within,
            "only {} of {n} hooks started",
            pids.len()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Issue 14, seen 3: `kill -9` of `hookhost serve` while 8 `sleep 30` hooks ran left
/// all 8 behind. Now the shells die with the server (parent-death signal) and what
/// they started (here the `sleep`, a grandchild) is killed with their group.
#[test]
fn kill_9_of_the_server_leaves_no_hook_process() {
    let p = Project::new();
    std::fs::create_dir_all(p.path("pids")).unwrap();
    let hook = p.script(
        "linger.sh",
        &format!(
            "pgid=$(cut -d' ' -f5 /proc/$$/stat)\n: > '{}/pids/'$pgid\nsleep 30\necho never",
            p.dir().display()
        ),
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let mut server = Server::start_with(&p, &["--max-processes", "8"], &[]);
    for i in 0..8 {
        server.send(&format!("k{i}"), "BeforeTool", json!({"tool_name": "t"}));
    }
    let pgids = wait_for_files(&p.path("pids"), 8, Duration::from_secs(30));
    // Per hook: the shell, the script if the shell did not exec it, and the sleep.
    assert!(live_groups(&pgids).len() >= 16, "{:?}", live_groups(&pgids));
    server.child.kill().unwrap();
    let _ = server.child.wait();
    let start = Instant::now();
    let mut left = live_groups(&pgids);
    while !left.is_empty() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
        left = live_groups(&pgids);
    }
    for (pid, _) in &left {
        crate::common::kill_pid(*pid);
    }
    assert!(
        left.is_empty(),
        "hook processes survived kill -9 of the server: {left:?}"
    );
}

/// Without a reaper (`hookhost fire`) a hook's shell still dies with hookhost, even by
/// `kill -9`: it carries the parent-death signal. (`serve` leaves that signal out
/// while its reaper runs, to spawn without `fork`; the test above covers that path.)
#[test]
fn kill_9_of_a_fire_leaves_no_hook_shell() {
    let p = Project::new();
    std::fs::create_dir_all(p.path("pids")).unwrap();
    // `sleep` runs as the shell's child (not exec'd), so the shell itself stays.
    let hook = format!(": > '{}/pids/'$$; sleep 30; echo never", p.dir().display());
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let mut fire = p.command();
    fire.args(["fire", "BeforeTool", "--project-dir"])
        .arg(p.dir())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut child = fire.spawn().unwrap();
    let _ = child
        .stdin
        .take()
        .unwrap()
        .write_all(br#"{"tool_name":"t"}"#);
    let shells = wait_for_files(&p.path("pids"), 1, Duration::from_secs(30));
    assert!(process_alive(shells[0]), "the hook's shell is not running");
    child.kill().unwrap();
    let _ = child.wait();
    let gone = crate::common::wait_gone(shells[0], Duration::from_secs(10));
    // The shell's `sleep` is orphaned either way (the signal is not inherited and no
    // reaper runs): end the hook's group, whose id is the shell's pid.
    let _ = std::process::Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", shells[0])])
        .status();
    assert!(gone, "the hook's shell survived kill -9 of hookhost fire");
}

/// The serve process's reaper, found by its script among the server's children.
fn reaper_of(server: u32) -> Option<i32> {
    std::fs::read_dir("/proc")
        .ok()?
        .flatten()
        .find_map(|entry| {
            let pid: i32 = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            let ppid: u32 = stat
                .rsplit(')')
                .next()?
                .split_whitespace()
                .nth(1)?
                .parse()
                .ok()?;
            let cmdline = std::fs::read(entry.path().join("cmdline")).ok()?;
            let script = String::from_utf8_lossy(&cmdline).contains("trap '' INT TERM HUP");
            (ppid == server && script).then_some(pid)
        })
}

/// A reaper that dies (killed, OOM) takes the server's promise that hooks die with
/// it: the server says so on stderr, once, and goes on answering.
#[test]
fn a_lost_reaper_is_reported_and_serving_goes_on() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![cmd("echo '{\"systemMessage\": \"ran\"}'")])]}));
    let mut serve = p.command();
    serve
        .args(["serve", "--project-dir"])
        .arg(p.dir())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = serve.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |stdin: &mut std::process::ChildStdin, id: &str| {
        writeln!(
            stdin,
            r#"{{"correlationId": "{id}", "eventName": "BeforeTool", "input": {{"tool_name": "t"}}}}"#
        )
        .unwrap();
        stdin.flush().unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        serde_json::from_str::<Value>(&line).unwrap()
    };
    assert_eq!(
        ask(&mut stdin, "before")["output"]["finalOutput"]["systemMessage"],
        "ran"
    );
    let reaper = reaper_of(child.id()).expect("serve runs a reaper");
    crate::common::kill_pid(reaper);
    assert!(crate::common::wait_gone(reaper, Duration::from_secs(5)));
    for id in ["after", "again"] {
        let answer = ask(&mut stdin, id);
        assert_eq!(
            answer["output"]["finalOutput"]["systemMessage"], "ran",
            "{answer}"
        );
    }
    drop(stdin);
    let status = exit_within(&mut child, Instant::now(), Duration::from_secs(10));
    assert_eq!(status.and_then(|s| s.code()), Some(0));
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(
        stderr.matches("the reaper is gone").count(),
        1,
        "stderr: {stderr}"
    );
}
