//! A scripted player (or spectator) that keeps playing through lost connections: on a drop it
//! connects again through the front door with the last `seq` it saw and goes on from the welcome.
//! It checks as it goes that what it receives after each resync is contiguous (each update's
//! `seq` one more than the one before, a welcome never behind what it already saw), and keeps
//! every view it saw and every action acknowledged to it for the checks after the game.
//!
//! A game's players share a [`Pace`]: they do not act past the `seq` the test allows, so a test
//! that needs games under way (to kill nodes under them, to cut one off) holds them there for as
//! long as it needs, however fast or slow the machine is, and says how far they got.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
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

/// How far one game may go and how far it went.
#[derive(Debug)]
pub struct Pace {
    /// Players act only on views before this `seq`.
    gate: AtomicU32,
    /// The highest `seq` any of the game's viewers saw.
    reached: AtomicU32,
    finished: std::sync::atomic::AtomicBool,
    /// A viewer stopped on a broken guarantee (`CHECK:`): the game will not go on.
    broken: std::sync::Mutex<Option<String>>,
}

impl Pace {
    /// Players act on views before `seq` only, until the test opens the gate further.
    pub fn held_at(seq: u32) -> Arc<Pace> {
        Arc::new(Pace {
            gate: AtomicU32::new(seq),
            reached: AtomicU32::new(0),
            finished: false.into(),
            broken: std::sync::Mutex::new(None),
        })
    }

    pub fn allow_until(&self, seq: u32) {
        self.gate.store(seq, Ordering::SeqCst);
    }

    pub fn reached(&self) -> u32 {
        self.reached.load(Ordering::SeqCst)
    }

    pub fn is_finished(&self) -> bool {
        self.finished.load(Ordering::SeqCst)
    }

    /// Waits until the game reached `seq` (or is over); an error after `patience`.
    pub async fn wait_for(&self, seq: u32, patience: Duration) -> Result<()> {
        let started = Instant::now();
        while self.reached() < seq && !self.is_finished() {
            if let Some(why) = self.broken.lock().ok().and_then(|b| b.clone()) {
                bail!("a viewer stopped: {why}");
            }
            ensure!(
                started.elapsed() < patience,
                "the game stayed at seq {} for {patience:?}, short of {seq}",
                self.reached()
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        Ok(())
    }

    fn saw(&self, seq: u32) {
        self.reached.fetch_max(seq, Ordering::SeqCst);
    }
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
    /// The game's gate and progress, shared by its viewers.
    pub pace: Arc<Pace>,
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
                    if let Ok(mut broken) = script.pace.broken.lock() {
                        *broken = Some(e.to_string());
                    }
                    return Err(e);
                }
                seen.reconnects += 1;
                // (shown when the test fails: what each viewer met on the way)
                let who = if script.token.is_some() { "player" } else { "spectator" };
                eprintln!(
                    "{} {who} {}: connects again after seq {last:?}: {e}",
                    script.code, script.seed
                );
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
        script.pace.saw(last.unwrap_or(0));
        if view.outcome.is_some() {
            seen.finished = true;
            script.pace.finished.store(true, Ordering::SeqCst);
            return Ok(());
        }
        let held = last.unwrap_or(0) >= script.pace.gate.load(Ordering::SeqCst);
        if held {
            // not past the gate: listen a moment, then look at the gate again
            match tokio::time::timeout(Duration::from_millis(50), c.recv()).await {
                Err(_) => continue,
                Ok(msg) => {
                    let msg = msg?;
                    seen.frames_until_end.extend(c.raw.last().cloned());
                    handle(script, seen, last, &mut view, &mut pending, &c, msg)?;
                    continue;
                }
            }
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
        handle(script, seen, last, &mut view, &mut pending, &c, msg)?;
    }
}

/// One message received: the view, the acknowledgements and the checks follow it.
fn handle(
    script: &Script,
    seen: &mut Seen,
    last: &mut Option<u32>,
    view: &mut View,
    pending: &mut Option<String>,
    c: &Client,
    msg: ServerMsg,
) -> Result<()> {
    match msg {
        ServerMsg::Update { seq, .. } => {
            let expected = last.map_or(seq, |l| l + 1);
            if seq != expected {
                bail!("CHECK: {}: update {seq} after {last:?}", script.code);
            }
            *last = Some(seq);
            *view = c.current_view()?;
            seen.views.insert(seq, cleared(view));
        }
        ServerMsg::Ack { action_id, seq } => {
            if pending.as_deref() == Some(action_id.as_str()) {
                *pending = None;
            }
            if seen.acked.insert(action_id.clone(), seq).is_some_and(|s| s != seq) {
                bail!("CHECK: {}: {action_id} acknowledged at two seqs", script.code);
            }
        }
        // the game moved on before our action arrived, or the store could not take it: decide again
        ServerMsg::Error {
            code: ErrorCode::StaleAction | ErrorCode::StorageFailed,
            ..
        } => *pending = None,
        ServerMsg::Error { code, message, .. } => bail!("{}: error {code}: {message}", script.code),
        _ => {}
    }
    Ok(())
}
