//! Test support (feature `testing`, never in production builds): read the hidden state for
//! assertions, and re-randomize everything one viewer may not know for the non-interference
//! guarantee — a correct view and log projection look exactly the same before and after.

use rand::RngExt;
use rand::seq::SliceRandom;

use super::Game;
use super::pending::Step;
use crate::cards::CardMask;
use crate::catalog::Card;
use crate::faction::{Faction, Viewer};
use crate::rng::GameRng;

impl Game {
    /// A deck, top first.
    pub fn testing_deck(&self, f: Faction) -> Vec<Card> {
        self.p(f).deck.iter().rev().copied().collect()
    }

    /// A discard pile, oldest first.
    pub fn testing_discard(&self, f: Faction) -> Vec<Card> {
        self.p(f).discard.clone()
    }

    pub fn testing_reserve(&self, f: Faction) -> CardMask {
        self.p(f).reserve
    }

    pub fn testing_chosen_strategy(&self, f: Faction) -> Option<crate::strategy::Strategy> {
        self.p(f).chosen
    }

    /// The event deck, top first.
    pub fn testing_event_deck(&self) -> Vec<crate::catalog::EventCard> {
        self.event_deck.iter().rev().copied().collect()
    }

    /// Re-randomizes deck orders, reserves, character choices, unrevealed strategies, the event
    /// deck order, privately seen cards in the log and the future random stream — all except what
    /// `viewer` knows.
    pub fn scramble_hidden_for(&mut self, viewer: Viewer, seed: u64) {
        let mut rng = GameRng::seed_from_u64(seed);
        for f in Faction::BOTH {
            self.scramble_player(f, viewer, &mut rng);
        }
        // The event deck, below what the viewer saw with Balance of the Force.
        let known = viewer.seat().map_or(0, |s| self.events_known[s]);
        let pending_seen = match self.pending {
            Some(p) if Viewer::Seat(p.owner) == viewer => match p.step {
                Step::ReorderEvents { count } => count as usize,
                _ => 0,
            },
            _ => 0,
        };
        let keep = known.max(pending_seen).min(self.event_deck.len());
        let cut = self.event_deck.len() - keep;
        self.event_deck[..cut].shuffle(&mut rng);
        // Secrets in the log that the viewer did not see.
        for e in &mut self.round_log {
            let (full, audience) = e.full_and_audience();
            if !audience.contains(viewer) {
                let redacted = e.project(Viewer::Seat(Faction::Rebel));
                let other = e.project(Viewer::Seat(Faction::Imperial));
                let replacement = if redacted == full { other } else { redacted };
                let _ = full;
                e.replace_full(replacement);
            }
        }
        // The future random stream is known to nobody.
        self.rng = GameRng::seed_from_u64(rng.random());
    }

    fn scramble_player(&mut self, f: Faction, viewer: Viewer, rng: &mut GameRng) {
        let own = viewer == Viewer::Seat(f);
        let pending_by_viewer = self.pending.filter(|p| Viewer::Seat(p.owner) == viewer);
        // How many top cards of this deck the viewer knows, in order.
        let mut fixed_top = usize::from(self.p(f).top_known.contains(viewer));
        let mut contents_known = own;
        if let Some(p) = pending_by_viewer {
            match p.step {
                Step::ReconDiscard { deck, seen } if deck == f => fixed_top = fixed_top.max(seen as usize),
                Step::Ig88Pick { deck } if deck == f => contents_known = true,
                _ => {}
            }
        }
        let p = &mut self.players[f];
        let fixed_top = fixed_top.min(p.deck.len());
        let cut = p.deck.len() - fixed_top;
        // Characters may trade places between the hidden part of the deck and the hidden part of
        // the reserve when the viewer knows neither.
        if !contents_known && !own {
            let hidden_reserve: Vec<Card> = p.reserve.iter().filter(|c| !p.reserve_public.contains(*c)).collect();
            let deck_chars: Vec<usize> = (0..cut).filter(|i| p.deck[*i].is_character()).collect();
            let mut pool: Vec<Card> = hidden_reserve.clone();
            pool.extend(deck_chars.iter().map(|i| p.deck[*i]));
            pool.shuffle(rng);
            let (to_reserve, to_deck) = pool.split_at(hidden_reserve.len());
            for c in &hidden_reserve {
                p.reserve.remove(*c);
            }
            for c in to_reserve {
                p.reserve.insert(*c);
            }
            for (i, c) in deck_chars.iter().zip(to_deck) {
                p.deck[*i] = *c;
            }
        }
        p.deck[..cut].shuffle(rng);
        if !own {
            if let Some(chars) = p.characters {
                let mut all: Vec<Card> = Card::characters_of(f).collect();
                all.shuffle(rng);
                p.characters = Some(CardMask::of(all.into_iter().take(chars.len())));
            }
            if let Some(s) = p.chosen
                && !p.chosen_known.contains(viewer)
            {
                let mut pool: Vec<_> = p.unused.iter().collect();
                pool.push(s);
                pool.shuffle(rng);
                if let Some(new) = pool.first().copied() {
                    p.unused.insert(s);
                    p.unused.remove(new);
                    p.chosen = Some(new);
                }
            }
        }
    }
}
