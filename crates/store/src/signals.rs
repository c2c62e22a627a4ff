//! Signals between the nodes that share a store: "an account's challenges changed, look again".
//!
//! A signal carries no content, only whose it is, so a page that hears one asks the ordinary
//! (signed-in) route for what changed: nothing can be learnt from a signal that the route would not
//! tell. Delivery is best effort and fast: a page also asks when it opens and when it is shown
//! again, so a signal lost with a connection delays news, never loses it.
//!
//! - SQLite (one node): [`LocalSignals`], a broadcast channel in memory.
//! - PostgreSQL (several nodes): `NOTIFY` on the channel [`CHANNEL`] after the change is committed,
//!   and on every node a connection that `LISTEN`s and hands what it hears to its [`LocalSignals`]
//!   (`postgres/signals.rs`). When that connection was lost and is made again, what was said
//!   meanwhile is unknown, so it signals [`Signal::Everyone`].

use tokio::sync::broadcast;

use crate::AccountId;

/// The PostgreSQL channel of the signals.
pub const CHANNEL: &str = "evr_accounts";

/// Signals held for a slow listener before it misses some (then it hears
/// [`broadcast::error::RecvError::Lagged`] and should look again as for [`Signal::Everyone`]).
const CAPACITY: usize = 1024;

/// What changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// Something of this account's challenges.
    Account(AccountId),
    /// Signals may have been missed: every listener looks again.
    Everyone,
}

impl Signal {
    /// Whether a listener for `account` should look again.
    pub fn concerns(&self, account: &AccountId) -> bool {
        match self {
            Signal::Account(a) => a == account,
            Signal::Everyone => true,
        }
    }
}

/// Sending and hearing signals.
pub trait AccountSignals: Send + Sync {
    /// Tells every node (this one included) that `accounts` have news. Never blocks and never
    /// fails the caller: a signal that cannot be sent is logged.
    fn signal(&self, accounts: &[AccountId]);

    /// The signals heard from now on.
    fn subscribe(&self) -> broadcast::Receiver<Signal>;
}

/// The signals of one node, in memory.
#[derive(Debug)]
pub struct LocalSignals {
    sender: broadcast::Sender<Signal>,
}

impl Default for LocalSignals {
    fn default() -> Self {
        LocalSignals {
            sender: broadcast::channel(CAPACITY).0,
        }
    }
}

impl LocalSignals {
    /// Hands `signal` to this node's listeners (none listening is not an error).
    pub fn deliver(&self, signal: Signal) {
        let _ = self.sender.send(signal);
    }
}

impl AccountSignals for LocalSignals {
    fn signal(&self, accounts: &[AccountId]) {
        for account in accounts {
            self.deliver(Signal::Account(*account));
        }
    }

    fn subscribe(&self) -> broadcast::Receiver<Signal> {
        self.sender.subscribe()
    }
}

/// An account id as the PostgreSQL signals carry it (a `NOTIFY` payload is text).
pub fn to_payload(account: &AccountId) -> String {
    account.iter().map(|b| format!("{b:02x}")).collect()
}

/// The account of a payload; `None` for anything else.
pub fn from_payload(payload: &str) -> Option<AccountId> {
    if payload.len() != 32 || !payload.is_ascii() {
        return None;
    }
    let mut id = [0u8; 16];
    for (i, byte) in id.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&payload[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payload_reads_back_as_its_account_and_nothing_else_reads() {
        let id: AccountId = [0, 1, 2, 0xab, 0xff, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0x7f];
        assert_eq!(from_payload(&to_payload(&id)), Some(id));
        for bad in ["", "00", &"g".repeat(32), &"0".repeat(31), &"é".repeat(16)] {
            assert_eq!(from_payload(bad), None, "{bad:?}");
        }
    }

    #[tokio::test]
    async fn local_signals_reach_every_listener_and_say_whose() {
        let signals = LocalSignals::default();
        let (mut a, mut b) = (signals.subscribe(), signals.subscribe());
        let (one, two) = ([1u8; 16], [2u8; 16]);
        signals.signal(&[one]);
        signals.deliver(Signal::Everyone);
        for rx in [&mut a, &mut b] {
            let first = rx.recv().await.expect("a signal");
            assert!(first.concerns(&one) && !first.concerns(&two));
            assert!(rx.recv().await.expect("a signal").concerns(&two));
        }
    }
}
