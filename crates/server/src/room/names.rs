//! Players' display names in the room actor: a seat sets or clears its name, the name is stored,
//! then everyone is told (`room.names`, by the side each seat plays in the current game). What a
//! name may be is `crate::names`.

use evr_protocol::ErrorCode;

use super::seat::Seat;
use super::{ConnId, Room};
use evr_store::{StoredSeat, WriteOp};

/// The store's name of a room's seat.
pub(super) fn stored_seat(seat: Seat) -> StoredSeat {
    match seat {
        Seat::Creator => StoredSeat::Creator,
        Seat::Guest => StoredSeat::Guest,
    }
}

impl Room {
    /// The seat on `conn` is now called `name` (`None`: shown as its side).
    pub(super) async fn set_name(&mut self, conn: ConnId, name: Option<String>) {
        let Some(seat) = self.seat_or_refuse(conn, "spectators write their name with each chat message") else {
            return;
        };
        let name = match name {
            None => None,
            Some(raw) => match crate::names::display_name(&raw) {
                Some(n) => Some(n),
                None => return self.error(conn, ErrorCode::BadName, crate::names::REFUSED, None),
            },
        };
        if self.names[seat] == name {
            return self.broadcast_room_info();
        }
        let write = self.submit(WriteOp::SetName {
            code: self.code.clone(),
            seat: stored_seat(seat),
            name: name.clone(),
        });
        if write.await.is_err() {
            return self.error(conn, ErrorCode::StorageFailed, "the name could not be stored", None);
        }
        self.names[seat] = name;
        self.broadcast_room_info();
    }
}
