//! Shared by the property and non-interference suites: where random games come from (full games,
//! the tutorial, random explicit setups with modifiers and effect events on top) and random cards.
#![allow(dead_code)]

use evr_rules::{
    Card, CardRef, EventCard, Faction, Game, Mode, Setup, SideSetup, Start, Strategy, StrategySet, catalog,
};
use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Full,
    Tutorial,
    /// A random explicit setup starting at Planning, with effect events on top and modifiers.
    Setup,
}

pub fn event_named(name: &str) -> EventCard {
    catalog().unwrap().event_by_name(name).unwrap()
}

/// Events whose effects need choices or set modifiers: put on top of random setups.
const EFFECT_EVENTS: [&str; 11] = [
    "Balance of the Force",
    "Create a Diversion",
    "Display of Power",
    "Fall of a Hero",
    "Negotiate with the Hutts",
    "Locate the Rebel Base",
    "Occupation of Cloud City",
    "Rebel Uprising",
    "Ultimate Power in the Universe",
    "Acquire the Death Star Plans",
    "Duel on Cloud City",
];

pub fn random_setup(seed: u64) -> Setup {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xA5A5_5A5A);
    let mut top: Vec<EventCard> = EFFECT_EVENTS.iter().map(|n| event_named(n)).collect();
    top.shuffle(&mut rng);
    top.truncate(rng.random_range(0..=6));
    // Which side is located, if any: each of the three with the same chance.
    let located = [Some(Faction::Rebel), Some(Faction::Imperial), None][rng.random_range(0..3usize)];
    let side = |rng: &mut ChaCha8Rng, f: Faction| {
        let used = if rng.random_bool(0.5) {
            let mut s: Vec<Strategy> = Strategy::ALL.to_vec();
            s.shuffle(rng);
            Some(StrategySet::of(s.into_iter().take(rng.random_range(0..=4))))
        } else {
            None
        };
        SideSetup {
            influence: Some(rng.random_range(0..6)),
            used_strategies: used,
            vp: Some(rng.random_range(0..=5)),
            infiltrated: rng.random_bool(0.3),
            diversion: rng.random_bool(0.3),
            located: located == Some(f),
            ..SideSetup::default()
        }
    };
    Setup {
        mode: Mode::Full,
        seed,
        start: Start::Planning,
        round: Some(rng.random_range(1..5)),
        event_deck: top,
        balance: None,
        rebel: side(&mut rng, Faction::Rebel),
        imperial: side(&mut rng, Faction::Imperial),
    }
}

/// The game of `kind` and `seed`; `None` when a random setup happens to be invalid.
pub fn new_game(kind: Kind, seed: u64) -> Option<Game> {
    match kind {
        Kind::Full => Some(Game::new(Mode::Full, seed).unwrap()),
        Kind::Tutorial => Some(Game::new(Mode::Tutorial, seed).unwrap()),
        Kind::Setup => Game::from_setup(&random_setup(seed)).ok(),
    }
}

pub fn all_cards() -> Vec<Card> {
    Card::basics()
        .chain(Card::characters_of(Faction::Rebel))
        .chain(Card::characters_of(Faction::Imperial))
        .collect()
}

pub fn any_faction(rng: &mut ChaCha8Rng) -> Faction {
    Faction::BOTH[rng.random_range(0..2usize)]
}

pub fn any_card(rng: &mut ChaCha8Rng) -> Card {
    let all = all_cards();
    all[rng.random_range(0..all.len())]
}

pub fn any_ref(rng: &mut ChaCha8Rng) -> CardRef {
    CardRef::new(any_faction(rng), any_card(rng))
}

/// A seat that may act now, drawn among `seats_to_act()`, so simultaneous phases interleave both
/// ways.
pub fn pick_seat(g: &Game, rng: &mut ChaCha8Rng) -> Faction {
    let seats = g.seats_to_act();
    assert!(!seats.is_empty(), "nobody can act in a game that is not over");
    seats[rng.random_range(0..seats.len())]
}
