//! `command/*`: the policy as a command hook (`native` binary, `sh`, `python3`)
//! through `HookSystem::fire` — `hook/*` with no reaper running (the shell gets the
//! parent-death signal, whose `pre_exec` makes std `fork`), `hook_reaper/*` with the
//! reaper running (as under `hookhost serve`: `posix_spawn`) — next to `spawn/*`, a
//! bare spawn-and-wait of the same command line: what any host must do.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup, Criterion};
use hookhost::{HookEvent, HookSystem};
use serde_json::{Map, Value};
use tokio::runtime::Runtime;

use crate::support::*;
use crate::{configure, runtime};

pub fn command(c: &mut Criterion) {
    let fx = Fixture::new();
    let rt = runtime();
    let policies = policies(&fx);
    // The input as a hook receives it (base fields completed by the host).
    let input = allow_input();
    let wire = serde_json::to_vec(&input).unwrap();

    let mut group = c.benchmark_group(format!("command{}", backtrace_tag()));
    configure(&mut group, true);
    let mut systems = Vec::new();
    for (name, command) in &policies {
        let system = checked_system(&fx, &rt, name, command);
        bench_fire(&mut group, &rt, &system, &input, format!("hook/{name}"));
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
    hookhost::start_reaper().unwrap();
    for (name, system) in &systems {
        bench_fire(
            &mut group,
            &rt,
            system,
            &input,
            format!("hook_reaper/{name}"),
        );
    }
    group.finish();
}

/// The policy's command lines: the native binary, the `sh` script, and the Python
/// script when `python3` can be run.
fn policies(fx: &Fixture) -> Vec<(&'static str, String)> {
    let mut policies = vec![
        ("native", native_policy().display().to_string()),
        ("sh", fx.sh_policy().display().to_string()),
    ];
    if have_python3() {
        policies.push(("python3", fx.python_policy().display().to_string()));
    } else {
        println!("python3 not found: skipping command/python3");
    }
    policies
}

/// A system with `command` as its one `BeforeTool` hook, checked to allow the
/// allow input and block the block input.
fn checked_system(fx: &Fixture, rt: &Runtime, name: &str, command: &str) -> HookSystem {
    let settings = fx.settings(
        &format!("cmd-{name}.json"),
        vec![command_hook(command)],
        false,
    );
    let system = fx.system(&settings);
    let result = rt.block_on(system.fire(HookEvent::BeforeTool, allow_input()));
    assert!(
        result.success && !result.is_blocked(),
        "{name}: {:?}",
        result.errors
    );
    let blocked = rt.block_on(system.fire(HookEvent::BeforeTool, block_input()));
    assert!(blocked.is_blocked(), "{name} must block /etc");
    system
}

/// Benchmarks `id`: a `BeforeTool` fire of `system` with `input` (cloned outside
/// the timing, moved into the fire).
fn bench_fire(
    group: &mut BenchmarkGroup<'_, WallTime>,
    rt: &Runtime,
    system: &HookSystem,
    input: &Map<String, Value>,
    id: String,
) {
    group.bench_function(id, |b| {
        b.to_async(rt).iter_batched(
            || input.clone(),
            |input| system.fire(HookEvent::BeforeTool, input),
            BatchSize::SmallInput,
        )
    });
}

/// Spawns `/bin/sh -c command` exactly as a command hook is started (cwd, pipes),
/// writes the input, reads stdout and stderr, waits: what any host must do.
fn bare_spawn(command: &str, cwd: &Path, input: &[u8]) -> Output {
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
