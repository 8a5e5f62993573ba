//! Whole-process measurements (a plain timing harness, every run timed on its own so
//! that medians and p90s are exact):
//!
//! - `hookhost fire` as a process: no hooks, one plugin with a warm and a cold
//!   compile cache, one `sh` command hook;
//! - `hookhost serve`: round trip of one request from a client over the pipes
//!   (no matching hook, one plugin allowing and blocking, an `sh` hook), and
//!   throughput with requests pipelined (both cores);
//! - `hookhost serve --http`: a Claude `POST /hook` with one plugin (a new connection
//!   per request, and kept alive) against `hookhost hook` as a process and the
//!   policy as a Python command hook (issue 26);
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
//! A plain argument runs only the parts whose name contains it (`fire_process`,
//! `serve`, `serve_http`, `placement`, `memory`, `references`, `languages`), as a
//! criterion filter (`serve` selects `serve_http` too).
//!
//! One file per part, in the order they run (`fire.rs`, `serve.rs`, `http.rs`, `placement.rs`,
//! `memory.rs` with the references, `languages.rs`); `client.rs` starts `hookhost`
//! and talks to it, `timing.rs` takes the samples in turns and writes the rows;
//! `../support` holds the fixtures shared with the `fire` bench.

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

#[path = "../support/mod.rs"]
mod support;

mod client;
mod fire;
mod http;
mod languages;
mod memory;
mod placement;
mod serve;
mod timing;

use std::path::Path;

use serde_json::{Value, json};

use client::{Env, bin};
use support::{Fixture, quick, results_dir};

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

/// A part of the bench: the name a filter selects it by, and what it runs.
type Part = (&'static str, fn(&mut Env));

/// The parts, in the order they run.
const PARTS: [Part; 7] = [
    ("fire_process", fire::fire_process),
    ("serve", serve::serve),
    ("serve_http", http::serve_http),
    ("placement", placement::placement),
    ("memory", memory::memory),
    ("references", memory::references),
    ("languages", languages::languages),
];

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
    for (name, run) in PARTS {
        if selected(name) {
            run(&mut env);
        }
    }
    write_results(env, !filter.is_empty());
}

/// Writes `target/bench-results/process.json` (read by scripts/bench-report.py).
fn write_results(mut env: Env, filtered: bool) {
    let path = results_dir().join("process.json");
    if filtered {
        // A filtered run replaces its own rows and keeps the earlier run's others.
        keep_earlier_rows(&path, &mut env.results);
    }
    let out = json!({"binary": bin(), "quick": env.quick, "results": env.results});
    std::fs::write(path, serde_json::to_vec_pretty(&out).unwrap()).unwrap();
}
