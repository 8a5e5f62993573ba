//! `serve round trip: *` and `serve throughput: *`: one client of `hookhost serve`
//! over its pipes, unpinned. Serial round trips (no matching hook, one plugin
//! allowing and blocking, with the server's context switches per request), the
//! `cat` pipe floor behind the same client, requests pipelined by one client (the
//! server on both cores), and round trips of one `sh` command hook.

use std::io::{BufRead, Write};
use std::path::Path;
use std::time::Instant;

use serde_json::{Value, json};

use crate::client::{Env, Server, request_line};
use crate::support::*;
use crate::timing::{backtrace_modes, interleaved, push_modes, stats, tag};

pub fn serve(env: &mut Env) {
    let fx = &env.fx;
    let wasm = echo_policy_wasm();
    let plugin = fx.settings("serve-plugin.json", vec![plugin_hook(&wasm, 0)], false);
    let sh = fx.settings(
        "serve-sh.json",
        vec![command_hook(&fx.sh_policy().display().to_string())],
        false,
    );
    let cache = fx.root().join("warm-cache");
    let (rtt_runs, sh_runs, burst) = if env.quick {
        (50, 10, 500)
    } else {
        (5000, 300, 40_000)
    };

    let mut servers = plugin_servers(env, &plugin, &cache);
    round_trips(env, &mut servers, rtt_runs);
    cat_floor(env, rtt_runs);
    // The throughput run needs one server only.
    let server = servers.swap_remove(0);
    servers.into_iter().for_each(Server::close);
    throughput(env, server, burst);
    sh_round_trips(env, &sh, &cache, sh_runs);
}

/// One server per mode, alive side by side (the round trips take turns between
/// them in blocks of a tenth, see `interleaved`), each checked to answer.
fn plugin_servers(env: &Env, plugin: &Path, cache: &Path) -> Vec<Server> {
    let allow = Value::Object(allow_input());
    let mut servers: Vec<Server> = backtrace_modes(env.quick)
        .iter()
        .map(|&backtrace| env.serve(plugin, cache, backtrace))
        .collect();
    for server in &mut servers {
        assert!(
            server
                .request(&request_line(0, "BeforeTool", &allow))
                .contains("\"success\":true")
        );
    }
    servers
}

/// The serial round trips of the plugin servers: no matching hook, one plugin
/// allowing, one blocking (each answer checked for `expect`).
fn round_trips(env: &mut Env, servers: &mut [Server], runs: usize) {
    let allow = Value::Object(allow_input());
    let block = Value::Object(block_input());
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
    for case in cases {
        round_trip_case(env, servers, runs, case);
    }
}

/// `runs` round trips per mode of one case (name, event, input, expected part of
/// the answer) after a tenth as many untimed; a row per mode with the server's
/// context switches per request.
fn round_trip_case(
    env: &mut Env,
    servers: &mut [Server],
    runs: usize,
    (name, event, input, expect): (&str, &str, &Value, &str),
) {
    let modes = backtrace_modes(env.quick);
    let lines: Vec<Vec<u8>> = (0..runs).map(|i| request_line(i, event, input)).collect();
    for server in servers.iter_mut() {
        for line in lines.iter().take(runs / 10) {
            server.request(line);
        }
    }
    let switches: Vec<u64> = servers.iter().map(Server::context_switches).collect();
    let samples = interleaved(modes.len(), runs, runs / 10, |m, i| {
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
        let per_request = (server.context_switches() - before) as f64 / runs as f64;
        println!("{:<48} {per_request:.2} context switches per request", "");
        let mut row = stats(&format!("{name}{}", tag(backtrace)), &mut samples);
        row["context_switches"] = json!(per_request);
        env.results.push(row);
    }
}

/// The pipe floor, same client, same run: `cat` echoing the request line (one per
/// mode, so that each mode's difference is taken within its own rounds).
fn cat_floor(env: &mut Env, runs: usize) {
    let modes = backtrace_modes(env.quick);
    let mut cats: Vec<Server> = modes.iter().map(|_| env.spawn_cat()).collect();
    let line = request_line(0, "BeforeTool", &Value::Object(allow_input()));
    for cat in &mut cats {
        for _ in 0..runs / 10 {
            cat.request(&line);
        }
    }
    let samples = interleaved(modes.len(), runs, runs / 10, |m, _| {
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
}

/// Throughput: a writer thread pipelines `burst` requests, this thread reads the
/// answers; the server runs them on both cores.
fn throughput(env: &mut Env, mut server: Server, burst: usize) {
    let allow = Value::Object(allow_input());
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
}

/// Serial round trips of one `sh` command hook (a server per mode).
fn sh_round_trips(env: &mut Env, sh: &Path, cache: &Path, runs: usize) {
    let modes = backtrace_modes(env.quick);
    let mut servers: Vec<Server> = modes
        .iter()
        .map(|&backtrace| env.serve(sh, cache, backtrace))
        .collect();
    let line = request_line(0, "BeforeTool", &Value::Object(allow_input()));
    for server in &mut servers {
        server.round_trips(&line, 5, 0);
    }
    let samples = interleaved(modes.len(), runs, runs / 10, |m, _| {
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
