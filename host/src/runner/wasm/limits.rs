//! Per-call resource limits of a guest: memory, tables, instances.
//!
//! Wraps wasmtime's [`StoreLimits`] and remembers whether a memory grow was refused,
//! so that the trap that usually follows (a Rust guest aborts on allocation failure)
//! is reported as "exceeded its memory limit of N bytes" rather than as a bare trap.

use wasmtime::{ResourceLimiter, StoreLimits, StoreLimitsBuilder};

/// Tables, memories and instances one guest may create; generous for real
/// components (a Rust component has a handful), small enough to stop a bomb.
pub const MAX_INSTANCES: usize = 64;
/// See [`MAX_INSTANCES`].
pub const MAX_TABLES: usize = 64;
/// See [`MAX_INSTANCES`].
pub const MAX_MEMORIES: usize = 16;
/// The most elements a table may grow to.
pub const MAX_TABLE_ELEMENTS: usize = 1_000_000;

/// The limiter of one store.
pub struct Limiter {
    inner: StoreLimits,
    memory_limit: usize,
    /// Set when a memory grow past the limit was refused.
    pub memory_refused: bool,
}

impl Limiter {
    /// A limiter capping each linear memory at `memory_limit` bytes.
    pub fn new(memory_limit: u64) -> Limiter {
        let memory_limit = usize::try_from(memory_limit).unwrap_or(usize::MAX);
        Limiter {
            inner: StoreLimitsBuilder::new()
                .memory_size(memory_limit)
                .table_elements(MAX_TABLE_ELEMENTS)
                .instances(MAX_INSTANCES)
                .tables(MAX_TABLES)
                .memories(MAX_MEMORIES)
                .build(),
            memory_limit,
            memory_refused: false,
        }
    }
}

impl ResourceLimiter for Limiter {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let allowed =
            desired <= self.memory_limit && self.inner.memory_growing(current, desired, maximum)?;
        if !allowed {
            self.memory_refused = true;
        }
        Ok(allowed)
    }

    fn table_growing(
        &mut self,
        current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        self.inner.table_growing(current, desired, maximum)
    }

    fn instances(&self) -> usize {
        self.inner.instances()
    }

    fn tables(&self) -> usize {
        self.inner.tables()
    }

    fn memories(&self) -> usize {
        self.inner.memories()
    }
}
