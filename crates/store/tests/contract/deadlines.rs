//! Correspondence deadlines in every store: a room's deadlines and wake-up load back as written
//! (with an action, alone, or with a reminder), the rooms due are found by their wake-up, earliest
//! first, a game's end clears the wake-up, a reminder is recorded at most once, and every such
//! write under an old claim is fenced.

use anyhow::{Result, ensure};
use evr_protocol::ForfeitReason;
use evr_rules::{Action, ByFaction, Faction};
use evr_store::{
    Deadlines, DueDecision, FIRST_EPOCH, GameResult, ReminderKind, StoreError, StoredReminder, Wake, WriteOp,
};

use crate::core::{CODE, Opened, append, room_with_actions, stores, write};

fn wake(game_no: u32, rebel_due: Option<(i64, u32)>, wake_at: Option<i64>) -> Wake {
    let due = |d: Option<(i64, u32)>| d.map(|(at_ms, seq)| DueDecision { at_ms, seq });
    Wake {
        deadlines: Deadlines {
            game_no,
            due: ByFaction::new(due(rebel_due), due(Some((5, 1)))),
        },
        wake_at,
    }
}

fn set_wake(code: &str, w: Wake) -> WriteOp {
    WriteOp::SetWake {
        code: code.into(),
        wake: w,
    }
}

fn reminder(code: &str, side: Faction, decision_seq: u32, kind: ReminderKind, w: Wake) -> WriteOp {
    WriteOp::Reminder {
        code: code.into(),
        reminder: StoredReminder {
            game_no: 1,
            side,
            decision_seq,
            kind,
        },
        recorded_at: 1_790_000_000_000,
        wake: w,
    }
}

#[tokio::test]
async fn the_rooms_due_are_found_by_their_wake_up_and_a_game_end_clears_it() -> Result<()> {
    for Opened { name, store } in stores("wake").await? {
        for code in ["ROOMAAAA", "ROOMBBBB", "ROOMCCCC"] {
            room_with_actions(&store, code, 1).await?;
        }
        ensure!(
            store.due_rooms(i64::MAX, 10)?.is_empty(),
            "{name}: nothing is due at first"
        );
        write(&store, set_wake("ROOMBBBB", wake(1, Some((10, 2)), Some(3_000)))).await?;
        write(&store, set_wake("ROOMAAAA", wake(1, None, Some(1_000)))).await?;
        write(&store, set_wake("ROOMCCCC", wake(1, Some((20, 2)), None))).await?;
        ensure!(
            store.due_rooms(999, 10)?.is_empty(),
            "{name}: none due before the first"
        );
        ensure!(
            store.due_rooms(1_000, 10)? == ["ROOMAAAA"],
            "{name}: due at its wake-up"
        );
        ensure!(
            store.due_rooms(5_000, 10)? == ["ROOMAAAA", "ROOMBBBB"],
            "{name}: earliest first, never the room without a wake-up"
        );
        ensure!(store.due_rooms(5_000, 1)? == ["ROOMAAAA"], "{name}: at most the limit");

        let b = store.load_deadlines("ROOMBBBB", 1)?;
        ensure!(
            b.wake_at == Some(3_000) && b.deadlines == Some(wake(1, Some((10, 2)), None).deadlines),
            "{name}: the deadlines load back: {b:?}"
        );
        ensure!(
            store.load_deadlines("NOROOM23", 1)? == Default::default(),
            "{name}: no room, nothing due"
        );

        // an action carries the deadlines after it, in the same write
        let WriteOp::AppendAction {
            code,
            game_no,
            seq,
            seat,
            action,
            action_id,
            clock_ms,
            ..
        } = append("ROOMBBBB", 1, 3, Faction::Imperial, Action::Pass)
        else {
            anyhow::bail!("append is an action");
        };
        let after = wake(1, Some((77, 3)), Some(8_000));
        write(
            &store,
            WriteOp::AppendAction {
                code,
                game_no,
                seq,
                seat,
                action,
                action_id,
                clock_ms,
                wake: Some(after),
                rated: None,
            },
        )
        .await?;
        let b = store.load_deadlines("ROOMBBBB", 1)?;
        ensure!(
            b.wake_at == Some(8_000) && b.deadlines == Some(after.deadlines),
            "{name}: the action's deadlines are stored: {b:?}"
        );
        ensure!(store.due_rooms(5_000, 10)? == ["ROOMAAAA"], "{name}: B wakes later now");

        write(
            &store,
            WriteOp::EndGame {
                code: "ROOMAAAA".into(),
                game_no: 1,
                result: GameResult {
                    forfeit_winner: Some(Faction::Imperial),
                    reason: ForfeitReason::Time,
                },
                rated: None,
            },
        )
        .await?;
        ensure!(
            store.due_rooms(i64::MAX, 10)? == ["ROOMBBBB"],
            "{name}: a game's end clears its room's wake-up"
        );
        ensure!(
            store.load_deadlines("ROOMAAAA", 1)?.wake_at.is_none(),
            "{name}: cleared"
        );
        // a game ends once: a second result is refused and the first stays
        let again = write(
            &store,
            WriteOp::EndGame {
                code: "ROOMAAAA".into(),
                game_no: 1,
                result: GameResult {
                    forfeit_winner: Some(Faction::Rebel),
                    reason: ForfeitReason::OpponentAway,
                },
                rated: None,
            },
        )
        .await;
        ensure!(
            matches!(again, Err(StoreError::Fenced)),
            "{name}: ended twice: {again:?}"
        );
        let result = crate::core::current_game(&crate::core::load(&store, "ROOMAAAA")?)?.result;
        ensure!(
            result.and_then(|r| r.forfeit_winner) == Some(Faction::Imperial),
            "{name}: the first result stays: {result:?}"
        );
    }
    Ok(())
}

#[tokio::test]
async fn a_reminder_is_recorded_once_and_moves_the_wake_up() -> Result<()> {
    for Opened { name, store } in stores("reminders").await? {
        room_with_actions(&store, CODE, 2).await?;
        write(&store, set_wake(CODE, wake(1, Some((10, 2)), Some(1_000)))).await?;
        let later = wake(1, Some((10, 2)), Some(9_000));
        write(&store, reminder(CODE, Faction::Rebel, 2, ReminderKind::YourTurn, later)).await?;
        let d = store.load_deadlines(CODE, 1)?;
        ensure!(
            d.wake_at == Some(9_000),
            "{name}: the wake-up moved with the reminder: {d:?}"
        );
        ensure!(
            d.reminders
                == [StoredReminder {
                    game_no: 1,
                    side: Faction::Rebel,
                    decision_seq: 2,
                    kind: ReminderKind::YourTurn,
                }],
            "{name}: the reminder loads back: {:?}",
            d.reminders
        );
        ensure!(
            store.load_deadlines(CODE, 2)?.reminders.is_empty(),
            "{name}: another game's reminders are not this one's"
        );
        // the same reminder again is refused (as a fenced write: someone else recorded it)
        let again = write(&store, reminder(CODE, Faction::Rebel, 2, ReminderKind::YourTurn, later)).await;
        ensure!(
            matches!(again, Err(StoreError::Fenced)),
            "{name}: recorded twice: {again:?}"
        );
        // another kind, side or decision is another reminder
        for (side, seq, kind) in [
            (Faction::Rebel, 2, ReminderKind::TimeRunningOut),
            (Faction::Imperial, 2, ReminderKind::YourTurn),
            (Faction::Rebel, 3, ReminderKind::YourTurn),
        ] {
            write(&store, reminder(CODE, side, seq, kind, later)).await?;
        }
        ensure!(
            store.load_deadlines(CODE, 1)?.reminders.len() == 4,
            "{name}: four reminders"
        );
    }
    Ok(())
}

#[tokio::test]
async fn deadlines_and_reminders_under_an_old_claim_are_fenced() -> Result<()> {
    for Opened { name, store } in stores("wakeclaim").await? {
        room_with_actions(&store, CODE, 1).await?;
        write(&store, set_wake(CODE, wake(1, Some((10, 2)), Some(1_000)))).await?;
        ensure!(store.claim_room(CODE)?.is_some(), "{name}: claimed");
        let stale = wake(1, None, Some(50));
        let refused = [
            store.submit(FIRST_EPOCH, set_wake(CODE, stale)),
            store.submit(
                FIRST_EPOCH,
                reminder(CODE, Faction::Rebel, 2, ReminderKind::YourTurn, stale),
            ),
        ];
        for (i, answer) in refused.into_iter().enumerate() {
            ensure!(
                matches!(answer.await?, Err(StoreError::Fenced)),
                "{name}: write {i} under the old claim is fenced"
            );
        }
        let d = store.load_deadlines(CODE, 1)?;
        ensure!(
            d.wake_at == Some(1_000) && d.reminders.is_empty(),
            "{name}: nothing was written: {d:?}"
        );
        // the new owner writes
        store
            .submit(FIRST_EPOCH + 1, set_wake(CODE, stale))
            .await
            .map_err(|_| StoreError::Closed)??;
        ensure!(store.due_rooms(60, 10)? == [CODE], "{name}: the new owner's wake-up");
    }
    Ok(())
}
