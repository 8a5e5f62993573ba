//! A private, persistent key-value store: state that outlives one event.
//!
//! A hook runs once per event in a fresh instance, so anything it wants to
//! remember across events ("how many force pushes in this session", "which
//! files were downloaded") has to live in the host. hookhost gives a plugin
//! `wasi:keyvalue/store@0.2.0-draft` when its settings grant it:
//!
//! ```json
//! { "type": "plugin", "path": "policy.wasm", "state": true }
//! { "type": "plugin", "path": "policy.wasm", "state": { "maxBytes": 65536 } }
//! ```
//!
//! The store is private to the plugin (its identity and grants) and the user,
//! shared by every hookhost process of that user, and persisted. A [`Bucket`]
//! is a named part of it (`""` is a fine name). Values are bytes; keys are
//! strings of at most 1024 bytes.
//!
//! Without the grant [`Bucket::open`] fails with [`StateError::AccessDenied`],
//! whose message names the `"state"` setting; a write that would take the
//! store past `maxBytes` fails with [`StateError::Quota`] and changes nothing.
//! Only `wasm32-wasip2` plugins have state: on every other target each call
//! fails with [`StateError::Unsupported`].
//!
//! The store is eventually consistent and has no transactions: two hooks of
//! the same plugin running at once may both read a counter before either
//! writes it. Every single `set` is atomic (a reader sees the old or the new
//! value, never a mix).
//!
//! ```no_run
//! use hookhost_guest::state::{Bucket, StateError};
//!
//! fn count_call(session: &str) -> Result<u64, StateError> {
//!     let bucket = Bucket::open("")?;
//!     bucket.increment(&format!("calls:{session}"))
//! }
//! ```
//!
//! A plugin that never opens a bucket does not import `wasi:keyvalue`: the
//! component imports only the interfaces its code calls.

use std::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// Why a state operation failed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StateError {
    /// The hook's settings do not grant state (`access-denied`).
    AccessDenied,
    /// The host knows no such store (`no-such-store`).
    NoSuchStore,
    /// The write would take the store over its `maxBytes`; the host's message.
    Quota(String),
    /// Any other error the host reported (a key too long, I/O).
    Other(String),
    /// A stored value is not what the typed accessor expected (UTF-8, a
    /// number, JSON).
    Decode {
        /// The key whose value did not decode.
        key: String,
        /// What was wrong with it.
        reason: String,
    },
    /// A value could not be encoded (JSON serialization failed).
    Encode {
        /// The key being written.
        key: String,
        /// What went wrong.
        reason: String,
    },
    /// This build has no state: the plugin is not a `wasm32-wasip2` component.
    Unsupported,
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::AccessDenied => f.write_str(
                "state access denied: the hook's settings must grant it with \"state\": true \
                 (or \"state\": {\"maxBytes\": N})",
            ),
            Self::NoSuchStore => f.write_str("state store not found"),
            Self::Quota(message) => write!(f, "state store full: {message}"),
            Self::Other(message) => write!(f, "state store error: {message}"),
            Self::Decode { key, reason } => write!(f, "state key {key:?}: {reason}"),
            Self::Encode { key, reason } => write!(f, "state key {key:?}: cannot encode: {reason}"),
            Self::Unsupported => f.write_str("state needs the wasm32-wasip2 plugin build"),
        }
    }
}

impl std::error::Error for StateError {}

impl StateError {
    /// Classifies the text of `error::other`: hookhost starts a quota error
    /// with `quota`.
    #[cfg_attr(not(all(target_os = "wasi", target_env = "p2")), allow(dead_code))]
    pub(crate) fn from_other(message: String) -> Self {
        if message.to_ascii_lowercase().contains("quota") {
            Self::Quota(message)
        } else {
            Self::Other(message)
        }
    }
}

#[cfg(all(target_os = "wasi", target_env = "p2"))]
mod bindings {
    // Only `wasi:keyvalue/store`: a world of its own keeps the component's
    // imports to what the plugin calls (see `exit.rs`).
    wit_bindgen::generate!({
        inline: "
            package hookhost:guest-sdk-state;
            world state-only {
                import wasi:keyvalue/store@0.2.0-draft;
            }
        ",
        path: "wit",
        world: "hookhost:guest-sdk-state/state-only",
        generate_all,
    });
}

#[cfg(all(target_os = "wasi", target_env = "p2"))]
use bindings::wasi::keyvalue::store;

#[cfg(all(target_os = "wasi", target_env = "p2"))]
impl From<store::Error> for StateError {
    fn from(error: store::Error) -> Self {
        match error {
            store::Error::NoSuchStore => Self::NoSuchStore,
            store::Error::AccessDenied => Self::AccessDenied,
            store::Error::Other(message) => Self::from_other(message),
        }
    }
}

#[cfg(all(target_os = "wasi", target_env = "p2"))]
type Inner = store::Bucket;
/// No bucket can be opened on this target.
#[cfg(not(all(target_os = "wasi", target_env = "p2")))]
type Inner = std::convert::Infallible;

/// A named bucket of the plugin's store.
#[derive(Debug)]
pub struct Bucket {
    inner: Inner,
}

impl Bucket {
    /// Opens the bucket `name` (`""` is the default bucket). Fails with
    /// [`StateError::AccessDenied`] when the hook has no `"state"` grant.
    pub fn open(name: &str) -> Result<Self, StateError> {
        #[cfg(all(target_os = "wasi", target_env = "p2"))]
        {
            Ok(Self {
                inner: store::open(name)?,
            })
        }
        #[cfg(not(all(target_os = "wasi", target_env = "p2")))]
        {
            let _ = name;
            Err(StateError::Unsupported)
        }
    }

    /// The value of `key`, `None` if it has none.
    pub fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StateError> {
        #[cfg(all(target_os = "wasi", target_env = "p2"))]
        {
            Ok(self.inner.get(key)?)
        }
        #[cfg(not(all(target_os = "wasi", target_env = "p2")))]
        {
            let _ = key;
            match self.inner {}
        }
    }

    /// Sets `key` to `value`, replacing any previous value.
    pub fn set(&self, key: &str, value: &[u8]) -> Result<(), StateError> {
        #[cfg(all(target_os = "wasi", target_env = "p2"))]
        {
            Ok(self.inner.set(key, value)?)
        }
        #[cfg(not(all(target_os = "wasi", target_env = "p2")))]
        {
            let _ = (key, value);
            match self.inner {}
        }
    }

    /// Removes `key`; nothing happens if it has no value.
    pub fn delete(&self, key: &str) -> Result<(), StateError> {
        #[cfg(all(target_os = "wasi", target_env = "p2"))]
        {
            Ok(self.inner.delete(key)?)
        }
        #[cfg(not(all(target_os = "wasi", target_env = "p2")))]
        {
            let _ = key;
            match self.inner {}
        }
    }

    /// Whether `key` has a value.
    pub fn exists(&self, key: &str) -> Result<bool, StateError> {
        #[cfg(all(target_os = "wasi", target_env = "p2"))]
        {
            Ok(self.inner.exists(key)?)
        }
        #[cfg(not(all(target_os = "wasi", target_env = "p2")))]
        {
            let _ = key;
            match self.inner {}
        }
    }

    /// Every key of the bucket, walking all pages of `list-keys`.
    pub fn keys(&self) -> Result<Vec<String>, StateError> {
        #[cfg(all(target_os = "wasi", target_env = "p2"))]
        {
            let mut keys = Vec::new();
            let mut cursor = None;
            loop {
                let page = self.inner.list_keys(cursor)?;
                keys.extend(page.keys);
                match page.cursor {
                    // A cursor that does not move would loop forever.
                    Some(next) if Some(next) != cursor => cursor = Some(next),
                    _ => return Ok(keys),
                }
            }
        }
        #[cfg(not(all(target_os = "wasi", target_env = "p2")))]
        {
            match self.inner {}
        }
    }

    /// The value of `key` as UTF-8 text, `None` if it has none.
    pub fn get_string(&self, key: &str) -> Result<Option<String>, StateError> {
        self.get(key)?
            .map(|bytes| {
                String::from_utf8(bytes).map_err(|_| StateError::Decode {
                    key: key.to_owned(),
                    reason: "the value is not UTF-8".to_owned(),
                })
            })
            .transpose()
    }

    /// Sets `key` to the text `value`.
    pub fn set_string(&self, key: &str, value: &str) -> Result<(), StateError> {
        self.set(key, value.as_bytes())
    }

    /// The value of `key` decoded from JSON, `None` if it has none.
    pub fn get_json<T: DeserializeOwned>(&self, key: &str) -> Result<Option<T>, StateError> {
        self.get(key)?
            .map(|bytes| decode_json(key, &bytes))
            .transpose()
    }

    /// Sets `key` to `value` encoded as JSON.
    pub fn set_json<T: Serialize + ?Sized>(&self, key: &str, value: &T) -> Result<(), StateError> {
        let bytes = serde_json::to_vec(value).map_err(|e| StateError::Encode {
            key: key.to_owned(),
            reason: e.to_string(),
        })?;
        self.set(key, &bytes)
    }

    /// The counter stored at `key` (decimal text; `0` when unset).
    pub fn counter(&self, key: &str) -> Result<u64, StateError> {
        match self.get(key)? {
            None => Ok(0),
            Some(bytes) => decode_counter(key, &bytes),
        }
    }

    /// Adds one to the counter at `key` and returns the new value. Not atomic
    /// across concurrent runs of the same plugin (see the module docs).
    pub fn increment(&self, key: &str) -> Result<u64, StateError> {
        let next = self.counter(key)?.saturating_add(1);
        self.set(key, next.to_string().as_bytes())?;
        Ok(next)
    }
}

/// Decodes a JSON value stored at `key`.
pub(crate) fn decode_json<T: DeserializeOwned>(key: &str, bytes: &[u8]) -> Result<T, StateError> {
    serde_json::from_slice(bytes).map_err(|e| StateError::Decode {
        key: key.to_owned(),
        reason: format!("the value is not the expected JSON: {e}"),
    })
}

/// Decodes a counter stored at `key`.
pub(crate) fn decode_counter(key: &str, bytes: &[u8]) -> Result<u64, StateError> {
    std::str::from_utf8(bytes)
        .ok()
        .and_then(|text| text.trim().parse().ok())
        .ok_or_else(|| StateError::Decode {
            key: key.to_owned(),
            reason: "the value is not a counter (decimal digits)".to_owned(),
        })
}
