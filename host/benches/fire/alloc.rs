//! The counting global allocator: heap allocations per fire, on the firing thread
//! (`no_match/*`: a fire that runs nothing must not allocate) or in the whole
//! process (`plugin/allow`: wasmtime and tokio included), and the file they are
//! recorded in, `target/bench-results/alloc.json` (read by scripts/bench-report.py).

// The allocator forwards to `System`, which takes `unsafe` calls.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use serde_json::{Map, Value, json};

use crate::support::results_dir;

/// Counts allocations (alloc, alloc_zeroed, realloc) per thread, and in total while
/// [`TotalCount`] is alive.
struct Counting;

static TOTAL: AtomicU64 = AtomicU64::new(0);
// The whole-process count is one cache line written by every thread: on for the
// allocation measurement only, or it would bounce between the cores on every
// allocation and slow every parallel benchmark (the fan-out lost ~25 % to it).
static COUNT_TOTAL: AtomicBool = AtomicBool::new(false);
thread_local! {
    static LOCAL: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    if COUNT_TOTAL.load(Ordering::Relaxed) {
        TOTAL.fetch_add(1, Ordering::Relaxed);
    }
    // `try_with`: an allocation while the thread's locals are torn down still
    // counts in the total and must not panic.
    let _ = LOCAL.try_with(|c| c.set(c.get() + 1));
}

/// Counts every thread's allocations while alive.
pub struct TotalCount;

impl TotalCount {
    pub fn start() -> TotalCount {
        COUNT_TOTAL.store(true, Ordering::SeqCst);
        TotalCount
    }

    pub fn now(&self) -> u64 {
        TOTAL.load(Ordering::SeqCst)
    }
}

impl Drop for TotalCount {
    fn drop(&mut self) {
        COUNT_TOTAL.store(false, Ordering::SeqCst);
    }
}

// SAFETY: every call is forwarded unchanged to the system allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Allocations made on this thread so far.
pub fn local_allocs() -> u64 {
    LOCAL.with(Cell::get)
}

/// Merges `key: value` into `target/bench-results/alloc.json`.
pub fn record_alloc(key: &str, value: f64) {
    let path = results_dir().join("alloc.json");
    let mut counts = std::fs::read(&path)
        .ok()
        .and_then(|t| serde_json::from_slice::<Map<String, Value>>(&t).ok())
        .unwrap_or_default();
    counts.insert(key.to_owned(), json!(value));
    let _ = std::fs::write(&path, serde_json::to_vec_pretty(&counts).unwrap());
}
