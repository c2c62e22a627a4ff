//! An account's email address and the sign-in links mailed to it, only when the server sends mail
//! (`--smtp-url`). The address is confirmed by a link before any sign-in link goes to it. A link's
//! secret is in the fragment of its address (`/#/account/sign-in/SECRET`), which no server
//! receives; its page posts it when its reader presses the button (mail scanners open links). A
//! sign-in link works once, for [`SIGN_IN_LINK_SECS`]; the store keeps only its hash.
//!
//! Limits: per client address (the mailer's hourly limiter) and per mailbox (its key, as the
//! reminders count it: `mail/address.rs`), [`MAILS_PER_ADDRESS_PER_DAY`] a day. Asking for a
//! sign-in link answers the same whether an account has the address or not, and the mail is sent
//! after the answer, so neither the words nor the time tell.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use evr_protocol::{EmailSignIn, ErrorCode, LinkSecret, SIGN_IN_LINK_SECS, SetAccountEmail};
use evr_store::MailAllowed;

use super::session::{new_session, required, signed_in_answer};
use super::{blocking, email_texts, now_ms, offered};
use crate::app::App;
use crate::mail::{Email, Mailer, checked_email, message};
use crate::refusal::{ApiBody, ApiError, json};
use crate::secrets::{hash_token, new_token};

/// Mails (confirmations and sign-in links) one mailbox gets in a day.
pub(crate) const MAILS_PER_ADDRESS_PER_DAY: u32 = 5;
const DAY_MS: i64 = 24 * 3600 * 1000;
const CONFIRM_MS: i64 = DAY_MS;

fn mailer(app: &App) -> Result<Arc<Mailer>, ApiError> {
    app.mail.clone().ok_or_else(|| {
        ApiError::new(
            ErrorCode::MailDisabled,
            "this server sends no mail: sign-in links are not offered",
        )
    })
}

/// The address as mail goes to it (lower case: what the accounts look it up by) and its key, or
/// `bad_email`; then the client's and the mailbox's limits.
async fn checked_and_counted(app: &App, mailer: &Mailer, given: &str, client: SocketAddr) -> Result<String, ApiError> {
    let Email { to, key, .. } = checked_email(given)
        .map_err(|e| ApiError::new(ErrorCode::BadEmail, format!("not an address mail can be sent to: {e}")))?;
    if mailer
        .client_limiter
        .check_key(&crate::listen::client_key(client.ip()))
        .is_err()
    {
        return Err(ApiError::new(
            ErrorCode::RateLimited,
            "too many mails asked from this network address: wait an hour",
        ));
    }
    let now = now_ms();
    let allowed = blocking(app, "cannot count the mail", move |store| {
        store.count_sign_in_mail(&key, now, DAY_MS, MAILS_PER_ADDRESS_PER_DAY)
    })
    .await?;
    if allowed == MailAllowed::AddressLimit {
        return Err(ApiError::new(
            ErrorCode::RateLimited,
            "this address had its mails for today: use the last one, or try tomorrow",
        ));
    }
    Ok(to.to_lowercase())
}

fn new_secret() -> Result<String, ApiError> {
    new_token().map_err(|e| ApiError::internal(ErrorCode::StorageFailed, "no secret could be made", &e))
}

/// `POST /api/account/email`: the account's address, unconfirmed until its link is followed.
pub async fn set_email(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: ApiBody,
) -> Result<StatusCode, ApiError> {
    offered(&app, addr.ip())?;
    let mailer = mailer(&app)?;
    let session = required(&app, &headers).await?;
    let SetAccountEmail { email, language } = json(&body)?;
    let to = checked_and_counted(&app, &mailer, &email, addr).await?;
    // an address another account confirmed stays that account's: the same answer, and no mail
    // (the asker learns nothing of who has it)
    let lookup = to.clone();
    let holder = blocking(&app, "cannot look the address up", move |store| {
        store.account_by_email(&lookup)
    })
    .await?;
    if holder.is_some_and(|a| a.id != session.account) {
        return Ok(StatusCode::ACCEPTED);
    }
    let secret = new_secret()?;
    let (account, stored, hash) = (session.account, to.clone(), hash_token(&secret));
    let expires_at = now_ms() + CONFIRM_MS;
    blocking(&app, "cannot keep the address", move |store| {
        store.set_email(&account, &stored, &hash, expires_at)
    })
    .await?;
    let link = mailer.link(&format!("/#/account/confirm/{secret}"));
    let (subject, text) = email_texts::confirm_address(language, &session.username, &link);
    let sent = match message::transactional(&mailer, &to, subject, text) {
        Ok(m) => mailer.deliver(m).await,
        Err(e) => Err(e),
    };
    if let Err(e) = sent {
        tracing::warn!(error = %e, "an account's confirmation mail was not sent");
        return Err(ApiError::new(
            ErrorCode::MailNotSent,
            "the confirmation mail could not be sent; try again later",
        ));
    }
    Ok(StatusCode::ACCEPTED)
}

/// `POST /api/account/email/confirm`.
pub async fn confirm_email(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: ApiBody,
) -> Result<StatusCode, ApiError> {
    offered(&app, addr.ip())?;
    let LinkSecret { secret } = json(&body)?;
    let (hash, now) = (hash_token(&secret), now_ms());
    let confirmed = blocking(&app, "cannot confirm the address", move |store| {
        store.confirm_email(&hash, now)
    })
    .await?;
    match confirmed {
        Some(_) => Ok(StatusCode::NO_CONTENT),
        None => Err(invalid_link()),
    }
}

fn invalid_link() -> ApiError {
    ApiError::new(
        ErrorCode::SignInLinkInvalid,
        "this link was used already or has expired: ask for a new one",
    )
}

/// `POST /api/account/sign-in/email`: `202` whatever the address.
pub async fn email_sign_in(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: ApiBody,
) -> Result<StatusCode, ApiError> {
    offered(&app, addr.ip())?;
    let mailer = mailer(&app)?;
    let EmailSignIn { email, language } = json(&body)?;
    let to = checked_and_counted(&app, &mailer, &email, addr).await?;
    let lookup = to.clone();
    let account = blocking(&app, "cannot look the address up", move |store| {
        store.account_by_email(&lookup)
    })
    .await?;
    let Some((account, username)) = account.and_then(|a| a.username.clone().map(|u| (a.id, u))) else {
        return Ok(StatusCode::ACCEPTED);
    };
    let secret = new_secret()?;
    let hash = hash_token(&secret);
    let expires_at = now_ms() + 1000 * SIGN_IN_LINK_SECS as i64;
    blocking(&app, "cannot keep the sign-in link", move |store| {
        store.put_sign_in_link(&account, &hash, expires_at)
    })
    .await?;
    let link = mailer.link(&format!("/#/account/sign-in/{secret}"));
    let (subject, text) = email_texts::sign_in(language, &username, &link);
    // after the answer: how long the SMTP server takes must not tell that an account has the address
    app.tracker.spawn(async move {
        let sent = match message::transactional(&mailer, &to, subject, text) {
            Ok(m) => mailer.deliver(m).await,
            Err(e) => Err(e),
        };
        if let Err(e) = sent {
            tracing::warn!(error = %e, "a sign-in link was not sent");
        }
    });
    Ok(StatusCode::ACCEPTED)
}

/// `POST /api/account/sign-in/link`: the mailed link's secret signs this device in.
pub async fn link_sign_in(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: ApiBody,
) -> Result<Response, ApiError> {
    let (accounts, _) = offered(&app, addr.ip())?;
    let LinkSecret { secret } = json(&body)?;
    let (hash, now) = (hash_token(&secret), now_ms());
    let account = blocking(&app, "cannot use the sign-in link", move |store| {
        let Some(id) = store.use_sign_in_link(&hash, now)? else {
            return Ok(None);
        };
        store.account(&id)
    })
    .await?;
    let Some((id, username)) = account
        .filter(|a| a.deleted_at.is_none())
        .and_then(|a| a.username.clone().map(|u| (a.id, u)))
    else {
        return Err(invalid_link());
    };
    let (session, session_id) = new_session(id, &headers)?;
    blocking(&app, "cannot sign in", move |store| store.create_session(&session)).await?;
    metrics::counter!(crate::metrics_names::ACCOUNT_SIGN_INS, "by" => "link").increment(1);
    Ok(signed_in_answer(accounts, &session_id, username, StatusCode::OK))
}
