//! A guest's stdout or stderr: an in-memory stream with the same cap and the same
//! truncation as a command hook's pipe (see [`crate::runner::capture`]).
//!
//! wasmtime-wasi's `MemoryOutputPipe` fails the guest's write once it is full; a
//! hook that prints too much would then trap instead of being truncated. This pipe
//! accepts every write and keeps at most `cap` bytes.

use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use bytes::Bytes;
use tokio::io::AsyncWrite;
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::{OutputStream, Pollable, StreamError};

use crate::runner::Captured;

/// A capped in-memory output stream; clones share the buffer.
#[derive(Clone)]
pub struct CappedPipe {
    buffer: Arc<Mutex<Captured>>,
    cap: usize,
}

impl CappedPipe {
    /// An empty pipe keeping at most `cap` bytes.
    pub fn new(cap: usize) -> CappedPipe {
        CappedPipe {
            buffer: Arc::new(Mutex::new(Captured::default())),
            cap,
        }
    }

    /// What the guest wrote.
    pub fn take(&self) -> Captured {
        std::mem::take(&mut *self.lock())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Captured> {
        // The buffer stays consistent even if a writer panicked.
        self.buffer.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn push(&self, bytes: &[u8]) {
        self.lock().push(bytes, self.cap);
    }
}

/// How much a guest may write per `check-write`; the pipe never pushes back.
const WRITE_BUDGET: usize = 1024 * 1024;

impl OutputStream for CappedPipe {
    fn write(&mut self, bytes: Bytes) -> Result<(), StreamError> {
        self.push(&bytes);
        Ok(())
    }

    fn flush(&mut self) -> Result<(), StreamError> {
        Ok(())
    }

    fn check_write(&mut self) -> Result<usize, StreamError> {
        Ok(WRITE_BUDGET)
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for CappedPipe {
    async fn ready(&mut self) {}
}

impl AsyncWrite for CappedPipe {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        self.push(buf);
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

impl IsTerminal for CappedPipe {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for CappedPipe {
    fn async_stream(&self) -> Box<dyn AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }

    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }
}
