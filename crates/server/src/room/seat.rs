//! The two seats of a room — the creator's and the guest's (who joined with the invite link) —
//! and values kept per seat. A seat keeps its person across rematches while its faction swaps, so
//! seat-indexed pairs ([`BySeat`]) and faction-indexed pairs (`evr_rules::ByFaction`) are
//! different types: one cannot be read with the other's index.

use std::ops::{Index, IndexMut};

/// A seat of the room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Seat {
    Creator,
    Guest,
}

impl Seat {
    pub(super) const BOTH: [Seat; 2] = [Seat::Creator, Seat::Guest];

    pub(super) fn other(self) -> Seat {
        match self {
            Seat::Creator => Seat::Guest,
            Seat::Guest => Seat::Creator,
        }
    }
}

/// One `T` per seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct BySeat<T> {
    pub(super) creator: T,
    pub(super) guest: T,
}

impl<T> BySeat<T> {
    pub(super) const fn new(creator: T, guest: T) -> BySeat<T> {
        BySeat { creator, guest }
    }

    /// Whether `f` holds for both seats.
    pub(super) fn all(&self, mut f: impl FnMut(&T) -> bool) -> bool {
        f(&self.creator) && f(&self.guest)
    }
}

impl<T> Index<Seat> for BySeat<T> {
    type Output = T;

    fn index(&self, seat: Seat) -> &T {
        match seat {
            Seat::Creator => &self.creator,
            Seat::Guest => &self.guest,
        }
    }
}

impl<T> IndexMut<Seat> for BySeat<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        match seat {
            Seat::Creator => &mut self.creator,
            Seat::Guest => &mut self.guest,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_seat_reads_and_writes_its_own_half() {
        let mut asked = BySeat::new(false, false);
        asked[Seat::Guest] = true;
        assert_eq!(asked, BySeat::new(false, true));
        assert!(!asked.all(|a| *a));
        asked[Seat::Creator] = true;
        assert!(asked.all(|a| *a));
        assert_eq!(Seat::Creator.other(), Seat::Guest);
        assert_eq!(Seat::BOTH.map(Seat::other), [Seat::Guest, Seat::Creator]);
    }
}
