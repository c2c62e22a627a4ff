//! One scripted match: create and join a room, connect two players and a spectator, and play
//! random legal actions to the end (or until the run's time is up), one action in flight at a time
//! (so no action is ever stale).

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use evr_bot_client::{Connection, Dialer, http};
use evr_protocol::{ClientMsg, ErrorCode, RoomOptions, SideChoice, SpectatorPolicy};
use evr_rules::Action;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::Args;
use crate::report::Stats;
use crate::rooms_file::RoomsFile;

/// The few fields of a server message the players need, read straight from the frame; the rest
/// (whole views, log entries) is skipped, not built.
#[derive(serde::Deserialize)]
struct Frame {
    #[serde(rename = "type")]
    kind: String,
    seq: Option<u64>,
    code: Option<ErrorCode>,
    message: Option<String>,
    /// A welcome's whole view.
    view: Option<ViewLite>,
    /// An update's changes to it.
    changes: Option<ChangesLite>,
}

#[derive(serde::Deserialize, Default)]
struct ViewLite {
    legal_actions: Vec<Action>,
    outcome: Option<serde::de::IgnoredAny>,
}

/// What an update changed of the two fields the players read (absent: unchanged).
#[derive(serde::Deserialize, Default)]
struct ChangesLite {
    legal_actions: Option<Vec<Action>>,
    #[serde(default, deserialize_with = "present")]
    outcome: Option<Option<serde::de::IgnoredAny>>,
}

/// `Some` whenever the field is present, even as `null` (it became empty).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<serde::de::IgnoredAny>>, D::Error> {
    serde::Deserialize::deserialize(d).map(Some)
}

impl ViewLite {
    fn apply(&mut self, changes: ChangesLite) {
        if let Some(legal) = changes.legal_actions {
            self.legal_actions = legal;
        }
        if let Some(outcome) = changes.outcome {
            self.outcome = outcome;
        }
    }
}

struct Seat {
    ws: Connection,
    seq: u64,
    view: ViewLite,
}

/// Connects and says hello; returns the connection and its welcome.
async fn connect(dialer: Dialer, addr: SocketAddr, code: &str, token: Option<&str>) -> Result<(Connection, Frame)> {
    let mut ws = Connection::hello_via(dialer, addr, code, token, None).await?;
    loop {
        let frame = parse(ws.recv_text().await?)?;
        match frame.kind.as_str() {
            "welcome" => return Ok((ws, frame)),
            "error" => bail!("hello refused: {:?} {:?}", frame.code, frame.message),
            _ => {}
        }
    }
}

fn parse(text: Option<String>) -> Result<Frame> {
    let text = text.ok_or_else(|| anyhow!("closed by the server"))?;
    Ok(serde_json::from_str(&text)?)
}

/// How a match ended for the driver.
pub enum Played {
    /// The game reached its end.
    Finished,
    /// The run's time was up first.
    Stopped,
}

pub async fn play(
    addr: SocketAddr,
    args: &Args,
    index: u64,
    stats: &Stats,
    setup: &tokio::sync::Semaphore,
    stop_at: Option<Instant>,
    rooms_file: Option<&RoomsFile>,
) -> Result<Played> {
    let permit = setup.acquire().await?;
    let options = RoomOptions {
        side: SideChoice::Random,
        mode: args.mode,
        spectators: SpectatorPolicy::AnyoneWithLink,
        opponent: None,
        reveal_at_end: args.reveal_at_end,
        clock: None,
    };
    let dialer = Dialer { source: args.source };
    let created = http::create_room_via(dialer, addr, &options)
        .await
        .context("create room")?;
    let invite = created
        .invite_url
        .as_deref()
        .and_then(|u| u.split_once('#'))
        .context("invite")?
        .1;
    let joined = http::join_room_via(dialer, addr, &created.code, invite)
        .await
        .context("join room")?;
    let code = created.code;
    stats.room(&code);
    if let Some(f) = rooms_file {
        f.seated(&code, &created.token, &joined.token)?;
    }
    let (mut spectator, _) = connect(dialer, addr, &code, None).await?;
    let (ws_a, wa) = connect(dialer, addr, &code, Some(&created.token)).await?;
    let (ws_b, wb) = connect(dialer, addr, &code, Some(&joined.token)).await?;
    drop(permit);

    let seat = |ws, w: Frame| Seat {
        ws,
        seq: w.seq.unwrap_or(0),
        view: w.view.unwrap_or_default(),
    };
    let mut seats = [seat(ws_a, wa), seat(ws_b, wb)];
    let mut rng = StdRng::seed_from_u64(args.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ index);
    // The action in flight: who sent it, when, and the seq it will produce.
    let mut in_flight: Option<(usize, Instant, u64)> = None;
    let mut action_no = 0u64;
    loop {
        if seats.iter().all(|s| s.view.outcome.is_some()) {
            if let Some(f) = rooms_file {
                f.over(&code)?;
            }
            return Ok(Played::Finished);
        }
        if in_flight.is_none() {
            if stop_at.is_some_and(|t| Instant::now() >= t) || args.actions_per_match.is_some_and(|n| action_no >= n) {
                if let Some(f) = rooms_file {
                    f.stopped(&code, seats[0].seq.max(seats[1].seq))?;
                }
                return Ok(Played::Stopped);
            }
            let ready: Vec<usize> = (0..2).filter(|i| !seats[*i].view.legal_actions.is_empty()).collect();
            if ready.is_empty() {
                bail!("nobody can act and the game is not over");
            }
            let i = ready[rng.random_range(0..ready.len())];
            let think = rng.random_range(args.think_min_ms..=args.think_max_ms);
            tokio::time::sleep(Duration::from_millis(think)).await;
            let actions = &seats[i].view.legal_actions;
            let action = actions[rng.random_range(0..actions.len())];
            action_no += 1;
            let based_on = seats[i].seq;
            let msg = ClientMsg::Action {
                based_on: u32::try_from(based_on)?,
                action_id: format!("l{action_no}"),
                action,
            };
            seats[i].ws.send(&msg).await?;
            in_flight = Some((i, Instant::now(), based_on + 1));
        }
        let (from, frame) = {
            let [a, b] = &mut seats;
            tokio::select! {
                m = a.ws.recv_text() => (Some(0), parse(m?)?),
                m = b.ws.recv_text() => (Some(1), parse(m?)?),
                m = spectator.recv_text() => (None, parse(m?)?),
            }
        };
        match frame.kind.as_str() {
            "error" => {
                let code = frame.code.map_or("?", ErrorCode::as_str);
                stats.error(code);
                bail!("server error {code}: {:?}", frame.message);
            }
            "update" => {
                let Some(k) = from else { continue };
                let seq = frame.seq.context("seq")?;
                seats[k].seq = seq;
                seats[k].view.apply(frame.changes.unwrap_or_default());
                if let Some((actor, sent, expected)) = in_flight {
                    if seq == expected && k != actor {
                        stats.action(sent.elapsed());
                    }
                    if seats.iter().all(|s| s.seq >= expected) {
                        in_flight = None;
                    }
                }
            }
            _ => {}
        }
    }
}
