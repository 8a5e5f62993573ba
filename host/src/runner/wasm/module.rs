//! A compiled module: what every hook that runs the same `.wasm` file shares.
//!
//! Reading, hashing, compiling (or mapping the cached artifact) and pre-instantiating
//! a file is the expensive part of loading a plugin — for a componentize-py guest,
//! tens of milliseconds. A hook system does it once per file (per engine), however
//! many hooks refer to the file with whatever limits and grants
//! ([`super::WasmEngine`] keeps the map); a hook's own settings live in
//! [`super::Plugin`].

use std::path::Path;
use std::sync::Arc;

use sha2::{Digest, Sha256};
use wasmtime::component::Component;
use wasmtime::{InstancePre, Module};
use wasmtime_wasi::p2::bindings::CommandPre;

use super::cache::{CacheStatus, Cached};
use super::detect::{WasmKind, imports};
use super::engine::Shared;
use super::linker::is_granted;
use super::sandbox::{ComponentState, ModuleState};

/// Plugin files larger than this are refused.
pub const MAX_PLUGIN_BYTES: u64 = 512 * 1024 * 1024;

/// How a module is instantiated.
pub(super) enum Entry {
    Component(CommandPre<ComponentState>),
    Module(InstancePre<ModuleState>),
}

/// One file, compiled and pre-instantiated against one engine.
pub struct Compiled {
    pub(super) kind: WasmKind,
    pub(super) cache: CacheStatus,
    pub(super) digest: [u8; 32],
    pub(super) ungranted: Vec<String>,
    pub(super) entry: Entry,
    pub(super) shared: Arc<Shared>,
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled")
            .field("kind", &self.kind)
            .field("cache", &self.cache)
            .field("digest", &hex::encode(self.digest))
            .finish_non_exhaustive()
    }
}

impl Compiled {
    /// Reads, checks, compiles and pre-instantiates the file at `path`; the error
    /// names the cause (the caller adds the path).
    pub fn load(shared: &Arc<Shared>, path: &Path) -> Result<Compiled, String> {
        let bytes = crate::bounded_read::read_regular_file(path, MAX_PLUGIN_BYTES)?;
        let digest: [u8; 32] = Sha256::digest(&bytes).into();
        let kind = WasmKind::detect(&bytes).ok_or_else(|| {
            "not a WebAssembly component or module (bad magic number or version)".to_owned()
        })?;
        let mut ungranted = Vec::new();
        let (entry, cache) = match kind {
            WasmKind::Component => {
                ungranted = imports(&bytes)
                    .map_err(|e| format!("invalid component: {e}"))?
                    .into_iter()
                    .filter(|name| !is_granted(name))
                    .collect();
                let (component, cache) = compile(
                    shared,
                    &bytes,
                    &digest,
                    kind,
                    |b| Component::new(&shared.engine, b),
                    |b| {
                        #[allow(unsafe_code)]
                        // SAFETY: the artifact passed its SHA-256 check and was written by
                        // this program into the user's private cache (see `cache`); it is
                        // only ever replaced by rename, never modified in place, so the
                        // mapping cannot change under wasmtime.
                        unsafe {
                            Component::deserialize_file(&shared.engine, b)
                        }
                    },
                    Component::serialize,
                )?;
                let pre = shared
                    .component_linker
                    .instantiate_pre(&component)
                    .map_err(|e| format!("imports something hookhost does not provide: {e}"))?;
                let pre = CommandPre::new(pre).map_err(|e| {
                    format!("does not export wasi:cli/run (build it as a command): {e}")
                })?;
                (Entry::Component(pre), cache)
            }
            WasmKind::Module => {
                let (module, cache) = compile(
                    shared,
                    &bytes,
                    &digest,
                    kind,
                    |b| Module::new(&shared.engine, b),
                    |b| {
                        #[allow(unsafe_code)]
                        // SAFETY: as for components above.
                        unsafe {
                            Module::deserialize_file(&shared.engine, b)
                        }
                    },
                    Module::serialize,
                )?;
                if module.get_export("_start").is_none() {
                    return Err("does not export _start (build it as a WASI command)".into());
                }
                let pre = shared
                    .module_linker
                    .instantiate_pre(&module)
                    .map_err(|e| format!("imports something hookhost does not grant: {e}"))?;
                (Entry::Module(pre), cache)
            }
        };
        Ok(Compiled {
            kind,
            cache,
            digest,
            ungranted,
            entry,
            shared: Arc::clone(shared),
        })
    }
}

/// Compiles `bytes`, going through the compile cache when there is one.
fn compile<T>(
    shared: &Shared,
    bytes: &[u8],
    digest: &[u8; 32],
    kind: WasmKind,
    compile: impl Fn(&[u8]) -> wasmtime::Result<T>,
    deserialize: impl Fn(&Path) -> wasmtime::Result<T>,
    serialize: impl Fn(&T) -> wasmtime::Result<Vec<u8>>,
) -> Result<(T, CacheStatus), String> {
    let compile_now = || compile(bytes).map_err(|e| format!("invalid {}: {e:#}", kind.as_str()));
    let Some(cache) = &shared.cache else {
        return compile_now().map(|t| (t, CacheStatus::Disabled));
    };
    let path = cache.path(digest, kind.as_str());
    let status = match cache.read(&path) {
        Cached::Valid(artifact) => match deserialize(&artifact) {
            Ok(t) => return Ok((t, CacheStatus::Hit)),
            Err(_) => CacheStatus::Corrupt,
        },
        Cached::Missing => CacheStatus::Miss,
        Cached::Corrupt => CacheStatus::Corrupt,
    };
    let compiled = compile_now()?;
    if let Ok(artifact) = serialize(&compiled) {
        cache.write(&path, &artifact);
    }
    Ok((compiled, status))
}
