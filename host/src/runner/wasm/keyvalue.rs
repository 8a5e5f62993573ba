//! `wasi:keyvalue/store` over the plugin's [`Store`](crate::state::Store): the
//! `state` grant. Without it every `open` answers `access-denied`; with it, any
//! bucket name opens a bucket of the plugin's own store, opened on first use (a
//! fire whose plugin never touches its state never opens the database).
//!
//! Errors are values: a full store answers `other("quota exceeded: …")`, a
//! database that cannot be opened `other(<why>)`; nothing traps.

use std::sync::{Arc, Mutex};

use wasmtime::component::{Resource, ResourceTable};

use super::capabilities::BucketHandle;
use super::capabilities::store::{Error, Host, HostBucket, KeyResponse};
use crate::state::{Store, StoreIdentity};

/// A plugin's store, opened on first use and then kept for the hook's lifetime
/// (a `serve` process opens each store once). A failed open is not remembered:
/// the next call tries again (after `hookhost state clear`, a full disk freed …).
#[derive(Debug)]
pub struct LazyStore {
    path: Option<std::path::PathBuf>,
    identity: StoreIdentity,
    max_bytes: u64,
    opened: Mutex<Option<Arc<Store>>>,
}

impl LazyStore {
    /// The store of `identity` under `dir`, not yet opened.
    pub fn new(
        dir: Option<&std::path::Path>,
        identity: StoreIdentity,
        max_bytes: u64,
    ) -> LazyStore {
        LazyStore {
            path: dir.map(|dir| identity.file(dir)),
            identity,
            max_bytes,
            opened: Mutex::new(None),
        }
    }

    fn get(&self) -> Result<Arc<Store>, Error> {
        let mut opened = self
            .opened
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(store) = &*opened {
            return Ok(Arc::clone(store));
        }
        let Some(path) = &self.path else {
            return Err(Error::Other(
                "no state dir (set HOOKHOST_STATE_DIR)".to_owned(),
            ));
        };
        let store = Store::open(path, self.max_bytes, &self.identity.description)
            .map(Arc::new)
            .map_err(|e| Error::Other(e.to_string()))?;
        *opened = Some(Arc::clone(&store));
        Ok(store)
    }
}

/// What a call's keyvalue host needs: the plugin's store, if granted.
#[derive(Debug, Clone, Default)]
pub struct KeyValue {
    /// `None`: no `state` grant.
    pub store: Option<Arc<LazyStore>>,
}

/// The keyvalue host's view of a call's state.
pub struct KeyValueView<'a> {
    /// The grant.
    pub kv: &'a KeyValue,
    /// Where bucket handles live.
    pub table: &'a mut ResourceTable,
}

impl KeyValueView<'_> {
    fn bucket(&self, bucket: &Resource<BucketHandle>) -> Result<(Arc<Store>, &str), Error> {
        let handle = self
            .table
            .get(bucket)
            .map_err(|e| Error::Other(e.to_string()))?;
        let store = self.kv.store.as_ref().ok_or(Error::AccessDenied)?.get()?;
        Ok((store, handle.name.as_str()))
    }
}

fn other(error: crate::state::StoreError) -> Error {
    Error::Other(error.to_string())
}

impl Host for KeyValueView<'_> {
    fn open(&mut self, identifier: String) -> Result<Resource<BucketHandle>, Error> {
        let Some(store) = &self.kv.store else {
            return Err(Error::AccessDenied);
        };
        store.get()?;
        crate::state::store::check_bucket_name(&identifier).map_err(other)?;
        self.table
            .push(BucketHandle { name: identifier })
            .map_err(|e| Error::Other(e.to_string()))
    }
}

impl HostBucket for KeyValueView<'_> {
    fn get(
        &mut self,
        bucket: Resource<BucketHandle>,
        key: String,
    ) -> Result<Option<Vec<u8>>, Error> {
        let (store, name) = self.bucket(&bucket)?;
        store.get(name, &key).map_err(other)
    }

    fn set(
        &mut self,
        bucket: Resource<BucketHandle>,
        key: String,
        value: Vec<u8>,
    ) -> Result<(), Error> {
        let (store, name) = self.bucket(&bucket)?;
        store.set(name, &key, &value).map_err(other)
    }

    fn delete(&mut self, bucket: Resource<BucketHandle>, key: String) -> Result<(), Error> {
        let (store, name) = self.bucket(&bucket)?;
        store.delete(name, &key).map_err(other)
    }

    fn exists(&mut self, bucket: Resource<BucketHandle>, key: String) -> Result<bool, Error> {
        let (store, name) = self.bucket(&bucket)?;
        store.exists(name, &key).map_err(other)
    }

    fn list_keys(
        &mut self,
        bucket: Resource<BucketHandle>,
        cursor: Option<u64>,
    ) -> Result<KeyResponse, Error> {
        let (store, name) = self.bucket(&bucket)?;
        let (keys, cursor) = store.list_keys(name, cursor).map_err(other)?;
        Ok(KeyResponse { keys, cursor })
    }

    fn drop(&mut self, bucket: Resource<BucketHandle>) -> wasmtime::Result<()> {
        self.table.delete(bucket)?;
        Ok(())
    }
}
