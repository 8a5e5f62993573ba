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
use crate::builtin::Builtin;
use crate::config::{HostPattern, PluginConfig, Preopen};
use crate::runner::{HookFailure, LoadError, RawOutcome, RunContext, Status};
use crate::state::StoreIdentity;

/// What one call of a plugin is given beyond its module and sandbox: the hook's
/// own, or for builtins sharing an instance, theirs together.
pub(super) struct Call<'a> {
    /// The arguments after the program name.
    pub args: &'a [String],
    /// The fuel budget.
    pub fuel: u64,
    /// The directories.
    pub preopens: &'a [Preopen],
}

/// A plugin ready to run: one hook's settings over a shared compiled module.
pub struct Plugin {
    config: PluginConfig,
    /// The builtin policy this hook runs in the pack ([`crate::builtin::PACK`]).
    builtin: Option<&'static Builtin>,
    program: String,
    /// What follows the program name: the hook's `args`, for a builtin after its
    /// name and their count (the pack's arguments).
    args: Vec<String>,
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
    /// The module file's SHA-256, `sha256:<hex>`; a builtin's own
    /// (`NAME.wasm`'s, what `policy list` shows), though the pack runs it.
    pub fn digest(&self) -> String {
        match self.builtin {
            Some(b) => b.digest(),
            None => format!("sha256:{}", hex::encode(self.compiled.digest)),
        }
    }

    /// Whether `other` may run in the same instance of the pack as this hook
    /// ([`super::together`]): both builtins on the same compiled pack, with the
    /// same environment, memory limit and fuel, read-only directories that do not
    /// clash (the instance gets them all: git-safety's view of the project), and
    /// no grants (a builtin needs none; a hook that was given one runs alone).
    pub fn runs_with(&self, other: &Plugin) -> bool {
        let plain = |p: &Plugin| {
            p.builtin.is_some()
                && p.hosts.is_empty()
                && p.config.grants.state.is_none()
                && p.config.preopens.iter().all(|d| !d.writable)
        };
        let clash = self.config.preopens.iter().any(|a| {
            other
                .config
                .preopens
                .iter()
                .any(|b| a.guest == b.guest && a.host != b.host)
        });
        plain(self)
            && plain(other)
            && !clash
            && Arc::ptr_eq(&self.compiled, &other.compiled)
            && self.config.env == other.config.env
            && self.config.memory_limit == other.config.memory_limit
            && self.config.fuel == other.config.fuel
    }

    /// The directories this hook is given.
    pub(super) fn preopens(&self) -> &[Preopen] {
        &self.config.preopens
    }

    /// The program's arguments (after its name).
    pub(super) fn args(&self) -> &[String] {
        &self.args
    }

    /// The fuel budget of one call.
    pub(super) fn fuel(&self) -> u64 {
        self.config.fuel
    }

    /// The plugin described by `config`, running `compiled` (the file at
    /// `config.path`, loaded once for every hook that names it).
    pub fn new(compiled: Arc<Compiled>, config: &PluginConfig) -> Result<Plugin, HookFailure> {
        let builtin = config
            .builtin
            .and_then(|name| crate::builtin::find(name).ok());
        // A builtin is pinned to its own component's digest; the pack runs it.
        let actual = builtin.map_or(compiled.digest, Builtin::sha256);
        if let Some(pinned) = config.sha256
            && pinned != actual
        {
            return Err(HookFailure::Load(LoadError::Sha256Mismatch {
                path: config.path.clone(),
                pinned,
                actual,
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
        let args = match builtin {
            Some(b) => pack_args(b.name, &config.args),
            None => config.args.clone(),
        };
        Ok(Plugin {
            config: config.clone(),
            builtin,
            program,
            args,
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
            match missing
                .iter_mut()
                .find(|(setting, _)| *setting == needs.setting())
            {
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
        let call = Call {
            args: &self.args,
            fuel: self.config.fuel,
            preopens: &self.config.preopens,
        };
        self.run_as(call, input, timeout, ctx).await
    }

    /// [`Plugin::run`] with other arguments, fuel and directories: several
    /// builtin hooks in one instance of the pack ([`super::together`]).
    pub(super) async fn run_as(
        &self,
        call: Call<'_>,
        input: Arc<[u8]>,
        timeout: Duration,
        ctx: &RunContext,
    ) -> RawOutcome {
        let queued_at = Instant::now();
        let Ok(_permit) = self.compiled.slots.acquire().await else {
            return RawOutcome::failed(HookFailure::Load(LoadError::ShuttingDown));
        };
        let queued = queued_at.elapsed();
        let start = Instant::now();
        let (builder, stdio) = match context(
            &self.config,
            &self.program,
            call.args,
            call.preopens,
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
        let running = self.call(builder, call.fuel, &logs);
        let (status, fuel_used) = match tokio::time::timeout(timeout, running).await {
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
        fuel: u64,
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
                let mut store = self.store(state, fuel, |s| &mut s.limiter);
                let result = async {
                    let command = pre.instantiate_async(&mut store).await?;
                    command.wasi_cli_run().call_run(&mut store).await
                }
                .await;
                let refused = store.data().limiter.memory_refused;
                let status = match result {
                    Ok(Ok(())) => Status::Exited(0),
                    Ok(Err(())) => Status::Exited(1),
                    Err(e) => self.failure(e, fuel, refused),
                };
                (status, fuel_used(&store, fuel))
            }
            Entry::Module(pre) => {
                let mut wasi = builder.build_p1();
                wasmtime_wasi::WasiView::ctx(&mut wasi)
                    .table
                    .set_max_capacity(MAX_GUEST_HANDLES);
                let state = ModuleState { wasi, limiter };
                let mut store = self.store(state, fuel, |s| &mut s.limiter);
                let result = async {
                    let instance = pre.instantiate_async(&mut store).await?;
                    let start = instance.get_typed_func::<(), ()>(&mut store, "_start")?;
                    start.call_async(&mut store, ()).await
                }
                .await;
                let refused = store.data().limiter.memory_refused;
                let status = match result {
                    Ok(()) => Status::Exited(0),
                    Err(e) => self.failure(e, fuel, refused),
                };
                (status, fuel_used(&store, fuel))
            }
        }
    }

    fn store<T: 'static>(
        &self,
        state: T,
        fuel: u64,
        limiter: fn(&mut T) -> &mut Limiter,
    ) -> Store<T> {
        let mut store = Store::new(&self.compiled.engine, state);
        store.limiter(move |s| limiter(s) as &mut dyn wasmtime::ResourceLimiter);
        // Fuel is on for every store of this engine, so this cannot fail.
        let _ = store.set_fuel(fuel);
        // The behaviour alone leaves the deadline at epoch 0, already passed: every
        // call would yield (return `Pending`) at its first epoch check and finish
        // only when re-polled. The deadline is the next tick; after each tick the
        // guest yields once and gets one more.
        store.set_epoch_deadline(1);
        store.epoch_deadline_async_yield_and_update(1);
        store
    }

    /// Names the cause of a failed call (with `fuel` its budget).
    fn failure(&self, error: wasmtime::Error, fuel: u64, memory_refused: bool) -> Status {
        if let Some(exit) = error.downcast_ref::<I32Exit>() {
            return Status::Exited(exit.0);
        }
        if memory_refused {
            return Status::Failed(HookFailure::MemoryLimit(self.config.memory_limit));
        }
        match error.downcast_ref::<Trap>() {
            Some(Trap::OutOfFuel) => Status::Failed(HookFailure::FuelExhausted(fuel)),
            Some(Trap::StackOverflow) => Status::Failed(HookFailure::Trap("stack overflow".into())),
            Some(trap) => Status::Failed(HookFailure::Trap(trap.to_string())),
            None => Status::Failed(HookFailure::Trap(format!("{error:#}"))),
        }
    }
}

/// The fuel a call burned of its budget `fuel`.
fn fuel_used<T>(store: &Store<T>, fuel: u64) -> Option<u64> {
    let left = store.get_fuel().ok()?;
    Some(fuel.saturating_sub(left))
}

/// The pack's arguments for builtin `name` with the hook's `args`: one group,
/// `NAME COUNT ARGS…` (several groups in a row run several builtins in one
/// instance, [`super::together`]).
pub fn pack_args(name: &str, args: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len() + 2);
    out.push(name.to_owned());
    out.push(args.len().to_string());
    out.extend(args.iter().cloned());
    out
}
