//! The session of a signed-in device: 128 random bits in the `evr_session` cookie (`HttpOnly;
//! SameSite=Lax; Path=/`, `Secure` over https), kept in the store only as its SHA-256, so that every
//! node knows it and a copy of the database signs nobody in. A sign-in always makes a new one. It
//! ends [`IDLE_MS`] after its last request, [`ABSOLUTE_MS`] after the sign-in, or when the account
//! ends it from any device.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use evr_protocol::{AccountBrief, ErrorCode, SESSION_COOKIE, SessionState, SignedOutSessions};
use evr_store::{AccountId, StoredSession};

use super::{Accounts, blocking, now_ms, offered};
use crate::app::App;
use crate::refusal::{ApiError, ApiPath};
use crate::secrets::{hash_token, new_token};

/// A session ends after 30 days without a request.
pub(crate) const IDLE_MS: i64 = 30 * 24 * 3600 * 1000;
/// And 365 days after its sign-in, however used.
pub(crate) const ABSOLUTE_MS: i64 = 365 * 24 * 3600 * 1000;
/// A session's last request is written at most this often (not at every request).
const TOUCH_EVERY_MS: i64 = 5 * 60 * 1000;

/// A request's valid session.
pub(crate) struct SignedIn {
    pub account: AccountId,
    pub username: String,
    pub id_hash: Vec<u8>,
}

/// The session id the request's cookie carries, if any.
fn cookie_value(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == SESSION_COOKIE)
        .map(|(_, value)| value.trim())
        .filter(|v| !v.is_empty())
}

/// Whether `session` is still valid at `now`.
fn alive(session: &StoredSession, now: i64) -> bool {
    now < session.expires_at && now - session.last_seen_at < IDLE_MS
}

/// The request's session, if it has a valid one (the store's account not deleted); records the
/// request now and then.
pub(crate) async fn current(app: &App, headers: &HeaderMap) -> Result<Option<SignedIn>, ApiError> {
    let Some(id) = cookie_value(headers) else {
        return Ok(None);
    };
    let id_hash = hash_token(id);
    let lookup = id_hash.clone();
    let now = now_ms();
    blocking(app, "cannot read the session", move |store| {
        let Some(session) = store.session(&lookup)? else {
            return Ok(None);
        };
        if !alive(&session, now) {
            return Ok(None);
        }
        let Some(username) = store.account(&session.account)?.and_then(|a| a.username) else {
            return Ok(None);
        };
        if now - session.last_seen_at >= TOUCH_EVERY_MS {
            store.touch_session(&lookup, now)?;
        }
        Ok(Some(SignedIn {
            account: session.account,
            username,
            id_hash: lookup,
        }))
    })
    .await
    .map(|found| found.map(|s| SignedIn { id_hash, ..s }))
}

/// The request's session, or `not_signed_in`.
pub(crate) async fn required(app: &App, headers: &HeaderMap) -> Result<SignedIn, ApiError> {
    current(app, headers).await?.ok_or_else(|| {
        ApiError::new(
            ErrorCode::NotSignedIn,
            "sign in first: this device has no valid session",
        )
    })
}

/// A new session for `account` on the device `headers` describe: the stored value and the id for
/// its cookie.
pub(crate) fn new_session(account: AccountId, headers: &HeaderMap) -> Result<(StoredSession, String), ApiError> {
    let id = new_token().map_err(|e| ApiError::internal(ErrorCode::StorageFailed, "no randomness", &e))?;
    let now = now_ms();
    let user_agent = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    Ok((
        StoredSession {
            id_hash: hash_token(&id),
            account,
            label: super::label::device_label(user_agent),
            created_at: now,
            last_seen_at: now,
            expires_at: now + ABSOLUTE_MS,
        },
        id,
    ))
}

/// The `Set-Cookie` value that gives a device session `id`.
pub(crate) fn set_cookie(accounts: &Accounts, id: &str) -> HeaderValue {
    let secure = if accounts.secure { "; Secure" } else { "" };
    let value = format!(
        "{SESSION_COOKIE}={id}; HttpOnly; SameSite=Lax; Path=/; Max-Age={}{secure}",
        ABSOLUTE_MS / 1000
    );
    HeaderValue::from_str(&value).unwrap_or_else(|_| HeaderValue::from_static("evr_session=; Max-Age=0"))
}

/// The `Set-Cookie` value that clears the session cookie.
pub(crate) fn clear_cookie(accounts: &Accounts) -> HeaderValue {
    let secure = if accounts.secure { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{SESSION_COOKIE}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0{secure}"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static("evr_session=; Max-Age=0"))
}

/// An answer that signs the device in: `status`, the cookie, `{"username"}`.
pub(crate) fn signed_in_answer(accounts: &Accounts, id: &str, username: String, status: StatusCode) -> Response {
    let mut response = (status, Json(AccountBrief { username })).into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, set_cookie(accounts, id));
    // a page cached with one account's answer is never shown to another
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// `GET /api/session`.
pub async fn session_state(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response, ApiError> {
    let Some(accounts) = app.accounts.as_deref().filter(|_| app.store.accounts().is_some()) else {
        return Ok(Json(SessionState {
            account: None,
            passkey_rp_id: None,
            email_sign_in: false,
        })
        .into_response());
    };
    let account = current(&app, &headers)
        .await?
        .map(|s| AccountBrief { username: s.username });
    let mut response = Json(SessionState {
        account,
        passkey_rp_id: Some(accounts.rp_id.clone()),
        email_sign_in: app.mail.is_some(),
    })
    .into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// `POST /api/account/sign-out`: this device's session ends (also when it had none: the cookie
/// is cleared either way).
pub async fn sign_out(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (accounts, _) = offered(&app, addr.ip())?;
    if let Some(session) = current(&app, &headers).await? {
        blocking(&app, "cannot end the session", move |store| {
            store.delete_session(&session.account, &session.id_hash)
        })
        .await?;
    }
    let mut response = StatusCode::NO_CONTENT.into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, clear_cookie(accounts));
    Ok(response)
}

/// A session's handle as shown to its account (base64url of its id's hash: not the id).
pub(crate) fn handle(id_hash: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(id_hash)
}

/// `DELETE /api/account/sessions/{id}`.
pub async fn end_one(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    offered(&app, addr.ip())?;
    let session = required(&app, &headers).await?;
    use base64::Engine;
    let not_found = || ApiError::new(ErrorCode::NotFound, "the account has no such signed-in device");
    let id_hash = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(id.as_bytes())
        .map_err(|_| not_found())?;
    let ended = blocking(&app, "cannot end the session", move |store| {
        store.delete_session(&session.account, &id_hash)
    })
    .await?;
    if ended {
        metrics::counter!(crate::metrics_names::ACCOUNT_SESSIONS_ENDED).increment(1);
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(not_found())
    }
}

/// `POST /api/account/sessions/sign-out-others`.
pub async fn sign_out_others(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Result<Json<SignedOutSessions>, ApiError> {
    offered(&app, addr.ip())?;
    let session = required(&app, &headers).await?;
    let ended = blocking(&app, "cannot end the sessions", move |store| {
        store.delete_other_sessions(&session.account, &session.id_hash)
    })
    .await?;
    metrics::counter!(crate::metrics_names::ACCOUNT_SESSIONS_ENDED).increment(ended);
    Ok(Json(SignedOutSessions {
        signed_out: u32::try_from(ended).unwrap_or(u32::MAX),
    }))
}

#[cfg(test)]
mod tests {
    use super::{ABSOLUTE_MS, IDLE_MS, alive, cookie_value};
    use evr_store::StoredSession;

    fn session(created_at: i64, last_seen_at: i64) -> StoredSession {
        StoredSession {
            id_hash: vec![1],
            account: [0; 16],
            label: "A browser".into(),
            created_at,
            last_seen_at,
            expires_at: created_at + ABSOLUTE_MS,
        }
    }

    #[test]
    fn a_session_ends_when_idle_and_at_its_absolute_end_however_used() {
        let s = session(0, 0);
        assert!(alive(&s, IDLE_MS - 1));
        assert!(!alive(&s, IDLE_MS), "30 days without a request");
        let used = session(0, ABSOLUTE_MS - 1);
        assert!(alive(&used, ABSOLUTE_MS - 1));
        assert!(
            !alive(&used, ABSOLUTE_MS),
            "a year after sign-in, used yesterday or not"
        );
    }

    #[test]
    fn the_session_cookie_is_found_among_others_and_an_empty_one_is_none() {
        let mut headers = axum::http::HeaderMap::new();
        headers.insert("cookie", "theme=dark; evr_session=abc ; other=1".parse().unwrap());
        assert_eq!(cookie_value(&headers), Some("abc"));
        headers.insert("cookie", "evr_session=".parse().unwrap());
        assert_eq!(cookie_value(&headers), None);
        headers.insert("cookie", "xevr_session=abc".parse().unwrap());
        assert_eq!(cookie_value(&headers), None);
    }
}
