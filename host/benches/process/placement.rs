//! `serve round trip (one core): *` and `serve round trip (two cores): *`: the
//! serial round trips again with the client pinned to the first allowed CPU and
//! the server (and `cat`) pinned to the same CPU or the next one. A wake-up across
//! cores costs tens of µs on some VMs, and where the scheduler puts the server moves
//! the unpinned figures; pinned, the floor and the server share a placement, so
//! that their difference is the server's own time. Each plugin row also carries
//! the fire's own time inside `serve` (`totalDuration`).

use std::path::Path;
use std::time::Instant;

use rustix::thread::CpuSet;
use serde_json::{Value, json};

use crate::client::{Env, Server, request_line};
use crate::support::*;
use crate::timing::{backtrace_modes, interleaved, stats, tag};

/// Pins the calling thread (and so the processes it spawns next) to one CPU.
fn pin_to(cpu: usize) -> bool {
    let mut set = CpuSet::new();
    set.set(cpu);
    rustix::thread::sched_setaffinity(None, &set).is_ok()
}

/// `totalDuration` of an answer, in µs.
fn fire_us(answer: &str) -> Option<f64> {
    let output = serde_json::from_str::<Value>(answer).ok()?;
    Some(output["output"]["totalDuration"].as_f64()? * 1000.0)
}

/// Serial round trips with the client on the first allowed CPU and the server (and
/// `cat`) on the same CPU ("one core") or the next one ("two cores").
pub fn placement(env: &mut Env) {
    // The CPUs this process may use (a container's cpuset need not start at 0).
    let Ok(allowed) = rustix::thread::sched_getaffinity(None) else {
        println!("placement: skipped (cannot read the CPU affinity)");
        return;
    };
    let cpus: Vec<usize> = (0..CpuSet::MAX_CPU)
        .filter(|&cpu| allowed.is_set(cpu))
        .collect();
    let fx = &env.fx;
    let plugin = fx.settings(
        "placement-plugin.json",
        vec![plugin_hook(&echo_policy_wasm(), 0)],
        false,
    );
    let cache = fx.root().join("warm-cache");
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
        one_placement(env, place, first, &plugin, &cache, runs);
    }
    // Back to every CPU this process had.
    let _ = rustix::thread::sched_setaffinity(None, &allowed);
}

/// The rows of one placement. Called pinned to the server's CPU: the `cat` and
/// servers spawned here inherit it; then the client goes back to `client_cpu`.
fn one_placement(
    env: &mut Env,
    place: &str,
    client_cpu: usize,
    plugin: &Path,
    cache: &Path,
    runs: usize,
) {
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
        .map(|&backtrace| env.serve(plugin, cache, backtrace))
        .collect();
    pin_to(client_cpu);
    let cases = [
        ("cat (pipe floor)", "BeforeTool"),
        ("no matching hook", "AfterTool"),
        ("1 plugin, allow", "BeforeTool"),
    ];
    for (case, event) in cases {
        // The plugin row runs on a server per mode; the others on the first only.
        let targets: Vec<&mut Server> = if case.starts_with("cat") {
            vec![&mut cat]
        } else if case.contains("plugin") {
            servers.iter_mut().collect()
        } else {
            servers.iter_mut().take(1).collect()
        };
        let rows = placed_case(place, case, event, targets, modes, runs);
        env.results.extend(rows);
    }
    cat.close();
    servers.into_iter().for_each(Server::close);
}

/// `runs` round trips per target after a tenth as many (taken in the same turns,
/// then dropped); a row per mode, the plugin's with the median `totalDuration`.
fn placed_case(
    place: &str,
    case: &str,
    event: &str,
    mut targets: Vec<&mut Server>,
    modes: &[bool],
    runs: usize,
) -> Vec<Value> {
    let line = request_line(0, event, &Value::Object(allow_input()));
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
    let mut rows = Vec::new();
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
        rows.push(row);
    }
    rows
}
