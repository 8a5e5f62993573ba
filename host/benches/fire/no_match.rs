//! `no_match/*`: fires that run nothing — hooks disabled (`disabled`), no hook for
//! the event (`no_hook_for_event`), a matcher that misses (`matcher_miss`) — timed,
//! and their heap allocations per fire counted on the firing thread; beside them
//! `drop_input_only` (the part of a fire that is dropping the caller's input),
//! `has_hooks`, and `fire_borrowed/matcher_miss` (the fire that borrows its input).

use std::hint::black_box;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup, Criterion};
use hookhost::{AggregatedHookResult, HookEvent, HookSystem};
use serde_json::{Map, Value, json};

use crate::alloc::{local_allocs, record_alloc};
use crate::configure;
use crate::support::*;

/// Fires counted for the allocations per fire.
const FIRES: usize = 10_000;

/// A case: its name, the system, the event, the input.
type Case<'a> = (&'a str, &'a HookSystem, HookEvent, &'a Map<String, Value>);

pub fn no_match(c: &mut Criterion) {
    let fx = Fixture::new();
    let (enabled, off) = systems(&fx);
    let input = allow_input();
    let mut miss = allow_input();
    miss.insert("tool_name".into(), Value::from("read_file"));

    let cases: [Case<'_>; 3] = [
        ("disabled", &off, HookEvent::BeforeTool, &input),
        ("no_hook_for_event", &enabled, HookEvent::AfterTool, &input),
        ("matcher_miss", &enabled, HookEvent::BeforeTool, &miss),
    ];
    count_fire_allocations(&cases);
    count_has_hooks_allocations(&enabled);

    let mut group = c.benchmark_group(format!("no_match{}", backtrace_tag()));
    configure(&mut group, false);
    for (name, system, event, input) in cases {
        group.bench_function(name, |b| {
            b.iter_batched(
                || input.clone(),
                |input| fire_now(system, event, input),
                BatchSize::SmallInput,
            )
        });
    }
    bench_beside_the_fire(&mut group, &enabled, &input, &miss);
    group.finish();
}

/// One `BeforeTool` command hook for `write_file`, with hooks enabled and with
/// them disabled.
fn systems(fx: &Fixture) -> (HookSystem, HookSystem) {
    let hook = vec![command_hook("/bin/false")];
    let with_hooks = fx.settings("no-match.json", hook.clone(), false);
    let disabled = fx.settings_raw(
        "disabled.json",
        &json!({"tools": {"enableHooks": false},
                "hooks": {"BeforeTool": [{"matcher": "write_file", "hooks": hook}]}}),
    );
    (fx.system(&with_hooks), fx.system(&disabled))
}

/// Polls a fire once; a fire that plans nothing is ready at the first poll.
fn fire_now(
    system: &HookSystem,
    event: HookEvent,
    input: Map<String, Value>,
) -> AggregatedHookResult {
    let mut fire = pin!(system.fire(event, input));
    match fire.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(result) => result,
        Poll::Pending => panic!("a fire without matching hooks must complete at once"),
    }
}

/// Allocations per fire of each case, on this thread only (the fire runs here,
/// synchronously). The inputs are cloned beforehand and the results kept until
/// after the count, so that neither is counted.
fn count_fire_allocations(cases: &[Case<'_>]) {
    for &(name, system, event, input) in cases {
        let inputs: Vec<Map<String, Value>> = (0..FIRES).map(|_| input.clone()).collect();
        let mut results = Vec::with_capacity(FIRES);
        let before = local_allocs();
        for input in inputs {
            results.push(fire_now(system, event, input));
        }
        let allocs = local_allocs() - before;
        assert!(results.iter().all(|r| r.executions.is_empty()));
        let per_fire = allocs as f64 / FIRES as f64;
        println!("allocations per fire, no_match/{name}: {per_fire}");
        record_alloc(&format!("no_match/{name}{}", backtrace_tag()), per_fire);
    }
}

/// Allocations per `has_hooks` call, on this thread.
fn count_has_hooks_allocations(enabled: &HookSystem) {
    let before = local_allocs();
    for _ in 0..FIRES {
        black_box(enabled.has_hooks(HookEvent::BeforeTool, Some(black_box("read_file"))));
    }
    let per = (local_allocs() - before) as f64 / FIRES as f64;
    println!("allocations per call, has_hooks: {per}");
    record_alloc(&format!("no_match/has_hooks{}", backtrace_tag()), per);
}

/// What the fires above are compared with: dropping the input alone, `has_hooks`,
/// and the borrowing fire.
fn bench_beside_the_fire(
    group: &mut BenchmarkGroup<'_, WallTime>,
    enabled: &HookSystem,
    input: &Map<String, Value>,
    miss: &Map<String, Value>,
) {
    // The part of the above that is only dropping the caller's input map.
    group.bench_function("drop_input_only", |b| {
        b.iter_batched(|| input.clone(), drop, BatchSize::SmallInput)
    });
    group.bench_function("has_hooks", |b| {
        b.iter(|| enabled.has_hooks(HookEvent::BeforeTool, black_box(Some("read_file"))))
    });
    // The borrowing fire: no drop of the caller's input on a miss.
    group.bench_function("fire_borrowed/matcher_miss", |b| {
        b.iter(|| {
            let mut fire = pin!(enabled.fire(HookEvent::BeforeTool, black_box(miss)));
            match fire.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
                Poll::Ready(result) => result,
                Poll::Pending => panic!("a fire without matching hooks must complete at once"),
            }
        })
    });
}
