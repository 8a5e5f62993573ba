//! `hookhost serve` on stdin/stdout: a plain thread reads request lines (it blocks
//! in `read`, not a runtime thread) and fires them inline or on the runtime (see
//! [`super::session`]); a waiting client's fire finished on the reading thread has
//! its answer written to the shared buffered stdout and flushed there. A plain
//! writer thread writes every other answer, flushing when its queue runs empty.
//! EOF or SIGTERM: stop reading, let in-flight requests finish, write their
//! answers, exit 0 — or, when a write to stdout has been blocked for
//! [`WRITE_LIMIT`] (the client stopped reading), exit without the answers still owed.

use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::sync::{Arc, Mutex};

use tokio::sync::{mpsc, oneshot};

use super::session::{Outgoing, Session, Tracker};
use super::watched::Watched;
use super::{Options, Terminate, WRITE_LIMIT, reload::Shared};
use hookhost::bus::{Answer, MAX_LINE};

pub async fn serve(system: Shared, options: &Options, term: &mut Terminate) -> anyhow::Result<()> {
    let tracker = Tracker::default();
    let (tx, rx) = mpsc::channel::<Outgoing>(options.max_in_flight.max(1));
    let (stdout, watch) = Watched::new(std::io::stdout());
    let out = Arc::new(Mutex::new(BufWriter::with_capacity(64 * 1024, stdout)));
    let writer = {
        let out = Arc::clone(&out);
        std::thread::Builder::new()
            .name("hookhost-stdout".to_owned())
            .spawn(move || write_answers(rx, &*out))?
    };
    let session =
        Session::new(system, options.max_in_flight, tx.clone(), tracker.clone()).with_direct(out);
    let handle = tokio::runtime::Handle::current();
    let (eof_tx, eof_rx) = oneshot::channel();
    std::thread::Builder::new()
        .name("hookhost-stdin".to_owned())
        .spawn(move || {
            let mut input = BufReader::with_capacity(64 * 1024, std::io::stdin());
            let read = read_lines(&mut input, |line, more| match line {
                Some(line) => handle.block_on(session.submit(line, more)),
                None => handle.block_on(session.reject(Answer::line_too_long())),
            });
            let _ = eof_tx.send(read);
        })?;
    let read = tokio::select! {
        read = eof_rx => read.unwrap_or(Ok(())),
        () = term.recv() => Ok(()),
    };
    // A client that stopped reading stdout must not hold the exit up for ever: the
    // requests behind a write blocked for WRITE_LIMIT are not waited for (their
    // answers could not be written anyway).
    let stuck = tokio::select! {
        () = tracker.idle() => false,
        () = watch.stuck(WRITE_LIMIT) => true,
    };
    if stuck {
        tracing::warn!(
            "stdout has not been read for {WRITE_LIMIT:?}: exiting without the answers still owed"
        );
    } else {
        let _ = tokio::time::timeout(WRITE_LIMIT, async {
            let _ = tx.send(None).await;
            let _ = tokio::task::spawn_blocking(move || writer.join()).await;
        })
        .await;
    }
    read.map_err(Into::into)
}

/// Calls `each` with every line (without a limit on how long it waits), or `None`
/// for a line longer than [`MAX_LINE`] (the rest of which is skipped), and whether
/// more input is already buffered.
pub fn read_lines<R: Read>(
    input: &mut BufReader<R>,
    mut each: impl FnMut(Option<&[u8]>, bool),
) -> std::io::Result<()> {
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = (&mut *input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)?;
        if n == 0 {
            return Ok(());
        }
        if line.len() > MAX_LINE && !line.ends_with(b"\n") {
            skip_rest_of_line(input)?;
            each(None, !input.buffer().is_empty());
        } else {
            each(Some(&line), !input.buffer().is_empty());
        }
        if line.capacity() > 1024 * 1024 {
            // One huge line must not pin its buffer for the rest of the session.
            line = Vec::new();
        }
    }
}

fn skip_rest_of_line(input: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        if let Some(i) = buf.iter().position(|&b| b == b'\n') {
            input.consume(i + 1);
            return Ok(());
        }
        let n = buf.len();
        input.consume(n);
    }
}

/// Writes answers until told to stop or the output fails; flushes when the queue is
/// empty, so a burst of answers costs one write. The output is locked per answer
/// (inline fires write to it too).
fn write_answers<W: Write>(mut rx: mpsc::Receiver<Outgoing>, out: &Mutex<W>) {
    let lock = || match out.lock() {
        Ok(out) => out,
        Err(poisoned) => poisoned.into_inner(),
    };
    while let Some(Some(answer)) = rx.blocking_recv() {
        let mut out = lock();
        if answer.write_line(&mut *out).is_err() {
            return;
        }
        loop {
            match rx.try_recv() {
                Ok(Some(answer)) => {
                    if answer.write_line(&mut *out).is_err() {
                        return;
                    }
                }
                Ok(None) => {
                    let _ = out.flush();
                    return;
                }
                Err(_) => break,
            }
        }
        if out.flush().is_err() {
            return;
        }
    }
    let _ = lock().flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_skipped_whole_and_reading_goes_on() {
        let mut input = vec![b'x'; MAX_LINE + 10];
        input.extend_from_slice(b"\nnext\n");
        let mut seen = Vec::new();
        let mut reader = BufReader::with_capacity(16, &input[..]);
        read_lines(&mut reader, |line, _| seen.push(line.map(<[u8]>::to_vec))).unwrap();
        assert_eq!(seen, vec![None, Some(b"next\n".to_vec())]);
    }
}
