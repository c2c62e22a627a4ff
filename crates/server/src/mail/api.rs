//! The reminders' HTTP API (proto/PROTOCOL.md, "Reminders by email"): whether the server sends
//! mail, and a seat's address — given (`PUT`, which sends the confirmation mail and waits for the
//! SMTP server to take it, so the player hears of a failure), shown masked (`GET`), forgotten
//! (`DELETE`). The seat is the one of the bearer token, checked against the store (no room is
//! loaded or claimed for it).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode};
use evr_protocol::{
    ErrorCode, MailLanguage, MailStatus, ReminderSettings, RemindersSet, RemindersStatus, SetReminders,
};
use evr_store::{MailLimits, NewAddress, Registered, StoredSeat};

use super::{
    ADDRESSES_PER_ROOM_PER_DAY, BadEmail, CONFIRM_LINK_HOURS, CONFIRMATIONS_PER_ADDRESS_PER_DAY, Email, MailError,
    Mailer, checked_email, hint, message, on_store, shown_code, texts, unix_millis,
};
use crate::app::App;
use crate::refusal::{ApiBody, ApiError, ApiPath, json};
use crate::secrets;

/// `GET /api/mail`.
pub async fn mail_status(State(app): State<Arc<App>>) -> Json<MailStatus> {
    Json(MailStatus {
        enabled: app.mail.is_some(),
    })
}

fn failed(e: &MailError) -> ApiError {
    ApiError::internal(
        ErrorCode::StorageFailed,
        "the reminders could not be stored or read; try again",
        e,
    )
}

/// The canonical room code and the seat of the request's bearer token, from the store.
async fn seat_of_request(app: &App, typed: &str, headers: &HeaderMap) -> Result<(String, StoredSeat), ApiError> {
    let no_room = || ApiError::new(ErrorCode::RoomNotFound, "no such room");
    let code = secrets::canonical_room_code(typed).ok_or_else(no_room)?;
    let token = crate::seat_api::bearer(headers)?;
    let store = app.store.clone();
    let lookup = code.clone();
    let room = tokio::task::spawn_blocking(move || store.load_room(&lookup))
        .await
        .map_err(|e| failed(&MailError::Task(e.to_string())))?
        .map_err(|e| failed(&MailError::Store(e)))?
        .ok_or_else(no_room)?;
    let seat = crate::replay::seat_of_token(&room, &token)
        .ok_or_else(|| ApiError::new(ErrorCode::BadToken, "this seat token is not valid in this room"))?;
    Ok((code, seat))
}

fn mailer(app: &App) -> Result<Arc<Mailer>, ApiError> {
    app.mail.clone().ok_or_else(|| {
        ApiError::new(
            ErrorCode::MailDisabled,
            "this server sends no mail: reminders are not offered",
        )
    })
}

/// `PUT /api/rooms/{code}/reminders`: the seat's address and language; a confirmation mail.
pub async fn put_reminders(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    ApiPath(typed): ApiPath<String>,
    headers: HeaderMap,
    body: ApiBody,
) -> Result<(StatusCode, Json<RemindersSet>), ApiError> {
    let mailer = mailer(&app)?;
    let (code, seat) = seat_of_request(&app, &typed, &headers).await?;
    let SetReminders { email, language } = json(&body)?;
    // checked as the mailbox it is sent to before anything is counted or stored (address.rs)
    let Email {
        to: email,
        key: email_key,
        ..
    } = checked_email(&email).map_err(|e: BadEmail| {
        ApiError::new(
            ErrorCode::BadEmail,
            format!("not an email address reminders can be sent to: {e}"),
        )
    })?;
    if mailer
        .client_limiter
        .check_key(&crate::listen::client_key(addr.ip()))
        .is_err()
    {
        return Err(ApiError::new(
            ErrorCode::RateLimited,
            "too many addresses given from this network address: wait an hour",
        ));
    }
    let (confirm, unsubscribe) = match (secrets::new_token(), secrets::new_token()) {
        (Ok(c), Ok(u)) => (c, u),
        (Err(e), _) | (_, Err(e)) => {
            return Err(ApiError::internal(
                ErrorCode::StorageFailed,
                "no secret could be made; try again",
                &e,
            ));
        }
    };
    let now_ms = unix_millis();
    let new = NewAddress {
        code: code.clone(),
        seat,
        email: email.clone(),
        email_key,
        language: language.as_str().to_string(),
        confirm_hash: secrets::hash_token(&confirm),
        unsubscribe_hash: secrets::hash_token(&unsubscribe),
        now_ms,
        confirm_expires_at: now_ms + CONFIRM_LINK_HOURS * 3_600_000,
    };
    let limits = MailLimits {
        per_address: CONFIRMATIONS_PER_ADDRESS_PER_DAY,
        addresses_per_room: ADDRESSES_PER_ROOM_PER_DAY,
    };
    let registered = on_store(&app.store, move |m| m.register_address(&new, limits))
        .await
        .map_err(|e| failed(&e))?;
    match registered {
        Registered::AlreadyConfirmed => {
            return Ok((
                StatusCode::ACCEPTED,
                Json(RemindersSet {
                    status: RemindersStatus::AlreadyConfirmed,
                }),
            ));
        }
        Registered::AddressLimit => {
            return Err(ApiError::new(
                ErrorCode::RateLimited,
                format!(
                    "this address had {CONFIRMATIONS_PER_ADDRESS_PER_DAY} confirmation mails today: use the last one, or try tomorrow"
                ),
            ));
        }
        Registered::RoomLimit => {
            return Err(ApiError::new(
                ErrorCode::RateLimited,
                format!("this room asked for {ADDRESSES_PER_ROOM_PER_DAY} addresses today: try tomorrow"),
            ));
        }
        Registered::ConfirmationDue => {}
    }
    // the signed-in player's account confirmed this address already: no second confirmation
    if crate::accounts::confirmed_address(&app, &headers).await.as_deref() == Some(email.to_lowercase().as_str()) {
        let hash = secrets::hash_token(&confirm);
        on_store(&app.store, move |m| m.confirm(&hash, now_ms))
            .await
            .map_err(|e| failed(&e))?;
        tracing::info!(room = %code, seat = seat.as_str(), "reminders on with the account's confirmed address");
        return Ok((
            StatusCode::ACCEPTED,
            Json(RemindersSet {
                status: RemindersStatus::AlreadyConfirmed,
            }),
        ));
    }
    let room = shown_code(&code);
    let (subject, text) = texts::confirmation(
        language,
        &room,
        &mailer.link(&format!("/mail/confirm/{confirm}")),
        &mailer.link(&format!("/mail/unsubscribe/{unsubscribe}")),
    );
    let unsubscribe_link = mailer.link(&format!("/mail/unsubscribe/{unsubscribe}"));
    let sent = match message::build(&mailer, &email, subject, text, &unsubscribe_link) {
        Ok(m) => mailer.deliver(m).await,
        Err(e) => Err(e),
    };
    if let Err(e) = sent {
        // the address stays unconfirmed (and is purged when its link expires); the log names the
        // room and the seat, never the address
        tracing::warn!(room = %code, seat = seat.as_str(), error = %e, "a confirmation mail was not sent");
        return Err(ApiError::new(
            ErrorCode::MailNotSent,
            "the confirmation mail could not be sent; try again later",
        ));
    }
    tracing::info!(room = %code, seat = seat.as_str(), language = language.as_str(), "confirmation mail sent");
    Ok((
        StatusCode::ACCEPTED,
        Json(RemindersSet {
            status: RemindersStatus::ConfirmationSent,
        }),
    ))
}

/// `GET /api/rooms/{code}/reminders`: the seat's address, masked.
pub async fn get_reminders(
    State(app): State<Arc<App>>,
    ApiPath(typed): ApiPath<String>,
    headers: HeaderMap,
) -> Result<Json<ReminderSettings>, ApiError> {
    mailer(&app)?;
    let (code, seat) = seat_of_request(&app, &typed, &headers).await?;
    let stored = on_store(&app.store, move |m| m.seat_address(&code, seat))
        .await
        .map_err(|e| failed(&e))?;
    Ok(Json(ReminderSettings {
        email_hint: stored.as_ref().map(|a| hint(&a.email)),
        confirmed: stored.is_some_and(|a| a.confirmed),
    }))
}

/// `DELETE /api/rooms/{code}/reminders`: the seat's address is forgotten (also when the server no
/// longer sends mail: forgetting must always work).
pub async fn delete_reminders(
    State(app): State<Arc<App>>,
    ApiPath(typed): ApiPath<String>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    let (code, seat) = seat_of_request(&app, &typed, &headers).await?;
    if app.store.mail().is_some() {
        let room = code.clone();
        on_store(&app.store, move |m| m.forget(&room, seat))
            .await
            .map_err(|e| failed(&e))?;
        tracing::info!(room = %code, seat = seat.as_str(), "reminder address forgotten");
    }
    Ok(StatusCode::NO_CONTENT)
}

/// The language a stored address's mails are in.
pub(super) fn language(stored: &str) -> MailLanguage {
    MailLanguage::from_tag(stored)
}
