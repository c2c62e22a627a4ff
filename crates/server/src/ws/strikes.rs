//! Refused frames (over the rate, too large, not a client message) count as strikes; a connection
//! that keeps sending them is closed. Each refusal is answered, so an honest client that slips
//! learns why, while a flood cannot keep a connection busy forever.

/// Refused messages tolerated before the connection is closed.
pub(super) const MAX_STRIKES: u32 = 100;

/// What to do after a refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AfterStrike {
    /// Answer the refusal and read on.
    Continue,
    /// Answer the refusal and close the connection.
    Close,
}

/// The refusals of one connection.
#[derive(Debug)]
pub(super) struct Strikes {
    count: u32,
    max: u32,
}

impl Strikes {
    pub(super) fn new(max: u32) -> Strikes {
        Strikes { count: 0, max }
    }

    /// Counts one refusal.
    pub(super) fn strike(&mut self) -> AfterStrike {
        self.count = self.count.saturating_add(1);
        if self.count > self.max {
            AfterStrike::Close
        } else {
            AfterStrike::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_connection_closes_only_after_more_than_max_strikes() {
        let mut s = Strikes::new(3);
        assert_eq!([s.strike(), s.strike(), s.strike()], [AfterStrike::Continue; 3]);
        assert_eq!(s.strike(), AfterStrike::Close);
        assert_eq!(s.strike(), AfterStrike::Close, "and stays closing");
    }

    #[test]
    fn no_strikes_allowed_means_the_first_refusal_closes() {
        assert_eq!(Strikes::new(0).strike(), AfterStrike::Close);
    }
}
