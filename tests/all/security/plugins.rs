//! Attacks through plugins: an unapproved project plugin is never loaded, a cache
//! others can write (or reached through a link) is not used, a plugin cannot hold more
//! handles than its budget, and neither a repository symlink under a preopen nor a
//! guest can plant a way out.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use hookhost_tests as guests;
use serde_json::json;

use super::{fire_cached, tool_call, write_user_settings};
use crate::common::{Project, cache_dir};

// --- 2. An unapproved project plugin breaks the user's plugins -----------------

#[test]
fn an_unapproved_project_plugin_is_never_loaded_and_never_sizes_the_engine() {
    let p = Project::new();
    let user_policy = p.home().join("policy.wasm");
    std::fs::copy(guests::ECHO_POLICY, &user_policy).unwrap();
    write_user_settings(
        &p,
        &json!({"tools": {"enableHooks": true, "requireHookTrust": true},
                "hooks": {"BeforeTool": [{"hooks": [
                    {"type": "plugin", "path": user_policy}]}]}}),
    );
    std::fs::copy(guests::ADVERSARY, p.path("evil.wasm")).unwrap();
    p.settings_raw(&json!({"hooks": {"AfterTool": [{"hooks": [
        {"type": "plugin", "path": "evil.wasm", "memoryLimit": 18446744073709551615u64}]}]}}));
    let cache = tempfile::tempdir().unwrap();
    let fired = p.fire_with(
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {"path": "/etc/shadow"}}),
        &[],
        &[("HOOKHOST_CACHE_DIR", cache.path().to_str().unwrap())],
    );
    assert_eq!(fired.code, 2, "the user's guard must block: {fired:#?}");
    assert!(fired.errors().is_empty(), "{fired:#?}");
    // Never compiled, so never cached.
    let evil = hex_digest(guests::ADVERSARY);
    let cached: Vec<String> = std::fs::read_dir(cache.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!cached.is_empty(), "the user's plugin is cached");
    assert!(
        cached.iter().all(|name| !name.starts_with(&evil)),
        "an unapproved plugin was compiled: {cached:?}"
    );
}

fn hex_digest(path: &str) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(std::fs::read(path).unwrap()))
}

// --- 4. Compile-cache poisoning --------------------------------------------------

#[test]
fn a_cache_others_can_write_is_not_used() {
    // Another user planted the compiled adversary under the guard's digest (with a
    // matching checksum) in a world-writable cache directory.
    let shared = tempfile::tempdir().unwrap();
    let dir = shared.path().join("cache");
    let p = Project::new();
    for wasm in [guests::ADVERSARY, guests::ECHO_POLICY] {
        std::fs::copy(wasm, p.path("policy.wasm")).unwrap();
        p.settings(json!({"BeforeTool": [{"hooks": [{"type": "plugin", "path": "policy.wasm"}]}]}));
        p.fire_with(
            "BeforeTool",
            tool_call(),
            &[],
            &[("HOOKHOST_CACHE_DIR", dir.to_str().unwrap())],
        );
    }
    let artifact = |digest: &str| {
        std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|path| {
                let name = path.file_name().unwrap().to_string_lossy();
                name.starts_with(digest) && name.ends_with(".cwasm")
            })
            .unwrap_or_else(|| panic!("no artifact for {digest} in {}", dir.display()))
    };
    let guard = artifact(&hex_digest(guests::ECHO_POLICY));
    let evil = artifact(&hex_digest(guests::ADVERSARY));
    std::fs::copy(&evil, &guard).unwrap();
    let sidecar = |p: &Path| PathBuf::from(format!("{}.sha256", p.display()));
    std::fs::copy(sidecar(&evil), sidecar(&guard)).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();

    let fired = p.fire_with(
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {"path": "/etc/x"}}),
        &[],
        &[("HOOKHOST_CACHE_DIR", dir.to_str().unwrap())],
    );
    assert_eq!(
        fired.code, 2,
        "the planted artifact ran instead of the guard: {fired:#?}"
    );
    assert!(fired.stderr.contains("not used"), "{}", fired.stderr);

    // A cache reached through a symbolic link is refused too.
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    let link = shared.path().join("link");
    std::os::unix::fs::symlink(&dir, &link).unwrap();
    let fired = p.fire_with(
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {"path": "/etc/x"}}),
        &[],
        &[("HOOKHOST_CACHE_DIR", link.to_str().unwrap())],
    );
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert!(fired.stderr.contains("symbolic link"), "{}", fired.stderr);
}

// --- 6. A plugin exhausts the host's descriptors --------------------------------

#[test]
fn a_plugin_cannot_hold_more_than_its_handle_budget() {
    let p = Project::new();
    p.write("data/file.txt", "x");
    std::fs::copy(guests::ADVERSARY, p.path("policy.wasm")).unwrap();
    p.settings(
        json!({"BeforeTool": [{"hooks": [{"type": "plugin", "path": "policy.wasm",
        "args": ["openmany"], "preopens": [{"host": "data", "guest": "/data"}]}]}]}),
    );
    let fired = fire_cached(
        &p,
        "BeforeTool",
        json!({"tool_name": "x", "tool_input": {"path": "/data/file.txt"}}),
    );
    let message = fired.final_output()["systemMessage"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let errors = fired.errors().join("\n");
    // Either the guest saw its opens refused, or it trapped at the budget.
    let opened: Option<usize> = message
        .strip_prefix("opened ")
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.parse().ok());
    match opened {
        Some(n) => assert!(n <= 512, "{n} handles held at once: {message}"),
        None => assert!(errors.contains("plugin"), "{fired:#?}"),
    }
}

// --- 10. Preopen through a symlink --------------------------------------------------

#[test]
fn a_preopen_through_a_repository_symlink_is_refused() {
    let p = Project::new();
    std::os::unix::fs::symlink("/", p.path("docs")).unwrap();
    let policy = p.home().join("policy.wasm");
    std::fs::copy(guests::ADVERSARY, &policy).unwrap();
    let settings = p.extra_settings(
        "user.json",
        json!({"BeforeTool": [{"hooks": [{"type": "plugin", "path": policy, "args": ["readfile"],
            "preopens": [{"host": "$LLXPRT_PROJECT_DIR/docs", "guest": "/docs"}]}]}]}),
    );
    let fired = p.fire_with(
        "BeforeTool",
        json!({"tool_name": "x", "tool_input": {"path": "/docs/etc/hostname"}}),
        &[&settings],
        &[("HOOKHOST_CACHE_DIR", &cache_dir())],
    );
    let message = fired.final_output()["systemMessage"].to_string();
    assert!(
        !message.contains("read ok"),
        "read through the link: {message}"
    );
    assert!(
        fired.errors().iter().any(|e| e.contains("symbolic link")),
        "{fired:#?}"
    );
}

// --- 12. Symlinks planted by a guest ----------------------------------------------

#[test]
fn a_guest_cannot_create_symbolic_links() {
    for wasm in [guests::ADVERSARY, guests::ADVERSARY_P1] {
        let p = Project::new();
        std::fs::create_dir_all(p.path("out/a/b")).unwrap();
        std::fs::copy(wasm, p.path("policy.wasm")).unwrap();
        p.settings(json!({"BeforeTool": [{"hooks": [{"type": "plugin", "path": "policy.wasm",
            "args": ["symlink"], "preopens": [{"host": "out", "guest": "/out", "writable": true}]}]}]}));
        let fired = fire_cached(
            &p,
            "BeforeTool",
            json!({"tool_name": "x", "tool_input": {"path": "/out/a/b/rel-link", "content": "../../../../../../etc/passwd"}}),
        );
        let message = fired.final_output()["systemMessage"].to_string();
        assert!(message.contains("symlink error"), "{wasm}: {fired:#?}");
        assert!(std::fs::symlink_metadata(p.path("out/a/b/rel-link")).is_err());
    }
}
