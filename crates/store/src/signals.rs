//! Signals between the nodes that share a store: "an account's challenges (or friends) changed, look
//! again".
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

/// What of an account changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum News {
    /// Its challenges, sent or received.
    Challenges,
    /// Its friends list: a request received, a request of its own accepted.
    Friends,
}

impl News {
    pub const ALL: [News; 2] = [News::Challenges, News::Friends];

    fn letter(self) -> char {
        match self {
            News::Challenges => 'c',
            News::Friends => 'f',
        }
    }
}

/// What changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// This news of this account.
    Account(AccountId, News),
    /// Signals may have been missed: every listener looks again at everything.
    Everyone,
}

impl Signal {
    /// What a listener for `account` should look at again (nothing when it is another's).
    pub fn news_for(&self, account: &AccountId) -> &'static [News] {
        match self {
            Signal::Account(a, News::Challenges) if a == account => &[News::Challenges],
            Signal::Account(a, News::Friends) if a == account => &[News::Friends],
            Signal::Account(..) => &[],
            Signal::Everyone => &News::ALL,
        }
    }
}

/// Sending and hearing signals.
pub trait AccountSignals: Send + Sync {
    /// Tells every node (this one included) that `accounts` have `news`. Never blocks and never
    /// fails the caller: a signal that cannot be sent is logged.
    fn signal(&self, accounts: &[AccountId], news: News);

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
    fn signal(&self, accounts: &[AccountId], news: News) {
        for account in accounts {
            self.deliver(Signal::Account(*account, news));
        }
    }

    fn subscribe(&self) -> broadcast::Receiver<Signal> {
        self.sender.subscribe()
    }
}

/// A signal as the PostgreSQL signals carry it (a `NOTIFY` payload is text): the news' letter and
/// the account id in hex.
pub fn to_payload(account: &AccountId, news: News) -> String {
    std::iter::once(news.letter())
        .chain(
            account
                .iter()
                .flat_map(|b| format!("{b:02x}").chars().collect::<Vec<_>>()),
        )
        .collect()
}

/// The signal of a payload; `None` for anything else.
pub fn from_payload(payload: &str) -> Option<Signal> {
    let news = News::ALL.into_iter().find(|n| payload.starts_with(n.letter()))?;
    let hex = &payload[1..];
    if hex.len() != 32 || !hex.is_ascii() {
        return None;
    }
    let mut id = [0u8; 16];
    for (i, byte) in id.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(Signal::Account(id, news))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payload_reads_back_as_its_signal_and_nothing_else_reads() {
        let id: AccountId = [0, 1, 2, 0xab, 0xff, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0x7f];
        for news in News::ALL {
            assert_eq!(from_payload(&to_payload(&id, news)), Some(Signal::Account(id, news)));
        }
        let hex = &to_payload(&id, News::Friends)[1..];
        for bad in [
            "",
            "c00",
            hex,
            &format!("x{hex}"),
            &format!("c{}", "g".repeat(32)),
            &format!("c{}", "0".repeat(31)),
            &format!("c{}", "é".repeat(16)),
        ] {
            assert_eq!(from_payload(bad), None, "{bad:?}");
        }
    }

    #[tokio::test]
    async fn local_signals_reach_every_listener_and_say_whose_news() {
        let signals = LocalSignals::default();
        let (mut a, mut b) = (signals.subscribe(), signals.subscribe());
        let (one, two) = ([1u8; 16], [2u8; 16]);
        signals.signal(&[one], News::Friends);
        signals.deliver(Signal::Everyone);
        for rx in [&mut a, &mut b] {
            let first = rx.recv().await.expect("a signal");
            assert_eq!(first.news_for(&one), &[News::Friends]);
            assert!(first.news_for(&two).is_empty());
            assert_eq!(rx.recv().await.expect("a signal").news_for(&two), &News::ALL);
        }
    }
}
