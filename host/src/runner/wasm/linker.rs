//! The imports hookhost links, once per engine (the `hookhost:plugin/hook` world in
//! `wit/` lists what a plugin may rely on).
//!
//! Components get wasi:io, wasi:clocks, wasi:random, wasi:cli (environment, exit —
//! including `exit-with-code` —, stdio, terminal queries) and wasi:filesystem, all
//! backed by the sandbox of [`super::sandbox`].
//!
//! wasi:sockets is linked too, but in deny-all mode: the guest's context allows no
//! TCP, no UDP, no name lookup and no address (every address check answers "no"),
//! so every socket call fails with an error the guest can handle (e.g. Rust's
//! `TcpStream::connect` returns `Err`). It is linked at all because toolchains such
//! as componentize-py import wasi:sockets whether or not the code uses it; refusing
//! such components would refuse every Python hook. `hookhost check` warns when a
//! plugin imports an interface outside [`GRANTED_IMPORTS`].
//!
//! Preview-1 modules get the whole `wasi_snapshot_preview1` module; its socket
//! functions only work on sockets handed in as preopens, and hookhost hands in none.
//!
//! One function is replaced in both: **creating a symbolic link** always fails with
//! "not permitted". cap-std keeps the guest itself from following a link out of its
//! preopen, but a link is data that the agent and command hooks would follow later:
//! `rel-link -> ../../../etc/passwd` planted in a writable preopen would point them
//! anywhere. A policy never needs to create one.

use wasmtime::Engine;
use wasmtime::component::Linker as ComponentLinker;

use super::sandbox::{ComponentState, ModuleState};

/// Interface-name prefixes of the imports that do something for a plugin.
pub const GRANTED_IMPORTS: [&str; 6] = [
    "wasi:io/",
    "wasi:clocks/",
    "wasi:random/",
    "wasi:cli/",
    "wasi:filesystem/",
    "wasi:logging/",
];

/// A grant a plugin's settings must give for an import to do anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grant {
    /// `wasi:http`: `allowedHosts`.
    AllowedHosts,
    /// `wasi:keyvalue`: `state`.
    State,
}

impl Grant {
    /// The setting to add, as a user would write it.
    pub fn setting(self) -> &'static str {
        match self {
            Grant::AllowedHosts => "\"allowedHosts\": [\"<host>\"]",
            Grant::State => "\"state\": true",
        }
    }
}

/// The grant a component import needs, if it is a capability interface.
pub fn grant_needed(import: &str) -> Option<Grant> {
    if import.starts_with("wasi:http/") {
        Some(Grant::AllowedHosts)
    } else if import.starts_with("wasi:keyvalue/") {
        Some(Grant::State)
    } else {
        None
    }
}

/// Whether a component import is one hookhost grants (rather than denies or lacks).
pub fn is_granted(import: &str) -> bool {
    GRANTED_IMPORTS
        .iter()
        .any(|prefix| import.starts_with(prefix))
}

/// Whether a preview-1 module's import (`module`, `name`) is one hookhost grants:
/// every `wasi_snapshot_preview1` function but the sockets (`sock_*`, linked with
/// no sockets to use). Every Go, C, Zig and Rust `wasm32-wasip1` module imports
/// `fd_write`, `proc_exit` …: those are granted, not warned about.
pub fn is_granted_module_import(module: &str, name: &str) -> bool {
    module == "wasi_snapshot_preview1" && !name.starts_with("sock_")
}

/// The `wasi:filesystem/types` instance wasmtime-wasi links (guests importing an
/// older 0.2.x resolve to it); `symlink_is_refused` tests catch a version change.
const FILESYSTEM_TYPES: &str = "wasi:filesystem/types@0.2.12";

/// WASI preview-1 `errno::perm`.
const P1_ERRNO_PERM: i32 = 63;

/// The component linker: all of WASI 0.2, network denied by the context, symlink
/// creation refused.
pub fn component_linker(engine: &Engine) -> wasmtime::Result<ComponentLinker<ComponentState>> {
    use wasmtime::component::Resource;
    use wasmtime_wasi::p2::bindings::filesystem::types::{Descriptor, ErrorCode};
    let mut linker = ComponentLinker::new(engine);
    wasmtime_wasi::p2::add_to_linker_async(&mut linker)?;
    link_capabilities(&mut linker)?;
    linker.allow_shadowing(true);
    linker.instance(FILESYSTEM_TYPES)?.func_wrap(
        "[method]descriptor.symlink-at",
        |_store, _params: (Resource<Descriptor>, String, String)| {
            Ok((Err::<(), _>(ErrorCode::NotPermitted),))
        },
    )?;
    linker.allow_shadowing(false);
    Ok(linker)
}

/// The capability interfaces, linked for every component; what a call may do with
/// them is its grants' business ([`super::sandbox::ComponentState`]): without
/// `allowedHosts` every request is denied, without `state` every `open` is.
fn link_capabilities(linker: &mut ComponentLinker<ComponentState>) -> wasmtime::Result<()> {
    use super::capabilities::{logging, store};
    use super::keyvalue::KeyValueView;
    use super::logging::CallLogs;
    use wasmtime::component::HasSelf;

    struct KeyValueData;
    impl wasmtime::component::HasData for KeyValueData {
        type Data<'a> = KeyValueView<'a>;
    }
    wasmtime_wasi_http::p2::add_only_http_to_linker_async(linker)?;
    logging::add_to_linker::<_, HasSelf<CallLogs>>(linker, |s| &mut s.logs)?;
    store::add_to_linker::<_, KeyValueData>(linker, |s| KeyValueView {
        kv: &s.kv,
        table: &mut s.table,
    })?;
    // Toolchains that import wasi-logging without a version (wasmCloud's WIT)
    // get the same function.
    let mut unversioned = linker.instance(UNVERSIONED_LOGGING)?;
    unversioned.func_wrap(
        "log",
        |mut store: wasmtime::StoreContextMut<'_, ComponentState>,
         (level, context, message): (logging::Level, String, String)| {
            logging::Host::log(&mut store.data_mut().logs, level, context, message);
            Ok(())
        },
    )?;
    Ok(())
}

/// wasi-logging's interface as wasmCloud's WIT names it.
const UNVERSIONED_LOGGING: &str = "wasi:logging/logging";

/// The preview-1 module linker, symlink creation refused.
pub fn module_linker(engine: &Engine) -> wasmtime::Result<wasmtime::Linker<ModuleState>> {
    let mut linker = wasmtime::Linker::new(engine);
    wasmtime_wasi::p1::add_to_linker_async(&mut linker, |s: &mut ModuleState| &mut s.wasi)?;
    linker.allow_shadowing(true);
    linker.func_wrap(
        "wasi_snapshot_preview1",
        "path_symlink",
        |_: wasmtime::Caller<'_, ModuleState>, _: i32, _: i32, _: i32, _: i32, _: i32| {
            P1_ERRNO_PERM
        },
    )?;
    linker.allow_shadowing(false);
    Ok(linker)
}
