//! Adversarial hooks, plugins and inputs: each test pins the exact outcome (decision,
//! error text, exit code, elapsed bound, leftover processes).
//!
//! Covered elsewhere, not repeated here:
//! * a hook that ignores SIGTERM and never exits — `process::a_hook_that_ignores_sigterm_is_killed_after_the_grace`;
//! * a daemon that keeps the pipes — `process::a_background_child_holding_the_pipes_does_not_hold_the_answer`
//!   (and one that detached its stdio: `process::a_daemon_that_detached_its_stdio_is_left_alone`);
//! * 20 MiB on stdout / stderr, endless output, invalid UTF-8 — `process`;
//! * a non-wasm file, a truncated component, a directory as plugin path —
//!   `plugin::missing_non_wasm_and_directory_paths_fail_with_their_cause`;
//! * the sockets fixture (every socket call denied) — `plugin::sockets_are_denied`;
//! * deadlines of spinning and sleeping guests — `plugin::deadline_*`;
//! * empty / non-JSON / non-object settings files — `check::file_level_problems`;
//!   wrong types at every field — `check::wrong_types_at_group_and_hook_fields`;
//!   unknown events — `check::an_unknown_event_is_an_error_and_the_known_ones_load`;
//!   invalid regexes — `matchers::an_invalid_regex_matches_the_tool_name_exactly_and_warns`;
//! * event input that is not an object — `cli::stdin_that_is_not_a_json_object_is_a_usage_error`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use hookhost::config::{DEFAULT_FUEL, DEFAULT_MEMORY_LIMIT, PluginConfig};
use hookhost::runner::wasm::engine::MemoryLayout;
use hookhost::runner::wasm::{EngineOptions, WasmEngine};
use hookhost::runner::{HookFailure, RawOutcome, RunContext, Status};
use hookhost::{HookEvent, HookSystem};
use hookhost_tests as guests;
use serde_json::{Map, Value, json};

use crate::common::{Project, cmd, cmd_timeout, group};
use crate::soak::{eventually, processes_with, rss_kib};

/// The SIGTERM → SIGKILL grace.
const KILL_GRACE: Duration = Duration::from_secs(5);
/// A generous allowance for a loaded machine.
const MARGIN: Duration = Duration::from_secs(10);

fn object(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap()
}

fn write_file(path: &str) -> Map<String, Value> {
    object(json!({"tool_name": "write_file", "tool_input": {"path": path}}))
}

/// A marker unique to this test process and call, for finding processes by argv.
fn marker(what: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!("hookhost-{what}-{}-{nanos}", std::process::id())
}

fn build(p: &Project, settings: &Path, cache: bool) -> HookSystem {
    HookSystem::builder()
        .project_dir(p.dir())
        .settings_files([settings])
        .session_id("adversarial")
        .engine_options(EngineOptions {
            cache_dir: cache
                .then(|| format!("{}/plugin-cache", env!("CARGO_TARGET_TMPDIR")).into()),
            ..EngineOptions::default()
        })
        .build()
}

// ---------------------------------------------------------------------------------
// Command hooks
// ---------------------------------------------------------------------------------

/// A bounded fork bomb: 64 children that ignore SIGTERM and keep the pipes, then
/// endless fork churn. The timeout's process-group kill ends all of it: SIGTERM,
/// the 5 s grace (the children ignore it and hold the pipes), SIGKILL.
#[test]
fn a_fork_bomb_is_bounded_by_the_process_group_kill() {
    let p = Project::new();
    let marker = marker("bomb");
    let script = p.script(
        &format!("{marker}.sh"),
        &format!(
            r#"i=0
while [ $i -lt 64 ]; do
  sh -c 'trap "" TERM; while :; do sleep 1; done' {marker}-child &
  i=$((i+1))
done
while :; do /bin/true; done"#
        ),
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd_timeout(&script, 1000)])]}));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    assert_eq!(fired.code, 0, "{fired:#?}");
    assert_eq!(fired.final_output(), &json!({}));
    fired.single_error(&[&marker, "timed out after 1000 ms", "(failing open)"]);
    let timeout = Duration::from_millis(1000);
    assert!(
        fired.elapsed >= timeout + KILL_GRACE,
        "the children ignore SIGTERM and hold the pipes, so only SIGKILL after the grace ends them: {:?}",
        fired.elapsed
    );
    assert!(
        fired.elapsed < timeout + KILL_GRACE + MARGIN,
        "fire took {:?}",
        fired.elapsed
    );
    let left = eventually(Duration::from_secs(3), || processes_with(&marker));
    assert!(left.is_empty(), "bomb processes survived: {left:?}");
}

/// A hook that answers, closes its stdout and keeps running briefly: the answer
/// counts and the fire waits only for the exit.
#[test]
fn a_hook_that_closes_stdout_early_is_obeyed() {
    let p = Project::new();
    let early = p.script(
        "early.sh",
        "echo '{\"systemMessage\":\"said before closing\"}'\nexec >&- 2>&-\nsleep 0.5\nexit 0",
    );
    let silent = p.script("silent.sh", "exec >&-\nsleep 0.5\nexit 0");
    p.settings(json!({
        "BeforeTool": [group(vec![cmd(&early)])],
        "AfterTool": [group(vec![cmd(&silent)])],
    }));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    fired.assert_clean();
    assert_eq!(
        fired.final_output(),
        &json!({"systemMessage": "said before closing"})
    );
    assert!(
        fired.elapsed >= Duration::from_millis(500),
        "the hook's exit was not awaited: {:?}",
        fired.elapsed
    );
    assert!(fired.elapsed < MARGIN, "{:?}", fired.elapsed);
    let fired = p.fire("AfterTool", json!({"tool_name": "t", "tool_response": {}}));
    fired.assert_clean();
    assert_eq!(fired.final_output(), &json!({}));
}

/// 100 MiB on stdout: the capture keeps the 16 MiB cap, the fire completes, and
/// the cut-off answer fails the hook (fail-open) instead of becoming a 16 MiB
/// message.
#[tokio::test(flavor = "multi_thread")]
async fn a_hundred_mebibytes_of_stdout_are_capped_at_sixteen() {
    const CAP: usize = 16 * 1024 * 1024;
    let p = Project::new();
    let settings = p.settings(json!({"BeforeTool": [group(vec![
        cmd(r"head -c 104857600 /dev/zero | tr '\000' x")
    ])]}));
    let system = build(&p, &settings, false);
    let start = Instant::now();
    let result = system.fire(HookEvent::BeforeTool, write_file("a")).await;
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{:?}",
        start.elapsed()
    );
    assert!(!result.is_blocked());
    let execution = &result.executions[0];
    assert_eq!(execution.exit_code, Some(0));
    assert_eq!(execution.stdout.len(), CAP);
    assert_eq!(
        result.errors,
        [format!(
            "command hook {:?} wrote 104857600 bytes to stdout, more than the {CAP}-byte output cap; \
             its answer was cut off and is ignored (failing open)",
            r"head -c 104857600 /dev/zero | tr '\000' x"
        )]
    );
    assert!(!result.success);
    assert_eq!(result.final_output.system_message, None);
}

/// Binary garbage (NUL, invalid UTF-8) and two JSON documents are not one JSON
/// object: the text becomes `systemMessage` and the operation is allowed — even
/// though both documents say "block".
#[test]
fn garbage_and_two_json_documents_on_stdout_are_plain_text() {
    let p = Project::new();
    let garbage = p.script("garbage.sh", r"printf '\000\001\377\376garbage\200'");
    let two = p.script(
        "two.sh",
        r#"printf '{"decision":"block","reason":"one"}\n{"decision":"block","reason":"two"}\n'"#,
    );
    p.settings(json!({
        "BeforeTool": [{"matcher": "^garbage$", "hooks": [cmd(&garbage)]},
                       {"matcher": "^two$", "hooks": [cmd(&two)]}],
    }));
    let fired = p.fire("BeforeTool", json!({"tool_name": "garbage"}));
    fired.assert_clean();
    assert_eq!(
        fired.final_output(),
        &json!({"systemMessage": "\u{0}\u{1}\u{fffd}\u{fffd}garbage\u{fffd}"})
    );
    let fired = p.fire("BeforeTool", json!({"tool_name": "two"}));
    fired.assert_clean();
    assert_eq!(
        fired.final_output(),
        &json!({"systemMessage":
            "{\"decision\":\"block\",\"reason\":\"one\"}\n{\"decision\":\"block\",\"reason\":\"two\"}"})
    );
}

/// A JSON answer nested 100,000 levels deep is not parsed into a stack overflow:
/// serde_json's recursion limit makes it plain text (exit 0) or a stderr reason
/// (exit 2).
#[test]
fn a_deeply_nested_answer_does_not_crash_the_host() {
    let p = Project::new();
    let deep = p.python(
        "deep.py",
        "import sys\nprint('[' * 100000 + ']' * 100000)\nprint('deep', file=sys.stderr)\nsys.exit(int(sys.argv[1]))",
    );
    p.settings(json!({
        "BeforeTool": [{"matcher": "^zero$", "hooks": [cmd(&format!("{deep} 0"))]},
                       {"matcher": "^two$", "hooks": [cmd(&format!("{deep} 2"))]}],
    }));
    let fired = p.fire("BeforeTool", json!({"tool_name": "zero"}));
    fired.assert_clean();
    let message = fired.final_output()["systemMessage"].as_str().unwrap();
    assert_eq!(message.len(), 200_000);
    let fired = p.fire("BeforeTool", json!({"tool_name": "two"}));
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(
        fired.final_output(),
        &json!({"decision": "block", "reason": "deep"})
    );
}

/// 50 hooks on one event (plus 10 duplicates, dropped): all 50 run, concurrently,
/// and their messages are joined in plan order.
#[test]
fn fifty_hooks_on_one_event_all_run() {
    let p = Project::new();
    let hooks: Vec<Value> = (0..60)
        .map(|i| {
            cmd(&format!(
                "echo hook-{} > /dev/null; echo hook {}",
                i % 50,
                i % 50
            ))
        })
        .collect();
    p.settings(json!({"BeforeTool": [group(hooks[..30].to_vec()), group(hooks[30..].to_vec())]}));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    fired.assert_clean();
    assert_eq!(fired.hooks().len(), 50, "{fired:#?}");
    let expected: Vec<String> = (0..50).map(|i| format!("hook {i}")).collect();
    assert_eq!(fired.final_output()["systemMessage"], expected.join("\n"));
    assert_eq!(fired.all_outputs().len(), 50);
}

/// A hook that deletes its own script while running still answers; the next fire
/// finds no script and fails open with exit 127.
#[test]
fn a_hook_deleting_its_own_script_mid_run() {
    let p = Project::new();
    let script = p.script(
        "self-delete.sh",
        "rm -f -- \"$0\"\nsleep 0.1\necho '{\"decision\":\"block\",\"reason\":\"deleted myself\"}'",
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&script)])]}));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert_eq!(fired.final_output()["reason"], "deleted myself");
    assert!(!p.exists(&script), "the script is gone");
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    assert_eq!(fired.code, 0, "{fired:#?}");
    fired.single_error(&[
        "hooks/self-delete.sh",
        "exited with code 127 (command not found)",
        "(failing open)",
    ]);
}

// ---------------------------------------------------------------------------------
// Plugins: limits at and just past their bounds
// ---------------------------------------------------------------------------------

/// The input echo-policy blocks, byte for byte the same on every call (so fuel use
/// is deterministic).
const BLOCKED_INPUT: &str = r#"{"session_id":"s","transcript_path":"","cwd":"/","hook_event_name":"BeforeTool","timestamp":"2025-01-01T00:00:00.000Z","tool_name":"write_file","tool_input":{"path":"/etc/passwd"}}"#;

fn plugin_config(path: &str, fuel: u64, memory_limit: u64) -> PluginConfig {
    PluginConfig {
        path: PathBuf::from(path),
        source: None,
        sha256: None,
        fuel,
        memory_limit,
        env: Vec::new(),
        preopens: Vec::new(),
        args: Vec::new(),
    }
}

fn engine() -> WasmEngine {
    WasmEngine::new(&EngineOptions {
        cache_dir: Some(format!("{}/plugin-cache", env!("CARGO_TARGET_TMPDIR")).into()),
        ..EngineOptions::default()
    })
    .unwrap()
}

async fn call(engine: &WasmEngine, config: &PluginConfig, timeout: Duration) -> RawOutcome {
    let plugin = engine.load(config).unwrap();
    let ctx = RunContext::new(std::env::temp_dir(), 1 << 20);
    let input: Arc<[u8]> = BLOCKED_INPUT.as_bytes().into();
    plugin.run(input, timeout, &ctx).await
}

/// The smallest value in `lo..=hi` for which `fits` holds (`fits(hi)` must).
async fn smallest<F: AsyncFn(u64) -> bool>(mut lo: u64, mut hi: u64, fits: F) -> u64 {
    assert!(fits(hi).await, "does not fit even at {hi}");
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if fits(mid).await {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    hi
}

/// Fuel: echo-policy's answer needs about F units. Fuel use is *almost* deterministic
/// — it varies by a few units between identical calls (55,602, 55,603 and 55,658 observed:
/// the guest's std reads WASI randomness/clocks) — so the bound is checked with a 5%
/// band: F + 5% always blocks, F − 5% always runs out, and the error names the limit.
#[tokio::test(flavor = "multi_thread")]
async fn fuel_at_and_just_past_the_bound() {
    let engine = engine();
    let timeout = Duration::from_secs(30);
    let fits = async |fuel: u64| {
        let config = plugin_config(guests::ECHO_POLICY, fuel, DEFAULT_MEMORY_LIMIT);
        call(&engine, &config, timeout).await.status == Status::Exited(2)
    };
    let needed = smallest(1, DEFAULT_FUEL, fits).await;
    let (enough, short) = (needed + needed / 20, needed - needed / 20);
    for _ in 0..5 {
        let config = plugin_config(guests::ECHO_POLICY, enough, DEFAULT_MEMORY_LIMIT);
        let raw = call(&engine, &config, timeout).await;
        assert_eq!(raw.status, Status::Exited(2), "fuel {enough} must fit");
        let config = plugin_config(guests::ECHO_POLICY, short, DEFAULT_MEMORY_LIMIT);
        let raw = call(&engine, &config, timeout).await;
        assert_eq!(
            raw.status,
            Status::Failed(HookFailure::FuelExhausted(short)),
            "fuel {short} must not fit"
        );
    }
    assert_eq!(
        HookFailure::FuelExhausted(short).to_string(),
        format!("ran out of fuel (limit {short} units)")
    );
    eprintln!("echo-policy needs about {needed} units of fuel for BLOCKED_INPUT");
}

/// The memory limit: echo-policy fits in L bytes — its memory pages plus its tables
/// (8 bytes an element), one budget — and not in one byte less; the error names the
/// limit.
#[tokio::test(flavor = "multi_thread")]
async fn memory_limit_at_and_just_past_the_bound() {
    const PAGE: u64 = 64 * 1024;
    let engine = engine();
    let timeout = Duration::from_secs(30);
    let fits = async |bytes: u64| {
        let config = plugin_config(guests::ECHO_POLICY, DEFAULT_FUEL, bytes);
        call(&engine, &config, timeout).await.status == Status::Exited(2)
    };
    let limit = smallest(PAGE, DEFAULT_MEMORY_LIMIT, fits).await;
    let pages = limit / PAGE;
    for (bytes, fits) in [(limit, true), (limit - 1, false), (limit - PAGE, false)] {
        let config = plugin_config(guests::ECHO_POLICY, DEFAULT_FUEL, bytes);
        let raw = call(&engine, &config, timeout).await;
        let expected = if fits {
            Status::Exited(2)
        } else {
            Status::Failed(HookFailure::MemoryLimit(bytes))
        };
        assert_eq!(raw.status, expected, "memoryLimit {bytes}");
    }
    assert_eq!(
        HookFailure::MemoryLimit(limit - 1).to_string(),
        format!("exceeded its memory limit of {} bytes", limit - 1)
    );
    eprintln!("echo-policy needs a memoryLimit of {limit} bytes ({pages} pages and tables)");
}

/// A 1 ms deadline interrupts a spinning guest and a sleeping one promptly; the
/// same guest without a mode answers well within a generous deadline.
#[tokio::test(flavor = "multi_thread")]
async fn timeout_just_past_the_bound() {
    let engine = engine();
    for mode in ["spin", "sleep"] {
        let mut config = plugin_config(guests::ADVERSARY, u64::MAX, DEFAULT_MEMORY_LIMIT);
        config.args = vec![mode.to_owned()];
        let start = Instant::now();
        let raw = call(&engine, &config, Duration::from_millis(1)).await;
        assert_eq!(
            raw.status,
            Status::Failed(HookFailure::Timeout(Duration::from_millis(1))),
            "{mode}"
        );
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "{mode}: {:?}",
            start.elapsed()
        );
    }
    let config = plugin_config(guests::ADVERSARY, DEFAULT_FUEL, DEFAULT_MEMORY_LIMIT);
    let raw = call(&engine, &config, Duration::from_secs(30)).await;
    assert_eq!(raw.status, Status::Exited(0));
}

/// 10,000 trapping calls through the library: each fails open naming the trap, and
/// resident memory does not grow with them.
#[tokio::test(flavor = "multi_thread")]
async fn ten_thousand_traps_do_not_grow_memory() {
    let p = Project::new();
    let settings = p.settings(json!({"BeforeTool": [group(vec![
        json!({"type": "plugin", "path": guests::ADVERSARY, "args": ["trap"]})
    ])]}));
    let system = build(&p, &settings, true);
    let mut before = 0;
    for i in 0..10_000 {
        if i == 500 {
            before = rss_kib();
        }
        let result = system.fire(HookEvent::BeforeTool, write_file("a")).await;
        assert!(!result.is_blocked());
        assert_eq!(result.errors.len(), 1);
        assert!(
            result.errors[0].starts_with("plugin hook \"adversary.wasm\" trapped: "),
            "{:?}",
            result.errors
        );
    }
    let after = rss_kib();
    assert!(
        after < before + 64 * 1024,
        "RSS grew from {before} KiB to {after} KiB over 9,500 traps"
    );
}

// ---------------------------------------------------------------------------------
// Plugins: crafted files
// ---------------------------------------------------------------------------------

/// A hand-assembled core Wasm module (preview-1 command).
pub(crate) mod wasm {
    pub fn leb(mut v: u64) -> Vec<u8> {
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

    pub fn sleb(mut v: i64) -> Vec<u8> {
        let mut out = Vec::new();
        loop {
            let byte = (v & 0x7f) as u8;
            v >>= 7;
            let done = (v == 0 && byte & 0x40 == 0) || (v == -1 && byte & 0x40 != 0);
            out.push(if done { byte } else { byte | 0x80 });
            if done {
                return out;
            }
        }
    }

    fn name(s: &str) -> Vec<u8> {
        let mut out = leb(s.len() as u64);
        out.extend_from_slice(s.as_bytes());
        out
    }

    fn vec(items: &[Vec<u8>]) -> Vec<u8> {
        let mut out = leb(items.len() as u64);
        for item in items {
            out.extend_from_slice(item);
        }
        out
    }

    fn section(id: u8, body: &[u8]) -> Vec<u8> {
        let mut out = vec![id];
        out.extend(leb(body.len() as u64));
        out.extend_from_slice(body);
        out
    }

    /// `i` = i32, `I` = i64.
    fn valtypes(s: &str) -> Vec<u8> {
        let types: Vec<Vec<u8>> = s
            .chars()
            .map(|c| vec![if c == 'I' { 0x7e } else { 0x7f }])
            .collect();
        vec(&types)
    }

    #[derive(Default)]
    pub struct Module {
        /// (module, name, params, results)
        pub imports: Vec<(String, String, String, String)>,
        /// Minimum pages of the first memory, if any.
        pub memory_pages: Option<u64>,
        /// More memories of 0 pages (multi-memory).
        pub extra_memories: u64,
        /// Funcref tables of 0 elements.
        pub tables: u64,
        /// The body of `_start` (instructions, without the final `end`).
        pub start: Vec<u8>,
        /// Active data segments: (offset, bytes).
        pub data: Vec<(i64, Vec<u8>)>,
    }

    impl Module {
        /// The index of an import (functions are numbered imports first).
        pub fn func(&self, name: &str) -> u64 {
            self.imports.iter().position(|i| i.1 == name).unwrap() as u64
        }

        pub fn bytes(&self) -> Vec<u8> {
            let mut types: Vec<Vec<u8>> = vec![[vec![0x60], valtypes(""), valtypes("")].concat()];
            let mut imports = Vec::new();
            for (module, field, params, results) in &self.imports {
                types.push([vec![0x60], valtypes(params), valtypes(results)].concat());
                imports.push(
                    [
                        name(module),
                        name(field),
                        vec![0x00],
                        leb(types.len() as u64 - 1),
                    ]
                    .concat(),
                );
            }
            let start_index = self.imports.len() as u64;
            let mut out = b"\0asm\x01\0\0\0".to_vec();
            out.extend(section(1, &vec(&types)));
            if !imports.is_empty() {
                out.extend(section(2, &vec(&imports)));
            }
            out.extend(section(3, &vec(&[leb(0)])));
            let mut exports = vec![[name("_start"), vec![0x00], leb(start_index)].concat()];
            if self.tables > 0 {
                let tables: Vec<Vec<u8>> =
                    (0..self.tables).map(|_| vec![0x70, 0x00, 0x00]).collect();
                out.extend(section(4, &vec(&tables)));
            }
            let memories: Vec<Vec<u8>> = self
                .memory_pages
                .into_iter()
                .chain((0..self.extra_memories).map(|_| 0))
                .map(|pages| [vec![0x00], leb(pages)].concat())
                .collect();
            if !memories.is_empty() {
                out.extend(section(5, &vec(&memories)));
            }
            if self.memory_pages.is_some() {
                exports.push([name("memory"), vec![0x02], leb(0)].concat());
            }
            out.extend(section(7, &vec(&exports)));
            let body = [leb(0), self.start.clone(), vec![0x0b]].concat();
            out.extend(section(
                10,
                &vec(&[[leb(body.len() as u64), body].concat()]),
            ));
            if !self.data.is_empty() {
                let segments: Vec<Vec<u8>> = self
                    .data
                    .iter()
                    .map(|(offset, bytes)| {
                        [
                            vec![0x00, 0x41],
                            sleb(*offset),
                            vec![0x0b],
                            leb(bytes.len() as u64),
                            bytes.clone(),
                        ]
                        .concat()
                    })
                    .collect();
                out.extend(section(11, &vec(&segments)));
            }
            out
        }
    }

    /// Every function of `wasi_snapshot_preview1`: (name, params, results).
    pub const PREVIEW1: &[(&str, &str, &str)] = &[
        ("args_get", "ii", "i"),
        ("args_sizes_get", "ii", "i"),
        ("environ_get", "ii", "i"),
        ("environ_sizes_get", "ii", "i"),
        ("clock_res_get", "ii", "i"),
        ("clock_time_get", "iIi", "i"),
        ("fd_advise", "iIIi", "i"),
        ("fd_allocate", "iII", "i"),
        ("fd_close", "i", "i"),
        ("fd_datasync", "i", "i"),
        ("fd_fdstat_get", "ii", "i"),
        ("fd_fdstat_set_flags", "ii", "i"),
        ("fd_fdstat_set_rights", "iII", "i"),
        ("fd_filestat_get", "ii", "i"),
        ("fd_filestat_set_size", "iI", "i"),
        ("fd_filestat_set_times", "iIIi", "i"),
        ("fd_pread", "iiiIi", "i"),
        ("fd_prestat_get", "ii", "i"),
        ("fd_prestat_dir_name", "iii", "i"),
        ("fd_pwrite", "iiiIi", "i"),
        ("fd_read", "iiii", "i"),
        ("fd_readdir", "iiiIi", "i"),
        ("fd_renumber", "ii", "i"),
        ("fd_seek", "iIii", "i"),
        ("fd_sync", "i", "i"),
        ("fd_tell", "ii", "i"),
        ("fd_write", "iiii", "i"),
        ("path_create_directory", "iii", "i"),
        ("path_filestat_get", "iiiii", "i"),
        ("path_filestat_set_times", "iiiiIIi", "i"),
        ("path_link", "iiiiiii", "i"),
        ("path_open", "iiiiiIIii", "i"),
        ("path_readlink", "iiiiii", "i"),
        ("path_remove_directory", "iii", "i"),
        ("path_rename", "iiiiii", "i"),
        ("path_symlink", "iiiii", "i"),
        ("path_unlink_file", "iii", "i"),
        ("poll_oneoff", "iiii", "i"),
        ("proc_exit", "i", ""),
        ("proc_raise", "i", "i"),
        ("sched_yield", "", "i"),
        ("random_get", "ii", "i"),
        ("sock_accept", "iii", "i"),
        ("sock_recv", "iiiiii", "i"),
        ("sock_send", "iiiii", "i"),
        ("sock_shutdown", "ii", "i"),
    ];

    pub const I32_CONST: u8 = 0x41;
    pub const I64_CONST: u8 = 0x42;
    pub const CALL: u8 = 0x10;
    pub const DROP: u8 = 0x1a;
}

/// Writes `bytes` as `name` in the project and fires one plugin hook on it.
async fn fire_module(
    p: &Project,
    name: &str,
    bytes: &[u8],
    extra: Value,
) -> hookhost::AggregatedHookResult {
    let path = p.write(name, bytes);
    let mut hook = json!({"type": "plugin", "path": path});
    for (k, v) in extra.as_object().unwrap() {
        hook[k] = v.clone();
    }
    let settings = p.settings(json!({"BeforeTool": [group(vec![hook])]}));
    let system = build(p, &settings, false);
    system.fire(HookEvent::BeforeTool, write_file("a")).await
}

fn only_error(result: &hookhost::AggregatedHookResult) -> &str {
    assert!(!result.is_blocked(), "{:?}", result.final_output);
    assert_eq!(result.errors.len(), 1, "{:?}", result.errors);
    &result.errors[0]
}

/// `_start` that grows each of `n` memories (or tables) with `grow(i)`, trapping
/// (unreachable) at the first refused grow.
fn grow_each(n: u64, grow: impl Fn(u64) -> Vec<u8>) -> Vec<u8> {
    let mut body = Vec::new();
    for i in 0..n {
        body.extend(grow(i));
        // i32.const -1; i32.eq; if; unreachable; end
        body.extend([wasm::I32_CONST, 0x7f, 0x46, 0x04, 0x40, 0x00, 0x0b]);
    }
    body
}

/// Issue 14, seen 5: `memoryLimit` was per linear memory, and tables were outside any
/// budget: a module with 4 memories could take 4 × the limit, one with 4 tables of a
/// million elements 32 MB more. Now memories and tables share the one budget.
/// (On-demand engine: the pool holds one memory and one table per core module.)
#[tokio::test(flavor = "multi_thread")]
async fn memory_and_table_bombs_across_several_memories_stop_at_the_total() {
    const MIB: u64 = 1024 * 1024;
    let p = Project::new();
    let engine = WasmEngine::new(&EngineOptions {
        pooling: false,
        cache_dir: None,
        ..EngineOptions::default()
    })
    .unwrap();
    let run = async |name: &str, bytes: Vec<u8>, limit: u64| {
        let path = p.write(name, bytes);
        let config = plugin_config(path.to_str().unwrap(), DEFAULT_FUEL, limit);
        call(&engine, &config, Duration::from_secs(30)).await.status
    };
    // 4 memories, each grown by 96 pages (6 MiB): 24 MiB in all.
    let memories = wasm::Module {
        extra_memories: 4,
        start: grow_each(4, |i| {
            [
                vec![wasm::I32_CONST],
                wasm::sleb(96),
                vec![0x40],
                wasm::leb(i),
            ]
            .concat()
        }),
        ..wasm::Module::default()
    }
    .bytes();
    assert_eq!(
        run("memories.wasm", memories.clone(), 16 * MIB).await,
        Status::Failed(HookFailure::MemoryLimit(16 * MIB)),
        "4 × 6 MiB must not fit a 16 MiB budget"
    );
    assert_eq!(
        run("memories.wasm", memories, 32 * MIB).await,
        Status::Exited(0)
    );

    // 4 tables, each grown by a million elements (8 MB at 8 bytes each).
    let tables = wasm::Module {
        tables: 4,
        start: grow_each(4, |i| {
            [
                vec![0xd0, 0x70, wasm::I32_CONST],
                wasm::sleb(1_000_000),
                vec![0xfc, 0x0f],
                wasm::leb(i),
            ]
            .concat()
        }),
        ..wasm::Module::default()
    }
    .bytes();
    assert_eq!(
        run("tables.wasm", tables.clone(), 16 * MIB).await,
        Status::Failed(HookFailure::MemoryLimit(16 * MIB)),
        "4 × 8 MB of table elements must not fit a 16 MiB budget"
    );
    assert_eq!(
        run("tables.wasm", tables, 64 * MIB).await,
        Status::Exited(0)
    );
}

/// A core module whose data section is 32 MiB: it runs within the default memory
/// limit, and fails cleanly (naming the limit) under a 16 MiB one. A data segment
/// past the end of memory traps at instantiation; a memory of 4 GiB is refused by
/// the limit; a memory past the 32-bit maximum is an invalid module.
#[tokio::test(flavor = "multi_thread")]
async fn huge_data_sections_fail_cleanly() {
    const MIB: usize = 1024 * 1024;
    let p = Project::new();
    let big = wasm::Module {
        memory_pages: Some(513),
        data: vec![(0, vec![0xA5; 32 * MIB])],
        ..wasm::Module::default()
    }
    .bytes();
    let result = fire_module(&p, "big-data.wasm", &big, json!({})).await;
    assert!(result.success, "{:?}", result.errors);
    assert!(result.errors.is_empty() && !result.is_blocked());
    assert_eq!(result.executions[0].exit_code, Some(0));
    let result = fire_module(&p, "big-data.wasm", &big, json!({"memoryLimit": 16 * MIB})).await;
    assert_eq!(
        only_error(&result),
        "plugin hook \"big-data.wasm\" exceeded its memory limit of 16777216 bytes (failing open)"
    );

    let past_end = wasm::Module {
        memory_pages: Some(1),
        data: vec![(65_530, vec![1; 16])],
        ..wasm::Module::default()
    }
    .bytes();
    let result = fire_module(&p, "past-end.wasm", &past_end, json!({})).await;
    let error = only_error(&result);
    assert!(
        error.starts_with("plugin hook \"past-end.wasm\" trapped: ")
            && error.contains("out of bounds memory access")
            && error.ends_with("(failing open)"),
        "{error}"
    );

    let four_gib = wasm::Module {
        memory_pages: Some(65_536),
        ..wasm::Module::default()
    }
    .bytes();
    // The pool reserves only the largest memoryLimit per slot, so the pooled engine
    // refuses this module when loading it (the on-demand engine would refuse the
    // memory at instantiation instead: "exceeded its memory limit").
    let result = fire_module(&p, "four-gib.wasm", &four_gib, json!({})).await;
    let error = only_error(&result);
    assert!(
        error.starts_with(&format!(
            "plugin hook \"four-gib.wasm\" cannot load plugin: {}: invalid module: ",
            p.path("four-gib.wasm").display()
        )) && error.contains(
            "memory has a minimum byte size of 4294967296 which exceeds the limit of 0x8000000 bytes"
        ) && error.ends_with("(failing open)"),
        "{error}"
    );

    let too_big = wasm::Module {
        memory_pages: Some(65_537),
        ..wasm::Module::default()
    }
    .bytes();
    let result = fire_module(&p, "too-big.wasm", &too_big, json!({})).await;
    let error = only_error(&result);
    assert!(
        error.starts_with(&format!(
            "plugin hook \"too-big.wasm\" cannot load plugin: {}: invalid module: ",
            p.path("too-big.wasm").display()
        )) && error.ends_with("(failing open)"),
        "{error}"
    );
}

/// Where the address space allows, a pool memory is 4 GiB plus guard pages and the
/// compiled code checks no bounds: an access past the end must still trap — just
/// past the memory, at the top of the 32-bit range, through a static offset larger
/// than the guard (checked explicitly then), a store as well as a load — and the
/// slot it dirtied must serve the next call.
#[tokio::test(flavor = "multi_thread")]
async fn out_of_bounds_accesses_trap_in_a_guarded_pool() {
    assert_eq!(engine().memory_layout(), MemoryLayout::Guarded);
    let p = Project::new();
    // i32.load / i32.store, alignment 2, then the static offset.
    let load = |offset: u64| [vec![0x28, 0x02], wasm::leb(offset), vec![wasm::DROP]].concat();
    let store = |offset: u64| [vec![wasm::I32_CONST, 0x01, 0x36, 0x02], wasm::leb(offset)].concat();
    let cases: [(&str, Vec<u8>); 4] = [
        (
            "past-the-end",
            [vec![wasm::I32_CONST], wasm::sleb(65_536), load(0)].concat(),
        ),
        (
            "top-of-range",
            [vec![wasm::I32_CONST], wasm::sleb(-4), load(0)].concat(),
        ),
        (
            "big-offset",
            [vec![wasm::I32_CONST, 0x00], load(0xffff_fff0)].concat(),
        ),
        (
            "store",
            [vec![wasm::I32_CONST], wasm::sleb(3 << 16), store(0)].concat(),
        ),
    ];
    for (name, start) in cases {
        let module = wasm::Module {
            memory_pages: Some(1),
            start,
            ..wasm::Module::default()
        }
        .bytes();
        let file = format!("{name}.wasm");
        let result = fire_module(&p, &file, &module, json!({})).await;
        let error = only_error(&result);
        assert!(
            error.starts_with(&format!("plugin hook \"{file}\" trapped: "))
                && error.contains("out of bounds memory access")
                && error.ends_with("(failing open)"),
            "{name}: {error}"
        );
    }
    let fine = wasm::Module {
        memory_pages: Some(1),
        start: [vec![wasm::I32_CONST], wasm::sleb(65_532), load(0)].concat(),
        ..wasm::Module::default()
    }
    .bytes();
    let result = fire_module(&p, "last-word.wasm", &fine, json!({})).await;
    assert!(
        result.success && result.errors.is_empty(),
        "{:?}",
        result.errors
    );
    assert_eq!(result.executions[0].exit_code, Some(0));
}

/// A module importing every `wasi_snapshot_preview1` function links and runs; it
/// writes its answer with `fd_write` after calling `random_get`, `clock_time_get`
/// and `sock_accept` (which fails: no sockets are handed in).
#[tokio::test(flavor = "multi_thread")]
async fn a_module_importing_all_of_preview1_links_and_runs() {
    use wasm::{CALL, DROP, I32_CONST, I64_CONST};
    let answer = br#"{"systemMessage":"every preview-1 import links"}"#;
    let mut module = wasm::Module {
        imports: wasm::PREVIEW1
            .iter()
            .map(|(n, params, results)| {
                (
                    "wasi_snapshot_preview1".to_owned(),
                    (*n).to_owned(),
                    (*params).to_owned(),
                    (*results).to_owned(),
                )
            })
            .collect(),
        memory_pages: Some(1),
        ..wasm::Module::default()
    };
    // iovec at 0: {buf 256, len}; nwritten at 8; the answer at 256.
    let mut iovec = 256u32.to_le_bytes().to_vec();
    iovec.extend((answer.len() as u32).to_le_bytes());
    module.data = vec![(0, iovec), (256, answer.to_vec())];
    let call = |module: &wasm::Module, name: &str, args: &[(u8, i64)]| {
        let mut code = Vec::new();
        for (op, value) in args {
            code.push(*op);
            code.extend(wasm::sleb(*value));
        }
        code.push(CALL);
        code.extend(wasm::leb(module.func(name)));
        code.push(DROP);
        code
    };
    module.start = [
        call(&module, "random_get", &[(I32_CONST, 64), (I32_CONST, 16)]),
        call(
            &module,
            "clock_time_get",
            &[(I32_CONST, 0), (I64_CONST, 1), (I32_CONST, 128)],
        ),
        call(
            &module,
            "sock_accept",
            &[(I32_CONST, 3), (I32_CONST, 0), (I32_CONST, 136)],
        ),
        call(
            &module,
            "fd_write",
            &[
                (I32_CONST, 1),
                (I32_CONST, 0),
                (I32_CONST, 1),
                (I32_CONST, 8),
            ],
        ),
    ]
    .concat();
    let p = Project::new();
    let result = fire_module(&p, "all-wasi.wasm", &module.bytes(), json!({})).await;
    assert!(result.errors.is_empty(), "{:?}", result.errors);
    assert_eq!(
        result.final_output.system_message.as_deref(),
        Some("every preview-1 import links")
    );

    // An import outside WASI, and a WASI function with the wrong signature, are
    // refused at load time, naming the import.
    for (field, params, module_name, name) in [
        ("anything", "", "env", "env-import.wasm"),
        (
            "fd_write",
            "i",
            "wasi_snapshot_preview1",
            "bad-signature.wasm",
        ),
    ] {
        let bad = wasm::Module {
            imports: vec![(module_name.into(), field.into(), params.into(), "i".into())],
            ..wasm::Module::default()
        };
        let result = fire_module(&p, name, &bad.bytes(), json!({})).await;
        let error = only_error(&result);
        assert!(
            error.starts_with(&format!(
                "plugin hook {name:?} cannot load plugin: {}: imports something hookhost does not grant: ",
                p.path(name).display()
            )) && error.contains(field),
            "{error}"
        );
    }
}

/// Files that look like Wasm but are not whole: the header alone (a valid, empty
/// module without `_start`), a wrong version, an empty file, a truncated preview-1
/// module.
#[tokio::test(flavor = "multi_thread")]
async fn crafted_and_truncated_modules_fail_with_their_cause() {
    let p = Project::new();
    let p1 = std::fs::read(guests::ECHO_POLICY_P1).unwrap();
    let cases: [(&str, Vec<u8>, &str); 4] = [
        (
            "header-only.wasm",
            b"\0asm\x01\0\0\0".to_vec(),
            "does not export _start (build it as a WASI command)",
        ),
        (
            "version-9.wasm",
            b"\0asm\x09\0\0\0".to_vec(),
            "not a WebAssembly component or module (bad magic number or version)",
        ),
        (
            "empty.wasm",
            Vec::new(),
            "not a WebAssembly component or module (bad magic number or version)",
        ),
        (
            "truncated-p1.wasm",
            p1[..p1.len() / 2].to_vec(),
            "invalid module: ",
        ),
    ];
    for (name, bytes, cause) in cases {
        let result = fire_module(&p, name, &bytes, json!({})).await;
        let error = only_error(&result);
        let prefix = format!(
            "plugin hook {name:?} cannot load plugin: {}: {cause}",
            p.path(name).display()
        );
        assert!(
            error.starts_with(&prefix) && error.ends_with("(failing open)"),
            "{error}"
        );
    }
}

/// A plugin path that is a FIFO or a device is refused without reading it (reading
/// would block forever or never end).
#[test]
fn plugin_paths_that_are_a_fifo_or_a_device_do_not_hang() {
    let p = Project::new();
    let fifo = p.path("fifo.wasm");
    make_fifo(&fifo);
    for path in [fifo.to_str().unwrap(), "/dev/zero"] {
        p.settings(json!({"BeforeTool": [group(vec![
            json!({"type": "plugin", "path": path}), cmd("echo ok")
        ])]}));
        let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
        assert_eq!(fired.code, 0, "{path}: {fired:#?}");
        assert!(fired.elapsed < MARGIN, "{path}: {:?}", fired.elapsed);
        assert_eq!(fired.final_output()["systemMessage"], "ok");
        let errors = fired.errors();
        assert_eq!(errors.len(), 2, "load error + failed run: {errors:?}");
        assert!(
            errors
                .iter()
                .all(|e| e.contains(&format!("{path}: not a regular file"))),
            "{errors:?}"
        );
    }
}

fn make_fifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

// ---------------------------------------------------------------------------------
// Inputs: settings files and events
// ---------------------------------------------------------------------------------

/// `--settings` naming a device, a FIFO or a directory is an error naming the file —
/// without reading it (`/dev/zero` never ends, a FIFO blocks) — and the other
/// settings still load.
#[test]
fn settings_that_are_a_device_a_fifo_or_a_directory_do_not_hang() {
    let p = Project::new();
    let fifo = p.outside().join("settings.fifo");
    make_fifo(&fifo);
    let dir = p.outside().join("settings.d");
    std::fs::create_dir_all(&dir).unwrap();
    let good = p.extra_settings(
        "good.json",
        json!({"BeforeTool": [group(vec![cmd("echo ok")])]}),
    );
    for bad in [Path::new("/dev/zero"), &fifo, &dir] {
        let check = p.check(&[bad]);
        assert_eq!(check.code, 1, "{}: {check:#?}", bad.display());
        assert!(
            check.elapsed < MARGIN,
            "{}: {:?}",
            bad.display(),
            check.elapsed
        );
        let expected = format!("settings {}: not a regular file", bad.display());
        assert!(check.stderr.contains(&expected), "{}", check.stderr);
        let fired = p.fire_settings("BeforeTool", json!({"tool_name": "t"}), &[bad, &good]);
        assert_eq!(fired.code, 0, "{fired:#?}");
        assert_eq!(fired.final_output()["systemMessage"], "ok");
        fired.single_error(&[&expected]);
    }
}

/// A 10 MB settings file (one hook and a 10 MB unknown key) loads and runs; one past
/// the 16 MiB limit is refused naming the limit.
#[test]
fn ten_megabyte_settings_load_and_seventeen_are_refused() {
    let p = Project::new();
    let padding = "x".repeat(10_000_000);
    p.settings_raw(&json!({
        "tools": {"enableHooks": true},
        "padding": padding,
        "hooks": {"BeforeTool": [group(vec![cmd("echo big settings")])]},
    }));
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    fired.assert_clean();
    assert_eq!(fired.final_output()["systemMessage"], "big settings");
    assert!(fired.elapsed < MARGIN, "{:?}", fired.elapsed);

    let padding = "x".repeat(17 * 1024 * 1024);
    let path = p.settings_raw(&json!({
        "tools": {"enableHooks": true},
        "padding": padding,
        "hooks": {"BeforeTool": [group(vec![cmd("echo big settings")])]},
    }));
    let size = std::fs::metadata(&path).unwrap().len();
    let check = p.check(&[]);
    assert_eq!(check.code, 1);
    assert!(
        check.stderr.contains(&format!(
            "project settings .llxprt/settings.json: file is {size} bytes, larger than the 16777216-byte limit"
        )),
        "{}",
        check.stderr
    );
}

/// A 10 MB settings file of 100,000 distinct hooks (none fired): loading and
/// `hookhost check` stay fast.
#[test]
fn a_settings_file_of_a_hundred_thousand_hooks_loads_in_reasonable_time() {
    let p = Project::new();
    let hooks: Vec<Value> = (0..100_000)
        .map(|i| cmd(&format!("echo hook number {i:06} of the big settings")))
        .collect();
    let path = p.settings(json!({"BeforeTool": [{"matcher": "^never$", "hooks": hooks}]}));
    assert!(std::fs::metadata(&path).unwrap().len() > 9_000_000);
    let start = Instant::now();
    let check = p.check(&[]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "check of 100,000 hooks took {:?}",
        start.elapsed()
    );
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    fired.assert_clean();
    assert!(fired.hooks().is_empty());
}

/// Settings nested 10,000 arrays deep are invalid JSON (serde_json's recursion
/// limit), reported as such — not a stack overflow.
#[test]
fn deeply_nested_settings_are_invalid_json() {
    let p = Project::new();
    let deep = format!(
        r#"{{"tools": {{"enableHooks": true}}, "hooks": {}{}}}"#,
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    p.settings_text(&deep);
    let check = p.check(&[]);
    assert_eq!(check.code, 1, "{check:#?}");
    assert!(
        check.stderr.contains(
            "project settings .llxprt/settings.json: not valid JSON: recursion limit exceeded"
        ),
        "{}",
        check.stderr
    );
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    assert_eq!(fired.code, 0);
    fired.single_error(&["not valid JSON: recursion limit exceeded"]);
}

/// A 10 MB event reaches the hook whole.
#[test]
fn a_ten_megabyte_event_reaches_the_hook() {
    let p = Project::new();
    let hook = p.script("size.sh", "wc -c > size.txt\necho '{}'");
    p.settings(json!({"BeforeTool": [group(vec![cmd(&hook)])]}));
    let content = "y".repeat(10_000_000);
    let fired = p.fire(
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {"content": content}}),
    );
    fired.assert_clean();
    let size: usize = p.read("size.txt").trim().parse().unwrap();
    assert!((10_000_000..10_001_000).contains(&size), "{size}");
}

/// An event nested 100,000 levels deep is refused as invalid JSON with exit 1 —
/// no crash, and no hook runs.
#[test]
fn a_deeply_nested_event_is_a_usage_error() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![cmd("touch ran")])]}));
    let deep = format!(
        r#"{{"tool_name": "t", "tool_input": {}{}}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let mut command = p.command();
    command
        .arg("fire")
        .arg("BeforeTool")
        .arg("--project-dir")
        .arg(p.dir());
    let run = crate::common::run(command, deep.as_bytes());
    assert_eq!(run.code, 1, "{run:#?}");
    assert!(
        run.stderr.contains("stdin is not valid JSON") && run.stderr.contains("recursion limit"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty());
    assert!(!p.exists("ran"));
}
