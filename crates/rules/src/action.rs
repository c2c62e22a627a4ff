//! What a player can do: the actions of every phase and the answers to pending choices.
//!
//! This is also the wire form (`{"type": "use_power", "card": "Han Solo"}`): actions are client
//! input, so they are plain data, `Copy`, and validated by [`crate::Game::apply`].

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::cards::{CardMask, CardRef, CardSet};
use crate::catalog::{Card, EventCard};
use crate::faction::Faction;
use crate::strategy::Strategy;

/// One player's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// the 4 characters that go into the deck; the other 4 form the reserve.
    ChooseCharacters { characters: CardMask },
    /// choose `target`'s strategy for this round (your own, or the opponent's when
    /// you infiltrated them).
    ChooseStrategy { target: Faction, strategy: Strategy },
    /// the top card of your deck enters your play area, ready.
    PlayCard,
    /// exhaust one of your ready cards and resolve its power.
    UsePower { card: Card },
    /// pay 1 influence to ready one of your exhausted cards.
    SpendInfluence { card: Card },
    ///
    Pass,
    /// answer the pending choice you own with one of its options.
    Answer { choice: Choice },
}

/// Where Leia Organa puts a character from the reserve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Destination {
    PlayArea,
    Deck,
}

/// An answer to a pending choice. The pending choice lists every allowed answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Choice {
    /// A set of cards (possibly empty where the power says "up to", "any number" or "may").
    Cards { cards: CardSet },
    /// Whose deck Recon or IG-88 looks at.
    Deck { owner: Faction },
    /// IG-88: the card to discard and the card to put on top.
    DiscardAndTop { discard: CardRef, top: CardRef },
    /// Leia Organa: a reserve character and where it goes.
    Character { card: Card, to: Destination },
    /// A strategy card (R2-D2 and C-3PO, Emperor Palpatine, Display of Power).
    Strategy { strategy: Strategy },
    /// Balance of the Force: the new order of the top events, top first.
    EventOrder { events: EventOrder },
    /// Jabba the Hutt: whether to play the card seen on top of the deck.
    Play { play: bool },
}

impl Choice {
    /// The choice of no card at all.
    pub const NO_CARDS: Choice = Choice::Cards { cards: CardSet::EMPTY };

    pub fn card(card: CardRef) -> Choice {
        Choice::Cards {
            cards: CardSet::one(card),
        }
    }
}

/// Up to three events in order, top first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(type = "Array<string>"))]
pub struct EventOrder {
    events: [Option<EventCard>; 3],
}

impl EventOrder {
    pub fn new(events: &[EventCard]) -> Option<EventOrder> {
        if events.len() > 3 {
            return None;
        }
        let mut order = EventOrder::default();
        for (slot, e) in order.events.iter_mut().zip(events) {
            *slot = Some(*e);
        }
        Some(order)
    }

    pub fn iter(&self) -> impl Iterator<Item = EventCard> + '_ {
        self.events.iter().flatten().copied()
    }

    pub fn len(&self) -> usize {
        self.iter().count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Serialize for EventOrder {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for EventOrder {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let events = Vec::<EventCard>::deserialize(d)?;
        EventOrder::new(&events).ok_or_else(|| D::Error::custom("at most three events"))
    }
}
