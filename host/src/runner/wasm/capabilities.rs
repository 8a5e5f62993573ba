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
        "wasi:keyvalue/store.bucket": super::keyvalue::BucketHandle,
    },
});

pub use wasi::keyvalue::store;
pub use wasi::logging::logging;
