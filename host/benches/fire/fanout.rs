//! `fanout/*`: 1, 8 and 32 plugin hooks on one event, run in parallel
//! (`parallel/N`) and one after another (`sequential/N`); and the floor of the
//! fan-out, `wasmtime_parallel/8` and `wasmtime_sequential/8`: 8 calls of wasmtime
//! alone (`bare.rs`), spawned on the runtime or one after another.

use std::hint::black_box;
use std::sync::Arc;

use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup, Criterion};
use hookhost::HookEvent;
use tokio::runtime::Runtime;

use crate::bare::{allow_bytes, bare, command_pre, tuned_engine};
use crate::support::*;
use crate::{configure, runtime};

pub fn fanout(c: &mut Criterion) {
    let fx = Fixture::new();
    let rt = runtime();
    let wasm = echo_policy_wasm();
    let input = allow_input();
    let mut group = c.benchmark_group(format!("fanout{}", backtrace_tag()));
    configure(&mut group, true);
    for sequential in [false, true] {
        for n in [1usize, 8, 32] {
            let hooks = (0..n).map(|i| plugin_hook(&wasm, i)).collect();
            let mode = if sequential { "sequential" } else { "parallel" };
            let settings = fx.settings(&format!("fanout-{mode}-{n}.json"), hooks, sequential);
            let system = fx.system(&settings);
            let result = rt.block_on(system.fire(HookEvent::BeforeTool, input.clone()));
            assert_eq!(result.executions.len(), n);
            assert!(result.success, "{:?}", result.errors);
            group.bench_function(format!("{mode}/{n}"), |b| {
                b.to_async(&rt).iter_batched(
                    || input.clone(),
                    |input| system.fire(HookEvent::BeforeTool, input),
                    BatchSize::SmallInput,
                )
            });
        }
    }
    bench_wasmtime_floor(&mut group, &rt);
    group.finish();
}

/// The floor of the fan-out: 8 calls of wasmtime alone (hookhost's engine
/// configuration), spawned on the runtime as the scheduler spawns hooks, and one
/// after another. How far parallel hooks can scale on this machine, whatever the
/// host does around them.
fn bench_wasmtime_floor(group: &mut BenchmarkGroup<'_, WallTime>, rt: &Runtime) {
    let (engine, pre) = {
        let engine = tuned_engine(false);
        let pre = command_pre(&engine);
        (engine, pre)
    };
    let bytes = allow_bytes();
    group.bench_function("wasmtime_parallel/8", |b| {
        b.to_async(rt).iter(|| {
            let calls: Vec<_> = (0..8)
                .map(|_| tokio::spawn(bare(&engine, &pre, Arc::clone(&bytes))))
                .collect();
            async move {
                for call in calls {
                    black_box(call.await.unwrap());
                }
            }
        })
    });
    group.bench_function("wasmtime_sequential/8", |b| {
        b.to_async(rt).iter(|| {
            let (engine, pre, bytes) = (engine.clone(), pre.clone(), Arc::clone(&bytes));
            async move {
                for _ in 0..8 {
                    black_box(bare(&engine, &pre, Arc::clone(&bytes)).await);
                }
            }
        })
    });
}
