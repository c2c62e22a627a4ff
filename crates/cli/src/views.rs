//! `evr views`: random legal games as each viewer receives them over the wire, one JSON line per
//! game and viewer, for tests of a client against the real engine (the browser client's
//! `web-client/engine/` test replays them through its store and its derived state).
//!
//! Each line holds what the server would send that viewer: the view as the game starts (a
//! `welcome`'s `view`, whose `log` is the game's log so far) and, for every action, the `update`:
//! the view's fields that changed (`View::changes_since`, as `room/play.rs` builds them from the
//! views without log) and the action's events as that viewer may know them (`Event::project`).
//! Sending changes rather than whole views, 200 full games take about 100 MB; a test that reads
//! only some of the view's fields asks for those (`fields`), which cuts that to a third or less.

use std::io::Write;

use anyhow::{Context, Result, anyhow, bail};
use serde::Serialize;
use serde_json::{Map, Value};

use evr_rules::{Faction, LogEntry, Mode, Viewer};

use crate::random::play_random;

/// Who is watching: both seats and a spectator (everyone the server sends views to during a game).
pub const VIEWERS: [Viewer; 3] = [
    Viewer::Seat(Faction::Rebel),
    Viewer::Seat(Faction::Imperial),
    Viewer::Spectator,
];

/// Which games to play: seeds `first_seed`, `first_seed + 1`, … (`games` of them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewGames {
    pub games: u64,
    pub first_seed: u64,
    pub mode: Mode,
    /// The top-level fields of `View` to keep in each view and each update's changes (all if `None`).
    pub fields: Option<Vec<String>>,
}

/// One `update` as the server sends it (without `seq` and clock: the line's order is the sequence).
#[derive(Serialize)]
pub struct Update {
    /// `ViewChanges`: the fields that changed, each whole (`null`: emptied).
    pub changes: Map<String, Value>,
    pub events: Vec<LogEntry>,
}

/// One game as one viewer received it.
#[derive(Serialize)]
pub struct ViewerGame {
    pub seed: u64,
    pub viewer: Viewer,
    /// The `View` as the game starts, with its log (a `welcome`'s).
    pub view: Map<String, Value>,
    /// One per action, in order.
    pub updates: Vec<Update>,
}

/// A serialized view or changes as a JSON object.
fn object(v: &impl Serialize) -> Result<Map<String, Value>> {
    match serde_json::to_value(v).context("cannot encode a view")? {
        Value::Object(m) => Ok(m),
        _ => bail!("a view is not a JSON object"),
    }
}

/// The names of a view's top-level fields (what `fields` may name).
pub fn view_fields() -> Result<Vec<String>> {
    let game = evr_rules::Game::new(Mode::Full, 0).map_err(|e| anyhow!("cannot create a game: {e}"))?;
    Ok(object(&game.view(Viewer::Spectator))?
        .into_iter()
        .map(|(k, _)| k)
        .collect())
}

/// Plays one game and returns what each of [`VIEWERS`] received, in that order (every field).
pub fn viewer_games(mode: Mode, seed: u64) -> Result<Vec<ViewerGame>> {
    let mut out: Vec<ViewerGame> = Vec::with_capacity(VIEWERS.len());
    // The views without log as of the last update, to compute the next changes from (as the room does).
    let mut last = Vec::with_capacity(VIEWERS.len());
    let mut failed = None;
    play_random(mode, seed, |game, events| {
        if out.is_empty() {
            for viewer in VIEWERS {
                match object(&game.view(viewer)) {
                    Ok(view) => out.push(ViewerGame {
                        seed,
                        viewer,
                        view,
                        updates: Vec::new(),
                    }),
                    Err(e) => failed = Some(e),
                }
                last.push(game.view_without_log(viewer));
            }
            return;
        }
        for ((viewer, received), before) in VIEWERS.iter().zip(out.iter_mut()).zip(last.iter_mut()) {
            let now = game.view_without_log(*viewer);
            match object(&now.changes_since(before)) {
                Ok(changes) => received.updates.push(Update {
                    changes,
                    events: events.iter().map(|e| e.project(*viewer)).collect(),
                }),
                Err(e) => failed = Some(e),
            }
            *before = now;
        }
    })
    .with_context(|| format!("game with seed {seed}"))?;
    match failed {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

impl ViewGames {
    /// Writes one JSON line per game and viewer to `out`; returns the number of lines.
    pub fn write(&self, out: &mut impl Write) -> Result<u64> {
        let mut lines = 0;
        for seed in self.first_seed..self.first_seed.saturating_add(self.games) {
            for mut game in viewer_games(self.mode, seed)? {
                if let Some(fields) = &self.fields {
                    let keep = |k: &String, _: &mut Value| fields.contains(k);
                    game.view.retain(keep);
                    for u in &mut game.updates {
                        u.changes.retain(keep);
                    }
                }
                serde_json::to_writer(&mut *out, &game).context("cannot encode a view")?;
                out.write_all(b"\n").context("cannot write the output")?;
                lines += 1;
            }
        }
        out.flush().context("cannot write the output")?;
        Ok(lines)
    }
}
