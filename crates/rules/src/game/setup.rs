//! Building a game: the standard setup or an explicit one for scripted scenarios
//! (start at character choice, at the tutorial, or at the Planning phase of any round).

use rand::RngExt;
use rand::seq::SliceRandom;
use serde::Deserialize;

use super::{Game, Phase, Player};
use crate::by_faction::ByFaction;
use crate::cards::CardMask;
use crate::catalog::{Card, EventCard, catalog};
use crate::faction::{Audience, Faction};
use crate::log::{Chooser, LogEntry};
use crate::seed::GameSeed;
use crate::strategy::StrategySet;
use crate::view::{Mode, Modifiers};

/// Where a scripted game starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Start {
    /// both players still have to choose their characters.
    #[default]
    CharacterChoice,
    /// The start of a round's Planning phase, with all resource cards but the reserve in the deck.
    Planning,
}

/// An explicit setup. Everything not given is drawn from `seed`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Setup {
    pub mode: Mode,
    pub seed: u64,
    /// Ignored in tutorial mode (which starts at its struggle).
    pub start: Start,
    /// The round that starts (Planning start only); default 1.
    pub round: Option<u32>,
    /// Top of the event deck, top first. The other events not won lie beneath, shuffled.
    pub event_deck: Vec<EventCard>,
    pub balance: Option<Faction>,
    pub rebel: SideSetup,
    pub imperial: SideSetup,
}

/// One player's part of an explicit setup.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SideSetup {
    /// Top of the resource deck, top first; the rest of the deck lies beneath, shuffled.
    pub deck: Vec<Card>,
    /// Characters in the deck (the rest are in the reserve). Planning start only.
    pub characters: Option<CardMask>,
    /// Characters in the reserve (the rest are in the deck). Planning start only.
    pub reserve: Option<CardMask>,
    /// Default 2.
    pub influence: Option<u32>,
    pub unused_strategies: Option<StrategySet>,
    pub used_strategies: Option<StrategySet>,
    pub won_events: Vec<EventCard>,
    /// VP to start with when `won_events` is not given: events worth that much are taken as won.
    pub vp: Option<u32>,
    pub infiltrated: bool,
    pub diversion: bool,
    pub located: bool,
}

/// An explicit setup that does not describe a game position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error(transparent)]
    Data(#[from] crate::catalog::DataError),
    #[error("{0}")]
    Invalid(String),
}

fn invalid<T>(msg: impl Into<String>) -> Result<T, SetupError> {
    Err(SetupError::Invalid(msg.into()))
}

impl Game {
    /// A game from an explicit setup.
    pub fn from_setup(setup: &Setup) -> Result<Game, SetupError> {
        Game::from_setup_seeded(setup, GameSeed::Legacy(setup.seed))
    }

    /// A game from an explicit setup whose randomness comes from `seed` (`setup.seed` unused).
    pub(crate) fn from_setup_seeded(setup: &Setup, seed: GameSeed) -> Result<Game, SetupError> {
        let cat = catalog()?;
        let mut g = Game {
            cat,
            rng: seed.rng(),
            mode: setup.mode,
            phase: Phase::CharacterChoice,
            round: 0,
            players: ByFaction::from_fn(Player::new),
            event_deck: Vec::with_capacity(24),
            events_known: ByFaction::splat(0),
            event: None,
            balance: None,
            turn: Faction::Rebel,
            last_was_pass: false,
            struggle_actions: 0,
            pending: None,
            choosers: ByFaction::splat(Chooser::Owner),
            dominance_step: super::DominanceStep::Support(0),
            results: Vec::new(),
            outcome: None,
            round_log: Vec::new(),
            out: Vec::new(),
        };
        match setup.mode {
            Mode::Tutorial => g.setup_tutorial(setup)?,
            Mode::Full => g.setup_full(setup)?,
        }
        g.out.clear();
        Ok(g)
    }

    /// Escape From Tatooine, 16 basic cards each, Rebel first, no influence or token.
    fn setup_tutorial(&mut self, setup: &Setup) -> Result<(), SetupError> {
        for (f, side) in [(Faction::Rebel, &setup.rebel), (Faction::Imperial, &setup.imperial)] {
            if side.characters.is_some()
                || side.reserve.is_some()
                || !side.won_events.is_empty()
                || side.vp.is_some()
                || side.influence.is_some_and(|i| i > 0)
                || side.unused_strategies.is_some()
                || side.used_strategies.is_some()
            {
                return invalid("the tutorial has no characters, reserve, influence, strategies or won events");
            }
            self.build_setup_deck(f, CardMask::of(Card::basics()), &side.deck)?;
            self.pm(f).unused = StrategySet::EMPTY;
        }
        self.event = Some(self.cat.tutorial_event());
        self.round = 1;
        self.emit(LogEntry::GameStarted {
            mode: Mode::Tutorial,
            balance: None,
        });
        self.emit(LogEntry::RoundStarted {
            round: 1,
            event: self.cat.tutorial_event(),
        });
        self.start_struggle();
        Ok(())
    }

    fn setup_full(&mut self, setup: &Setup) -> Result<(), SetupError> {
        // Won events first: they leave the event deck.
        let mut won: ByFaction<Vec<EventCard>> = ByFaction::default();
        for (f, side) in [(Faction::Rebel, &setup.rebel), (Faction::Imperial, &setup.imperial)] {
            won[f] = side.won_events.clone();
        }
        let taken = |won: &ByFaction<Vec<EventCard>>, e: EventCard| {
            won.values().flatten().any(|w| *w == e) || setup.event_deck.contains(&e)
        };
        for (f, side) in [(Faction::Rebel, &setup.rebel), (Faction::Imperial, &setup.imperial)] {
            if let (Some(vp), true) = (side.vp, side.won_events.is_empty()) {
                won[f] = self.events_worth(vp, |e| taken(&won, e))?;
            }
        }
        let all_won: Vec<EventCard> = won.values().flatten().copied().collect();
        for (i, e) in all_won.iter().enumerate() {
            if all_won[..i].contains(e) || setup.event_deck.contains(e) {
                return invalid(format!("event {} is listed twice", self.cat.event(*e).name));
            }
        }
        for (i, e) in setup.event_deck.iter().enumerate() {
            if setup.event_deck[..i].contains(e) {
                return invalid(format!("event {} is listed twice", self.cat.event(*e).name));
            }
        }
        // the event deck; listed events on top in order, the rest shuffled beneath.
        let mut rest: Vec<EventCard> = EventCard::all()
            .filter(|e| !setup.event_deck.contains(e) && !all_won.contains(e))
            .collect();
        rest.shuffle(&mut self.rng);
        self.event_deck = rest;
        self.event_deck.extend(setup.event_deck.iter().rev());
        //
        let random_side = if self.rng.random_range(0..2u8) == 0 {
            Faction::Rebel
        } else {
            Faction::Imperial
        };
        self.balance = Some(setup.balance.unwrap_or(random_side));

        for (f, side) in [(Faction::Rebel, &setup.rebel), (Faction::Imperial, &setup.imperial)] {
            let unused = side.unused_strategies;
            let used = side.used_strategies;
            let (unused, used) = match (unused, used) {
                (Some(u), Some(d)) => (u, d),
                (Some(u), None) => (u, complement(u)),
                (None, Some(d)) => (complement(d), d),
                (None, None) => (StrategySet::ALL, StrategySet::EMPTY),
            };
            if !unused.is_disjoint(used) || unused.len() + used.len() != 5 || unused.is_empty() {
                return invalid(format!(
                    "{}: unused and used strategies must split the five, with at least one unused",
                    f.name()
                ));
            }
            let p = self.pm(f);
            p.unused = unused;
            p.used = used;
            p.influence = side.influence.unwrap_or(2);
            p.won = won[f].clone();
            p.next_modifiers = Modifiers {
                infiltrated: side.infiltrated,
                diversion: side.diversion,
                located: side.located,
            };
        }
        if Faction::BOTH
            .iter()
            .filter(|f| self.p(**f).next_modifiers.located)
            .count()
            > 1
        {
            return invalid("only one player can be located");
        }
        if let Some(w) = Faction::BOTH.into_iter().find(|f| self.vp(*f) >= super::VP_TO_WIN) {
            return invalid(format!("{} already has 7 VP", w.name()));
        }
        self.emit(LogEntry::GameStarted {
            mode: Mode::Full,
            balance: self.balance,
        });

        match setup.start {
            Start::CharacterChoice => {
                for (f, side) in [(Faction::Rebel, &setup.rebel), (Faction::Imperial, &setup.imperial)] {
                    if side.characters.is_some() || side.reserve.is_some() || !side.deck.is_empty() {
                        return invalid(format!(
                            "{}: characters, reserve and deck order need \"start\": \"planning\"",
                            f.name()
                        ));
                    }
                }
                if setup.round.is_some() {
                    return invalid("\"round\" needs \"start\": \"planning\"");
                }
                self.phase = Phase::CharacterChoice;
                Ok(())
            }
            Start::Planning => {
                for (f, side) in [(Faction::Rebel, &setup.rebel), (Faction::Imperial, &setup.imperial)] {
                    let all_chars = CardMask::of(Card::characters_of(f));
                    let mut pick: Vec<Card> = Card::characters_of(f).collect();
                    pick.shuffle(&mut self.rng);
                    let random_reserve = CardMask::of(pick.into_iter().take(4));
                    let reserve = match (side.reserve, side.characters) {
                        (Some(r), None) => r,
                        (None, Some(c)) => CardMask::of(all_chars.iter().filter(|x| !c.contains(*x))),
                        (None, None) => random_reserve,
                        (Some(_), Some(_)) => {
                            return invalid(format!("{}: give either characters or reserve", f.name()));
                        }
                    };
                    if reserve.iter().any(|c| !all_chars.contains(c)) {
                        return invalid(format!("{}: the reserve holds only that side's characters", f.name()));
                    }
                    let in_deck = CardMask::of(Card::all_of(f).filter(|c| !reserve.contains(*c)));
                    self.build_setup_deck(f, in_deck, &side.deck)?;
                    let p = self.pm(f);
                    p.reserve = reserve;
                    p.characters = Some(CardMask::of(all_chars.iter().filter(|c| !reserve.contains(*c))));
                }
                self.round = setup.round.unwrap_or(1).max(1) - 1;
                self.start_round();
                Ok(())
            }
        }
    }

    /// `f`'s deck holds exactly `cards`: `top` first (top first), the rest shuffled beneath.
    fn build_setup_deck(&mut self, f: Faction, cards: CardMask, top: &[Card]) -> Result<(), SetupError> {
        let listed = CardMask::of(top.iter().copied());
        if listed.len() != top.len() {
            return invalid(format!("{}: a card is listed twice in the deck", f.name()));
        }
        if let Some(c) = top.iter().find(|c| !cards.contains(**c)) {
            return invalid(format!(
                "{}: {} cannot be in the deck",
                f.name(),
                self.cat.card(*c).name
            ));
        }
        let mut rest: Vec<Card> = cards.iter().filter(|c| !listed.contains(*c)).collect();
        rest.shuffle(&mut self.rng);
        let p = self.pm(f);
        p.deck = rest;
        p.deck.extend(top.iter().rev());
        p.top_known = Audience::NOBODY;
        Ok(())
    }

    /// Events worth exactly `vp`, largest first, among those `taken` does not exclude.
    fn events_worth(&self, vp: u32, taken: impl Fn(EventCard) -> bool) -> Result<Vec<EventCard>, SetupError> {
        let mut free: Vec<EventCard> = EventCard::all().filter(|e| !taken(*e)).collect();
        free.sort_by_key(|e| std::cmp::Reverse(self.cat.event(*e).vp));
        let mut left = vp;
        let mut out = Vec::new();
        for e in free {
            let v = self.cat.event(e).vp;
            if v <= left {
                left -= v;
                out.push(e);
            }
        }
        if left > 0 {
            return invalid(format!("no free events are worth exactly {vp} VP"));
        }
        Ok(out)
    }
}

fn complement(s: StrategySet) -> StrategySet {
    StrategySet::of(crate::strategy::Strategy::ALL.into_iter().filter(|x| !s.contains(*x)))
}
