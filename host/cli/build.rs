//! What `hookhost --version` says besides the version: the commit it was built
//! from and the wasmtime it embeds (read from the workspace's Cargo.lock, so the
//! answer is the version actually linked).

use std::process::Command;

fn main() {
    let commit = std::env::var("HOOKHOST_BUILD_COMMIT")
        .ok()
        .filter(|c| !c.is_empty())
        .or_else(|| {
            let out = Command::new("git")
                .args(["rev-parse", "--short=12", "HEAD"])
                .output()
                .ok()?;
            out.status
                .success()
                .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=HOOKHOST_COMMIT={commit}");
    println!("cargo:rerun-if-env-changed=HOOKHOST_BUILD_COMMIT");
    // The workspace's lock file; in a published package, the package's own.
    let lock = std::fs::read_to_string("../../Cargo.lock")
        .or_else(|_| std::fs::read_to_string("Cargo.lock"))
        .unwrap_or_default();
    let wasmtime = lock
        .split("[[package]]")
        .find(|p| p.contains("\nname = \"wasmtime\"\n"))
        .and_then(|p| p.lines().find_map(|l| l.strip_prefix("version = ")))
        .map(|v| v.trim_matches('"').to_owned())
        .unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=HOOKHOST_WASMTIME={wasmtime}");
    println!("cargo:rerun-if-changed=../../Cargo.lock");
    // A new commit changes HEAD (or the ref it points at).
    for head in ["../../.git/HEAD", "../../.git/refs/heads"] {
        if std::path::Path::new(head).exists() {
            println!("cargo:rerun-if-changed={head}");
        }
    }
}
