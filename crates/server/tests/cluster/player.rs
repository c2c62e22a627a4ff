//! A scripted player (or spectator) that keeps playing through lost connections: on a drop it
//! connects again through the front door with the last `seq` it saw and goes on from the welcome.
//! It checks as it goes that what it receives after each resync is contiguous (each update's
//! `seq` one more than the one before, a welcome never behind what it already saw), and keeps
//! every view it saw and every action acknowledged to it for the checks after the game.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use anyhow::{Result, bail, ensure};
use evr_protocol::{ErrorCode, ServerMsg};
use evr_rules::View;
use rand::{RngExt, SeedableRng};

use crate::support::{self, Client};

/// What one viewer saw and was acknowledged.
#[derive(Debug, Default)]
pub struct Seen {
    /// The view after each `seq` (without the log and the legal actions, as a replay gives it).
    pub views: BTreeMap<u32, View>,
    /// `action_id` → the `seq` its ack named.
    pub acked: BTreeMap<String, u32>,
    /// Every frame received until the one that showed the game's end, as sent.
    pub frames_until_end: Vec<String>,
    pub reconnects: u32,
    pub finished: bool,
}

/// A view as a replay step gives it.
pub fn cleared(v: &View) -> View {
    View {
        log: Vec::new(),
        legal_actions: Vec::new(),
        ..v.clone()
    }
}

/// How a scripted viewer behaves.
pub struct Script {
    pub front: SocketAddr,
    pub code: String,
    /// A seat token to play; `None` to watch.
    pub token: Option<String>,
    pub seed: u64,
    /// Think time before each action, in milliseconds.
    pub think_ms: (u64, u64),
    /// Gives up after this long.
    pub deadline: Duration,
}

/// Plays (or watches) until the game is over.
pub async fn run(script: Script) -> Result<Seen> {
    let mut seen = Seen::default();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(script.seed);
    let started = Instant::now();
    let mut last: Option<u32> = None;
    let mut sent = 0u32;
    while !seen.finished {
        ensure!(
            started.elapsed() < script.deadline,
            "{}: the game did not finish in {:?} (last seq {last:?})",
            script.code,
            script.deadline
        );
        match session(&script, &mut seen, &mut last, &mut sent, &mut rng).await {
            Ok(()) => {}
            Err(e) => {
                if e.to_string().starts_with("CHECK:") {
                    return Err(e);
                }
                seen.reconnects += 1;
                tokio::time::sleep(Duration::from_millis(100 + rng.random_range(0..200))).await;
            }
        }
    }
    Ok(seen)
}

/// One connection, from hello until it drops (`Err`) or the game is over (`Ok`). A broken
/// guarantee is an error starting with `CHECK:` (never retried).
async fn session(
    script: &Script,
    seen: &mut Seen,
    last: &mut Option<u32>,
    sent: &mut u32,
    rng: &mut rand::rngs::SmallRng,
) -> Result<()> {
    let (mut c, welcome) = Client::hello(script.front, &script.code, script.token.as_deref(), *last).await?;
    seen.frames_until_end.extend(c.raw.iter().cloned());
    if let Some(before) = *last
        && welcome.seq < before
    {
        bail!(
            "CHECK: {}: welcome at seq {} after seeing {before}",
            script.code,
            welcome.seq
        );
    }
    *last = Some(welcome.seq);
    seen.views.insert(welcome.seq, cleared(&welcome.view));
    let mut view = welcome.view;
    let mut pending: Option<String> = None;
    loop {
        if view.outcome.is_some() {
            seen.finished = true;
            return Ok(());
        }
        if script.token.is_some() && pending.is_none() && !view.legal_actions.is_empty() {
            let (lo, hi) = script.think_ms;
            tokio::time::sleep(Duration::from_millis(rng.random_range(lo..=hi))).await;
            let chosen = view.legal_actions[rng.random_range(0..view.legal_actions.len())];
            *sent += 1;
            let id = format!("{}-{}-{sent}", script.code, script.seed);
            c.send(&support::action(last.unwrap_or(0), id.clone(), chosen)).await?;
            pending = Some(id);
        }
        // (a connection quiet for 10 s fails here, and is resumed like a lost one)
        let msg = c.recv().await?;
        seen.frames_until_end.extend(c.raw.last().cloned());
        match msg {
            ServerMsg::Update { seq, .. } => {
                let expected = last.map_or(seq, |l| l + 1);
                if seq != expected {
                    bail!("CHECK: {}: update {seq} after {last:?}", script.code);
                }
                *last = Some(seq);
                view = c.current_view()?;
                seen.views.insert(seq, cleared(&view));
            }
            ServerMsg::Ack { action_id, seq } => {
                if pending.as_deref() == Some(action_id.as_str()) {
                    pending = None;
                }
                if seen.acked.insert(action_id.clone(), seq).is_some_and(|s| s != seq) {
                    bail!("CHECK: {}: {action_id} acknowledged at two seqs", script.code);
                }
            }
            // the game moved on before our action arrived, or the store could not take it: decide again
            ServerMsg::Error {
                code: ErrorCode::StaleAction | ErrorCode::StorageFailed,
                ..
            } => pending = None,
            ServerMsg::Error { code, message, .. } => bail!("{}: error {code}: {message}", script.code),
            _ => {}
        }
    }
}
