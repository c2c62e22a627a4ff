//! The SQLite store across schema versions: games stored before seed keys keep their 64-bit seed,
//! keyed games keep key and salt, and a half-written secret is reported as damage.

use rusqlite::Connection;
use rusqlite_migration::{M, Migrations};

use super::SqliteStore;
use super::schema::SCHEMA;
use crate::GameSecret;
use crate::{Store, StoreError, WriteOp};

const OPTIONS: &str = r#"{"side":"rebel","mode":"full","spectators":"anyone_with_link"}"#;

/// A fresh directory under the system's temporary one (removed by `Drop`).
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let dir = std::env::temp_dir().join(format!("evr-store-{name}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn room_with_game(conn: &Connection, code: &str) {
    conn.execute(
        "INSERT INTO rooms (code, options, invite_hash, creator_hash, created_at) VALUES (?1, ?2, x'00', x'00', 0)",
        [code, OPTIONS],
    )
    .expect("a room");
    conn.execute(
        "INSERT INTO games (room_code, game_no, seed, creator_faction, start_seq) VALUES (?1, 1, 42, 'rebel', 0)",
        [code],
    )
    .expect("a game");
}

#[test]
fn a_game_stored_before_seed_keys_keeps_its_64_bit_seed() {
    let dir = TempDir::new("legacy");
    {
        // the database as the previous release left it: schema version 1 only
        let mut conn = Connection::open(dir.0.join("evr.sqlite3")).expect("open");
        Migrations::new(vec![M::up(SCHEMA)])
            .to_latest(&mut conn)
            .expect("schema 1");
        room_with_game(&conn, "OLDROOM234");
    }
    let store = SqliteStore::open(&dir.0).expect("opens and migrates");
    let room = store.load_room("OLDROOM234").expect("loads").expect("the room");
    let game = room.game.expect("its game");
    assert_eq!(game.secret, GameSecret::Legacy(42));
    assert_eq!(game.started_at, None, "no date was kept then");
    store.close();
}

#[test]
fn a_keyed_game_keeps_its_key_and_salt() {
    let dir = TempDir::new("keyed");
    let store = SqliteStore::open(&dir.0).expect("opens");
    let secret = GameSecret::Committed {
        key: [3; 32],
        salt: [4; 16],
    };
    let room = store.submit(
        crate::FIRST_EPOCH,
        WriteOp::CreateRoom {
            code: "KEYROOM234".into(),
            options: serde_json::from_str(OPTIONS).expect("options"),
            invite_hash: vec![0],
            join_code_hash: None,
            creator_hash: vec![0],
            creator_name: None,
            created_at: 0,
        },
    );
    let game = store.submit(
        crate::FIRST_EPOCH,
        WriteOp::StartGame {
            code: "KEYROOM234".into(),
            game_no: 1,
            secret,
            creator_faction: evr_rules::Faction::Rebel,
            seq: 0,
            started_at: 1_790_000_000,
        },
    );
    room.blocking_recv().expect("answered").expect("stored");
    game.blocking_recv().expect("answered").expect("stored");
    let loaded = store.load_room("KEYROOM234").expect("loads").expect("the room");
    let game = loaded.game.expect("its game");
    assert_eq!(game.secret, secret);
    assert_eq!(game.started_at, Some(1_790_000_000));
    assert_eq!(store.game_numbers("KEYROOM234").expect("listed"), vec![1]);
    store.close();
}

#[test]
fn a_key_without_its_salt_is_damage() {
    let dir = TempDir::new("damaged");
    let store = SqliteStore::open(&dir.0).expect("opens");
    {
        let conn = Connection::open(dir.0.join("evr.sqlite3")).expect("open");
        room_with_game(&conn, "BADROOM234");
        conn.execute(
            "UPDATE games SET seed_key = zeroblob(32) WHERE room_code = 'BADROOM234'",
            [],
        )
        .expect("damage");
    }
    match store.load_room("BADROOM234") {
        Err(StoreError::Corrupt { what }) => assert!(what.contains("without its salt"), "{what}"),
        other => panic!("expected Corrupt, got {other:?}"),
    }
    store.close();
}
