//! Per-call resource limits of a guest: memory, tables, instances.
//!
//! `memoryLimit` is one budget for the whole guest, not per memory: a component may
//! hold several core instances, each with its own linear memory, and tables may grow
//! to a million elements. So every linear memory's size and every table's elements
//! (at [`TABLE_ELEMENT_BYTES`] each — a pointer, what wasmtime stores per element)
//! are added up, and a grow (or an instantiation) that would take the sum past the
//! budget is refused.
//!
//! The limiter remembers whether it refused, so that the trap that usually follows
//! (a Rust guest aborts on allocation failure) is reported as "exceeded its memory
//! limit of N bytes" rather than as a bare trap.

use wasmtime::{ResourceLimiter, StoreLimits, StoreLimitsBuilder};

/// Tables, memories and instances one guest may create; generous for real
/// components (a Rust component has a handful), small enough to stop a bomb.
pub const MAX_INSTANCES: usize = 64;
/// See [`MAX_INSTANCES`].
pub const MAX_TABLES: usize = 64;
/// See [`MAX_INSTANCES`].
pub const MAX_MEMORIES: usize = 16;
/// The most elements one table may grow to (the budget usually stops it first).
pub const MAX_TABLE_ELEMENTS: usize = 1_000_000;
/// What one table element costs against the memory budget.
pub const TABLE_ELEMENT_BYTES: usize = 8;

/// The limiter of one store.
pub struct Limiter {
    inner: StoreLimits,
    budget: usize,
    used: usize,
    /// Set when a memory or table grow past the budget was refused.
    pub memory_refused: bool,
}

impl Limiter {
    /// A limiter capping all linear memories and tables together at `memory_limit`
    /// bytes.
    pub fn new(memory_limit: u64) -> Limiter {
        let budget = usize::try_from(memory_limit).unwrap_or(usize::MAX);
        Limiter {
            inner: StoreLimitsBuilder::new()
                .memory_size(budget)
                .table_elements(MAX_TABLE_ELEMENTS)
                .instances(MAX_INSTANCES)
                .tables(MAX_TABLES)
                .memories(MAX_MEMORIES)
                .build(),
            budget,
            used: 0,
            memory_refused: false,
        }
    }

    /// Bytes of the budget in use (memories plus tables).
    #[cfg(test)]
    pub fn used(&self) -> usize {
        self.used
    }

    /// Charges a resource growing from `current` to `desired` bytes, if it fits.
    fn charge(&self, current: usize, desired: usize) -> bool {
        let after = self.used.saturating_sub(current).saturating_add(desired);
        after <= self.budget
    }
}

impl ResourceLimiter for Limiter {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let allowed = self.charge(current, desired)
            && self.inner.memory_growing(current, desired, maximum)?;
        if allowed {
            self.used = self.used.saturating_sub(current).saturating_add(desired);
        } else {
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
        let (now, then) = (
            current.saturating_mul(TABLE_ELEMENT_BYTES),
            desired.saturating_mul(TABLE_ELEMENT_BYTES),
        );
        let allowed =
            self.charge(now, then) && self.inner.table_growing(current, desired, maximum)?;
        if allowed {
            self.used = self.used.saturating_sub(now).saturating_add(then);
        } else {
            self.memory_refused = true;
        }
        Ok(allowed)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memories_and_tables_share_one_budget() {
        let mut limiter = Limiter::new(1 << 20);
        assert!(limiter.memory_growing(0, 512 << 10, None).unwrap());
        assert!(limiter.memory_growing(0, 256 << 10, None).unwrap());
        // A third memory of 512 KiB would take the sum to 1.25 MiB.
        assert!(!limiter.memory_growing(0, 512 << 10, None).unwrap());
        assert!(limiter.memory_refused);
        // 256 KiB left: a table of 32 Ki elements × 8 bytes fits, one more does not.
        assert!(limiter.table_growing(0, 32 << 10, None).unwrap());
        assert!(
            !limiter
                .table_growing(32 << 10, (32 << 10) + 1, None)
                .unwrap()
        );
        assert_eq!(limiter.used(), 1 << 20);
    }
}
