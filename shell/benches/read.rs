//! `read/*`: how long [`hookhost_shell::read`] takes, and how much memory it holds
//! at its peak, on lines an agent may send — a short command, and a mebibyte of
//! one here-document, of words, of wrappers, of nested quotes. Issue 36's bar:
//! an `if` on a 1 MiB command answers in ≤ 50 ms with ≤ 50 MiB extra.
//!
//! The peak is counted by a global allocator (bytes live above the baseline while
//! one read runs) and printed beside criterion's times.
#![allow(unsafe_code, clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};

struct Peak;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to `System`; only counts.
unsafe impl GlobalAlloc for Peak {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: the caller's layout, passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: the pointer came from `alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Peak = Peak;

const MIB: usize = 1 << 20;

fn cases() -> Vec<(&'static str, String)> {
    vec![
        (
            "short",
            "git commit -m 'fix: x' && git push origin main".to_owned(),
        ),
        (
            "heredoc_1mib",
            format!("cat <<'EOF' > notes.md\n{}\nEOF", "x".repeat(MIB)),
        ),
        ("words_1mib", "ls -la x; ".repeat(MIB / 10)),
        ("wrappers_1mib", "nice ".repeat(MIB / 5) + "rm -rf x"),
        ("quotes_1mib", "echo 'a' \"b\" $'c' ".repeat(MIB / 20)),
        ("substitutions_1mib", "echo $(date) ".repeat(MIB / 14)),
    ]
}

fn read(c: &mut Criterion) {
    let mut group = c.benchmark_group("read");
    if std::env::var_os("HOOKHOST_BENCH_QUICK").is_some() {
        group
            .warm_up_time(Duration::from_millis(100))
            .measurement_time(Duration::from_millis(300))
            .sample_size(10);
    } else {
        group.sample_size(20);
    }
    for (name, line) in cases() {
        let base = LIVE.load(Ordering::Relaxed);
        PEAK.store(base, Ordering::Relaxed);
        let reading = hookhost_shell::read(&line);
        let peak = PEAK.load(Ordering::Relaxed) - base;
        drop(reading);
        eprintln!(
            "read/{name}: {} bytes in, peak {:.1} MiB extra",
            line.len(),
            peak as f64 / MIB as f64
        );
        group.bench_function(name, |b| b.iter(|| hookhost_shell::read(black_box(&line))));
    }
    group.finish();
}

criterion_group!(benches, read);
criterion_main!(benches);
