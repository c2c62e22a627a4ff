//! What every store must do with friends and challenges (`FriendStore`): a request and its reverse
//! crossing become one friendship; accept, remove, block (which ends the friendship, the requests
//! and the open challenges, and stops new ones) and unblock; the friends' limit; who may challenge;
//! a challenge only between friends, under the challenger's limit, listed newest first, accepted
//! once (also from several threads) and then listed to its challenger with its room, declined or withdrawn by the right account only, refused and
//! purged once expired — all as of the "now" each call is given.

use anyhow::{Context, Result, ensure};
use evr_protocol::{RoomOptions, SideChoice, SpectatorPolicy};
use evr_rules::Mode;
use evr_store::{
    AccountId, AccountStore, CHALLENGE_TTL_MS, ChallengeCreated, ChallengesFrom, FriendRequested, FriendStore,
    LinkState, NewAccount, StoredChallenge, StoredPasskey, StoredSession,
};

use crate::core::{Opened, stores};

const NOW: i64 = 1_790_000_000_000;
const MINUTE: i64 = 60_000;
const DAY: i64 = 24 * 60 * MINUTE;

pub(crate) fn id(n: u8) -> AccountId {
    [n; 16]
}

fn friends(store: &dyn evr_store::Store) -> Result<&dyn FriendStore> {
    store.friends().context("this store keeps no friends")
}

/// Accounts 1..=n (friends' rows refer to them).
pub(crate) fn accounts(a: &dyn AccountStore, n: u8) -> Result<()> {
    for i in 1..=n {
        a.create_account(
            &NewAccount {
                id: id(i),
                username: format!("player{i}"),
                username_key: format!("player{i}"),
                created_at: NOW,
            },
            &StoredPasskey {
                credential_id: vec![i; 20],
                account: id(i),
                passkey: "{}".into(),
                label: "a browser".into(),
                created_at: NOW,
                last_used_at: None,
            },
            &StoredSession {
                id_hash: vec![i; 32],
                account: id(i),
                label: "a browser".into(),
                created_at: NOW,
                last_seen_at: NOW + i64::from(i) * MINUTE,
                expires_at: NOW + 30 * DAY,
            },
        )?;
    }
    Ok(())
}

fn challenge(n: u8, from: u8, to: u8, created_at: i64) -> StoredChallenge {
    StoredChallenge {
        id: format!("challenge-{n}"),
        from: id(from),
        to: id(to),
        options: RoomOptions {
            side: SideChoice::Imperial,
            mode: Mode::Full,
            spectators: SpectatorPolicy::AnyoneWithLink,
            opponent: None,
            reveal_at_end: false,
            clock: Some(evr_protocol::TimeControl::Correspondence(
                evr_protocol::Correspondence { days_per_decision: 3 },
            )),
            rated: false,
        },
        rated: n.is_multiple_of(2),
        created_at,
        expires_at: created_at + CHALLENGE_TTL_MS,
        room_code: None,
    }
}

fn state(f: &dyn FriendStore, of: u8, other: u8) -> Result<Option<LinkState>> {
    Ok(f.links(&id(of))?
        .into_iter()
        .find(|l| l.other == id(other))
        .map(|l| l.state))
}

#[tokio::test]
async fn requests_become_friendships_and_blocks_end_them() -> Result<()> {
    for Opened { name, store } in stores("friends_links").await? {
        accounts(store.accounts().context("accounts")?, 4)?;
        let f = friends(store.as_ref())?;

        ensure!(
            f.request_friend(&id(1), &id(2), NOW, 10)? == FriendRequested::Sent,
            "{name}"
        );
        ensure!(state(f, 1, 2)? == Some(LinkState::RequestSent), "{name}: sent");
        ensure!(state(f, 2, 1)? == Some(LinkState::RequestReceived), "{name}: received");
        ensure!(!f.are_friends(&id(1), &id(2))?, "{name}: not yet");
        // the reverse request crossing it makes them friends
        ensure!(
            f.request_friend(&id(2), &id(1), NOW + 1, 10)? == FriendRequested::BecameFriends,
            "{name}: crossing requests"
        );
        ensure!(
            f.are_friends(&id(1), &id(2))? && f.are_friends(&id(2), &id(1))?,
            "{name}"
        );
        ensure!(
            f.request_friend(&id(1), &id(2), NOW + 2, 10)? == FriendRequested::AlreadyFriends,
            "{name}"
        );

        // accepted, declined
        f.request_friend(&id(3), &id(1), NOW + 3, 10)?;
        ensure!(
            !f.accept_friend(&id(3), &id(1), NOW + 4)?,
            "{name}: only the asked accepts"
        );
        ensure!(f.accept_friend(&id(1), &id(3), NOW + 4)?, "{name}: accepted");
        ensure!(!f.accept_friend(&id(1), &id(3), NOW + 5)?, "{name}: once");
        ensure!(f.are_friends(&id(3), &id(1))?, "{name}");
        f.request_friend(&id(4), &id(1), NOW + 6, 10)?;
        ensure!(f.remove_friend(&id(1), &id(4))?, "{name}: declined");
        ensure!(
            state(f, 4, 1)?.is_none() && state(f, 1, 4)?.is_none(),
            "{name}: nothing left"
        );

        // newest first
        let links = f.links(&id(1))?;
        ensure!(
            links.len() == 2 && links[0].other == id(3) && links[1].other == id(2),
            "{name}: {links:?}"
        );

        // removed: gone both ways
        ensure!(f.remove_friend(&id(2), &id(1))?, "{name}");
        ensure!(!f.are_friends(&id(1), &id(2))? && state(f, 1, 2)?.is_none(), "{name}");
        ensure!(!f.remove_friend(&id(2), &id(1))?, "{name}: nothing to remove");

        // a block ends the friendship and its challenges, and stops requests and challenges
        f.create_challenge(&challenge(1, 3, 1, NOW), NOW, 20)?;
        f.block(&id(1), &id(3), NOW + 10)?;
        ensure!(!f.are_friends(&id(1), &id(3))?, "{name}: blocked, not friends");
        ensure!(state(f, 1, 3)? == Some(LinkState::Blocked), "{name}");
        ensure!(
            state(f, 3, 1)?.is_none(),
            "{name}: the blocker leaves the blocked one's list"
        );
        ensure!(
            f.open_challenges(&id(1), NOW, 50)?.is_empty(),
            "{name}: its challenges end"
        );
        ensure!(
            f.request_friend(&id(3), &id(1), NOW + 11, 10)? == FriendRequested::Ignored,
            "{name}: a blocked account's request is not stored"
        );
        ensure!(
            state(f, 1, 3)? == Some(LinkState::Blocked),
            "{name}: no request received"
        );
        ensure!(
            f.request_friend(&id(1), &id(3), NOW + 11, 10)? == FriendRequested::AskerBlocked,
            "{name}"
        );
        ensure!(
            f.create_challenge(&challenge(2, 3, 1, NOW + 12), NOW + 12, 20)? == ChallengeCreated::NotFriends,
            "{name}"
        );
        ensure!(f.unblock(&id(1), &id(3))?, "{name}: unblocked");
        ensure!(!f.unblock(&id(1), &id(3))?, "{name}: once");
        ensure!(
            f.request_friend(&id(3), &id(1), NOW + 13, 10)? == FriendRequested::Sent,
            "{name}"
        );

        // the limit of friends and requests sent
        ensure!(
            f.request_friend(&id(4), &id(1), NOW, 2)? == FriendRequested::Sent,
            "{name}"
        );
        ensure!(
            f.request_friend(&id(4), &id(2), NOW, 2)? == FriendRequested::Sent,
            "{name}"
        );
        ensure!(
            f.request_friend(&id(4), &id(3), NOW, 2)? == FriendRequested::TooMany,
            "{name}"
        );

        // presence's input: the latest request of any session
        ensure!(f.last_seen(&id(2))? == Some(NOW + 2 * MINUTE), "{name}");
        ensure!(f.last_seen(&id(99))?.is_none(), "{name}");
        store.close();
    }
    Ok(())
}

#[tokio::test]
async fn a_challenge_goes_to_a_friend_who_takes_them_and_is_accepted_once_in_time() -> Result<()> {
    for Opened { name, store } in stores("friends_challenges").await? {
        accounts(store.accounts().context("accounts")?, 3)?;
        let f = friends(store.as_ref())?;
        ensure!(
            f.create_challenge(&challenge(1, 1, 2, NOW), NOW, 20)? == ChallengeCreated::NotFriends,
            "{name}: only friends"
        );
        f.request_friend(&id(1), &id(2), NOW, 10)?;
        f.accept_friend(&id(2), &id(1), NOW)?;
        ensure!(
            f.challenges_from(&id(2))? == ChallengesFrom::Friends,
            "{name}: the default"
        );
        f.set_challenges_from(&id(2), ChallengesFrom::Nobody)?;
        ensure!(f.challenges_from(&id(2))? == ChallengesFrom::Nobody, "{name}");
        ensure!(
            f.create_challenge(&challenge(1, 1, 2, NOW), NOW, 20)? == ChallengeCreated::Closed,
            "{name}: nobody"
        );
        f.set_challenges_from(&id(2), ChallengesFrom::Friends)?;
        for n in 1..=3 {
            let c = challenge(n, 1, 2, NOW + i64::from(n));
            ensure!(
                f.create_challenge(&c, NOW + 10, 3)? == ChallengeCreated::Created,
                "{name}"
            );
        }
        ensure!(
            f.create_challenge(&challenge(4, 1, 2, NOW + 4), NOW + 10, 3)? == ChallengeCreated::TooMany,
            "{name}: the limit of open ones"
        );
        // both see them, newest first, as written
        let theirs = f.open_challenges(&id(2), NOW + 10, 50)?;
        let mine = f.open_challenges(&id(1), NOW + 10, 50)?;
        ensure!(theirs == mine && theirs.len() == 3, "{name}: {theirs:?}");
        ensure!(theirs[0] == challenge(3, 1, 2, NOW + 3), "{name}: {:?}", theirs[0]);
        ensure!(f.open_challenges(&id(3), NOW, 50)?.is_empty(), "{name}: nobody else's");

        // declined by the challenged only, withdrawn by the challenger only
        ensure!(!f.drop_challenge("challenge-1", &id(1), false)?, "{name}");
        ensure!(f.drop_challenge("challenge-1", &id(2), false)?, "{name}: declined");
        ensure!(!f.drop_challenge("challenge-2", &id(2), true)?, "{name}");
        ensure!(f.drop_challenge("challenge-2", &id(1), true)?, "{name}: withdrawn");

        // accepted once, by the challenged, with its room
        ensure!(
            f.accept_challenge("challenge-3", &id(1), "ROOMAAAA", NOW)?.is_none(),
            "{name}"
        );
        let accepted = f.accept_challenge("challenge-3", &id(2), "ROOMAAAA", NOW)?;
        ensure!(
            accepted.as_ref().map(|c| c.rated) == Some(false),
            "{name}: {accepted:?}"
        );
        ensure!(
            f.accept_challenge("challenge-3", &id(2), "ROOMBBBB", NOW)?.is_none(),
            "{name}: once"
        );
        ensure!(f.open_challenges(&id(2), NOW, 50)?.is_empty(), "{name}: no longer open");
        // the challenger learns its room; nobody else, and a declined or withdrawn one is not listed
        let learnt = f.accepted_challenges(&id(1), NOW, 50)?;
        ensure!(
            learnt.len() == 1 && learnt[0].id == "challenge-3" && learnt[0].room_code.as_deref() == Some("ROOMAAAA"),
            "{name}: {learnt:?}"
        );
        ensure!(
            f.accepted_challenges(&id(2), NOW, 50)?.is_empty(),
            "{name}: the challenged sent none"
        );
        ensure!(
            f.accepted_challenges(&id(1), NOW + 3 + CHALLENGE_TTL_MS, 50)?
                .is_empty(),
            "{name}: not after its 7 days"
        );
        let made = f.challenge_of_room("ROOMAAAA")?.context("the room's challenge")?;
        ensure!(
            made.room_code.as_deref() == Some("ROOMAAAA") && made.id == "challenge-3",
            "{name}"
        );
        // a room that could not be made leaves it open again
        f.reopen_challenge("challenge-3")?;
        ensure!(f.open_challenges(&id(2), NOW, 50)?.len() == 1, "{name}: open again");

        // expired: not listed, not accepted, then purged
        let expiry = NOW + 3 + CHALLENGE_TTL_MS;
        ensure!(f.open_challenges(&id(2), expiry, 50)?.is_empty(), "{name}: expired");
        ensure!(
            f.accept_challenge("challenge-3", &id(2), "ROOMCCCC", expiry)?.is_none(),
            "{name}"
        );
        ensure!(
            f.accept_challenge("challenge-3", &id(2), "ROOMCCCC", expiry - 1)?
                .is_some(),
            "{name}"
        );
        f.reopen_challenge("challenge-3")?;
        ensure!(f.purge_challenges(expiry - 1)? == 0, "{name}: not yet");
        ensure!(f.purge_challenges(expiry)? == 1, "{name}: purged");
        ensure!(
            f.accept_challenge("challenge-3", &id(2), "ROOMCCCC", NOW)?.is_none(),
            "{name}: gone"
        );
        // the accepted one's record stays
        f.create_challenge(&challenge(6, 2, 1, NOW), NOW, 3)?;
        f.accept_challenge("challenge-6", &id(1), "ROOMDDDD", NOW)?;
        f.purge_challenges(NOW + 30 * DAY)?;
        ensure!(
            f.challenge_of_room("ROOMDDDD")?.is_some_and(|c| c.rated),
            "{name}: kept, rated"
        );
        store.close();
    }
    Ok(())
}

#[tokio::test]
async fn a_challenge_accepted_from_several_threads_at_once_is_accepted_once() -> Result<()> {
    for Opened { name, store } in stores("friends_accept_once").await? {
        accounts(store.accounts().context("accounts")?, 2)?;
        let f = friends(store.as_ref())?;
        // requests crossing from several threads: one friendship
        let crossed = std::thread::scope(|s| {
            let tries: Vec<_> = (0..4u8)
                .map(|i| s.spawn(move || f.request_friend(&id(1 + i % 2), &id(2 - i % 2), NOW, 10)))
                .collect();
            tries
                .into_iter()
                .map(|t| t.join().expect("a thread"))
                .collect::<Result<Vec<_>, _>>()
        })?;
        ensure!(f.are_friends(&id(1), &id(2))?, "{name}: {crossed:?}");
        ensure!(
            crossed.iter().filter(|r| **r == FriendRequested::BecameFriends).count() == 1,
            "{name}: one friendship made: {crossed:?}"
        );
        for round in 0..5u8 {
            f.create_challenge(&challenge(round, 1, 2, NOW), NOW, 20)?;
            let id_text = format!("challenge-{round}");
            let taken = std::thread::scope(|s| {
                let tries: Vec<_> = (0..6)
                    .map(|i| {
                        let id_text = id_text.clone();
                        s.spawn(move || f.accept_challenge(&id_text, &id(2), &format!("ROOM{i}"), NOW))
                    })
                    .collect();
                tries
                    .into_iter()
                    .map(|t| t.join().expect("a thread"))
                    .collect::<Result<Vec<_>, _>>()
            })?;
            let accepted = taken.iter().filter(|t| t.is_some()).count();
            ensure!(accepted == 1, "{name}: round {round}: {accepted} accepted");
        }
        store.close();
    }
    Ok(())
}

/// Two nodes on one PostgreSQL (SQLite is one node's, and one PostgreSQL store runs its
/// transactions one at a time): requests crossing on both nodes at once make one friendship, and
/// a challenge accepted on both at once is accepted once, its challenger's limit exact.
#[tokio::test]
async fn two_nodes_on_one_postgres_make_one_friendship_and_accept_once() -> Result<()> {
    let url = match std::env::var("EVR_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => url,
        _ => {
            eprintln!("EVR_TEST_POSTGRES is not set: two PostgreSQL nodes are not tested here");
            return Ok(());
        }
    };
    let database = "contract_friends_nodes";
    let first = crate::support::postgres::fresh_store(&url, database).await?;
    let second = crate::support::postgres::same_database(&url, database).await?;
    accounts(evr_store::Store::accounts(&first).context("accounts")?, 20)?;
    let nodes = [friends(&first)?, friends(&second)?];
    for round in 0..5u8 {
        let (a, b) = (id(1 + 2 * round), id(2 + 2 * round));
        let crossed = std::thread::scope(|s| {
            let tries: Vec<_> = (0..2usize)
                .map(|i| {
                    let node = nodes[i];
                    s.spawn(move || {
                        let (from, to) = if i == 0 { (a, b) } else { (b, a) };
                        node.request_friend(&from, &to, NOW, 10)
                    })
                })
                .collect();
            tries
                .into_iter()
                .map(|t| t.join().expect("a thread"))
                .collect::<Result<Vec<_>, _>>()
        })?;
        ensure!(
            nodes[0].are_friends(&a, &b)? && nodes[1].are_friends(&b, &a)?,
            "round {round}: {crossed:?}"
        );
        // four challenges at once under a limit of two: two stored
        let created = std::thread::scope(|s| {
            let tries: Vec<_> = (0..4u8)
                .map(|i| {
                    let node = nodes[usize::from(i % 2)];
                    s.spawn(move || {
                        let mut c = challenge(10 * round + i, 1 + 2 * round, 2 + 2 * round, NOW);
                        c.id = format!("r{round}-{i}");
                        node.create_challenge(&c, NOW, 2)
                    })
                })
                .collect();
            tries
                .into_iter()
                .map(|t| t.join().expect("a thread"))
                .collect::<Result<Vec<_>, _>>()
        })?;
        let stored = created.iter().filter(|c| **c == ChallengeCreated::Created).count();
        ensure!(
            stored == 2,
            "round {round}: {stored} of 4 created under a limit of 2: {created:?}"
        );
        let open = nodes[0].open_challenges(&b, NOW, 50)?;
        let id_text = open.first().context("a challenge")?.id.clone();
        let taken = std::thread::scope(|s| {
            let tries: Vec<_> = (0..4usize)
                .map(|i| {
                    let (node, id_text) = (nodes[i % 2], id_text.clone());
                    s.spawn(move || node.accept_challenge(&id_text, &b, &format!("ROOM{i}"), NOW))
                })
                .collect();
            tries
                .into_iter()
                .map(|t| t.join().expect("a thread"))
                .collect::<Result<Vec<_>, _>>()
        })?;
        let accepted = taken.iter().filter(|t| t.is_some()).count();
        ensure!(accepted == 1, "round {round}: {accepted} accepted");
    }
    evr_store::Store::close(&first);
    evr_store::Store::close(&second);
    Ok(())
}
