//! `hookhost serve --socket PATH`: the same JSON Lines over a Unix socket, for many
//! agent sessions sharing one warm server.
//!
//! * The socket is created with mode 0600 (umask set around `bind`, then `chmod`);
//!   a peer whose uid (`SO_PEERCRED`) is not ours is answered `FORBIDDEN` and
//!   dropped, even if the mode was loosened.
//! * Each connection has its own reader, writer and in-flight cap, so a client that
//!   floods, goes silent, stops reading or vanishes only ever blocks itself; hook
//!   processes and pool slots are shared in FIFO order, so every connection gets its
//!   turn (at most `max_in_flight` of its requests are ahead of anyone else's).
//! * SIGTERM (or SIGINT): stop accepting and reading, remove the socket, let in-flight requests
//!   finish and their answers be written (bounded for clients that do not read),
//!   exit 0.

use std::io::ErrorKind;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};

use anyhow::Context;
use rustix::fs::Mode;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, BufWriter};
use tokio::net::unix::OwnedWriteHalf;
use tokio::net::{UnixListener, UnixStream};
use tokio::sync::{mpsc, watch};

use super::listener::{MAX_CONNECTIONS, serve_clients};
use super::session::{Outgoing, Session, Tracker};
use super::{Options, Terminate, reload::Shared};
use hookhost::bus::{Answer, MAX_LINE};

pub async fn serve(
    system: Shared,
    options: &Options,
    path: &Path,
    term: &mut Terminate,
) -> anyhow::Result<()> {
    let listener = bind(path)?;
    let _remove = RemoveOnDrop(path.to_path_buf());
    let tracker = Tracker::default();
    let max_in_flight = options.max_in_flight;
    serve_clients(
        listener,
        MAX_CONNECTIONS,
        &tracker.clone(),
        term,
        |stream, stop| connection(stream, system.clone(), max_in_flight, tracker.clone(), stop),
    )
    .await;
    Ok(())
}

/// Binds `path` with mode 0600. A stale socket (nobody accepting) is replaced; a
/// live one or any other file is an error.
fn bind(path: &Path) -> anyhow::Result<UnixListener> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_socket() => {
            if std::os::unix::net::UnixStream::connect(path).is_ok() {
                anyhow::bail!("{}: another server is listening there", path.display());
            }
            std::fs::remove_file(path)
                .with_context(|| format!("{}: cannot remove the stale socket", path.display()))?;
        }
        Ok(_) => anyhow::bail!("{}: exists and is not a socket", path.display()),
        Err(e) if e.kind() == ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| path.display().to_string()),
    }
    // The socket file is created by bind with the umask applied: no window in which
    // others could connect. Nothing else creates files at this point of start-up.
    let old = rustix::process::umask(Mode::from_raw_mode(0o177));
    let bound = UnixListener::bind(path);
    rustix::process::umask(old);
    let listener = bound.with_context(|| format!("{}: cannot listen", path.display()))?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
        .with_context(|| format!("{}: cannot set mode 0600", path.display()))?;
    Ok(listener)
}

struct RemoveOnDrop(PathBuf);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Serves one client until it closes, vanishes, or the server stops.
async fn connection(
    stream: UnixStream,
    system: Shared,
    max_in_flight: usize,
    tracker: Tracker,
    mut stop: watch::Receiver<bool>,
) {
    let (read, write) = stream.into_split();
    let (tx, rx) = mpsc::channel::<Outgoing>(max_in_flight.max(1));
    let writer = tokio::spawn(write_answers(rx, write));
    if let Err(refusal) = check_peer(read.as_ref()) {
        let _ = tx.send(Some(refusal)).await;
        drop(tx);
        let _ = writer.await;
        return;
    }
    let session = Session::new(system, max_in_flight, tx, tracker);
    let mut reader = BufReader::with_capacity(64 * 1024, read);
    let mut line = Vec::new();
    loop {
        line.clear();
        let mut limited = (&mut reader).take(MAX_LINE as u64 + 1);
        let read = tokio::select! {
            read = limited.read_until(b'\n', &mut line) => read,
            _ = stop.wait_for(|stopped| *stopped) => break,
        };
        match read {
            Ok(0) | Err(_) => break,
            Ok(_) if line.len() > MAX_LINE && !line.ends_with(b"\n") => {
                if skip_rest_of_line(&mut reader).await.is_err() {
                    break;
                }
                session.reject(Answer::line_too_long()).await;
            }
            Ok(_) => session.submit(&line, !reader.buffer().is_empty()).await,
        }
        if line.capacity() > 1024 * 1024 {
            line = Vec::new();
        }
    }
    // In-flight requests hold their own senders: the writer ends after their answers.
    drop(session);
    let _ = writer.await;
}

/// `FORBIDDEN` unless the peer runs under our uid.
fn check_peer(stream: &UnixStream) -> Result<(), Answer> {
    let ours = rustix::process::geteuid().as_raw();
    match stream.peer_cred() {
        Ok(cred) if cred.uid() == ours => Ok(()),
        Ok(cred) => Err(Answer::error(
            None,
            "FORBIDDEN",
            format!(
                "this server serves uid {ours} only; the peer runs as uid {}",
                cred.uid()
            ),
        )),
        Err(e) => Err(Answer::error(
            None,
            "FORBIDDEN",
            format!("cannot read the peer's credentials: {e}"),
        )),
    }
}

async fn skip_rest_of_line(
    reader: &mut BufReader<impl tokio::io::AsyncRead + Unpin>,
) -> std::io::Result<()> {
    loop {
        let buf = reader.fill_buf().await?;
        if buf.is_empty() {
            return Ok(());
        }
        if let Some(i) = buf.iter().position(|&b| b == b'\n') {
            reader.consume(i + 1);
            return Ok(());
        }
        let n = buf.len();
        reader.consume(n);
    }
}

/// Writes one connection's answers; flushes when its queue is empty. Ends when every
/// sender is gone, or at the first failed write (the client left).
async fn write_answers(mut rx: mpsc::Receiver<Outgoing>, write: OwnedWriteHalf) {
    let mut out = BufWriter::with_capacity(64 * 1024, write);
    let mut bytes = Vec::with_capacity(4096);
    while let Some(Some(answer)) = rx.recv().await {
        bytes.clear();
        if answer.write_line(&mut bytes).is_err() {
            continue;
        }
        while let Ok(Some(more)) = rx.try_recv() {
            if more.write_line(&mut bytes).is_err() {
                continue;
            }
        }
        if out.write_all(&bytes).await.is_err() || out.flush().await.is_err() {
            return;
        }
        if bytes.capacity() > 1024 * 1024 {
            bytes = Vec::with_capacity(4096);
        }
    }
    let _ = out.shutdown().await;
}
