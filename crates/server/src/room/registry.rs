//! The rooms in memory, by code. A room is loaded from the store the first time someone asks for it
//! and leaves memory again when it has been idle for a while (`Registry::release_if_unused`); its
//! state never depends on being in memory, because every change is committed before it is sent.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

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
    pub fn remove(&self, code: &str, ownership: &Arc<super::ownership::Ownership>) {
        let mut rooms = self.lock();
        if rooms.get(code).is_some_and(|h| Arc::ptr_eq(&h.ownership, ownership)) {
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

/// One gate per room being loaded from the store on this server (`App::room`): the connections
/// that arrive together for a room that is not in memory — its players and spectators coming back
/// after their node went away — load and claim it once, the others waiting for that load. Each
/// claim raises the room's epoch: a second one would fence the first one's writes, and the room
/// would let go of everyone it had just welcomed (`ownership.rs`).
#[derive(Default)]
pub struct LoadGates {
    gates: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

impl LoadGates {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<tokio::sync::Mutex<()>>>> {
        self.gates.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Room `code`'s gate, to hold while loading it; it goes when the returned ticket is dropped
    /// (those still waiting on it go on with their own ticket).
    pub fn enter(&self, code: &str) -> LoadTicket<'_> {
        let gate = self.lock().entry(code.to_string()).or_default().clone();
        LoadTicket {
            gates: self,
            code: code.to_string(),
            gate,
        }
    }
}

/// A place in the queue of one room's loads (`LoadGates::enter`).
pub struct LoadTicket<'a> {
    gates: &'a LoadGates,
    code: String,
    pub gate: Arc<tokio::sync::Mutex<()>>,
}

impl Drop for LoadTicket<'_> {
    fn drop(&mut self) {
        let mut gates = self.gates.lock();
        if gates.get(&self.code).is_some_and(|g| Arc::ptr_eq(g, &self.gate)) {
            gates.remove(&self.code);
        }
    }
}
