//! A game of the room and who plays which side of it: the creator and the guest keep their seats
//! across rematches while their factions swap.

use std::collections::VecDeque;

use evr_protocol::ForfeitReason;
use evr_rules::{Action, ByFaction, Event, Faction, Game, Mode};

use super::seat::{BySeat, Seat};
use crate::fairness::GameSecret;

/// A game of the room: game 1, then one per rematch.
pub(super) struct Match {
    pub(super) game_no: u32,
    pub(super) creator_faction: Faction,
    pub(super) game: Game,
    /// Its secret randomness (key and commitment salt), told to everyone once the game is over.
    pub(super) secret: GameSecret,
    /// The update `seq` this game started at.
    pub(super) start_seq: u32,
    /// Every accepted move of this game, oldest first. The game's log (for a welcome) is rebuilt
    /// from them on demand rather than kept: a whole game's events are tens of KiB per room, its
    /// moves a few hundred bytes, and replaying them takes well under a millisecond.
    pub(super) moves: Vec<Move>,
    /// Each side's latest applied action ids, with the update `seq` each produced (idempotency).
    pub(super) applied: ByFaction<RecentIds>,
    /// A win outside the rules: claimed because the opponent stayed away, or on time.
    pub(super) forfeit_winner: Option<Faction>,
    /// Why `forfeit_winner` won.
    pub(super) forfeit_reason: Option<ForfeitReason>,
    /// Which seats asked for a rematch of this (finished) game.
    pub(super) rematch: BySeat<bool>,
    /// Which players agreed to reveal this finished game in its replay (stored).
    pub(super) reveal: ByFaction<bool>,
}

impl Match {
    /// Game `game_no`, starting at update `start_seq`, before any action.
    pub(super) fn new(game_no: u32, creator_faction: Faction, game: Game, secret: GameSecret, start_seq: u32) -> Match {
        Match {
            game_no,
            creator_faction,
            game,
            secret,
            start_seq,
            moves: Vec::new(),
            applied: ByFaction::default(),
            forfeit_winner: None,
            forfeit_reason: None,
            rematch: BySeat::default(),
            reveal: ByFaction::splat(false),
        }
    }

    pub(super) fn faction_of(&self, seat: Seat) -> Faction {
        match seat {
            Seat::Creator => self.creator_faction,
            Seat::Guest => self.creator_faction.opponent(),
        }
    }

    pub(super) fn seat_of(&self, f: Faction) -> Seat {
        if f == self.creator_faction {
            Seat::Creator
        } else {
            Seat::Guest
        }
    }

    /// The game's log so far: the events of its setup (`seq` = the game's start) and of each move,
    /// replayed from the start. `mode` is the room's (with the secret it makes this very game).
    pub(super) fn log(&self, mode: Mode) -> Result<Vec<(u32, Vec<Event>)>, String> {
        let mut game = Game::with_seed(mode, self.secret.game_seed()).map_err(|e| e.to_string())?;
        let mut log = Vec::with_capacity(self.moves.len() + 1);
        log.push((self.start_seq, game.round_log().to_vec()));
        for m in &self.moves {
            let events = game
                .apply(m.seat, m.action)
                .map_err(|e| format!("move {} refused on replay: {e}", m.seq))?;
            log.push((m.seq, events));
        }
        Ok(log)
    }

    /// Records an accepted move and its action id.
    pub(super) fn record(&mut self, seq: u32, seat: Faction, action: Action, action_id: String) {
        self.moves.push(Move { seq, seat, action });
        self.applied[seat].insert(action_id, seq);
    }

    pub(super) fn is_over(&self) -> bool {
        self.game.is_over() || self.forfeit_reason.is_some()
    }
}

/// One accepted move.
#[derive(Clone, Copy, Debug)]
pub(super) struct Move {
    pub(super) seq: u32,
    pub(super) seat: Faction,
    pub(super) action: Action,
}

/// A side's latest action ids. A client resends an action only when its acknowledgement was lost
/// (it has one action in flight at a time), so the last few are all that can come back.
#[derive(Clone, Debug, Default)]
pub(super) struct RecentIds {
    ids: VecDeque<(String, u32)>,
}

impl RecentIds {
    /// How many are kept per side.
    const KEPT: usize = 8;

    pub(super) fn get(&self, action_id: &str) -> Option<u32> {
        self.ids.iter().find(|(id, _)| id == action_id).map(|(_, seq)| *seq)
    }

    fn insert(&mut self, action_id: String, seq: u32) {
        if self.ids.len() == Self::KEPT {
            self.ids.pop_front();
        }
        self.ids.push_back((action_id, seq));
    }
}
