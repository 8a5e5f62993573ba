//! `serve memory: *` and `serve references: *`: resident memory of `hookhost serve`
//! — with 1, 10 and 100 distinct plugins loaded (cold and warm compile cache), and
//! with one `.wasm` named by 1 and by 32 hooks (compiled, mapped and
//! pre-instantiated once). Each row: start-up to the first answer, VmRSS loaded,
//! VmRSS and its anonymous part after one fire of all hooks, VmHWM.

use std::path::Path;
use std::time::Instant;

use serde_json::{Value, json};

use crate::client::{Env, request_line};
use crate::support::*;

/// `wasm` with a custom section appended: a distinct plugin (own digest, own compiled
/// code) that behaves the same.
fn distinct_copy(wasm: &[u8], n: usize) -> Vec<u8> {
    fn leb(mut v: usize, out: &mut Vec<u8>) {
        loop {
            let byte = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                out.push(byte);
                return;
            }
            out.push(byte | 0x80);
        }
    }
    let name = b"hookhost-bench";
    let payload = format!("copy {n}");
    let mut body = Vec::new();
    leb(name.len(), &mut body);
    body.extend_from_slice(name);
    body.extend_from_slice(payload.as_bytes());
    // Section id 0, a custom section (size, name, payload): ignored by every
    // engine, but part of the file's digest.
    let mut out = wasm.to_vec();
    out.push(0);
    leb(body.len(), &mut out);
    out.extend_from_slice(&body);
    out
}

/// `serve` with 1, 10 and 100 distinct plugins (1 in quick mode), each count twice
/// on the same cache dir: `cold cache` first (its new plugins compiled), then
/// `warm cache`.
pub fn memory(env: &mut Env) {
    let fx = &env.fx;
    let wasm = std::fs::read(echo_policy_wasm()).unwrap();
    let counts: &[usize] = if env.quick { &[1] } else { &[1, 10, 100] };
    let dir = fx.root().join("plugins");
    std::fs::create_dir_all(&dir).unwrap();
    for &n in counts {
        let hooks: Vec<Value> = (0..n)
            .map(|i| {
                let path = dir.join(format!("policy-{i}.wasm"));
                if !path.exists() {
                    std::fs::write(&path, distinct_copy(&wasm, i)).unwrap();
                }
                plugin_hook(&path, i)
            })
            .collect();
        let settings = fx.settings(&format!("memory-{n}.json"), hooks, false);
        let cache = fx.root().join("memory-cache");
        for phase in ["cold cache", "warm cache"] {
            let row = serve_memory(
                env,
                &format!("serve memory: {n} plugins, {phase}"),
                &settings,
                &cache,
            );
            env.results.push(row);
        }
    }
}

/// Starts `serve` with `settings`, waits for its first answer (every plugin loaded),
/// fires all hooks once, and reports start-up time and VmRSS (loaded, after the
/// fire, peak).
fn serve_memory(env: &Env, name: &str, settings: &Path, cache: &Path) -> Value {
    let start = Instant::now();
    let mut server = env.serve(settings, cache, false);
    // A request for an event without hooks: answered once every plugin is loaded.
    let answer = server.request(&request_line(0, "Notification", &json!({})));
    assert!(answer.contains("\"success\":true"), "{answer}");
    let load = start.elapsed();
    let (loaded, _, _) = server.rss_kib();
    let allow = Value::Object(allow_input());
    let answer = server
        .request(&request_line(1, "BeforeTool", &allow))
        .to_owned();
    assert!(answer.contains("\"success\":true"), "{answer}");
    let (fired, peak, anon) = server.rss_kib();
    server.close();
    println!(
        "{name:<48} load {load:.2?}  VmRSS loaded {:.1} MiB, after a fire {:.1} MiB \
         (anonymous {:.1} MiB), peak {:.1} MiB",
        loaded as f64 / 1024.0,
        fired as f64 / 1024.0,
        anon as f64 / 1024.0,
        peak as f64 / 1024.0
    );
    json!({
        "name": name, "unit": "MiB", "load_ms": load.as_secs_f64() * 1e3,
        "rss_loaded": loaded as f64 / 1024.0, "rss_after_fire": fired as f64 / 1024.0,
        "rss_anon_after_fire": anon as f64 / 1024.0,
        "rss_peak": peak as f64 / 1024.0,
    })
}

/// One `.wasm` named by 32 hooks (other `env` each, so none is deduplicated):
/// compiled, mapped and pre-instantiated once — start-up and memory barely above
/// one hook's.
pub fn references(env: &mut Env) {
    let fx = &env.fx;
    let wasm = echo_policy_wasm();
    let cache = fx.root().join("memory-cache");
    for n in [1usize, 32] {
        let hooks: Vec<Value> = (0..n).map(|i| plugin_hook(&wasm, i)).collect();
        let settings = fx.settings(&format!("references-{n}.json"), hooks, false);
        // Warm the cache.
        env.serve(&settings, &cache, false).close();
        let name = format!("serve references: one .wasm, {n} hooks");
        let row = serve_memory(env, &name, &settings, &cache);
        env.results.push(row);
    }
}
