//! Reliability of `hookhost serve` under load and misbehaving clients (issue 14):
//! bounded processes and requests in flight, queue time outside the timeout, every
//! request answered exactly once, nothing left behind after `kill -9`, the Unix
//! socket (private, per-client, fair, draining on SIGTERM), and the command
//! runner's edges (huge timeouts, non-UTF-8 project dirs).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hookhost_tests as guests;
use serde_json::{Value, json};

use crate::common::{MaxSampler, Project, cmd, cmd_timeout, exit_within, group, process_alive};
use crate::serve::Server;

fn cache_dir() -> String {
    format!("{}/plugin-cache", env!("CARGO_TARGET_TMPDIR"))
}

/// A command hook that marks itself running in `running/` while it sleeps, so a
/// sampler can count how many run at once.
fn counting_hook(p: &Project, seconds: &str) -> String {
    std::fs::create_dir_all(p.path("running")).unwrap();
    p.script(
        "count.sh",
        &format!(
            "d='{}/running'\n: > \"$d/$$\"\nsleep {seconds}\nrm -f \"$d/$$\"\necho counted",
            p.dir().display()
        ),
    )
}

/// Samples the number of entries of a directory until stopped.
fn sample_entries(dir: PathBuf) -> MaxSampler {
    MaxSampler::start(Duration::from_millis(2), move || {
        std::fs::read_dir(&dir).map_or(0, Iterator::count)
    })
}

/// Sends `n` requests at once, then reads `n` answers; checks each id is answered
/// exactly once and returns the answers by id.
fn burst(server: &mut Server, n: usize, input: &Value) -> HashMap<String, Value> {
    let mut lines = String::new();
    for i in 0..n {
        let request =
            json!({"correlationId": format!("r{i}"), "eventName": "BeforeTool", "input": input});
        lines.push_str(&request.to_string());
        lines.push('\n');
    }
    server.send_line(lines.trim_end());
    let mut answers = HashMap::new();
    for _ in 0..n {
        let answer = server.next();
        let id = answer["correlationId"].as_str().unwrap().to_owned();
        assert!(
            answers.insert(id.clone(), answer).is_none(),
            "{id} answered twice"
        );
    }
    answers
}

/// Issue 14, seen 1: 2,000 lines at once with a `sleep 2` hook ran 1,331 `sleep`s at
/// the same moment. Now the hook processes of all requests share one cap, and a
/// stream's requests in flight are capped too (reading pauses).
#[test]
fn a_burst_never_runs_more_hook_processes_than_the_cap() {
    let p = Project::new();
    let hook = counting_hook(&p, "0.2");
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));

    let mut server = Server::start_with(&p, &["--max-processes", "3"], &[]);
    let sampler = sample_entries(p.path("running"));
    let answers = burst(&mut server, 60, &json!({"tool_name": "t"}));
    let max = sampler.max();
    assert!(max <= 3, "{max} hook processes ran at once; the cap is 3");
    assert!(
        max >= 2,
        "the hooks did not run concurrently at all ({max})"
    );
    let mut queued = 0;
    for answer in answers.values() {
        assert_eq!(answer["success"], true, "{answer}");
        assert_eq!(answer["output"]["finalOutput"]["systemMessage"], "counted");
        let hook = &answer["output"]["hooks"][0];
        // The time spent waiting is reported apart from the run.
        if hook["queuedMs"].as_f64().is_some_and(|ms| ms > 50.0) {
            queued += 1;
            assert!(hook["duration"].as_f64().unwrap() < 2_000.0, "{hook}");
        }
    }
    assert!(queued > 30, "only {queued} of 60 answers report queueing");
    assert_eq!(server.finish().0, 0);

    // --max-in-flight bounds the requests of the stream being fired at once.
    let mut server = Server::start_with(&p, &["--max-in-flight", "2", "--max-processes", "8"], &[]);
    let sampler = sample_entries(p.path("running"));
    let answers = burst(&mut server, 12, &json!({"tool_name": "t"}));
    let max = sampler.max();
    assert!(max <= 2, "{max} requests in flight; --max-in-flight is 2");
    assert_eq!(answers.len(), 12);
    assert_eq!(server.finish().0, 0);
}

/// Issue 14, seen 2: 400 requests at once for a 40 ms guard plugin with `timeout:
/// 400` — 112 timed out waiting for a pool slot, and a timeout fails open. Now the
/// wait comes before the timeout starts: every request is blocked by the guard.
#[test]
fn queued_guard_plugins_do_not_time_out() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![json!({
        "type": "plugin", "path": guests::ADVERSARY, "args": ["nap"], "timeout": 400
    })])]}));
    let cache = cache_dir();
    // All 400 in flight at once (past the default cap of 64, which alone would keep
    // the queue short): the 32 pool slots are the only bound.
    let mut server = Server::start_with(
        &p,
        &["--max-in-flight", "1000"],
        &[("HOOKHOST_CACHE_DIR", &cache)],
    );
    let answers = burst(
        &mut server,
        400,
        &json!({"tool_name": "t", "tool_input": {"ms": "40"}}),
    );
    let mut queued = 0;
    for answer in answers.values() {
        let output = &answer["output"];
        assert_eq!(output["errors"], json!([]), "{answer}");
        assert_eq!(output["finalOutput"]["decision"], "block", "{answer}");
        assert_eq!(output["finalOutput"]["reason"], "adversary: nap");
        if output["hooks"][0]["queuedMs"].as_f64().is_some() {
            queued += 1;
        }
    }
    assert!(
        queued > 0,
        "no call waited for a pool slot: the test proves nothing"
    );
    assert_eq!(server.finish().0, 0);
}

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

/// A 64 MiB request line is answered LINE_TOO_LONG (not buffered for ever, not a
/// crash) and the next request is served.
#[test]
fn a_sixty_four_mib_line_is_refused_and_serving_goes_on() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![cmd("echo fine")])]}));
    let mut server = Server::start(&p);
    let huge = format!(
        "{{\"correlationId\":\"huge\",\"eventName\":\"BeforeTool\",\"input\":{{\"x\":\"{}\"}}}}",
        "x".repeat(64 * 1024 * 1024)
    );
    server.send_line(&huge);
    let refused = server.next();
    assert_eq!(refused["error"]["code"], "LINE_TOO_LONG", "{refused}");
    server.send("after", "BeforeTool", json!({"tool_name": "t"}));
    let answer = server.next();
    assert_eq!(answer["correlationId"], "after");
    assert_eq!(answer["output"]["finalOutput"]["systemMessage"], "fine");
    assert_eq!(server.finish().0, 0);
}

// ---------------------------------------------------------------------------------
// The Unix socket
// ---------------------------------------------------------------------------------

/// `hookhost serve --socket PATH`, stopped (SIGKILL) on drop.
struct SocketServer {
    child: std::process::Child,
    path: PathBuf,
}

impl SocketServer {
    fn start(p: &Project, args: &[&str], env: &[(&str, &str)]) -> SocketServer {
        let path = p.outside().join("hookhost.sock");
        let mut command = p.command();
        command
            .arg("serve")
            .arg("--project-dir")
            .arg(p.dir())
            .arg("--socket")
            .arg(&path)
            .args(args)
            .envs(env.iter().copied())
            .stdin(std::process::Stdio::null());
        let child = command.spawn().unwrap();
        let start = Instant::now();
        while UnixStream::connect(&path).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "the socket never appeared"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        SocketServer { child, path }
    }

    fn connect(&self) -> Client {
        Client::new(UnixStream::connect(&self.path).unwrap())
    }

    fn terminate(&mut self) -> i32 {
        let pid = rustix::process::Pid::from_raw(self.child.id() as i32).unwrap();
        rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
        let status = exit_within(&mut self.child, Instant::now(), Duration::from_secs(30))
            .expect("no exit after SIGTERM");
        status.code().unwrap_or(-1)
    }
}

impl Drop for SocketServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One socket client: writes requests, reads answers with a bound.
struct Client {
    stream: UnixStream,
    reader: BufReader<UnixStream>,
}

impl Client {
    fn new(stream: UnixStream) -> Client {
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        let reader = BufReader::new(stream.try_clone().unwrap());
        Client { stream, reader }
    }

    fn send(&mut self, id: &str, input: &Value) {
        let request = json!({"correlationId": id, "eventName": "BeforeTool", "input": input});
        writeln!(self.stream, "{request}").unwrap();
    }

    fn next(&mut self) -> Value {
        let mut line = String::new();
        let n = self.reader.read_line(&mut line).expect("an answer in time");
        assert!(n > 0, "the server closed the connection");
        serde_json::from_str(&line).unwrap()
    }
}

fn fast_and_slow(p: &Project) {
    p.settings(json!({"BeforeTool": [
        {"matcher": "fast", "hooks": [cmd("echo fast")]},
        {"matcher": "slow", "hooks": [cmd("sleep 1; echo slow")]},
    ]}));
}

/// The socket is 0600; each client gets its own answers; a stranger (another uid)
/// is refused by its peer credentials even when the mode lets it connect.
#[test]
fn the_socket_is_private_and_answers_each_client() {
    let p = Project::new();
    fast_and_slow(&p);
    let server = SocketServer::start(&p, &[], &[]);
    let mode = std::fs::metadata(&server.path)
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "socket mode {mode:o}");
    let mut a = server.connect();
    let mut b = server.connect();
    a.send("a1", &json!({"tool_name": "slow"}));
    b.send("b1", &json!({"tool_name": "fast"}));
    let answer = b.next();
    assert_eq!(answer["correlationId"], "b1");
    assert_eq!(answer["output"]["finalOutput"]["systemMessage"], "fast");
    let answer = a.next();
    assert_eq!(answer["correlationId"], "a1");
    assert_eq!(answer["output"]["finalOutput"]["systemMessage"], "slow");

    if rustix::process::geteuid().is_root() && Path::new("/usr/bin/python3").exists() {
        // Loosen the mode so that only the peer check stands in the way.
        std::fs::set_permissions(&server.path, std::fs::Permissions::from_mode(0o666)).unwrap();
        let mut dir = server.path.parent().unwrap().to_path_buf();
        while dir != Path::new("/") {
            let mode = std::fs::metadata(&dir).unwrap().permissions().mode();
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(mode | 0o011)).unwrap();
            dir.pop();
        }
        let script = r#"
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
# The refusal comes unasked, and the server closes right after it.
print(s.makefile().readline().strip())
try:
    s.sendall(b'{"correlationId":"x","eventName":"BeforeTool","input":{"tool_name":"fast"}}\n')
except OSError:
    pass
"#;
        let out = std::os::unix::process::CommandExt::uid(
            std::process::Command::new("/usr/bin/python3")
                .arg("-c")
                .arg(script)
                .arg(&server.path),
            65534,
        )
        .output()
        .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let answer: Value = serde_json::from_str(text.trim())
            .unwrap_or_else(|e| panic!("{e}: {text} {}", String::from_utf8_lossy(&out.stderr)));
        assert_eq!(answer["error"]["code"], "FORBIDDEN", "{answer}");
        assert!(answer.get("output").is_none());
    } else {
        println!("peer-credential check skipped: needs root and /usr/bin/python3");
    }
}

/// A client that floods and never reads, one that vanishes mid-request and one that
/// is silent cannot stall another: it gets its answers promptly.
#[test]
fn bad_clients_do_not_stall_a_good_one() {
    let p = Project::new();
    fast_and_slow(&p);
    let server = SocketServer::start(&p, &["--max-in-flight", "4"], &[]);
    // Floods 2,000 requests (big ones, so the socket buffers fill) and never reads.
    let flooder = {
        let mut stream = UnixStream::connect(&server.path).unwrap();
        stream
            .set_write_timeout(Some(Duration::from_secs(2)))
            .unwrap();
        std::thread::spawn(move || {
            let padding = "p".repeat(16 * 1024);
            for i in 0..2_000 {
                let request = json!({"correlationId": format!("f{i}"), "eventName": "BeforeTool",
                    "input": {"tool_name": "fast", "padding": padding}});
                if writeln!(stream, "{request}").is_err() {
                    break;
                }
            }
            stream
        })
    };
    // Vanishes with a slow request in flight.
    {
        let mut gone = server.connect();
        gone.send("gone", &json!({"tool_name": "slow"}));
    }
    let _silent = server.connect();
    std::thread::sleep(Duration::from_millis(300));
    let mut good = server.connect();
    for i in 0..20 {
        let id = format!("g{i}");
        let start = Instant::now();
        good.send(&id, &json!({"tool_name": "fast"}));
        let answer = good.next();
        assert_eq!(answer["correlationId"], id.as_str());
        assert_eq!(answer["output"]["finalOutput"]["systemMessage"], "fast");
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{:?}",
            start.elapsed()
        );
    }
    let _flooder = flooder.join().unwrap();
}

/// SIGTERM: requests in flight finish and are answered, then the server exits 0 and
/// removes its socket.
#[test]
fn sigterm_drains_in_flight_requests() {
    let p = Project::new();
    fast_and_slow(&p);
    let mut server = SocketServer::start(&p, &[], &[]);
    let mut client = server.connect();
    client.send("slow-1", &json!({"tool_name": "slow"}));
    std::thread::sleep(Duration::from_millis(300));
    let waiter = std::thread::spawn(move || client.next());
    assert_eq!(server.terminate(), 0);
    let answer = waiter.join().unwrap();
    assert_eq!(answer["correlationId"], "slow-1");
    assert_eq!(answer["output"]["finalOutput"]["systemMessage"], "slow");
    assert!(!server.path.exists(), "the socket was not removed");
}

// ---------------------------------------------------------------------------------
// Command runner edges
// ---------------------------------------------------------------------------------

/// Issue 14, seen 6: a Claude-format timeout of 2^63 s panicked at `start +
/// timeout`. It is clamped (with a warning) and the hook runs.
#[test]
fn a_huge_claude_timeout_is_clamped_not_a_panic() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
            {"type": "command", "command": "echo '{\"systemMessage\":\"ran\"}'", "timeout": 9_223_372_036_854_775_808u64}
        ]}]}})
        .to_string(),
    );
    p.settings_raw(&json!({"tools": {"enableHooks": true}}));
    let fired = p.fire_flags(
        "BeforeTool",
        json!({"tool_name": "t"}),
        &["--claude-settings"],
    );
    assert_eq!(fired.code, 0, "{}", fired.stderr);
    assert_eq!(fired.final_output()["systemMessage"], "ran", "{fired:#?}");
    assert!(
        fired
            .stderr
            .contains("timeout: longer than the maximum of 24 hours; clamped to it"),
        "{}",
        fired.stderr
    );
}

/// Issue 14, seen 6: a non-UTF-8 project path reached hooks mangled (U+FFFD). The
/// variables and the working directory are the path's exact bytes.
#[test]
fn a_non_utf8_project_dir_reaches_command_hooks_intact() {
    use std::os::unix::ffi::OsStrExt;
    let p = Project::new();
    let dir = p
        .outside()
        .join(std::ffi::OsStr::from_bytes(b"proj-\xff\xfe"));
    std::fs::create_dir_all(dir.join(".llxprt")).unwrap();
    let out = p.outside().join("seen");
    let hook = format!(
        "printf '%s' \"$LLXPRT_PROJECT_DIR\" > '{0}.var'; pwd -P > '{0}.cwd'",
        out.display()
    );
    let settings = json!({"tools": {"enableHooks": true},
        "hooks": {"BeforeTool": [group(vec![cmd_timeout(&hook, 10_000)])]}});
    std::fs::write(dir.join(".llxprt/settings.json"), settings.to_string()).unwrap();
    let mut command = p.command();
    command
        .arg("fire")
        .arg("BeforeTool")
        .arg("--project-dir")
        .arg(&dir);
    let run = crate::common::run(command, br#"{"tool_name":"t"}"#);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let var = std::fs::read(out.with_extension("var")).unwrap();
    assert_eq!(var, dir.as_os_str().as_bytes(), "LLXPRT_PROJECT_DIR");
    let cwd = std::fs::read(out.with_extension("cwd")).unwrap();
    assert_eq!(&cwd[..cwd.len() - 1], dir.as_os_str().as_bytes(), "cwd");
}

// ---------------------------------------------------------------------------------
// Engine sizing
// ---------------------------------------------------------------------------------

/// `hookhost fire` of two plugin hooks (one asking for `big_limit` bytes) under
/// `ulimit -v` (KiB); returns stderr and the result.
fn fire_under_ulimit(p: &Project, vm_kib: u64, big_limit: u64) -> (String, Value) {
    p.settings(json!({"BeforeTool": [group(vec![
        json!({"type": "plugin", "path": guests::ECHO_POLICY}),
        json!({"type": "plugin", "path": guests::ECHO_POLICY, "memoryLimit": big_limit, "name": "big"}),
    ])]}));
    let mut command = p.command();
    command
        .env("HOOKHOST_CACHE_DIR", cache_dir())
        .env("HOOKHOST_LOG", "hookhost=debug")
        .arg("fire")
        .arg("BeforeTool")
        .arg("--project-dir")
        .arg(p.dir());
    let mut wrapped = std::process::Command::new("/bin/sh");
    wrapped
        .arg("-c")
        .arg(format!("ulimit -v {vm_kib} && exec \"$0\" \"$@\""))
        .arg(command.get_program())
        .args(command.get_args())
        .current_dir(p.outside());
    for (k, v) in command.get_envs() {
        match v {
            Some(v) => wrapped.env(k, v),
            None => wrapped.env_remove(k),
        };
    }
    let run = crate::common::run(
        wrapped,
        br#"{"tool_name":"write_file","tool_input":{"path":"/etc/passwd"}}"#,
    );
    let out = serde_json::from_slice(&run.stdout).unwrap_or_else(|e| {
        panic!("no JSON result ({e}): {}", run.stderr);
    });
    (run.stderr, out)
}

/// Issue 14, seen 5: the largest `memoryLimit` of any plugin sized every pool slot
/// (one 4 GiB plugin: 64 memories × 4 GiB of address space), and when the pooled
/// engine could not be built the error was dropped. Now a pool memory holds at
/// most 256 MiB — the big plugin runs on an on-demand engine —, its 4 GiB guarded
/// layout gives way to a checked one where the address space is short, and a
/// failed pool is a visible warning.
#[test]
fn one_big_plugin_does_not_size_the_pool_and_a_fallback_is_visible() {
    const GIB: u64 = 1024 * 1024 * 1024;
    let p = Project::new();
    let fallback = "the pooling allocator is unavailable";
    let checked = "no address space for guarded memories";
    // Unconstrained (well, 1 TiB), the pool's memories are guarded: 4 GiB each.
    let (stderr, out) = fire_under_ulimit(&p, 1024 * 1024 * 1024, 4 * GIB);
    assert!(
        !stderr.contains(fallback) && !stderr.contains(checked),
        "{stderr}"
    );
    assert_eq!(out["finalOutput"]["decision"], "block", "{out}");
    // 8 GiB of address space hold a pool of 256 MiB memories with bounds checks,
    // not the guarded one (2 slots × 2 memories × 4 GiB): a trace, no warning.
    let (stderr, out) = fire_under_ulimit(&p, 8 * 1024 * 1024, 4 * GIB);
    assert!(
        !stderr.contains(fallback) && stderr.contains(checked),
        "{stderr}"
    );
    assert_eq!(out["errors"], json!([]), "{out}");
    assert_eq!(out["hooks"].as_array().unwrap().len(), 2, "{out}");
    assert_eq!(out["finalOutput"]["decision"], "block", "{out}");
    // 1 GiB holds no pool at all (`fire` sizes it to its 2 plugin hooks, whose
    // memories alone reserve 2 × 2 × 256 MiB): on-demand, said out loud, and the
    // hooks still run.
    let (stderr, out) = fire_under_ulimit(&p, 1024 * 1024, 4 * GIB);
    assert!(stderr.contains(fallback), "{stderr}");
    assert_eq!(out["finalOutput"]["decision"], "block", "{out}");
}

/// `memoryLimit` above 4 GiB is clamped with a warning naming file, hook and field.
#[test]
fn a_memory_limit_above_four_gib_is_clamped_with_a_warning() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![
        json!({"type": "plugin", "path": guests::ECHO_POLICY, "memoryLimit": 1u64 << 40}),
    ])]}));
    let run = p.check(&[]);
    let stderr = format!("{}{}", run.stderr, run.stdout_text());
    assert!(
        stderr.contains(
            "hooks.BeforeTool[0].hooks[0].memoryLimit: 1099511627776 bytes is more than the maximum of 4294967296 (4 GiB); clamped to it"
        ),
        "{stderr}"
    );
}
