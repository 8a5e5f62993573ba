//! `floor/*`: what a plugin fire is made of. `plugin_run` is the hook's own
//! `Plugin::run` (fresh store and instance, the call, the teardown — no planning,
//! serialising, interpreting or aggregating); `wasmtime`, `wasmtime_checked` and
//! `wasmtime_defaults` run the same `.wasm` on wasmtime and wasmtime-wasi alone
//! (`bare.rs`) under hookhost's engine configuration, the same with memories laid
//! out for bounds checks (the `ulimit -v` fallback), and wasmtime's pooling
//! defaults with fuel and epochs. Also prints the compiled size of the policy under
//! each memory layout.

use std::sync::Arc;
use std::time::Duration;

use criterion::Criterion;
use hookhost::HookEvent;
use hookhost::internals::Plugin;
use hookhost::internals::{RunContext, Runner};

use crate::bare::{CommandPre, allow_bytes, bare, command_pre, defaults_engine, tuned_engine};
use crate::support::*;
use crate::{configure, runtime};

pub fn floor(c: &mut Criterion) {
    let rt = runtime();
    let input = allow_bytes();
    let fx = Fixture::new();
    let plugin = hook_plugin(&fx);
    let ctx = RunContext::new(fx.project(), 1024 * 1024);
    let engines = Engines::new();
    engines.print_compiled_sizes();
    // Sanity: every way of running the policy answers.
    for (engine, pre) in engines.all() {
        let answer = rt.block_on(bare(engine, pre, Arc::clone(&input)));
        assert!(answer.starts_with(b"{"), "{answer:?}");
    }
    let outcome = rt.block_on(plugin.run(Arc::clone(&input), Duration::from_secs(5), &ctx));
    assert!(
        outcome.stdout.bytes.starts_with(b"{"),
        "{:?}",
        outcome.status
    );

    let mut group = c.benchmark_group(format!("floor{}", backtrace_tag()));
    configure(&mut group, false);
    group.bench_function("plugin_run", |b| {
        b.to_async(&rt)
            .iter(|| plugin.run(Arc::clone(&input), Duration::from_secs(5), &ctx))
    });
    let names = ["wasmtime", "wasmtime_checked", "wasmtime_defaults"];
    for (name, (engine, pre)) in names.into_iter().zip(engines.all()) {
        group.bench_function(name, |b| {
            b.to_async(&rt)
                .iter(|| bare(engine, pre, Arc::clone(&input)))
        });
    }
    group.finish();
}

/// The `Plugin` of the only hook of a one-plugin settings file, as the system
/// loaded it.
fn hook_plugin(fx: &Fixture) -> Arc<Plugin> {
    let settings = fx.settings(
        "floor.json",
        vec![plugin_hook(&echo_policy_wasm(), 0)],
        false,
    );
    let system = fx.system(&settings);
    system
        .hooks(HookEvent::BeforeTool)
        .find_map(|hook| match &hook.runner {
            Runner::Plugin(plugin) => Some(Arc::clone(plugin)),
            _ => None,
        })
        .expect("the plugin hook")
}

/// wasmtime alone, a fresh store and instance per call: with hookhost's engine
/// configuration (pool sized and tuned, fuel, epochs), memories guarded and
/// checked, and with wasmtime's pooling defaults plus fuel and epochs.
struct Engines {
    tuned: wasmtime::Engine,
    checked: wasmtime::Engine,
    defaults: wasmtime::Engine,
    tuned_pre: CommandPre,
    checked_pre: CommandPre,
    defaults_pre: CommandPre,
}

impl Engines {
    fn new() -> Engines {
        let tuned = tuned_engine(false);
        let checked = tuned_engine(true);
        let defaults = defaults_engine();
        let (tuned_pre, checked_pre, defaults_pre) = (
            command_pre(&tuned),
            command_pre(&checked),
            command_pre(&defaults),
        );
        Engines {
            tuned,
            checked,
            defaults,
            tuned_pre,
            checked_pre,
            defaults_pre,
        }
    }

    /// Tuned, checked, defaults: the order of the `floor/wasmtime*` rows.
    fn all(&self) -> [(&wasmtime::Engine, &CommandPre); 3] {
        [
            (&self.tuned, &self.tuned_pre),
            (&self.checked, &self.checked_pre),
            (&self.defaults, &self.defaults_pre),
        ]
    }

    /// What the memory layout does to the compiled code (docs/PERFORMANCE.md).
    fn print_compiled_sizes(&self) {
        let wasm = std::fs::read(echo_policy_wasm()).unwrap();
        for (layout, engine) in [("guarded", &self.tuned), ("checked", &self.checked)] {
            let compiled = engine.precompile_component(&wasm).unwrap();
            println!(
                "echo-policy compiled, memories {layout}: {} bytes",
                compiled.len()
            );
        }
    }
}
