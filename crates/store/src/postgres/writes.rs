//! The PostgreSQL store's writing side: its prepared statements (every write but a room's
//! creation checks the room's claim in the same statement) and the group commit that runs them —
//! every write queued while the previous batch committed joins the next transaction, pipelined.

use evr_rules::Faction;
use futures_util::future::join_all;
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, Statement};

use super::tls::Target;
use super::{PATIENCE, connect, describe};
use crate::columns::{faction_text, json, secret_columns};
use crate::deadlines::{Wake, sql};
use crate::group_commit::outcome;
use crate::{StoreError, StoredSeat, Write, WriteOp};

/// The most writes committed in one transaction.
const MAX_BATCH: usize = 512;

pub(super) type Reply = oneshot::Sender<Result<(), StoreError>>;

/// What the writing task is sent.
pub(super) enum Job {
    Write(Write, Reply),
    /// Commit what is queued, then stop and say so.
    Close(std::sync::mpsc::Sender<()>),
}

fn write_error(e: &tokio_postgres::Error) -> StoreError {
    StoreError::Write(describe(e))
}

/// The prepared statements of the writing connection.
struct Statements {
    create_room: Statement,
    set_guest: Statement,
    creator_name: Statement,
    guest_name: Statement,
    new_invite: Statement,
    wrong_join_code: Statement,
    issue_transfer: Statement,
    take_seat: Statement,
    add_device: Statement,
    keep_one_device: Statement,
    start_game: Statement,
    append_action: Statement,
    reveal_rebel: Statement,
    reveal_imperial: Statement,
    chat: Statement,
    end_game: Statement,
    set_wake: Statement,
    clear_wake: Statement,
    record_reminder: Statement,
}

/// The claim check every write but a room's creation makes, in its own statement: the room's row
/// is read `FOR SHARE`, so a claim (which updates that row) waits for this transaction, and a
/// write that comes after a claim sees it.
const OWNED: &str = "EXISTS (SELECT 1 FROM rooms WHERE code = $1 AND owner_epoch = $EPOCH FOR SHARE)";

async fn prepare(c: &Client) -> Result<Statements, tokio_postgres::Error> {
    let owned = |n: u32| OWNED.replace("$EPOCH", &format!("${n}"));
    Ok(Statements {
        create_room: c
            .prepare(
                "INSERT INTO rooms (code, options, invite_hash, join_code_hash, creator_hash, creator_name, created_at,
                                    owner_epoch)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .await?,
        set_guest: c
            .prepare("UPDATE rooms SET guest_hash = $2, guest_name = $3 WHERE code = $1 AND owner_epoch = $4")
            .await?,
        creator_name: c
            .prepare("UPDATE rooms SET creator_name = $2 WHERE code = $1 AND owner_epoch = $3")
            .await?,
        guest_name: c
            .prepare("UPDATE rooms SET guest_name = $2 WHERE code = $1 AND owner_epoch = $3")
            .await?,
        new_invite: c
            .prepare(
                "UPDATE rooms SET invite_hash = $2, join_code_hash = $3, join_failures = 0
                 WHERE code = $1 AND owner_epoch = $4",
            )
            .await?,
        wrong_join_code: c
            .prepare("UPDATE rooms SET join_failures = join_failures + 1 WHERE code = $1 AND owner_epoch = $2")
            .await?,
        issue_transfer: c
            .prepare(&format!(
                "INSERT INTO seat_transfers (room_code, seat, secret_hash, expires_at)
                 SELECT $1, $2, $3, $4 WHERE {}
                 ON CONFLICT (room_code, seat) DO UPDATE SET secret_hash = EXCLUDED.secret_hash,
                                                             expires_at = EXCLUDED.expires_at",
                owned(5)
            ))
            .await?,
        // the link is used up only under the claim, and only the link used up seats the device
        take_seat: c
            .prepare(&format!(
                "WITH used AS (DELETE FROM seat_transfers WHERE room_code = $1 AND seat = $2 AND secret_hash = $3
                               AND {} RETURNING 1)
                 INSERT INTO seat_devices (room_code, seat, token_hash, added_at)
                 SELECT $1, $2, $4, $5 WHERE EXISTS (SELECT 1 FROM used)",
                owned(6)
            ))
            .await?,
        add_device: c
            .prepare(&format!(
                "INSERT INTO seat_devices (room_code, seat, token_hash, added_at)
                 SELECT $1, $2, $3, $4 WHERE {}",
                owned(5)
            ))
            .await?,
        // one statement: the seat's hash replaced under the claim, and only then its other devices
        // and its link dropped (a data-modifying CTE runs whether or not the query reads it; the
        // SELECT counts the rooms updated, 0 when fenced)
        keep_one_device: c
            .prepare(
                "WITH kept AS (UPDATE rooms SET creator_hash = CASE WHEN $2 = 'creator' THEN $3 ELSE creator_hash END,
                                                guest_hash = CASE WHEN $2 = 'guest' THEN $3 ELSE guest_hash END
                               WHERE code = $1 AND owner_epoch = $4 RETURNING 1),
                      devices AS (DELETE FROM seat_devices WHERE room_code = $1 AND seat = $2
                                  AND EXISTS (SELECT 1 FROM kept)),
                      links AS (DELETE FROM seat_transfers WHERE room_code = $1 AND seat = $2
                                AND EXISTS (SELECT 1 FROM kept))
                 SELECT 1 FROM kept",
            )
            .await?,
        start_game: c
            .prepare(&format!(
                "INSERT INTO games (room_code, game_no, seed, seed_key, seed_salt, creator_faction, start_seq, started_at)
                 SELECT $1, $2, $3, $4, $5, $6, $7, $8 WHERE {} ON CONFLICT DO NOTHING",
                owned(9)
            ))
            .await?,
        append_action: c
            .prepare(&format!(
                "INSERT INTO actions (room_code, game_no, seq, seat, action, action_id, clock_ms)
                 SELECT $1, $2, $3, $4, $5, $6, $7 WHERE {} ON CONFLICT DO NOTHING",
                owned(8)
            ))
            .await?,
        reveal_rebel: c
            .prepare(&format!(
                "UPDATE games SET reveal_rebel = TRUE WHERE room_code = $1 AND game_no = $2 AND {}",
                owned(3)
            ))
            .await?,
        reveal_imperial: c
            .prepare(&format!(
                "UPDATE games SET reveal_imperial = TRUE WHERE room_code = $1 AND game_no = $2 AND {}",
                owned(3)
            ))
            .await?,
        chat: c
            .prepare(&format!(
                "INSERT INTO chat (room_code, id, game_no, at, channel, author, body, author_name)
                 SELECT $1, $2, $3, $4, $5, $6, $7, $9 WHERE {} ON CONFLICT DO NOTHING",
                owned(8)
            ))
            .await?,
        end_game: c
            .prepare(&format!(
                "UPDATE games SET result = $3 WHERE room_code = $1 AND game_no = $2 AND result IS NULL AND {}",
                owned(4)
            ))
            .await?,
        set_wake: c.prepare(&sql::postgres(sql::SET_WAKE)).await?,
        clear_wake: c.prepare(&sql::postgres(sql::CLEAR_WAKE)).await?,
        record_reminder: c.prepare(&sql::postgres(sql::RECORD_REMINDER)).await?,
    })
}

/// A statement's parameters, owned.
type Params = Vec<Box<dyn ToSql + Sync + Send>>;

/// A statement with its parameters.
type Run<'a> = (&'a Statement, Params);

fn unwritable(e: serde_json::Error) -> StoreError {
    StoreError::Write(format!("cannot encode: {e}"))
}

/// The write of a room's deadlines and wake-up, under the claim `epoch`.
fn set_wake<'a>(s: &'a Statements, code: &str, wake: &Wake, epoch: i64) -> Result<Run<'a>, StoreError> {
    Ok((
        &s.set_wake,
        vec![
            Box::new(code.to_string()),
            Box::new(json(&wake.deadlines).map_err(unwritable)?),
            Box::new(wake.wake_at),
            Box::new(epoch),
        ],
    ))
}

/// What else a write changes in the same transaction (each under the same claim check): the
/// deadlines after an action or a recorded reminder, the wake-up cleared at a game's end.
fn follow_up<'a>(s: &'a Statements, w: &Write) -> Result<Option<Run<'a>>, StoreError> {
    let epoch = w.epoch as i64;
    Ok(match &w.op {
        WriteOp::AppendAction {
            code, wake: Some(wake), ..
        }
        | WriteOp::Reminder { code, wake, .. } => Some(set_wake(s, code, wake, epoch)?),
        WriteOp::EndGame { code, .. } => Some((&s.clear_wake, vec![Box::new(code.clone()), Box::new(epoch)])),
        _ => None,
    })
}

/// The statement and parameters of one write (its rows written say whether it was applied).
fn statement<'a>(s: &'a Statements, w: &Write) -> Result<Run<'a>, StoreError> {
    let epoch = w.epoch as i64;
    Ok(match &w.op {
        WriteOp::CreateRoom {
            code,
            options,
            invite_hash,
            join_code_hash,
            creator_hash,
            creator_name,
            created_at,
        } => (
            &s.create_room,
            vec![
                Box::new(code.clone()),
                Box::new(json(options).map_err(unwritable)?),
                Box::new(invite_hash.clone()),
                Box::new(join_code_hash.clone()),
                Box::new(creator_hash.clone()),
                Box::new(creator_name.clone()),
                Box::new(*created_at),
                Box::new(epoch),
            ],
        ),
        WriteOp::SetGuest {
            code,
            guest_hash,
            guest_name,
        } => (
            &s.set_guest,
            vec![
                Box::new(code.clone()),
                Box::new(guest_hash.clone()),
                Box::new(guest_name.clone()),
                Box::new(epoch),
            ],
        ),
        WriteOp::SetName { code, seat, name } => (
            match seat {
                StoredSeat::Creator => &s.creator_name,
                StoredSeat::Guest => &s.guest_name,
            },
            vec![Box::new(code.clone()), Box::new(name.clone()), Box::new(epoch)],
        ),
        WriteOp::NewInvite {
            code,
            invite_hash,
            join_code_hash,
        } => (
            &s.new_invite,
            vec![
                Box::new(code.clone()),
                Box::new(invite_hash.clone()),
                Box::new(join_code_hash.clone()),
                Box::new(epoch),
            ],
        ),
        WriteOp::WrongJoinCode { code } => (&s.wrong_join_code, vec![Box::new(code.clone()), Box::new(epoch)]),
        WriteOp::IssueTransfer {
            code,
            seat,
            secret_hash,
            expires_at,
        } => (
            &s.issue_transfer,
            vec![
                Box::new(code.clone()),
                Box::new(seat.as_str().to_string()),
                Box::new(secret_hash.clone()),
                Box::new(*expires_at),
                Box::new(epoch),
            ],
        ),
        WriteOp::TakeSeat {
            code,
            seat,
            secret_hash,
            token_hash,
            added_at,
        } => (
            &s.take_seat,
            vec![
                Box::new(code.clone()),
                Box::new(seat.as_str().to_string()),
                Box::new(secret_hash.clone()),
                Box::new(token_hash.clone()),
                Box::new(*added_at),
                Box::new(epoch),
            ],
        ),
        WriteOp::AddDevice {
            code,
            seat,
            token_hash,
            added_at,
        } => (
            &s.add_device,
            vec![
                Box::new(code.clone()),
                Box::new(seat.as_str().to_string()),
                Box::new(token_hash.clone()),
                Box::new(*added_at),
                Box::new(epoch),
            ],
        ),
        WriteOp::KeepOneDevice { code, seat, token_hash } => (
            &s.keep_one_device,
            vec![
                Box::new(code.clone()),
                Box::new(seat.as_str().to_string()),
                Box::new(token_hash.clone()),
                Box::new(epoch),
            ],
        ),
        WriteOp::StartGame {
            code,
            game_no,
            secret,
            creator_faction,
            seq,
            started_at,
        } => {
            let (seed, key, salt) = secret_columns(secret);
            (
                &s.start_game,
                vec![
                    Box::new(code.clone()),
                    Box::new(i64::from(*game_no)),
                    Box::new(seed),
                    Box::new(key),
                    Box::new(salt),
                    Box::new(faction_text(*creator_faction).to_string()),
                    Box::new(i64::from(*seq)),
                    Box::new(*started_at),
                    Box::new(epoch),
                ],
            )
        }
        WriteOp::AppendAction {
            code,
            game_no,
            seq,
            seat,
            action,
            action_id,
            clock_ms,
            wake: _,
            rated: _,
        } => (
            &s.append_action,
            vec![
                Box::new(code.clone()),
                Box::new(i64::from(*game_no)),
                Box::new(i64::from(*seq)),
                Box::new(faction_text(*seat).to_string()),
                Box::new(json(action).map_err(unwritable)?),
                Box::new(action_id.clone()),
                Box::new(clock_ms.map(|c| json(&c)).transpose().map_err(unwritable)?),
                Box::new(epoch),
            ],
        ),
        WriteOp::SetWake { code, wake } => set_wake(s, code, wake, epoch)?,
        WriteOp::Reminder {
            code,
            reminder,
            recorded_at,
            wake: _,
        } => (
            &s.record_reminder,
            vec![
                Box::new(code.clone()),
                Box::new(i64::from(reminder.game_no)),
                Box::new(faction_text(reminder.side).to_string()),
                Box::new(i64::from(reminder.decision_seq)),
                Box::new(reminder.kind.as_str().to_string()),
                Box::new(*recorded_at),
                Box::new(epoch),
            ],
        ),
        WriteOp::AgreeToReveal { code, game_no, faction } => (
            match faction {
                Faction::Rebel => &s.reveal_rebel,
                Faction::Imperial => &s.reveal_imperial,
            },
            vec![Box::new(code.clone()), Box::new(i64::from(*game_no)), Box::new(epoch)],
        ),
        WriteOp::Chat { code, chat } => {
            let m = &chat.message;
            (
                &s.chat,
                vec![
                    Box::new(code.clone()),
                    Box::new(m.id as i64),
                    Box::new(i64::from(chat.game_no)),
                    Box::new(m.at),
                    Box::new(json(&m.channel).map_err(unwritable)?),
                    Box::new(json(&m.from).map_err(unwritable)?),
                    Box::new(json(&m.body).map_err(unwritable)?),
                    Box::new(epoch),
                    Box::new(m.name.clone()),
                ],
            )
        }
        WriteOp::EndGame {
            code,
            game_no,
            result,
            rated: _,
        } => (
            &s.end_game,
            vec![
                Box::new(code.clone()),
                Box::new(i64::from(*game_no)),
                Box::new(json(result).map_err(unwritable)?),
                Box::new(epoch),
            ],
        ),
    })
}

/// The rated game `op` ends, if it ends one.
fn rated_end(op: &WriteOp) -> Option<(&str, u32, &crate::RatedEnd)> {
    match op {
        WriteOp::AppendAction {
            code,
            game_no,
            rated: Some(end),
            ..
        }
        | WriteOp::EndGame {
            code,
            game_no,
            rated: Some(end),
            ..
        } => Some((code, *game_no, end)),
        _ => None,
    }
}

/// Runs `writes` on `c` (in its transaction, if one is open), pipelined: rows written per write.
async fn run_writes(
    c: &tokio_postgres::Transaction<'_>,
    s: &Statements,
    writes: &[Write],
) -> Result<Vec<u64>, StoreError> {
    // each write's statement, then its follow-up if it has one (the connection runs them in order)
    let mut prepared = Vec::with_capacity(writes.len());
    let mut firsts = Vec::with_capacity(writes.len());
    for w in writes {
        firsts.push(prepared.len());
        prepared.push(statement(s, w)?);
        prepared.extend(follow_up(s, w)?);
    }
    let runs = prepared.iter().map(|(stmt, params)| {
        let params: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p.as_ref() as &(dyn ToSql + Sync)).collect();
        async move { c.execute(*stmt, &params).await }
    });
    let rows = join_all(runs)
        .await
        .into_iter()
        .map(|r| r.map_err(|e| write_error(&e)))
        .collect::<Result<Vec<u64>, _>>()?;
    Ok(firsts.into_iter().map(|i| rows.get(i).copied().unwrap_or(0)).collect())
}

/// Commits `writes` in one transaction: for each, rows written.
async fn commit(client: &mut Client, s: &Statements, writes: &[Write]) -> Result<Vec<u64>, StoreError> {
    let tx = client.transaction().await.map_err(|e| write_error(&e))?;
    let rows = run_writes(&tx, s, writes).await?;
    // the ratings of the games these writes ended, in the same transaction (one at a time: each
    // reads what the one before wrote)
    for (w, applied) in writes.iter().zip(&rows) {
        if let (Some((code, game_no, end)), true) = (rated_end(&w.op), *applied > 0) {
            super::ratings::rate_in(&tx, code, game_no, end).await?;
        }
    }
    tx.commit().await.map_err(|e| write_error(&e))?;
    Ok(rows)
}

/// The writing connection, connected again (and its statements prepared) when lost.
struct Writer {
    client: Client,
    statements: Statements,
}

async fn writer(target: &Target) -> Result<Writer, StoreError> {
    let connecting = async {
        let client = connect(target).await.map_err(|e| write_error(&e))?;
        let statements = prepare(&client).await.map_err(|e| write_error(&e))?;
        Ok(Writer { client, statements })
    };
    tokio::time::timeout(PATIENCE, connecting)
        .await
        .unwrap_or_else(|_| Err(StoreError::Write(format!("no answer in {} s", PATIENCE.as_secs()))))
}

/// The group commit: every write queued while the previous batch committed joins the next one.
/// A batch that fails is committed write by write, so that only the failing write is refused.
pub(super) async fn write_loop(client: Client, target: Target, mut jobs: mpsc::UnboundedReceiver<Job>) {
    let mut conn = match prepare(&client).await {
        Ok(statements) => Some(Writer { client, statements }),
        Err(e) => {
            tracing::error!(error = %describe(&e), "cannot prepare the store's statements");
            None
        }
    };
    // whoever asked to close, told once everything queued before is committed
    let mut closing = Vec::new();
    loop {
        // once closing, only what is already queued (more than one batch, maybe) is committed
        let next = if closing.is_empty() {
            jobs.recv().await
        } else {
            jobs.try_recv().ok()
        };
        let Some(first) = next else { break };
        let mut batch = Vec::new();
        let mut replies = Vec::new();
        let mut job = Some(first);
        while let Some(j) = job.take() {
            match j {
                Job::Write(w, reply) => {
                    batch.push(w);
                    replies.push(reply);
                }
                Job::Close(done) => {
                    jobs.close();
                    closing.push(done);
                }
            }
            if batch.len() < MAX_BATCH {
                job = jobs.try_recv().ok();
            }
        }
        if batch.is_empty() {
            continue;
        }
        if conn.as_ref().is_none_or(|w| w.client.is_closed()) {
            conn = writer(&target).await.ok();
        }
        let Some(w) = conn.as_mut() else {
            for reply in replies {
                let _ = reply.send(Err(StoreError::Write("the database cannot be reached".into())));
            }
            continue;
        };
        // a commit with no answer fails its writes (none acknowledged; one that did commit meanwhile
        // is found at the next write of its room, fenced, and the room reloads) and the connection
        // is made again
        let Ok(committed) = tokio::time::timeout(PATIENCE, commit(&mut w.client, &w.statements, &batch)).await else {
            for reply in replies {
                let _ = reply.send(Err(StoreError::Write(format!("no answer in {} s", PATIENCE.as_secs()))));
            }
            conn = None;
            continue;
        };
        match committed {
            Ok(rows) => {
                for (rows, reply) in rows.into_iter().zip(replies) {
                    let _ = reply.send(outcome(rows > 0));
                }
            }
            Err(e) if batch.len() == 1 => {
                for reply in replies {
                    let _ = reply.send(Err(StoreError::Write(e.to_string())));
                }
            }
            Err(_) => {
                for (write, reply) in batch.into_iter().zip(replies) {
                    let alone = tokio::time::timeout(
                        PATIENCE,
                        commit(&mut w.client, &w.statements, std::slice::from_ref(&write)),
                    )
                    .await
                    .unwrap_or_else(|_| Err(StoreError::Write(format!("no answer in {} s", PATIENCE.as_secs()))));
                    let _ = reply.send(alone.and_then(|rows| outcome(rows.first().is_some_and(|n| *n > 0))));
                }
            }
        }
    }
    for done in closing {
        let _ = done.send(());
    }
}
