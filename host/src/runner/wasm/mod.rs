//! Plugin hooks: WASI 0.2 components and WASI preview-1 modules in wasmtime, with the
//! same stdin/stdout/exit-code semantics as command hooks.
//!
//! Layers, lowest first (each imports only those below it):
//!
//! * [`runtime`] — the wasmtime engine: fuel, epochs, pooling, linkers, cache.
//! * [`module`] — one file compiled and pre-instantiated on a runtime (compile
//!   cache, [`known`] digests, [`stamp`]s).
//! * [`plugin`] — one hook's settings over a compiled file (pin, preopens) and one
//!   call under the hook's limits.
//! * [`engine`] — [`WasmEngine`], the loader of a hook system: a runtime and the
//!   files compiled on it, a plugin per hook; [`inspect`] reports on one file.
//! * [`sandbox`] — the capabilities a guest gets; [`linker`] — the imports linked.
//! * [`limits`], [`pipe`], [`cache`], [`detect`] — the pieces they use.
//!
//! Exit status: a component's `wasi:cli/run` returning `ok` is exit 0 and `err` is
//! exit 1; `wasi:cli/exit.exit-with-code(n)` (and preview-1 `proc_exit(n)`) is exit
//! `n`. Rust's `std::process::exit(2)` on wasm32-wasip2 calls `exit(err)` and
//! arrives as 1 — which is why the guest SDK exits through `exit-with-code`.

pub mod cache;
pub mod capabilities;
pub mod detect;
pub mod engine;
pub mod http_grant;
pub mod inspect;
pub mod keyvalue;
pub mod known;
pub mod limits;
pub mod linker;
pub mod logging;
pub mod module;
pub mod pipe;
pub mod plugin;
pub mod preopen;
pub mod runtime;
pub mod sandbox;
pub mod stamp;
pub mod together;

#[cfg(feature = "internals")]
pub use cache::CacheStatus;
pub use detect::WasmKind;
pub use engine::WasmEngine;
pub use plugin::Plugin;
pub use runtime::EngineOptions;
pub use together::run_together;
