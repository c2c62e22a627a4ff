//! Shared server state: configuration, the store, the room registry and limits.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use metrics_exporter_prometheus::PrometheusHandle;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::config::Config;
use crate::metrics_names as m;
use crate::room::{Registry, Room, RoomHandle};
use evr_store::Store;

pub struct App {
    pub config: Arc<Config>,
    pub store: Arc<dyn Store>,
    /// Rooms in memory by code.
    pub rooms: Arc<Registry>,
    /// Room actors and connection tasks, awaited on shutdown.
    pub tracker: TaskTracker,
    pub shutdown: CancellationToken,
    /// On a shared store: whether the last check reached it (`room/ownership.rs`). A node that
    /// cannot reach the store says it is not ready, and the front door sends players elsewhere.
    pub store_reachable: Arc<std::sync::atomic::AtomicBool>,
    next_conn: AtomicU64,
    /// Room creations per client address.
    pub room_limiter: DefaultKeyedRateLimiter<IpAddr>,
    /// Join codes tried per client address (`seat_api.rs`).
    pub join_limiter: DefaultKeyedRateLimiter<IpAddr>,
    pub prometheus: PrometheusHandle,
    /// Where correspondence rooms' reminders go (`crate::notify`; none by default).
    pub notifier: Arc<dyn crate::notify::Notifier>,
}

impl App {
    pub fn new(config: Arc<Config>, store: Arc<dyn Store>, prometheus: PrometheusHandle) -> App {
        let per_minute = NonZeroU32::new(config.rooms_per_minute).unwrap_or(NonZeroU32::MIN);
        let join_codes = NonZeroU32::new(config.join_codes_per_minute).unwrap_or(NonZeroU32::MIN);
        App {
            config,
            store,
            rooms: Arc::new(Registry::default()),
            tracker: TaskTracker::new(),
            shutdown: CancellationToken::new(),
            store_reachable: Arc::new(std::sync::atomic::AtomicBool::new(true)),
            next_conn: AtomicU64::new(1),
            room_limiter: RateLimiter::keyed(Quota::per_minute(per_minute)),
            join_limiter: RateLimiter::keyed(Quota::per_minute(join_codes)),
            prometheus,
            notifier: Arc::new(crate::notify::NoNotifier),
        }
    }

    pub fn next_conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// Room `code`: the live one, or loaded from the store (and started) if it exists there.
    pub async fn room(&self, code: &str) -> Result<Option<RoomHandle>, RoomLoadError> {
        if let Some(h) = self.rooms.get(code)
            && (!self.store.is_shared() || self.still_ours(code, &h).await?)
        {
            return Ok(Some(h));
        }
        let store = self.store.clone();
        let owned = code.to_string();
        // serving the room here claims it: another server that still holds it will let it go
        let stored = tokio::task::spawn_blocking(move || crate::room::claim_with_deadlines(&store, &owned))
            .await
            .map_err(|e| RoomLoadError::Task(e.to_string()))??;
        let Some((stored, deadlines)) = stored else {
            return Ok(None);
        };
        let claimed = stored.epoch;
        let mut room = Room::recover(stored, self.store.clone(), self.config.clone())?;
        room.restore_deadlines(deadlines);
        room.set_notifier(self.notifier.clone());
        // Another request may have loaded it meanwhile: then theirs is the room and ours is dropped
        // before its actor ever starts.
        let tracker = &self.tracker;
        let registry = self.rooms.clone();
        let (handle, started) = self.rooms.get_or_start(code, || room.spawn(tracker, registry));
        if started {
            metrics::counter!(m::ROOMS_LOADED).increment(1);
            tracing::debug!(room = code, "room loaded from the store");
        } else {
            // our claim raised the room's epoch past the running actor's (both are this server's)
            handle.ownership.adopt(claimed);
        }
        Ok(Some(handle))
    }

    /// Whether room `code`, in memory here, is still this server's: another server may have
    /// claimed it since the last check of the claims (`room/ownership.rs`, a second apart). A room
    /// served from a lost claim would answer a new connection with what it had: an older view, or
    /// `bad_token` to a guest who joined on the other server. A lost one is told so (it tells its
    /// connections to connect again and leaves) and taken out of the registry here and now, so
    /// that the caller loads the room afresh from the store.
    async fn still_ours(&self, code: &str, h: &RoomHandle) -> Result<bool, RoomLoadError> {
        let store = self.store.clone();
        let codes = vec![code.to_string()];
        let stored = tokio::task::spawn_blocking(move || store.epochs(&codes))
            .await
            .map_err(|e| RoomLoadError::Task(e.to_string()))??;
        let Some(claimed) = stored.into_iter().map(|(_, e)| e).find(|e| *e > h.ownership.epoch()) else {
            return Ok(true);
        };
        h.ownership.lose_to(claimed);
        let _ = h.tx.try_send(crate::room::Command::Moved { claimed });
        self.rooms.remove(code, &h.ownership);
        Ok(false)
    }

    /// Starts a newly created room and registers it.
    pub fn start_room(&self, code: &str, mut room: Room) -> RoomHandle {
        room.set_notifier(self.notifier.clone());
        let registry = self.rooms.clone();
        self.rooms.get_or_start(code, || room.spawn(&self.tracker, registry)).0
    }
}

/// Why a stored room could not be brought back into memory.
#[derive(Debug, thiserror::Error)]
pub enum RoomLoadError {
    #[error(transparent)]
    Store(#[from] evr_store::StoreError),
    #[error(transparent)]
    Recovery(#[from] crate::room::RecoveryError),
    #[error("loading task: {0}")]
    Task(String),
}
