//! The deadline sweeper, on every server: correspondence rooms whose deadline or reminder is due
//! while no server acts on them (nobody connected, the server that held them restarted or died)
//! are found in the store by their wake-up (`Store::due_rooms`) and brought into memory here
//! (`App::room`, which claims them: another server that still holds one lets it go, and its
//! writes are fenced), then nudged (`Command::Deadlines`) to act. A room acts only under its
//! claim, so exactly one server times a game out or records a reminder; a fenced write announces
//! nothing.
//!
//! A room held by a running server wakes itself at its wake-up; the sweeper takes only rooms
//! overdue by two of its periods, so that it does not take rooms from a server that is about to
//! act on them. A room asleep in this server's memory has no timer: the nudge wakes it.

use std::sync::Arc;

use crate::app::App;
use crate::room::Command;

/// The most rooms one sweep brings in.
const BATCH: usize = 200;

pub async fn sweep(app: Arc<App>) {
    let every = app.config.deadline_sweep();
    let grace = i64::try_from(2 * every.as_millis()).unwrap_or(i64::MAX);
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = app.shutdown.cancelled() => return,
            _ = tick.tick() => {}
        }
        // a draining server is leaving: it takes no room over (the others will)
        if app.draining.is_cancelled() {
            continue;
        }
        let store = app.store.clone();
        let before = crate::room::now_ms().saturating_sub(grace);
        let due = match tokio::task::spawn_blocking(move || store.due_rooms(before, BATCH)).await {
            Ok(Ok(due)) => due,
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "cannot read the rooms due");
                continue;
            }
            Err(e) => {
                tracing::warn!(error = %e, "the sweep's read stopped");
                continue;
            }
        };
        for code in due {
            if app.shutdown.is_cancelled() {
                return;
            }
            match app.room(&code).await {
                Ok(Some(room)) => {
                    // a full mailbox is a busy room: its own timer acts
                    let _ = room.tx.try_send(Command::Deadlines);
                }
                Ok(None) => {}
                Err(e) => tracing::warn!(room = %code, error = %e, "cannot bring a room due into memory"),
            }
        }
    }
}
