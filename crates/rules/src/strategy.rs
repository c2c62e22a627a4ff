//! Strategy cards and sets of them.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The five strategy cards each faction owns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    Deception,
    DirectAssault,
    Infiltration,
    Bureaucracy,
    Support,
}

impl Strategy {
    pub const ALL: [Strategy; 5] = [
        Strategy::Deception,
        Strategy::DirectAssault,
        Strategy::Infiltration,
        Strategy::Bureaucracy,
        Strategy::Support,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Strategy::Deception => "Deception",
            Strategy::DirectAssault => "Direct Assault",
            Strategy::Infiltration => "Infiltration",
            Strategy::Bureaucracy => "Bureaucracy",
            Strategy::Support => "Support",
        }
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of strategy cards, as a bit mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(as = "Vec<Strategy>"))]
pub struct StrategySet(u8);

impl StrategySet {
    pub const EMPTY: StrategySet = StrategySet(0);
    pub const ALL: StrategySet = StrategySet(0b11111);

    pub fn of(items: impl IntoIterator<Item = Strategy>) -> StrategySet {
        let mut s = StrategySet::EMPTY;
        for i in items {
            s.insert(i);
        }
        s
    }

    pub fn contains(self, s: Strategy) -> bool {
        self.0 & s.bit() != 0
    }

    pub fn insert(&mut self, s: Strategy) {
        self.0 |= s.bit();
    }

    pub fn remove(&mut self, s: Strategy) {
        self.0 &= !s.bit();
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn is_disjoint(self, other: StrategySet) -> bool {
        self.0 & other.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = Strategy> {
        Strategy::ALL.into_iter().filter(move |s| self.contains(*s))
    }

    /// The `n`-th member in card order (used to draw one uniformly at random).
    pub fn nth(self, n: usize) -> Option<Strategy> {
        self.iter().nth(n)
    }
}

impl Serialize for StrategySet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for StrategySet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let items = Vec::<Strategy>::deserialize(d)?;
        let set = StrategySet::of(items.iter().copied());
        if set.len() != items.len() {
            return Err(D::Error::custom("a strategy is listed twice"));
        }
        Ok(set)
    }
}
