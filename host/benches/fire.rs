//! In-process benchmarks of `HookSystem::fire` (criterion).
//!
//! - `no_match/*`: hooks disabled, no hook for the event, a matcher that misses —
//!   time per fire, and heap allocations per fire counted by the counting global
//!   allocator below (printed, and written to `target/bench-results/alloc.json`);
//! - `plugin/*`: one echo-policy plugin hook, allow and block paths;
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
//!   on the runtime or one after another — the floor of the fan-out.
//!
//! Group names get `+backtrace` when `RUST_BACKTRACE`/`RUST_LIB_BACKTRACE` is on, so
//! `scripts/bench.sh` can keep both runs. Quick mode for CI:
//! `cargo bench -p hookhost --bench fire -- --quick`.

#![allow(unsafe_code, clippy::unwrap_used, clippy::expect_used, missing_docs)]

#[path = "support/mod.rs"]
mod support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;
use std::io::Write;
use std::pin::pin;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use hookhost::{AggregatedHookResult, HookEvent, HookSystem};
use serde_json::{Map, Value, json};
use support::*;

// ---- counting allocator -------------------------------------------------------------

/// Counts allocations (alloc, alloc_zeroed, realloc) per thread, and in total while
/// [`TotalCount`] is alive.
struct Counting;

static TOTAL: AtomicU64 = AtomicU64::new(0);
// The whole-process count is one cache line written by every thread: on for the
// allocation measurement only, or it would bounce between the cores on every
// allocation and slow every parallel benchmark (the fan-out lost ~25 % to it).
static COUNT_TOTAL: AtomicBool = AtomicBool::new(false);
thread_local! {
    static LOCAL: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    if COUNT_TOTAL.load(Ordering::Relaxed) {
        TOTAL.fetch_add(1, Ordering::Relaxed);
    }
    let _ = LOCAL.try_with(|c| c.set(c.get() + 1));
}

/// Counts every thread's allocations while alive.
struct TotalCount;

impl TotalCount {
    fn start() -> TotalCount {
        COUNT_TOTAL.store(true, Ordering::SeqCst);
        TotalCount
    }

    fn now(&self) -> u64 {
        TOTAL.load(Ordering::SeqCst)
    }
}

impl Drop for TotalCount {
    fn drop(&mut self) {
        COUNT_TOTAL.store(false, Ordering::SeqCst);
    }
}

// SAFETY: every call is forwarded unchanged to the system allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn local_allocs() -> u64 {
    LOCAL.with(Cell::get)
}

// ---- helpers ------------------------------------------------------------------------

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

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// Applies the measurement times (short ones in quick mode) to a group.
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

/// Merges `key: value` into `target/bench-results/alloc.json`.
fn record_alloc(key: &str, value: f64) {
    let path = results_dir().join("alloc.json");
    let mut counts = std::fs::read(&path)
        .ok()
        .and_then(|t| serde_json::from_slice::<Map<String, Value>>(&t).ok())
        .unwrap_or_default();
    counts.insert(key.to_owned(), json!(value));
    let _ = std::fs::write(&path, serde_json::to_vec_pretty(&counts).unwrap());
}

fn results_dir() -> std::path::PathBuf {
    let dir = repo().join("target/bench-results");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

// ---- no match -------------------------------------------------------------------------

fn no_match(c: &mut Criterion) {
    let fx = Fixture::new();
    let hook = vec![command_hook("/bin/false")];
    let with_hooks = fx.settings("no-match.json", hook.clone(), false);
    let disabled = fx.settings_raw(
        "disabled.json",
        &json!({"tools": {"enableHooks": false},
                "hooks": {"BeforeTool": [{"matcher": "write_file", "hooks": hook}]}}),
    );
    let enabled = fx.system(&with_hooks);
    let off = fx.system(&disabled);
    let input = allow_input();
    let mut miss = allow_input();
    miss.insert("tool_name".into(), Value::from("read_file"));

    let cases: [(&str, &HookSystem, HookEvent, &Map<String, Value>); 3] = [
        ("disabled", &off, HookEvent::BeforeTool, &input),
        ("no_hook_for_event", &enabled, HookEvent::AfterTool, &input),
        ("matcher_miss", &enabled, HookEvent::BeforeTool, &miss),
    ];

    // Allocations per fire, on this thread only (the fire runs here, synchronously).
    const FIRES: usize = 10_000;
    for (name, system, event, input) in cases {
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
    {
        let before = local_allocs();
        for _ in 0..FIRES {
            black_box(enabled.has_hooks(HookEvent::BeforeTool, Some(black_box("read_file"))));
        }
        let per = (local_allocs() - before) as f64 / FIRES as f64;
        println!("allocations per call, has_hooks: {per}");
        record_alloc(&format!("no_match/has_hooks{}", backtrace_tag()), per);
    }

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
            let mut fire = pin!(enabled.fire(HookEvent::BeforeTool, black_box(&miss)));
            match fire.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
                Poll::Ready(result) => result,
                Poll::Pending => panic!("a fire without matching hooks must complete at once"),
            }
        })
    });
    group.finish();
}

// ---- one plugin ----------------------------------------------------------------------------

fn plugin(c: &mut Criterion) {
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

    // Allocations per plugin fire (whole process: wasmtime and tokio included).
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

// ---- the floor under a plugin fire ----------------------------------------------------------

/// Store data of the bare-wasmtime floor.
struct FloorState {
    wasi: wasmtime_wasi::WasiCtx,
    table: wasmtime::component::ResourceTable,
}

impl wasmtime_wasi::WasiView for FloorState {
    fn ctx(&mut self) -> wasmtime_wasi::WasiCtxView<'_> {
        wasmtime_wasi::WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

/// A wasmtime engine with hookhost's configuration (pool sized and tuned, fuel,
/// epochs), memories laid out guarded (hookhost's default) or `checked`, without
/// hookhost around it.
fn tuned_engine(checked: bool) -> wasmtime::Engine {
    use hookhost::runner::wasm::runtime::{
        DEFAULT_SLOTS, MemoryLayout, pool_memory_size, wasmtime_config,
    };
    let options = hookhost::runner::wasm::EngineOptions::default();
    let memory = pool_memory_size(options.max_memory);
    let layout = if checked {
        MemoryLayout::Checked(memory)
    } else {
        MemoryLayout::Guarded
    };
    wasmtime::Engine::new(&wasmtime_config(layout, memory, Some(DEFAULT_SLOTS))).unwrap()
}

/// The echo-policy pre-instantiated against wasmtime-wasi's own linker.
fn command_pre(engine: &wasmtime::Engine) -> wasmtime_wasi::p2::bindings::CommandPre<FloorState> {
    use wasmtime::component::{Component, Linker};
    let component = Component::from_file(engine, echo_policy_wasm()).unwrap();
    let mut linker = Linker::<FloorState>::new(engine);
    wasmtime_wasi::p2::add_to_linker_async(&mut linker).unwrap();
    wasmtime_wasi::p2::bindings::CommandPre::new(linker.instantiate_pre(&component).unwrap())
        .unwrap()
}

/// One call by wasmtime and wasmtime-wasi alone: a fresh store and instance,
/// in-memory stdin and stdout; the answer.
fn bare(
    engine: &wasmtime::Engine,
    pre: &wasmtime_wasi::p2::bindings::CommandPre<FloorState>,
    input: std::sync::Arc<[u8]>,
) -> impl Future<Output = bytes::Bytes> + Send + 'static {
    use wasmtime_wasi::p2::pipe::{MemoryInputPipe, MemoryOutputPipe};
    let (engine, pre) = (engine.clone(), pre.clone());
    async move {
        let stdout = MemoryOutputPipe::new(1024 * 1024);
        let wasi = wasmtime_wasi::WasiCtxBuilder::new()
            .stdin(MemoryInputPipe::new(bytes::Bytes::from_owner(input)))
            .stdout(stdout.clone())
            .build();
        let mut store = wasmtime::Store::new(
            &engine,
            FloorState {
                wasi,
                table: wasmtime::component::ResourceTable::new(),
            },
        );
        store.set_fuel(u64::MAX / 2).unwrap();
        store.set_epoch_deadline(1_000_000);
        let command = pre.instantiate_async(&mut store).await.unwrap();
        // The guest ends with `exit(0)`, an error to the caller; its answer is
        // what it wrote.
        let _ = command.wasi_cli_run().call_run(&mut store).await;
        stdout.contents()
    }
}

/// The BeforeTool allow input as the hook reads it.
fn allow_bytes() -> std::sync::Arc<[u8]> {
    serde_json::to_vec(&{
        let mut input = allow_input();
        input.insert("hook_event_name".into(), json!("BeforeTool"));
        input
    })
    .unwrap()
    .into()
}

fn floor(c: &mut Criterion) {
    use hookhost::runner::{RunContext, Runner};
    use std::sync::Arc;
    use wasmtime::{Config, Engine, InstanceAllocationStrategy, PoolingAllocationConfig};

    let rt = runtime();
    let input = allow_bytes();

    // The hook's own `Plugin::run`.
    let fx = Fixture::new();
    let settings = fx.settings(
        "floor.json",
        vec![plugin_hook(&echo_policy_wasm(), 0)],
        false,
    );
    let system = fx.system(&settings);
    let plugin = system
        .hooks(HookEvent::BeforeTool)
        .find_map(|hook| match &hook.runner {
            Runner::Plugin(plugin) => Some(Arc::clone(plugin)),
            _ => None,
        })
        .expect("the plugin hook");
    let ctx = RunContext::new(fx.project(), 1024 * 1024);

    // wasmtime alone, a fresh store and instance per call: with hookhost's engine
    // configuration (pool sized and tuned, fuel, epochs), and with wasmtime's pooling
    // defaults plus fuel and epochs.
    let tuned = tuned_engine(false);
    let checked = tuned_engine(true);
    let defaults = {
        let mut config = Config::new();
        config
            .consume_fuel(true)
            .epoch_interruption(true)
            .allocation_strategy(InstanceAllocationStrategy::Pooling(
                PoolingAllocationConfig::new(),
            ));
        Engine::new(&config).unwrap()
    };
    let (tuned_pre, checked_pre, defaults_pre) = (
        command_pre(&tuned),
        command_pre(&checked),
        command_pre(&defaults),
    );
    // What the memory layout does to the compiled code (docs/PERFORMANCE.md).
    let wasm = std::fs::read(echo_policy_wasm()).unwrap();
    for (layout, engine) in [("guarded", &tuned), ("checked", &checked)] {
        let compiled = engine.precompile_component(&wasm).unwrap();
        println!(
            "echo-policy compiled, memories {layout}: {} bytes",
            compiled.len()
        );
    }
    for (engine, pre) in [
        (&tuned, &tuned_pre),
        (&checked, &checked_pre),
        (&defaults, &defaults_pre),
    ] {
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
    group.bench_function("wasmtime", |b| {
        b.to_async(&rt)
            .iter(|| bare(&tuned, &tuned_pre, Arc::clone(&input)))
    });
    group.bench_function("wasmtime_checked", |b| {
        b.to_async(&rt)
            .iter(|| bare(&checked, &checked_pre, Arc::clone(&input)))
    });
    group.bench_function("wasmtime_defaults", |b| {
        b.to_async(&rt)
            .iter(|| bare(&defaults, &defaults_pre, Arc::clone(&input)))
    });
    group.finish();
}

// ---- command hooks and bare spawns -----------------------------------------------------------

/// Spawns `/bin/sh -c command` exactly as a command hook is started (cwd, pipes),
/// writes the input, reads stdout and stderr, waits: what any host must do.
fn bare_spawn(command: &str, cwd: &std::path::Path, input: &[u8]) -> std::process::Output {
    let mut child = Command::new("/bin/sh")
        .arg("-c")
        .arg(command)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().unwrap()
}

fn command(c: &mut Criterion) {
    let fx = Fixture::new();
    let rt = runtime();
    let mut policies: Vec<(&str, String)> = vec![
        ("native", native_policy().display().to_string()),
        ("sh", fx.sh_policy().display().to_string()),
    ];
    if have_python3() {
        policies.push(("python3", fx.python_policy().display().to_string()));
    } else {
        println!("python3 not found: skipping command/python3");
    }
    // The input as a hook receives it (base fields completed by the host).
    let input = allow_input();
    let wire = serde_json::to_vec(&input).unwrap();

    let mut group = c.benchmark_group(format!("command{}", backtrace_tag()));
    configure(&mut group, true);
    let mut systems = Vec::new();
    for (name, command) in &policies {
        let settings = fx.settings(
            &format!("cmd-{name}.json"),
            vec![command_hook(command)],
            false,
        );
        let system = fx.system(&settings);
        let result = rt.block_on(system.fire(HookEvent::BeforeTool, input.clone()));
        assert!(
            result.success && !result.is_blocked(),
            "{name}: {:?}",
            result.errors
        );
        let blocked = rt.block_on(system.fire(HookEvent::BeforeTool, block_input()));
        assert!(blocked.is_blocked(), "{name} must block /etc");

        group.bench_function(format!("hook/{name}"), |b| {
            b.to_async(&rt).iter_batched(
                || input.clone(),
                |input| system.fire(HookEvent::BeforeTool, input),
                BatchSize::SmallInput,
            )
        });
        let project = fx.project();
        let out = bare_spawn(command, &project, &wire);
        assert!(out.status.success(), "{name}: bare spawn failed");
        group.bench_function(format!("spawn/{name}"), |b| {
            b.iter(|| bare_spawn(command, &project, &wire))
        });
        systems.push((name, system));
    }
    // As under `hookhost serve`: with the reaper running, a hook's shell is spawned
    // without the parent-death `pre_exec`, so by posix_spawn instead of fork. The
    // reaper stays on for the rest of this process (the groups after this one run
    // no command hooks).
    hookhost::runner::reaper::start().unwrap();
    for (name, system) in &systems {
        group.bench_function(format!("hook_reaper/{name}"), |b| {
            b.to_async(&rt).iter_batched(
                || input.clone(),
                |input| system.fire(HookEvent::BeforeTool, input),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

// ---- fan-out -------------------------------------------------------------------------------

fn fanout(c: &mut Criterion) {
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
    // The floor of the fan-out: 8 calls of wasmtime alone (hookhost's engine
    // configuration), spawned on the runtime as the scheduler spawns hooks, and one
    // after another. How far parallel hooks can scale on this machine, whatever the
    // host does around them.
    let (engine, pre) = {
        let engine = tuned_engine(false);
        let pre = command_pre(&engine);
        (engine, pre)
    };
    let bytes = allow_bytes();
    group.bench_function("wasmtime_parallel/8", |b| {
        b.to_async(&rt).iter(|| {
            let calls: Vec<_> = (0..8)
                .map(|_| tokio::spawn(bare(&engine, &pre, std::sync::Arc::clone(&bytes))))
                .collect();
            async move {
                for call in calls {
                    black_box(call.await.unwrap());
                }
            }
        })
    });
    group.bench_function("wasmtime_sequential/8", |b| {
        b.to_async(&rt).iter(|| {
            let (engine, pre, bytes) = (engine.clone(), pre.clone(), std::sync::Arc::clone(&bytes));
            async move {
                for _ in 0..8 {
                    black_box(bare(&engine, &pre, std::sync::Arc::clone(&bytes)).await);
                }
            }
        })
    });
    group.finish();
}

criterion_group!(benches, no_match, plugin, floor, command, fanout);
criterion_main!(benches);
