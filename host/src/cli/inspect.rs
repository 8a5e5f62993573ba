//! `hookhost plugin inspect FILE`: what a `.wasm` file is, what it imports, and
//! whether hookhost can run it (by loading it exactly as a hook would be loaded).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use hookhost::config::{DEFAULT_FUEL, DEFAULT_MEMORY_LIMIT, PluginConfig};
use hookhost::runner::wasm::detect::{WasmKind, imports};
use hookhost::runner::wasm::linker::is_granted;
use hookhost::runner::wasm::{EngineOptions, WasmEngine};
use sha2::{Digest, Sha256};

pub fn run(file: &Path) -> ExitCode {
    let (report, code) = inspect(file);
    // Written once: a closed stdout (`| head`) must not panic.
    let _ = std::io::stdout().write_all(report.as_bytes());
    code
}

/// `writeln!` into the report; writing to a `String` cannot fail.
macro_rules! say {
    ($out:expr, $($arg:tt)*) => {{
        let _ = writeln!($out, $($arg)*);
    }};
}

fn inspect(file: &Path) -> (String, ExitCode) {
    let mut out = String::new();
    let bytes = match std::fs::read(file) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("hookhost: cannot read {}: {e}", file.display());
            return (out, ExitCode::from(1));
        }
    };
    say!(out, "file: {}", file.display());
    say!(out, "size: {} bytes", bytes.len());
    say!(out, "sha256: {}", hex::encode(Sha256::digest(&bytes)));
    let Some(kind) = WasmKind::detect(&bytes) else {
        say!(out, "kind: not WebAssembly");
        say!(out, "runnable: no");
        return (out, ExitCode::from(1));
    };
    say!(
        out,
        "kind: {}",
        match kind {
            WasmKind::Component => "WASI 0.2 component",
            WasmKind::Module => "core module (WASI preview 1)",
        }
    );
    match imports(&bytes) {
        Ok(names) => {
            say!(out, "imports:");
            for name in names {
                let note = match kind {
                    WasmKind::Component if is_granted(&name) => "granted",
                    WasmKind::Component if name.starts_with("wasi:sockets/") => {
                        "linked, network denied (every call fails)"
                    }
                    WasmKind::Component => "not provided",
                    WasmKind::Module if name.starts_with("wasi_snapshot_preview1::") => "granted",
                    WasmKind::Module => "not provided",
                };
                say!(out, "  {name}  ({note})");
            }
        }
        Err(e) => say!(out, "imports: unreadable ({e})"),
    }
    let config = PluginConfig {
        path: file.to_path_buf(),
        source: None,
        sha256: None,
        fuel: DEFAULT_FUEL,
        memory_limit: DEFAULT_MEMORY_LIMIT,
        env: Vec::new(),
        preopens: Vec::new(),
        args: Vec::new(),
    };
    let loaded = WasmEngine::new(&EngineOptions::default()).and_then(|engine| engine.load(&config));
    match loaded {
        Ok(_) => {
            say!(out, "runnable: yes");
            (out, ExitCode::SUCCESS)
        }
        Err(e) => {
            say!(out, "runnable: no — {e}");
            (out, ExitCode::from(1))
        }
    }
}
