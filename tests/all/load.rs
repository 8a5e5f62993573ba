//! Load through `hookhost serve` (issue 14): many requests pipelined on stdin and
//! from 16 socket clients at once, mixing guard plugins (some sleeping, so calls
//! queue for pool slots), fast command hooks and a few slow ones. Every request is
//! answered exactly once and correctly, the hook processes never exceed the cap,
//! no guard times out while queued, and the server's peak RSS is printed.
//!
//! `HOOKHOST_LOAD_REQUESTS` sets the total, half pipelined and half over the
//! socket. The default is 50,000 so that the test takes about half a minute of a
//! debug build on 2 cores; the 100,000 take about 70 s there (run with
//! `HOOKHOST_LOAD_REQUESTS=100000`; figures in docs/PERFORMANCE.md).

use std::collections::HashSet;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use hookhost_tests as guests;
use serde_json::{Value, json};

use crate::common::{MaxSampler, Project, cache_dir, cmd, process_alive};

/// The hook process cap of the server under test.
const CAP: usize = 4;
/// Sockets clients.
const CLIENTS: usize = 16;

fn total_requests() -> usize {
    std::env::var("HOOKHOST_LOAD_REQUESTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50_000)
}

/// Request `i`: its input and what its answer must say.
fn request(i: usize) -> (Value, Expect) {
    match i % 1000 {
        // 0.1 %: a slow command hook (100 ms).
        0 => (json!({"tool_name": "slow"}), Expect::Message("slow")),
        // 1 %: a fast command hook.
        1..=10 => (json!({"tool_name": "cmd"}), Expect::Message("cmd")),
        // 15 %: a guard that sleeps 5 ms, so calls queue for pool slots.
        11..=160 => (
            json!({"tool_name": "nap", "tool_input": {"ms": "5"}}),
            Expect::Block("adversary: nap"),
        ),
        // 40 %: the guard blocks.
        161..=560 => (
            json!({"tool_name": "write_file", "tool_input": {"path": "/etc/passwd"}}),
            Expect::Block("echo-policy: writing to /etc/passwd is prohibited"),
        ),
        // 44 %: the guard allows.
        _ => (
            json!({"tool_name": "write_file", "tool_input": {"path": "/tmp/x"}}),
            Expect::Allow,
        ),
    }
}

#[derive(Debug, Clone, Copy)]
enum Expect {
    Allow,
    Block(&'static str),
    Message(&'static str),
}

fn check(answer: &Value, expect: Expect) {
    let output = &answer["output"];
    assert_eq!(answer["success"], true, "{answer}");
    assert_eq!(output["errors"], json!([]), "{answer}");
    let fin = &output["finalOutput"];
    match expect {
        Expect::Allow => assert_eq!(fin, &json!({}), "{answer}"),
        Expect::Block(reason) => {
            assert_eq!(fin["decision"], "block", "{answer}");
            assert_eq!(fin["reason"], reason, "{answer}");
        }
        Expect::Message(text) => assert_eq!(fin["systemMessage"], text, "{answer}"),
    }
}

fn settings(p: &Project) {
    let nap = json!({"type": "plugin", "path": guests::ADVERSARY, "args": ["nap"], "timeout": 400});
    // The guard's budget is wall-clock time: on a loaded 2-core machine (parallel
    // builds) a 50-µs policy was seen descheduled for 565 ms, so its bound is wide.
    let guard = json!({"type": "plugin", "path": guests::ECHO_POLICY, "timeout": 3000});
    p.settings(json!({"BeforeTool": [
        {"matcher": "slow", "hooks": [cmd("sleep 0.1; echo slow")]},
        {"matcher": "cmd", "hooks": [cmd("echo cmd")]},
        {"matcher": "nap", "hooks": [nap]},
        {"matcher": "write_file", "hooks": [guard]},
    ]}));
}

/// Counts the server's live child processes (hook shells, plus the reaper) every
/// millisecond, over every thread of the server (hooks spawn on worker threads).
fn sample_children(server: u32) -> MaxSampler {
    MaxSampler::start(Duration::from_millis(1), move || {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{server}/task")) else {
            return 0;
        };
        tasks
            .flatten()
            .filter_map(|task| std::fs::read_to_string(task.path().join("children")).ok())
            .map(|list| {
                list.split_whitespace()
                    .filter_map(|pid| pid.parse::<i32>().ok())
                    .filter(|pid| process_alive(*pid))
                    .count()
            })
            .sum()
    })
}

fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Writes requests `range` (ids `{prefix}{i}`) on `out` from a thread, reads as many
/// answers from `input`, and checks each is the right one, exactly once.
fn pipeline(
    prefix: &str,
    range: std::ops::Range<usize>,
    out: impl Write + Send + 'static,
    input: impl BufRead,
) -> usize {
    let n = range.len();
    let writer = {
        let (prefix, range) = (prefix.to_owned(), range.clone());
        std::thread::spawn(move || {
            let mut out = BufWriter::new(out);
            for i in range {
                let (input, _) = request(i);
                let line = json!({"correlationId": format!("{prefix}{i}"), "eventName": "BeforeTool", "input": input});
                writeln!(out, "{line}").unwrap();
            }
            out.flush().unwrap();
            out
        })
    };
    let mut seen = HashSet::with_capacity(n);
    let mut lines = input.lines();
    for _ in 0..n {
        let line = lines.next().expect("an answer").expect("readable");
        let answer: Value = serde_json::from_str(&line).unwrap();
        let id = answer["correlationId"].as_str().unwrap();
        let i: usize = id.strip_prefix(prefix).unwrap().parse().unwrap();
        assert!(range.contains(&i), "{id}");
        assert!(seen.insert(i), "{id} answered twice");
        check(&answer, request(i).1);
    }
    drop(writer.join().unwrap());
    seen.len()
}

/// `hookhost serve` with the process cap [`CAP`], on stdin/stdout or on `socket`.
fn spawn_server(p: &Project, cache: &str, socket: Option<&Path>) -> Child {
    let mut command: Command = p.command();
    command
        .env("HOOKHOST_CACHE_DIR", cache)
        .arg("serve")
        .arg("--project-dir")
        .arg(p.dir())
        .arg("--max-processes")
        .arg(CAP.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    if let Some(socket) = socket {
        command.arg("--socket").arg(socket).stdin(Stdio::null());
    }
    command.spawn().unwrap()
}

/// [`CLIENTS`] threads, each pipelining its share of requests `half..half + rest` over
/// its own connection to `socket`; each yields how many answers it checked.
fn socket_clients(socket: &Path, half: usize, rest: usize) -> Vec<JoinHandle<usize>> {
    let per = rest.div_ceil(CLIENTS);
    (0..CLIENTS)
        .map(|c| {
            let socket = socket.to_path_buf();
            let range = (half + c * per)..(half + ((c + 1) * per).min(rest));
            std::thread::spawn(move || {
                let stream = UnixStream::connect(&socket).unwrap();
                stream
                    .set_read_timeout(Some(Duration::from_secs(120)))
                    .unwrap();
                let reader = BufReader::new(stream.try_clone().unwrap());
                pipeline(&format!("c{c}-"), range, stream, reader)
            })
        })
        .collect()
}

#[test]
fn load_through_serve_pipelined_and_from_sixteen_socket_clients() {
    let total = total_requests();
    let p = Project::new();
    settings(&p);
    let cache = cache_dir();
    let socket = p.outside().join("load.sock");
    let spawn = |socket: Option<&Path>| spawn_server(&p, &cache, socket);

    // Pipelined on stdin/stdout.
    let start = Instant::now();
    let half = total / 2;
    let mut server = spawn(None);
    let sampler = sample_children(server.id());
    let answered = pipeline(
        "p",
        0..half,
        server.stdin.take().unwrap(),
        BufReader::new(server.stdout.take().unwrap()),
    );
    let max_children = sampler.max();
    let rss = peak_rss_kib(server.id());
    let status = server.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    let pipelined = start.elapsed();
    assert_eq!(answered, half);
    assert!(
        max_children <= CAP + 1,
        "{max_children} children (cap {CAP} hooks + the reaper)"
    );
    println!(
        "load: {half} pipelined requests in {pipelined:.1?}; peak RSS {rss} KiB; \
         peak hook processes {} (cap {CAP}); answers lost 0",
        max_children.saturating_sub(1)
    );

    // 16 socket clients at once.
    let start = Instant::now();
    let mut server = spawn(Some(&socket));
    while UnixStream::connect(&socket).is_err() {
        assert!(start.elapsed() < Duration::from_secs(30), "no socket");
        std::thread::sleep(Duration::from_millis(10));
    }
    let sampler = sample_children(server.id());
    let rest = total - half;
    let clients = socket_clients(&socket, half, rest);
    let answered: usize = clients.into_iter().map(|c| c.join().unwrap()).sum();
    let max_children = sampler.max();
    let rss = peak_rss_kib(server.id());
    let pid = rustix::process::Pid::from_raw(server.id() as i32).unwrap();
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
    assert_eq!(server.wait().unwrap().code(), Some(0));
    assert_eq!(answered, rest);
    assert!(max_children <= CAP + 1, "{max_children} children");
    println!(
        "load: {rest} requests from {CLIENTS} socket clients in {:.1?}; peak RSS {rss} KiB; \
         peak hook processes {} (cap {CAP}); answers lost 0",
        start.elapsed(),
        max_children.saturating_sub(1)
    );
}

/// Settings rewritten six times while 3,000 requests stream in: every request is
/// answered exactly once, cleanly, by one version of the settings or another, and
/// the later versions are seen.
#[test]
fn settings_rewritten_during_load_lose_no_answer() {
    const N: usize = 3_000;
    let p = Project::new();
    let write = |version: usize| {
        p.settings(json!({"BeforeTool": [{"matcher": "write_file", "hooks": [
            {"type": "plugin", "path": guests::ADVERSARY, "args": ["env"],
             "env": {"VERSION": version.to_string()}}
        ]}]}));
    };
    write(0);
    let cache = cache_dir();
    let mut server = p
        .command()
        .env("HOOKHOST_CACHE_DIR", &cache)
        .arg("serve")
        .arg("--project-dir")
        .arg(p.dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = server.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        for i in 0..N {
            let line = json!({"correlationId": i, "eventName": "BeforeTool",
                "input": {"tool_name": "write_file", "tool_input": {"path": "/tmp/x"}}});
            writeln!(stdin, "{line}").unwrap();
            if i % 10 == 0 {
                // Spread the requests over about four seconds.
                std::thread::sleep(Duration::from_millis(13));
            }
        }
        stdin
    });
    let rewriter = {
        let dir = p.dir().to_path_buf();
        std::thread::spawn(move || {
            for version in 1..=6usize {
                std::thread::sleep(Duration::from_millis(600));
                let settings = json!({"tools": {"enableHooks": true}, "hooks": {"BeforeTool": [
                    {"matcher": "write_file", "hooks": [
                        {"type": "plugin", "path": guests::ADVERSARY, "args": ["env"],
                         "env": {"VERSION": version.to_string()}}]}]}});
                // Atomic replace, as editors do; a reader never sees half a file.
                let tmp = dir.join(".llxprt/settings.json.tmp");
                std::fs::write(&tmp, serde_json::to_vec_pretty(&settings).unwrap()).unwrap();
                std::fs::rename(&tmp, dir.join(".llxprt/settings.json")).unwrap();
            }
        })
    };
    let mut seen = HashSet::new();
    let mut versions = HashSet::new();
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    for _ in 0..N {
        let answer: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
        assert!(
            seen.insert(answer["correlationId"].as_u64().unwrap()),
            "{answer}"
        );
        assert_eq!(answer["output"]["errors"], json!([]), "{answer}");
        let message = answer["output"]["finalOutput"]["systemMessage"]
            .as_str()
            .unwrap();
        let version = message
            .lines()
            .find_map(|l| l.strip_prefix("VERSION="))
            .unwrap_or_else(|| panic!("no VERSION in {message:?}"));
        versions.insert(version.to_owned());
    }
    rewriter.join().unwrap();
    drop(writer.join().unwrap());
    assert_eq!(server.wait().unwrap().code(), Some(0));
    assert_eq!(seen.len(), N);
    assert!(versions.len() >= 3, "reloads not seen: {versions:?}");
}
