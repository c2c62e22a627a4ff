//! Friends and challenges between accounts (proto/PROTOCOL.md, *Friends and challenges*): friend
//! requests, removing and blocking, the friends list with each friend's presence (`links.rs`);
//! challenges to a friend that make a room with both seats taken, and the mail that tells of one
//! (`challenges.rs`, `texts.rs`); the event stream that tells a page at once (`events.rs`); the record between two friends (`record.rs`). What is stored is
//! `evr-store`'s `FriendStore`; this module reads requests, decides and answers.
//!
//! Every route needs a signed-in account and counts against the account routes' limit per client
//! address (`accounts::offered`). "Now" is taken in one place ([`now_ms`]) and handed to the store,
//! which decides what has expired, so that expiry is tested against the store with a given "now".

mod challenges;
pub mod events;
mod links;
mod record;
mod texts;

use std::net::IpAddr;
use std::sync::Arc;

use axum::Router;
use axum::http::HeaderMap;
use axum::routing::{delete, get, post};
use evr_protocol::ErrorCode;
use evr_store::{AccountId, AccountStore, FriendStore, Store, StoreError};

use crate::accounts::session::{SignedIn, required};
use crate::app::App;
use crate::refusal::ApiError;

/// The friends' and challenges' routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route(evr_protocol::FRIENDS_PATH, get(links::list).post(links::add))
        .route(evr_protocol::ACCEPT_FRIEND_PATH, post(links::accept))
        .route(evr_protocol::DECLINE_FRIEND_PATH, post(links::decline))
        .route(evr_protocol::REMOVE_FRIEND_PATH, post(links::remove))
        .route(evr_protocol::BLOCK_PATH, post(links::block))
        .route(evr_protocol::UNBLOCK_PATH, post(links::unblock))
        .route(evr_protocol::HEAD_TO_HEAD_PATH, get(record::head_to_head))
        .route(
            evr_protocol::CHALLENGES_PATH,
            get(challenges::list).post(challenges::create),
        )
        .route(evr_protocol::CHALLENGE_SETTINGS_PATH, post(challenges::settings))
        .route(evr_protocol::ACCEPT_CHALLENGE_PATH, post(challenges::accept))
        .route(evr_protocol::DECLINE_CHALLENGE_PATH, post(challenges::decline))
        .route(evr_protocol::CHALLENGE_PATH, delete(challenges::withdraw))
        .route(evr_protocol::ACCOUNT_EVENTS_PATH, get(events::stream))
}

/// The one clock of this module: milliseconds since 1970.
fn now_ms() -> i64 {
    crate::accounts::now_ms()
}

/// The request's signed-in account, after the accounts' checks (`accounts_disabled`,
/// `rate_limited`, `not_signed_in`).
async fn signed_in(app: &App, client: IpAddr, headers: &HeaderMap) -> Result<SignedIn, ApiError> {
    crate::accounts::offered(app, client)?;
    if app.store.friends().is_none() {
        return Err(ApiError::new(
            ErrorCode::AccountsDisabled,
            "this server keeps no friends",
        ));
    }
    required(app, headers).await
}

/// Runs `work` on the stores off the async threads; a store failure is `storage_failed` (logged).
async fn stored<T: Send + 'static>(
    app: &App,
    what: &'static str,
    work: impl FnOnce(&Stores<'_>) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let store = app.store.clone();
    let done = tokio::task::spawn_blocking(move || match (store.accounts(), store.friends()) {
        (Some(accounts), Some(friends)) => work(&Stores {
            rooms: store.as_ref(),
            accounts,
            friends,
            what,
        }),
        _ => Err(ApiError::new(
            ErrorCode::AccountsDisabled,
            "this server keeps no friends",
        )),
    })
    .await;
    done.unwrap_or_else(|e| Err(ApiError::internal(ErrorCode::StorageFailed, what, &e)))
}

/// The stores a request's work reads and writes, and what it is doing (for a failure's message).
struct Stores<'a> {
    rooms: &'a dyn Store,
    accounts: &'a dyn AccountStore,
    friends: &'a dyn FriendStore,
    what: &'static str,
}

impl Stores<'_> {
    /// A store's answer, its failure `storage_failed` (logged).
    fn ok<T>(&self, answer: Result<T, StoreError>) -> Result<T, ApiError> {
        answer.map_err(|e| ApiError::internal(ErrorCode::StorageFailed, self.what, &e))
    }

    /// The account called `typed` (not deleted, not `me`), with its username as written, or
    /// `player_not_found`.
    fn named(&self, typed: &str, me: &AccountId) -> Result<(AccountId, String), ApiError> {
        let not_found = || ApiError::new(ErrorCode::PlayerNotFound, "no player has this username");
        let key = crate::accounts::username::key(typed.trim());
        let account = self
            .ok(self.accounts.account_by_username_key(&key))?
            .ok_or_else(not_found)?;
        let username = account.username.ok_or_else(not_found)?;
        if account.id == *me {
            return Err(ApiError::new(ErrorCode::PlayerNotFound, "that is your own username"));
        }
        Ok((account.id, username))
    }

    /// The username of `account`, `None` once deleted.
    fn username(&self, account: &AccountId) -> Result<Option<String>, ApiError> {
        Ok(self.ok(self.accounts.account(account))?.and_then(|a| a.username))
    }
}

/// How often expired challenges are deleted.
const PURGE_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);

/// Deletes the challenges expired (open and unanswered for [`evr_store::CHALLENGE_TTL_MS`]) every
/// [`PURGE_EVERY`] until `shutdown`: an expired one is refused at once anyway, this keeps the
/// table small.
pub async fn purge_periodically(store: Arc<dyn Store>, shutdown: tokio_util::sync::CancellationToken) {
    let mut every = tokio::time::interval(PURGE_EVERY);
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = every.tick() => {
                let store = store.clone();
                let purged = tokio::task::spawn_blocking(move || {
                    store.friends().map(|f| f.purge_challenges(now_ms()))
                })
                .await;
                match purged {
                    Ok(Some(Ok(n))) if n > 0 => tracing::info!(challenges = n, "expired challenges deleted"),
                    Ok(Some(Err(e))) => tracing::warn!(error = %e, "the challenges' purge failed; it runs again later"),
                    Err(e) => tracing::warn!(error = %e, "the challenges' purge stopped"),
                    _ => {}
                }
            }
        }
    }
}
