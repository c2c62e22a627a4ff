//! Accounts: an upgrade a player may take, never a gate (proto/PROTOCOL.md, *Accounts*). A
//! username, passkeys to sign in (WebAuthn, `passkeys.rs`), a server-side session in a cookie
//! (`session.rs`), the seats a player keeps across devices (`seats.rs`), their data to download and
//! the account to delete (`data.rs`), an email address for sign-in links (`email.rs`). What is stored is `evr-store`'s `AccountStore`; this module
//! reads requests, decides, and answers.
//!
//! Passkeys need a host name for their relying party: the public origin's (`--public-origin`), or
//! without one `http://localhost:PORT`. A public origin on an IP address offers no accounts
//! (`accounts_disabled`).

mod data;
mod email;
mod email_texts;
mod label;
mod passkeys;
mod seats;
mod session;
mod username;

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;

use axum::Router;
use axum::routing::{delete, get, post};
use evr_protocol::ErrorCode;
use evr_store::{AccountStore, Store};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use webauthn_rs::prelude::Url;
use webauthn_rs::{Webauthn, WebauthnBuilder};

use crate::app::App;
use crate::refusal::ApiError;

pub(crate) use seats::{account_seat_summary, keep_new_seat, player, seat_on_this_device};

/// Requests to the account routes per client address per minute: ceremonies and sign-ins cost a
/// signature check and store writes each.
const REQUESTS_PER_MINUTE: u32 = 60;

/// What the account routes need besides the store: the relying party and the limits.
pub struct Accounts {
    webauthn: Webauthn,
    /// The relying party's id: the host name passkeys are made for.
    rp_id: String,
    /// Whether the site is served over https: the session cookie is `Secure` then.
    secure: bool,
    limiter: DefaultKeyedRateLimiter<IpAddr>,
}

impl Accounts {
    /// The accounts of a site at `public_origin` (empty: `http://localhost:{port}`); `None` when
    /// its host is not a name passkeys can use (an IP address) or the origin cannot be read.
    pub fn new(public_origin: &str, port: u16) -> Option<Accounts> {
        let origin = match public_origin.trim().trim_end_matches('/') {
            "" => format!("http://localhost:{port}"),
            given => given.to_string(),
        };
        let url = Url::parse(&origin).ok()?;
        let host = url.host_str()?.to_string();
        if host.starts_with('[') || host.parse::<IpAddr>().is_ok() {
            tracing::info!(origin = %origin, "no accounts: passkeys need a host name, not an IP address");
            return None;
        }
        let webauthn = WebauthnBuilder::new(&host, &url)
            .ok()?
            .rp_name("EvR Online")
            .build()
            .map_err(|e| tracing::warn!(error = %e, origin = %origin, "no accounts: the relying party is refused"))
            .ok()?;
        let per_minute = NonZeroU32::new(REQUESTS_PER_MINUTE).unwrap_or(NonZeroU32::MIN);
        Some(Accounts {
            webauthn,
            rp_id: host,
            secure: url.scheme() == "https",
            limiter: RateLimiter::keyed(Quota::per_minute(per_minute)),
        })
    }
}

/// The account routes (the room-scoped ones, `…/account-seat`, are beside the other room routes).
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route(evr_protocol::SESSION_PATH, get(session::session_state))
        .route(evr_protocol::REGISTER_BEGIN_PATH, post(passkeys::register_begin))
        .route(evr_protocol::REGISTER_FINISH_PATH, post(passkeys::register_finish))
        .route(evr_protocol::SIGN_IN_BEGIN_PATH, post(passkeys::sign_in_begin))
        .route(evr_protocol::SIGN_IN_FINISH_PATH, post(passkeys::sign_in_finish))
        .route(evr_protocol::SIGN_OUT_PATH, post(session::sign_out))
        .route(evr_protocol::ACCOUNT_PATH, get(data::details))
        .route(evr_protocol::ADD_PASSKEY_BEGIN_PATH, post(passkeys::add_begin))
        .route(evr_protocol::ADD_PASSKEY_FINISH_PATH, post(passkeys::add_finish))
        .route("/api/account/passkeys/{id}", delete(passkeys::remove))
        .route("/api/account/sessions/{id}", delete(session::end_one))
        .route(evr_protocol::SIGN_OUT_OTHERS_PATH, post(session::sign_out_others))
        .route(evr_protocol::KEEP_SEATS_PATH, post(seats::keep_seats))
        .route(evr_protocol::ACCOUNT_ROOMS_PATH, get(seats::rooms))
        .route(evr_protocol::ACCOUNT_EMAIL_PATH, post(email::set_email))
        .route(evr_protocol::CONFIRM_ACCOUNT_EMAIL_PATH, post(email::confirm_email))
        .route(evr_protocol::EMAIL_SIGN_IN_PATH, post(email::email_sign_in))
        .route(evr_protocol::LINK_SIGN_IN_PATH, post(email::link_sign_in))
        .route(evr_protocol::ACCOUNT_EXPORT_PATH, get(data::export))
        .route(evr_protocol::DELETE_ACCOUNT_PATH, post(data::delete_account))
}

/// The accounts and their store, or `accounts_disabled`; counts the request against the client's
/// limit (`rate_limited`).
fn offered(app: &App, client: IpAddr) -> Result<(&Accounts, &dyn AccountStore), ApiError> {
    let disabled = || ApiError::new(ErrorCode::AccountsDisabled, "this server offers no accounts");
    let accounts = app.accounts.as_deref().ok_or_else(disabled)?;
    let store = app.store.accounts().ok_or_else(disabled)?;
    if accounts.limiter.check_key(&crate::listen::client_key(client)).is_err() {
        return Err(ApiError::new(
            ErrorCode::RateLimited,
            "too many account requests from this address: wait a minute",
        ));
    }
    Ok((accounts, store))
}

/// Runs `work` on the accounts' store off the async threads; a store failure is `storage_failed`
/// (logged).
async fn blocking<T: Send + 'static>(
    app: &App,
    what: &'static str,
    work: impl FnOnce(&dyn AccountStore) -> Result<T, evr_store::StoreError> + Send + 'static,
) -> Result<T, ApiError> {
    with_rooms(app, what, move |_, accounts| work(accounts)).await
}

/// [`blocking`], with the rooms' store too.
async fn with_rooms<T: Send + 'static>(
    app: &App,
    what: &'static str,
    work: impl FnOnce(&dyn Store, &dyn AccountStore) -> Result<T, evr_store::StoreError> + Send + 'static,
) -> Result<T, ApiError> {
    let store = app.store.clone();
    let done = tokio::task::spawn_blocking(move || match store.accounts() {
        Some(accounts) => work(store.as_ref(), accounts).map_err(|e| e.to_string()),
        None => Err("this store keeps no accounts".to_string()),
    })
    .await;
    match done {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(e)) => Err(ApiError::internal(ErrorCode::StorageFailed, what, &e)),
        Err(e) => Err(ApiError::internal(ErrorCode::StorageFailed, what, &e)),
    }
}

/// Milliseconds since 1970.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// How often ended sessions, ceremonies and links are deleted.
const PURGE_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);

/// Deletes expired sessions (and idle ones), ceremonies, sign-in links and mail counts every
/// [`PURGE_EVERY`] until `shutdown`: a session's end is checked at every request anyway, this
/// only keeps the tables small.
pub async fn purge_periodically(store: Arc<dyn Store>, shutdown: tokio_util::sync::CancellationToken) {
    let mut every = tokio::time::interval(PURGE_EVERY);
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = every.tick() => {
                let store = store.clone();
                let purged = tokio::task::spawn_blocking(move || {
                    store.accounts().map(|a| a.purge_accounts(now_ms(), session::IDLE_MS))
                })
                .await;
                match purged {
                    Ok(Some(Ok(n))) if n > 0 => tracing::info!(sessions = n, "ended sessions deleted"),
                    Ok(Some(Err(e))) => tracing::warn!(error = %e, "the accounts' purge failed; it runs again later"),
                    Err(e) => tracing::warn!(error = %e, "the accounts' purge stopped"),
                    _ => {}
                }
            }
        }
    }
}
