//! A plugin hook — its settings over a shared compiled module — and one call of it.
//!
//! Loading ([`super::module`], once per file) reads the file (refusing anything but
//! a regular file), detects component vs preview-1 module, compiles (or takes the
//! artifact from the compile cache), lists denied imports, and pre-instantiates
//! against the linker; [`Plugin::new`] then checks the hook's `sha256` pin and
//! preopens. Every failure that can be found before running is found once, with its
//! cause. A call only builds a fresh store and instance — no state survives between
//! calls — under the hook's fuel, memory and wall-clock limits.

use std::sync::Arc;
use std::time::{Duration, Instant};

use wasmtime::{Store, Trap};
use wasmtime_wasi::I32Exit;

#[cfg(feature = "internals")]
use super::cache::CacheStatus;
use wasmtime_wasi_http::WasiHttpCtx;

use super::http_grant::HttpGrant;
use super::keyvalue::{KeyValue, LazyStore};
use super::limits::Limiter;
use super::logging::CallLogs;
use super::module::{Compiled, Entry};
use super::preopen::PreopenError;
use super::sandbox::{ComponentState, MAX_GUEST_HANDLES, ModuleState, context};
use crate::config::{HostPattern, PluginConfig};
use crate::state::StoreIdentity;
use crate::runner::{HookFailure, LoadError, RawOutcome, RunContext, Status};


/// A plugin ready to run: one hook's settings over a shared compiled module.
pub struct Plugin {
    config: PluginConfig,
    program: String,
    compiled: Arc<Compiled>,
    hosts: Arc<[HostPattern]>,
    store: Option<Arc<LazyStore>>,
}

impl std::fmt::Debug for Plugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plugin")
            .field("path", &self.config.path)
            .field("kind", &self.compiled.kind)
            .field("cache", &self.compiled.cache)
            .finish_non_exhaustive()
    }
}

impl Plugin {
    /// The module file's SHA-256, `sha256:<hex>`.
    pub fn digest(&self) -> String {
        format!("sha256:{}", hex::encode(self.compiled.digest))
    }

    /// The plugin described by `config`, running `compiled` (the file at
    /// `config.path`, loaded once for every hook that names it).
    pub fn new(compiled: Arc<Compiled>, config: &PluginConfig) -> Result<Plugin, HookFailure> {
        if let Some(pinned) = config.sha256
            && pinned != compiled.digest
        {
            return Err(HookFailure::Load(LoadError::Sha256Mismatch {
                path: config.path.clone(),
                pinned,
                actual: compiled.digest,
            }));
        }
        for preopen in &config.preopens {
            if !preopen.host.is_dir() {
                return Err(HookFailure::Load(LoadError::Preopen {
                    path: config.path.clone(),
                    source: Arc::new(PreopenError::NotDirectory {
                        host: preopen.host.clone(),
                    }),
                }));
            }
        }
        let program = config
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "plugin.wasm".to_owned());
        Ok(Plugin {
            config: config.clone(),
            program,
            compiled,
            hosts: config.grants.allowed_hosts.clone().into(),
            store: None,
        })
    }

    /// Gives a plugin granted `state` its store under `dir` (opened on first use);
    /// `None`: no state dir, so its `open` fails with an error value.
    pub fn with_state_dir(mut self, dir: Option<&std::path::Path>) -> Plugin {
        let (Some(grant), Some(identity)) =
            (&self.config.grants.state, StoreIdentity::of(&self.config))
        else {
            return self;
        };
        self.store = Some(Arc::new(LazyStore::new(dir, identity, grant.max_bytes)));
        self
    }

    /// Whether the hook grants network or state to a preview-1 module, which
    /// cannot use them (they are WASI 0.2 interfaces).
    pub fn grants_unusable(&self) -> bool {
        self.compiled.kind == super::WasmKind::Module
            && (!self.hosts.is_empty() || self.config.grants.state.is_some())
    }

    /// The grants this plugin's imports need and its hook lacks, each with the
    /// setting to add and the imports that need it: `wasi:http` without
    /// `allowedHosts`, `wasi:keyvalue` without `state`. (They are linked anyway —
    /// every request or `open` then fails with an error value — since toolchains
    /// import interfaces their code never calls.)
    pub fn missing_grants(&self) -> Vec<(&'static str, Vec<String>)> {
        let mut missing: Vec<(&'static str, Vec<String>)> = Vec::new();
        for import in &self.compiled.capability_imports {
            let Some(needs) = super::linker::grant_needed(import) else {
                continue;
            };
            let granted = match needs {
                super::linker::Grant::AllowedHosts => !self.hosts.is_empty(),
                super::linker::Grant::State => self.config.grants.state.is_some(),
            };
            if granted {
                continue;
            }
            match missing.iter_mut().find(|(setting, _)| *setting == needs.setting()) {
                Some((_, imports)) => imports.push(import.clone()),
                None => missing.push((needs.setting(), vec![import.clone()])),
            }
        }
        missing
    }

    /// Whether both run the same compiled module (the same file, loaded once).
    #[cfg(feature = "internals")]
    pub fn shares_module_with(&self, other: &Plugin) -> bool {
        Arc::ptr_eq(&self.compiled, &other.compiled)
    }

    /// What the compile cache did when this plugin was loaded.
    #[cfg(feature = "internals")]
    pub fn cache_status(&self) -> CacheStatus {
        self.compiled.cache
    }

    /// Imports outside the granted set (e.g. wasi:sockets, which is denied).
    pub fn ungranted_imports(&self) -> &[String] {
        &self.compiled.ungranted
    }

    /// Runs the plugin once with `input` on stdin, within `timeout`.
    /// The wait for a pool slot comes first and is not part of `timeout`: a guard
    /// that never started must not time out (and fail open) because others ran.
    pub async fn run(&self, input: Arc<[u8]>, timeout: Duration, ctx: &RunContext) -> RawOutcome {
        let queued_at = Instant::now();
        let Ok(_permit) = self.compiled.slots.acquire().await else {
            return RawOutcome::failed(HookFailure::Load(LoadError::ShuttingDown));
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
            Err(e) => {
                return RawOutcome::failed(HookFailure::Load(LoadError::Sandbox(Arc::new(e))));
            }
        };
        let logs = CallLogs::default();
        let call = self.call(builder, &logs);
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
            logs: logs.take(),
        }
    }

    /// One call: its status and the fuel it burned.
    async fn call(
        &self,
        mut builder: wasmtime_wasi::WasiCtxBuilder,
        logs: &CallLogs,
    ) -> (Status, Option<u64>) {
        let limiter = Limiter::new(self.config.memory_limit);
        match &self.compiled.entry {
            Entry::Component(pre) => {
                let mut table = wasmtime::component::ResourceTable::new();
                table.set_max_capacity(MAX_GUEST_HANDLES);
                let state = ComponentState {
                    wasi: builder.build(),
                    table,
                    limiter,
                    logs: logs.clone(),
                    kv: KeyValue {
                        store: self.store.clone(),
                    },
                    http: HttpGrant::new(Arc::clone(&self.hosts), logs.clone()),
                    http_ctx: WasiHttpCtx::new(),
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
        let mut store = Store::new(&self.compiled.engine, state);
        store.limiter(move |s| limiter(s) as &mut dyn wasmtime::ResourceLimiter);
        // Fuel is on for every store of this engine, so this cannot fail.
        let _ = store.set_fuel(self.config.fuel);
        // The behaviour alone leaves the deadline at epoch 0, already passed: every
        // call would yield (return `Pending`) at its first epoch check and finish
        // only when re-polled. The deadline is the next tick; after each tick the
        // guest yields once and gets one more.
        store.set_epoch_deadline(1);
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
