//! How fast one connection may chat: a burst of a few messages, then one every couple of seconds
//! (a token bucket). Every message costs, refused or not: a connection cannot flood the room with
//! messages it knows will be refused.

use std::time::{Duration, Instant};

/// Messages a connection may send at once.
const BURST: f64 = 5.0;
/// One more message allowed per this long.
const REFILL: Duration = Duration::from_secs(2);

#[derive(Clone, Copy, Debug)]
pub struct Allowance {
    tokens: f64,
    at: Instant,
}

impl Allowance {
    pub fn new(now: Instant) -> Allowance {
        Allowance { tokens: BURST, at: now }
    }

    /// Takes one message's allowance at `now`; `false` when there is none left.
    pub fn take(&mut self, now: Instant) -> bool {
        let earned = now.saturating_duration_since(self.at).as_secs_f64() / REFILL.as_secs_f64();
        self.tokens = (self.tokens + earned).min(BURST);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_one_per_refill() {
        let t0 = Instant::now();
        let mut a = Allowance::new(t0);
        for i in 0..5 {
            assert!(a.take(t0), "message {i} of the burst");
        }
        assert!(!a.take(t0), "the sixth at once is refused");
        assert!(!a.take(t0 + REFILL / 2));
        assert!(a.take(t0 + REFILL + REFILL / 2), "one more after a refill");
        assert!(!a.take(t0 + REFILL + REFILL / 2));
        let much_later = t0 + REFILL * 100;
        for _ in 0..5 {
            assert!(a.take(much_later));
        }
        assert!(!a.take(much_later), "never more than the burst");
    }
}
