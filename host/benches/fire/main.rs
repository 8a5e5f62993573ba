//! In-process benchmarks of `HookSystem::fire` (criterion).
//!
//! - `no_match/*`: hooks disabled, no hook for the event, a matcher that misses —
//!   time per fire, and heap allocations per fire counted by the counting global
//!   allocator (`alloc.rs`; printed, and written to `target/bench-results/alloc.json`);
//! - `plugin/*`: one echo-policy plugin hook, allow and block paths;
//! - `grants/*`: the capabilities of issue 30 — granted but unused, a `set` in a
//!   fire, a `get`+`set` on an open store (`grants.rs`);
//! - `floor/*`: what the plugin fire is made of — `plugin_run`, the same hook's
//!   `Plugin::run` alone (store, instance and call, no planning, serialising or
//!   aggregation); `wasmtime`, the same `.wasm` run by wasmtime and wasmtime-wasi
//!   alone under hookhost's engine configuration (fresh store and instance per
//!   call, in-memory stdin/stdout) — the floor under this host; `wasmtime_checked`,
//!   the same with memories laid out for explicit bounds checks (the fallback
//!   under `ulimit -v`); and `wasmtime_defaults`, the same with wasmtime's pooling
//!   defaults, fuel and epochs;
//! - `command/*`: the same policy as a command hook (native binary, `sh`, Python)
//!   next to `spawn/*`, a bare spawn-and-wait of the same command line;
//! - `fanout/*`: 1, 8 and 32 plugin hooks on one event, parallel and sequential;
//!   `fanout/wasmtime_{parallel,sequential}/8`: 8 calls of wasmtime alone, spawned
//!   on the runtime or one after another — the floor of the fan-out;
//! - `background/*`: three `async` hooks of 1 s each, timed until the fire returns;
//! - `http/*`: the policy as an `http` hook to a server on 127.0.0.1 (`hook`) next
//!   to `bare`, the same POST by a hand-written client: the server's own time.
//!
//! One file per group (`no_match.rs`, `plugin.rs`, `grants.rs`, `floor.rs`, `command.rs`,
//! `fanout.rs`, `background.rs`, `http.rs`); `alloc.rs` counts allocations, `bare.rs` runs the policy on
//! wasmtime alone (for `floor` and `fanout`), `../support` holds the fixtures shared
//! with the `process` bench. The groups run in the order of `criterion_group!` below
//! (`command` starts the reaper for the rest of the process: the groups after it
//! run no command hooks).
//!
//! Group names get `+backtrace` when `RUST_BACKTRACE`/`RUST_LIB_BACKTRACE` is on, so
//! `scripts/bench.sh` can keep both runs. Quick mode for CI:
//! `cargo bench -p hookhost-cli --bench fire -- --quick`.

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

#[path = "../support/mod.rs"]
mod support;

mod alloc;
mod background;
mod bare;
mod builtins;
mod command;
mod fanout;
mod floor;
mod grants;
mod http;
mod no_match;
mod plugin;

use std::time::Duration;

use criterion::{criterion_group, criterion_main};
use support::quick;

/// The multi-threaded runtime the async groups fire on.
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// Applies the measurement times (short ones in quick mode) to a group; `slow`
/// groups (processes spawned, many hooks) take fewer, longer samples.
fn configure<M: criterion::measurement::Measurement>(
    group: &mut criterion::BenchmarkGroup<'_, M>,
    slow: bool,
) {
    if quick() {
        group
            .warm_up_time(Duration::from_millis(100))
            .measurement_time(Duration::from_millis(300))
            .sample_size(10);
    } else {
        group
            .warm_up_time(Duration::from_secs(2))
            .measurement_time(Duration::from_secs(if slow { 8 } else { 5 }))
            .sample_size(if slow { 40 } else { 100 });
    }
}

criterion_group!(
    benches,
    no_match::no_match,
    plugin::plugin,
    grants::grants,
    builtins::builtins,
    floor::floor,
    command::command,
    fanout::fanout,
    background::background,
    http::http
);
criterion_main!(benches);
