//! Friend requests (by username, or from a room both accounts keep), their answers, removing,
//! blocking, and the friends list with each friend's presence.
//!
//! Presence is shown to friends only: it is computed for the `Friends` links of the asking account
//! and nowhere else (no route tells anything of an account that is not a friend). `online`: a
//! request of any of the friend's sessions within [`ONLINE_WITHIN_SECS`] (a session's last request
//! is written at most every 5 minutes, so 10 minutes does not miss one). `at_table`: one of the
//! rooms the friend kept in the last [`AT_TABLE_DAYS`] (their [`AT_TABLE_ROOMS_EACH`] latest, and
//! at most [`AT_TABLE_ROOMS`] over the whole list) has a current game that is not over, decided as
//! the archive decides it (the engine replays the stored game): a list a page asks for now and
//! then costs a bounded number of replays, however many rooms a friend ever kept.
//!
//! A request from an account the asked one blocked is answered as if it was sent and stored
//! nowhere, so that nobody learns they are blocked from it.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode};
use evr_protocol::{
    AddFriend, ErrorCode, Friend, FriendAdded, FriendList, FriendName, FriendStatus, MAX_FRIENDS, ONLINE_WITHIN_SECS,
    OtherAccount,
};
use evr_store::{AccountId, FriendRequested, LinkState, StoredSeat};

use super::{Stores, now_ms, signed_in, stored};
use crate::app::App;
use crate::refusal::{ApiBody, ApiError, json};

/// Rooms kept longer ago than this do not make a friend `at_table`.
const AT_TABLE_DAYS: i64 = 30;
/// The latest rooms of each friend looked at.
const AT_TABLE_ROOMS_EACH: usize = 3;
/// The rooms looked at for a whole list.
const AT_TABLE_ROOMS: usize = 40;
const DAY_MS: i64 = 24 * 3_600_000;

/// The account keeping the other seat of room `typed`, a seat of which `me` keeps: `seat_not_kept`
/// when `me` keeps none, `player_not_found` when no account keeps the other.
fn opponent_in_room(s: &Stores<'_>, typed: &str, me: &AccountId) -> Result<(AccountId, String), ApiError> {
    let not_kept = || ApiError::new(ErrorCode::SeatNotKept, "your account keeps no seat of this room");
    let code = crate::secrets::canonical_room_code(typed).ok_or_else(not_kept)?;
    let creator = s.ok(s.accounts.seat_account(&code, StoredSeat::Creator))?;
    let guest = s.ok(s.accounts.seat_account(&code, StoredSeat::Guest))?;
    let other = match (creator, guest) {
        (Some(c), other) if c == *me => other,
        (other, Some(g)) if g == *me => other,
        _ => return Err(not_kept()),
    };
    let none = || {
        ApiError::new(
            ErrorCode::PlayerNotFound,
            "no account keeps the other seat of this room",
        )
    };
    let other = other.filter(|o| o != me).ok_or_else(none)?;
    let username = s.username(&other)?.ok_or_else(none)?;
    Ok((other, username))
}

/// `POST /api/account/friends`.
pub async fn add(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: ApiBody,
) -> Result<Json<FriendAdded>, ApiError> {
    let me = signed_in(&app, addr.ip(), &headers).await?;
    let AddFriend { username, room } = json(&body)?;
    let (account, now) = (me.account, now_ms());
    let added = stored(&app, "cannot send the friend request", move |s| {
        let (other, username) = match (username, room) {
            (Some(name), None) => s.named(&name, &account)?,
            (None, Some(code)) => opponent_in_room(s, &code, &account)?,
            _ => {
                return Err(ApiError::new(ErrorCode::BadMessage, "give either a username or a room"));
            }
        };
        let requested = s.ok(s.friends.request_friend(&account, &other, now, MAX_FRIENDS))?;
        // the other's page is told of a request it received or of its own request now accepted;
        // of nothing else (a blocked asker's request is stored nowhere and told to nobody)
        let tell = matches!(requested, FriendRequested::Sent | FriendRequested::BecameFriends).then_some(other);
        let status = match requested {
            // (a blocked asker is told what any asker is told)
            FriendRequested::Sent | FriendRequested::Ignored => FriendStatus::Requested,
            FriendRequested::BecameFriends | FriendRequested::AlreadyFriends => FriendStatus::Friends,
            FriendRequested::AskerBlocked => {
                return Err(ApiError::new(
                    ErrorCode::PlayerBlocked,
                    "you blocked this player: unblock them first",
                ));
            }
            FriendRequested::TooMany => {
                return Err(ApiError::new(
                    ErrorCode::TooManyFriends,
                    format!("at most {MAX_FRIENDS} friends and requests"),
                ));
            }
        };
        Ok((FriendAdded { username, status }, tell))
    })
    .await?;
    let (added, tell) = added;
    if let Some(other) = tell {
        super::events::friends_changed(&app, other);
    }
    Ok(Json(added))
}

/// What the routes naming another account do with it.
#[derive(Clone, Copy)]
enum Change {
    Accept,
    Decline,
    Remove,
    Block,
    Unblock,
}

async fn change(
    app: Arc<App>,
    addr: SocketAddr,
    headers: HeaderMap,
    body: ApiBody,
    change: Change,
) -> Result<StatusCode, ApiError> {
    let me = signed_in(&app, addr.ip(), &headers).await?;
    let FriendName { username } = json(&body)?;
    let (account, now) = (me.account, now_ms());
    let (answer, other) = stored(&app, "cannot change the friends", move |s| {
        let (other, _) = s.named(&username, &account)?;
        let f = s.friends;
        let done = match change {
            Change::Accept => s.ok(f.accept_friend(&account, &other, now))?,
            Change::Decline => {
                // only a request received is declined here (a friendship is removed, not declined)
                let received = s
                    .ok(f.links(&account))?
                    .iter()
                    .any(|l| l.other == other && l.state == LinkState::RequestReceived);
                received && s.ok(f.remove_friend(&account, &other))?
            }
            Change::Remove => s.ok(f.remove_friend(&account, &other))?,
            Change::Block => {
                s.ok(f.block(&account, &other, now))?;
                true
            }
            Change::Unblock => s.ok(f.unblock(&account, &other))?,
        };
        match (done, change) {
            (true, _) => Ok((StatusCode::NO_CONTENT, other)),
            (false, Change::Accept | Change::Decline) => Err(ApiError::new(
                ErrorCode::NoFriendRequest,
                "this player sent you no friend request",
            )),
            (false, Change::Remove) => Err(ApiError::new(
                ErrorCode::NotFriends,
                "you are not friends and no request is between you",
            )),
            (false, _) => Err(ApiError::new(
                ErrorCode::PlayerNotFound,
                "you did not block this player",
            )),
        }
    })
    .await?;
    // the asker's page learns its request was accepted; a decline, a removal, a block or an
    // unblock is told to nobody (the other learns it when they next look, as before)
    if let Change::Accept = change {
        super::events::friends_changed(&app, other);
    }
    Ok(answer)
}

/// `POST /api/account/friends/accept`.
pub async fn accept(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: ApiBody,
) -> Result<StatusCode, ApiError> {
    change(app, addr, headers, body, Change::Accept).await
}

/// `POST /api/account/friends/decline`.
pub async fn decline(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: ApiBody,
) -> Result<StatusCode, ApiError> {
    change(app, addr, headers, body, Change::Decline).await
}

/// `POST /api/account/friends/remove`.
pub async fn remove(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: ApiBody,
) -> Result<StatusCode, ApiError> {
    change(app, addr, headers, body, Change::Remove).await
}

/// `POST /api/account/friends/block`.
pub async fn block(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: ApiBody,
) -> Result<StatusCode, ApiError> {
    change(app, addr, headers, body, Change::Block).await
}

/// `POST /api/account/friends/unblock`.
pub async fn unblock(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: ApiBody,
) -> Result<StatusCode, ApiError> {
    change(app, addr, headers, body, Change::Unblock).await
}

/// Whether `friend` keeps a seat of a room whose current game is not over, among their latest
/// rooms; `budget` counts the rooms the whole list may still look at.
fn at_table(s: &Stores<'_>, friend: &AccountId, now: i64, budget: &mut usize) -> Result<bool, ApiError> {
    let seats = s.ok(s.accounts.account_seats(friend))?;
    let recent = seats
        .iter()
        .filter(|seat| seat.added_at >= now - AT_TABLE_DAYS * DAY_MS)
        .take(AT_TABLE_ROOMS_EACH);
    for seat in recent {
        if *budget == 0 {
            return Ok(false);
        }
        *budget -= 1;
        let Some(room) = s.ok(s.rooms.load_room(&seat.code))? else {
            continue;
        };
        let Some(game) = room.game.as_ref() else {
            continue;
        };
        if !crate::replay::game_summary(&room, game)?.over {
            return Ok(true);
        }
    }
    Ok(false)
}

/// `GET /api/account/friends`.
pub async fn list(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Result<Json<FriendList>, ApiError> {
    let me = signed_in(&app, addr.ip(), &headers).await?;
    let (account, now) = (me.account, now_ms());
    let list = stored(&app, "cannot list the friends", move |s| {
        let mut list = FriendList {
            friends: Vec::new(),
            incoming: Vec::new(),
            outgoing: Vec::new(),
            blocked: Vec::new(),
        };
        let mut budget = AT_TABLE_ROOMS;
        for link in s.ok(s.friends.links(&account))? {
            // a deleted account leaves every list
            let Some(username) = s.username(&link.other)? else {
                continue;
            };
            let other = OtherAccount {
                username,
                since_ms: link.since,
            };
            match link.state {
                LinkState::Friends => {
                    let seen = s.ok(s.friends.last_seen(&link.other))?;
                    list.friends.push(Friend {
                        online: seen.is_some_and(|t| now - t <= i64::from(ONLINE_WITHIN_SECS) * 1000),
                        at_table: at_table(s, &link.other, now, &mut budget)?,
                        username: other.username,
                        since_ms: other.since_ms,
                    });
                }
                LinkState::RequestReceived => list.incoming.push(other),
                LinkState::RequestSent => list.outgoing.push(other),
                LinkState::Blocked => list.blocked.push(other),
            }
        }
        Ok(list)
    })
    .await?;
    Ok(Json(list))
}
