//! The check every restored backup must pass, whatever the store: read from the backup itself
//! which games were over and which were being played (each stored game replayed by the engine),
//! then, on a server started from the restored copy, every game that was over has a replay that
//! the real `evr verify` accepts, and every game being played resumes for its seats at its last
//! stored action, where a further legal move is accepted.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::Path;

use anyhow::{Context, Result, anyhow, bail, ensure};
use evr_protocol::replay_path;
use evr_replay::Replay;
use evr_rules::{Action, Game, Viewer};
use evr_store::{Store, StoredGame, StoredRoom};

use crate::support::processes::{PlayedRoom, evr_verify};
use crate::support::{self, Client};

/// A stored game as the backup holds it.
pub struct SnapshotGame {
    pub code: String,
    pub game: StoredGame,
    /// Whether the guest's seat was taken when the backup was made.
    pub guest_seated: bool,
    /// The engine's game after the stored actions.
    pub engine: Game,
}

impl SnapshotGame {
    /// The seq of the last stored action (the game's start if none).
    pub fn last_seq(&self) -> u32 {
        self.game.actions.last().map_or(self.game.start_seq, |a| a.seq)
    }
}

/// What a backup holds of the load generator's rooms.
pub struct Snapshot {
    pub over: Vec<SnapshotGame>,
    pub in_progress: Vec<SnapshotGame>,
}

impl Snapshot {
    pub fn is_over(&self, code: &str) -> bool {
        self.over.iter().any(|g| g.code == code)
    }

    pub fn is_in_progress(&self, code: &str) -> bool {
        self.in_progress.iter().any(|g| g.code == code)
    }

    pub fn rooms(&self) -> usize {
        self.over.len() + self.in_progress.len()
    }
}

/// Reads every one of `rooms` from `store` (opened on the backup; a room created after the backup
/// is not there) and replays its game with the engine. Blocking.
pub fn snapshot(store: &dyn Store, rooms: &BTreeMap<String, PlayedRoom>) -> Result<Snapshot> {
    let mut out = Snapshot {
        over: Vec::new(),
        in_progress: Vec::new(),
    };
    for code in rooms.keys() {
        let Some(room) = store.load_room(code)? else { continue };
        let StoredRoom {
            options,
            guest_hash,
            game,
            ..
        } = room;
        let game = game.with_context(|| format!("room {code} has no game"))?;
        ensure!(
            game.game_no == 1,
            "room {code}: the load generator plays one game per room"
        );
        let mut engine = Game::with_seed(options.mode, game.secret.game_seed()).map_err(|e| anyhow!("{e}"))?;
        for a in &game.actions {
            engine
                .apply(a.seat, a.action)
                .map_err(|e| anyhow!("room {code}: stored action {} refused: {e}", a.seq))?;
        }
        let over =
            engine.view(Viewer::Spectator).outcome.is_some() || game.result.is_some_and(|r| r.forfeit_winner.is_some());
        let g = SnapshotGame {
            code: code.clone(),
            game,
            guest_seated: guest_hash.is_some(),
            engine,
        };
        if over {
            out.over.push(g);
        } else {
            out.in_progress.push(g);
        }
    }
    Ok(out)
}

/// What [`check_restored`] checked.
#[derive(Debug, Default)]
pub struct Checked {
    pub verified: usize,
    pub resumed: usize,
    pub moved: usize,
}

/// On the server at `addr` (started from the restored backup): every game over has a replay
/// `evr verify` accepts, with exactly the stored actions; every game in progress resumes for its
/// seats at its last stored action with the engine's legal actions, and takes one more move.
/// Replay files are written into `scratch`.
pub async fn check_restored(
    addr: SocketAddr,
    snap: &Snapshot,
    rooms: &BTreeMap<String, PlayedRoom>,
    scratch: &Path,
) -> Result<Checked> {
    std::fs::create_dir_all(scratch)?;
    let mut checked = Checked::default();
    for g in &snap.over {
        let (status, text) = support::http(addr, "GET", &replay_path(&g.code, g.game.game_no), None).await?;
        ensure!(status == 200, "room {}: replay refused: {status} {text}", g.code);
        let replay: Replay = serde_json::from_str(&text).with_context(|| format!("room {}: replay", g.code))?;
        let stored: Vec<(u32, Action)> = g.game.actions.iter().map(|a| (a.seq, a.action)).collect();
        let served: Vec<(u32, Action)> = replay.actions.iter().map(|a| (a.seq, a.action)).collect();
        ensure!(served == stored, "room {}: the replay holds the stored actions", g.code);
        let file = scratch.join(format!("{}.json", g.code));
        std::fs::write(&file, &text)?;
        let (accepted, said) = evr_verify(&file).await?;
        ensure!(accepted, "room {}: evr verify refused the replay: {said}", g.code);
        checked.verified += 1;
    }
    for g in &snap.in_progress {
        let room = rooms.get(&g.code).context("a room the load generator seated")?;
        resume(addr, g, room, &mut checked)
            .await
            .with_context(|| format!("room {} (last stored seq {})", g.code, g.last_seq()))?;
    }
    Ok(checked)
}

async fn resume(addr: SocketAddr, g: &SnapshotGame, room: &PlayedRoom, checked: &mut Checked) -> Result<()> {
    let creator = g.game.creator_faction;
    let seats = [(creator, &room.creator_token), (creator.opponent(), &room.guest_token)];
    let mut clients = Vec::new();
    for (faction, token) in seats {
        if faction != creator && !g.guest_seated {
            // the backup was made before the guest joined: the guest's token is not in it
            ensure!(g.game.actions.is_empty(), "actions before the guest joined");
            continue;
        }
        let (client, welcome) = Client::hello(addr, &g.code, Some(token), None).await?;
        ensure!(
            welcome.seq == g.last_seq(),
            "the {faction:?} seat resumed at seq {}",
            welcome.seq
        );
        let expected = g.engine.view(Viewer::Seat(faction)).legal_actions;
        ensure!(
            welcome.view.legal_actions == expected,
            "the {faction:?} seat's legal actions are the engine's after the stored actions"
        );
        clients.push((faction, client, welcome.view.legal_actions));
    }
    checked.resumed += 1;
    if clients.len() < 2 {
        return Ok(());
    }
    let Some((faction, client, legal)) = clients.iter_mut().find(|(_, _, legal)| !legal.is_empty()) else {
        bail!("nobody can act in a game that is not over");
    };
    let seq = g.last_seq();
    client.send(&support::action(seq, "after-restore", legal[0])).await?;
    let acked = client.recv_ack().await?;
    ensure!(
        acked == seq + 1,
        "the {faction:?} seat's move after the restore was acknowledged at {acked}"
    );
    checked.moved += 1;
    Ok(())
}
