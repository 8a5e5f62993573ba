//! Fixtures shared by the benches: a throw-away project, the policy in every form
//! (the `echo-policy` Wasm guest, the same crate built natively, a `sh` script, a
//! Python script), settings files, the ~300-byte `BeforeTool` inputs, and the
//! directory the benches write their results to. Both benches include this file
//! (`#[path]`), so the fixtures are the same in each.
//!
//! Every form implements the same policy: `tool_input.path` starting with `/etc`
//! blocks (exit 2, `{"decision":"block","reason":…}` on stdout); anything else
//! allows (`{}` on stdout, exit 0).

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use hookhost::EngineOptions;
use hookhost::{HookSystem, HookSystemBuilder};
use serde_json::{Map, Value, json};
use tempfile::TempDir;

/// The ~300-byte `BeforeTool` input that the policy allows.
pub fn allow_input() -> Map<String, Value> {
    input("/home/dev/project/src/server/handlers/session.rs")
}

/// The same input with a path the policy blocks.
pub fn block_input() -> Map<String, Value> {
    input("/etc/ssh/sshd_config.d/50-cloud-init.conf.bak.2024")
}

fn input(path: &str) -> Map<String, Value> {
    let value = json!({
        "session_id": "bench-session-6f1c2a",
        "transcript_path": "/home/dev/.llxprt/tmp/transcripts/6f1c2a.jsonl",
        "cwd": "/home/dev/project",
        "tool_name": "write_file",
        "tool_input": {
            "path": path,
            "content": "pub fn handle(req: Request) -> Response {\n    Response::ok(req.body())\n}\n",
        },
    });
    let Value::Object(map) = value else {
        unreachable!()
    };
    map
}

/// The size of the allow input as JSON.
pub fn input_len() -> usize {
    serde_json::to_vec(&allow_input()).unwrap().len()
}

/// The repository root (the benchmarks belong to `host/cli`).
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `target/bench-results`, created if missing: where both benches write the JSON
/// that scripts/bench-report.py reads (`alloc.json`, `process.json`).
pub fn results_dir() -> PathBuf {
    let dir = repo().join("target/bench-results");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Whether `--quick` or a short measurement was asked for (the CI regression guard).
pub fn quick() -> bool {
    std::env::args().any(|a| a == "--quick") || std::env::var_os("HOOKHOST_BENCH_QUICK").is_some()
}

/// Whether Rust backtraces are on for this process (anyhow/wasmtime errors capture one
/// when they are).
pub fn backtrace_on() -> bool {
    let on = |k| std::env::var(k).is_ok_and(|v| v != "0");
    on("RUST_LIB_BACKTRACE")
        || (std::env::var_os("RUST_LIB_BACKTRACE").is_none() && on("RUST_BACKTRACE"))
}

/// `" RUST_BACKTRACE=1"` when backtraces are on, so both runs keep their own results.
pub fn backtrace_tag() -> &'static str {
    if backtrace_on() { "+backtrace" } else { "" }
}

/// A temporary project holding the policy scripts, settings and a compile cache.
pub struct Fixture {
    root: TempDir,
}

impl Fixture {
    /// A new fixture.
    pub fn new() -> Fixture {
        let root = tempfile::Builder::new()
            .prefix("hookhost-bench-")
            .tempdir()
            .unwrap();
        let fixture = Fixture { root };
        std::fs::create_dir_all(fixture.project()).unwrap();
        std::fs::create_dir_all(fixture.cache_dir()).unwrap();
        fixture
    }

    /// The root of the fixture.
    pub fn root(&self) -> &Path {
        self.root.path()
    }

    /// The project dir.
    pub fn project(&self) -> PathBuf {
        self.root().join("project")
    }

    /// The compile cache of the fixture (so benches never touch `~/.cache`).
    pub fn cache_dir(&self) -> PathBuf {
        self.root().join("cache")
    }

    /// Writes an executable file and returns its path.
    pub fn executable(&self, name: &str, text: &str) -> PathBuf {
        let path = self.root().join(name);
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    /// The policy as a POSIX `sh` script (builtins only: no `cat`, no `grep`).
    pub fn sh_policy(&self) -> PathBuf {
        self.executable("policy.sh", SH_POLICY)
    }

    /// The policy as a Python 3 script, with the real interpreter in its shebang (a
    /// pyenv shim would add a bash script and a second exec to every run).
    pub fn python_policy(&self) -> PathBuf {
        let python = python3();
        self.executable(
            "policy.py",
            &format!("#!{}\n{PYTHON_POLICY}", python.display()),
        )
    }

    /// Writes a settings file with hooks enabled and `hooks` for `BeforeTool`.
    pub fn settings(&self, name: &str, hooks: Vec<Value>, sequential: bool) -> PathBuf {
        let settings = json!({
            "tools": {"enableHooks": true},
            "hooks": {"BeforeTool": [{"matcher": "write_file", "sequential": sequential, "hooks": hooks}]},
        });
        self.settings_raw(name, &settings)
    }

    /// Writes a settings file as given.
    pub fn settings_raw(&self, name: &str, settings: &Value) -> PathBuf {
        let path = self.root().join(name);
        std::fs::write(&path, serde_json::to_vec_pretty(settings).unwrap()).unwrap();
        path
    }

    /// A builder for `settings`, in the fixture's project, with the fixture's cache.
    pub fn builder(&self, settings: &Path) -> HookSystemBuilder {
        let options = EngineOptions {
            cache_dir: Some(self.cache_dir()),
            ..EngineOptions::default()
        };
        HookSystem::builder()
            .project_dir(self.project())
            .settings_files([settings])
            .session_id("bench")
            .engine_options(options)
    }

    /// Builds a system and checks that it loaded cleanly.
    pub fn system(&self, settings: &Path) -> HookSystem {
        let system = self.builder(settings).build();
        assert!(
            system.report().diagnostics().iter().all(|d| !d.is_error()),
            "{:?}",
            system.report().diagnostics()
        );
        system
    }
}

/// A plugin hook running the echo-policy guest; `n` makes otherwise equal hooks
/// distinct (they would be deduplicated).
pub fn plugin_hook(path: &Path, n: usize) -> Value {
    json!({"type": "plugin", "name": format!("echo-policy-{n}"), "path": path, "args": [format!("--n={n}")]})
}

/// A command hook.
pub fn command_hook(command: &str) -> Value {
    json!({"type": "command", "command": command})
}

/// The `echo-policy` guest (a WASI 0.2 component built from tests/guests).
pub fn echo_policy_wasm() -> PathBuf {
    PathBuf::from(hookhost_tests::ECHO_POLICY)
}

/// `echo-policy` built for this machine (the same source as the Wasm guest, through
/// the guest SDK's native target). `HOOKHOST_BENCH_NATIVE_POLICY` names a prebuilt
/// binary; otherwise it is built once into `target/bench-native`.
pub fn native_policy() -> PathBuf {
    if let Some(path) = std::env::var_os("HOOKHOST_BENCH_NATIVE_POLICY") {
        return PathBuf::from(path);
    }
    let target_dir = repo().join("target/bench-native");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--release", "--quiet", "-p", "echo-policy"])
        .arg("--manifest-path")
        .arg(repo().join("tests/guests/Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .status()
        .expect("run cargo to build the native echo-policy");
    assert!(status.success(), "building the native echo-policy failed");
    target_dir.join("release/echo-policy")
}

/// The real `python3` executable (not a shim).
pub fn python3() -> PathBuf {
    let out = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .expect("python3 is needed for the Python command-hook bench");
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

/// Whether `python3` can be run.
pub fn have_python3() -> bool {
    Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

const SH_POLICY: &str = r#"#!/bin/sh
IFS= read -r input || true
case "$input" in
  *'"path":"/etc'*)
    printf '{"decision":"block","reason":"policy: writing under /etc is prohibited"}\n'
    exit 2 ;;
esac
printf '{}\n'
"#;

const PYTHON_POLICY: &str = r#"import json, sys
event = json.load(sys.stdin)
path = (event.get("tool_input") or {}).get("path") or ""
if path.startswith("/etc"):
    print(json.dumps({"decision": "block", "reason": f"policy: writing to {path} is prohibited"}))
    sys.exit(2)
print("{}")
"#;
