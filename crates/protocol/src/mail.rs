//! Reminders by email (HTTP): whether this server sends them, a seat's address for them (given,
//! confirmed by a link in a first mail, forgotten on request) and what a seat may know of it —
//! only a masked hint, so that an address is never shown, not even to its own seat's other devices
//! in full. The mails' own links (`/mail/confirm/{secret}`, `/mail/unsubscribe/{secret}`) are pages
//! of the server, not of this API (proto/PROTOCOL.md).

use serde::{Deserialize, Serialize};

/// `GET` here for a [`MailStatus`] (200).
pub const MAIL_STATUS_PATH: &str = "/api/mail";

/// A seat's reminders in room `code`, with its seat token: `PUT` a [`SetReminders`] (202,
/// [`RemindersSet`]), `GET` its [`ReminderSettings`] (200), `DELETE` to forget the address (204).
pub fn reminders_path(code: &str) -> String {
    format!("/api/rooms/{code}/reminders")
}

/// Longest address accepted, in bytes (RFC 5321's limit on a path).
pub const MAX_EMAIL_BYTES: usize = 254;

/// Answer of `GET /api/mail`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MailStatus {
    /// Whether this server sends reminders (`--smtp-url` is set); when false, the page offers none.
    pub enabled: bool,
}

/// The language of a seat's mails.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum MailLanguage {
    #[serde(rename = "en")]
    En,
    #[serde(rename = "zh-Hant")]
    ZhHant,
    #[serde(rename = "ja")]
    Ja,
}

impl MailLanguage {
    pub fn as_str(self) -> &'static str {
        match self {
            MailLanguage::En => "en",
            MailLanguage::ZhHant => "zh-Hant",
            MailLanguage::Ja => "ja",
        }
    }

    /// The language named `tag` (`en`, `zh-Hant`, `ja`); English for anything else.
    pub fn from_tag(tag: &str) -> MailLanguage {
        match tag {
            "zh-Hant" => MailLanguage::ZhHant,
            "ja" => MailLanguage::Ja,
            _ => MailLanguage::En,
        }
    }
}

/// Body of `PUT /api/rooms/{code}/reminders`: where the seat's reminders go, and in which
/// language. A confirmation mail goes there first; nothing else is sent before its link is used.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct SetReminders {
    pub email: String,
    pub language: MailLanguage,
}

/// What a `PUT /api/rooms/{code}/reminders` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum RemindersStatus {
    /// A confirmation mail was sent: reminders start once its link is used.
    ConfirmationSent,
    /// This address was confirmed for the seat already (its language is updated).
    AlreadyConfirmed,
}

/// Answer of `PUT /api/rooms/{code}/reminders` (202).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RemindersSet {
    pub status: RemindersStatus,
}

/// Answer of `GET /api/rooms/{code}/reminders`: the seat's address masked (`a…@example.org`), or
/// null when it has none, and whether it is confirmed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ReminderSettings {
    pub email_hint: Option<String>,
    pub confirmed: bool,
}
