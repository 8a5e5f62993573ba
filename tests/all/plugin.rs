//! Plugin hooks: real wasmtime, guests built from source (`hookhost_tests`).
//!
//! Every CLI run shares one compile cache (under the target dir) so each guest is
//! compiled once per test run, not once per test.

use std::path::Path;
use std::time::Duration;

use hookhost_tests as guests;
use serde_json::{Value, json};

use crate::common::{Fired, Project, cmd, group};

fn cache_dir() -> String {
    format!("{}/plugin-cache", env!("CARGO_TARGET_TMPDIR"))
}

fn plugin(path: &str) -> Value {
    json!({"type": "plugin", "path": path})
}

fn adversary(mode: &str) -> Value {
    json!({"type": "plugin", "path": guests::ADVERSARY, "args": [mode]})
}

fn with(mut hook: Value, extra: Value) -> Value {
    for (k, v) in extra.as_object().unwrap() {
        hook[k] = v.clone();
    }
    hook
}

fn fire(project: &Project, event: &str, input: Value) -> Fired {
    let cache = cache_dir();
    project.fire_with(event, input, &[], &[("HOOKHOST_CACHE_DIR", &cache)])
}

fn before_tool(tool_input: Value) -> Value {
    json!({"tool_name": "write_file", "tool_input": tool_input})
}

fn errors(fired: &Fired) -> String {
    fired.out["errors"].to_string()
}

#[test]
fn component_blocks_with_exit_2_and_allows_otherwise() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![plugin(guests::ECHO_POLICY)])]}));
    let blocked = fire(
        &p,
        "BeforeTool",
        before_tool(json!({"path": "/etc/passwd"})),
    );
    assert_eq!(blocked.code, 2, "{}", blocked.out);
    assert_eq!(blocked.out["finalOutput"]["decision"], "block");
    assert_eq!(
        blocked.out["finalOutput"]["reason"],
        "echo-policy: writing to /etc/passwd is prohibited"
    );
    assert_eq!(blocked.out["hooks"][0]["exitCode"], 2);
    // A plugin's exit 2 means what a process's does: a block, `success: false`.
    assert_eq!(blocked.out["success"], false);
    assert_eq!(blocked.out["hooks"][0]["blocked"], true);
    assert_eq!(blocked.out["errors"], json!([]));
    let allowed = fire(&p, "BeforeTool", before_tool(json!({"path": "/home/x"})));
    assert_eq!(allowed.code, 0, "{}", allowed.out);
    assert_eq!(allowed.out["hooks"][0]["exitCode"], 0);
    assert_eq!(allowed.out["errors"], json!([]));
}

#[test]
fn preview1_module_has_the_same_semantics() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![plugin(guests::ECHO_POLICY_P1)])]}));
    let blocked = fire(
        &p,
        "BeforeTool",
        before_tool(json!({"path": "/etc/shadow"})),
    );
    assert_eq!(blocked.code, 2, "{}", blocked.out);
    assert_eq!(
        blocked.out["finalOutput"]["reason"],
        "echo-policy: writing to /etc/shadow is prohibited"
    );
    let allowed = fire(&p, "BeforeTool", before_tool(json!({"path": "ok.txt"})));
    assert_eq!(allowed.code, 0);
}

/// The same policy written as a shell hook and as a plugin gives identical results.
#[test]
fn shell_and_plugin_versions_of_a_policy_agree() {
    let shell = Project::new();
    let script = shell.script(
        "echo-policy.sh",
        r#"python3 -c '
import json, sys
ti = json.load(sys.stdin).get("tool_input") or {}
path = ti.get("path") or ""
if path.startswith("/etc"):
    print(json.dumps({"decision": "block", "reason": "echo-policy: writing to %s is prohibited" % path}))
    sys.exit(2)
if ti.get("rewrite"):
    ti["rewritten"] = True
    print(json.dumps({"hookSpecificOutput": {"tool_input": ti, "hookEventName": "BeforeTool"}}))
else:
    print("{}")
'"#,
    );
    shell.settings(json!({"BeforeTool": [group(vec![cmd(&script)])]}));
    let wasm = Project::new();
    wasm.settings(json!({"BeforeTool": [group(vec![plugin(guests::ECHO_POLICY)])]}));
    let cases = [
        json!({"path": "/etc/hosts"}),
        json!({"path": "/tmp/x"}),
        json!({"path": "src/main.rs", "rewrite": true}),
        json!({}),
    ];
    for tool_input in cases {
        let a = fire(&shell, "BeforeTool", before_tool(tool_input.clone()));
        let b = fire(&wasm, "BeforeTool", before_tool(tool_input.clone()));
        assert_eq!(a.code, b.code, "exit code for {tool_input}");
        assert_eq!(
            a.out["finalOutput"], b.out["finalOutput"],
            "finalOutput for {tool_input}"
        );
        assert_eq!(a.out["success"], b.out["success"]);
    }
}

#[test]
fn mixed_command_and_plugin_hooks_or_aggregate() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![
        cmd(r#"echo '{"decision":"allow","systemMessage":"shell says hi"}'"#),
        plugin(guests::ECHO_POLICY),
    ])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({"path": "/etc/x"})));
    assert_eq!(fired.code, 2);
    assert_eq!(fired.out["finalOutput"]["decision"], "block");
    assert_eq!(fired.out["finalOutput"]["systemMessage"], "shell says hi");
    assert_eq!(fired.out["allOutputs"].as_array().unwrap().len(), 2);
    assert_eq!(fired.out["hooks"][1]["type"], "plugin");
}

#[test]
fn sequential_chain_crosses_hook_types() {
    let p = Project::new();
    let recorder = p.script("record.sh", "cat > \"$LLXPRT_PROJECT_DIR/seen.json\"");
    p.settings(json!({"BeforeTool": [{"sequential": true, "hooks": [
        plugin(guests::ECHO_POLICY),
        cmd(&recorder),
        with(plugin(guests::ECHO_POLICY), json!({"env": {"ECHO_INPUT": "1"}})),
    ]}]}));
    let fired = fire(
        &p,
        "BeforeTool",
        before_tool(json!({"path": "a.txt", "rewrite": true})),
    );
    assert_eq!(fired.code, 0, "{}", fired.out);
    let seen = p.read_json("seen.json");
    assert_eq!(
        seen["tool_input"],
        json!({"path": "a.txt", "rewrite": true, "rewritten": true})
    );
    assert_eq!(
        fired.out["finalOutput"]["hookSpecificOutput"]["tool_input"]["rewritten"],
        true
    );
    // The third hook (a plugin) received the chained input too.
    let message = fired.out["finalOutput"]["systemMessage"].as_str().unwrap();
    assert!(message.contains(r#""rewritten":true"#), "{message}");
}

#[test]
fn a_blocking_plugin_stops_the_chain() {
    let p = Project::new();
    let marker = p.script("marker.sh", "touch \"$LLXPRT_PROJECT_DIR/ran\"");
    p.settings(json!({"BeforeTool": [{"sequential": true, "hooks": [
        plugin(guests::ECHO_POLICY), cmd(&marker)]}]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({"path": "/etc/x"})));
    assert_eq!(fired.code, 2);
    assert!(!p.exists("ran"), "the hook after the block must not run");
}

#[test]
fn identical_plugins_are_deduplicated_but_other_settings_are_not() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![
        plugin(guests::ECHO_POLICY),
        plugin(guests::ECHO_POLICY),
        with(plugin(guests::ECHO_POLICY), json!({"fuel": 123_456_789})),
    ])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert_eq!(
        fired.out["hooks"].as_array().unwrap().len(),
        2,
        "{}",
        fired.out
    );
}

#[test]
fn exhausted_fuel_fails_open_naming_the_limit() {
    let p = Project::new();
    p.settings(
        json!({"BeforeTool": [group(vec![with(adversary("spin"), json!({"fuel": 50_000_000}))])]}),
    );
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert_eq!(fired.code, 0);
    assert_eq!(fired.out["success"], false);
    assert!(
        errors(&fired).contains("ran out of fuel (limit 50000000 units)"),
        "{}",
        errors(&fired)
    );
}

#[test]
fn enough_fuel_is_obeyed() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![with(plugin(guests::ECHO_POLICY), json!({"fuel": 50_000_000}))])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({"path": "/etc/a"})));
    assert_eq!(fired.code, 2, "{}", fired.out);
}

#[test]
fn deadline_stops_a_spinning_guest() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![with(adversary("spin"),
        json!({"fuel": 1_000_000_000_000_000u64, "timeout": 500}))])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert_eq!(fired.code, 0);
    assert!(
        errors(&fired).contains("timed out after 500 ms"),
        "{}",
        errors(&fired)
    );
    let hook_ms = fired.out["hooks"][0]["duration"].as_f64().unwrap();
    assert!(
        (500.0..3000.0).contains(&hook_ms),
        "the hook ran {hook_ms} ms"
    );
}

#[test]
fn deadline_stops_a_guest_sleeping_in_a_host_call() {
    let p = Project::new();
    p.settings(
        json!({"BeforeTool": [group(vec![with(adversary("sleep"), json!({"timeout": 500}))])]}),
    );
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert!(
        errors(&fired).contains("timed out after 500 ms"),
        "{}",
        errors(&fired)
    );
    let hook_ms = fired.out["hooks"][0]["duration"].as_f64().unwrap();
    assert!(
        (500.0..3000.0).contains(&hook_ms),
        "the hook ran {hook_ms} ms"
    );
    assert!(
        fired.elapsed < Duration::from_secs(30),
        "a 60 s sleep was not interrupted"
    );
}

#[test]
fn memory_limit_refuses_growth_and_names_the_limit() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![with(adversary("membomb"), json!({"memoryLimit": 16_777_216}))])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert_eq!(fired.code, 0);
    assert!(
        errors(&fired).contains("exceeded its memory limit of 16777216 bytes"),
        "{}",
        errors(&fired)
    );
}

#[test]
fn a_memory_limit_too_small_to_start_fails_open() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![with(plugin(guests::ECHO_POLICY), json!({"memoryLimit": 65536}))])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({"path": "/etc/x"})));
    assert_eq!(
        fired.code, 0,
        "a plugin that cannot start must not block: {}",
        fired.out
    );
    assert_eq!(fired.out["success"], false);
}

#[test]
fn traps_fail_open_with_the_cause() {
    for (mode, expected) in [("trap", "trapped"), ("stackoverflow", "trapped")] {
        let p = Project::new();
        p.settings(json!({"BeforeTool": [group(vec![adversary(mode)])]}));
        let fired = fire(&p, "BeforeTool", before_tool(json!({})));
        assert_eq!(fired.code, 0, "{mode}");
        assert_eq!(fired.out["success"], false, "{mode}");
        assert!(
            errors(&fired).contains(expected),
            "{mode}: {}",
            errors(&fired)
        );
    }
}

#[test]
fn ten_mebibytes_of_stdout_are_captured() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![adversary("bigout")])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert_eq!(fired.code, 0);
    let message = fired.out["finalOutput"]["systemMessage"].as_str().unwrap();
    assert_eq!(message.len(), 10 * 1024 * 1024);
}

#[test]
fn exit_codes_mean_what_a_process_exit_means() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![adversary("exit1")])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert_eq!(fired.code, 0);
    assert!(
        errors(&fired).contains("exited with code 1"),
        "{}",
        errors(&fired)
    );

    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![adversary("exit2-stderr")])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert_eq!(fired.code, 2);
    assert_eq!(
        fired.out["finalOutput"]["reason"],
        "adversary: blocked via stderr"
    );

    // Rust's std::process::exit(2) on wasm32-wasip2 arrives as 1: fail-open.
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![adversary("exit2-std")])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert_eq!(fired.code, 0);
    assert_eq!(fired.out["hooks"][0]["exitCode"], 1);
}

#[test]
fn failure_policy_block_turns_a_limit_into_a_block() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![with(adversary("spin"),
        json!({"fuel": 10_000_000, "failurePolicy": "block"}))])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert_eq!(fired.code, 2, "{}", fired.out);
    let reason = fired.out["finalOutput"]["reason"].as_str().unwrap();
    assert!(
        reason.contains("ran out of fuel (limit 10000000 units)"),
        "{reason}"
    );
}

#[test]
fn guest_sees_no_host_files_without_preopens() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![adversary("readfile")])]}));
    let fired = fire(
        &p,
        "BeforeTool",
        before_tool(json!({"path": "/etc/passwd"})),
    );
    let message = fired.out["finalOutput"]["systemMessage"].as_str().unwrap();
    assert!(message.starts_with("read error"), "{message}");
}

fn sandbox_project(writable: bool) -> Project {
    let p = Project::new();
    p.write("inside.txt", "inside");
    std::fs::write(p.outside().join("secret.txt"), "outside secret").unwrap();
    std::os::unix::fs::symlink(p.outside().join("secret.txt"), p.path("link-out")).unwrap();
    p.settings(
        json!({"BeforeTool": [group(vec![with(adversary("readfile"), json!({
            "preopens": [{"host": "$LLXPRT_PROJECT_DIR", "guest": "/project", "writable": writable}]
        }))])]}),
    );
    p
}

fn guest_message(p: &Project, mode: &str, tool_input: Value) -> String {
    // Override the mode through tool_input (args name `readfile`, but `mode` in
    // tool_input is only used when no arg names a mode), so rewrite the settings.
    let settings = p.read_json(".llxprt/settings.json");
    let mut settings = settings;
    settings["hooks"]["BeforeTool"][0]["hooks"][0]["args"] = json!([mode]);
    p.settings_raw(&settings);
    let fired = fire(p, "BeforeTool", before_tool(tool_input));
    fired.out["finalOutput"]["systemMessage"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn preopens_are_read_only_unless_writable() {
    let p = sandbox_project(false);
    assert_eq!(
        guest_message(&p, "readfile", json!({"path": "/project/inside.txt"})),
        "read ok: inside"
    );
    let write = guest_message(&p, "writefile", json!({"path": "/project/new.txt"}));
    assert!(write.starts_with("write error"), "{write}");
    assert!(!p.exists("new.txt"));

    let p = sandbox_project(true);
    let write = guest_message(&p, "writefile", json!({"path": "/project/new.txt"}));
    assert_eq!(write, "write ok");
    assert_eq!(p.read("new.txt"), "written by adversary");
}

#[test]
fn dot_dot_and_symlinks_cannot_leave_a_preopen() {
    let p = sandbox_project(true);
    let outside_name = p
        .outside()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    for path in [
        "/project/../secret.txt".to_owned(),
        format!("/project/../../{outside_name}/secret.txt"),
        "/project/link-out".to_owned(),
        "/etc/passwd".to_owned(),
    ] {
        let message = guest_message(&p, "readfile", json!({"path": path}));
        assert!(message.starts_with("read error"), "{path}: {message}");
        assert!(!message.contains("outside secret"), "{path}: {message}");
    }
    let write = guest_message(&p, "writefile", json!({"path": "/project/../escaped.txt"}));
    assert!(write.starts_with("write error"), "{write}");
    assert!(!p.outside().join("escaped.txt").exists());
}

#[test]
fn guest_sees_only_granted_environment_and_args() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![with(adversary("env"), json!({"env": {"MODE": "strict"}}))])]}));
    let cache = cache_dir();
    let fired = p.fire_with(
        "BeforeTool",
        before_tool(json!({})),
        &[],
        &[
            ("HOOKHOST_CACHE_DIR", &cache),
            ("HOST_SECRET_TOKEN", "hunter2"),
        ],
    );
    let message = fired.out["finalOutput"]["systemMessage"].as_str().unwrap();
    let names: Vec<&str> = message
        .lines()
        .map(|l| l.split('=').next().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "CLAUDE_PROJECT_DIR",
            "GEMINI_PROJECT_DIR",
            "LLXPRT_PROJECT_DIR",
            "MODE"
        ]
    );
    assert!(message.contains(&format!("LLXPRT_PROJECT_DIR={}", p.dir().display())));
    assert!(!message.contains("hunter2"));

    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![with(adversary("args"), json!({"args": ["args", "--strict"]}))])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert_eq!(
        fired.out["finalOutput"]["systemMessage"],
        r#"["adversary.wasm","args","--strict"]"#
    );
}

/// wasi:sockets is linked in deny-all mode: the component loads (with a warning in
/// `check`), and every connection attempt fails inside the guest.
#[test]
fn sockets_are_denied() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![plugin(guests::SOCKETS)])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({"addr": addr})));
    let message = fired.out["finalOutput"]["systemMessage"].as_str().unwrap();
    assert!(message.starts_with("connect error"), "{message}");
    listener.set_nonblocking(true).unwrap();
    assert!(
        listener.accept().is_err(),
        "the guest reached the host's listener"
    );
    let check = p.check(&[]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert!(check.stderr.contains("wasi:sockets/"), "{}", check.stderr);
    assert!(check.stderr.contains("denies"), "{}", check.stderr);
}

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

#[test]
fn check_lists_plugin_limits() {
    let p = Project::new();
    p.settings(
        json!({"BeforeTool": [group(vec![with(plugin(guests::ECHO_POLICY),
        json!({"fuel": 777, "memoryLimit": 8_388_608, "timeout": 1234}))])]}),
    );
    let run = p.check(&[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = run.stdout_text();
    assert!(text.contains("fuel 777"), "{text}");
    assert!(text.contains("memoryLimit 8388608"), "{text}");
    assert!(text.contains("timeout 1234 ms"), "{text}");
    assert!(text.contains("[plugin]"), "{text}");
}

/// The compile cache: a miss stores an artifact, a hit loads it, a corrupted
/// artifact is detected and replaced.
#[tokio::test]
async fn compile_cache_hit_miss_and_corrupt() {
    use hookhost::runner::Runner;
    use hookhost::runner::wasm::{CacheStatus, EngineOptions};
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

/// Several plugins for one event run concurrently.
#[test]
fn plugins_on_one_event_run_concurrently() {
    let p = Project::new();
    let sleepers: Vec<Value> = (0..4)
        .map(|i| {
            with(
                adversary("sleep"),
                json!({"timeout": 700, "env": {"N": i.to_string()}}),
            )
        })
        .collect();
    p.settings(json!({"BeforeTool": [group(sleepers)]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert_eq!(fired.out["hooks"].as_array().unwrap().len(), 4);
    let total = fired.out["totalDuration"].as_f64().unwrap();
    assert!(
        total < 4.0 * 700.0,
        "four 700 ms deadlines took {total} ms: not concurrent"
    );
}

#[test]
fn example_policies_decide_as_documented() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![plugin(guests::GUARD_PATHS), plugin(guests::SECRET_SCAN)])]}));
    let outside = fire(
        &p,
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {"file_path": "/etc/passwd", "content": "x"}}),
    );
    assert_eq!(outside.code, 2, "{}", outside.out);
    let secret = fire(
        &p,
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {"file_path": "config.py", "content": "key = \"AKIAIOSFODNN7EXAMPLE\"\n"}}),
    );
    assert_eq!(secret.code, 2, "{}", secret.out);
    let reason = secret.out["finalOutput"]["reason"].as_str().unwrap();
    assert!(
        !reason.contains("AKIAIOSFODNN7EXAMPLE"),
        "the secret must not be echoed: {reason}"
    );
    let fine = fire(
        &p,
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {"file_path": "notes.md", "content": "hello"}}),
    );
    assert_eq!(fine.code, 0, "{}", fine.out);

    let p = Project::new();
    p.write("policy/allowed-tools.txt", "# tools\nread_file\nglob\n");
    p.settings(
        json!({"BeforeToolSelection": [group(vec![with(plugin(guests::TOOL_ALLOWLIST),
        json!({"preopens": [{"host": "policy", "guest": "/policy"}]}))])],
        "AfterModel": [group(vec![plugin(guests::REDACT_EMAIL)])]}),
    );
    let selection = fire(
        &p,
        "BeforeToolSelection",
        json!({"llm_request": {"model": "m", "messages": []}}),
    );
    assert_eq!(
        selection.out["finalOutput"]["hookSpecificOutput"]["toolConfig"]["allowedFunctionNames"],
        json!(["glob", "read_file"]),
        "{}",
        selection.out
    );
    let redacted = fire(
        &p,
        "AfterModel",
        json!({"llm_request": {}, "llm_response": {"text": "mail bob@example.com now"}}),
    );
    let text = redacted.out["finalOutput"]["hookSpecificOutput"]["llm_response"]["text"]
        .as_str()
        .unwrap();
    assert!(!text.contains("bob@example.com"), "{text}");
}
