//! Engine sizing: one big plugin's `memoryLimit` does not size every pool slot, the
//! guarded layout gives way where address space is short, a failed pool is a visible
//! warning, and `memoryLimit` above 4 GiB is clamped with a warning.

use hookhost_tests as guests;
use serde_json::{Value, json};

use crate::common::{Project, cache_dir, group};

/// `hookhost fire` of two plugin hooks (one asking for `big_limit` bytes) under
/// `ulimit -v` (KiB); returns stderr and the result.
fn fire_under_ulimit(p: &Project, vm_kib: u64, big_limit: u64) -> (String, Value) {
    p.settings(json!({"BeforeTool": [group(vec![
        json!({"type": "plugin", "path": guests::ECHO_POLICY}),
        json!({"type": "plugin", "path": guests::ECHO_POLICY, "memoryLimit": big_limit, "name": "big"}),
    ])]}));
    let mut command = p.command();
    command
        .env("HOOKHOST_CACHE_DIR", cache_dir())
        .env("HOOKHOST_LOG", "hookhost=debug")
        .arg("fire")
        .arg("BeforeTool")
        .arg("--project-dir")
        .arg(p.dir());
    let mut wrapped = std::process::Command::new("/bin/sh");
    wrapped
        .arg("-c")
        .arg(format!("ulimit -v {vm_kib} && exec \"$0\" \"$@\""))
        .arg(command.get_program())
        .args(command.get_args())
        .current_dir(p.outside());
    for (k, v) in command.get_envs() {
        match v {
            Some(v) => wrapped.env(k, v),
            None => wrapped.env_remove(k),
        };
    }
    let run = crate::common::run(
        wrapped,
        br#"{"tool_name":"write_file","tool_input":{"path":"/etc/passwd"}}"#,
    );
    let out = serde_json::from_slice(&run.stdout).unwrap_or_else(|e| {
        panic!("no JSON result ({e}): {}", run.stderr);
    });
    (run.stderr, out)
}

/// Issue 14, seen 5: the largest `memoryLimit` of any plugin sized every pool slot
/// (one 4 GiB plugin: 64 memories × 4 GiB of address space), and when the pooled
/// engine could not be built the error was dropped. Now a pool memory holds at
/// most 256 MiB — the big plugin runs on an on-demand engine —, its 4 GiB guarded
/// layout gives way to a checked one where the address space is short, and a
/// failed pool is a visible warning.
#[test]
fn one_big_plugin_does_not_size_the_pool_and_a_fallback_is_visible() {
    const GIB: u64 = 1024 * 1024 * 1024;
    let p = Project::new();
    let fallback = "the pooling allocator is unavailable";
    let checked = "no address space for guarded memories";
    // Unconstrained (well, 1 TiB), the pool's memories are guarded: 4 GiB each.
    let (stderr, out) = fire_under_ulimit(&p, 1024 * 1024 * 1024, 4 * GIB);
    assert!(
        !stderr.contains(fallback) && !stderr.contains(checked),
        "{stderr}"
    );
    assert_eq!(out["finalOutput"]["decision"], "block", "{out}");
    // 8 GiB of address space hold a pool of 256 MiB memories with bounds checks,
    // not the guarded one (2 slots × 2 memories × 4 GiB): a trace, no warning.
    let (stderr, out) = fire_under_ulimit(&p, 8 * 1024 * 1024, 4 * GIB);
    assert!(
        !stderr.contains(fallback) && stderr.contains(checked),
        "{stderr}"
    );
    assert_eq!(out["errors"], json!([]), "{out}");
    assert_eq!(out["hooks"].as_array().unwrap().len(), 2, "{out}");
    assert_eq!(out["finalOutput"]["decision"], "block", "{out}");
    // 1 GiB holds no pool at all (`fire` sizes it to its 2 plugin hooks, whose
    // memories alone reserve 2 × 2 × 256 MiB): on-demand, said out loud, and the
    // hooks still run.
    let (stderr, out) = fire_under_ulimit(&p, 1024 * 1024, 4 * GIB);
    assert!(stderr.contains(fallback), "{stderr}");
    assert_eq!(out["finalOutput"]["decision"], "block", "{out}");
}

/// `memoryLimit` above 4 GiB is clamped with a warning naming file, hook and field.
#[test]
fn a_memory_limit_above_four_gib_is_clamped_with_a_warning() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![
        json!({"type": "plugin", "path": guests::ECHO_POLICY, "memoryLimit": 1u64 << 40}),
    ])]}));
    let run = p.check(&[]);
    let stderr = format!("{}{}", run.stderr, run.stdout_text());
    assert!(
        stderr.contains(
            "hooks.BeforeTool[0].hooks[0].memoryLimit: 1099511627776 bytes is more than the maximum of 4294967296 (4 GiB); clamped to it"
        ),
        "{stderr}"
    );
}
