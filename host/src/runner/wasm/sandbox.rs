//! The guest's world: exactly the capabilities CONTRACT §2 grants, nothing ambient.
//!
//! A guest gets stdin (the event JSON, then EOF), a capped stdout and stderr, the
//! three project-dir variables plus the hook's `env`, the program name plus the
//! hook's `args`, real clocks and randomness, and the hook's `preopens` — read-only
//! unless `writable`. wasmtime-wasi opens preopens through cap-std, so `..` and
//! symlinks cannot leave them. It gets no inherited environment, arguments, files or
//! network: the socket interfaces are linked in deny-all mode (see [`super::linker`]).
//! It holds at most [`MAX_GUEST_HANDLES`] resources at once.

use std::path::PathBuf;
use std::sync::Arc;

use bytes::Bytes;
use wasmtime::component::ResourceTable;
use wasmtime_wasi::p1::WasiP1Ctx;
use wasmtime_wasi::p2::pipe::MemoryInputPipe;
use wasmtime_wasi::{FsPerms, WasiCtx, WasiCtxBuilder, WasiCtxView, WasiView};

use wasmtime_wasi_http::{WasiHttpCtx, WasiHttpCtxView, WasiHttpView};

use super::http_grant::HttpGrant;
use super::keyvalue::KeyValue;
use super::limits::Limiter;
use super::logging::CallLogs;

/// The most resources (open files and directories, streams, pollables) one call may
/// hold at once. Open files are host descriptors: without a cap, one plugin with a
/// preopen could open files until the *host* hits `EMFILE`, and the next command
/// hook could not even start. Real guests hold a few dozen.
pub const MAX_GUEST_HANDLES: usize = 512;
use super::pipe::CappedPipe;
use crate::config::{PluginConfig, Preopen};

/// The store data of a component call.
pub struct ComponentState {
    /// The WASI context.
    pub wasi: WasiCtx,
    /// Resources handed to the guest.
    pub table: ResourceTable,
    /// Memory and table limits.
    pub limiter: Limiter,
    /// Lines logged through `wasi:logging` (and about the grants).
    pub logs: CallLogs,
    /// The `state` grant (`wasi:keyvalue`).
    pub kv: KeyValue,
    /// The `allowedHosts` grant (`wasi:http`).
    pub http: HttpGrant,
    /// wasmtime-wasi-http's per-call context.
    pub http_ctx: WasiHttpCtx,
}

impl WasiHttpView for ComponentState {
    fn http(&mut self) -> WasiHttpCtxView<'_> {
        WasiHttpCtxView {
            ctx: &mut self.http_ctx,
            table: &mut self.table,
            hooks: &mut self.http,
        }
    }
}

impl WasiView for ComponentState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

/// The store data of a preview-1 module call.
pub struct ModuleState {
    /// The WASI preview-1 context.
    pub wasi: WasiP1Ctx,
    /// Memory and table limits.
    pub limiter: Limiter,
}

/// The guest's stdout and stderr, readable after the call.
pub struct Stdio {
    /// The guest's stdout.
    pub stdout: CappedPipe,
    /// The guest's stderr.
    pub stderr: CappedPipe,
}

/// Why the WASI context of a call cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// A preopen directory cannot be opened.
    #[error("cannot preopen {host} as {guest}: {source}")]
    Preopen {
        /// The host directory.
        host: PathBuf,
        /// Where the guest would see it.
        guest: String,
        /// wasmtime-wasi's error.
        source: wasmtime::Error,
    },
}

/// Builds the WASI context of one call; `args` follow `program` and `preopens`
/// are the directories (the hook's, or for builtins sharing an instance of the
/// pack, theirs together).
pub fn context(
    config: &PluginConfig,
    program: &str,
    args: &[String],
    preopens: &[Preopen],
    project_env: &[(String, String)],
    input: Arc<[u8]>,
    output_cap: usize,
) -> Result<(WasiCtxBuilder, Stdio), SandboxError> {
    let stdio = Stdio {
        stdout: CappedPipe::new(output_cap),
        stderr: CappedPipe::new(output_cap),
    };
    let mut builder = WasiCtxBuilder::new();
    builder
        .stdin(MemoryInputPipe::new(Bytes::from_owner(input)))
        .stdout(stdio.stdout.clone())
        .stderr(stdio.stderr.clone())
        .envs(project_env)
        .envs(&config.env)
        .arg(program)
        .args(args)
        .allow_tcp(false)
        .allow_udp(false)
        .allow_ip_name_lookup(false);
    for preopen in preopens {
        let perms = if preopen.writable {
            FsPerms::ReadWrite
        } else {
            FsPerms::ReadOnly
        };
        builder
            .preopened_dir(&preopen.host, &preopen.guest, perms)
            .map_err(|source| SandboxError::Preopen {
                host: preopen.host.clone(),
                guest: preopen.guest.clone(),
                source,
            })?;
    }
    Ok((builder, stdio))
}
