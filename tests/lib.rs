//! Paths of the guest .wasm files built from source by build.rs.
//!
//! Every constant is the absolute path of one release build:
//!
//! - test fixtures from `tests/guests` (see each crate's `src/main.rs` for its
//!   modes): `ECHO_POLICY`, `ADVERSARY`, `SOCKETS` (`wasm32-wasip2`
//!   components) and `ECHO_POLICY_P1`, `ADVERSARY_P1` (`wasm32-wasip1` core
//!   modules);
//! - example policies from `examples/rust`: `GUARD_PATHS`, `SECRET_SCAN`, `DOWNLOAD_GUARD`,
//!   `TOOL_ALLOWLIST`, `REDACT_EMAIL` (`wasm32-wasip2` components).
//!
//! Building this crate needs `rustup target add wasm32-wasip2 wasm32-wasip1`.

include!(concat!(env!("OUT_DIR"), "/guests.rs"));
