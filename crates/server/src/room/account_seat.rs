//! What an account asks of a room it keeps a seat of (`accounts/seats.rs` and `accounts/data.rs`
//! decide whose seat it is from the store): a device signed in to the account takes the seat with
//! a token of its own, as a device a transfer link seats does; and a deleted account's name leaves
//! the seat.

use evr_protocol::{ErrorCode, MAX_SEAT_DEVICES};
use evr_store::{StoredSeat, WriteOp};

use super::names::stored_seat;
use super::seat::Seat;
use super::{Joined, Room};
use crate::metrics_names as m;
use crate::secrets;

fn seat_of(stored: StoredSeat) -> Seat {
    match stored {
        StoredSeat::Creator => Seat::Creator,
        StoredSeat::Guest => Seat::Guest,
    }
}

impl Room {
    /// A new token for `seat` on a device of the account that keeps it.
    pub(super) async fn account_device(&mut self, seat: StoredSeat) -> Result<Joined, ErrorCode> {
        let seat = seat_of(seat);
        if self.computer.is_some() && seat == Seat::Guest {
            return Err(ErrorCode::SeatNotKept);
        }
        if 1 + self.devices[seat].len() >= MAX_SEAT_DEVICES {
            return Err(ErrorCode::TooManyDevices);
        }
        let now = super::now_ms();
        let token = secrets::new_token().map_err(|_| ErrorCode::StorageFailed)?;
        let token_hash = secrets::hash_token(&token);
        let write = self.submit(WriteOp::AddDevice {
            code: self.code.clone(),
            seat: stored_seat(seat),
            token_hash: token_hash.clone(),
            added_at: now / 1000,
        });
        if write.await.is_err() {
            return Err(ErrorCode::StorageFailed);
        }
        self.devices[seat].push(super::devices::MovedDevice {
            hash: token_hash,
            added_at: now / 1000,
        });
        metrics::counter!(m::SEATS_MOVED).increment(1);
        Ok(Joined {
            faction: self.current.faction_of(seat),
            token,
        })
    }

    /// The seat's display name is cleared (its account was deleted): shown as its side from now on.
    pub(super) async fn erase_name(&mut self, seat: StoredSeat) -> Result<(), ErrorCode> {
        let seat = seat_of(seat);
        if self.names[seat].is_none() {
            return Ok(());
        }
        let write = self.submit(WriteOp::SetName {
            code: self.code.clone(),
            seat: stored_seat(seat),
            name: None,
        });
        if write.await.is_err() {
            return Err(ErrorCode::StorageFailed);
        }
        self.names[seat] = None;
        self.broadcast_room_info();
        Ok(())
    }
}
