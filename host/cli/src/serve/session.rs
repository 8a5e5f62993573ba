//! One stream of requests (stdin, or one socket connection) and its answers, with
//! backpressure: at most `max_in_flight` requests of the stream are being fired or
//! waiting to be written, and the reader does not read the next line until one of
//! them is done. Every request gets exactly one answer: a fire that panics is
//! answered with `INTERNAL`.
//!
//! A request that arrives while nothing else of its stream is in flight, with no
//! further request already buffered (a client that waits for each answer), is
//! polled once inline on the reading thread. A pipelining client's requests go to
//! the runtime while fewer than one per core run there, and are otherwise polled
//! once inline too: the reading thread is one more core's worth of firing, and a
//! request never waits in a queue behind busy workers. A fire that has to wait (a
//! command hook's process, a guest yielding at an epoch tick) continues on the
//! runtime, so that a slow hook never stops the stream's reading. With a
//! [`Direct`] output (stdin/stdout), a waiting client's fire finished on the
//! reading thread has its answer written and flushed there: no hand-over to the
//! writer thread. Every other answer goes through the writer, so that a client
//! that stops reading blocks the writer thread only (bounded at shutdown).

use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use futures::FutureExt;
use hookhost::dialect::{AgentCall, Dialect};
use serde_json::Value;
use tokio::sync::{Notify, Semaphore, mpsc};

use super::reload::Shared;
use hookhost::bus::{Answer, Body, is_blank, parse_request};

/// What a writer receives: an answer, or `None` = flush and stop.
pub type Outgoing = Option<Answer>;

/// Counts the requests in flight in the whole server, so that a shutdown can wait
/// for them.
#[derive(Clone, Default)]
pub struct Tracker(Arc<(AtomicUsize, Notify)>);

/// One request in flight; dropping it marks it done.
pub struct InFlight(Tracker);

impl Tracker {
    /// Counts one request in flight until the guard is dropped.
    pub fn enter(&self) -> InFlight {
        self.0.0.fetch_add(1, Ordering::SeqCst);
        InFlight(self.clone())
    }

    /// Resolves once nothing is in flight.
    pub async fn idle(&self) {
        loop {
            let notified = self.0.1.notified();
            let mut notified = std::pin::pin!(notified);
            notified.as_mut().enable();
            if self.0.0.load(Ordering::SeqCst) == 0 {
                return;
            }
            notified.await;
        }
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if self.0.0.0.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.0.1.notify_waiters();
        }
    }
}

/// The stream's output, shared by its writer and the inline path.
pub type Direct = Arc<Mutex<dyn Write + Send>>;

/// The request side of one stream.
pub struct Session {
    system: Shared,
    permits: Arc<Semaphore>,
    max_in_flight: usize,
    /// The stream's writer: every answer but a waiting client's inline one.
    answers: mpsc::Sender<Outgoing>,
    tracker: Tracker,
    /// Where a waiting client's inline answer is written straight away. Every other
    /// answer goes through the writer: a write to a client that stopped reading
    /// blocks, and must block neither a runtime worker (timers, signals and the
    /// shutdown run there) nor the reading thread with a request in flight (the
    /// shutdown waits for it).
    direct: Option<Direct>,
    /// Requests of this stream running on the runtime now.
    spawned: Arc<AtomicUsize>,
    /// How many may run there while the reading thread fires the next one itself.
    helpers: usize,
}

impl Session {
    pub fn new(
        system: Shared,
        max_in_flight: usize,
        answers: mpsc::Sender<Outgoing>,
        tracker: Tracker,
    ) -> Session {
        // As many on the runtime as it has workers (one per core), while the reading
        // thread fires the next one itself (see `submit`). Measured with 40,000
        // pipelined one-plugin requests on 2 cores (answers then written by the
        // thread that finished the fire): 2 helpers 2.08–2.15 s, 1 helper
        // 2.35–2.40 s, no limit 2.21 s, none (all on the reading thread) 3.3 s.
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        forward_notices(answers.clone());
        Session {
            system,
            permits: Arc::new(Semaphore::new(max_in_flight.max(1))),
            max_in_flight: max_in_flight.max(1),
            answers,
            tracker,
            direct: None,
            spawned: Arc::new(AtomicUsize::new(0)),
            helpers: cores,
        }
    }

    /// A waiting client's answers, fired on the reading thread, are written straight
    /// to `output` (which the stream's writer shares).
    pub fn with_direct(mut self, output: Direct) -> Session {
        self.direct = Some(output);
        self
    }

    /// Takes one complete request line (`more`: further input is already buffered).
    /// Returns once the request is queued — which waits while `max_in_flight`
    /// requests of this stream are unanswered — or, fired inline, answered.
    ///
    /// Where a request runs: a client that waits for each answer (nothing else of
    /// the stream in flight, nothing more buffered) gets it fired on this thread.
    /// A pipelining client gets its requests spread: while fewer than `helpers`
    /// run on the runtime, the next one goes there; otherwise this thread fires it
    /// itself rather than queue it behind busy workers.
    /// An inline fire is polled once: what must wait (a process, a guest's epoch
    /// yield) continues on the runtime, so a slow hook never holds up reading.
    pub async fn submit(&self, line: &[u8], more: bool) {
        if is_blank(line) {
            return;
        }
        let Ok(permit) = Arc::clone(&self.permits).acquire_owned().await else {
            return;
        };
        match parse_request(line) {
            Err(answer) => {
                let _ = self.answers.send(Some(answer)).await;
            }
            Ok(request) => {
                let in_flight = self.tracker.enter();
                let system = self.system.current();
                let mut fire = Box::pin(async move {
                    // A request names its event in the canonical dialect.
                    let call = AgentCall::fired(request.event, Dialect::Llxprt);
                    let fire = system.fire_call(&call, request.input);
                    guarded(request.id, fire).await
                });
                // Only this request holds a permit: nothing else of the stream runs.
                let alone = self.permits.available_permits() + 1 == self.max_in_flight;
                let waiting_client = alone && !more;
                let inline = waiting_client || self.spawned.load(Ordering::Acquire) >= self.helpers;
                if inline {
                    let polled = fire.as_mut().poll(&mut Context::from_waker(Waker::noop()));
                    if let Poll::Ready(answer) = polled {
                        if waiting_client {
                            self.deliver_inline(answer).await;
                        } else {
                            // A pipelining client may have stopped reading: its
                            // answers wait in the writer's queue, not in this thread.
                            let _ = self.answers.send(Some(answer)).await;
                        }
                        drop((permit, in_flight));
                        return;
                    }
                }
                let answers = self.answers.clone();
                let spawned = Arc::clone(&self.spawned);
                spawned.fetch_add(1, Ordering::AcqRel);
                tokio::spawn(async move {
                    let answer = fire.await;
                    spawned.fetch_sub(1, Ordering::AcqRel);
                    // The writer may be gone (a vanished client): the answer is moot.
                    let _ = answers.send(Some(answer)).await;
                    // Only now, with the answer queued ahead of any stop, is it done.
                    drop((permit, in_flight));
                });
            }
        }
    }

    /// Writes a waiting client's inline answer: straight to the output when there is
    /// one (flushed: the client is waiting for it), else through the writer.
    async fn deliver_inline(&self, answer: Answer) {
        if let Some(direct) = &self.direct {
            let mut guard = match direct.lock() {
                Ok(out) => out,
                Err(poisoned) => poisoned.into_inner(),
            };
            let mut out: &mut (dyn Write + Send) = &mut *guard;
            // A failed write is the writer's failure too: it sees it on its next one.
            let _ = answer.write_line(&mut out).and_then(|()| out.flush());
            return;
        }
        let _ = self.answers.send(Some(answer)).await;
    }

    /// Answers a line that was too long.
    pub async fn reject(&self, answer: Answer) {
        let _ = self.answers.send(Some(answer)).await;
    }
}

/// How often the notices of `asyncRewake` hooks are looked for (seeds/003's TUI
/// polls every 500 ms; a server is a step closer to the hook).
const NOTICE_POLL: std::time::Duration = std::time::Duration::from_millis(250);

/// Writes every notice of an `asyncRewake` hook to the stream as a
/// `{"notice": …}` line, until the stream's writer is gone. With several clients
/// (a socket) each notice goes to one of them.
fn forward_notices(answers: mpsc::Sender<Outgoing>) {
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(NOTICE_POLL).await;
            if answers.is_closed() {
                return;
            }
            for notice in hookhost::take_all_notices() {
                let answer = Answer {
                    id: None,
                    body: hookhost::bus::Body::Notice(Box::new(notice)),
                };
                if answers.send(Some(answer)).await.is_err() {
                    return;
                }
            }
        }
    });
}

/// Runs a fire; a panic becomes an `INTERNAL` error answer instead of a lost one.
pub async fn guarded(
    id: Value,
    fire: impl Future<Output = hookhost::AggregatedHookResult>,
) -> Answer {
    match caught(fire).await {
        Ok(result) => Answer {
            id: Some(id),
            body: Body::Output(Box::new(result)),
        },
        Err(what) => Answer::error(
            Some(id),
            "INTERNAL",
            format!("hookhost failed while firing this request: {what}"),
        ),
    }
}

/// Runs `work`; a panic becomes `Err` with its message, so that a request still
/// gets its one answer.
pub async fn caught<T>(work: impl Future<Output = T>) -> Result<T, String> {
    AssertUnwindSafe(work)
        .catch_unwind()
        .await
        .map_err(|panic| {
            panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_owned())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_panicking_fire_is_answered_internal() {
        let answer = guarded(Value::from("p-1"), async {
            if Value::Null.is_null() {
                panic!("boom");
            }
            hookhost::AggregatedHookResult::empty()
        })
        .await;
        assert_eq!(answer.id, Some(Value::from("p-1")));
        match answer.body {
            Body::Error { code, message } => {
                assert_eq!(code, "INTERNAL");
                assert!(message.contains("boom"), "{message}");
            }
            _ => panic!("a panic produced no error answer"),
        }
    }

    #[tokio::test]
    async fn tracker_is_idle_when_every_request_is_done() {
        let tracker = Tracker::default();
        let a = tracker.enter();
        let b = tracker.enter();
        let waiter = tokio::spawn({
            let tracker = tracker.clone();
            async move { tracker.idle().await }
        });
        drop(a);
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished());
        drop(b);
        tokio::time::timeout(std::time::Duration::from_secs(5), waiter)
            .await
            .unwrap()
            .unwrap();
    }
}
