//! An account's own data: what it is (`GET /api/account`), everything it holds as a file
//! (`GET /api/account/export`), and deleting it (`POST /api/account/delete`): personal data
//! erased, the games kept with the name at its seats cleared, the username kept back.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use evr_protocol::{AccountDetails, AccountExport, DeleteAccount, ErrorCode, SessionInfo};
use tokio::sync::oneshot;

use super::passkeys::passkey_info;
use super::session::{SignedIn, clear_cookie, handle, required};
use super::{blocking, now_ms, offered};
use crate::app::App;
use crate::refusal::{ApiBody, ApiError, json};
use crate::room::Command;

/// The account of `session` as its owner sees it, this device's session first.
async fn account_details(app: &App, session: &SignedIn) -> Result<AccountDetails, ApiError> {
    let account = session.account;
    let (stored, passkeys, sessions) = blocking(app, "cannot read the account", move |store| {
        Ok((
            store.account(&account)?,
            store.passkeys(&account)?,
            store.sessions(&account)?,
        ))
    })
    .await?;
    let stored = stored.ok_or_else(|| ApiError::new(ErrorCode::NotSignedIn, "this account no longer exists"))?;
    let now = now_ms();
    let mut sessions: Vec<SessionInfo> = sessions
        .into_iter()
        .filter(|s| now < s.expires_at && now - s.last_seen_at < super::session::IDLE_MS)
        .map(|s| SessionInfo {
            id: handle(&s.id_hash),
            current: s.id_hash == session.id_hash,
            label: s.label,
            created_at_ms: s.created_at,
            last_seen_at_ms: s.last_seen_at,
        })
        .collect();
    sessions.sort_by_key(|s| !s.current);
    Ok(AccountDetails {
        username: session.username.clone(),
        created_at_ms: stored.created_at,
        email: stored.email,
        email_confirmed: stored.email_confirmed,
        passkeys: passkeys.iter().map(passkey_info).collect(),
        sessions,
    })
}

fn private(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// `GET /api/account`.
pub async fn details(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    offered(&app, addr.ip())?;
    let session = required(&app, &headers).await?;
    Ok(private(Json(account_details(&app, &session).await?).into_response()))
}

/// `GET /api/account/export`: a file of everything the account holds.
pub async fn export(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    offered(&app, addr.ip())?;
    let session = required(&app, &headers).await?;
    let account = account_details(&app, &session).await?;
    let id = session.account;
    let seats = blocking(&app, "cannot list the seats", move |store| store.account_seats(&id)).await?;
    let mut rooms = Vec::with_capacity(seats.len());
    for seat in seats {
        rooms.push(crate::replay::seat_record(&app, &seat.code, seat.seat).await?);
    }
    let (store, username, now) = (app.store.clone(), session.username.clone(), now_ms());
    let ratings = tokio::task::spawn_blocking(move || match (store.accounts(), store.ratings()) {
        (Some(accounts), Some(ratings)) => {
            crate::ratings::page_of(accounts, ratings, &id, username, now, u32::MAX).map(Some)
        }
        _ => Ok(None),
    })
    .await
    .map_err(|e| ApiError::internal(ErrorCode::StorageFailed, "cannot read the ratings", &e))?
    .map_err(|e| ApiError::internal(ErrorCode::StorageFailed, "cannot read the ratings", &e))?;
    let file = AccountExport {
        account,
        rooms,
        ratings,
    };
    let mut response = private(Json(file).into_response());
    let name = format!("attachment; filename=\"evr-account-{}.json\"", session.username);
    if let Ok(value) = HeaderValue::from_str(&name) {
        response.headers_mut().insert(header::CONTENT_DISPOSITION, value);
    } else {
        response.headers_mut().insert(
            header::CONTENT_DISPOSITION,
            HeaderValue::from_static("attachment; filename=\"evr-account.json\""),
        );
    }
    Ok(response)
}

/// `POST /api/account/delete`.
pub async fn delete_account(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: ApiBody,
) -> Result<Response, ApiError> {
    let (accounts, _) = offered(&app, addr.ip())?;
    let session = required(&app, &headers).await?;
    let DeleteAccount { username } = json(&body)?;
    if username.trim() != session.username {
        return Err(ApiError::new(
            ErrorCode::ConfirmationMismatch,
            "type the account's username to delete it",
        ));
    }
    let account = session.account;
    let now = now_ms();
    let seats = blocking(&app, "cannot delete the account", move |store| {
        store.delete_account(&account, now)
    })
    .await?;
    // the name at its seats goes too; a room that cannot be reached now keeps it until its player
    // clears it (logged: the account itself is gone either way)
    for seat in seats {
        let erased = match crate::http::room_named(&app, &seat.code).await {
            Ok(handle) => {
                let (reply, answer) = oneshot::channel();
                match handle.tx.send(Command::EraseName { seat: seat.seat, reply }).await {
                    Ok(()) => matches!(answer.await, Ok(Ok(()))),
                    Err(_) => false,
                }
            }
            Err(_) => false,
        };
        if !erased {
            tracing::warn!(room = %seat.code, "a deleted account's name could not be cleared from a room");
        }
    }
    metrics::counter!(crate::metrics_names::ACCOUNTS_DELETED).increment(1);
    let mut response = StatusCode::NO_CONTENT.into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, clear_cookie(accounts));
    Ok(response)
}
