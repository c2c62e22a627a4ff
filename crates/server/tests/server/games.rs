//! Whole games through real WebSockets: two players choosing random legal actions and a
//! spectator. Every frame each connection received must equal the engine's own view for that
//! viewer at that moment (the oracle replays the stored seed and action log), and `seq` is
//! contiguous.

use std::collections::BTreeMap;
use std::net::SocketAddr;

use anyhow::{Context, Result, anyhow, bail};
use evr_protocol::{ErrorCode, ServerMsg};
use evr_rules::{Action, Faction, Game, GameSeed, Mode, View, Viewer};
use rand::{RngExt, SeedableRng};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::support::{self, Client, Welcome};

/// Plays one seat with random legal actions until the game is over. Returns the client (with all
/// its frames).
async fn play_randomly(mut c: Client, welcome: Welcome, seed: u64) -> Result<Client> {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut seq = welcome.seq;
    let mut view: View = welcome.view;
    let mut acted_on: Option<u32> = None;
    let mut n = 0u32;
    loop {
        if view.outcome.is_some() {
            return Ok(c);
        }
        let legal = &view.legal_actions;
        if !legal.is_empty() && acted_on != Some(seq) {
            let action = legal[rng.random_range(0..legal.len())];
            n += 1;
            c.send(&support::action(seq, format!("a{n}"), action)).await?;
            acted_on = Some(seq);
        }
        match c.recv().await? {
            ServerMsg::Update { seq: s, .. } | ServerMsg::Welcome { seq: s, .. } => {
                seq = s;
                view = c.current_view()?;
            }
            ServerMsg::Error {
                code: ErrorCode::StaleAction,
                ..
            } => acted_on = None,
            m @ ServerMsg::Error { .. } => bail!("unexpected error {m:?}"),
            _ => {}
        }
    }
}

async fn watch_until_over(mut c: Client) -> Result<Client> {
    loop {
        if let ServerMsg::Update { changes, .. } = c.recv().await?
            && changes.outcome.flatten().is_some()
        {
            // then the game's key and salt, told to everyone now that it is over
            c.recv_room().await?;
            return Ok(c);
        }
    }
}

/// The actions of a stored game: `(seq, seat, action)`.
type StoredActions = Vec<(u64, Faction, Action)>;

/// `(seed key, actions)` of the room's first game, from the database.
fn stored_game(data_dir: &std::path::Path, code: &str) -> Result<([u8; 32], StoredActions)> {
    let conn = rusqlite::Connection::open(data_dir.join("evr.sqlite3"))?;
    let key: Vec<u8> = conn.query_row(
        "SELECT seed_key FROM games WHERE room_code = ?1 AND game_no = 1",
        [code],
        |r| r.get(0),
    )?;
    let key = <[u8; 32]>::try_from(key.as_slice()).map_err(|_| anyhow!("a 32-byte seed key"))?;
    let mut stmt = conn.prepare("SELECT seq, seat, action FROM actions WHERE room_code = ?1 ORDER BY seq")?;
    let rows = stmt.query_map([code], |r| {
        Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (seq, seat, action) = row?;
        let seat: Faction = serde_json::from_value(Value::String(seat))?;
        out.push((seq as u64, seat, serde_json::from_str(&action)?));
    }
    Ok((key, out))
}

/// The key and salt the game-over `room` message told `client`, checked against the commitment
/// its welcome showed at the start: SHA-256(salt ‖ key).
fn revealed_key(client: &Client, others: [&Client; 2], welcome_commitment: &str) -> Result<[u8; 32]> {
    let fairness = client
        .frames
        .iter()
        .rev()
        .find_map(|m| match m {
            ServerMsg::Room { room } => room.fairness.clone(),
            _ => None,
        })
        .context("a room message after the game")?;
    if fairness.commitment != welcome_commitment {
        bail!("the commitment changed during the game");
    }
    let (seed, fairness_salt) = (
        fairness.seed.context("the seed, revealed")?,
        fairness.salt.context("the salt, revealed")?,
    );
    let (key, salt) = (unhex(&seed)?, unhex(&fairness_salt)?);
    let digest: Vec<u8> = Sha256::new().chain_update(&salt).chain_update(&key).finalize().to_vec();
    if unhex(welcome_commitment)? != digest {
        bail!("SHA-256(salt ‖ seed) is not the commitment shown at the start");
    }
    for c in others {
        never_told_during_the_game(c, &seed, &fairness_salt)?;
    }
    never_told_during_the_game(client, &seed, &fairness_salt)?;
    <[u8; 32]>::try_from(key.as_slice()).map_err(|_| anyhow!("a 32-byte seed"))
}

/// No frame up to the game's last update (the one with its outcome) carries the key or the salt.
fn never_told_during_the_game(client: &Client, seed_hex: &str, salt_hex: &str) -> Result<()> {
    for raw in &client.raw {
        if raw.contains(seed_hex) || raw.contains(salt_hex) {
            bail!(
                "the seed or salt was sent before the game was over: {}",
                &raw[..raw.len().min(200)]
            );
        }
        let f: Value = serde_json::from_str(raw)?;
        if f["type"] == "update" && !f["changes"]["outcome"].is_null() {
            break;
        }
    }
    Ok(())
}

fn unhex(s: &str) -> Result<Vec<u8>> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2).context("even length")?, 16).context("hex"))
        .collect()
}

/// Checks every welcome/update frame of `client` against the engine's view for `viewer`.
fn check_frames(client: &Client, viewer: Viewer, oracle: &BTreeMap<u64, [Value; 3]>) -> Result<()> {
    let slot = match viewer {
        Viewer::Seat(Faction::Rebel) => 0,
        Viewer::Seat(Faction::Imperial) => 1,
        Viewer::Spectator => 2,
        Viewer::Omniscient => bail!("live play has no omniscient viewer"),
    };
    let mut last_update: Option<u64> = None;
    // the view as the client holds it: the welcome's, with each update's changes applied
    let mut held = Value::Null;
    for raw in &client.raw {
        // The oracle compares the JSON as sent, so a field the typed reading would drop or default
        // still counts.
        let f: Value = serde_json::from_str(raw)?;
        let ty = f["type"].as_str().unwrap_or("");
        if ty != "update" && ty != "welcome" {
            continue;
        }
        let seq = f["seq"].as_u64().context("seq")?;
        if ty == "update" {
            if let Some(prev) = last_update
                && seq != prev + 1
            {
                bail!("{viewer:?}: update seq jumped from {prev} to {seq}");
            }
            last_update = Some(seq);
        }
        let mut expected = oracle
            .get(&seq)
            .ok_or_else(|| anyhow!("no oracle view for seq {seq}"))?[slot]
            .clone();
        if ty == "welcome" {
            held = f["view"].clone();
        } else {
            // an update carries the fields that changed, each whole, and nothing else
            let changes = f["changes"].as_object().context("an update's changes")?;
            for (k, v) in changes {
                if ["viewer", "mode", "log"].contains(&k.as_str()) || held[k] == *v {
                    bail!("{viewer:?}: the update at seq {seq} sends {k}, which did not change");
                }
                held[k] = v.clone();
            }
            // an update's view leaves out the round's log: its events extend the client's log
            held["log"] = Value::Array(Vec::new());
            expected["log"] = Value::Array(Vec::new());
        }
        if held != expected {
            bail!("{viewer:?}: the view at seq {seq} is not the engine's view for that viewer");
        }
    }
    Ok(())
}

/// Plays one complete game in a fresh room and checks all three connections' frames. Returns how
/// many `update` frames the three received and their bytes.
async fn one_game(addr: SocketAddr, data_dir: &std::path::Path, mode: Mode, seed: u64) -> Result<(u64, u64)> {
    let seats = support::create_and_join(addr, mode).await?;
    let (spectator, _) = Client::hello(addr, &seats.code, None, None).await?;
    let (a, wa) = Client::hello(addr, &seats.code, Some(&seats.creator_token), None).await?;
    let (b, wb) = Client::hello(addr, &seats.code, Some(&seats.guest_token), None).await?;
    let commitment = wa
        .room
        .fairness
        .clone()
        .context("a commitment at the start")?
        .commitment;
    if wa
        .room
        .fairness
        .as_ref()
        .is_some_and(|f| f.seed.is_some() || f.salt.is_some())
    {
        bail!("the seed was told before the game was over");
    }
    let spectator = tokio::spawn(watch_until_over(spectator));
    let a = tokio::spawn(play_randomly(a, wa, seed));
    let b = tokio::spawn(play_randomly(b, wb, seed ^ 0x5eed));
    let (a, b, spectator) = (a.await??, b.await??, spectator.await??);

    // The game is replayed from the key everyone was told at its end (and the store holds the same).
    let (stored_key, actions) = stored_game(data_dir, &seats.code)?;
    let key = revealed_key(&spectator, [&a, &b], &commitment)?;
    if key != stored_key {
        bail!("the revealed seed is not the stored one");
    }
    let mut game = Game::with_seed(mode, GameSeed::Key(key))?;
    let views = |g: &Game| Viewer::ALL.map(|v| serde_json::to_value(g.view(v)).unwrap_or(Value::Null));
    let mut oracle = BTreeMap::new();
    oracle.insert(0, views(&game));
    for (seq, seat, action) in actions {
        game.apply(seat, action)
            .map_err(|e| anyhow!("stored action refused on replay: {e}"))?;
        oracle.insert(seq, views(&game));
    }
    if !game.is_over() {
        bail!("the stored game is not over");
    }
    check_frames(&a, Viewer::Seat(seats.creator), &oracle)?;
    check_frames(&b, Viewer::Seat(seats.guest), &oracle)?;
    check_frames(&spectator, Viewer::Spectator, &oracle)?;
    let clients = [&a, &b, &spectator];
    let updates = clients
        .iter()
        .flat_map(|c| c.raw.iter())
        .filter(|f| f.starts_with(r#"{"type":"update""#));
    Ok(updates.fold((0, 0), |(n, bytes), f| (n + 1, bytes + f.len() as u64)))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hundreds_of_games_send_each_viewer_exactly_its_own_view() -> Result<()> {
    let server = support::start("games").await?;
    let games = 200u64;
    let (mut updates, mut bytes) = (0u64, 0u64);
    for batch in 0..games / 20 {
        let mut tasks = Vec::new();
        for i in 0..20 {
            let n = batch * 20 + i;
            let mode = if n % 10 == 0 { Mode::Tutorial } else { Mode::Full };
            let (addr, dir) = (server.addr, server.data_dir.clone());
            tasks.push(tokio::spawn(async move { one_game(addr, &dir, mode, n).await }));
        }
        for t in tasks {
            let (n, b) = t.await??;
            (updates, bytes) = (updates + n, bytes + b);
        }
    }
    println!(
        "{games} games: {updates} update frames, {} bytes each on average",
        bytes / updates.max(1)
    );
    assert!(updates > games * 3 * 20, "the games were played through updates");
    server.stop().await
}
