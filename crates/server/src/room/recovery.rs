//! Bringing a stored room back: its latest game is rebuilt by replaying the stored action log on
//! the stored seed (the engine is deterministic), so the log is the only truth kept.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use evr_rules::{Event, Faction, Game};

use super::game_match::Match;
use super::seat::BySeat;
use super::{Room, computer_seat, new_game};
use crate::config::Config;
use crate::secrets;
use crate::store::{Store, StoredAction, StoredRoom};

/// Why a stored room could not be rebuilt.
#[derive(Debug, thiserror::Error)]
#[error("room {code}: {reason}")]
pub struct RecoveryError {
    code: String,
    reason: String,
}

/// The game after `actions`, with each update's events and the applied action ids; the `seq` of
/// the last action (`start_seq` if none). Fails on the first action the engine refuses.
fn replay(game: &mut Game, start_seq: u32, actions: &[StoredAction]) -> Result<Replayed, String> {
    let mut out = Replayed {
        history: Vec::with_capacity(actions.len()),
        applied: HashMap::new(),
        seq: start_seq,
    };
    for a in actions {
        let events = game
            .apply(a.seat, a.action)
            .map_err(|e| format!("seq {} refused on replay: {e}", a.seq))?;
        out.history.push((a.seq, events));
        out.applied.insert((a.seat, a.action_id.clone()), a.seq);
        out.seq = a.seq;
    }
    Ok(out)
}

struct Replayed {
    history: Vec<(u32, Vec<Event>)>,
    applied: HashMap<(Faction, String), u32>,
    seq: u32,
}

impl Room {
    /// Rebuilds a stored room: its latest game from the seed and the action log.
    pub fn recover(stored: StoredRoom, store: Arc<dyn Store>, config: Arc<Config>) -> Result<Room, RecoveryError> {
        let fail = |reason: String| RecoveryError {
            code: stored.code.clone(),
            reason,
        };
        let last = stored.game.as_ref().ok_or_else(|| fail("no game".into()))?;
        let mut game = new_game(&stored.options, &last.secret).map_err(&fail)?;
        let replayed = replay(&mut game, last.start_seq, &last.actions).map_err(&fail)?;
        let mut current = Match::new(last.game_no, last.creator_faction, game, last.secret, last.start_seq);
        current.history = replayed.history;
        current.applied = replayed.applied;
        current.forfeit_winner = last.result.and_then(|r| r.forfeit_winner);
        current.forfeit_reason = last.result.filter(|r| r.forfeit_winner.is_some()).map(|r| r.reason);
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
        room.seq = replayed.seq;
        room.chat = crate::chat::ChatLog::from_stored(stored.chat);
        room.clock = room.recovered_clock(&actions, now);
        room.away_since = away_since;
        room.computer = computer;
        Ok(room)
    }
}
