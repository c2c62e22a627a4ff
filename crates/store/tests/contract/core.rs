//! What every `Store` must do, whatever the database: written values load back exactly, actions in
//! order, a second write at a stored `(room, seq)` is refused and changes nothing (the fence that
//! keeps a stale owner of a room from committing) without failing other rooms' writes, games
//! survive a rematch, chat keeps its latest messages, and a closed store takes nothing; a claim on
//! a room fences every write made under an older one. Each test runs against every store in
//! [`stores`]: SQLite always, PostgreSQL when `EVR_TEST_POSTGRES` names a server whose user may
//! create databases (scripts/test.sh starts a throwaway one).

use std::sync::Arc;

use anyhow::{Result, ensure};
use evr_protocol::{ChatAuthor, ChatBody, ChatChannel, ChatMessage, ForfeitReason, Phrase};
use evr_rules::{Action, ByFaction, Faction, Mode};
use evr_store::{CHAT_KEPT as KEPT, StoredChat};
use evr_store::{FIRST_EPOCH, GameResult, GameSecret, SqliteStore, Store, StoreError, StoredGame, StoredRoom, WriteOp};

use crate::support;

/// A store under test, and which implementation it is.
pub(crate) struct Opened {
    pub(crate) name: &'static str,
    pub(crate) store: Arc<dyn Store>,
}

/// Every store implementation, freshly opened and empty.
pub(crate) async fn stores(test: &str) -> Result<Vec<Opened>> {
    let dir = support::temp_dir(&format!("store-contract-{test}"));
    let mut out = vec![Opened {
        name: "sqlite",
        store: Arc::new(SqliteStore::open(&dir)?),
    }];
    match std::env::var("EVR_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => out.push(Opened {
            name: "postgres",
            store: Arc::new(support::postgres::fresh_store(&url, &format!("contract_{test}")).await?),
        }),
        _ => eprintln!("EVR_TEST_POSTGRES is not set: the PostgreSQL store is not tested here"),
    }
    Ok(out)
}

pub(crate) const CODE: &str = "KJCHM97E";
const SECRET: GameSecret = GameSecret::Committed {
    key: [7; 32],
    salt: [8; 16],
};

pub(crate) async fn write(store: &Arc<dyn Store>, op: WriteOp) -> Result<(), StoreError> {
    store.submit(FIRST_EPOCH, op).await.map_err(|_| StoreError::Closed)?
}

pub(crate) fn create_room(code: &str) -> WriteOp {
    WriteOp::CreateRoom {
        code: code.into(),
        options: support::options(Mode::Full),
        invite_hash: vec![1; 32],
        join_code_hash: Some(vec![4; 32]),
        creator_hash: vec![2; 32],
        creator_name: Some("Ana".into()),
        created_at: 1_790_000_000,
    }
}

pub(crate) fn start_game(code: &str, game_no: u32, seq: u32, creator_faction: Faction) -> WriteOp {
    WriteOp::StartGame {
        code: code.into(),
        game_no,
        secret: SECRET,
        creator_faction,
        seq,
        started_at: 1_790_000_100 + i64::from(game_no),
    }
}

pub(crate) fn append(code: &str, game_no: u32, seq: u32, seat: Faction, action: Action) -> WriteOp {
    WriteOp::AppendAction {
        code: code.into(),
        game_no,
        seq,
        seat,
        action,
        action_id: format!("id-{seq}"),
        clock_ms: Some(ByFaction::new(600_000 - u64::from(seq), 599_000)),
        wake: None,
        rated: None,
    }
}

/// A room with its first game (creator Rebel, from seq 1) and `n` actions after it.
pub(crate) async fn room_with_actions(store: &Arc<dyn Store>, code: &str, n: u32) -> Result<()> {
    write(store, create_room(code)).await?;
    write(store, start_game(code, 1, 1, Faction::Rebel)).await?;
    for i in 0..n {
        let seat = if i.is_multiple_of(2) {
            Faction::Rebel
        } else {
            Faction::Imperial
        };
        write(store, append(code, 1, 2 + i, seat, Action::PlayCard)).await?;
    }
    Ok(())
}

pub(crate) fn load(store: &Arc<dyn Store>, code: &str) -> Result<StoredRoom> {
    store
        .load_room(code)?
        .ok_or_else(|| anyhow::anyhow!("room {code} is not stored"))
}

pub(crate) fn current_game(room: &StoredRoom) -> Result<&StoredGame> {
    room.game
        .as_ref()
        .ok_or_else(|| anyhow::anyhow!("room {} has no game", room.code))
}

#[tokio::test]
async fn a_room_and_its_first_game_load_back_as_written() -> Result<()> {
    for Opened { name, store } in stores("room").await? {
        room_with_actions(&store, CODE, 0).await?;
        let room = load(&store, CODE)?;
        ensure!(room.code == CODE, "{name}: code");
        ensure!(room.options == support::options(Mode::Full), "{name}: options");
        ensure!(
            room.invite_hash == vec![1; 32] && room.creator_hash == vec![2; 32],
            "{name}: hashes"
        );
        ensure!(room.guest_hash.is_none(), "{name}: no guest yet");
        let game = current_game(&room)?;
        ensure!(game.game_no == 1 && game.start_seq == 1, "{name}: game 1 from seq 1");
        ensure!(game.secret == SECRET, "{name}: the game's key and salt");
        ensure!(game.creator_faction == Faction::Rebel, "{name}: creator's side");
        ensure!(game.started_at == Some(1_790_000_101), "{name}: start date");
        ensure!(
            game.result.is_none() && game.actions.is_empty(),
            "{name}: nothing played"
        );
        ensure!(
            game.reveal == ByFaction::new(false, false),
            "{name}: nobody agreed to reveal"
        );
        store.close();
    }
    Ok(())
}

#[tokio::test]
async fn actions_load_back_in_order_with_their_seat_id_and_clocks() -> Result<()> {
    for Opened { name, store } in stores("actions").await? {
        write(&store, create_room(CODE)).await?;
        write(&store, start_game(CODE, 1, 1, Faction::Imperial)).await?;
        let played = [
            (Faction::Rebel, Action::PlayCard),
            (Faction::Imperial, Action::Pass),
            (Faction::Rebel, Action::PlayCard),
        ];
        // written concurrently: they may share a commit, and must still load in seq order
        let answers: Vec<_> = played
            .iter()
            .enumerate()
            .map(|(i, (seat, action))| store.submit(FIRST_EPOCH, append(CODE, 1, 2 + i as u32, *seat, *action)))
            .collect();
        for a in answers {
            a.await??;
        }
        let game = current_game(&load(&store, CODE)?)?.clone();
        let got: Vec<_> = game
            .actions
            .iter()
            .map(|a| (a.seq, a.seat, a.action, a.action_id.clone(), a.clock_ms))
            .collect();
        let want: Vec<_> = played
            .iter()
            .enumerate()
            .map(|(i, (seat, action))| {
                let seq = 2 + i as u32;
                (
                    seq,
                    *seat,
                    *action,
                    format!("id-{seq}"),
                    Some(ByFaction::new(600_000 - u64::from(seq), 599_000)),
                )
            })
            .collect();
        ensure!(got == want, "{name}: {got:?}");
        store.close();
    }
    Ok(())
}

#[tokio::test]
async fn a_second_write_at_a_stored_seq_is_refused_and_changes_nothing() -> Result<()> {
    for Opened { name, store } in stores("fence").await? {
        room_with_actions(&store, CODE, 3).await?;
        let before = current_game(&load(&store, CODE)?)?.actions.len();
        // a stale owner of the room, at a seq another has stored: another action, another seat
        let stale = append(CODE, 1, 3, Faction::Rebel, Action::Pass);
        ensure!(
            matches!(write(&store, stale).await, Err(StoreError::Fenced)),
            "{name}: the stale write is refused"
        );
        let game = current_game(&load(&store, CODE)?)?.clone();
        ensure!(game.actions.len() == before, "{name}: nothing was added");
        let at_3 = game.actions.iter().find(|a| a.seq == 3);
        ensure!(
            at_3.is_some_and(|a| a.seat == Faction::Imperial && a.action == Action::PlayCard && a.action_id == "id-3"),
            "{name}: the stored action at seq 3 is untouched: {at_3:?}"
        );
        // the next seq is still free
        write(
            &store,
            append(CODE, 1, 2 + before as u32, Faction::Imperial, Action::Pass),
        )
        .await?;
        // a stale write queued together with another room's good one: only the stale one fails
        room_with_actions(&store, "KJCHM97F", 0).await?;
        let stale = store.submit(FIRST_EPOCH, append(CODE, 1, 3, Faction::Rebel, Action::Pass));
        let good = store.submit(FIRST_EPOCH, append("KJCHM97F", 1, 2, Faction::Rebel, Action::PlayCard));
        ensure!(matches!(stale.await?, Err(StoreError::Fenced)), "{name}: stale refused");
        ensure!(
            matches!(good.await?, Ok(())),
            "{name}: the other room's write is committed"
        );
        ensure!(
            current_game(&load(&store, "KJCHM97F")?)?.actions.len() == 1,
            "{name}: and stored"
        );
        store.close();
    }
    Ok(())
}

#[tokio::test]
async fn an_action_of_a_room_or_game_never_stored_is_refused() -> Result<()> {
    for Opened { name, store } in stores("orphan").await? {
        let no_room = append("NOROOM23", 1, 2, Faction::Rebel, Action::PlayCard);
        ensure!(write(&store, no_room).await.is_err(), "{name}: no such room");
        room_with_actions(&store, CODE, 0).await?;
        let no_game = append(CODE, 2, 2, Faction::Rebel, Action::PlayCard);
        ensure!(write(&store, no_game).await.is_err(), "{name}: no such game");
        ensure!(
            current_game(&load(&store, CODE)?)?.actions.is_empty(),
            "{name}: nothing stored"
        );
        store.close();
    }
    Ok(())
}

#[tokio::test]
async fn after_a_rematch_the_room_loads_its_latest_game_and_keeps_every_game() -> Result<()> {
    for Opened { name, store } in stores("rematch").await? {
        room_with_actions(&store, CODE, 4).await?;
        let over = GameResult {
            forfeit_winner: Some(Faction::Imperial),
            reason: ForfeitReason::Time,
        };
        write(
            &store,
            WriteOp::EndGame {
                code: CODE.into(),
                game_no: 1,
                result: over,
                rated: None,
            },
        )
        .await?;
        write(&store, start_game(CODE, 2, 6, Faction::Imperial)).await?;
        write(&store, append(CODE, 2, 7, Faction::Imperial, Action::PlayCard)).await?;

        let latest = current_game(&load(&store, CODE)?)?.clone();
        ensure!(
            latest.game_no == 2 && latest.start_seq == 6,
            "{name}: game 2 from seq 6"
        );
        ensure!(latest.creator_faction == Faction::Imperial, "{name}: sides swapped");
        ensure!(
            latest.actions.iter().map(|a| a.seq).collect::<Vec<_>>() == vec![7],
            "{name}: only game 2's actions"
        );
        ensure!(latest.result.is_none(), "{name}: game 2 is not over");

        let first = store
            .load_game(CODE, 1)?
            .ok_or_else(|| anyhow::anyhow!("{name}: game 1 is kept"))?;
        ensure!(
            first.actions.iter().map(|a| a.seq).collect::<Vec<_>>() == vec![2, 3, 4, 5],
            "{name}: game 1's actions"
        );
        ensure!(first.result == Some(over), "{name}: game 1's result");
        ensure!(
            store.game_numbers(CODE)? == vec![1, 2],
            "{name}: both games, oldest first"
        );
        ensure!(store.load_game(CODE, 3)?.is_none(), "{name}: no game 3");
        store.close();
    }
    Ok(())
}

#[tokio::test]
async fn the_guest_and_the_agreements_to_reveal_are_kept() -> Result<()> {
    for Opened { name, store } in stores("guest").await? {
        room_with_actions(&store, CODE, 1).await?;
        write(
            &store,
            WriteOp::SetGuest {
                code: CODE.into(),
                guest_hash: vec![3; 32],
                guest_name: None,
            },
        )
        .await?;
        write(
            &store,
            WriteOp::AgreeToReveal {
                code: CODE.into(),
                game_no: 1,
                faction: Faction::Imperial,
            },
        )
        .await?;
        let room = load(&store, CODE)?;
        ensure!(room.guest_hash == Some(vec![3; 32]), "{name}: guest");
        ensure!(
            current_game(&room)?.reveal == ByFaction::new(false, true),
            "{name}: the Imperial agreed"
        );
        store.close();
    }
    Ok(())
}

/// Chat message `id`: both channels, both kinds of author, phrases and text with markup in it.
pub(crate) fn chat_message(id: u64) -> ChatMessage {
    ChatMessage {
        id,
        at: 1_790_000_000_000 + id as i64,
        // the contract tests store every message in game 1
        game: 1,
        channel: if id.is_multiple_of(2) {
            ChatChannel::Spectators
        } else {
            ChatChannel::Players
        },
        from: if id.is_multiple_of(2) {
            ChatAuthor::Spectator(format!("fan {id}"))
        } else {
            ChatAuthor::Seat(Faction::Rebel)
        },
        body: if id.is_multiple_of(3) {
            ChatBody::Phrase {
                phrase: Phrase::GoodLuck,
            }
        } else {
            ChatBody::Text {
                text: format!("message {id} <b>as text</b>"),
            }
        },
        // a seat's name as it was when it wrote
        name: (!id.is_multiple_of(2)).then(|| format!("Ana {id}")),
    }
}

#[tokio::test]
async fn the_chat_keeps_its_latest_messages_oldest_first() -> Result<()> {
    for Opened { name, store } in stores("chat").await? {
        room_with_actions(&store, CODE, 0).await?;
        let total = KEPT as u64 + 5;
        for id in 1..=total {
            let chat = StoredChat {
                game_no: 1,
                message: chat_message(id),
            };
            write(
                &store,
                WriteOp::Chat {
                    code: CODE.into(),
                    chat,
                },
            )
            .await?;
        }
        let chat = load(&store, CODE)?.chat;
        let ids: Vec<u64> = chat.iter().map(|c| c.message.id).collect();
        ensure!(
            ids == (6..=total).collect::<Vec<_>>(),
            "{name}: the latest {KEPT}, oldest first: {ids:?}"
        );
        for c in chat.iter().rev().take(6) {
            ensure!(
                c.message == chat_message(c.message.id) && c.game_no == 1,
                "{name}: loads back as written: {c:?}"
            );
        }
        store.close();
    }
    Ok(())
}

#[tokio::test]
async fn an_unknown_room_is_not_there_and_a_closed_store_takes_nothing() -> Result<()> {
    for Opened { name, store } in stores("closed").await? {
        ensure!(store.load_room("NOROOM23")?.is_none(), "{name}: no such room");
        ensure!(store.game_numbers("NOROOM23")?.is_empty(), "{name}: no games");
        store.close();
        ensure!(
            matches!(write(&store, create_room(CODE)).await, Err(StoreError::Closed)),
            "{name}: closed"
        );
        ensure!(
            store.load_room(CODE)?.is_none(),
            "{name}: the refused room was not stored"
        );
    }
    Ok(())
}

#[tokio::test]
async fn closing_commits_every_write_queued_before_it() -> Result<()> {
    for Opened { name, store } in stores("drain").await? {
        room_with_actions(&store, CODE, 0).await?;
        // more writes than one batch holds, queued and not awaited, then close
        let answers: Vec<_> = (0..1500u32)
            .map(|i| store.submit(FIRST_EPOCH, append(CODE, 1, 2 + i, Faction::Rebel, Action::PlayCard)))
            .collect();
        // at once, behind them (blocking this thread a moment, as the server's shutdown does)
        store.close();
        for (i, a) in answers.into_iter().enumerate() {
            ensure!(matches!(a.await, Ok(Ok(()))), "{name}: write {i} was committed");
        }
        ensure!(
            current_game(&load(&store, CODE)?)?.actions.len() == 1500,
            "{name}: every queued write is stored"
        );
    }
    Ok(())
}

#[tokio::test]
async fn a_claim_fences_every_write_made_under_the_claim_before_it() -> Result<()> {
    for Opened { name, store } in stores("claim").await? {
        room_with_actions(&store, CODE, 2).await?;
        ensure!(
            load(&store, CODE)?.epoch == FIRST_EPOCH,
            "{name}: a new room is its creator's"
        );
        // another server takes the room over
        let claimed = store
            .claim_room(CODE)?
            .ok_or_else(|| anyhow::anyhow!("{name}: the room is there to claim"))?;
        ensure!(claimed.epoch == FIRST_EPOCH + 1, "{name}: the claim raised the epoch");
        ensure!(
            current_game(&claimed)?.actions.len() == 2,
            "{name}: the claim loads the room"
        );
        ensure!(
            store.epochs(&[CODE.into(), "NOROOM23".into()])? == vec![(CODE.to_string(), FIRST_EPOCH + 1)],
            "{name}: epochs of stored rooms only"
        );
        // the old owner can write nothing for the room, even at a seq nobody stored
        let old = |op: WriteOp| store.submit(FIRST_EPOCH, op);
        let refused = [
            old(append(CODE, 1, 4, Faction::Rebel, Action::Pass)),
            old(start_game(CODE, 2, 4, Faction::Imperial)),
            old(WriteOp::SetGuest {
                code: CODE.into(),
                guest_hash: vec![9; 32],
                guest_name: None,
            }),
            old(WriteOp::AgreeToReveal {
                code: CODE.into(),
                game_no: 1,
                faction: Faction::Rebel,
            }),
            old(WriteOp::EndGame {
                code: CODE.into(),
                game_no: 1,
                result: GameResult {
                    forfeit_winner: Some(Faction::Rebel),
                    reason: ForfeitReason::OpponentAway,
                },
                rated: None,
            }),
            old(WriteOp::Chat {
                code: CODE.into(),
                chat: StoredChat {
                    game_no: 1,
                    message: chat_message(1),
                },
            }),
        ];
        for (i, answer) in refused.into_iter().enumerate() {
            ensure!(
                matches!(answer.await?, Err(StoreError::Fenced)),
                "{name}: write {i} under the old claim is fenced"
            );
        }
        let room = load(&store, CODE)?;
        let game = current_game(&room)?;
        ensure!(
            game.game_no == 1 && game.actions.len() == 2 && game.result.is_none(),
            "{name}: no game, action or result was written"
        );
        ensure!(
            room.guest_hash.is_none() && room.chat.is_empty() && game.reveal == ByFaction::new(false, false),
            "{name}: no guest, chat or agreement was written"
        );
        // the new owner writes on
        store
            .submit(FIRST_EPOCH + 1, append(CODE, 1, 4, Faction::Rebel, Action::Pass))
            .await??;
        ensure!(
            current_game(&load(&store, CODE)?)?.actions.len() == 3,
            "{name}: the owner's action is stored"
        );
        store.close();
    }
    Ok(())
}
