//! `hookhost plugin inspect FILE`: what a `.wasm` file is, what it imports, and
//! whether hookhost can run it (by loading it exactly as a hook would be loaded).

use std::path::Path;
use std::process::ExitCode;

use hookhost::config::{DEFAULT_FUEL, DEFAULT_MEMORY_LIMIT, PluginConfig};
use hookhost::runner::wasm::detect::{WasmKind, imports};
use hookhost::runner::wasm::linker::is_granted;
use hookhost::runner::wasm::{EngineOptions, WasmEngine};
use sha2::{Digest, Sha256};

pub fn run(file: &Path) -> ExitCode {
    let bytes = match std::fs::read(file) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("hookhost: cannot read {}: {e}", file.display());
            return ExitCode::from(1);
        }
    };
    println!("file: {}", file.display());
    println!("size: {} bytes", bytes.len());
    println!("sha256: {}", hex::encode(Sha256::digest(&bytes)));
    let Some(kind) = WasmKind::detect(&bytes) else {
        println!("kind: not WebAssembly");
        println!("runnable: no");
        return ExitCode::from(1);
    };
    println!(
        "kind: {}",
        match kind {
            WasmKind::Component => "WASI 0.2 component",
            WasmKind::Module => "core module (WASI preview 1)",
        }
    );
    match imports(&bytes) {
        Ok(names) => {
            println!("imports:");
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
                println!("  {name}  ({note})");
            }
        }
        Err(e) => println!("imports: unreadable ({e})"),
    }
    let config = PluginConfig {
        path: file.to_path_buf(),
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
            println!("runnable: yes");
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("runnable: no — {e}");
            ExitCode::from(1)
        }
    }
}
