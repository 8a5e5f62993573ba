//! `builtins/*`: the five builtin policies (`"source": "builtin:NAME"`) on one
//! `BeforeTool` shell call, through `HookSystem::fire` with the engine warm — what
//! they cost a call in `serve` (issue 38's bar: ≤ 150 µs for the five together;
//! they share one instance of the pack) — beside one builtin, each builtin alone
//! (`alone/NAME`), and no hook at all.

use criterion::{BatchSize, Criterion};
use hookhost::HookEvent;
use serde_json::{Map, Value, json};

use crate::support::*;
use crate::{configure, runtime};

/// A harmless shell call every builtin reads and lets through.
fn shell_call() -> Map<String, Value> {
    json!({"session_id": "bench", "cwd": "/home/dev/project", "tool_name": "run_shell_command",
           "tool_input": {"command": "cargo test --workspace 2>&1 | tail -n 20"}})
    .as_object()
    .cloned()
    .unwrap()
}

pub fn builtins(c: &mut Criterion) {
    let fx = Fixture::new();
    let rt = runtime();
    let input = shell_call();
    let hook = |name: &str| json!({"type": "plugin", "source": format!("builtin:{name}")});
    let system = |file: &str, hooks: Vec<Value>| {
        let settings = fx.settings_raw(
            file,
            &json!({"tools": {"enableHooks": true},
                    "hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": hooks}]}}),
        );
        fx.system(&settings)
    };
    let five = system(
        "builtins-five.json",
        hookhost::BUILTINS.iter().map(|b| hook(b.name)).collect(),
    );
    let one = system("builtins-one.json", vec![hook("destructive")]);
    let none = system("builtins-none.json", Vec::new());
    let each: Vec<_> = hookhost::BUILTINS
        .iter()
        .map(|b| {
            (
                b.name,
                system(&format!("builtins-{}.json", b.name), vec![hook(b.name)]),
            )
        })
        .collect();
    let result = rt.block_on(five.fire(HookEvent::BeforeTool, input.clone()));
    assert_eq!(result.executions.len(), 5, "{:?}", result.errors);
    assert!(!result.is_blocked(), "{:?}", result.block_reason());
    // Fuel is counted per instance: none of its own means the five shared one.
    assert!(result.executions.iter().all(|e| e.fuel_used.is_none()));

    let mut group = c.benchmark_group(format!("builtins{}", backtrace_tag()));
    configure(&mut group, false);
    for (name, system) in [("five", &five), ("one", &one), ("none", &none)] {
        group.bench_function(name, |b| {
            b.to_async(&rt).iter_batched(
                || input.clone(),
                |input| system.fire(HookEvent::BeforeTool, input),
                BatchSize::SmallInput,
            )
        });
    }
    for (name, system) in &each {
        group.bench_function(format!("alone/{name}"), |b| {
            b.to_async(&rt).iter_batched(
                || input.clone(),
                |input| system.fire(HookEvent::BeforeTool, input),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}
