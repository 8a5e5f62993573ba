//! Plugin files: a sha256 pin is checked, missing, non-Wasm, truncated and directory
//! paths fail with their cause, relative paths resolve against the project, and the
//! compile cache hits, misses and replaces a corrupt artifact.

use std::path::Path;

use hookhost_tests as guests;
use serde_json::json;

use super::{before_tool, errors, fire, plugin, with};
use crate::common::{Project, cmd, group};

#[test]
fn sha256_pin_is_checked() {
    let digest = sha256_hex(Path::new(guests::ECHO_POLICY));
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![
        with(plugin(guests::ECHO_POLICY), json!({"sha256": digest})),
    ])]}));
    assert_eq!(
        fire(&p, "BeforeTool", before_tool(json!({"path": "/etc/x"}))).code,
        2
    );

    let wrong = "0".repeat(64);
    p.settings(json!({"BeforeTool": [group(vec![
        with(plugin(guests::ECHO_POLICY), json!({"sha256": wrong})),
        cmd("echo still-runs"),
    ])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({"path": "/etc/x"})));
    assert_eq!(
        fired.code, 0,
        "a mismatched plugin must not run: {}",
        fired.out
    );
    assert!(
        errors(&fired).contains("sha256 mismatch"),
        "{}",
        errors(&fired)
    );
    assert!(errors(&fired).contains(&digest), "{}", errors(&fired));
    assert_eq!(fired.out["finalOutput"]["systemMessage"], "still-runs");
}

fn sha256_hex(path: &Path) -> String {
    let out = std::process::Command::new("sha256sum")
        .arg(path)
        .output()
        .unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned()
}

#[test]
fn missing_non_wasm_and_directory_paths_fail_with_their_cause() {
    let p = Project::new();
    p.write("not-wasm.wasm", "#!/bin/sh\necho hi\n");
    p.write(
        "truncated.wasm",
        &std::fs::read(guests::ECHO_POLICY).unwrap()[..1000],
    );
    std::fs::create_dir_all(p.path("dir.wasm")).unwrap();
    for (path, cause) in [
        ("missing.wasm", "cannot read"),
        ("not-wasm.wasm", "not a WebAssembly component or module"),
        ("truncated.wasm", "invalid component"),
        ("dir.wasm", "not a regular file"),
    ] {
        p.settings(json!({"BeforeTool": [group(vec![plugin(path), cmd("echo ok")])]}));
        let fired = fire(&p, "BeforeTool", before_tool(json!({})));
        assert_eq!(fired.code, 0, "{path}");
        assert!(errors(&fired).contains(cause), "{path}: {}", errors(&fired));
        assert!(errors(&fired).contains(path), "{path}: {}", errors(&fired));
        assert_eq!(fired.out["finalOutput"]["systemMessage"], "ok", "{path}");
        let check = p.check(&[]);
        assert_eq!(check.code, 1, "{path}: check must fail");
        assert!(check.stderr.contains(cause), "{path}: {}", check.stderr);
    }
}

#[test]
fn relative_plugin_paths_resolve_against_the_project() {
    let p = Project::new();
    std::fs::copy(guests::ECHO_POLICY, p.path("policy.wasm")).unwrap();
    p.settings(json!({"BeforeTool": [group(vec![plugin("policy.wasm")])]}));
    assert_eq!(
        fire(&p, "BeforeTool", before_tool(json!({"path": "/etc/x"}))).code,
        2
    );
}

/// The compile cache: a miss stores an artifact, a hit loads it, a corrupted
/// artifact is detected and replaced.
#[tokio::test]
async fn compile_cache_hit_miss_and_corrupt() {
    use hookhost::EngineOptions;
    use hookhost::internals::CacheStatus;
    use hookhost::internals::Runner;
    use hookhost::{HookEvent, HookSystem};

    let p = Project::new();
    let settings = p.settings(json!({"BeforeTool": [group(vec![plugin(guests::ECHO_POLICY)])]}));
    let cache = tempfile::tempdir().unwrap();
    let build = || {
        HookSystem::builder()
            .project_dir(p.dir())
            .settings_files([&settings])
            .engine_options(EngineOptions {
                cache_dir: Some(cache.path().to_path_buf()),
                ..EngineOptions::default()
            })
            .build()
    };
    let status =
        |system: &HookSystem| match &system.hooks(HookEvent::BeforeTool).next().unwrap().runner {
            Runner::Plugin(plugin) => plugin.cache_status(),
            other => panic!("not loaded: {other:?}"),
        };
    assert_eq!(status(&build()), CacheStatus::Miss);
    assert_eq!(status(&build()), CacheStatus::Hit);
    let artifact = std::fs::read_dir(cache.path())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| path.extension().is_some_and(|e| e == "cwasm"))
        .unwrap();
    let mut bytes = std::fs::read(&artifact).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(&artifact, &bytes).unwrap();
    let system = build();
    assert_eq!(status(&system), CacheStatus::Corrupt);
    let input = before_tool(json!({"path": "/etc/x"}))
        .as_object()
        .cloned()
        .unwrap();
    assert!(system.fire(HookEvent::BeforeTool, input).await.is_blocked());
    assert_eq!(
        status(&build()),
        CacheStatus::Hit,
        "the corrupt artifact was replaced"
    );
    std::fs::write(&artifact, b"garbage").unwrap();
    assert_eq!(status(&build()), CacheStatus::Corrupt);
}
