//! Card identities on the wire and compact sets of them.
//!
//! On the wire a card is its name (`"Military 3"`, `"Han Solo"`); a card in a known owner's zone is
//! `{"owner": "imperial", "card": "Military 3"}`. Sets are bit masks so that actions stay `Copy`.

use serde::de::Error as _;
use serde::ser::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::catalog::{CARD_NAMES, Card, EventCard, catalog};
use crate::faction::Faction;

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let cat = catalog().map_err(S::Error::custom)?;
        s.serialize_str(&cat.card(*self).name)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        let cat = catalog().map_err(D::Error::custom)?;
        cat.card_by_name(&name)
            .ok_or_else(|| D::Error::custom(format!("unknown card {name:?}")))
    }
}

impl Serialize for EventCard {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let cat = catalog().map_err(S::Error::custom)?;
        s.serialize_str(&cat.event(*self).name)
    }
}

impl<'de> Deserialize<'de> for EventCard {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        let cat = catalog().map_err(D::Error::custom)?;
        cat.event_by_name(&name)
            .ok_or_else(|| D::Error::custom(format!("unknown event {name:?}")))
    }
}

/// A physical resource card: its owner and its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CardRef {
    pub owner: Faction,
    pub card: Card,
}

impl CardRef {
    pub fn new(owner: Faction, card: Card) -> CardRef {
        CardRef { owner, card }
    }

    fn bit(self) -> u64 {
        1u64 << (self.owner.ordinal() * 32 + self.card.index())
    }
}

/// A set of card names (one faction's cards), as a bit mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(type = "Array<string>"))]
pub struct CardMask(u32);

impl CardMask {
    pub const EMPTY: CardMask = CardMask(0);

    pub fn of(cards: impl IntoIterator<Item = Card>) -> CardMask {
        let mut m = CardMask::EMPTY;
        for c in cards {
            m.insert(c);
        }
        m
    }

    pub fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.index()) != 0
    }

    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.index();
    }

    pub fn remove(&mut self, card: Card) {
        self.0 &= !(1 << card.index());
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn intersect(self, other: CardMask) -> CardMask {
        CardMask(self.0 & other.0)
    }

    /// Members in catalog order (never in any order that could reveal a deck's order).
    pub fn iter(self) -> impl Iterator<Item = Card> {
        (0..CARD_NAMES as u8).map(Card).filter(move |c| self.contains(*c))
    }
}

impl Serialize for CardMask {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for CardMask {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let cards = Vec::<Card>::deserialize(d)?;
        let mask = CardMask::of(cards.iter().copied());
        if mask.len() != cards.len() {
            return Err(D::Error::custom("a card is listed twice"));
        }
        Ok(mask)
    }
}

/// A set of physical cards of either owner, as a bit mask (used in answers to choices).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(as = "Vec<CardRef>"))]
pub struct CardSet(u64);

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);

    pub fn one(card: CardRef) -> CardSet {
        CardSet(card.bit())
    }

    pub fn of(cards: impl IntoIterator<Item = CardRef>) -> CardSet {
        let mut s = CardSet::EMPTY;
        for c in cards {
            s.insert(c);
        }
        s
    }

    pub fn insert(&mut self, card: CardRef) {
        self.0 |= card.bit();
    }

    pub fn contains(self, card: CardRef) -> bool {
        self.0 & card.bit() != 0
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Members, Rebel cards first, each owner's in catalog order.
    pub fn iter(self) -> impl Iterator<Item = CardRef> {
        Faction::BOTH.into_iter().flat_map(move |owner| {
            (0..CARD_NAMES as u8)
                .map(move |i| CardRef::new(owner, Card(i)))
                .filter(move |c| self.contains(*c))
        })
    }
}

impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let cards = Vec::<CardRef>::deserialize(d)?;
        if cards.len() > 2 * CARD_NAMES {
            return Err(D::Error::custom("too many cards"));
        }
        let set = CardSet::of(cards.iter().copied());
        if set.len() != cards.len() {
            return Err(D::Error::custom("a card is listed twice"));
        }
        Ok(set)
    }
}
