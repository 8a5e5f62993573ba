//! A compiled module: what every hook that runs the same `.wasm` file shares.
//!
//! Reading, hashing, compiling (or mapping the cached artifact) and pre-instantiating
//! a file is the expensive part of loading a plugin. A [`super::WasmEngine`] does it
//! once per file, however many hooks refer to the file with whatever limits and
//! grants; a hook's own settings live in [`super::Plugin`].
//!
//! A warm load — the compile cache knows the file ([`super::known`]) and holds its
//! artifact — reads neither: the file is only `stat`ed and the artifact mapped.
//! The imports hookhost denies are listed from the compiled module's type, not by
//! parsing the file. Measured on a componentize-py plugin (18 MiB `.wasm`, 53 MiB
//! artifact): a warm `hookhost fire` went from ~90 ms, most of it reading and
//! hashing both files, to the cost of mapping and instantiating.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use sha2::{Digest, Sha256};
use tokio::sync::Semaphore;
use wasmtime::component::Component;
use wasmtime::{Engine, InstancePre, Module};
use wasmtime_wasi::p2::bindings::CommandPre;

use super::cache::{CacheStatus, Cached};
use super::detect::WasmKind;
use super::known::{self, Known};
use super::linker::{grant_needed, is_granted, is_granted_module_import};
use super::runtime::Runtime;
use super::sandbox::{ComponentState, ModuleState};
use super::stamp::Stamp;
use crate::bounded_read::ReadError;

/// Plugin files larger than this are refused.
pub const MAX_PLUGIN_BYTES: u64 = 512 * 1024 * 1024;

/// Why a plugin file cannot be loaded; the message names the cause, not the file
/// (the caller adds the path).
#[derive(Debug, thiserror::Error)]
pub enum PluginLoadError {
    /// Not a regular file, larger than [`MAX_PLUGIN_BYTES`], or unreadable.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The bytes are not WebAssembly.
    #[error("not a WebAssembly component or module (bad magic number or version)")]
    NotWasm,
    /// wasmtime cannot compile it.
    #[error("invalid {}: {source:#}", .kind.as_str())]
    Invalid {
        /// Component or module.
        kind: WasmKind,
        /// wasmtime's error.
        source: wasmtime::Error,
    },
    /// A component imports something the linker does not provide.
    #[error("imports something hookhost does not provide: {0}")]
    ComponentImports(#[source] wasmtime::Error),
    /// A component does not export `wasi:cli/run`.
    #[error("does not export wasi:cli/run (build it as a command): {0}")]
    NoRun(#[source] wasmtime::Error),
    /// A core module does not export `_start`.
    #[error("does not export _start (build it as a WASI command)")]
    NoStart,
    /// A core module imports something the linker does not grant.
    #[error("imports something hookhost does not grant: {0}")]
    ModuleImports(#[source] wasmtime::Error),
}

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
    /// Imports of capability interfaces (wasi:http, wasi:keyvalue): what they
    /// do depends on each hook's grants.
    pub(super) capability_imports: Vec<String>,
    pub(super) entry: Entry,
    /// What a call needs of the engine (not the [`WasmEngine`] itself, which
    /// holds this module: that would be a cycle).
    pub(super) engine: Engine,
    pub(super) slots: Arc<Semaphore>,
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

/// A compiled component or module.
enum Code {
    Component(Component),
    Module(Module),
}

impl Compiled {
    /// Reads, checks, compiles and pre-instantiates the file at `path` — or, when
    /// the compile cache knows it, maps its artifact without reading it; the error
    /// names the cause (the caller adds the path).
    pub fn load(engine: &Runtime, path: &Path) -> Result<Compiled, PluginLoadError> {
        let (file, stamp) = open_regular(path)?;
        let warm = engine.cache().and_then(|cache| {
            let known = known::recall(cache.dir(), &stamp)?;
            let path = cache.path(&known.digest, known.kind.as_str());
            let Cached::Valid(artifact) = cache.open(&path) else {
                return None;
            };
            deserialize(engine, known.kind, artifact, &path)
                .ok()
                .map(|code| (known, code))
        });
        let (known, code, cache) = match warm {
            Some((known, code)) => (known, code, CacheStatus::Hit),
            None => {
                // Bounded however big the file said it was: `/proc/self/pagemap`
                // is a "regular file" of size 0.
                let bytes =
                    crate::bounded_read::read_at_most(file, MAX_PLUGIN_BYTES, stamp.size())?;
                // Whether the file had settled is judged now, right after reading:
                // a write after this moves its times (see `stamp`).
                let after = std::fs::metadata(path)
                    .map(|m| Stamp::of(&m))
                    .ok()
                    .filter(Stamp::settled);
                let digest: [u8; 32] = Sha256::digest(&bytes).into();
                let kind = WasmKind::detect(&bytes).ok_or(PluginLoadError::NotWasm)?;
                let known = Known { digest, kind };
                let (code, cache) = compile(engine, &bytes, known)?;
                if let (Some(c), Some(after)) = (engine.cache(), after) {
                    known::remember(c.dir(), &stamp, &after, known);
                }
                (known, code, cache)
            }
        };
        Compiled::ready(engine, known, code, cache)
    }

    /// The builtin policies' pack ([`crate::builtin::PACK`]), from the bytes in
    /// this binary: what every builtin hook runs. No file is read, so nothing on
    /// disk can change what a builtin runs.
    pub fn load_pack(engine: &Runtime) -> Result<Compiled, PluginLoadError> {
        let pack = &crate::builtin::PACK;
        let known = Known {
            digest: pack.sha256(),
            kind: WasmKind::Component,
        };
        let (code, cache) = compile(engine, pack.bytes(), known)?;
        Compiled::ready(engine, known, code, cache)
    }

    /// Pre-instantiates compiled `code` against the engine's linker.
    fn ready(
        engine: &Runtime,
        known: Known,
        code: Code,
        cache: CacheStatus,
    ) -> Result<Compiled, PluginLoadError> {
        let (entry, ungranted, capability_imports) = match code {
            Code::Component(component) => {
                let (capabilities, ungranted): (Vec<String>, Vec<String>) = component
                    .component_type()
                    .imports(engine.wasmtime())
                    .map(|(name, _)| name.to_owned())
                    .filter(|name| !is_granted(name))
                    .partition(|name| grant_needed(name).is_some());
                let pre = engine
                    .component_linker()
                    .instantiate_pre(&component)
                    .map_err(PluginLoadError::ComponentImports)?;
                let pre = CommandPre::new(pre).map_err(PluginLoadError::NoRun)?;
                (Entry::Component(pre), ungranted, capabilities)
            }
            Code::Module(module) => {
                if module.get_export("_start").is_none() {
                    return Err(PluginLoadError::NoStart);
                }
                let ungranted = module
                    .imports()
                    .filter(|i| !is_granted_module_import(i.module(), i.name()))
                    .map(|i| format!("{}::{}", i.module(), i.name()))
                    .collect();
                let pre = engine
                    .module_linker()
                    .and_then(|linker| linker.instantiate_pre(&module))
                    .map_err(PluginLoadError::ModuleImports)?;
                (Entry::Module(pre), ungranted, Vec::new())
            }
        };
        Ok(Compiled {
            kind: known.kind,
            cache,
            digest: known.digest,
            ungranted,
            capability_imports,
            entry,
            engine: engine.wasmtime().clone(),
            slots: Arc::clone(engine.slots()),
        })
    }
}

/// Opens `path` if it is a regular file within [`MAX_PLUGIN_BYTES`], with its stamp.
fn open_regular(path: &Path) -> Result<(std::fs::File, Stamp), ReadError> {
    let (file, meta) = crate::bounded_read::open_regular_file(path, MAX_PLUGIN_BYTES)?;
    Ok((file, Stamp::of(&meta)))
}

/// Maps a cached artifact.
fn deserialize(
    engine: &Runtime,
    kind: WasmKind,
    artifact: std::fs::File,
    path: &Path,
) -> wasmtime::Result<Code> {
    #[allow(unsafe_code)]
    // SAFETY: the artifact matches its sidecar (by the stamp taken when this program
    // wrote it, or by its SHA-256) in the user's private cache (see `cache`); it is
    // only ever replaced by rename, never modified in place, so the mapping cannot
    // change under wasmtime.
    unsafe {
        match kind {
            // wasmtime 48 has no `deserialize_open_file` for components: the path
            // of the open descriptor maps the very file that was checked.
            WasmKind::Component => {
                use std::os::fd::AsRawFd;
                let fd = PathBuf::from(format!("/proc/self/fd/{}", artifact.as_raw_fd()));
                // Without /proc, the path (an artifact is only replaced by another
                // artifact of the same digest, never changed in place).
                let mapped = if fd.exists() { fd.as_path() } else { path };
                let component = Component::deserialize_file(engine.wasmtime(), mapped);
                drop(artifact);
                component.map(Code::Component)
            }
            WasmKind::Module => {
                Module::deserialize_open_file(engine.wasmtime(), artifact).map(Code::Module)
            }
        }
    }
}

/// Compiles `bytes`, going through the compile cache when there is one.
fn compile(
    engine: &Runtime,
    bytes: &[u8],
    known: Known,
) -> Result<(Code, CacheStatus), PluginLoadError> {
    let kind = known.kind;
    let compile_now = || {
        match kind {
            WasmKind::Component => Component::new(engine.wasmtime(), bytes).map(Code::Component),
            WasmKind::Module => Module::new(engine.wasmtime(), bytes).map(Code::Module),
        }
        .map_err(|source| PluginLoadError::Invalid { kind, source })
    };
    let Some(cache) = engine.cache() else {
        return compile_now().map(|code| (code, CacheStatus::Disabled));
    };
    let path = cache.path(&known.digest, kind.as_str());
    let status = match cache.open(&path) {
        Cached::Valid(artifact) => match deserialize(engine, kind, artifact, &path) {
            Ok(code) => return Ok((code, CacheStatus::Hit)),
            Err(_) => CacheStatus::Corrupt,
        },
        Cached::Missing => CacheStatus::Miss,
        Cached::Corrupt => CacheStatus::Corrupt,
    };
    let code = compile_now()?;
    let artifact = match &code {
        Code::Component(c) => c.serialize(),
        Code::Module(m) => m.serialize(),
    };
    if let Ok(artifact) = artifact {
        cache.write(&path, &artifact);
        // Run the stored artifact, mapped, rather than the code just compiled into
        // anonymous memory: its pages are then shared, file-backed and reclaimable
        // (100 plugins compiled in one process: ~170 MiB resident otherwise).
        if let Cached::Valid(stored) = cache.open(&path)
            && let Ok(mapped) = deserialize(engine, kind, stored, &path)
        {
            return Ok((mapped, status));
        }
    }
    Ok((code, status))
}
