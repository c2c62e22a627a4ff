//! The SQLite store's reading side: a room with its latest game, seats and chat; a game with its
//! actions. Run on the reading connection, which WAL lets read while the writer commits.

use evr_protocol::ChatMessage;
use evr_rules::ByFaction;
use rusqlite::{Connection, OptionalExtension, params};

use crate::columns::{faction_from_text, from_json, secret_from_columns};
use crate::{
    CHAT_KEPT, Epoch, GameResult, StoreError, StoredAction, StoredChat, StoredDevice, StoredGame, StoredRoom,
    StoredSeat, StoredTransfer,
};

fn read_error(e: rusqlite::Error) -> StoreError {
    StoreError::Read(e.to_string())
}

/// Game `game_no` of room `code`, or its latest game (`None`), with its actions.
pub(super) fn load_game(conn: &Connection, code: &str, game_no: Option<u32>) -> Result<Option<StoredGame>, StoreError> {
    let row = conn
        .query_row(
            "SELECT game_no, seed, creator_faction, start_seq, result, seed_key, seed_salt, reveal_rebel, reveal_imperial,
                    started_at
             FROM games WHERE room_code = ?1 AND (?2 IS NULL OR game_no = ?2) ORDER BY game_no DESC LIMIT 1",
            params![code, game_no],
            |r| {
                Ok((
                    (r.get::<_, u32>(0)?, r.get::<_, i64>(1)?, r.get::<_, String>(2)?, r.get::<_, u32>(3)?),
                    (r.get::<_, Option<String>>(4)?, r.get::<_, Option<Vec<u8>>>(5)?, r.get::<_, Option<Vec<u8>>>(6)?),
                    (r.get::<_, bool>(7)?, r.get::<_, bool>(8)?, r.get::<_, Option<i64>>(9)?),
                ))
            },
        )
        .optional()
        .map_err(read_error)?;
    let Some((
        (game_no, seed, creator_faction, start_seq),
        (result, key, salt),
        (reveal_rebel, reveal_imperial, started_at),
    )) = row
    else {
        return Ok(None);
    };
    Ok(Some(StoredGame {
        game_no,
        secret: secret_from_columns(seed, key, salt, || format!("room {code} game {game_no}"))?,
        creator_faction: faction_from_text(&creator_faction)?,
        start_seq,
        result: result
            .map(|r| from_json::<GameResult>(&r, || format!("room {code} game {game_no}: result")))
            .transpose()?,
        reveal: ByFaction::new(reveal_rebel, reveal_imperial),
        started_at,
        actions: load_actions(conn, code, game_no)?,
    }))
}

pub(super) fn load_room(conn: &Connection, code: &str) -> Result<Option<StoredRoom>, StoreError> {
    let room = conn
        .query_row(
            "SELECT code, options, invite_hash, creator_hash, guest_hash, owner_epoch, join_code_hash, join_failures,
                    creator_name, guest_name
             FROM rooms WHERE code = ?1",
            [code],
            |r| {
                Ok((
                    (r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, i64>(5)?),
                    (
                        r.get::<_, Vec<u8>>(2)?,
                        r.get::<_, Vec<u8>>(3)?,
                        r.get::<_, Option<Vec<u8>>>(4)?,
                    ),
                    (r.get::<_, Option<Vec<u8>>>(6)?, r.get::<_, u32>(7)?),
                    (r.get::<_, Option<String>>(8)?, r.get::<_, Option<String>>(9)?),
                ))
            },
        )
        .optional()
        .map_err(read_error)?;
    let Some((
        (code, options, epoch),
        (invite_hash, creator_hash, guest_hash),
        (join_code_hash, join_failures),
        (creator_name, guest_name),
    )) = room
    else {
        return Ok(None);
    };
    let options = from_json(&options, || format!("room {code}: options"))?;
    // Only the current game matters: a rematch starts from its own seed.
    let game = load_game(conn, &code, None)?;
    let chat = load_chat(conn, &code)?;
    Ok(Some(StoredRoom {
        epoch: epoch as Epoch,
        options,
        invite_hash,
        join_code_hash,
        join_failures,
        creator_hash,
        guest_hash,
        creator_name,
        guest_name,
        devices: load_devices(conn, &code)?,
        transfers: load_transfers(conn, &code)?,
        game,
        chat,
        code,
    }))
}

/// The devices each seat was moved to.
fn load_devices(conn: &Connection, code: &str) -> Result<Vec<StoredDevice>, StoreError> {
    let mut stmt = conn
        .prepare_cached("SELECT seat, token_hash, added_at FROM seat_devices WHERE room_code = ?1 ORDER BY added_at")
        .map_err(read_error)?;
    let rows = stmt
        .query_map([code], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, Vec<u8>>(1)?, r.get::<_, i64>(2)?))
        })
        .map_err(read_error)?;
    let mut out = Vec::new();
    for row in rows {
        let (seat, token_hash, added_at) = row.map_err(read_error)?;
        out.push(StoredDevice {
            seat: StoredSeat::from_text(&seat)?,
            token_hash,
            added_at,
        });
    }
    Ok(out)
}

/// The seats' transfer links not used yet.
fn load_transfers(conn: &Connection, code: &str) -> Result<Vec<StoredTransfer>, StoreError> {
    let mut stmt = conn
        .prepare_cached("SELECT seat, secret_hash, expires_at FROM seat_transfers WHERE room_code = ?1")
        .map_err(read_error)?;
    let rows = stmt
        .query_map([code], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, Vec<u8>>(1)?, r.get::<_, i64>(2)?))
        })
        .map_err(read_error)?;
    let mut out = Vec::new();
    for row in rows {
        let (seat, secret_hash, expires_at) = row.map_err(read_error)?;
        out.push(StoredTransfer {
            seat: StoredSeat::from_text(&seat)?,
            secret_hash,
            expires_at,
        });
    }
    Ok(out)
}

/// The room's latest `CHAT_KEPT` messages, oldest first.
fn load_chat(conn: &Connection, code: &str) -> Result<Vec<StoredChat>, StoreError> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT id, game_no, at, channel, author, body, author_name FROM chat WHERE room_code = ?1
             ORDER BY id DESC LIMIT ?2",
        )
        .map_err(read_error)?;
    let rows = stmt
        .query_map(params![code, CHAT_KEPT as i64], |r| {
            Ok((
                (r.get::<_, i64>(0)?, r.get::<_, u32>(1)?, r.get::<_, i64>(2)?),
                (r.get::<_, String>(3)?, r.get::<_, String>(4)?, r.get::<_, String>(5)?),
                r.get::<_, Option<String>>(6)?,
            ))
        })
        .map_err(read_error)?;
    let mut out = Vec::new();
    for row in rows {
        let ((id, game_no, at), (channel, author, body), name) = row.map_err(read_error)?;
        let what = || format!("room {code} chat {id}");
        out.push(StoredChat {
            game_no,
            message: ChatMessage {
                id: id as u64,
                at,
                game: game_no,
                channel: from_json(&channel, what)?,
                from: from_json(&author, what)?,
                body: from_json(&body, what)?,
                name,
            },
        });
    }
    out.reverse();
    Ok(out)
}

fn load_actions(conn: &Connection, code: &str, game_no: u32) -> Result<Vec<StoredAction>, StoreError> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT seq, seat, action, action_id, clock_ms FROM actions WHERE room_code = ?1 AND game_no = ?2 ORDER BY seq",
        )
        .map_err(read_error)?;
    let rows = stmt
        .query_map(params![code, game_no], |r| {
            Ok((
                r.get::<_, u32>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, Option<String>>(4)?,
            ))
        })
        .map_err(read_error)?;
    let mut actions = Vec::new();
    for row in rows {
        let (seq, seat, action, action_id, clock_ms) = row.map_err(read_error)?;
        actions.push(StoredAction {
            seq,
            seat: faction_from_text(&seat)?,
            action: from_json(&action, || format!("room {code} seq {seq}: action"))?,
            action_id,
            clock_ms: clock_ms
                .map(|c| from_json(&c, || format!("room {code} seq {seq}: clock")))
                .transpose()?,
        });
    }
    Ok(actions)
}
