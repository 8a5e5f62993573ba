//! Which connections of `serve --http` hold one of its connection slots: only
//! those whose request carried the token, so that clients without it cannot starve
//! the ones with it.
//!
//! Accepting a connection takes no slot: it is *pending* until its first request
//! with the token, which *admits* it — from then on it holds one of the slots
//! ([`MAX_CONNECTIONS`](super::listener::MAX_CONNECTIONS); past them, an admitted
//! request waits for one, as only token holders hold them). At most
//! [`MAX_PENDING`] connections are pending ([`pending_bound`]): accepting one more
//! closes the oldest pending one. Idle clients, or clients that send half a
//! request, thus neither fill the slots nor keep a new client from being accepted
//! and read at once; a client with the token loses its connection only if that
//! many others connect between its connect and the arrival of its request
//! headers. hyper's header timeout still closes a connection that sends no
//! request.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

/// Connections accepted but not admitted yet, at most (fewer where the process
/// may open few files: [`pending_bound`]).
pub const MAX_PENDING: usize = 1024;

/// The bound on pending connections for this process: [`MAX_PENDING`], or a
/// quarter of its descriptor limit if that is less (at least 64). An accept that
/// fails for lack of descriptors would close no pending connection, and the
/// server would stop taking new clients: the bound keeps well below the limit.
pub fn pending_bound() -> usize {
    let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile).current;
    let quarter = limit.map_or(usize::MAX, |n| usize::try_from(n / 4).unwrap_or(usize::MAX));
    quarter.clamp(64, MAX_PENDING)
}

/// The pending connections and the slots of the admitted ones.
pub struct Admission {
    pending: Mutex<Pending>,
    max_pending: usize,
    slots: Arc<Semaphore>,
}

/// The pending connections, by age (ids grow: the first entry is the oldest), each
/// with the signal that closes it.
#[derive(Default)]
struct Pending {
    next: u64,
    waiting: BTreeMap<u64, Arc<Notify>>,
}

/// One accepted connection's standing: pending, then admitted. Dropping it (the
/// connection ended) gives back what it held.
pub struct Ticket {
    id: u64,
    admission: Arc<Admission>,
    evicted: Arc<Notify>,
    slot: OnceLock<OwnedSemaphorePermit>,
}

impl Admission {
    /// `max_pending` pending and `slots` admitted connections at most.
    pub fn new(max_pending: usize, slots: usize) -> Arc<Admission> {
        Arc::new(Admission {
            pending: Mutex::default(),
            max_pending: max_pending.max(1),
            slots: Arc::new(Semaphore::new(slots.max(1))),
        })
    }

    /// Registers a connection just accepted as pending; if that makes more than
    /// the bound, the oldest pending connection is told to close.
    pub fn enter(self: &Arc<Self>) -> Ticket {
        let evicted = Arc::new(Notify::new());
        let mut pending = self.pending();
        let id = pending.next;
        pending.next += 1;
        pending.waiting.insert(id, Arc::clone(&evicted));
        if pending.waiting.len() > self.max_pending
            && let Some((_, oldest)) = pending.waiting.pop_first()
        {
            // Stored if its connection is not waiting on it yet.
            oldest.notify_one();
        }
        Ticket {
            id,
            admission: Arc::clone(self),
            evicted,
            slot: OnceLock::new(),
        }
    }

    /// The pending set; a panic while it was held left it consistent (every
    /// change is one insert or remove), so a poisoned lock is used as it is.
    fn pending(&self) -> MutexGuard<'_, Pending> {
        self.pending.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Ticket {
    /// Resolves when the connection must close to make room (never once admitted).
    pub async fn evicted(&self) {
        self.evicted.notified().await;
    }

    /// Admits the connection (a request of it carried the token): it takes a slot,
    /// waiting for one if need be, and can no longer be closed to make room.
    /// `false`: it was told to close while it waited.
    pub async fn admit(&self) -> bool {
        if self.slot.get().is_some() {
            return true;
        }
        let Ok(slot) = Arc::clone(&self.admission.slots).acquire_owned().await else {
            return false;
        };
        if self.admission.pending().waiting.remove(&self.id).is_none() {
            return false;
        }
        // One request at a time on an HTTP/1 connection: nothing set it meanwhile.
        let _ = self.slot.set(slot);
        true
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.admission.pending().waiting.remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    async fn is_evicted(ticket: &Ticket) -> bool {
        tokio::time::timeout(Duration::from_millis(20), ticket.evicted())
            .await
            .is_ok()
    }

    #[tokio::test]
    async fn past_the_bound_the_oldest_pending_connection_is_closed_never_an_admitted_one() {
        let admission = Admission::new(3, 2);
        let admitted = admission.enter();
        assert!(admitted.admit().await);
        let oldest = admission.enter();
        let mut others = vec![admission.enter(), admission.enter()];
        assert!(!is_evicted(&oldest).await, "within the bound");
        others.push(admission.enter());
        assert!(is_evicted(&oldest).await, "the oldest pending one goes");
        assert!(!oldest.admit().await, "a closed connection is not admitted");
        assert!(!is_evicted(&others[0]).await);
        assert!(!is_evicted(&admitted).await);
        assert!(admitted.admit().await, "admitted once, admitted for good");
        // An ended connection leaves room: no one else is closed for the next.
        drop(others.remove(0));
        others.push(admission.enter());
        assert!(!is_evicted(&others[0]).await);
    }

    #[test]
    fn the_pending_bound_stays_below_the_descriptor_limit() {
        let bound = pending_bound();
        assert!((64..=MAX_PENDING).contains(&bound), "{bound}");
    }

    #[tokio::test]
    async fn admitted_connections_hold_the_slots_until_they_end() {
        let admission = Admission::new(MAX_PENDING, 1);
        let first = admission.enter();
        assert!(first.admit().await);
        let second = admission.enter();
        let waiting = tokio::time::timeout(Duration::from_millis(50), second.admit()).await;
        assert!(waiting.is_err(), "no slot while the first holds it");
        drop(first);
        assert!(second.admit().await);
        assert!(admission.pending().waiting.is_empty());
    }
}
