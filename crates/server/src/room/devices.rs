//! A seat's devices: the one holding the seat's first token and those it was moved to
//! (`transfer.rs`). A player lists them, and signs every other device out — a seat token that
//! leaked (a shared computer, a link forwarded by mistake) then stops working for good. The
//! asking device's token becomes the seat's only one in the store before anything else happens:
//! the other devices' open connections are closed with `bad_token`, and their next request is
//! refused, on this node or any other that loads the room.

use evr_protocol::{ErrorCode, SeatDevice, SeatDevices};

use super::names::stored_seat;
use super::seat::Seat;
use super::{ConnId, Room};
use crate::metrics_names as m;
use crate::secrets;
use evr_store::WriteOp;

/// A device a seat was moved to.
#[derive(Clone, Debug)]
pub(super) struct MovedDevice {
    /// Its own token's hash.
    pub(super) hash: Vec<u8>,
    /// Seconds since 1970 (UTC).
    pub(super) added_at: i64,
}

impl Room {
    /// The seat of `token` and the hash it matched: its first token's or a moved device's.
    pub(super) fn device_of_token(&self, token: &str) -> Option<(Seat, Vec<u8>)> {
        Seat::BOTH.into_iter().find_map(|p| {
            let first = self.seat_hashes[p].iter();
            let moved = self.devices[p].iter().map(|d| &d.hash);
            first
                .chain(moved)
                .find(|h| secrets::token_matches(token, h))
                .map(|h| (p, h.clone()))
        })
    }

    /// The seat of a player's `token`; the computer's seat has no devices of anyone's.
    fn players_device(&self, token: &str) -> Result<(Seat, Vec<u8>), ErrorCode> {
        match self.device_of_token(token) {
            Some((Seat::Guest, _)) if self.computer.is_some() => Err(ErrorCode::BadToken),
            Some(found) => Ok(found),
            None => Err(ErrorCode::BadToken),
        }
    }

    /// Whether a connection of the device whose token hashes to `hash` is open.
    fn device_connected(&self, hash: &[u8]) -> bool {
        self.conns.values().any(|c| c.device.as_deref() == Some(hash))
    }

    /// The devices of the seat of `token`.
    pub(super) fn list_devices(&self, token: &str) -> Result<SeatDevices, ErrorCode> {
        let (seat, mine) = self.players_device(token)?;
        let first = self.seat_hashes[seat].iter().map(|h| (h, None));
        let moved = self.devices[seat].iter().map(|d| (&d.hash, Some(d.added_at)));
        let devices = first
            .chain(moved)
            .map(|(hash, added_at)| SeatDevice {
                this_device: *hash == mine,
                added_at,
                connected: self.device_connected(hash),
            })
            .collect();
        let now = super::now_ms();
        let link_expires_at = self.transfers[seat]
            .as_ref()
            .map(|t| t.expires_at)
            .filter(|at| *at > now);
        Ok(SeatDevices {
            devices,
            link_expires_at,
        })
    }

    /// Every device of the seat of `token` but this one is signed out; how many were.
    pub(super) async fn sign_out_others(&mut self, token: &str) -> Result<u32, ErrorCode> {
        let (seat, mine) = self.players_device(token)?;
        // (the first token's device and the moved ones, less this one)
        let others = self.devices[seat].len();
        let write = self.submit(WriteOp::KeepOneDevice {
            code: self.code.clone(),
            seat: stored_seat(seat),
            token_hash: mine.clone(),
        });
        if write.await.is_err() {
            return Err(ErrorCode::StorageFailed);
        }
        self.seat_hashes[seat] = Some(mine.clone());
        self.devices[seat].clear();
        self.transfers[seat] = None;
        let signed_out: Vec<ConnId> = self
            .conns
            .iter()
            .filter(|(_, c)| c.seat == Some(seat) && c.device.as_deref() != Some(mine.as_slice()))
            .map(|(id, _)| *id)
            .collect();
        for id in &signed_out {
            self.error(
                *id,
                ErrorCode::BadToken,
                "this device was signed out of its seat from another of the seat's devices",
                None,
            );
            // dropping its outbox closes the connection (after the message)
            self.remove_conn(*id);
        }
        if !signed_out.is_empty() {
            self.broadcast_presence();
        }
        metrics::counter!(m::SEAT_DEVICES_SIGNED_OUT).increment(others as u64);
        tracing::info!(room = %self.code, devices = others, "a seat signed its other devices out");
        Ok(others as u32)
    }
}
