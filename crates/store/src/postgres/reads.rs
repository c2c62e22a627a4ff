//! The PostgreSQL store's reading side: a room with its latest game, a game with its actions,
//! the room's latest chat, decoded as SQLite's are (`columns.rs`).

use tokio_postgres::{Client, Row};

use super::describe;
use crate::columns::{faction_from_text, from_json, secret_from_columns};
use crate::{
    CHAT_KEPT, Epoch, GameResult, StoreError, StoredAction, StoredChat, StoredDevice, StoredGame, StoredRoom,
    StoredSeat, StoredTransfer,
};

fn read_error(e: tokio_postgres::Error) -> StoreError {
    StoreError::Read(describe(&e))
}

fn get<'a, T: tokio_postgres::types::FromSql<'a>>(row: &'a Row, i: usize) -> Result<T, StoreError> {
    row.try_get(i).map_err(read_error)
}

pub(super) async fn load_room(c: &Client, code: &str) -> Result<Option<StoredRoom>, StoreError> {
    let Some(r) = c
        .query_opt(
            "SELECT code, options, invite_hash, creator_hash, guest_hash, owner_epoch, join_code_hash, join_failures,
                    creator_name, guest_name
             FROM rooms WHERE code = $1",
            &[&code],
        )
        .await
        .map_err(read_error)?
    else {
        return Ok(None);
    };
    let code: String = get(&r, 0)?;
    let options: String = get(&r, 1)?;
    Ok(Some(StoredRoom {
        options: from_json(&options, || format!("room {code}: options"))?,
        invite_hash: get(&r, 2)?,
        creator_hash: get(&r, 3)?,
        guest_hash: get(&r, 4)?,
        epoch: get::<i64>(&r, 5)? as Epoch,
        join_code_hash: get(&r, 6)?,
        join_failures: get::<i64>(&r, 7)? as u32,
        creator_name: get(&r, 8)?,
        guest_name: get(&r, 9)?,
        devices: load_devices(c, &code).await?,
        transfers: load_transfers(c, &code).await?,
        // Only the current game matters: a rematch starts from its own seed.
        game: load_game(c, &code, None).await?,
        chat: load_chat(c, &code).await?,
        code,
    }))
}

/// The devices each seat was moved to.
async fn load_devices(c: &Client, code: &str) -> Result<Vec<StoredDevice>, StoreError> {
    let rows = c
        .query(
            "SELECT seat, token_hash, added_at FROM seat_devices WHERE room_code = $1 ORDER BY added_at",
            &[&code],
        )
        .await
        .map_err(read_error)?;
    rows.iter()
        .map(|r| {
            Ok(StoredDevice {
                seat: StoredSeat::from_text(&get::<String>(r, 0)?)?,
                token_hash: get(r, 1)?,
                added_at: get(r, 2)?,
            })
        })
        .collect()
}

/// The seats' transfer links not used yet.
async fn load_transfers(c: &Client, code: &str) -> Result<Vec<StoredTransfer>, StoreError> {
    let rows = c
        .query(
            "SELECT seat, secret_hash, expires_at FROM seat_transfers WHERE room_code = $1",
            &[&code],
        )
        .await
        .map_err(read_error)?;
    rows.iter()
        .map(|r| {
            Ok(StoredTransfer {
                seat: StoredSeat::from_text(&get::<String>(r, 0)?)?,
                secret_hash: get(r, 1)?,
                expires_at: get(r, 2)?,
            })
        })
        .collect()
}

/// Game `game_no` of room `code`, or its latest game (`None`), with its actions.
pub(super) async fn load_game(c: &Client, code: &str, game_no: Option<u32>) -> Result<Option<StoredGame>, StoreError> {
    let wanted = game_no.map(i64::from);
    let Some(r) = c
        .query_opt(
            "SELECT game_no, seed, creator_faction, start_seq, result, seed_key, seed_salt, reveal_rebel,
                    reveal_imperial, started_at
             FROM games WHERE room_code = $1 AND ($2::BIGINT IS NULL OR game_no = $2) ORDER BY game_no DESC LIMIT 1",
            &[&code, &wanted],
        )
        .await
        .map_err(read_error)?
    else {
        return Ok(None);
    };
    let game_no = get::<i64>(&r, 0)? as u32;
    let result: Option<String> = get(&r, 4)?;
    Ok(Some(StoredGame {
        game_no,
        secret: secret_from_columns(get(&r, 1)?, get(&r, 5)?, get(&r, 6)?, || {
            format!("room {code} game {game_no}")
        })?,
        creator_faction: faction_from_text(&get::<String>(&r, 2)?)?,
        start_seq: get::<i64>(&r, 3)? as u32,
        result: result
            .map(|t| from_json::<GameResult>(&t, || format!("room {code} game {game_no}: result")))
            .transpose()?,
        reveal: evr_rules::ByFaction::new(get(&r, 7)?, get(&r, 8)?),
        started_at: get(&r, 9)?,
        actions: load_actions(c, code, game_no).await?,
    }))
}

async fn load_actions(c: &Client, code: &str, game_no: u32) -> Result<Vec<StoredAction>, StoreError> {
    let rows = c
        .query(
            "SELECT seq, seat, action, action_id, clock_ms FROM actions WHERE room_code = $1 AND game_no = $2 ORDER BY seq",
            &[&code, &i64::from(game_no)],
        )
        .await
        .map_err(read_error)?;
    rows.iter()
        .map(|r| {
            let seq = get::<i64>(r, 0)? as u32;
            let clock: Option<String> = get(r, 4)?;
            Ok(StoredAction {
                seq,
                seat: faction_from_text(&get::<String>(r, 1)?)?,
                action: from_json(&get::<String>(r, 2)?, || format!("room {code} seq {seq}: action"))?,
                action_id: get(r, 3)?,
                clock_ms: clock
                    .map(|t| from_json(&t, || format!("room {code} seq {seq}: clock")))
                    .transpose()?,
            })
        })
        .collect()
}

/// The room's latest `CHAT_KEPT` messages, oldest first.
async fn load_chat(c: &Client, code: &str) -> Result<Vec<StoredChat>, StoreError> {
    let rows = c
        .query(
            "SELECT id, game_no, at, channel, author, body, author_name FROM chat WHERE room_code = $1
             ORDER BY id DESC LIMIT $2",
            &[&code, &(CHAT_KEPT as i64)],
        )
        .await
        .map_err(read_error)?;
    let mut out = rows
        .iter()
        .map(|r| {
            let id = get::<i64>(r, 0)?;
            let what = || format!("room {code} chat {id}");
            let game_no = get::<i64>(r, 1)? as u32;
            Ok(StoredChat {
                game_no,
                message: evr_protocol::ChatMessage {
                    id: id as u64,
                    at: get(r, 2)?,
                    game: game_no,
                    channel: from_json(&get::<String>(r, 3)?, what)?,
                    from: from_json(&get::<String>(r, 4)?, what)?,
                    body: from_json(&get::<String>(r, 5)?, what)?,
                    name: get(r, 6)?,
                },
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    out.reverse();
    Ok(out)
}
