//! `background/*`: a fire whose hooks all run in the background — three `async`
//! command hooks of `sleep 1` each — timed until the fire returns (the bar:
//! ≤ 5 ms). Every fire starts three real processes, so the number of fires is
//! bounded ([`MAX_FIRES`] per sample, the time scaled to criterion's iteration
//! count) and each sample waits for its sleepers before the next one starts.

use std::time::{Duration, Instant};

use criterion::Criterion;
use hookhost::HookEvent;
use serde_json::json;

use crate::support::*;
use crate::{configure, runtime};

/// The most fires one sample really runs (each leaves three `sleep 1` behind).
const MAX_FIRES: u64 = 8;

pub fn background(c: &mut Criterion) {
    let fx = Fixture::new();
    let rt = runtime();
    // Three distinct commands: identical ones would be deduplicated to one.
    let hooks = (1..=3)
        .map(|i| json!({"type": "command", "command": format!("sleep 1 # {i}"), "async": true, "timeout": 5000}))
        .collect();
    let settings = fx.settings("async3.json", hooks, false);
    let system = fx.system(&settings);
    let input = allow_input();
    let first = rt.block_on(system.fire(HookEvent::BeforeTool, &input));
    assert_eq!(first.background.len(), 3, "{:?}", first.errors);
    hookhost::wait_for_background(Duration::from_secs(30));

    let mut group = c.benchmark_group(format!("background{}", backtrace_tag()));
    configure(&mut group, true);
    group.bench_function("fire_3_async_sleep_1s", |b| {
        b.iter_custom(|iters| {
            let fires = iters.clamp(1, MAX_FIRES);
            let start = Instant::now();
            for _ in 0..fires {
                rt.block_on(system.fire(HookEvent::BeforeTool, &input));
            }
            let took = start.elapsed();
            hookhost::wait_for_background(Duration::from_secs(30));
            took.mul_f64(iters as f64 / fires as f64)
        })
    });
    group.finish();
}
