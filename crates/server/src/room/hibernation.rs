//! A room nobody is connected to gives its game back to the store and waits in a few KiB.
//!
//! Why: rooms outlive their connections (a reload, a phone that sleeps, a friend who comes back
//! tomorrow), and a whole game's events and state are tens of KiB. After
//! `--room-hibernate-secs` without a connection (and with no clock running and the computer not
//! thinking), the actor keeps only what it needs to answer "is the seat free?", to keep each
//! seat's absence counting for a claim, and to wake: its mailbox, code and seats. Any other command
//! rebuilds the room from the store exactly as a restart would (the action log is the truth, so
//! nothing is lost by forgetting the rest) and is then handled as if it had never slept. After
//! `--room-idle-secs` it leaves memory altogether.

use std::sync::Arc;
use std::time::Instant;

use evr_protocol::{ErrorCode, RoomStatus, SpectatorPolicy};
use tokio::sync::mpsc;

use super::seat::{BySeat, Seat};
use super::{Command, Registry, Room};
use crate::config::Config;
use crate::metrics_names as m;
use evr_store::Store;

/// How a running room stopped running.
pub(super) enum RunEnd {
    /// Shut down, released, or its mailbox closed: the actor ends.
    Stopped,
    /// Nobody was connected for the hibernation time.
    Idle,
}

/// The actor of one room, from its start to its end: running, sleeping light, woken again.
pub(super) async fn lifecycle(
    // boxed by the caller: a future keeps its arguments' space for as long as it lives
    mut room: Box<Room>,
    self_tx: mpsc::WeakSender<Command>,
    mut rx: mpsc::Receiver<Command>,
    registry: Arc<Registry>,
) {
    metrics::gauge!(m::ROOMS).increment(1.0);
    let mut first = None;
    loop {
        room.self_tx = Some(self_tx.clone());
        // boxed for the same reason: a sleeping actor's task must not keep a running room's space
        if let RunEnd::Stopped = Box::pin(room.run(&mut rx, &registry, first.take())).await {
            break;
        }
        let dormant = Dormant::from(*room);
        metrics::counter!(m::ROOMS_HIBERNATED).increment(1);
        match dormant.sleep(&mut rx, &registry).await {
            Some((woken, cmd)) => {
                room = woken;
                first = Some(cmd);
            }
            None => break,
        }
    }
    metrics::gauge!(m::ROOMS).decrement(1.0);
}

/// What a sleeping room keeps.
struct Dormant {
    code: String,
    seat_free: bool,
    spectators: SpectatorPolicy,
    /// Kept rather than reloaded: the computer's seat has a token hash nobody holds, made when the
    /// room was first loaded.
    seat_hashes: BySeat<Option<Vec<u8>>>,
    /// Absences keep counting towards a claim while the room sleeps.
    away_since: BySeat<Option<Instant>>,
    store: Arc<dyn Store>,
    config: Arc<Config>,
    /// The claim, kept so that the handle's stays the same one (`ownership.rs`).
    ownership: Arc<super::ownership::Ownership>,
    notifier: Arc<dyn crate::notify::Notifier>,
}

impl From<Room> for Dormant {
    fn from(room: Room) -> Dormant {
        Dormant {
            seat_free: room.seat_hashes[Seat::Guest].is_none(),
            spectators: room.options.spectators,
            code: room.code,
            seat_hashes: room.seat_hashes,
            away_since: room.away_since,
            store: room.store,
            config: room.config,
            ownership: room.ownership,
            notifier: room.notifier,
        }
    }
}

impl Dormant {
    /// Waits for a command that needs the room (`Some`: the room rebuilt, and that command), or
    /// for the end (`None`: shut down, or released after the idle time).
    async fn sleep(self, rx: &mut mpsc::Receiver<Command>, registry: &Registry) -> Option<(Box<Room>, Command)> {
        let idle = self.config.room_idle().saturating_sub(self.config.room_hibernate());
        let mut release_at = tokio::time::Instant::now() + idle;
        loop {
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    None | Some(Command::Shutdown) => return None,
                    Some(Command::Moved { claimed }) if claimed > self.ownership.epoch() => {
                        registry.remove(&self.code, &self.ownership);
                        return None;
                    }
                    // a claim this room made itself since the check read the store
                    Some(Command::Moved { .. }) => {}
                    Some(Command::Status { reply }) => {
                        let _ = reply.send(RoomStatus {
                            code: self.code.clone(),
                            seat_free: self.seat_free,
                            spectators: self.spectators,
                        });
                    }
                    // a connection that left before the room went to sleep
                    Some(Command::Disconnect { .. }) => {}
                    Some(cmd) => match self.wake().await {
                        Ok(room) => return Some((room, cmd)),
                        Err(e) => {
                            tracing::error!(room = %self.code, error = %e, "cannot wake the room");
                            refuse(cmd);
                        }
                    },
                },
                _ = tokio::time::sleep_until(release_at) => {
                    if registry.release_if_unused(&self.code, rx) {
                        metrics::counter!(m::ROOMS_RELEASED).increment(1);
                        tracing::debug!(room = %self.code, "idle room left memory");
                        return None;
                    }
                    // someone still holds a handle: wait another period
                    release_at += self.config.room_idle();
                }
            }
        }
    }

    /// The room rebuilt from the store, with what the sleeping room kept.
    async fn wake(&self) -> Result<Box<Room>, String> {
        let (store, code) = (self.store.clone(), self.code.clone());
        // waking up claims the room again: another server may have served it meanwhile
        let (stored, deadlines) = tokio::task::spawn_blocking(move || super::claim_with_deadlines(&store, &code))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?
            .ok_or("the room is no longer stored")?;
        let stored_epoch = stored.epoch;
        let mut room = Room::recover(stored, self.store.clone(), self.config.clone()).map_err(|e| e.to_string())?;
        room.restore_deadlines(deadlines);
        room.set_notifier(self.notifier.clone());
        self.ownership.renew(stored_epoch);
        room.ownership = self.ownership.clone();
        room.seat_hashes = self.seat_hashes.clone();
        room.away_since = self.away_since;
        metrics::counter!(m::ROOMS_WOKEN).increment(1);
        Ok(Box::new(room))
    }
}

/// Answers a command the room could not wake for.
fn refuse(cmd: Command) {
    match cmd {
        Command::Connect(c) => {
            let _ = c.reply.send(Err(ErrorCode::StorageFailed));
        }
        Command::Join(j) => {
            let _ = j.reply.send(Err(ErrorCode::StorageFailed));
        }
        Command::NewInvite { reply, .. } => {
            let _ = reply.send(Err(ErrorCode::StorageFailed));
        }
        Command::IssueTransfer { reply, .. } => {
            let _ = reply.send(Err(ErrorCode::StorageFailed));
        }
        Command::TakeSeat { reply, .. } | Command::AccountDevice { reply, .. } => {
            let _ = reply.send(Err(ErrorCode::StorageFailed));
        }
        Command::EraseName { reply, .. } => {
            let _ = reply.send(Err(ErrorCode::StorageFailed));
        }
        _ => {}
    }
}
