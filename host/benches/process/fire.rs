//! `fire process: *`: `hookhost fire BeforeTool` as a whole process, spawn to exit —
//! no hooks, one plugin with a warm compile cache (allow and block), one `sh`
//! command hook, and one plugin with a cold cache (a fresh cache dir per run).

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::client::Env;
use crate::support::*;
use crate::timing::{backtrace_modes, interleaved, push_modes};

/// The settings files of the cases.
struct Settings {
    none: PathBuf,
    plugin: PathBuf,
    sh: PathBuf,
}

pub fn fire_process(env: &mut Env) {
    let settings = settings(&env.fx);
    let allow = serde_json::to_vec(&allow_input()).unwrap();
    let block = serde_json::to_vec(&block_input()).unwrap();
    let warm_cache = env.fx.root().join("warm-cache");
    // Warm the cache (and check the answers).
    assert_eq!(
        env.fire_once(&settings.plugin, &warm_cache, false, &allow)
            .1,
        0
    );
    assert_eq!(
        env.fire_once(&settings.plugin, &warm_cache, false, &block)
            .1,
        2
    );

    let (warm_runs, cold_runs) = if env.quick { (3, 1) } else { (100, 12) };
    let cases: [(&str, &Path, &[u8], i32); 4] = [
        ("fire process: no hooks", &settings.none, &allow, 0),
        (
            "fire process: 1 plugin, warm cache, allow",
            &settings.plugin,
            &allow,
            0,
        ),
        (
            "fire process: 1 plugin, warm cache, block",
            &settings.plugin,
            &block,
            2,
        ),
        (
            "fire process: 1 sh command hook, allow",
            &settings.sh,
            &allow,
            0,
        ),
    ];
    for case in cases {
        warm(env, case, &warm_cache, warm_runs);
    }
    cold(env, &settings.plugin, &allow, cold_runs);
}

/// No hooks, one plugin, one `sh` command hook.
fn settings(fx: &Fixture) -> Settings {
    let wasm = echo_policy_wasm();
    let none = fx.settings_raw(
        "none.json",
        &json!({"tools": {"enableHooks": true}, "hooks": {}}),
    );
    let plugin = fx.settings("process-plugin.json", vec![plugin_hook(&wasm, 0)], false);
    let sh = fx.settings(
        "process-sh.json",
        vec![command_hook(&fx.sh_policy().display().to_string())],
        false,
    );
    Settings { none, plugin, sh }
}

/// `runs` fires per mode of one case (name, settings, input, expected exit code)
/// against the warm cache.
fn warm(env: &mut Env, case: (&str, &Path, &[u8], i32), cache: &Path, runs: usize) {
    let (name, settings, input, code) = case;
    let modes = backtrace_modes(env.quick);
    let samples = interleaved(modes.len(), runs, 1, |m, _| {
        let (elapsed, got) = env.fire_once(settings, cache, modes[m], input);
        assert_eq!(got, code, "{name}");
        elapsed
    });
    push_modes(&mut env.results, name, modes, samples);
}

/// `runs` fires per mode of the plugin, each with a new, empty cache dir: the
/// compile is part of the process.
fn cold(env: &mut Env, plugin: &Path, allow: &[u8], runs: usize) {
    let modes = backtrace_modes(env.quick);
    let samples = interleaved(modes.len(), runs, 1, |m, i| {
        let cold = env.fx.root().join(format!("cold-cache-{m}-{i}"));
        let (elapsed, got) = env.fire_once(plugin, &cold, modes[m], allow);
        assert_eq!(got, 0);
        let _ = std::fs::remove_dir_all(&cold);
        elapsed
    });
    push_modes(
        &mut env.results,
        "fire process: 1 plugin, cold cache, allow",
        modes,
        samples,
    );
}
