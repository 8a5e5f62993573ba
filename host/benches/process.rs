//! Whole-process measurements (a plain timing harness, every run timed on its own so
//! that medians and p90s are exact):
//!
//! - `hookhost fire` as a process: no hooks, one plugin with a warm and a cold
//!   compile cache, one `sh` command hook;
//! - `hookhost serve`: round trip of one request from a client over the pipes
//!   (no matching hook, one plugin allowing and blocking, an `sh` hook), and
//!   throughput with requests pipelined (both cores);
//! - resident memory of `hookhost serve` with 1, 10 and 100 distinct plugins loaded;
//! - one `.wasm` named by 32 hooks (loaded once);
//! - the example policies in Python, JavaScript and Zig (when built): per call
//!   through `serve`, and a warm whole-process `hookhost fire`;
//! - the `cat` pipe floor and context switches per serial `serve` request (all
//!   threads of the server, from `/proc/PID/task/*/status`);
//! - `placement`: the serial round trips again with the client and the server pinned
//!   to one core and to two cores (a wake-up across cores costs tens of µs on some
//!   VMs, and where the scheduler puts the server moves the unpinned figures), each
//!   with the `cat` floor and the fire's own time inside `serve` (`totalDuration`).
//!
//! Every process case runs with `RUST_BACKTRACE` unset and `=1`, the two taking turns
//! (`interleaved`: the machine drifts by more than the 5 % compared). The binary is
//! `$HOOKHOST_BIN` (scripts/bench.sh points it at the release build) or the bench
//! profile's. Results go to `target/bench-results/process.json`.
//! `--quick` (or `HOOKHOST_BENCH_QUICK`) runs few iterations: the CI smoke run.

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

#[path = "support/mod.rs"]
mod support;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::*;

fn bin() -> PathBuf {
    std::env::var_os("HOOKHOST_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_hookhost")))
}

/// Median, p90 and friends of a set of durations, in microseconds.
fn stats(name: &str, samples: &mut [Duration]) -> Value {
    samples.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let pick = |q: f64| us(samples[((samples.len() - 1) as f64 * q).round() as usize]);
    let mean = samples.iter().map(|d| us(*d)).sum::<f64>() / samples.len() as f64;
    let row = json!({
        "name": name, "unit": "us", "n": samples.len(),
        "median": pick(0.5), "p90": pick(0.9), "min": us(samples[0]), "mean": mean,
    });
    println!(
        "{name:<48} n={:<6} median {:>10.1} µs   p90 {:>10.1} µs",
        samples.len(),
        pick(0.5),
        pick(0.9)
    );
    row
}

struct Env {
    fx: Fixture,
    home: PathBuf,
    results: Vec<Value>,
    quick: bool,
}

impl Env {
    fn command(&self, backtrace: bool) -> Command {
        let mut command = Command::new(bin());
        command
            .current_dir(self.fx.root())
            .env("HOME", &self.home)
            .env(
                "LLXPRT_SYSTEM_SETTINGS_PATH",
                self.fx.root().join("no-system-settings.json"),
            )
            .env_remove("HOOKHOST_LOG")
            .env_remove("RUST_LIB_BACKTRACE");
        if backtrace {
            command.env("RUST_BACKTRACE", "1");
        } else {
            command.env_remove("RUST_BACKTRACE");
        }
        command
    }

    fn fire_once(
        &self,
        settings: &Path,
        cache: &Path,
        backtrace: bool,
        input: &[u8],
    ) -> (Duration, i32) {
        let mut command = self.command(backtrace);
        command
            .args(["fire", "BeforeTool", "--project-dir"])
            .arg(self.fx.project())
            .arg("--settings")
            .arg(settings)
            .env("HOOKHOST_CACHE_DIR", cache)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let start = Instant::now();
        let mut child = command.spawn().unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let _ = stdin.write_all(input);
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        let elapsed = start.elapsed();
        (elapsed, out.status.code().unwrap_or(-1))
    }

    /// `cat` behind the same client: the floor of a round trip over two pipes.
    fn spawn_cat(&self) -> Server {
        let child = Command::new("cat")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        Server::over(child)
    }

    fn serve(&self, settings: &Path, cache: &Path, backtrace: bool) -> Server {
        let mut command = self.command(backtrace);
        command
            .args(["serve", "--project-dir"])
            .arg(self.fx.project())
            .arg("--settings")
            .arg(settings)
            .env("HOOKHOST_CACHE_DIR", cache)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        Server::over(command.spawn().unwrap())
    }
}

struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    line: String,
}

impl Server {
    /// A client over the piped stdin and stdout of `child`.
    fn over(mut child: Child) -> Server {
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Server {
            child,
            stdin: Some(stdin),
            stdout,
            line: String::new(),
        }
    }

    fn request(&mut self, line: &[u8]) -> &str {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line).unwrap();
        stdin.flush().unwrap();
        self.line.clear();
        self.stdout.read_line(&mut self.line).unwrap();
        &self.line
    }

    /// VmRSS, VmHWM and the anonymous part of VmRSS (RssAnon: what the process
    /// owns; the rest is file-backed, mostly the mapped code of the plugins'
    /// artifacts — shared page cache), in KiB.
    fn rss_kib(&self) -> (u64, u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let field = |name: &str| {
            status
                .lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        };
        (field("VmRSS:"), field("VmHWM:"), field("RssAnon:"))
    }

    /// `runs` timed round trips of `line` after `warmup` untimed ones; every
    /// answer must be a success.
    fn round_trips(&mut self, line: &[u8], warmup: usize, runs: usize) -> Vec<Duration> {
        for _ in 0..warmup {
            self.request(line);
        }
        (0..runs)
            .map(|_| {
                let start = Instant::now();
                let answer = self.request(line);
                let elapsed = start.elapsed();
                assert!(answer.contains("\"success\":true"), "{answer}");
                elapsed
            })
            .collect()
    }

    /// Voluntary + involuntary context switches of every thread of the server so
    /// far (`/proc/PID/task/*/status`; the process's own line counts only the main
    /// thread).
    fn context_switches(&self) -> u64 {
        let tasks = std::fs::read_dir(format!("/proc/{}/task", self.child.id())).unwrap();
        tasks
            .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("status")).ok())
            .flat_map(|status| {
                status
                    .lines()
                    .filter(|l| l.contains("ctxt_switches:"))
                    .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
                    .collect::<Vec<_>>()
            })
            .sum()
    }

    fn close(mut self) {
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}

fn request_line(id: usize, event: &str, input: &Value) -> Vec<u8> {
    let mut line =
        serde_json::to_vec(&json!({"correlationId": id, "eventName": event, "input": input}))
            .unwrap();
    line.push(b'\n');
    line
}

// ---- hookhost fire --------------------------------------------------------------------------

fn fire_process(env: &mut Env) {
    let fx = &env.fx;
    let wasm = echo_policy_wasm();
    let none = fx.settings_raw(
        "none.json",
        &json!({"tools": {"enableHooks": true}, "hooks": {}}),
    );
    let plugin = fx.settings("process-plugin.json", vec![plugin_hook(&wasm, 0)], false);
    let sh = fx.settings(
        "process-sh.json",
        vec![command_hook(&fx.sh_policy().display().to_string())],
        false,
    );
    let allow = serde_json::to_vec(&allow_input()).unwrap();
    let block = serde_json::to_vec(&block_input()).unwrap();
    let warm_cache = fx.root().join("warm-cache");
    // Warm the cache (and check the answers).
    assert_eq!(env.fire_once(&plugin, &warm_cache, false, &allow).1, 0);
    assert_eq!(env.fire_once(&plugin, &warm_cache, false, &block).1, 2);

    let (warm_runs, cold_runs) = if env.quick { (3, 1) } else { (100, 12) };
    let modes = backtrace_modes(env.quick);
    let cases: [(&str, &Path, &[u8], i32); 4] = [
        ("fire process: no hooks", &none, &allow, 0),
        (
            "fire process: 1 plugin, warm cache, allow",
            &plugin,
            &allow,
            0,
        ),
        (
            "fire process: 1 plugin, warm cache, block",
            &plugin,
            &block,
            2,
        ),
        ("fire process: 1 sh command hook, allow", &sh, &allow, 0),
    ];
    for (name, settings, input, code) in cases {
        let samples = interleaved(modes.len(), warm_runs, 1, |m, _| {
            let (elapsed, got) = env.fire_once(settings, &warm_cache, modes[m], input);
            assert_eq!(got, code, "{name}");
            elapsed
        });
        push_modes(&mut env.results, name, modes, samples);
    }
    let samples = interleaved(modes.len(), cold_runs, 1, |m, i| {
        let cold = fx.root().join(format!("cold-cache-{m}-{i}"));
        let (elapsed, got) = env.fire_once(&plugin, &cold, modes[m], &allow);
        assert_eq!(got, 0);
        let _ = std::fs::remove_dir_all(&cold);
        elapsed
    });
    push_modes(
        &mut env.results,
        "fire process: 1 plugin, cold cache, allow",
        modes,
        samples,
    );
}

/// `runs` samples per mode from `measure(mode index, run)`, taken in turns of `block`
/// runs per mode: the `RUST_BACKTRACE` comparison is then between neighbouring runs,
/// not between two passes minutes apart on a machine whose speed drifts (pass by
/// pass, the later one came out up to 12 % faster — either way). Processes started
/// per run take turns run by run (`block` 1); servers kept alive side by side take
/// turns in blocks, because a request alternating between two servers finds the
/// caches full of the other one (measured on one core: 41 → 76 µs a round trip).
fn interleaved(
    modes: usize,
    runs: usize,
    block: usize,
    mut measure: impl FnMut(usize, usize) -> Duration,
) -> Vec<Vec<Duration>> {
    let mut samples = vec![Vec::with_capacity(runs); modes];
    for start in (0..runs).step_by(block.max(1)) {
        for (m, samples) in samples.iter_mut().enumerate() {
            for run in start..runs.min(start + block.max(1)) {
                samples.push(measure(m, run));
            }
        }
    }
    samples
}

/// One result row per mode: `name`, and `name (RUST_BACKTRACE=1)`.
fn push_modes(results: &mut Vec<Value>, name: &str, modes: &[bool], samples: Vec<Vec<Duration>>) {
    for (&backtrace, mut samples) in modes.iter().zip(samples) {
        results.push(stats(&format!("{name}{}", tag(backtrace)), &mut samples));
    }
}

fn tag(backtrace: bool) -> &'static str {
    if backtrace { " (RUST_BACKTRACE=1)" } else { "" }
}

// ---- hookhost serve -------------------------------------------------------------------------

fn serve(env: &mut Env) {
    let fx = &env.fx;
    let wasm = echo_policy_wasm();
    let plugin = fx.settings("serve-plugin.json", vec![plugin_hook(&wasm, 0)], false);
    let sh = fx.settings(
        "serve-sh.json",
        vec![command_hook(&fx.sh_policy().display().to_string())],
        false,
    );
    let cache = fx.root().join("warm-cache");
    let allow = Value::Object(allow_input());
    let block = Value::Object(block_input());
    let (rtt_runs, sh_runs, burst) = if env.quick {
        (50, 10, 500)
    } else {
        (5000, 300, 40_000)
    };

    // One server per mode, alive side by side; the round trips take turns between
    // them in blocks of a tenth (see `interleaved`).
    let modes = backtrace_modes(env.quick);
    let mut servers: Vec<Server> = modes
        .iter()
        .map(|&backtrace| env.serve(&plugin, &cache, backtrace))
        .collect();
    for server in &mut servers {
        assert!(
            server
                .request(&request_line(0, "BeforeTool", &allow))
                .contains("\"success\":true")
        );
    }
    let cases = [
        (
            "serve round trip: no matching hook",
            "AfterTool",
            &allow,
            "\"finalOutput\":{}",
        ),
        (
            "serve round trip: 1 plugin, allow",
            "BeforeTool",
            &allow,
            "\"success\":true",
        ),
        (
            "serve round trip: 1 plugin, block",
            "BeforeTool",
            &block,
            "\"decision\":\"block\"",
        ),
    ];
    for (name, event, input, expect) in cases {
        let lines: Vec<Vec<u8>> = (0..rtt_runs)
            .map(|i| request_line(i, event, input))
            .collect();
        for server in &mut servers {
            for line in lines.iter().take(rtt_runs / 10) {
                server.request(line);
            }
        }
        let switches: Vec<u64> = servers.iter().map(Server::context_switches).collect();
        let samples = interleaved(modes.len(), rtt_runs, rtt_runs / 10, |m, i| {
            let server = &mut servers[m];
            let start = Instant::now();
            let answer = server.request(&lines[i]);
            let elapsed = start.elapsed();
            assert!(answer.contains(expect), "{name}: {answer}");
            elapsed
        });
        for ((&backtrace, mut samples), (server, before)) in
            modes.iter().zip(samples).zip(servers.iter().zip(&switches))
        {
            let per_request = (server.context_switches() - before) as f64 / rtt_runs as f64;
            println!("{:<48} {per_request:.2} context switches per request", "");
            let mut row = stats(&format!("{name}{}", tag(backtrace)), &mut samples);
            row["context_switches"] = json!(per_request);
            env.results.push(row);
        }
    }
    // The pipe floor, same client, same run: `cat` echoing the request line (one per
    // mode, so that each mode's difference is taken within its own rounds).
    let mut cats: Vec<Server> = modes.iter().map(|_| env.spawn_cat()).collect();
    let line = request_line(0, "BeforeTool", &allow);
    for cat in &mut cats {
        for _ in 0..rtt_runs / 10 {
            cat.request(&line);
        }
    }
    let samples = interleaved(modes.len(), rtt_runs, rtt_runs / 10, |m, _| {
        let start = Instant::now();
        let echoed = cats[m].request(&line).len();
        let elapsed = start.elapsed();
        assert_eq!(echoed, line.len());
        elapsed
    });
    push_modes(
        &mut env.results,
        "serve round trip: cat (pipe floor)",
        modes,
        samples,
    );
    cats.into_iter().for_each(Server::close);

    // Throughput: a writer thread pipelines `burst` requests, this thread reads the
    // answers; the server runs them on both cores.
    let mut server = servers.swap_remove(0);
    servers.into_iter().for_each(Server::close);
    let lines: Vec<u8> = (0..burst)
        .flat_map(|i| request_line(i, "BeforeTool", &allow))
        .collect();
    let mut stdin = server.stdin.take().unwrap();
    let start = Instant::now();
    let writer = std::thread::spawn(move || {
        stdin.write_all(&lines).unwrap();
        stdin.flush().unwrap();
        stdin
    });
    let mut ok = 0usize;
    for _ in 0..burst {
        server.line.clear();
        server.stdout.read_line(&mut server.line).unwrap();
        ok += usize::from(server.line.contains("\"success\":true"));
    }
    let elapsed = start.elapsed();
    server.stdin = Some(writer.join().unwrap());
    assert_eq!(ok, burst);
    let rate = burst as f64 / elapsed.as_secs_f64();
    println!(
        "{:<48} {burst} requests in {elapsed:.2?}: {rate:.0} fires/s",
        "serve throughput: 1 plugin, pipelined"
    );
    env.results.push(json!({
        "name": "serve throughput: 1 plugin, pipelined", "unit": "fires/s",
        "n": burst, "rate": rate, "seconds": elapsed.as_secs_f64(),
    }));
    server.close();

    let mut servers: Vec<Server> = modes
        .iter()
        .map(|&backtrace| env.serve(&sh, &cache, backtrace))
        .collect();
    let line = request_line(0, "BeforeTool", &allow);
    for server in &mut servers {
        server.round_trips(&line, 5, 0);
    }
    let samples = interleaved(modes.len(), sh_runs, sh_runs / 10, |m, _| {
        servers[m].round_trips(&line, 0, 1)[0]
    });
    push_modes(
        &mut env.results,
        "serve round trip: 1 sh command hook, allow",
        modes,
        samples,
    );
    servers.into_iter().for_each(Server::close);
}

// ---- serial round trips by placement ---------------------------------------------------------

/// Pins the calling thread (and so the processes it spawns next) to one CPU.
fn pin_to(cpu: usize) -> bool {
    let mut set = rustix::thread::CpuSet::new();
    set.set(cpu);
    rustix::thread::sched_setaffinity(None, &set).is_ok()
}

/// `totalDuration` of an answer, in µs.
fn fire_us(answer: &str) -> Option<f64> {
    let output = serde_json::from_str::<Value>(answer).ok()?;
    Some(output["output"]["totalDuration"].as_f64()? * 1000.0)
}

/// Serial round trips with the client on the first allowed CPU and the server (and
/// `cat`) on the same CPU ("one core") or the next one ("two cores"): the floor and
/// the server in the same placement, so that their difference is the server's own
/// time and not the scheduler's choice of core.
fn placement(env: &mut Env) {
    // The CPUs this process may use (a container's cpuset need not start at 0).
    let Ok(allowed) = rustix::thread::sched_getaffinity(None) else {
        println!("placement: skipped (cannot read the CPU affinity)");
        return;
    };
    let cpus: Vec<usize> = (0..rustix::thread::CpuSet::MAX_CPU)
        .filter(|&cpu| allowed.is_set(cpu))
        .collect();
    let fx = &env.fx;
    let plugin = fx.settings(
        "placement-plugin.json",
        vec![plugin_hook(&echo_policy_wasm(), 0)],
        false,
    );
    let cache = fx.root().join("warm-cache");
    let allow = Value::Object(allow_input());
    let runs = if env.quick { 50 } else { 5000 };
    let Some(&first) = cpus.first() else {
        println!("placement: skipped (no CPU in the affinity mask)");
        return;
    };
    let mut placements = vec![("one core", first)];
    if let Some(&other) = cpus.get(1) {
        placements.push(("two cores", other));
    }
    for (place, server_cpu) in placements {
        if !pin_to(server_cpu) {
            println!("placement: skipped (cannot pin to CPU {server_cpu})");
            break;
        }
        // On one core the scheduler cannot move anything, so the plugin row is also
        // where `RUST_BACKTRACE=1` is compared (a second server, requests alternating):
        // unpinned, two servers may sleep on different vCPUs, and a wake-up across
        // vCPUs costs more than the 5 % compared.
        let modes: &[bool] = if place == "one core" {
            backtrace_modes(env.quick)
        } else {
            &[false]
        };
        let mut cat = env.spawn_cat();
        let mut servers: Vec<Server> = modes
            .iter()
            .map(|&backtrace| env.serve(&plugin, &cache, backtrace))
            .collect();
        pin_to(first);
        let cases = [
            ("cat (pipe floor)", "BeforeTool"),
            ("no matching hook", "AfterTool"),
            ("1 plugin, allow", "BeforeTool"),
        ];
        for (case, event) in cases {
            let line = request_line(0, event, &allow);
            let mut targets: Vec<&mut Server> = if case.starts_with("cat") {
                vec![&mut cat]
            } else if case.contains("plugin") {
                servers.iter_mut().collect()
            } else {
                servers.iter_mut().take(1).collect()
            };
            let mut fires = vec![Vec::new(); targets.len()];
            let samples = interleaved(targets.len(), runs + runs / 10, runs / 10, |m, _| {
                let start = Instant::now();
                let answer = targets[m].request(&line);
                let elapsed = start.elapsed();
                assert!(
                    case.starts_with("cat") || answer.contains("\"success\":true"),
                    "{place}, {case}: {answer}"
                );
                fires[m].extend(fire_us(answer));
                elapsed
            });
            for ((&backtrace, samples), mut fires) in modes.iter().zip(samples).zip(fires) {
                // The first tenth warms up.
                let mut samples = samples[runs / 10..].to_vec();
                let name = format!("serve round trip ({place}): {case}{}", tag(backtrace));
                let mut row = stats(&name, &mut samples);
                if case.contains("plugin") {
                    let mut fires = fires.split_off(fires.len().min(runs / 10));
                    fires.sort_by(f64::total_cmp);
                    let fire = fires.get(fires.len() / 2).copied().unwrap_or(0.0);
                    println!("{:<48} fire inside serve (totalDuration) {fire:.1} µs", "");
                    row["fire_in_serve"] = json!(fire);
                }
                env.results.push(row);
            }
        }
        cat.close();
        servers.into_iter().for_each(Server::close);
    }
    // Back to every CPU this process had.
    let _ = rustix::thread::sched_setaffinity(None, &allowed);
}

/// Adds the rows of the last `process.json` that `results` does not have.
fn keep_earlier_rows(path: &Path, results: &mut Vec<Value>) {
    let Ok(bytes) = std::fs::read(path) else {
        return;
    };
    let Ok(earlier) = serde_json::from_slice::<Value>(&bytes) else {
        return;
    };
    let new: std::collections::HashSet<String> = results
        .iter()
        .filter_map(|r| r["name"].as_str().map(str::to_owned))
        .collect();
    for row in earlier["results"].as_array().into_iter().flatten() {
        if row["name"].as_str().is_some_and(|n| !new.contains(n)) {
            results.push(row.clone());
        }
    }
}

// ---- resident memory --------------------------------------------------------------------------

/// `wasm` with a custom section appended: a distinct plugin (own digest, own compiled
/// code) that behaves the same.
fn distinct_copy(wasm: &[u8], n: usize) -> Vec<u8> {
    fn leb(mut v: usize, out: &mut Vec<u8>) {
        loop {
            let byte = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                out.push(byte);
                return;
            }
            out.push(byte | 0x80);
        }
    }
    let name = b"hookhost-bench";
    let payload = format!("copy {n}");
    let mut body = Vec::new();
    leb(name.len(), &mut body);
    body.extend_from_slice(name);
    body.extend_from_slice(payload.as_bytes());
    let mut out = wasm.to_vec();
    out.push(0);
    leb(body.len(), &mut out);
    out.extend_from_slice(&body);
    out
}

fn memory(env: &mut Env) {
    let fx = &env.fx;
    let wasm = std::fs::read(echo_policy_wasm()).unwrap();
    let counts: &[usize] = if env.quick { &[1] } else { &[1, 10, 100] };
    let dir = fx.root().join("plugins");
    std::fs::create_dir_all(&dir).unwrap();
    for &n in counts {
        let hooks: Vec<Value> = (0..n)
            .map(|i| {
                let path = dir.join(format!("policy-{i}.wasm"));
                if !path.exists() {
                    std::fs::write(&path, distinct_copy(&wasm, i)).unwrap();
                }
                plugin_hook(&path, i)
            })
            .collect();
        let settings = fx.settings(&format!("memory-{n}.json"), hooks, false);
        let cache = fx.root().join("memory-cache");
        for phase in ["cold cache", "warm cache"] {
            let row = serve_memory(
                env,
                &format!("serve memory: {n} plugins, {phase}"),
                &settings,
                &cache,
            );
            env.results.push(row);
        }
    }
}

/// Starts `serve` with `settings`, waits for its first answer (every plugin loaded),
/// fires all hooks once, and reports start-up time and VmRSS (loaded, after the
/// fire, peak).
fn serve_memory(env: &Env, name: &str, settings: &Path, cache: &Path) -> Value {
    let start = Instant::now();
    let mut server = env.serve(settings, cache, false);
    // A request for an event without hooks: answered once every plugin is loaded.
    let answer = server.request(&request_line(0, "Notification", &json!({})));
    assert!(answer.contains("\"success\":true"), "{answer}");
    let load = start.elapsed();
    let (loaded, _, _) = server.rss_kib();
    let allow = Value::Object(allow_input());
    let answer = server
        .request(&request_line(1, "BeforeTool", &allow))
        .to_owned();
    assert!(answer.contains("\"success\":true"), "{answer}");
    let (fired, peak, anon) = server.rss_kib();
    server.close();
    println!(
        "{name:<48} load {load:.2?}  VmRSS loaded {:.1} MiB, after a fire {:.1} MiB \
         (anonymous {:.1} MiB), peak {:.1} MiB",
        loaded as f64 / 1024.0,
        fired as f64 / 1024.0,
        anon as f64 / 1024.0,
        peak as f64 / 1024.0
    );
    json!({
        "name": name, "unit": "MiB", "load_ms": load.as_secs_f64() * 1e3,
        "rss_loaded": loaded as f64 / 1024.0, "rss_after_fire": fired as f64 / 1024.0,
        "rss_anon_after_fire": anon as f64 / 1024.0,
        "rss_peak": peak as f64 / 1024.0,
    })
}

/// One `.wasm` named by 32 hooks (other `env` each, so none is deduplicated):
/// compiled, mapped and pre-instantiated once — start-up and memory barely above
/// one hook's.
fn references(env: &mut Env) {
    let fx = &env.fx;
    let wasm = echo_policy_wasm();
    let cache = fx.root().join("memory-cache");
    for n in [1usize, 32] {
        let hooks: Vec<Value> = (0..n).map(|i| plugin_hook(&wasm, i)).collect();
        let settings = fx.settings(&format!("references-{n}.json"), hooks, false);
        // Warm the cache.
        env.serve(&settings, &cache, false).close();
        let name = format!("serve references: one .wasm, {n} hooks");
        let row = serve_memory(env, &name, &settings, &cache);
        env.results.push(row);
    }
}

/// The example policies in other languages (`examples/build-languages.sh` builds
/// them; a missing one is skipped): per call through `serve`, and a warm
/// whole-process `hookhost fire`. In quick mode only with
/// `HOOKHOST_BENCH_LANGUAGES=1`.
fn languages(env: &mut Env) {
    // Compiling CPython and SpiderMonkey in a dev build takes minutes: CI's quick
    // run skips this unless asked (scripts/bench.sh asks).
    if env.quick && std::env::var_os("HOOKHOST_BENCH_LANGUAGES").is_none() {
        println!("languages: skipped in quick mode (HOOKHOST_BENCH_LANGUAGES=1 runs them)");
        return;
    }
    let allow = serde_json::to_vec(&allow_input()).unwrap();
    let (calls, fires) = if env.quick { (5, 2) } else { (300, 40) };
    for lang in ["python", "js", "zig"] {
        let wasm = repo().join("examples").join(lang).join("policy.wasm");
        if !wasm.exists() {
            println!("language {lang}: {} not built, skipped", wasm.display());
            continue;
        }
        let settings = env.fx.settings(
            &format!("language-{lang}.json"),
            vec![plugin_hook(&wasm, 0)],
            false,
        );
        let cache = env.fx.root().join("language-cache");
        // Compile once, then wait until the file counts as settled so that its
        // digest is remembered (a warm start then does not read it).
        assert_eq!(env.fire_once(&settings, &cache, false, &allow).1, 0);
        std::thread::sleep(Duration::from_millis(2100));
        assert_eq!(env.fire_once(&settings, &cache, false, &allow).1, 0);
        let modes = backtrace_modes(env.quick);
        let samples = interleaved(modes.len(), fires, 1, |m, _| {
            let (elapsed, code) = env.fire_once(&settings, &cache, modes[m], &allow);
            assert_eq!(code, 0, "{lang}");
            elapsed
        });
        push_modes(
            &mut env.results,
            &format!("language {lang}: fire process, warm cache"),
            modes,
            samples,
        );
        let mut servers: Vec<Server> = modes
            .iter()
            .map(|&backtrace| env.serve(&settings, &cache, backtrace))
            .collect();
        let line = request_line(0, "BeforeTool", &Value::Object(allow_input()));
        for server in &mut servers {
            server.round_trips(&line, 3, 0);
        }
        let samples = interleaved(modes.len(), calls, calls / 10, |m, _| {
            servers[m].round_trips(&line, 0, 1)[0]
        });
        servers.into_iter().for_each(Server::close);
        push_modes(
            &mut env.results,
            &format!("language {lang}: serve round trip"),
            modes,
            samples,
        );
    }
}

/// `RUST_BACKTRACE` unset and `=1`; only unset in quick mode.
fn backtrace_modes(quick: bool) -> &'static [bool] {
    if quick { &[false] } else { &[false, true] }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo bench` passes `--bench`; a plain argument is a filter, as for criterion.
    let filter: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    if args.iter().any(|a| a == "--list") {
        return;
    }
    let selected =
        |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    let fx = Fixture::new();
    let home = fx.root().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let mut env = Env {
        fx,
        home,
        results: Vec::new(),
        quick: quick(),
    };
    println!("hookhost binary: {}", bin().display());
    if selected("fire_process") {
        fire_process(&mut env);
    }
    if selected("serve") {
        serve(&mut env);
    }
    if selected("placement") {
        placement(&mut env);
    }
    if selected("memory") {
        memory(&mut env);
    }
    if selected("references") {
        references(&mut env);
    }
    if selected("languages") {
        languages(&mut env);
    }
    let dir = repo().join("target/bench-results");
    std::fs::create_dir_all(&dir).unwrap();
    if !filter.is_empty() {
        // A filtered run replaces its own rows and keeps the earlier run's others.
        keep_earlier_rows(&dir.join("process.json"), &mut env.results);
    }
    let out = json!({"binary": bin(), "quick": env.quick, "results": env.results});
    std::fs::write(
        dir.join("process.json"),
        serde_json::to_vec_pretty(&out).unwrap(),
    )
    .unwrap();
}
