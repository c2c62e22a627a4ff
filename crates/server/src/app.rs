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
use crate::room::{LoadGates, Registry, Room, RoomHandle};
use evr_store::Store;

pub struct App {
    pub config: Arc<Config>,
    pub store: Arc<dyn Store>,
    /// Rooms in memory by code.
    pub rooms: Arc<Registry>,
    /// Rooms being loaded from the store: one load (and one claim) at a time per room.
    loading: LoadGates,
    /// Room actors and connection tasks, awaited on shutdown.
    pub tracker: TaskTracker,
    /// Cancelled at SIGTERM: the node says it is not ready (`/readyz`) and keeps serving for
    /// `--drain-secs`, so that the front door stops sending players here first.
    pub draining: CancellationToken,
    /// Cancelled when the drain is over: new rooms are refused, the listener closes, every room
    /// tells its players to reconnect.
    pub shutdown: CancellationToken,
    /// On a shared store: whether the last check reached it (`room/ownership.rs`). A node that
    /// cannot reach the store says it is not ready, and the front door sends players elsewhere.
    pub store_reachable: Arc<std::sync::atomic::AtomicBool>,
    next_conn: AtomicU64,
    /// Room creations per client address.
    pub room_limiter: DefaultKeyedRateLimiter<IpAddr>,
    /// Join codes tried per client address (`seat_api.rs`).
    pub join_limiter: DefaultKeyedRateLimiter<IpAddr>,
    /// Archives, replay files and replays step by step per client (`replay::bounded`): each
    /// plays a whole game again.
    pub replay_limiter: DefaultKeyedRateLimiter<IpAddr>,
    pub prometheus: PrometheusHandle,
    /// Where reminders go (`crate::notify`): `NoNotifier` unless `--smtp-url` is set.
    pub notifier: Arc<dyn crate::notify::Notifier>,
    /// The mail sender of the reminders' API and links (`crate::mail`); `None` without `--smtp-url`.
    pub mail: Option<Arc<crate::mail::Mailer>>,
    /// Accounts (`crate::accounts`): `None` when the public origin's host cannot have passkeys.
    pub accounts: Option<Arc<crate::accounts::Accounts>>,
    /// The account event streams each account holds (`friends::events`).
    pub account_streams: crate::friends::events::Streams,
}

impl App {
    pub fn new(config: Arc<Config>, store: Arc<dyn Store>, prometheus: PrometheusHandle) -> App {
        let per_minute = NonZeroU32::new(config.rooms_per_minute).unwrap_or(NonZeroU32::MIN);
        let join_codes = NonZeroU32::new(config.join_codes_per_minute).unwrap_or(NonZeroU32::MIN);
        let replays = NonZeroU32::new(config.replays_per_minute).unwrap_or(NonZeroU32::MIN);
        App {
            config,
            store,
            rooms: Arc::new(Registry::default()),
            loading: LoadGates::default(),
            tracker: TaskTracker::new(),
            draining: CancellationToken::new(),
            shutdown: CancellationToken::new(),
            store_reachable: Arc::new(std::sync::atomic::AtomicBool::new(true)),
            next_conn: AtomicU64::new(1),
            room_limiter: RateLimiter::keyed(Quota::per_minute(per_minute)),
            join_limiter: RateLimiter::keyed(Quota::per_minute(join_codes)),
            replay_limiter: RateLimiter::keyed(Quota::per_minute(replays)),
            prometheus,
            notifier: Arc::new(crate::notify::NoNotifier),
            mail: None,
            accounts: None,
            account_streams: Default::default(),
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
        // one load at a time per room: whoever waited finds the room the first one loaded
        let ticket = self.loading.enter(code);
        let _one_at_a_time = ticket.gate.lock().await;
        match self.rooms.get(code) {
            Some(h) => Ok(Some(h)),
            None => self.load(code).await,
        }
    }

    /// Room `code` if this server holds it and it is still this server's; never loads or claims
    /// it (a read must not take a room from the server that serves it).
    pub async fn held_room(&self, code: &str) -> Result<Option<RoomHandle>, RoomLoadError> {
        match self.rooms.get(code) {
            Some(h) if !self.store.is_shared() || self.still_ours(code, &h).await? => Ok(Some(h)),
            _ => Ok(None),
        }
    }

    /// Claims room `code` in the store, rebuilds it and starts it (`None`: no such room).
    async fn load(&self, code: &str) -> Result<Option<RoomHandle>, RoomLoadError> {
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

#[cfg(test)]
mod tests {
    use evr_protocol::{RoomOptions, SideChoice, SpectatorPolicy};
    use evr_rules::{Faction, Mode};
    use evr_store::{FIRST_EPOCH, SqliteStore};

    use super::*;
    use crate::room::NewRoom;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn connections_arriving_together_for_a_stored_room_claim_it_once() {
        let dir = std::env::temp_dir().join(format!("evr-app-claims-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let config = Arc::new(Config::for_tests(dir.clone()));
        let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&dir).expect("a store"));
        let new = NewRoom {
            code: "CLAIMONCE1".into(),
            options: RoomOptions {
                side: SideChoice::Rebel,
                mode: Mode::Full,
                spectators: SpectatorPolicy::AnyoneWithLink,
                opponent: None,
                reveal_at_end: false,
                clock: None,
                rated: false,
            },
            creator_faction: Faction::Rebel,
            invite: "invite".into(),
            join_code: None,
            creator_token: "token".into(),
            creator_name: None,
        };
        // stored, not started: as a room another node served before it went away
        drop(Room::create(new, store.clone(), config.clone()).await.expect("stored"));
        let app = Arc::new(App::new(config, store.clone(), crate::prometheus()));
        let loads: Vec<_> = (0..8)
            .map(|_| {
                let app = app.clone();
                tokio::spawn(async move { app.room("CLAIMONCE1").await })
            })
            .collect();
        for load in loads {
            let handle = load.await.expect("the load's task").expect("loaded");
            assert!(handle.is_some(), "the room is found");
        }
        let epochs = store.epochs(&["CLAIMONCE1".to_string()]).expect("epochs");
        assert_eq!(
            epochs,
            vec![("CLAIMONCE1".to_string(), FIRST_EPOCH + 1)],
            "one claim for the eight connections (each more would fence the one before)"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
