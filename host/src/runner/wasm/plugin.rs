//! A loaded plugin and one call of it.
//!
//! Loading reads the file (refusing anything but a regular file), checks the
//! `sha256` pin, detects component vs preview-1 module, compiles (or takes the
//! artifact from the compile cache), refuses denied imports, and pre-instantiates
//! against the linker, so every failure that can be found before running is found
//! once, with its cause. A call then only builds a fresh store and instance — no
//! state survives between calls — under the hook's fuel, memory and wall-clock
//! limits.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};
use wasmtime::component::Component;
use wasmtime::{InstancePre, Module, Store, Trap};
use wasmtime_wasi::I32Exit;
use wasmtime_wasi::p2::bindings::CommandPre;

use super::cache::{CacheStatus, Cached};
use super::detect::{WasmKind, imports};
use super::engine::Shared;
use super::limits::Limiter;
use super::linker::is_granted;
use super::sandbox::{ComponentState, MAX_GUEST_HANDLES, ModuleState, context};
use crate::config::PluginConfig;
use crate::runner::{HookFailure, RawOutcome, RunContext, Status};

/// Plugin files larger than this are refused.
pub const MAX_PLUGIN_BYTES: u64 = 512 * 1024 * 1024;

enum Entry {
    Component(CommandPre<ComponentState>),
    Module(InstancePre<ModuleState>),
}

/// A plugin ready to run.
pub struct Plugin {
    config: PluginConfig,
    program: String,
    kind: WasmKind,
    cache: CacheStatus,
    digest: [u8; 32],
    ungranted: Vec<String>,
    entry: Entry,
    shared: Arc<Shared>,
}

impl std::fmt::Debug for Plugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plugin")
            .field("path", &self.config.path)
            .field("kind", &self.kind)
            .field("cache", &self.cache)
            .finish_non_exhaustive()
    }
}

impl Plugin {
    /// Loads the plugin described by `config`.
    pub fn load(shared: &Arc<Shared>, config: &PluginConfig) -> Result<Plugin, HookFailure> {
        let load = |msg: String| HookFailure::Load(format!("{}: {msg}", config.path.display()));
        let bytes = read_regular_file(&config.path).map_err(load)?;
        let digest: [u8; 32] = Sha256::digest(&bytes).into();
        if let Some(pinned) = config.sha256
            && pinned != digest
        {
            return Err(load(format!(
                "sha256 mismatch: settings pin {}, the file has {}",
                hex::encode(pinned),
                hex::encode(digest)
            )));
        }
        let kind = WasmKind::detect(&bytes).ok_or_else(|| {
            load("not a WebAssembly component or module (bad magic number or version)".into())
        })?;
        for preopen in &config.preopens {
            if !preopen.host.is_dir() {
                return Err(load(format!(
                    "preopen {} is not a directory",
                    preopen.host.display()
                )));
            }
        }
        let mut ungranted = Vec::new();
        let (entry, cache) = match kind {
            WasmKind::Component => {
                ungranted = imports(&bytes)
                    .map_err(|e| load(format!("invalid component: {e}")))?
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
                )
                .map_err(load)?;
                let pre = shared
                    .component_linker
                    .instantiate_pre(&component)
                    .map_err(|e| {
                        load(format!("imports something hookhost does not provide: {e}"))
                    })?;
                let pre = CommandPre::new(pre).map_err(|e| {
                    load(format!(
                        "does not export wasi:cli/run (build it as a command): {e}"
                    ))
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
                )
                .map_err(load)?;
                if module.get_export("_start").is_none() {
                    return Err(load(
                        "does not export _start (build it as a WASI command)".into(),
                    ));
                }
                let pre = shared
                    .module_linker
                    .instantiate_pre(&module)
                    .map_err(|e| load(format!("imports something hookhost does not grant: {e}")))?;
                (Entry::Module(pre), cache)
            }
        };
        let program = config
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "plugin.wasm".to_owned());
        Ok(Plugin {
            config: config.clone(),
            program,
            kind,
            cache,
            digest,
            ungranted,
            entry,
            shared: Arc::clone(shared),
        })
    }

    /// Component or module.
    pub fn kind(&self) -> WasmKind {
        self.kind
    }

    /// What the compile cache did when this plugin was loaded.
    pub fn cache_status(&self) -> CacheStatus {
        self.cache
    }

    /// Imports outside the granted set (e.g. wasi:sockets, which is denied).
    pub fn ungranted_imports(&self) -> &[String] {
        &self.ungranted
    }

    /// The SHA-256 of the file.
    pub fn digest(&self) -> &[u8; 32] {
        &self.digest
    }

    /// Runs the plugin once with `input` on stdin, within `timeout`.
    /// The wait for a pool slot comes first and is not part of `timeout`: a guard
    /// that never started must not time out (and fail open) because others ran.
    pub async fn run(&self, input: Arc<[u8]>, timeout: Duration, ctx: &RunContext) -> RawOutcome {
        let queued_at = Instant::now();
        let Ok(_permit) = self.shared.slots.acquire().await else {
            return RawOutcome::failed(HookFailure::Load("the engine is shutting down".into()));
        };
        let queued = queued_at.elapsed();
        let start = Instant::now();
        let (builder, stdio) = match context(
            &self.config,
            &self.program,
            &ctx.project_env,
            input,
            ctx.output_cap,
        ) {
            Ok(built) => built,
            Err(e) => return RawOutcome::failed(HookFailure::Load(e)),
        };
        let call = self.call(builder);
        let (status, fuel_used) = match tokio::time::timeout(timeout, call).await {
            Ok(done) => done,
            Err(_) => (Status::Failed(HookFailure::Timeout(timeout)), None),
        };
        RawOutcome {
            status,
            stdout: stdio.stdout.take(),
            stderr: stdio.stderr.take(),
            duration: start.elapsed(),
            queued,
            fuel_used,
        }
    }

    /// One call: its status and the fuel it burned.
    async fn call(&self, mut builder: wasmtime_wasi::WasiCtxBuilder) -> (Status, Option<u64>) {
        let limiter = Limiter::new(self.config.memory_limit);
        match &self.entry {
            Entry::Component(pre) => {
                let mut table = wasmtime::component::ResourceTable::new();
                table.set_max_capacity(MAX_GUEST_HANDLES);
                let state = ComponentState {
                    wasi: builder.build(),
                    table,
                    limiter,
                };
                let mut store = self.store(state, |s| &mut s.limiter);
                let result = async {
                    let command = pre.instantiate_async(&mut store).await?;
                    command.wasi_cli_run().call_run(&mut store).await
                }
                .await;
                let refused = store.data().limiter.memory_refused;
                let status = match result {
                    Ok(Ok(())) => Status::Exited(0),
                    Ok(Err(())) => Status::Exited(1),
                    Err(e) => self.failure(e, refused),
                };
                (status, self.fuel_used(&store))
            }
            Entry::Module(pre) => {
                let mut wasi = builder.build_p1();
                wasmtime_wasi::WasiView::ctx(&mut wasi)
                    .table
                    .set_max_capacity(MAX_GUEST_HANDLES);
                let state = ModuleState { wasi, limiter };
                let mut store = self.store(state, |s| &mut s.limiter);
                let result = async {
                    let instance = pre.instantiate_async(&mut store).await?;
                    let start = instance.get_typed_func::<(), ()>(&mut store, "_start")?;
                    start.call_async(&mut store, ()).await
                }
                .await;
                let refused = store.data().limiter.memory_refused;
                let status = match result {
                    Ok(()) => Status::Exited(0),
                    Err(e) => self.failure(e, refused),
                };
                (status, self.fuel_used(&store))
            }
        }
    }

    fn store<T: 'static>(&self, state: T, limiter: fn(&mut T) -> &mut Limiter) -> Store<T> {
        let mut store = Store::new(&self.shared.engine, state);
        store.limiter(move |s| limiter(s) as &mut dyn wasmtime::ResourceLimiter);
        // Fuel is on for every store of this engine, so this cannot fail.
        let _ = store.set_fuel(self.config.fuel);
        store.epoch_deadline_async_yield_and_update(1);
        store
    }

    fn fuel_used<T>(&self, store: &Store<T>) -> Option<u64> {
        let left = store.get_fuel().ok()?;
        Some(self.config.fuel.saturating_sub(left))
    }

    /// Names the cause of a failed call.
    fn failure(&self, error: wasmtime::Error, memory_refused: bool) -> Status {
        if let Some(exit) = error.downcast_ref::<I32Exit>() {
            return Status::Exited(exit.0);
        }
        if memory_refused {
            return Status::Failed(HookFailure::MemoryLimit(self.config.memory_limit));
        }
        match error.downcast_ref::<Trap>() {
            Some(Trap::OutOfFuel) => Status::Failed(HookFailure::FuelExhausted(self.config.fuel)),
            Some(Trap::StackOverflow) => Status::Failed(HookFailure::Trap("stack overflow".into())),
            Some(trap) => Status::Failed(HookFailure::Trap(trap.to_string())),
            None => Status::Failed(HookFailure::Trap(format!("{error:#}"))),
        }
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

fn read_regular_file(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read: {e}"))?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    if meta.len() > MAX_PLUGIN_BYTES {
        return Err(format!(
            "{} bytes, larger than the {MAX_PLUGIN_BYTES}-byte limit",
            meta.len()
        ));
    }
    // The reported size is not the truth for every "regular" file (`/proc/self/pagemap`
    // says 0): bound the read itself.
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(MAX_PLUGIN_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > MAX_PLUGIN_BYTES {
        return Err(format!("larger than the {MAX_PLUGIN_BYTES}-byte limit"));
    }
    Ok(bytes)
}
