//! [`MailNotifier`]: a room's reminder, by email. It finds the seat that plays the reminder's side
//! in that game (sides swap at each rematch; addresses belong to seats), sends only to a confirmed
//! address, in its language, with a new unsubscribe link, and says nothing of the game but whose
//! turn it is and by when. `send` spawns the work: a room never waits for mail. A reminder that
//! cannot be sent is logged by room, seat and the failure's kind, never with the address.

use std::sync::Arc;

use evr_protocol::MailLanguage;
use evr_store::{Store, StoredSeat};
use tokio_util::task::TaskTracker;

use super::texts::{self, ReminderText};
use super::{MailError, Mailer, message, on_store, shown_code, unix_millis};
use crate::notify::{Notifier, Reminder, ReminderKind};
use crate::secrets;

/// What became of one reminder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// Taken by the SMTP server.
    Sent,
    /// The seat has no address, or not a confirmed one: nothing was sent.
    NoConfirmedAddress,
    /// The room or its game is not stored (nothing was sent).
    NoSuchGame,
}

/// Sends the rooms' reminders by email.
pub struct MailNotifier {
    mailer: Arc<Mailer>,
    store: Arc<dyn Store>,
    /// The sends in flight, so that shutdown can wait for them (`App::tracker`).
    tracker: TaskTracker,
}

impl MailNotifier {
    pub fn new(mailer: Arc<Mailer>, store: Arc<dyn Store>, tracker: TaskTracker) -> MailNotifier {
        MailNotifier { mailer, store, tracker }
    }

    /// Sends `reminder` and waits for the SMTP server to take it (what `send` spawns; tests call it
    /// to know when a reminder was dealt with).
    pub async fn deliver(&self, reminder: &Reminder) -> Result<Delivery, MailError> {
        let (code, game_no, store) = (reminder.room.clone(), reminder.game_no, self.store.clone());
        let game = tokio::task::spawn_blocking(move || store.load_game(&code, game_no))
            .await
            .map_err(|e| MailError::Task(e.to_string()))??;
        let Some(game) = game else {
            return Ok(Delivery::NoSuchGame);
        };
        let seat = if reminder.side == game.creator_faction {
            StoredSeat::Creator
        } else {
            StoredSeat::Guest
        };
        let code = reminder.room.clone();
        let address = on_store(&self.store, move |m| m.seat_address(&code, seat)).await?;
        let Some(address) = address.filter(|a| a.confirmed) else {
            return Ok(Delivery::NoConfirmedAddress);
        };
        let unsubscribe = secrets::new_token().map_err(|e| MailError::Task(e.to_string()))?;
        let hash = secrets::hash_token(&unsubscribe);
        let code = reminder.room.clone();
        on_store(&self.store, move |m| m.add_unsubscribe(&code, seat, &hash)).await?;
        let lang = MailLanguage::from_tag(&address.language);
        let opponent = match &reminder.opponent_name {
            Some(name) => texts::quoted(lang, name),
            None => texts::side(lang, reminder.side.opponent()).to_string(),
        };
        let unsubscribe_link = self.mailer.link(&format!("/mail/unsubscribe/{unsubscribe}"));
        let (subject, body) = texts::reminder(
            lang,
            &ReminderText {
                kind: reminder.kind,
                room: &shown_code(&reminder.room),
                opponent: &opponent,
                deadline_utc: &utc(reminder.deadline_unix_ms),
                left: &texts::duration(lang, reminder.deadline_unix_ms - unix_millis()),
                room_link: &self.mailer.link(&format!("/r/{}", reminder.room)),
                unsubscribe: &unsubscribe_link,
            },
        );
        let mail = message::build(&self.mailer, &address.email, subject, body, &unsubscribe_link)?;
        self.mailer.deliver(mail).await?;
        Ok(Delivery::Sent)
    }
}

/// `2026-05-12 14:03 UTC`.
fn utc(ms: i64) -> String {
    let format = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
    time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000))
        .ok()
        .and_then(|t| t.format(&format).ok())
        .unwrap_or_default()
}

impl Notifier for MailNotifier {
    fn enabled(&self) -> bool {
        true
    }

    fn send(&self, reminder: Reminder) {
        let notifier = MailNotifier {
            mailer: self.mailer.clone(),
            store: self.store.clone(),
            tracker: self.tracker.clone(),
        };
        self.tracker.spawn(async move {
            let kind = match reminder.kind {
                ReminderKind::YourTurn => "your_turn",
                ReminderKind::TimeRunningOut => "time_running_out",
            };
            match notifier.deliver(&reminder).await {
                Ok(delivery) => tracing::info!(room = %reminder.room, side = ?reminder.side, kind, ?delivery, "reminder"),
                Err(e) => tracing::warn!(room = %reminder.room, side = ?reminder.side, kind, error = %e, "a reminder was not sent"),
            }
        });
    }
}
