//! A player's agreement to show everything of a finished game in its replay: both players' secret
//! choices, hands and deck orders. Both must agree before the replay file is served
//! (`crate::replay`); the agreement is stored before anyone is told of it. The computer opponent
//! agrees as soon as the game is over (it has nothing to hide), and a room created to reveal every
//! game agreed for both when it was made: `crate::replay::agreed` is the one rule.

use evr_protocol::ErrorCode;
use evr_rules::ByFaction;

use super::{ConnId, Room};
use evr_store::WriteOp;

impl Room {
    /// The seat on `conn` agrees to reveal the finished current game.
    pub(super) async fn reveal_replay(&mut self, conn: ConnId) {
        let Some(seat) = self.seat_or_refuse(conn, "only the players decide what their game reveals") else {
            return;
        };
        if !self.current.is_over() {
            return self.error(
                conn,
                ErrorCode::GameNotOver,
                "a game being played reveals nothing: agree once it is over",
                None,
            );
        }
        let faction = self.current.faction_of(seat);
        if self.reveal_agreed()[faction] {
            return; // agreed already (or the room reveals every game): nothing changes
        }
        let write = self.submit(WriteOp::AgreeToReveal {
            code: self.code.clone(),
            game_no: self.current.game_no,
            faction,
        });
        if write.await.is_err() {
            return self.error(
                conn,
                ErrorCode::StorageFailed,
                "the agreement could not be stored",
                None,
            );
        }
        self.current.reveal[faction] = true;
        self.broadcast_room_info();
    }

    /// Which sides agreed to reveal the current game, as everyone is told (`room.reveal_agreed`).
    pub(super) fn reveal_agreed(&self) -> ByFaction<bool> {
        crate::replay::agreed(
            &self.options,
            self.current.creator_faction,
            self.current.reveal,
            self.current.is_over(),
        )
    }
}
