//! Challenges: a player challenges a friend with the room's options (side, time control,
//! spectators) and whether it is rated (the room's `rated` option: `crate::ratings`). The
//! challenged sees it in `GET /api/account/challenges` (one indexed read: a page may poll it), and
//! accepts, declines, or lets it expire ([`evr_store::CHALLENGE_TTL_MS`]); the challenger may
//! withdraw it.
//!
//! Accepting makes the room as `POST /api/rooms` does, the challenger at the creator's seat, and
//! seats the challenged at once with the invite: both seats are taken by fresh random tokens that
//! nobody receives (the room stores only their hashes), and each seat becomes its player's
//! account's, so that each player takes their seat on their own devices with `POST
//! /api/rooms/{code}/account-seat` (a token of the device's own). The store takes the challenge
//! once (`accept_challenge`): two accepts at once make one room; a room that cannot be made leaves
//! the challenge open again.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode};
use evr_protocol::{
    Challenge, ChallengeAccepted, ChallengeList, ChallengeSettings, ErrorCode, MAX_OPEN_CHALLENGES, NewChallenge,
    RoomOptions, SentAccepted, SideChoice, WhoMayChallenge,
};
use evr_rules::{Faction, Mode};
use evr_store::{AccountId, CHALLENGE_TTL_MS, ChallengeCreated, ChallengesFrom, StoredChallenge, StoredSeat};
use tokio::sync::oneshot;

use super::{Stores, now_ms, signed_in, stored, texts};
use crate::app::App;
use crate::refusal::{ApiBody, ApiError, ApiPath, json};
use crate::room::{Command, Join, JoinBy, NewRoom, Room};
use crate::secrets;

/// The challenges a list shows at most (an account sends at most [`MAX_OPEN_CHALLENGES`]; what
/// it receives is bounded by its friends' limits).
const LISTED: u32 = 200;
/// Accepted challenges listed to their challenger (the latest: a page needs the one just accepted).
const ACCEPTED_LISTED: u32 = 20;

fn not_found() -> ApiError {
    ApiError::new(
        ErrorCode::ChallengeNotFound,
        "no open challenge with this id for you: it was answered, withdrawn or accepted already, or it expired",
    )
}

/// A stored challenge as both players see it.
fn shown(c: &StoredChallenge, from: String, to: String) -> Challenge {
    Challenge {
        id: c.id.clone(),
        from,
        to,
        side: c.options.side,
        clock: c.options.clock,
        rated: c.rated,
        spectators: c.options.spectators,
        mode: c.options.mode,
        created_at_ms: c.created_at,
        expires_at_ms: c.expires_at,
    }
}

/// `POST /api/account/challenges` → `201`.
pub async fn create(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: ApiBody,
) -> Result<(StatusCode, Json<Challenge>), ApiError> {
    let me = signed_in(&app, addr.ip(), &headers).await?;
    let NewChallenge {
        username,
        side,
        clock,
        rated,
        spectators,
    } = json(&body)?;
    if let Some(control) = clock
        && !control.is_sane(app.config.min_clock_bank_secs)
    {
        return Err(ApiError::new(
            ErrorCode::BadMessage,
            "a time control is a bank of 1 to 90 minutes and 0 to 120 seconds a decision, or 1, 2, 3 or 7 days a decision",
        ));
    }
    let id = secrets::new_token()
        .map_err(|e| ApiError::internal(ErrorCode::StorageFailed, "the challenge could not be made", &e))?;
    let now = now_ms();
    let (account, my_name) = (me.account, me.username.clone());
    let (challenge, to_name, mail_to) = stored(&app, "cannot store the challenge", move |s| {
        let (other, to_name) = s.named(&username, &account)?;
        let challenge = StoredChallenge {
            id,
            from: account,
            to: other,
            options: RoomOptions {
                side,
                mode: Mode::Full,
                spectators,
                opponent: None,
                reveal_at_end: false,
                clock,
                rated,
            },
            rated,
            created_at: now,
            expires_at: now + CHALLENGE_TTL_MS,
            room_code: None,
        };
        match s.ok(s.friends.create_challenge(&challenge, now, MAX_OPEN_CHALLENGES))? {
            ChallengeCreated::Created => {}
            ChallengeCreated::NotFriends => {
                return Err(ApiError::new(
                    ErrorCode::NotFriends,
                    "only friends challenge each other",
                ));
            }
            ChallengeCreated::Closed => {
                return Err(ApiError::new(
                    ErrorCode::ChallengesClosed,
                    "this player takes no challenges",
                ));
            }
            ChallengeCreated::TooMany => {
                return Err(ApiError::new(
                    ErrorCode::TooManyChallenges,
                    format!("at most {MAX_OPEN_CHALLENGES} open challenges: wait for answers or withdraw some"),
                ));
            }
        }
        Ok((challenge, to_name, mail_address(s, &account, &other, now)?))
    })
    .await?;
    super::events::challenges_changed(&app, &[challenge.from, challenge.to]);
    if let Some(to) = mail_to {
        mail(&app, to, &my_name);
    }
    Ok((StatusCode::CREATED, Json(shown(&challenge, my_name, to_name))))
}

/// The challenged's confirmed address, when a mail is due: only for the first open challenge
/// from this challenger (a friend sending twenty sends one mail).
fn mail_address(s: &Stores<'_>, from: &AccountId, to: &AccountId, now: i64) -> Result<Option<String>, ApiError> {
    let open = s.ok(s.friends.open_challenges(to, now, LISTED))?;
    if open.iter().filter(|c| c.from == *from && c.to == *to).count() != 1 {
        return Ok(None);
    }
    let account = s.ok(s.accounts.account(to))?;
    Ok(account.and_then(|a| a.email.filter(|_| a.email_confirmed)))
}

/// Mails "`from` challenges you" to `to`, after the answer: a mail that cannot go is logged and
/// fails nothing.
fn mail(app: &App, to: String, from: &str) {
    let Some(mailer) = app.mail.clone() else {
        return;
    };
    let (subject, text) = texts::challenged(from, &mailer.link("/"));
    app.tracker.spawn(async move {
        let sent = match crate::mail::message::transactional(&mailer, &to, subject, text) {
            Ok(m) => mailer.deliver(m).await,
            Err(e) => Err(e),
        };
        if let Err(e) = sent {
            tracing::warn!(error = %e, "a challenge's mail was not sent");
        }
    });
}

/// `GET /api/account/challenges`.
pub async fn list(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Result<Json<ChallengeList>, ApiError> {
    let me = signed_in(&app, addr.ip(), &headers).await?;
    let (account, my_name, now) = (me.account, me.username, now_ms());
    let list = stored(&app, "cannot list the challenges", move |s| {
        let mut list = ChallengeList {
            incoming: Vec::new(),
            outgoing: Vec::new(),
            accepted: Vec::new(),
            who_may_challenge: match s.ok(s.friends.challenges_from(&account))? {
                ChallengesFrom::Friends => WhoMayChallenge::Friends,
                ChallengesFrom::Nobody => WhoMayChallenge::Nobody,
            },
        };
        let mut names = std::collections::HashMap::new();
        let mut name_of = |other: AccountId| -> Result<Option<String>, ApiError> {
            if let Some(name) = names.get(&other) {
                return Ok(Option::<String>::clone(name));
            }
            let name = s.username(&other)?;
            names.insert(other, name.clone());
            Ok(name)
        };
        for c in s.ok(s.friends.open_challenges(&account, now, LISTED))? {
            let incoming = c.to == account;
            let Some(name) = name_of(if incoming { c.from } else { c.to })? else {
                continue;
            };
            if incoming {
                list.incoming.push(shown(&c, name, my_name.clone()));
            } else {
                list.outgoing.push(shown(&c, my_name.clone(), name));
            }
        }
        for c in s.ok(s.friends.accepted_challenges(&account, now, ACCEPTED_LISTED))? {
            if let (Some(to), Some(code)) = (name_of(c.to)?, c.room_code) {
                list.accepted.push(SentAccepted { id: c.id, to, code });
            }
        }
        Ok(list)
    })
    .await?;
    Ok(Json(list))
}

/// `POST /api/account/challenges/settings`.
pub async fn settings(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: ApiBody,
) -> Result<StatusCode, ApiError> {
    let me = signed_in(&app, addr.ip(), &headers).await?;
    let ChallengeSettings { who_may_challenge } = json(&body)?;
    let setting = match who_may_challenge {
        WhoMayChallenge::Friends => ChallengesFrom::Friends,
        WhoMayChallenge::Nobody => ChallengesFrom::Nobody,
    };
    stored(&app, "cannot store the setting", move |s| {
        s.ok(s.friends.set_challenges_from(&me.account, setting))
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/account/challenges/{id}/decline`.
pub async fn decline(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    drop_challenge(app, addr, id, headers, false).await
}

/// `DELETE /api/account/challenges/{id}`: withdrawn by its challenger.
pub async fn withdraw(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    drop_challenge(app, addr, id, headers, true).await
}

async fn drop_challenge(
    app: Arc<App>,
    addr: SocketAddr,
    id: String,
    headers: HeaderMap,
    as_challenger: bool,
) -> Result<StatusCode, ApiError> {
    let me = signed_in(&app, addr.ip(), &headers).await?;
    let (account, now) = (me.account, now_ms());
    let dropped = stored(&app, "cannot answer the challenge", move |s| {
        // whose the challenge was, for their pages; the store decides whether it may be dropped
        let other = s
            .ok(s.friends.open_challenges(&account, now, LISTED))?
            .into_iter()
            .find(|c| c.id == id)
            .map(|c| if c.from == account { c.to } else { c.from });
        Ok(s.ok(s.friends.drop_challenge(&id, &account, as_challenger))?
            .then_some(other))
    })
    .await?;
    match dropped {
        Some(other) => {
            let mut accounts = vec![account];
            accounts.extend(other);
            super::events::challenges_changed(&app, &accounts);
            Ok(StatusCode::NO_CONTENT)
        }
        None => Err(not_found()),
    }
}

/// `POST /api/account/challenges/{id}/accept`: the room, both seats taken and kept.
pub async fn accept(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
) -> Result<Json<ChallengeAccepted>, ApiError> {
    let me = signed_in(&app, addr.ip(), &headers).await?;
    if app.shutdown.is_cancelled() {
        return Err(ApiError::new(ErrorCode::ShuttingDown, "shutting down"));
    }
    let internal = |e: std::io::Error| ApiError::internal(ErrorCode::StorageFailed, "the room could not be made", &e);
    let code = secrets::new_room_code().map_err(internal)?;
    let (account, now) = (me.account, now_ms());
    let (challenge_id, room) = (id.clone(), code.clone());
    let (challenge, challenger) = stored(&app, "cannot accept the challenge", move |s| {
        let Some(challenge) = s.ok(s.friends.accept_challenge(&challenge_id, &account, &room, now))? else {
            return Err(not_found());
        };
        let Some(challenger) = s.username(&challenge.from)? else {
            // the challenger deleted their account since: the challenge goes with it
            s.ok(s.friends.reopen_challenge(&challenge_id))?;
            s.ok(s.friends.drop_challenge(&challenge_id, &account, false))?;
            return Err(not_found());
        };
        Ok((challenge, Some(challenger)))
    })
    .await?;
    match make_room(&app, &challenge, &code, challenger, &me.username).await {
        Ok(seat) => {
            tracing::info!(room = %code, rated = challenge.rated, "a challenge was accepted");
            super::events::challenges_changed(&app, &[challenge.from, challenge.to]);
            Ok(Json(ChallengeAccepted { code, seat }))
        }
        Err(refusal) => {
            // nothing was made (or the room is unusable): the challenge may be accepted again
            let reopened = stored(&app, "cannot reopen the challenge", move |s| {
                s.ok(s.friends.reopen_challenge(&id))
            })
            .await;
            if reopened.is_err() {
                tracing::warn!(room = %code, "a challenge whose room was not made stays taken");
            }
            Err(refusal)
        }
    }
}

/// Makes room `code` for `challenge`: the challenger at the creator's seat, the challenged seated
/// with the invite at once, both seats' tokens thrown away, each seat kept by its account. The
/// challenged's side.
async fn make_room(
    app: &App,
    challenge: &StoredChallenge,
    code: &str,
    challenger: Option<String>,
    challenged: &str,
) -> Result<Faction, ApiError> {
    let internal =
        |e: &dyn std::fmt::Display| ApiError::internal(ErrorCode::StorageFailed, "the room could not be made", e);
    let creator_faction = match challenge.options.side {
        SideChoice::Rebel => Faction::Rebel,
        SideChoice::Imperial => Faction::Imperial,
        SideChoice::Random => {
            if secrets::new_seed().map_err(|e| internal(&e))? & 1 == 0 {
                Faction::Rebel
            } else {
                Faction::Imperial
            }
        }
    };
    let invite = secrets::new_token().map_err(|e| internal(&e))?;
    let new = NewRoom {
        code: code.to_string(),
        // (the rated column decides: challenges stored before ratings kept it only there)
        options: RoomOptions {
            rated: challenge.rated,
            ..challenge.options
        },
        creator_faction,
        invite: invite.clone(),
        join_code: None,
        // a token nobody receives: the challenger's devices take the seat through their account
        creator_token: secrets::new_token().map_err(|e| internal(&e))?,
        creator_name: challenger.as_deref().and_then(crate::names::display_name),
    };
    let room = Room::create(new, app.store.clone(), app.config.clone())
        .await
        .map_err(|e| internal(&e))?;
    let handle = app.start_room(code, room);
    // the seats are the accounts' before the guest's is taken: a device may ask for its seat as
    // soon as the answer is out
    let (from, to, room_code) = (challenge.from, challenge.to, code.to_string());
    let now = now_ms();
    stored(app, "cannot keep the challenge's seats", move |s| {
        s.ok(s.accounts.keep_seat(&from, &room_code, StoredSeat::Creator, now))?;
        s.ok(s.accounts.keep_seat(&to, &room_code, StoredSeat::Guest, now))?;
        Ok(())
    })
    .await?;
    let gone = || ApiError::new(ErrorCode::ShuttingDown, "the room is closing");
    let (reply, answer) = oneshot::channel();
    let join = Join {
        by: JoinBy::Invite(invite),
        name: crate::names::display_name(challenged),
        reply,
    };
    handle
        .tx
        .send(Command::Join(Box::new(join)))
        .await
        .map_err(|_| gone())?;
    // (the guest's token from the join is dropped here: nobody receives it)
    let joined = answer
        .await
        .map_err(|_| gone())?
        .map_err(|code| ApiError::new(code, "the challenged seat could not be taken"))?;
    Ok(joined.faction)
}
