//! Bringing a stored room back: its latest game is rebuilt by replaying the stored action log on
//! the stored seed (the engine is deterministic), so the log is the only truth kept.

use std::sync::Arc;
use std::time::Instant;

use super::game_match::Match;
use super::seat::{BySeat, Seat};
use super::{Room, computer_seat, new_game};
use crate::config::Config;
use crate::secrets;
use evr_store::{GameResult, Store, StoredAction, StoredRoom, StoredSeat};

/// Why a stored room could not be rebuilt.
#[derive(Debug, thiserror::Error)]
#[error("room {code}: {reason}")]
pub struct RecoveryError {
    code: String,
    reason: String,
}

/// The room's seat a stored seat names.
fn seat_of(stored: StoredSeat) -> Seat {
    match stored {
        StoredSeat::Creator => Seat::Creator,
        StoredSeat::Guest => Seat::Guest,
    }
}

/// Plays the stored `actions` on `current`'s game, recording each move; returns the `seq` of the
/// last action (`current.start_seq` if none). Fails on the first action the engine refuses.
fn replay(current: &mut Match, actions: &[StoredAction]) -> Result<u32, String> {
    let mut seq = current.start_seq;
    current.moves.reserve_exact(actions.len());
    for a in actions {
        current
            .game
            .apply(a.seat, a.action)
            .map_err(|e| format!("seq {} refused on replay: {e}", a.seq))?;
        current.record(a.seq, a.seat, a.action, a.action_id.clone());
        seq = a.seq;
    }
    Ok(seq)
}

impl Room {
    /// Rebuilds a stored room: its latest game from the seed and the action log.
    pub fn recover(stored: StoredRoom, store: Arc<dyn Store>, config: Arc<Config>) -> Result<Room, RecoveryError> {
        let fail = |reason: String| RecoveryError {
            code: stored.code.clone(),
            reason,
        };
        let last = stored.game.as_ref().ok_or_else(|| fail("no game".into()))?;
        let game = new_game(&stored.options, &last.secret).map_err(&fail)?;
        let mut current = Match::new(last.game_no, last.creator_faction, game, last.secret, last.start_seq);
        let seq = replay(&mut current, &last.actions).map_err(&fail)?;
        current.forfeit_winner = last.result.and_then(|r| r.forfeit_winner);
        current.forfeit_reason = last.result.filter(GameResult::ended).map(|r| r.reason);
        let actions = last.actions.clone();
        current.reveal = last.reveal;

        let computer = computer_seat(&stored.options, &config);
        let guest_hash = match (&computer, stored.guest_hash) {
            (Some(_), None) => Some(secrets::hash_token(
                &secrets::new_token().map_err(|e| fail(e.to_string()))?,
            )),
            (_, hash) => hash,
        };
        // Nobody is connected to a room that was just loaded: a seated person's absence (and so the
        // opponent's claim clock) counts from now. The computer is never away.
        let now = Instant::now();
        let away_since = BySeat::new(
            Some(now),
            guest_hash.as_ref().filter(|_| computer.is_none()).map(|_| now),
        );
        let mut room = Room::new(
            stored.code,
            stored.options,
            stored.invite_hash,
            BySeat::new(Some(stored.creator_hash), guest_hash),
            current,
            store,
            config,
        );
        room.ownership = super::ownership::Ownership::new(stored.epoch);
        room.join_code = stored.join_code_hash.map(|hash| super::joining::JoinCode {
            hash,
            failures: stored.join_failures,
        });
        room.names = BySeat::new(stored.creator_name, stored.guest_name);
        for device in stored.devices {
            room.devices[seat_of(device.seat)].push(super::devices::MovedDevice {
                hash: device.token_hash,
                added_at: device.added_at,
            });
        }
        for t in stored.transfers {
            room.transfers[seat_of(t.seat)] = Some(super::transfer::PendingTransfer {
                secret_hash: t.secret_hash,
                expires_at: t.expires_at,
            });
        }
        room.seq = seq;
        room.chat = crate::chat::ChatLog::from_stored(stored.chat);
        room.clock = room.recovered_clock(&actions, now);
        room.away_since = away_since;
        room.computer = computer;
        Ok(room)
    }
}
