//! The accept loop the socket and HTTP servers share: each client on its own task,
//! at most a given number at once (further clients wait in the listen backlog:
//! [`MAX_CONNECTIONS`] for the socket; `serve --http` bounds its connections
//! itself, see [`super::admission`]);
//! at SIGTERM or SIGINT, stop accepting, tell every connection to stop, wait for
//! the requests in flight, and give their answers [`WRITE_LIMIT`] to be written (a
//! client that does not read must not keep the server alive).

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream, UnixListener, UnixStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tokio::task::JoinSet;

use super::session::Tracker;
use super::{Terminate, WRITE_LIMIT};

/// Connections served at once (`serve --http`: authenticated connections).
pub const MAX_CONNECTIONS: usize = 256;

/// A listening socket: the next client's stream.
pub trait Listener {
    type Stream: Send + 'static;
    fn next_client(&self) -> impl Future<Output = std::io::Result<Self::Stream>>;
}

impl Listener for UnixListener {
    type Stream = UnixStream;
    async fn next_client(&self) -> std::io::Result<UnixStream> {
        self.accept().await.map(|(stream, _)| stream)
    }
}

impl Listener for TcpListener {
    type Stream = TcpStream;
    async fn next_client(&self) -> std::io::Result<TcpStream> {
        self.accept().await.map(|(stream, _)| stream)
    }
}

/// Serves every client of `listener` with `serve` (its stream, and a flag that
/// turns true when the server stops), at most `max_clients` at once, until `term`;
/// then drains (see the module doc). `tracker` counts the requests in flight of
/// all connections. `serve` is called on the accept loop, in order of accept.
pub async fn serve_clients<L: Listener, C>(
    listener: L,
    max_clients: usize,
    tracker: &Tracker,
    term: &mut Terminate,
    serve: impl Fn(L::Stream, watch::Receiver<bool>) -> C,
) where
    C: Future<Output = ()> + Send + 'static,
{
    let (stop_tx, stop_rx) = watch::channel(false);
    let connections = Arc::new(Semaphore::new(max_clients.max(1)));
    let mut tasks = JoinSet::new();
    loop {
        let accepted = tokio::select! {
            accepted = accept(&connections, &listener) => accepted,
            () = term.recv() => break,
        };
        let Some((stream, slot)) = accepted else {
            continue;
        };
        let connection = serve(stream, stop_rx.clone());
        tasks.spawn(async move {
            connection.await;
            drop(slot);
        });
        while tasks.try_join_next().is_some() {}
    }
    // New clients are refused from here on, not left waiting in the backlog.
    drop(listener);
    let _ = stop_tx.send(true);
    // Fires end on their own (every hook has a timeout); writing their answers to
    // clients that do not read is what gets a bound.
    tracker.idle().await;
    let _ = tokio::time::timeout(WRITE_LIMIT, async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
}

/// The next client, once a connection slot is free.
async fn accept<L: Listener>(
    connections: &Arc<Semaphore>,
    listener: &L,
) -> Option<(L::Stream, OwnedSemaphorePermit)> {
    let slot = Arc::clone(connections).acquire_owned().await.ok()?;
    match listener.next_client().await {
        Ok(stream) => Some((stream, slot)),
        Err(e) => {
            tracing::warn!("accept failed: {e}");
            // EMFILE and the like: do not spin.
            tokio::time::sleep(Duration::from_millis(10)).await;
            None
        }
    }
}
