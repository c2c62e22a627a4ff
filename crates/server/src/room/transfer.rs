//! A seat moved to another device. The player asks for a link (`issue_transfer`, with their seat
//! token); the link's secret, in its fragment, seats the device that opens it once, within
//! `TRANSFER_LINK_SECS`, and a newer link replaces an older one. The device gets a token of its
//! own, so both devices keep the seat (each connection of a seat sees the same view) — a player
//! who moves from a laptop to a phone need not close the laptop first, and neither is thrown out
//! by the other. The link is stored before it is handed out, and used up in the same write that
//! seats the device: a restart loses neither, and a link never seats two devices.

use evr_protocol::{ErrorCode, MAX_SEAT_DEVICES, TRANSFER_LINK_SECS};

use super::names::stored_seat;
use super::seat::Seat;
use super::{Joined, Room, Transfer};
use crate::metrics_names as m;
use crate::secrets;
use evr_store::WriteOp;

/// A seat's transfer link that has not been used.
#[derive(Clone, Debug)]
pub(super) struct PendingTransfer {
    pub(super) secret_hash: Vec<u8>,
    /// Milliseconds since 1970 (UTC).
    pub(super) expires_at: i64,
}

impl Room {
    /// A new link that moves the seat of `token` to another device.
    pub(super) async fn issue_transfer(&mut self, token: &str) -> Result<Transfer, ErrorCode> {
        let seat = self.seat_of_token(token).ok_or(ErrorCode::BadToken)?;
        if self.computer.is_some() && seat == Seat::Guest {
            return Err(ErrorCode::BadToken);
        }
        // the seat's first device and those it was moved to
        if 1 + self.devices[seat].len() >= MAX_SEAT_DEVICES {
            return Err(ErrorCode::TooManyDevices);
        }
        let secret = secrets::new_token().map_err(|_| ErrorCode::StorageFailed)?;
        let pending = PendingTransfer {
            secret_hash: secrets::hash_token(&secret),
            expires_at: super::now_ms() + 1000 * TRANSFER_LINK_SECS as i64,
        };
        let write = self.submit(WriteOp::IssueTransfer {
            code: self.code.clone(),
            seat: stored_seat(seat),
            secret_hash: pending.secret_hash.clone(),
            expires_at: pending.expires_at,
        });
        if write.await.is_err() {
            return Err(ErrorCode::StorageFailed);
        }
        let expires_at = pending.expires_at;
        self.transfers[seat] = Some(pending);
        Ok(Transfer { secret, expires_at })
    }

    /// The device holding a transfer link's `secret` takes that link's seat, with a token of its own.
    pub(super) async fn take_seat(&mut self, secret: &str) -> Result<Joined, ErrorCode> {
        let now = super::now_ms();
        let seat = Seat::BOTH
            .into_iter()
            .find(|s| {
                self.transfers[*s]
                    .as_ref()
                    .is_some_and(|t| t.expires_at > now && secrets::token_matches(secret, &t.secret_hash))
            })
            .ok_or(ErrorCode::TransferLinkInvalid)?;
        if 1 + self.devices[seat].len() >= MAX_SEAT_DEVICES {
            return Err(ErrorCode::TooManyDevices);
        }
        let token = secrets::new_token().map_err(|_| ErrorCode::StorageFailed)?;
        let token_hash = secrets::hash_token(&token);
        let write = self.submit(WriteOp::TakeSeat {
            code: self.code.clone(),
            seat: stored_seat(seat),
            secret_hash: secrets::hash_token(secret),
            token_hash: token_hash.clone(),
            added_at: now / 1000,
        });
        if write.await.is_err() {
            return Err(ErrorCode::StorageFailed);
        }
        self.transfers[seat] = None;
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
}
