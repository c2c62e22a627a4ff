//! Shared server state: configuration, the store, the room registry and limits.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use metrics_exporter_prometheus::PrometheusHandle;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::config::Config;
use crate::room::RoomHandle;
use crate::store::SqliteStore;

pub struct App {
    pub config: Arc<Config>,
    pub store: Arc<SqliteStore>,
    /// Live rooms by code.
    pub rooms: Mutex<HashMap<String, RoomHandle>>,
    /// Room actors and connection tasks, awaited on shutdown.
    pub tracker: TaskTracker,
    pub shutdown: CancellationToken,
    next_conn: AtomicU64,
    /// Room creations per client address.
    pub room_limiter: DefaultKeyedRateLimiter<IpAddr>,
    pub prometheus: PrometheusHandle,
}

impl App {
    pub fn new(config: Arc<Config>, store: Arc<SqliteStore>, prometheus: PrometheusHandle) -> App {
        let per_minute = NonZeroU32::new(config.rooms_per_minute).unwrap_or(NonZeroU32::MIN);
        App {
            config,
            store,
            rooms: Mutex::new(HashMap::new()),
            tracker: TaskTracker::new(),
            shutdown: CancellationToken::new(),
            next_conn: AtomicU64::new(1),
            room_limiter: RateLimiter::keyed(Quota::per_minute(per_minute)),
            prometheus,
        }
    }

    pub fn next_conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    pub fn room(&self, code: &str) -> Option<RoomHandle> {
        self.rooms.lock().ok().and_then(|r| r.get(code).cloned())
    }

    pub fn insert_room(&self, code: String, handle: RoomHandle) {
        if let Ok(mut rooms) = self.rooms.lock() {
            rooms.insert(code, handle);
        }
    }

    pub fn all_rooms(&self) -> Vec<RoomHandle> {
        self.rooms
            .lock()
            .map(|r| r.values().cloned().collect())
            .unwrap_or_default()
    }
}
