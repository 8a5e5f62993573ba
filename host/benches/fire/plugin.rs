//! `plugin/*`: one echo-policy plugin hook through `HookSystem::fire`, the allow and
//! the block path; and the heap allocations of an allow fire in the whole process
//! (wasmtime and tokio included).

use std::hint::black_box;

use criterion::{BatchSize, Criterion};
use hookhost::{HookEvent, HookSystem};
use serde_json::{Map, Value};

use crate::alloc::{TotalCount, record_alloc};
use crate::support::*;
use crate::{configure, runtime};

pub fn plugin(c: &mut Criterion) {
    let fx = Fixture::new();
    let settings = fx.settings(
        "plugin.json",
        vec![plugin_hook(&echo_policy_wasm(), 0)],
        false,
    );
    let system = fx.system(&settings);
    let rt = runtime();
    let (allow, block) = (allow_input(), block_input());
    // Sanity: the policy answers as expected.
    assert!(
        !rt.block_on(system.fire(HookEvent::BeforeTool, allow.clone()))
            .is_blocked()
    );
    assert!(
        rt.block_on(system.fire(HookEvent::BeforeTool, block.clone()))
            .is_blocked()
    );
    println!("input: {} bytes", input_len());
    count_allocations(&rt, &system, &allow);

    let mut group = c.benchmark_group(format!("plugin{}", backtrace_tag()));
    configure(&mut group, false);
    for (name, input) in [("allow", &allow), ("block", &block)] {
        group.bench_function(name, |b| {
            b.to_async(&rt).iter_batched(
                || input.clone(),
                |input| system.fire(HookEvent::BeforeTool, input),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

/// Allocations per plugin fire (whole process: the fire runs on the runtime's
/// threads, with wasmtime and tokio; the input clone included).
fn count_allocations(
    rt: &tokio::runtime::Runtime,
    system: &HookSystem,
    allow: &Map<String, Value>,
) {
    let fires = if quick() { 50 } else { 1000 };
    let total = TotalCount::start();
    let before = total.now();
    for _ in 0..fires {
        black_box(rt.block_on(system.fire(HookEvent::BeforeTool, allow.clone())));
    }
    let per_fire = (total.now() - before) as f64 / fires as f64;
    drop(total);
    println!("allocations per fire, plugin/allow (incl. input clone): {per_fire:.0}");
    record_alloc(&format!("plugin/allow{}", backtrace_tag()), per_fire);
}
