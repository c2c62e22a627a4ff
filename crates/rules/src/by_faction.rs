//! `ByFaction<T>`: one value per side, indexed by [`Faction`] (as shakmaty's `ByColor<T>`).
//!
//! A pair indexed by the type of its index cannot be read with the wrong kind of index (a room's
//! creator/guest, a loop counter), and it names its halves: `totals.rebel`, `totals[winner]`. On the
//! wire it stays what the protocol has always sent, a two-element array `[rebel, imperial]`.
//!
//! ```
//! use evr_rules::{ByFaction, Faction};
//!
//! let mut vp = ByFaction::new(3, 5);
//! vp[Faction::Rebel] += 1;
//! assert_eq!(vp.rebel, 4);
//! assert_eq!(vp, [4, 5]); // compared with its wire form
//! assert_eq!(serde_json::to_string(&vp).unwrap(), "[4,5]");
//! assert_eq!(vp.map(|v| v * 2), ByFaction::new(8, 10));
//! ```

use std::ops::{Index, IndexMut};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::faction::Faction;

/// One `T` per faction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByFaction<T> {
    pub rebel: T,
    pub imperial: T,
}

impl<T> ByFaction<T> {
    pub const fn new(rebel: T, imperial: T) -> ByFaction<T> {
        ByFaction { rebel, imperial }
    }

    /// The value of each faction, computed by `f`, Rebel first.
    pub fn from_fn(mut f: impl FnMut(Faction) -> T) -> ByFaction<T> {
        let rebel = f(Faction::Rebel);
        ByFaction {
            rebel,
            imperial: f(Faction::Imperial),
        }
    }

    /// The same value for both factions.
    pub fn splat(value: T) -> ByFaction<T>
    where
        T: Clone,
    {
        ByFaction {
            rebel: value.clone(),
            imperial: value,
        }
    }

    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByFaction<U> {
        let rebel = f(self.rebel);
        ByFaction {
            rebel,
            imperial: f(self.imperial),
        }
    }

    /// Like [`ByFaction::map`], with the faction of each value.
    pub fn map_with_faction<U>(self, mut f: impl FnMut(Faction, T) -> U) -> ByFaction<U> {
        let rebel = f(Faction::Rebel, self.rebel);
        ByFaction {
            rebel,
            imperial: f(Faction::Imperial, self.imperial),
        }
    }

    pub fn as_ref(&self) -> ByFaction<&T> {
        ByFaction {
            rebel: &self.rebel,
            imperial: &self.imperial,
        }
    }

    pub fn as_mut(&mut self) -> ByFaction<&mut T> {
        ByFaction {
            rebel: &mut self.rebel,
            imperial: &mut self.imperial,
        }
    }

    /// `(faction, value)`, Rebel first.
    pub fn iter(&self) -> impl Iterator<Item = (Faction, &T)> {
        [(Faction::Rebel, &self.rebel), (Faction::Imperial, &self.imperial)].into_iter()
    }

    /// The values, Rebel first.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        [&self.rebel, &self.imperial].into_iter()
    }

    /// The values, Rebel first, as an array.
    pub fn into_array(self) -> [T; 2] {
        [self.rebel, self.imperial]
    }
}

impl<T> Index<Faction> for ByFaction<T> {
    type Output = T;

    fn index(&self, f: Faction) -> &T {
        match f {
            Faction::Rebel => &self.rebel,
            Faction::Imperial => &self.imperial,
        }
    }
}

impl<T> IndexMut<Faction> for ByFaction<T> {
    fn index_mut(&mut self, f: Faction) -> &mut T {
        match f {
            Faction::Rebel => &mut self.rebel,
            Faction::Imperial => &mut self.imperial,
        }
    }
}

impl<T> From<[T; 2]> for ByFaction<T> {
    fn from([rebel, imperial]: [T; 2]) -> ByFaction<T> {
        ByFaction { rebel, imperial }
    }
}

/// Compares with the wire form `[rebel, imperial]`, so a test can write `assert_eq!(vp, [3, 5])`.
impl<T: PartialEq> PartialEq<[T; 2]> for ByFaction<T> {
    fn eq(&self, [rebel, imperial]: &[T; 2]) -> bool {
        self.rebel == *rebel && self.imperial == *imperial
    }
}

/// The wire form: `[rebel, imperial]`.
impl<T: Serialize> Serialize for ByFaction<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (&self.rebel, &self.imperial).serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ByFaction<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ByFaction<T>, D::Error> {
        let (rebel, imperial) = <(T, T)>::deserialize(d)?;
        Ok(ByFaction { rebel, imperial })
    }
}

/// TypeScript sees exactly the wire form, a pair `[T, T]`.
#[cfg(feature = "ts")]
impl<T: ts_rs::TS> ts_rs::TS for ByFaction<T> {
    type WithoutGenerics = [ts_rs::Dummy; 2];
    type OptionInnerType = Self;

    fn name(cfg: &ts_rs::Config) -> String {
        <[T; 2] as ts_rs::TS>::name(cfg)
    }

    fn inline(cfg: &ts_rs::Config) -> String {
        <[T; 2] as ts_rs::TS>::inline(cfg)
    }

    fn visit_dependencies(v: &mut impl ts_rs::TypeVisitor)
    where
        Self: 'static,
    {
        <[T; 2] as ts_rs::TS>::visit_dependencies(v);
    }

    fn visit_generics(v: &mut impl ts_rs::TypeVisitor)
    where
        Self: 'static,
    {
        <[T; 2] as ts_rs::TS>::visit_generics(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wire_form_is_a_rebel_first_pair_both_ways() {
        let pair = ByFaction::new(Some(1u32), None);
        let json = serde_json::to_string(&pair).unwrap();
        assert_eq!(json, "[1,null]");
        assert_eq!(serde_json::from_str::<ByFaction<Option<u32>>>(&json).unwrap(), pair);
        assert!(serde_json::from_str::<ByFaction<u32>>("[1]").is_err());
        assert!(serde_json::from_str::<ByFaction<u32>>("[1,2,3]").is_err());
    }

    #[test]
    fn indexing_by_faction_reaches_the_named_half() {
        let mut p = ByFaction::from_fn(|f| f == Faction::Imperial);
        assert!(!p[Faction::Rebel] && p[Faction::Imperial]);
        p[Faction::Rebel] = true;
        assert!(p.rebel);
        let listed: Vec<(Faction, bool)> = p.iter().map(|(f, v)| (f, *v)).collect();
        assert_eq!(listed, vec![(Faction::Rebel, true), (Faction::Imperial, true)]);
    }
}
