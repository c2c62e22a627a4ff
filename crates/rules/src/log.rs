//! What happened, per viewer.
//!
//! The engine records an [`Event`] for every step. An event may hold a secret (the card Recon put
//! back, a character shuffled into a deck…); it cannot be serialized. [`Event::project`] gives the
//! [`LogEntry`] a viewer may see: the full entry for its audience, the redacted one for everyone else.

use serde::{Deserialize, Serialize};

use crate::action::EventOrder;
use crate::by_faction::ByFaction;
use crate::cards::{CardMask, CardRef};
use crate::catalog::{Card, EventCard};
use crate::faction::{Audience, Faction, Viewer};
use crate::strategy::Strategy;
use crate::view::{Mode, Outcome, RoundResult};

/// Where a card came from or went to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Zone {
    Deck,
    DeckTop,
    PlayArea,
    DiscardPile,
    Reserve,
}

/// Who chose a strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Chooser {
    /// The strategy's owner.
    Owner,
    /// The opponent, by Infiltration.
    Opponent,
    /// Drawn at random by the server, by Create a Diversion.
    Random,
}

/// Why a deck was shuffled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ShuffleReason {
    Setup,
    Cleanup,
    Power,
}

/// Why the struggle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum StruggleEnd {
    BothPassed,
    ActionLimit,
}

/// A modifier set for the next round's Planning phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Modifier {
    Infiltrated,
    Diversion,
    Located,
}

/// One thing that happened, as one viewer may know it. Fields that are `None` for a viewer are
/// secrets that viewer may not know; they are `None` for everyone outside the audience alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LogEntry {
    GameStarted {
        mode: Mode,
        balance: Option<Faction>,
    },
    CharactersChosen {
        faction: Faction,
        characters: Option<CardMask>,
    },
    DeckShuffled {
        faction: Faction,
        reason: ShuffleReason,
    },
    RoundStarted {
        round: u32,
        event: EventCard,
    },
    StrategyChosen {
        target: Faction,
        chooser: Chooser,
        strategy: Option<Strategy>,
        revealed: bool,
    },
    StruggleStarted {
        first: Faction,
    },
    CardPlayed {
        faction: Faction,
        card: Card,
    },
    /// the discard pile was shuffled and placed beneath the deck.
    DiscardPileUnderDeck {
        faction: Faction,
        cards: u32,
    },
    PowerUsed {
        faction: Faction,
        card: Card,
        banned: bool,
    },
    CardDiscarded {
        card: CardRef,
        from: Zone,
        by: Faction,
    },
    CardExhausted {
        card: CardRef,
        by: Faction,
    },
    CardReadied {
        faction: Faction,
        card: Card,
        influence_left: u32,
    },
    Passed {
        faction: Faction,
    },
    InfluenceGained {
        faction: Faction,
        amount: u32,
        total: u32,
    },
    InfluenceLost {
        faction: Faction,
        amount: u32,
        total: u32,
    },
    /// Someone privately looked at the top `count` cards of a deck.
    DeckLooked {
        by: Faction,
        deck: Faction,
        count: u32,
        cards: Option<CardMask>,
    },
    /// Someone looked through a whole deck (Han Solo, IG-88).
    DeckSearched {
        by: Faction,
        deck: Faction,
    },
    /// A card was put on top of a deck; `card` is known to whoever saw it.
    CardOnTop {
        by: Faction,
        deck: Faction,
        card: Option<Card>,
        from: Zone,
    },
    CardToPlayArea {
        faction: Faction,
        card: Card,
        from: Zone,
    },
    /// `faction`'s character went to its reserve, moved by `by` (Darth Vader moves the opponent's).
    CharacterToReserve {
        faction: Faction,
        card: Option<Card>,
        from: Zone,
        by: Faction,
    },
    ReserveToDeck {
        faction: Faction,
        card: Option<Card>,
    },
    StrategyDiscarded {
        faction: Faction,
        strategy: Strategy,
        by: Faction,
    },
    StrategiesRetrieved {
        faction: Faction,
    },
    NewStrategyChosen {
        faction: Faction,
        strategy: Option<Strategy>,
    },
    StruggleEnded {
        reason: StruggleEnd,
    },
    StrategiesRevealed {
        strategies: ByFaction<Option<Strategy>>,
        totals: ByFaction<u32>,
        eligible: ByFaction<bool>,
    },
    DirectAssault {
        faction: Faction,
        total: u32,
    },
    RoundDecided {
        result: RoundResult,
    },
    EventWon {
        faction: Faction,
        event: EventCard,
        vp: u32,
        influence: u32,
    },
    EventToBottom {
        event: EventCard,
    },
    EventsReordered {
        by: Faction,
        count: u32,
        order: Option<EventOrder>,
    },
    ModifierSet {
        faction: Faction,
        modifier: Modifier,
    },
    BalanceToken {
        faction: Faction,
        moved: bool,
    },
    StrategyUsed {
        faction: Faction,
        strategy: Strategy,
    },
    GameOver {
        outcome: Outcome,
    },
}

/// A recorded step of the game, possibly holding a secret. Not serializable: see [`Event::project`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    full: LogEntry,
    audience: Audience,
    redacted: LogEntry,
}

impl Event {
    /// An event everyone may see in full.
    pub(crate) fn public(entry: LogEntry) -> Event {
        Event {
            full: entry,
            audience: Audience::EVERYONE,
            redacted: entry,
        }
    }

    /// An event whose `full` form only `audience` may see; everyone else sees `redacted`.
    pub(crate) fn secret(audience: Audience, full: LogEntry, redacted: LogEntry) -> Event {
        Event {
            full,
            audience,
            redacted,
        }
    }

    /// The entry `viewer` may see.
    pub fn project(&self, viewer: Viewer) -> LogEntry {
        if self.audience.contains(viewer) {
            self.full
        } else {
            self.redacted
        }
    }

    /// Whether everyone sees the same entry.
    pub fn is_public(&self) -> bool {
        self.full == self.redacted
    }

    /// Test support: replace the secret with another value, as re-randomized hidden state would.
    #[cfg(any(test, evr_testkit))]
    pub(crate) fn replace_full(&mut self, full: LogEntry) {
        self.full = full;
    }

    #[cfg(any(test, evr_testkit))]
    pub(crate) fn full_and_audience(&self) -> (LogEntry, Audience) {
        (self.full, self.audience)
    }
}
