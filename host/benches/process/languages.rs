//! `language *: *`: the example policy in Python, JavaScript and Zig
//! (`examples/{python,js,zig}/policy.wasm`, built by `examples/build-languages.sh`;
//! a missing one is skipped) — per call through `serve`, and a warm whole-process
//! `hookhost fire`.

use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use crate::client::{Env, Server, request_line};
use crate::support::*;
use crate::timing::{backtrace_modes, interleaved, push_modes};

/// The example policies in other languages (`examples/build-languages.sh` builds
/// them; a missing one is skipped): per call through `serve`, and a warm
/// whole-process `hookhost fire`. In quick mode only with
/// `HOOKHOST_BENCH_LANGUAGES=1`.
pub fn languages(env: &mut Env) {
    // Compiling CPython and SpiderMonkey in a dev build takes minutes: CI's quick
    // run skips this unless asked (scripts/bench.sh asks).
    if env.quick && std::env::var_os("HOOKHOST_BENCH_LANGUAGES").is_none() {
        println!("languages: skipped in quick mode (HOOKHOST_BENCH_LANGUAGES=1 runs them)");
        return;
    }
    let (calls, fires) = if env.quick { (5, 2) } else { (300, 40) };
    for lang in ["python", "js", "zig"] {
        let wasm = repo().join("examples").join(lang).join("policy.wasm");
        if !wasm.exists() {
            println!("language {lang}: {} not built, skipped", wasm.display());
            continue;
        }
        let settings = env.fx.settings(
            &format!("language-{lang}.json"),
            vec![plugin_hook(&wasm, 0)],
            false,
        );
        let cache = env.fx.root().join("language-cache");
        fire_process(env, lang, &settings, &cache, fires);
        serve_round_trip(env, lang, &settings, &cache, calls);
    }
}

/// `language {lang}: fire process, warm cache`: `runs` whole-process fires per mode.
fn fire_process(env: &mut Env, lang: &str, settings: &Path, cache: &Path, runs: usize) {
    let allow = serde_json::to_vec(&allow_input()).unwrap();
    // Compile once, then wait until the file counts as settled so that its
    // digest is remembered (a warm start then does not read it).
    assert_eq!(env.fire_once(settings, cache, false, &allow).1, 0);
    std::thread::sleep(Duration::from_millis(2100));
    assert_eq!(env.fire_once(settings, cache, false, &allow).1, 0);
    let modes = backtrace_modes(env.quick);
    let samples = interleaved(modes.len(), runs, 1, |m, _| {
        let (elapsed, code) = env.fire_once(settings, cache, modes[m], &allow);
        assert_eq!(code, 0, "{lang}");
        elapsed
    });
    push_modes(
        &mut env.results,
        &format!("language {lang}: fire process, warm cache"),
        modes,
        samples,
    );
}

/// `language {lang}: serve round trip`: `runs` serial round trips per mode, a
/// server per mode.
fn serve_round_trip(env: &mut Env, lang: &str, settings: &Path, cache: &Path, runs: usize) {
    let modes = backtrace_modes(env.quick);
    let mut servers: Vec<Server> = modes
        .iter()
        .map(|&backtrace| env.serve(settings, cache, backtrace))
        .collect();
    let line = request_line(0, "BeforeTool", &Value::Object(allow_input()));
    for server in &mut servers {
        server.round_trips(&line, 3, 0);
    }
    let samples = interleaved(modes.len(), runs, runs / 10, |m, _| {
        servers[m].round_trips(&line, 0, 1)[0]
    });
    servers.into_iter().for_each(Server::close);
    push_modes(
        &mut env.results,
        &format!("language {lang}: serve round trip"),
        modes,
        samples,
    );
}
