//! A rated room's ratings (`RoomOptions::rated`, made only by a challenge both accounts agreed
//! was rated): the write that ends one of its games carries a [`RatedEnd`], so the store rates
//! both players in the same transaction as the result (`evr_store::ratings`); and the players'
//! ratings shown at the table, read from the store when the room is first joined and again when a
//! game ends, kept with the game they belong to.

use evr_protocol::SeatRating;
use evr_rules::{ByFaction, Faction};
use evr_store::{RatedEnd, Store, StoreError};

use super::Room;
use super::names::stored_seat;
use super::seat::{BySeat, Seat};

/// The seats' ratings as last read, and the game they were read after.
pub(super) struct RoomRatings {
    game_no: u32,
    by_seat: BySeat<Option<SeatRating>>,
}

impl Room {
    /// What the write ending the current game with `winner` carries in a rated room (`None`
    /// elsewhere). A game both sides' time ended is not rated: its caller asks for no `RatedEnd`.
    pub(super) fn rated_end(&self, winner: Option<Faction>) -> Option<RatedEnd> {
        self.options.rated.then(|| RatedEnd {
            winner,
            advantage: evr_ratings::MEASURED.advantage(),
            at_ms: super::deadline::now_ms(),
        })
    }

    /// The players' ratings as the room's facts show them, `[rebel, imperial]`: `None` in an
    /// unrated room; a game's change only with the game it belongs to.
    pub(super) fn ratings_view(&self) -> Option<ByFaction<Option<SeatRating>>> {
        if !self.options.rated {
            return None;
        }
        let read = self.ratings.as_ref();
        Some(ByFaction::from_fn(|f| {
            let read = read?;
            let mut rating = read.by_seat[self.current.seat_of(f)]?;
            if read.game_no != self.current.game_no {
                rating.change = None;
            }
            Some(rating)
        }))
    }

    /// Reads the seats' ratings again (a rated room only). A failed read is logged and leaves the
    /// ratings as they were: they are shown, never decided, here.
    pub(super) async fn refresh_ratings(&mut self) {
        if !self.options.rated {
            return;
        }
        let (store, code, game_no) = (self.store.clone(), self.code.clone(), self.current.game_no);
        match tokio::task::spawn_blocking(move || read(store.as_ref(), &code, game_no)).await {
            Ok(Ok(by_seat)) => self.ratings = Some(RoomRatings { game_no, by_seat }),
            Ok(Err(e)) => tracing::warn!(room = %self.code, error = %e, "the ratings could not be read"),
            Err(e) => tracing::warn!(room = %self.code, error = %e, "the ratings' read stopped"),
        }
    }
}

/// Each seat's player's rating today and what game `game_no` changed, if it was rated.
fn read(store: &dyn Store, code: &str, game_no: u32) -> Result<BySeat<Option<SeatRating>>, StoreError> {
    let mut by_seat = BySeat::new(None, None);
    let (Some(accounts), Some(ratings)) = (store.accounts(), store.ratings()) else {
        return Ok(by_seat);
    };
    let now = super::deadline::now_ms();
    let game = ratings.rated_game(code, game_no)?;
    for seat in Seat::BOTH {
        let Some(account) = accounts.seat_account(code, stored_seat(seat))? else {
            continue;
        };
        let today = ratings
            .rating(&account)?
            .map_or(evr_ratings::START, |row| row.today(now));
        let change = game.as_ref().and_then(|g| {
            let side = if g.accounts.rebel == account {
                Faction::Rebel
            } else if g.accounts.imperial == account {
                Faction::Imperial
            } else {
                return None;
            };
            Some(g.after[side].rating.round() as i32 - g.before[side].rating.round() as i32)
        });
        by_seat[seat] = Some(SeatRating {
            now: crate::ratings::shown(&today),
            change,
        });
    }
    Ok(by_seat)
}
