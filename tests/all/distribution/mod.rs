//! Distributing plugins through a real OCI registry: push, lock, offline fires,
//! moved tags, a tampered store, cosign-compatible signatures, basic auth, and the
//! Wasm OCI artifact layout other clients use.
//!
//! One file per subject, the helpers they share here:
//! * `lock` — push, lock, fire offline, moved tags, a tampered store, `install`, bad
//!   `source` references;
//! * `signatures` — cosign-compatible signatures: valid, missing, the wrong key, keys
//!   from the user's settings;
//! * `registries` — basic auth through the Docker config, the Wasm OCI layout, artifacts
//!   pushed by other clients;
//! * `spellings` — one registry spelled many ways (case, trailing dot, default port,
//!   IPv4 forms) is one registry to signature prefixes, locks and approvals.

mod lock;
mod registries;
mod signatures;
mod spellings;

use std::path::PathBuf;
use std::process::Command;

use serde_json::{Value, json};

use crate::common::{Fired, Project, Run, group, run};

/// The input the echo policy blocks (a path under /etc).
fn etc_input() -> Value {
    json!({"tool_name": "read_file", "tool_input": {"path": "/etc/passwd"}})
}

fn store(p: &Project) -> PathBuf {
    p.home().join("module-store")
}

/// `hookhost ARGS…` with the project's private module store and no ambient
/// registry credentials.
fn hookhost(p: &Project, args: &[&str]) -> Run {
    run(hookhost_command(p, args), b"")
}

fn hookhost_command(p: &Project, args: &[&str]) -> Command {
    let mut command = p.command();
    command
        .args(args)
        .env("HOOKHOST_STORE_DIR", store(p))
        .env_remove("HOOKHOST_REGISTRY_TOKEN")
        .env("DOCKER_CONFIG", p.home().join("no-docker-config"));
    command
}

fn ok(run: Run) -> Run {
    assert_eq!(run.code, 0, "{run:?}");
    run
}

fn fire(p: &Project) -> Fired {
    let store = store(p);
    p.fire_with(
        "BeforeTool",
        etc_input(),
        &[],
        &[("HOOKHOST_STORE_DIR", store.to_str().unwrap())],
    )
}

fn source_hook(reference: &str) -> Value {
    json!({"type": "plugin", "source": reference})
}

fn settings_with(p: &Project, hook: Value) {
    p.settings(json!({"BeforeTool": [group(vec![hook])]}));
}

fn locked_digest(p: &Project, reference: &str) -> String {
    let lock = p.read_json(".llxprt/hookhost.lock");
    lock["modules"][reference]["digest"]
        .as_str()
        .unwrap_or_else(|| panic!("{reference} not locked: {lock}"))
        .to_owned()
}

fn digest_printed(run: &Run) -> String {
    let out = run.stdout_text();
    let at = out
        .find("@sha256:")
        .unwrap_or_else(|| panic!("no digest in {out}"));
    out[at + 1..at + 1 + 71].to_owned()
}

fn push(p: &Project, file: &str, reference: &str) -> String {
    digest_printed(&ok(hookhost(p, &["plugin", "push", file, reference])))
}

fn assert_blocked(fired: &Fired) {
    assert_eq!(fired.code, 2, "{:?} {}", fired.out, fired.stderr);
    assert_eq!(
        fired.out["finalOutput"]["decision"], "block",
        "{}",
        fired.out
    );
}

fn errors(fired: &Fired) -> String {
    fired.out["errors"].to_string()
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(bytes))
}

fn curl(args: &[&str]) -> std::process::Output {
    Command::new("curl")
        .args(["-sS", "--fail"])
        .args(args)
        .output()
        .expect("curl")
}

fn curl_json(url: &str) -> Value {
    let out = curl(&[
        "-H",
        "Accept: application/vnd.oci.image.manifest.v1+json",
        url,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("manifest JSON")
}
