//! Plugins' persistent stores: the `state` grant (CONTRACT §5).
//!
//! A plugin hook granted `state` gets one private key-value store per plugin
//! identity and user ([`identity`]): its module (`source` reference without digest,
//! or canonical `path`), its network grant and its settings scope (the user's files,
//! or one project). Two plugins never share a store; a repository's plugin never
//! opens the user's plugin's store, even under the same name.
//!
//! Each store is one SQLite database in write-ahead-log mode under hookhost's state
//! dir ([`store`]): many `hookhost hook` processes and `serve` use one store at
//! once; a `set` is one transaction that checks the quota and updates the usage
//! counter together, so concurrent writers lose nothing and tear nothing. Why
//! SQLite and not redb or one file per key: docs/DESIGN.md "Plugin state".

pub mod identity;
pub mod store;

pub use identity::{StoreIdentity, state_dir};
pub use store::{Store, StoreError, StoreSummary};
