//! Reminders by email. A seat's player gives an address for a room (`api.rs`), checked as the mailbox
//! it is sent to and counted by that mailbox however it is spelled (`address.rs`); a confirmation mail
//! goes there first, and nothing else is sent before its link is used (`pages.rs`); then the
//! room's reminders ("your turn", "time is running out", scheduled by the room) reach it through
//! [`MailNotifier`] (`notifier.rs`), in the player's language (`texts.rs`), each with its own
//! unsubscribe link and the `List-Unsubscribe` headers (`message.rs`). Addresses are the store's
//! (`evr_store::MailStore`), deleted on unsubscribe, on request, or 7 days after the game
//! (`purge.rs`).
//!
//! Addresses are private: the API shows only a masked hint, and the log never carries one (nor
//! an SMTP server's answer, which may quote it: a failed send is logged by kind and code only).

mod address;
mod api;
pub(crate) mod message;
mod notifier;
mod pages;
mod purge;
mod texts;

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::str::FromStr;
use std::time::Duration;

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

pub(crate) use self::address::{BadEmail, Email, checked_email};
pub use self::api::{delete_reminders, get_reminders, mail_status, put_reminders};
pub use self::notifier::{Delivery, MailNotifier};
pub use self::pages::{confirm_page, confirm_post, unsubscribe_page, unsubscribe_post};
pub use self::purge::{PURGE_EVERY, sweep, sweep_periodically};
use crate::config::Config;

/// Confirmation mails to one address a day, whichever rooms ask (stored: holds across nodes and
/// restarts).
pub const CONFIRMATIONS_PER_ADDRESS_PER_DAY: u32 = 3;
/// Addresses the seats of one room may ask confirmation mails for in a day (stored).
pub const ADDRESSES_PER_ROOM_PER_DAY: u32 = 5;
/// Addresses given (`PUT …/reminders`) per client address and hour, per node (in memory, like
/// `app.join_limiter`).
pub const REQUESTS_PER_CLIENT_PER_HOUR: u32 = 10;
/// How long a confirmation link works.
pub const CONFIRM_LINK_HOURS: i64 = 24;
/// How long one SMTP exchange may take before it counts as failed.
const SMTP_TIMEOUT: Duration = Duration::from_secs(15);

/// Why mail could not be set up or sent. None of these carries an address.
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("{0}")]
    Config(String),
    #[error("building the mail: {0}")]
    Build(String),
    /// The SMTP exchange failed: its kind and reply code only (a server's words may quote the
    /// recipient).
    #[error("sending failed: {0}")]
    Send(String),
    #[error(transparent)]
    Store(#[from] evr_store::StoreError),
    #[error("a task stopped: {0}")]
    Task(String),
}

/// The SMTP client, the sender, the site's origin for links, and the per-client limiter.
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    origin: String,
    /// Where mail goes, for the log: scheme, host and port, never the credentials.
    server: String,
    /// `PUT …/reminders` per client address.
    pub(crate) client_limiter: DefaultKeyedRateLimiter<IpAddr>,
}

impl Mailer {
    /// The mailer `--smtp-url` asks for; `None` when it is empty (no reminders are offered).
    pub fn from_config(config: &Config) -> Result<Option<Mailer>, MailError> {
        let url = config.smtp_url.trim();
        if url.is_empty() {
            return Ok(None);
        }
        let server = without_credentials(url);
        let origin = config.public_origin.trim().trim_end_matches('/').to_string();
        if origin.is_empty() {
            return Err(MailError::Config(
                "--smtp-url needs --public-origin: the links in the mails lead to the site".into(),
            ));
        }
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| MailError::Config(format!("--smtp-url {server}: {}", send_error(&e))))?
            .timeout(Some(SMTP_TIMEOUT))
            .build();
        let from = if config.mail_from.trim().is_empty() {
            format!("EvR Online <noreply@{}>", host_of(&origin))
        } else {
            config.mail_from.trim().to_string()
        };
        let from = Mailbox::from_str(&from)
            .map_err(|e| MailError::Config(format!("--mail-from {from:?} is not a sender: {e}")))?;
        let per_hour = NonZeroU32::new(REQUESTS_PER_CLIENT_PER_HOUR).unwrap_or(NonZeroU32::MIN);
        tracing::info!(smtp = %server, "reminders by email are on");
        Ok(Some(Mailer {
            transport,
            from,
            origin,
            server,
            client_limiter: RateLimiter::keyed(Quota::per_hour(per_hour)),
        }))
    }

    /// `path` on the site (`/r/CODE`, `/mail/…`).
    pub(crate) fn link(&self, path: &str) -> String {
        format!("{}{path}", self.origin)
    }

    /// Sends `message` and waits for the SMTP server's acceptance.
    pub(crate) async fn deliver(&self, message: Message) -> Result<(), MailError> {
        self.transport
            .send(message)
            .await
            .map(|_| ())
            .map_err(|e| MailError::Send(send_error(&e)))
    }

    /// A new `Message-ID` on the site's own host (the default one names the machine the server
    /// runs on), unique by 128 random bits.
    pub(crate) fn message_id(&self) -> Result<String, MailError> {
        let unique = crate::secrets::new_token().map_err(|e| MailError::Build(format!("no randomness: {e}")))?;
        Ok(format!("<{unique}@{}>", host_of(&self.origin)))
    }

    /// The sender's mailbox.
    pub(crate) fn from(&self) -> &Mailbox {
        &self.from
    }

    /// Where mail goes, for the log.
    pub fn server(&self) -> &str {
        &self.server
    }
}

/// An SMTP failure by kind and reply code: never the server's words, which may quote an address.
fn send_error(e: &lettre::transport::smtp::Error) -> String {
    let kind = if e.is_permanent() {
        "refused (permanent)"
    } else if e.is_transient() {
        "refused (transient)"
    } else if e.is_timeout() {
        "no answer in time"
    } else if e.is_tls() {
        "TLS failed"
    } else if e.is_client() {
        "a bad setting"
    } else {
        "the connection failed"
    };
    match e.status() {
        Some(code) => format!("{kind}, reply {code}"),
        None => kind.to_string(),
    }
}

/// `scheme://host:port` of an SMTP URL, without `user:password@` or anything after the host.
fn without_credentials(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("?", url));
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    format!("{scheme}://{host}")
}

/// The masked form a page may show: the local part's first character, then `…@domain`.
pub(crate) fn hint(email: &str) -> String {
    let (local, domain) = email.rsplit_once('@').unwrap_or((email, ""));
    let first: String = local.chars().take(1).collect();
    format!("{first}…@{domain}")
}

/// Runs `f` on the store's addresses off the async threads.
pub(crate) async fn on_store<T: Send + 'static>(
    store: &std::sync::Arc<dyn evr_store::Store>,
    f: impl FnOnce(&dyn evr_store::MailStore) -> Result<T, evr_store::StoreError> + Send + 'static,
) -> Result<T, MailError> {
    let store = store.clone();
    tokio::task::spawn_blocking(move || match store.mail() {
        Some(mail) => f(mail).map_err(MailError::Store),
        None => Err(MailError::Config("this store keeps no addresses".into())),
    })
    .await
    .map_err(|e| MailError::Task(e.to_string()))?
}

/// The host of the public origin `origin` (`https://evr.example:8443` → `evr.example`).
fn host_of(origin: &str) -> &str {
    origin
        .split_once("://")
        .map_or(origin, |(_, rest)| rest)
        .split([':', '/'])
        .next()
        .unwrap_or_default()
}

/// Milliseconds since 1970 (UTC).
pub(crate) fn unix_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A room code as people read it: `KJCH-M97E` (older 10-character codes as they are).
pub(crate) fn shown_code(code: &str) -> String {
    if code.len() == crate::secrets::CODE_LEN {
        format!("{}-{}", &code[..4], &code[4..])
    } else {
        code.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_masked() {
        assert_eq!(hint("ana.b@example.org"), "a…@example.org");
        assert_eq!(hint("x@example.org"), "x…@example.org");
    }

    #[test]
    fn the_smtp_url_is_logged_without_credentials() {
        assert_eq!(
            without_credentials("smtps://user:s3cret@mail.example.org:465/hello?tls=required"),
            "smtps://mail.example.org:465"
        );
        assert_eq!(without_credentials("smtp://127.0.0.1:2525"), "smtp://127.0.0.1:2525");
    }
}
