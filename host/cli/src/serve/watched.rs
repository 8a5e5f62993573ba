//! A writer that knows how long its current write has been blocked: `serve`'s
//! shutdown uses it to tell a client that stopped reading (a write that never
//! returns) from hooks that are merely slow (nothing being written).

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Wraps the real output; every `write` and `flush` is timed while it runs.
pub struct Watched<W> {
    inner: W,
    watch: WriteWatch,
}

/// The shared view of a [`Watched`] writer.
#[derive(Clone)]
pub struct WriteWatch {
    epoch: Instant,
    /// When the write in progress began, in µs since `epoch` plus one; 0 = none.
    busy_since: Arc<AtomicU64>,
}

impl<W: Write> Watched<W> {
    pub fn new(inner: W) -> (Watched<W>, WriteWatch) {
        let watch = WriteWatch {
            epoch: Instant::now(),
            busy_since: Arc::new(AtomicU64::new(0)),
        };
        (
            Watched {
                inner,
                watch: watch.clone(),
            },
            watch,
        )
    }

    fn timed<T>(&mut self, op: impl FnOnce(&mut W) -> T) -> T {
        self.watch
            .busy_since
            .store(self.watch.now() + 1, Ordering::Release);
        let result = op(&mut self.inner);
        self.watch.busy_since.store(0, Ordering::Release);
        result
    }
}

impl<W: Write> Write for Watched<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.timed(|w| w.write(buf))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.timed(Write::flush)
    }
}

impl WriteWatch {
    fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_micros()).unwrap_or(u64::MAX - 1)
    }

    /// How long the write in progress has been running; `None` when none is.
    pub fn blocked_for(&self) -> Option<Duration> {
        match self.busy_since.load(Ordering::Acquire) {
            0 => None,
            since => Some(Duration::from_micros(self.now().saturating_sub(since - 1))),
        }
    }

    /// Resolves once one write has been blocked for `limit`.
    pub async fn stuck(&self, limit: Duration) {
        loop {
            if self.blocked_for().is_some_and(|blocked| blocked >= limit) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_write_in_progress_counts() {
        let (mut out, watch) = Watched::new(Vec::new());
        assert_eq!(watch.blocked_for(), None);
        out.write_all(b"answer\n").unwrap();
        assert_eq!(watch.blocked_for(), None, "a finished write is not blocked");
    }
}
