//! Distributing plugins as OCI artifacts: `"source": "oci://…"` in settings.
//!
//! * [`reference`](mod@reference): parsing `oci://REGISTRY/REPO[:TAG][@sha256:…]`.
//! * [`canonical`]: one spelling per module (host case, default port, trailing
//!   dot, Docker Hub's names), which every comparison of references uses.
//! * [`manifest`]: the CNCF Wasm OCI artifact layout (what `wkg oci` and `oras` push).
//! * [`store`]: the per-user content-addressed module store.
//! * [`lock`]: `hookhost.lock`, the digest each tag was locked to.
//! * [`signature`]: cosign-compatible key-pair signatures over manifest digests.
//!
//! Resolving a hook's `source` to a store file while a hook system is built is the
//! builder's step (`system/resolve.rs`), so that this module knows no settings.
//! * `client` (feature `oci`): the registry client of `push`, `pull`, `sign`, `lock`.
//! * `fetch` (feature `oci`): `lock` and `install`, every `source` into the store.
//!
//! Only `client` talks to the network, and only the CLI commands that fetch or publish
//! use it: building a hook system and firing events never do.

pub mod canonical;
pub mod lock;
pub mod manifest;
pub mod reference;
#[cfg(feature = "plugins")]
pub mod signature;
#[cfg(feature = "plugins")]
pub mod store;

#[cfg(feature = "oci")]
pub mod client;
#[cfg(feature = "oci")]
mod credentials;
#[cfg(feature = "oci")]
pub mod fetch;
