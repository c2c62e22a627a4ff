//! `GET /api/account/events`: Server-Sent Events that tell a signed-in page at once that its
//! challenges changed — one was made to or by its account, accepted, declined or withdrawn — so
//! that it asks `GET /api/account/challenges` again (`event: challenges`), or that its friends list
//! did — a request received, a request of its own accepted — so that an open friends page asks
//! `GET /api/account/friends` again (`event: friends`). An event carries no content (`data:
//! changed`): what changed is told only by those signed-in routes.
//!
//! The signals come from the store (`evr_store::signals`): in memory on one node, `NOTIFY` between
//! the nodes of a shared store, so a challenge made on one node reaches a page whose stream is on
//! another. A stream ends when the node starts draining (the page's `EventSource` connects again,
//! through the front door, to a node that stays) and after [`STREAM_LIFETIME`], so that a session
//! signed out elsewhere stops hearing; an account holds at most [`MAX_STREAMS_PER_ACCOUNT`], a client
//! opens at most [`STREAMS_OPENED_PER_MINUTE`].

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{ConnectInfo, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use evr_protocol::ErrorCode;
use evr_store::{AccountId, News};
use futures_util::{Stream, StreamExt};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use tokio::sync::broadcast::error::RecvError;

use crate::accounts::session::required;
use crate::app::App;
use crate::listen::client_key;
use crate::refusal::ApiError;

/// Streams one account may hold at once (a few tabs on a few devices).
pub const MAX_STREAMS_PER_ACCOUNT: usize = 8;
/// A stream ends after this long; the page's `EventSource` connects again (and is signed in again).
pub const STREAM_LIFETIME: Duration = Duration::from_secs(3600);
/// A comment sent when nothing else was, so that the front door and the browser keep the stream.
const KEEP_ALIVE: Duration = Duration::from_secs(20);

/// Streams one client (an address, see `listen::client_key`) may open a minute. A stream is not
/// counted with the account routes' requests (a page opens one each time it loads); this bounds
/// the session checks a client can make the node do with it.
pub const STREAMS_OPENED_PER_MINUTE: u32 = 30;

/// The streams each account holds, and those each client opened lately.
pub struct Streams {
    held: Arc<Mutex<HashMap<AccountId, usize>>>,
    opened: DefaultKeyedRateLimiter<IpAddr>,
}

impl Default for Streams {
    fn default() -> Self {
        let per_minute = NonZeroU32::new(STREAMS_OPENED_PER_MINUTE).unwrap_or(NonZeroU32::MIN);
        Streams {
            held: Arc::default(),
            opened: RateLimiter::keyed(Quota::per_minute(per_minute)),
        }
    }
}

/// One account's stream, counted until dropped.
struct Held {
    held: Arc<Mutex<HashMap<AccountId, usize>>>,
    account: AccountId,
}

impl Drop for Held {
    fn drop(&mut self) {
        if let Ok(mut held) = self.held.lock()
            && let Some(n) = held.get_mut(&self.account)
        {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.account);
            }
        }
    }
}

impl Streams {
    /// Counts a stream of `account`, `None` if it holds the most already.
    fn hold(&self, account: AccountId) -> Option<Held> {
        let mut held = self.held.lock().ok()?;
        let n = held.entry(account).or_default();
        if *n >= MAX_STREAMS_PER_ACCOUNT {
            return None;
        }
        *n += 1;
        Some(Held {
            held: self.held.clone(),
            account,
        })
    }
}

/// `GET /api/account/events`.
pub async fn stream(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let (Some(_), Some(_), Some(signals)) = (&app.accounts, app.store.friends(), app.store.signals()) else {
        return Err(ApiError::new(
            ErrorCode::AccountsDisabled,
            "this server keeps no friends",
        ));
    };
    if app.account_streams.opened.check_key(&client_key(addr.ip())).is_err() {
        return Err(ApiError::new(
            ErrorCode::RateLimited,
            format!("at most {STREAMS_OPENED_PER_MINUTE} event streams a minute from one address: wait a minute"),
        ));
    }
    let me = required(&app, &headers).await?;
    // subscribed before the answer starts: a change made once the page has the answer is heard
    let heard = signals.subscribe();
    let Some(held) = app.account_streams.hold(me.account) else {
        return Err(ApiError::new(
            ErrorCode::RateLimited,
            format!("at most {MAX_STREAMS_PER_ACCOUNT} event streams per account: close some tabs"),
        ));
    };
    let ends = tokio::time::Instant::now() + STREAM_LIFETIME;
    let draining = app.draining.clone();
    let events = futures_util::stream::unfold((heard, held, draining), move |(mut heard, held, draining)| async move {
        loop {
            let signal = tokio::select! {
                _ = draining.cancelled() => return None,
                _ = tokio::time::sleep_until(ends) => return None,
                signal = heard.recv() => signal,
            };
            let news = match signal {
                Ok(signal) => signal.news_for(&held.account),
                // signals were missed: these may have been among them
                Err(RecvError::Lagged(_)) => &News::ALL,
                Err(RecvError::Closed) => return None,
            };
            if !news.is_empty() {
                // (a browser dispatches no event without data: a fixed word)
                let events: Vec<Result<Event, Infallible>> = news
                    .iter()
                    .map(|n| Ok(Event::default().event(name(*n)).data("changed")))
                    .collect();
                return Some((futures_util::stream::iter(events), (heard, held, draining)));
            }
        }
    });
    Ok(Sse::new(events.flatten()).keep_alive(KeepAlive::new().interval(KEEP_ALIVE)))
}

/// The event telling a page of `news`.
fn name(news: News) -> &'static str {
    match news {
        News::Challenges => "challenges",
        News::Friends => "friends",
    }
}

/// Tells `accounts`' pages, on every node, that their challenges changed.
pub fn challenges_changed(app: &App, accounts: &[AccountId]) {
    if let Some(signals) = app.store.signals() {
        signals.signal(accounts, News::Challenges);
    }
}

/// Tells `account`'s pages, on every node, that its friends list changed: only for what it may
/// know at once (a request received, its request accepted), never a decline, a removal or a block,
/// which it learns only when it next looks, as before.
pub fn friends_changed(app: &App, account: AccountId) {
    if let Some(signals) = app.store.signals() {
        signals.signal(&[account], News::Friends);
    }
}
