//! Crafted plugin files: out-of-bounds loads and stores in a guarded pool, a module
//! importing all of preview 1 (and ones importing what is not granted), crafted and
//! truncated modules, FIFOs and devices as plugin paths.
//!
//! The modules are WAT text compiled by the `wat` crate; only the files that must not
//! be valid Wasm at all (a wrong version, an empty file, a truncated module) are bytes.

use hookhost::internals::MemoryLayout;
use hookhost_tests as guests;
use serde_json::json;

use super::{MARGIN, engine, fire_module, make_fifo, only_error, wat_bytes};
use crate::common::{Project, cmd, group};

/// Where the address space allows, a pool memory is 4 GiB plus guard pages and the
/// compiled code checks no bounds: an access past the end must still trap — just
/// past the memory, at the top of the 32-bit range, through a static offset larger
/// than the guard (checked explicitly then), a store as well as a load — and the
/// slot it dirtied must serve the next call.
#[tokio::test(flavor = "multi_thread")]
async fn out_of_bounds_accesses_trap_in_a_guarded_pool() {
    assert_eq!(engine().memory_layout(), MemoryLayout::Guarded);
    let p = Project::new();
    // A memory of one page, exported, and `_start` running `body` (folded WAT).
    let module = |body: &str| {
        wat::parse_str(format!(
            r#"(module (memory (export "memory") 1) (func (export "_start") {body}))"#
        ))
        .unwrap()
    };
    // i32.load (result dropped) / i32.store (of 1) at `address` plus the static
    // `offset`, natural alignment.
    let load = |address: i64, offset: u64| {
        format!("(drop (i32.load offset={offset} (i32.const {address})))")
    };
    let store = |address: i64, offset: u64| {
        format!("(i32.store offset={offset} (i32.const {address}) (i32.const 1))")
    };
    let cases: [(&str, String); 4] = [
        ("past-the-end", load(65_536, 0)),
        ("top-of-range", load(-4, 0)),
        ("big-offset", load(0, 0xffff_fff0)),
        ("store", store(3 << 16, 0)),
    ];
    for (name, body) in cases {
        let bytes = module(&body);
        let file = format!("{name}.wasm");
        let result = fire_module(&p, &file, &bytes, json!({})).await;
        let error = only_error(&result);
        assert!(
            error.starts_with(&format!("plugin hook \"{file}\" trapped: "))
                && error.contains("out of bounds memory access")
                && error.ends_with("(failing open)"),
            "{name}: {error}"
        );
    }
    let fine = module(&load(65_532, 0));
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
    let answer = br#"{"systemMessage":"every preview-1 import links"}"#;
    // iovec at 0: {buf 256, len}; nwritten at 8; the answer at 256.
    let mut iovec = 256u32.to_le_bytes().to_vec();
    iovec.extend((answer.len() as u32).to_le_bytes());
    let module = wat::parse_str(format!(
        r#"(module
             {PREVIEW1}
             (memory (export "memory") 1)
             (data (i32.const 0) {iovec})
             (data (i32.const 256) {answer})
             (func (export "_start")
               (drop (call $random_get (i32.const 64) (i32.const 16)))
               (drop (call $clock_time_get (i32.const 0) (i64.const 1) (i32.const 128)))
               (drop (call $sock_accept (i32.const 3) (i32.const 0) (i32.const 136)))
               (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))"#,
        iovec = wat_bytes(&iovec),
        answer = wat_bytes(answer),
    ))
    .unwrap();
    let p = Project::new();
    let result = fire_module(&p, "all-wasi.wasm", &module, json!({})).await;
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
            "(param i32)",
            "wasi_snapshot_preview1",
            "bad-signature.wasm",
        ),
    ] {
        let bad = wat::parse_str(format!(
            r#"(module
                 (import "{module_name}" "{field}" (func {params} (result i32)))
                 (func (export "_start")))"#
        ))
        .unwrap();
        let result = fire_module(&p, name, &bad, json!({})).await;
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
    // The other three are not Wasm that WAT could express: a header with a version
    // no encoder writes, no bytes at all, half of a real module.
    let cases: [(&str, Vec<u8>, &str); 4] = [
        (
            "header-only.wasm",
            // An empty module compiles to the 8-byte header alone.
            wat::parse_str("(module)").unwrap(),
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
        // The load error, and not its run failure again: one cause, said once.
        assert_eq!(errors.len(), 1, "the load error alone: {errors:?}");
        assert!(
            errors
                .iter()
                .all(|e| e.contains(&format!("{path}: not a regular file"))),
            "{errors:?}"
        );
    }
}

/// Every function of `wasi_snapshot_preview1`, imported under its own name.
const PREVIEW1: &str = r#"
(import "wasi_snapshot_preview1" "args_get" (func $args_get (param i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "args_sizes_get" (func $args_sizes_get (param i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "environ_get" (func $environ_get (param i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "environ_sizes_get" (func $environ_sizes_get (param i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "clock_res_get" (func $clock_res_get (param i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "clock_time_get" (func $clock_time_get (param i32 i64 i32) (result i32)))
(import "wasi_snapshot_preview1" "fd_advise" (func $fd_advise (param i32 i64 i64 i32) (result i32)))
(import "wasi_snapshot_preview1" "fd_allocate" (func $fd_allocate (param i32 i64 i64) (result i32)))
(import "wasi_snapshot_preview1" "fd_close" (func $fd_close (param i32) (result i32)))
(import "wasi_snapshot_preview1" "fd_datasync" (func $fd_datasync (param i32) (result i32)))
(import "wasi_snapshot_preview1" "fd_fdstat_get" (func $fd_fdstat_get (param i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "fd_fdstat_set_flags" (func $fd_fdstat_set_flags (param i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "fd_fdstat_set_rights" (func $fd_fdstat_set_rights (param i32 i64 i64) (result i32)))
(import "wasi_snapshot_preview1" "fd_filestat_get" (func $fd_filestat_get (param i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "fd_filestat_set_size" (func $fd_filestat_set_size (param i32 i64) (result i32)))
(import "wasi_snapshot_preview1" "fd_filestat_set_times" (func $fd_filestat_set_times (param i32 i64 i64 i32) (result i32)))
(import "wasi_snapshot_preview1" "fd_pread" (func $fd_pread (param i32 i32 i32 i64 i32) (result i32)))
(import "wasi_snapshot_preview1" "fd_prestat_get" (func $fd_prestat_get (param i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "fd_prestat_dir_name" (func $fd_prestat_dir_name (param i32 i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "fd_pwrite" (func $fd_pwrite (param i32 i32 i32 i64 i32) (result i32)))
(import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "fd_readdir" (func $fd_readdir (param i32 i32 i32 i64 i32) (result i32)))
(import "wasi_snapshot_preview1" "fd_renumber" (func $fd_renumber (param i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "fd_seek" (func $fd_seek (param i32 i64 i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "fd_sync" (func $fd_sync (param i32) (result i32)))
(import "wasi_snapshot_preview1" "fd_tell" (func $fd_tell (param i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "path_create_directory" (func $path_create_directory (param i32 i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "path_filestat_get" (func $path_filestat_get (param i32 i32 i32 i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "path_filestat_set_times" (func $path_filestat_set_times (param i32 i32 i32 i32 i64 i64 i32) (result i32)))
(import "wasi_snapshot_preview1" "path_link" (func $path_link (param i32 i32 i32 i32 i32 i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "path_open" (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "path_readlink" (func $path_readlink (param i32 i32 i32 i32 i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "path_remove_directory" (func $path_remove_directory (param i32 i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "path_rename" (func $path_rename (param i32 i32 i32 i32 i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "path_symlink" (func $path_symlink (param i32 i32 i32 i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "path_unlink_file" (func $path_unlink_file (param i32 i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "poll_oneoff" (func $poll_oneoff (param i32 i32 i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
(import "wasi_snapshot_preview1" "proc_raise" (func $proc_raise (param i32) (result i32)))
(import "wasi_snapshot_preview1" "sched_yield" (func $sched_yield (result i32)))
(import "wasi_snapshot_preview1" "random_get" (func $random_get (param i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "sock_accept" (func $sock_accept (param i32 i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "sock_recv" (func $sock_recv (param i32 i32 i32 i32 i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "sock_send" (func $sock_send (param i32 i32 i32 i32 i32) (result i32)))
(import "wasi_snapshot_preview1" "sock_shutdown" (func $sock_shutdown (param i32 i32) (result i32)))
"#;
