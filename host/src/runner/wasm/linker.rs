//! The imports hookhost grants, linked once per engine (the `hookhost:plugin/hook`
//! world in `wit/`).
//!
//! Components get wasi:io, wasi:clocks, wasi:random, wasi:cli (environment, exit —
//! including `exit-with-code` —, stdio, terminal queries) and wasi:filesystem. The
//! wasi:sockets interfaces are deliberately *not* linked: a component that imports
//! them fails to load with a message naming the import, before any of its code runs.
//! Preview-1 modules get the whole `wasi_snapshot_preview1` module; its socket
//! functions only work on sockets handed in as preopens, and hookhost hands in none.

use wasmtime::Engine;
use wasmtime::component::{HasData, Linker as ComponentLinker, ResourceTable};
use wasmtime_wasi::WasiView;
use wasmtime_wasi::cli::{WasiCli, WasiCliView};
use wasmtime_wasi::clocks::{WasiClocks, WasiClocksView};
use wasmtime_wasi::filesystem::{WasiFilesystem, WasiFilesystemView};
use wasmtime_wasi::p2::bindings::{cli, clocks, filesystem, random};
use wasmtime_wasi::random::WasiRandom;

use super::sandbox::{ComponentState, ModuleState};

/// Interface-name prefixes a component may not import.
pub const DENIED_IMPORTS: [&str; 1] = ["wasi:sockets/"];

struct Io;

impl HasData for Io {
    type Data<'a> = &'a mut ResourceTable;
}

fn table(state: &mut ComponentState) -> &mut ResourceTable {
    state.ctx().table
}

/// The component linker with exactly the granted interfaces.
pub fn component_linker(engine: &Engine) -> wasmtime::Result<ComponentLinker<ComponentState>> {
    type T = ComponentState;
    let mut linker = ComponentLinker::<T>::new(engine);
    let l = &mut linker;
    wasmtime_wasi_io::bindings::wasi::io::error::add_to_linker::<T, Io>(l, table)?;
    wasmtime_wasi_io::bindings::wasi::io::poll::add_to_linker::<T, Io>(l, table)?;
    wasmtime_wasi_io::bindings::wasi::io::streams::add_to_linker::<T, Io>(l, table)?;
    clocks::wall_clock::add_to_linker::<T, WasiClocks>(l, T::clocks)?;
    clocks::monotonic_clock::add_to_linker::<T, WasiClocks>(l, T::clocks)?;
    filesystem::types::add_to_linker::<T, WasiFilesystem>(l, T::filesystem)?;
    filesystem::preopens::add_to_linker::<T, WasiFilesystem>(l, T::filesystem)?;
    random::random::add_to_linker::<T, WasiRandom>(l, |t| t.wasi.random())?;
    random::insecure::add_to_linker::<T, WasiRandom>(l, |t| t.wasi.random())?;
    random::insecure_seed::add_to_linker::<T, WasiRandom>(l, |t| t.wasi.random())?;
    cli::exit::add_to_linker::<T, WasiCli>(l, T::cli)?;
    cli::environment::add_to_linker::<T, WasiCli>(l, T::cli)?;
    cli::stdin::add_to_linker::<T, WasiCli>(l, T::cli)?;
    cli::stdout::add_to_linker::<T, WasiCli>(l, T::cli)?;
    cli::stderr::add_to_linker::<T, WasiCli>(l, T::cli)?;
    cli::terminal_input::add_to_linker::<T, WasiCli>(l, T::cli)?;
    cli::terminal_output::add_to_linker::<T, WasiCli>(l, T::cli)?;
    cli::terminal_stdin::add_to_linker::<T, WasiCli>(l, T::cli)?;
    cli::terminal_stdout::add_to_linker::<T, WasiCli>(l, T::cli)?;
    cli::terminal_stderr::add_to_linker::<T, WasiCli>(l, T::cli)?;
    Ok(linker)
}

/// The preview-1 module linker.
pub fn module_linker(engine: &Engine) -> wasmtime::Result<wasmtime::Linker<ModuleState>> {
    let mut linker = wasmtime::Linker::new(engine);
    wasmtime_wasi::p1::add_to_linker_async(&mut linker, |s: &mut ModuleState| &mut s.wasi)?;
    Ok(linker)
}
