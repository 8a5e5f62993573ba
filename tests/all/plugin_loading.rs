//! Loading plugins: what a warm start costs, and that many plugins load together.
//!
//! A big guest (CPython via componentize-py is 18 MiB, its compiled artifact
//! 53 MiB) must not be read or hashed again by every process once the compile
//! cache knows it: these tests count the bytes the loading thread reads
//! (`/proc/thread-self/io`, `rchar`) instead of timing it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use hookhost::EngineOptions;
use hookhost::internals::CacheStatus;
use hookhost::internals::Runner;
use hookhost::{HookEvent, HookSystem};
use hookhost_tests as guests;
use serde_json::{Value, json};

use crate::common::{Project, group};

/// Bytes read by this thread so far (read(2) and friends; mapped files are not
/// counted, which is the point).
fn thread_rchar() -> u64 {
    let io = std::fs::read_to_string("/proc/thread-self/io").unwrap();
    io.lines()
        .find_map(|l| l.strip_prefix("rchar: "))
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

/// `v` as an unsigned LEB128 number (the encoding of sizes in a Wasm binary).
fn leb(mut v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

/// `guest` with a custom section of `pad` bytes appended: a component as big as
/// a language runtime's, whose compiled code stays small.
fn padded(guest: &str, pad: usize, dir: &Path) -> PathBuf {
    let mut bytes = std::fs::read(guest).unwrap();
    let name = b"padding";
    let mut payload = leb(name.len() as u64);
    payload.extend_from_slice(name);
    payload.resize(payload.len() + pad, 0);
    bytes.push(0);
    bytes.extend(leb(payload.len() as u64));
    bytes.extend(payload);
    let path = dir.join("big.wasm");
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Waits until a file written now counts as settled: a file's digest is
/// remembered only once its change time is that old.
fn settle() {
    std::thread::sleep(hookhost::internals::SETTLE + Duration::from_millis(100));
}

fn build(p: &Project, settings: &Path, cache: &Path) -> HookSystem {
    HookSystem::builder()
        .project_dir(p.dir())
        .settings_files([settings])
        .engine_options(EngineOptions {
            cache_dir: Some(cache.to_path_buf()),
            ..EngineOptions::default()
        })
        .build()
}

fn statuses(system: &HookSystem) -> Vec<CacheStatus> {
    system
        .hooks(HookEvent::BeforeTool)
        .map(|hook| match &hook.runner {
            Runner::Plugin(plugin) => plugin.cache_status(),
            other => panic!("not loaded: {other:?}"),
        })
        .collect()
}

/// A warm load (the compile cache has the artifact) reads neither the `.wasm`
/// file nor the artifact: the file's digest is remembered by its identity and
/// change time, and the artifact is mapped, checked by the stamp its sidecar
/// recorded. Before: a warm load read the 16 MiB file and hashed it, then read
/// and hashed the whole artifact.
#[test]
fn a_warm_load_reads_neither_the_wasm_nor_the_artifact() {
    const PAD: usize = 16 << 20;
    let p = Project::new();
    let wasm = padded(guests::ECHO_POLICY, PAD, p.dir());
    settle();
    let settings = p.settings(json!({"BeforeTool": [group(vec![
        json!({"type": "plugin", "path": wasm}),
    ])]}));
    let cache = tempfile::tempdir().unwrap();
    assert_eq!(
        statuses(&build(&p, &settings, cache.path())),
        [CacheStatus::Miss]
    );
    let before = thread_rchar();
    let warm = build(&p, &settings, cache.path());
    let read = thread_rchar() - before;
    assert_eq!(statuses(&warm), [CacheStatus::Hit]);
    assert!(
        read < 256 * 1024,
        "a warm load read {read} bytes (the .wasm is {} bytes)",
        PAD
    );

    // A changed file is noticed (its change time moves), hashed and compiled again.
    let mut bytes = std::fs::read(&wasm).unwrap();
    let last = bytes.len() - 1;
    bytes[last] = 1;
    std::fs::write(&wasm, &bytes).unwrap();
    assert_eq!(
        statuses(&build(&p, &settings, cache.path())),
        [CacheStatus::Miss]
    );
}

/// A pin is still checked against the file's content on a warm load (the
/// remembered digest is the content's).
#[test]
fn a_warm_load_still_checks_the_pin() {
    let p = Project::new();
    let wasm = padded(guests::ECHO_POLICY, 1024, p.dir());
    settle();
    let cache = tempfile::tempdir().unwrap();
    let hook = |pin: &str| -> Value {
        json!({"BeforeTool": [group(vec![json!({"type": "plugin", "path": wasm, "sha256": pin})])]})
    };
    let digest = hex::encode(<sha2::Sha256 as sha2::Digest>::digest(
        std::fs::read(&wasm).unwrap(),
    ));
    let good = p.settings(hook(&digest));
    assert_eq!(
        statuses(&build(&p, &good, cache.path())),
        [CacheStatus::Miss]
    );
    assert_eq!(
        statuses(&build(&p, &good, cache.path())),
        [CacheStatus::Hit]
    );
    let bad = p.settings(hook(&"0".repeat(64)));
    let system = build(&p, &bad, cache.path());
    let hook = system.hooks(HookEvent::BeforeTool).next().unwrap();
    match &hook.runner {
        Runner::Broken(failure) => {
            assert!(failure.to_string().contains("sha256 mismatch"), "{failure}")
        }
        other => panic!("a wrong pin must not load: {other:?}"),
    }
}
