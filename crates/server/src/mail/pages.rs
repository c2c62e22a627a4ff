//! The pages the mails' links open, in the address's language. Following a link (`GET`) changes
//! nothing: it shows a button, and the button (`POST`) confirms or unsubscribes. Mail scanners and
//! link previews fetch links without a person: a `GET` that confirmed would let a scanner turn on
//! mail that its reader never asked for, and one that unsubscribed would stop reminders nobody
//! wanted stopped. Mail programs' one-click unsubscribe (RFC 8058) is a `POST` to the same address.
//! A link that leads nowhere answers 404 with a page that names nothing.

use std::sync::{Arc, LazyLock};

use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use evr_store::{MailLink, StoredAddress};

use super::api::language;
use super::{MailError, on_store, shown_code, texts, unix_millis};
use crate::app::App;
use crate::refusal::ApiPath;
use crate::secrets;

/// The pages' one style sheet, inline: the pages' policy allows it by its hash.
const STYLE: &str = "body{font:1.1rem/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}\
     button,a.button{font:inherit;padding:.5rem 1rem}";

static POLICY: LazyLock<HeaderValue> = LazyLock::new(|| {
    HeaderValue::from_str(&crate::defences::policy_allowing_style(STYLE))
        .unwrap_or(HeaderValue::from_static(crate::defences::POLICY))
});

fn html(status: StatusCode, lang: &str, title: &str, inner: &str) -> Response {
    let page = format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\"><meta name=\"referrer\" content=\"no-referrer\">\
         <title>{title}</title><style>{STYLE}</style></head><body><main><h1>{title}</h1>{inner}</main></body></html>"
    );
    (status, [(header::CONTENT_SECURITY_POLICY, POLICY.clone())], Html(page)).into_response()
}

fn dead_link() -> Response {
    html(
        StatusCode::NOT_FOUND,
        "en",
        "EvR Online",
        &format!("<p>{}</p>", texts::DEAD_LINK),
    )
}

fn trouble(e: &MailError) -> Response {
    tracing::error!(error = %e, "a mail link could not be read");
    html(
        StatusCode::INTERNAL_SERVER_ERROR,
        "en",
        "EvR Online",
        "<p>Something went wrong; try again in a moment. / 發生錯誤，請稍後再試。 / エラーが発生しました。しばらくしてからもう一度お試しください。</p>",
    )
}

/// The room's link (room codes are letters and digits: nothing to escape).
fn back_link(app: &App, a: &StoredAddress) -> String {
    let origin = app.config.public_origin.trim_end_matches('/');
    let words = texts::page(language(&a.language));
    format!(
        "<p><a class=\"button\" href=\"{origin}/r/{}\">{}</a></p>",
        a.code, words.back
    )
}

/// A secret from a link: 32 hex digits, or nothing (anything else is not a link of ours).
fn hash_of(secret: &str) -> Option<Vec<u8>> {
    (secret.len() == 32 && secret.bytes().all(|b| b.is_ascii_hexdigit())).then(|| secrets::hash_token(secret))
}

/// A page with one button that posts back to the same address.
fn ask(a: &StoredAddress, title: &str, button: &str) -> Response {
    let room = shown_code(&a.code);
    let title = title.replace("{room}", &room);
    html(
        StatusCode::OK,
        &a.language,
        &title,
        &format!("<form method=\"post\"><button type=\"submit\">{button}</button></form>"),
    )
}

fn done(app: &App, a: &StoredAddress, sentence: &str) -> Response {
    let title = sentence.replace("{room}", &shown_code(&a.code));
    html(StatusCode::OK, &a.language, &title, &back_link(app, a))
}

async fn find(app: &App, link: MailLink, secret: &str) -> Result<Option<StoredAddress>, MailError> {
    let Some(hash) = hash_of(secret) else { return Ok(None) };
    on_store(&app.store, move |m| m.address_by_link(link, &hash)).await
}

/// `GET /mail/confirm/{secret}`: a button that turns the reminders on (or says they are).
pub async fn confirm_page(State(app): State<Arc<App>>, ApiPath(secret): ApiPath<String>) -> Response {
    match find(&app, MailLink::Confirm, &secret).await {
        Ok(Some(a)) if a.confirmed => done(&app, &a, texts::page(language(&a.language)).on),
        Ok(Some(a)) if a.confirm_expires_at > unix_millis() => {
            let words = texts::page(language(&a.language));
            ask(&a, words.confirm_title, words.confirm_button)
        }
        Ok(_) => dead_link(),
        Err(e) => trouble(&e),
    }
}

/// `POST /mail/confirm/{secret}`: the reminders are on.
pub async fn confirm_post(State(app): State<Arc<App>>, ApiPath(secret): ApiPath<String>) -> Response {
    let Some(hash) = hash_of(&secret) else {
        return dead_link();
    };
    match on_store(&app.store, move |m| m.confirm(&hash, unix_millis())).await {
        Ok(Some(a)) => {
            tracing::info!(room = %a.code, seat = a.seat.as_str(), "reminder address confirmed");
            done(&app, &a, texts::page(language(&a.language)).on)
        }
        Ok(None) => dead_link(),
        Err(e) => trouble(&e),
    }
}

/// `GET /mail/unsubscribe/{secret}`: a button that stops the reminders.
pub async fn unsubscribe_page(State(app): State<Arc<App>>, ApiPath(secret): ApiPath<String>) -> Response {
    match find(&app, MailLink::Unsubscribe, &secret).await {
        Ok(Some(a)) => {
            let words = texts::page(language(&a.language));
            ask(&a, words.unsubscribe_title, words.unsubscribe_button)
        }
        Ok(None) => dead_link(),
        Err(e) => trouble(&e),
    }
}

/// `POST /mail/unsubscribe/{secret}` (the page's button, or a mail program's one-click
/// unsubscribe): the address is deleted. A link used already leads nowhere (404): its address is
/// gone.
pub async fn unsubscribe_post(State(app): State<Arc<App>>, ApiPath(secret): ApiPath<String>) -> Response {
    let Some(hash) = hash_of(&secret) else {
        return dead_link();
    };
    match on_store(&app.store, move |m| m.unsubscribe(&hash)).await {
        Ok(Some(a)) => {
            tracing::info!(room = %a.code, seat = a.seat.as_str(), "reminder address unsubscribed");
            done(&app, &a, texts::page(language(&a.language)).off)
        }
        Ok(None) => dead_link(),
        Err(e) => trouble(&e),
    }
}
