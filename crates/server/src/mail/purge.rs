//! Addresses are deleted 7 days after their room's game is over. The store does not know the
//! rules, and a game won by the rules leaves no mark in it, so a periodic sweep (every node, every
//! [`PURGE_EVERY`]; each step is idempotent) replays the latest game of each room that has an
//! address, marks the room over the first time it sees it over (and clears the mark when a rematch
//! began), then has the store delete what is due: addresses of games over for 7 days, unconfirmed
//! addresses whose link expired, and the day-old log of confirmation mails. An address therefore
//! goes between 7 days and 7 days + `PURGE_EVERY` after the game's end.

use std::sync::Arc;
use std::time::Duration;

use evr_rules::Game;
use evr_store::{Purged, Store, StoredRoom};
use tokio_util::sync::CancellationToken;

use super::{MailError, on_store, unix_millis};

/// How often each node sweeps.
pub const PURGE_EVERY: Duration = Duration::from_secs(600);

/// Whether the latest game of `room` is over (a result stored, or the rules ended it).
fn game_over(room: &StoredRoom) -> bool {
    let Some(game) = &room.game else { return false };
    if game.result.is_some() {
        return true;
    }
    let Ok(mut engine) = Game::with_seed(room.options.mode, game.secret.game_seed()) else {
        return false;
    };
    for a in &game.actions {
        if engine.apply(a.seat, a.action).is_err() {
            tracing::error!(room = %room.code, seq = a.seq, "a stored action does not replay");
            return false;
        }
    }
    engine.is_over()
}

/// One sweep as of `now_ms` (ms since 1970): marks, then deletes. Tests give their own "now".
pub async fn sweep(store: &Arc<dyn Store>, now_ms: i64) -> Result<Purged, MailError> {
    if store.mail().is_none() {
        return Ok(Purged::default());
    }
    let rooms = on_store(store, |m| m.rooms_with_addresses()).await?;
    for (code, over_since) in rooms {
        let reader = store.clone();
        let lookup = code.clone();
        let room = tokio::task::spawn_blocking(move || reader.load_room(&lookup))
            .await
            .map_err(|e| MailError::Task(e.to_string()))??;
        let over = room.as_ref().is_some_and(game_over);
        if over != over_since.is_some() {
            on_store(store, move |m| m.set_over(&code, over, now_ms)).await?;
        }
    }
    let purged = on_store(store, move |m| m.purge(now_ms)).await?;
    if purged != Purged::default() {
        tracing::info!(
            after_game = purged.after_game,
            unconfirmed = purged.unconfirmed,
            "reminder addresses deleted"
        );
    }
    Ok(purged)
}

/// Sweeps every [`PURGE_EVERY`] until `shutdown`.
pub async fn sweep_periodically(store: Arc<dyn Store>, shutdown: CancellationToken) {
    let mut every = tokio::time::interval(PURGE_EVERY);
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = every.tick() => {
                if let Err(e) = sweep(&store, unix_millis()).await {
                    tracing::warn!(error = %e, "the sweep of reminder addresses failed; it runs again later");
                }
            }
        }
    }
}
