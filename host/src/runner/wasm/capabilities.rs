//! Bindings of the two capability interfaces hookhost implements itself:
//! `wasi:logging/logging` ([`super::logging`]) and `wasi:keyvalue/store`
//! ([`super::keyvalue`]). `wasi:http` comes from wasmtime-wasi-http
//! ([`super::http_grant`]). The WIT is the repository's `wit/`, the same files
//! guests build against.

#![allow(missing_docs)]

wasmtime::component::bindgen!({
    inline: "
        package hookhost:host;
        world capabilities {
            import wasi:logging/logging@0.1.0-draft;
            import wasi:keyvalue/store@0.2.0-draft;
        }
    ",
    path: "wit",
    world: "hookhost:host/capabilities",
    with: {
        "wasi:keyvalue/store.bucket": BucketHandle,
    },
});

pub use wasi::keyvalue::store;

/// A bucket the guest opened: a name inside the plugin's store. Declared here,
/// beside the binding that names it, so that the implementation
/// ([`super::keyvalue`]) depends on the bindings and not the other way round.
pub struct BucketHandle {
    pub(super) name: String,
}
pub use wasi::logging::logging;
