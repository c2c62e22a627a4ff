//! A room lives on one server at a time. On a shared store (PostgreSQL, several nodes) a server
//! that brings a room into memory claims it (`Store::claim_room`: the room's epoch goes up) and
//! makes every write under that epoch; the store refuses writes under an older one
//! (`StoreError::Fenced`). A room whose write is fenced, or whose claim another server has
//! taken (seen by [`watch`] every `--ownership-check-ms`, a second by default), lets go: it tells
//! its connections to connect again (the front door then sends them to the room's owner) and
//! leaves this server's memory. Between two checks a connection may still reach the old holder
//! (HAProxy sent it back after a restart): `App::room` asks the store for the room's claim before
//! it serves a room it holds, so no one is ever answered from a lost room's memory.
//! Nothing is lost: what it had acknowledged is in the store, and what was fenced was never
//! acknowledged.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use evr_store::{Epoch, Store, StoreError, WriteOp};
use tokio_util::sync::CancellationToken;

use super::{Command, ConnId, Registry, Room};
use crate::metrics_names as m;

/// A room's claim, shared by its actor and its handle (for [`watch`]).
#[derive(Debug)]
pub struct Ownership {
    epoch: AtomicU64,
    /// A write was fenced, or another server claimed the room: the actor must let go.
    lost: AtomicBool,
}

impl Ownership {
    pub fn new(epoch: Epoch) -> Arc<Ownership> {
        Arc::new(Ownership {
            epoch: AtomicU64::new(epoch),
            lost: AtomicBool::new(false),
        })
    }

    pub fn epoch(&self) -> Epoch {
        self.epoch.load(Ordering::Relaxed)
    }

    /// A new claim (the room woke up and claimed it again).
    pub fn renew(&self, epoch: Epoch) {
        self.epoch.store(epoch, Ordering::Relaxed);
        self.lost.store(false, Ordering::Relaxed);
    }

    /// Another claim this server made for the same room (two requests loaded it at once; one
    /// actor runs): the room holds the newer of the two, so that its writes are not fenced by it.
    pub fn adopt(&self, epoch: Epoch) {
        self.epoch.fetch_max(epoch, Ordering::Relaxed);
    }

    pub fn lose(&self) {
        self.lost.store(true, Ordering::Relaxed);
    }

    /// Lost if `claimed` is newer than this claim (the check that saw it may have read the store
    /// before this room claimed it again, waking up).
    pub fn lose_to(&self, claimed: Epoch) {
        if claimed > self.epoch() {
            self.lose();
        }
    }

    pub fn is_lost(&self) -> bool {
        self.lost.load(Ordering::Relaxed)
    }
}

impl Room {
    /// Stores `op` under the room's claim; a fenced write marks the claim lost (the dispatcher
    /// then lets the room go, `let_go`).
    pub(super) fn submit(&self, op: WriteOp) -> impl Future<Output = Result<(), StoreError>> + use<> {
        let answer = self.store.submit(self.ownership.epoch(), op);
        let ownership = self.ownership.clone();
        async move {
            let result = answer.await.unwrap_or(Err(StoreError::Closed));
            if let Err(StoreError::Fenced) = result {
                ownership.lose();
            }
            result
        }
    }

    /// Another server owns the room now: every connection is told to connect again (and so
    /// reaches the owner); the actor ends and the room leaves this server's registry.
    pub(super) fn let_go(&mut self, registry: &Registry) {
        metrics::counter!(m::ROOMS_LET_GO).increment(1);
        tracing::info!(room = %self.code, "another server owns this room now: letting it go");
        self.tell_to_reconnect("this room moved to another server; reconnect in a moment");
        let ids: Vec<ConnId> = self.conns.keys().copied().collect();
        for id in ids {
            // dropping its outbox closes the connection (after the message)
            self.remove_conn(id);
        }
        registry.remove(&self.code, &self.ownership);
    }
}

/// The store did not answer the check: not ready until it does (the front door stops sending
/// players here; this node's rooms stay fenced by their claims meanwhile).
fn unreachable(reachable: &AtomicBool, why: &str) {
    if reachable.swap(false, Ordering::Relaxed) {
        tracing::warn!(error = why, "cannot reach the store: not ready");
    }
}

/// What the check of the claims needs of the server: the store, the rooms in memory, where to say
/// whether the store answered (the node's readiness), how often, and when to stop.
pub struct Watch {
    pub store: Arc<dyn Store>,
    pub rooms: Arc<Registry>,
    pub reachable: Arc<AtomicBool>,
    pub every: Duration,
    pub shutdown: CancellationToken,
}

/// Checks, every `--ownership-check-ms`, that the rooms in memory are still this server's; tells those
/// another server claimed to let go. Runs only on a shared store, until shutdown.
pub async fn watch(w: Watch) {
    let every = w.every.max(Duration::from_millis(10));
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = w.shutdown.cancelled() => return,
            _ = tick.tick() => {}
        }
        // also with no room in memory: the check is the node's readiness (`/readyz`)
        let rooms = w.rooms.all_with_codes();
        let codes: Vec<String> = rooms.iter().map(|(code, _)| code.clone()).collect();
        let store = w.store.clone();
        let checked = tokio::time::timeout(
            every.max(Duration::from_secs(2)),
            tokio::task::spawn_blocking(move || store.epochs(&codes)),
        )
        .await;
        let stored = match checked {
            Ok(Ok(Ok(stored))) => stored,
            Ok(Ok(Err(e))) => {
                unreachable(&w.reachable, &e.to_string());
                continue;
            }
            Ok(Err(e)) => {
                unreachable(&w.reachable, &e.to_string());
                continue;
            }
            Err(_) => {
                unreachable(&w.reachable, "no answer");
                continue;
            }
        };
        if !w.reachable.swap(true, Ordering::Relaxed) {
            tracing::info!("the store can be reached again: ready");
        }
        let stored: std::collections::HashMap<String, Epoch> = stored.into_iter().collect();
        for (code, handle) in rooms {
            if let Some(claimed) = stored.get(&code).copied().filter(|e| *e > handle.ownership.epoch()) {
                // the room decides (it may have claimed the room again meanwhile); a full mailbox
                // is a busy room, told at the next check or fenced at its next write
                let _ = handle.tx.try_send(Command::Moved { claimed });
            }
        }
    }
}
