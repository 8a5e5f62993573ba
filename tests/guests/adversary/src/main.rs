//! `adversary`: a guest that misbehaves on request, to test limits and the sandbox.
//!
//! The mode is the first argument that names a mode (the configured `args`;
//! any `argv[0]` is skipped because it is not a mode name), else the `mode`
//! field of `tool_input`, else a top-level `mode` field of the input. Without
//! a mode it answers `{}`.
//!
//! | mode           | behaviour                                                            |
//! |----------------|----------------------------------------------------------------------|
//! | `spin`         | infinite busy loop (fuel / deadline)                                 |
//! | `sleep`        | `std::thread::sleep` for 60 s (deadline while blocked in the host)   |
//! | `nap`          | sleep `ms` milliseconds (default 40), then block: a slow guard        |
//! | `membomb`      | allocate and touch 1 MiB blocks until allocation fails (memory limit)|
//! | `trap`         | `panic!` (a trap on wasm)                                            |
//! | `stackoverflow`| unbounded non-tail recursion                                         |
//! | `bigout`       | 10 MiB of `x` on stdout, exit 0                                      |
//! | `exit1`        | message on stderr, exit 1                                            |
//! | `exit2`        | `{"decision":"block","reason":"adversary: exit2"}`, exit 2 via the SDK |
//! | `exit2-stderr` | nothing on stdout, reason on stderr, exit 2 via the SDK              |
//! | `exit2-std`    | `std::process::exit(2)`: arrives as 1 on wasm32-wasip2 (the pitfall)  |
//! | `readfile`     | read `path`; `systemMessage` = `read ok: <contents>` / `read error: …` |
//! | `writefile`    | write `content` (default `written by adversary`) to `path`; `write ok` / `write error: …` |
//! | `listdir`      | list `path` (default `/`); `listdir ok: a,b` sorted / `listdir error: …` |
//! | `env`          | `systemMessage` = every `NAME=value` the guest sees, sorted, one per line |
//! | `args`         | `systemMessage` = the arguments as a JSON array                      |
//! | `symlink`      | create a symlink at `path` pointing to `content`; `symlink ok` / `symlink error: …` |
//! | `debugprint`   | a debug line on stdout, then the SDK's block answer (exit 2)        |
//! | `openmany`     | open `path` (a file) again and again, keeping every handle; `opened N: <error>` |
//!
//! `path` and `content` are read from `tool_input`, else from the top level.

use std::hint::black_box;
use std::io::Write;
use std::time::Duration;

use hookhost_guest::{HookInput, HookOutput, HookResult, Value, register_hook};

const MODES: &[&str] = &[
    "spin",
    "sleep",
    "nap",
    "membomb",
    "trap",
    "stackoverflow",
    "bigout",
    "exit1",
    "exit2",
    "exit2-stderr",
    "exit2-std",
    "readfile",
    "writefile",
    "listdir",
    "env",
    "args",
    "symlink",
    "openmany",
    "debugprint",
];

/// A string field from `tool_input`, else from the top level of the input.
fn field(input: &HookInput, key: &str) -> Option<String> {
    // `tool_input` of an unknown or nameless event is still looked at, so a
    // bare `{"tool_input": {"mode": "spin"}}` works too.
    let tool_input = input
        .tool_input()
        .or_else(|| input.extra().get("tool_input").and_then(Value::as_object));
    tool_input
        .and_then(|t| t.get(key))
        .or_else(|| input.extra().get(key))
        .and_then(Value::as_str)
        .map(str::to_owned)
}

fn mode(input: &HookInput) -> Option<String> {
    std::env::args()
        .find(|a| MODES.contains(&a.as_str()))
        .or_else(|| field(input, "mode"))
}

/// Recursion with a live stack frame after the call, so it is neither a tail
/// call nor foldable: every level keeps 1 KiB of stack.
fn recurse(depth: u64) -> u64 {
    // An exit the optimiser cannot prove unreachable (and rustc's
    // unconditional-recursion lint accepts); it is never taken.
    if black_box(depth) == u64::MAX {
        return 0;
    }
    let mut frame = [0u8; 1024];
    frame[(depth % 1024) as usize] = depth as u8;
    let below = recurse(black_box(depth + 1));
    black_box(&frame);
    below.wrapping_add(u64::from(frame[0]))
}

#[link(wasm_import_module = "wasi_snapshot_preview1")]
unsafe extern "C" {
    /// WASI preview 1 `path_symlink`; a wasm32-wasip2 component gets it through the
    /// preview-1 adapter, so one call serves both builds (`std::os::wasi::fs::
    /// symlink_path` is unstable).
    #[link_name = "path_symlink"]
    fn wasi_path_symlink(
        target: *const u8,
        target_len: usize,
        fd: u32,
        link: *const u8,
        link_len: usize,
    ) -> i32;
}

/// Creates `link` (relative to the first preopen, descriptor 3) pointing to `target`;
/// returns the WASI errno (0 = done).
fn symlink_in_first_preopen(target: &str, link: &str) -> i32 {
    let link = link.trim_start_matches('/');
    let link = link.split_once('/').map_or(link, |(_, rest)| rest);
    // SAFETY: both pointers come from live `&str`s with their exact lengths.
    unsafe { wasi_path_symlink(target.as_ptr(), target.len(), 3, link.as_ptr(), link.len()) }
}

fn message(out: String) -> HookResult {
    Ok(HookOutput::allow().system_message(out))
}

fn adversary(input: HookInput) -> HookResult {
    let Some(mode) = mode(&input) else {
        return Ok(HookOutput::allow());
    };
    let path = field(&input, "path");
    match mode.as_str() {
        "spin" => {
            let mut n = 0u64;
            loop {
                n = black_box(n.wrapping_add(1));
            }
        }
        "sleep" => {
            std::thread::sleep(Duration::from_secs(60));
            message("adversary: woke up after 60 s".to_owned())
        }
        "nap" => {
            let ms = field(&input, "ms").and_then(|ms| ms.parse().ok()).unwrap_or(40);
            std::thread::sleep(Duration::from_millis(ms));
            Ok(HookOutput::block("adversary: nap"))
        }
        "membomb" => {
            let mut blocks: Vec<Vec<u8>> = Vec::new();
            loop {
                // Non-zero fill so every page is really touched.
                blocks.push(vec![0xA5; 1 << 20]);
                black_box(&blocks);
            }
        }
        "trap" => panic!("adversary: deliberate trap"),
        "stackoverflow" => message(format!("adversary: {}", recurse(0))),
        "bigout" => {
            let chunk = vec![b'x'; 64 * 1024];
            let mut stdout = std::io::stdout().lock();
            for _ in 0..160 {
                stdout.write_all(&chunk)?;
            }
            drop(stdout);
            hookhost_guest::exit(0)
        }
        "exit1" => {
            eprintln!("adversary: exit1");
            hookhost_guest::exit(1)
        }
        "exit2" => Ok(HookOutput::block("adversary: exit2")),
        "debugprint" => {
            // `print()` debugging before the SDK's answer (issue 11, seen 12).
            println!("debug: looking at the tool input");
            Ok(HookOutput::block("adversary: the policy's own words"))
        }
        "exit2-stderr" => {
            eprintln!("adversary: blocked via stderr");
            hookhost_guest::exit(2)
        }
        "exit2-std" => std::process::exit(2),
        "readfile" => message(match std::fs::read_to_string(path.unwrap_or_default()) {
            Ok(contents) => format!("read ok: {contents}"),
            Err(e) => format!("read error: {e}"),
        }),
        "writefile" => {
            let content = field(&input, "content").unwrap_or_else(|| "written by adversary".into());
            message(match std::fs::write(path.unwrap_or_default(), content) {
                Ok(()) => "write ok".to_owned(),
                Err(e) => format!("write error: {e}"),
            })
        }
        "listdir" => message(
            match std::fs::read_dir(path.unwrap_or_else(|| "/".into())) {
                Ok(entries) => {
                    let mut names: Vec<String> = entries
                        .filter_map(Result::ok)
                        .map(|e| e.file_name().to_string_lossy().into_owned())
                        .collect();
                    names.sort();
                    format!("listdir ok: {}", names.join(","))
                }
                Err(e) => format!("listdir error: {e}"),
            },
        ),
        "env" => {
            let mut vars: Vec<String> = std::env::vars().map(|(k, v)| format!("{k}={v}")).collect();
            vars.sort();
            message(vars.join("\n"))
        }
        "args" => {
            let args: Vec<String> = std::env::args().collect();
            message(hookhost_guest::serde_json::to_string(&args)?)
        }
        "symlink" => {
            let target = field(&input, "content").unwrap_or_default();
            message(match symlink_in_first_preopen(&target, &path.unwrap_or_default()) {
                0 => "symlink ok".to_owned(),
                errno => format!("symlink error: errno {errno}"),
            })
        }
        "openmany" => {
            let path = path.unwrap_or_default();
            let mut open = Vec::new();
            let error = loop {
                if open.len() >= 200_000 {
                    break "no error".to_owned();
                }
                match std::fs::File::open(&path) {
                    Ok(file) => open.push(file),
                    Err(e) => break e.to_string(),
                }
            };
            message(format!("opened {}: {error}", open.len()))
        }
        other => Err(format!("adversary: unknown mode {other:?}").into()),
    }
}

register_hook!(adversary);
