//! The rooms in memory, by code. A room is loaded from the store the first time someone asks for it
//! and leaves memory again when it has been idle for a while (`Registry::release_if_unused`); its
//! state never depends on being in memory, because every change is committed before it is sent.

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::mpsc;

use super::{Command, RoomHandle};

#[derive(Default)]
pub struct Registry {
    rooms: Mutex<HashMap<String, RoomHandle>>,
}

impl Registry {
    /// The map, even if a thread panicked while holding it: every change to it is a single
    /// insert or remove, so it is never left half-changed.
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, RoomHandle>> {
        self.rooms.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn get(&self, code: &str) -> Option<RoomHandle> {
        self.lock().get(code).cloned()
    }

    /// The live room `code`, or the one `start` starts (called under the lock, so that two
    /// concurrent loads never run two actors for one room). `true`: `start` was called.
    pub fn get_or_start(&self, code: &str, start: impl FnOnce() -> RoomHandle) -> (RoomHandle, bool) {
        let mut rooms = self.lock();
        if let Some(h) = rooms.get(code) {
            return (h.clone(), false);
        }
        let h = start();
        rooms.insert(code.to_string(), h.clone());
        (h, true)
    }

    pub fn all(&self) -> Vec<RoomHandle> {
        self.lock().values().cloned().collect()
    }

    pub fn all_with_codes(&self) -> Vec<(String, RoomHandle)> {
        self.lock().iter().map(|(code, h)| (code.clone(), h.clone())).collect()
    }

    /// Removes room `code` if it is still the actor owning `ownership` (not one started since).
    pub fn remove(&self, code: &str, ownership: &std::sync::Arc<super::ownership::Ownership>) {
        let mut rooms = self.lock();
        if rooms
            .get(code)
            .is_some_and(|h| std::sync::Arc::ptr_eq(&h.ownership, ownership))
        {
            rooms.remove(code);
        }
    }

    pub fn clear(&self) {
        self.lock().clear();
    }

    /// Removes room `code` when nobody but the registry holds its mailbox and nothing waits in
    /// it. Holding the lock while checking makes this atomic with `get`: nobody can obtain a handle
    /// in between, so once this returns true no command can reach the room any more, and the
    /// next `get` loads it afresh from the store.
    pub fn release_if_unused(&self, code: &str, mailbox: &mpsc::Receiver<Command>) -> bool {
        let mut rooms = self.lock();
        // Only the registry's own handle (and no connection, HTTP request or computer move) left.
        if mailbox.sender_strong_count() != 1 || !mailbox.is_empty() {
            return false;
        }
        rooms.remove(code).is_some()
    }
}
