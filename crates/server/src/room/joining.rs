//! The guest taking the free seat: with the invite link's secret, or with the join code a friend
//! types beside the room code. The room code alone lets people watch; it never takes a seat.
//!
//! A join code is 6 digits: short enough to read out, so guessing is bounded twice — here, a room
//! takes at most `MAX_WRONG_JOIN_CODES` wrong codes in the life of its code (counted in the store,
//! so a restart or another server does not reset it), after which the code stops working; and per
//! address in `crate::seat_api`. The creator can make a new invite link and join code while the
//! seat is free (the old ones stop working).

use std::time::Instant;

use evr_protocol::{ErrorCode, JOIN_CODE_DIGITS, MAX_WRONG_JOIN_CODES};

use super::seat::Seat;
use super::{Invite, JoinBy, Joined, Room};
use crate::secrets;
use evr_store::WriteOp;

/// A room's join code, as the room keeps it.
#[derive(Clone, Debug)]
pub(super) struct JoinCode {
    /// SHA-256 of the room code and the join code (`hash_of`).
    pub(super) hash: Vec<u8>,
    /// Wrong codes tried since it was made.
    pub(super) failures: u32,
}

impl JoinCode {
    pub(super) fn new(room: &str, join_code: &str) -> JoinCode {
        JoinCode {
            hash: hash_of(room, join_code),
            failures: 0,
        }
    }
}

/// What the store keeps of a join code. Bound to its room, so one code's hash says nothing of the
/// same digits in another room. (Six digits hash to nothing a reader of the database could not
/// try in full: the code matters only while a seat is free, and the count of wrong codes is what
/// guards it.)
fn hash_of(room: &str, join_code: &str) -> Vec<u8> {
    secrets::hash_token(&format!("{room}:{join_code}"))
}

/// A new join code: `JOIN_CODE_DIGITS` digits from the operating system's randomness.
pub fn new_join_code() -> Result<String, std::io::Error> {
    // 2^64 is so much larger than 10^6 that taking the remainder leaves no bias worth a thought
    let n = u64::from_le_bytes(secrets::random_bytes::<8>()?) % 10u64.pow(JOIN_CODE_DIGITS as u32);
    Ok(format!("{n:0width$}", width = JOIN_CODE_DIGITS))
}

/// A typed join code as the room compares it: digits only (a person may type spaces or a dash).
fn typed_digits(typed: &str) -> String {
    typed.chars().filter(char::is_ascii_digit).collect()
}

impl Room {
    /// The guest takes the free seat under `name` (checked by the caller).
    pub(super) async fn join(&mut self, by: JoinBy, name: Option<String>) -> Result<Joined, ErrorCode> {
        match &by {
            JoinBy::Invite(secret) => {
                if !secrets::token_matches(secret, &self.invite_hash) {
                    return Err(ErrorCode::BadToken);
                }
            }
            JoinBy::JoinCode(typed) => self.check_join_code(typed).await?,
        }
        if self.seat_hashes[Seat::Guest].is_some() {
            return Err(ErrorCode::SeatTaken);
        }
        let token = secrets::new_token().map_err(|_| ErrorCode::StorageFailed)?;
        let hash = secrets::hash_token(&token);
        let write = self.submit(WriteOp::SetGuest {
            code: self.code.clone(),
            guest_hash: hash.clone(),
            guest_name: name.clone(),
        });
        if write.await.is_err() {
            return Err(ErrorCode::StorageFailed);
        }
        self.seat_hashes[Seat::Guest] = Some(hash);
        self.names[Seat::Guest] = name;
        // The guest has not connected yet: their clock for claims starts now.
        self.away_since[Seat::Guest] = Some(Instant::now());
        self.broadcast_room_info();
        self.broadcast_presence();
        self.start_clock();
        self.store_deadlines().await;
        Ok(Joined {
            faction: self.current.faction_of(Seat::Guest),
            token,
        })
    }

    /// A typed join code: refused once the room took its share of wrong ones; a wrong one is
    /// counted in the store before it is answered (so no restart forgets it).
    async fn check_join_code(&mut self, typed: &str) -> Result<(), ErrorCode> {
        if self.seat_hashes[Seat::Guest].is_some() {
            // nothing to guess: the seat is taken (which the room's status tells anyone)
            return Err(ErrorCode::SeatTaken);
        }
        let Some(join_code) = &self.join_code else {
            return Err(ErrorCode::BadJoinCode);
        };
        if join_code.failures >= MAX_WRONG_JOIN_CODES {
            return Err(ErrorCode::TooManyJoinAttempts);
        }
        if secrets::token_matches(&format!("{}:{}", self.code, typed_digits(typed)), &join_code.hash) {
            return Ok(());
        }
        let write = self.submit(WriteOp::WrongJoinCode {
            code: self.code.clone(),
        });
        if write.await.is_err() {
            return Err(ErrorCode::StorageFailed);
        }
        if let Some(j) = &mut self.join_code {
            j.failures += 1;
        }
        metrics::counter!(crate::metrics_names::WRONG_JOIN_CODES).increment(1);
        Err(ErrorCode::BadJoinCode)
    }

    /// The creator (their `token`) gets a new invite secret and join code for the free seat; the
    /// old ones stop working and the count of wrong codes starts again.
    pub(super) async fn new_invite(&mut self, token: &str) -> Result<Invite, ErrorCode> {
        match self.seat_of_token(token) {
            Some(Seat::Creator) => {}
            Some(Seat::Guest) => return Err(ErrorCode::NotRoomCreator),
            None => return Err(ErrorCode::BadToken),
        }
        if self.seat_hashes[Seat::Guest].is_some() {
            return Err(ErrorCode::SeatTaken);
        }
        let failed = |_| ErrorCode::StorageFailed;
        let invite = Invite {
            secret: secrets::new_token().map_err(failed)?,
            join_code: new_join_code().map_err(failed)?,
        };
        let join_code = JoinCode::new(&self.code, &invite.join_code);
        let invite_hash = secrets::hash_token(&invite.secret);
        let write = self.submit(WriteOp::NewInvite {
            code: self.code.clone(),
            invite_hash: invite_hash.clone(),
            join_code_hash: join_code.hash.clone(),
        });
        if write.await.is_err() {
            return Err(ErrorCode::StorageFailed);
        }
        self.invite_hash = invite_hash;
        self.join_code = Some(join_code);
        Ok(invite)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_codes_are_six_digits_and_read_as_typed() {
        let a = new_join_code().unwrap();
        assert_eq!(a.len(), JOIN_CODE_DIGITS);
        assert!(a.chars().all(|c| c.is_ascii_digit()), "{a}");
        assert_eq!(typed_digits(" 012-345 "), "012345");
        let code = JoinCode::new("KJCHM97E", "012345");
        assert!(secrets::token_matches("KJCHM97E:012345", &code.hash));
        assert_ne!(code.hash, JoinCode::new("KJCHM97F", "012345").hash, "bound to its room");
    }
}
