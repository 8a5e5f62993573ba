//! `grants/*`: what the issue-30 capabilities cost.
//!
//! - `grants/none` and `grants/granted_unused`: the echo-policy plugin through
//!   `HookSystem::fire`, without grants and with `allowedHosts` and `state`
//!   granted but never used (bar: within 10 %);
//! - `grants/kv_set` and `grants/kv_baseline`: the capabilities fixture opening
//!   its store and setting one small value, next to the same fixture doing no
//!   store call (`log 0`): the difference is what one `set` costs in a fire;
//! - `grants/store_get_set`: one `get` and one `set` of a 16-byte value on an open
//!   [`hookhost::StateStore`] — what a plugin's call costs in `serve`, where the
//!   store stays open (bar: ≤ 50 µs).

use criterion::{BatchSize, Criterion};
use hookhost::HookEvent;
use serde_json::{Value, json};

use crate::support::*;
use crate::{configure, runtime};

fn granted(mut hook: Value) -> Value {
    hook["allowedHosts"] = json!(["api.example.com", "127.0.0.1:8080"]);
    hook["state"] = json!(true);
    hook
}

pub fn grants(c: &mut Criterion) {
    let fx = Fixture::new();
    let state_dir = fx.root().join("state");
    let rt = runtime();
    let allow = allow_input();
    let plain = fx.system(&fx.settings(
        "none.json",
        vec![plugin_hook(&echo_policy_wasm(), 0)],
        false,
    ));
    let with_grants = fx.system(&fx.settings(
        "granted.json",
        vec![granted(plugin_hook(&echo_policy_wasm(), 0))],
        false,
    ));
    let capabilities = |name: &str, args: Value| {
        let hook = json!({"type": "plugin", "path": hookhost_tests::CAPABILITIES,
                          "args": args, "state": true});
        let settings = fx.settings(name, vec![hook], false);
        let options = hookhost::EngineOptions {
            cache_dir: Some(fx.cache_dir()),
            state_dir: Some(state_dir.clone()),
            ..hookhost::EngineOptions::default()
        };
        let system = fx.builder(&settings).engine_options(options).build();
        assert!(system.report().diagnostics().iter().all(|d| !d.is_error()));
        system
    };
    let kv_set = capabilities(
        "kv-set.json",
        json!(["kv-set", "", "count", "0123456789abcdef"]),
    );
    let kv_baseline = capabilities("kv-none.json", json!(["log", "0"]));
    let said = |system: &hookhost::HookSystem| {
        let result = rt.block_on(system.fire(HookEvent::BeforeTool, allow.clone()));
        result
            .final_output
            .system_message
            .clone()
            .unwrap_or_default()
    };
    assert_eq!(said(&kv_set), "ok");
    assert_eq!(said(&kv_baseline), "logged=0");

    let mut group = c.benchmark_group(format!("grants{}", backtrace_tag()));
    configure(&mut group, false);
    for (name, system) in [
        ("none", &plain),
        ("granted_unused", &with_grants),
        ("kv_baseline", &kv_baseline),
        ("kv_set", &kv_set),
    ] {
        group.bench_function(name, |b| {
            b.to_async(&rt).iter_batched(
                || allow.clone(),
                |input| system.fire(HookEvent::BeforeTool, input),
                BatchSize::SmallInput,
            )
        });
    }
    let store =
        hookhost::StateStore::open(&state_dir.join("bench.sqlite"), 1 << 20, "bench").unwrap();
    group.bench_function("store_get_set", |b| {
        b.iter(|| {
            let old = store.get("", "count").unwrap();
            store.set("", "count", b"0123456789abcdef").unwrap();
            old
        })
    });
    group.finish();
}
