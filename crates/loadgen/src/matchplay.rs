//! One scripted match: create and join a room, connect two players and a spectator, and play
//! random legal actions to the end (or until the run's time is up), one action in flight at a time
//! (so no action is ever stale). With `--reconnect`, a viewer whose connection drops connects
//! again (`viewer.rs`) and the match goes on from its welcome.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use evr_bot_client::{Dialer, http, reconnect_delay};
use evr_protocol::{ClientMsg, ErrorCode, RoomOptions, SideChoice, SpectatorPolicy};
use evr_rules::Action;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::Args;
use crate::report::Stats;
use crate::rooms_file::RoomsFile;
use crate::viewer::{Event, Frame, Target, Viewer, connect};

/// How a match ended for the driver.
pub enum Played {
    /// The game reached its end.
    Finished,
    /// The run's time was up first.
    Stopped,
}

/// Failed connection attempts in a row (with the browser's growing delays, ~1 minute) before a
/// viewer, and so its match, gives up.
const MAX_DIAL_FAILURES: u32 = 10;

/// The action in flight.
struct InFlight {
    actor: usize,
    /// When it was first sent: sent again after a reconnection, it still counts from then (the
    /// player acted then).
    sent: Instant,
    based_on: u64,
    action_id: String,
    action: Action,
    /// The opponent saw its result (its latency is counted once).
    measured: bool,
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
        rated: false,
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
    let (spectator, ws) = connect(dialer, addr, code.clone(), None, None).await?;
    let (ws_a, wa) = connect(dialer, addr, code.clone(), Some(created.token.clone()), None).await?;
    let (ws_b, wb) = connect(dialer, addr, code.clone(), Some(joined.token.clone()), None).await?;
    drop(permit);
    stats.started();

    let mut viewers = [
        Viewer::new(Some(created.token), ws_a, wa),
        Viewer::new(Some(joined.token), ws_b, wb),
        Viewer::new(None, spectator, ws),
    ];
    let target = Target { dialer, addr, code };
    let result = play_on(&mut viewers, &target, args, index, stats, stop_at, rooms_file).await;
    stats.reconnected([viewers[0].reconnects, viewers[1].reconnects], viewers[2].reconnects);
    result
}

/// What the select of [`play_on`] woke up for.
enum Wake {
    Viewer(usize, Event),
    /// The think time is over: act.
    Act,
}

async fn play_on(
    viewers: &mut [Viewer; 3],
    target: &Target,
    args: &Args,
    index: u64,
    stats: &Stats,
    stop_at: Option<Instant>,
    rooms_file: Option<&RoomsFile>,
) -> Result<Played> {
    let mut rng = StdRng::seed_from_u64(args.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ index);
    // the reconnections' jitter apart, so that the game's choices do not depend on them
    let mut jitter = StdRng::seed_from_u64(args.seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ index);
    let mut in_flight: Option<InFlight> = None;
    let mut act_at: Option<Instant> = None;
    let mut action_no = 0u64;
    loop {
        if viewers[..2].iter().all(|v| v.view.outcome.is_some()) {
            if let Some(f) = rooms_file {
                f.over(&target.code)?;
            }
            return Ok(Played::Finished);
        }
        if in_flight.is_none() && act_at.is_none() {
            if stop_at.is_some_and(|t| Instant::now() >= t) || args.actions_per_match.is_some_and(|n| action_no >= n) {
                if let Some(f) = rooms_file {
                    f.stopped(&target.code, viewers[0].seq.max(viewers[1].seq))?;
                }
                return Ok(Played::Stopped);
            }
            let think = rng.random_range(args.think_min_ms..=args.think_max_ms);
            act_at = Some(Instant::now() + Duration::from_millis(think));
        }
        let [a, b, _] = &*viewers;
        if in_flight.is_none()
            && a.is_up()
            && b.is_up()
            && a.seq == b.seq
            && a.view.legal_actions.is_empty()
            && b.view.legal_actions.is_empty()
        {
            bail!("nobody can act and the game is not over");
        }
        // a seat may act once the think time is over: connected, with something to do
        let can_act = in_flight.is_none()
            && viewers[..2]
                .iter()
                .any(|v| v.is_up() && !v.view.legal_actions.is_empty());
        let wake = {
            let [a, b, s] = &mut *viewers;
            let act_at = act_at.unwrap_or_else(Instant::now);
            tokio::select! {
                e = a.next_event(target) => Wake::Viewer(0, e),
                e = b.next_event(target) => Wake::Viewer(1, e),
                e = s.next_event(target) => Wake::Viewer(2, e),
                _ = tokio::time::sleep_until(act_at.into()), if can_act => Wake::Act,
            }
        };
        let (k, event) = match wake {
            Wake::Act => {
                act_at = None;
                in_flight = Some(act(viewers, &mut rng, &mut action_no, args).await?);
                continue;
            }
            Wake::Viewer(k, event) => (k, event),
        };
        match event {
            Event::Frame(frame) => on_frame(viewers, k, frame, args, stats, target)?,
            Event::Lost(why) => {
                if !args.reconnect {
                    bail!("{why}");
                }
                viewers[k].reconnects += 1;
                viewers[k].retry_in(reconnect_delay(0, jitter.random()), 0);
                continue;
            }
            Event::Resumed(ws, welcome) => {
                viewers[k].resume(ws, welcome);
                // an action of ours the game did not take (its node went away first): again,
                // with the same id (a node that did take it answers with its ack)
                if let Some(f) = in_flight
                    .as_ref()
                    .filter(|f| f.actor == k && viewers[k].seq == f.based_on)
                {
                    let again = ClientMsg::Action {
                        based_on: u32::try_from(f.based_on)?,
                        action_id: f.action_id.clone(),
                        action: f.action,
                    };
                    // (if this connection is lost already, the next resume tries again)
                    let _ = viewers[k].send(&again).await;
                }
            }
            Event::DialFailed { why, failures } => {
                if failures >= MAX_DIAL_FAILURES {
                    bail!("cannot connect again after {failures} attempts: {why}");
                }
                stats.dial_failed();
                viewers[k].retry_in(reconnect_delay(failures, jitter.random()), failures);
                continue;
            }
        }
        // the viewer's seq may have moved: the action in flight reached the opponent, or everyone
        if let Some(f) = &mut in_flight {
            let expected = f.based_on + 1;
            if k < 2 && k != f.actor && !f.measured && viewers[k].seq >= expected {
                stats.action(f.sent.elapsed());
                f.measured = true;
            }
            if viewers[..2].iter().all(|v| v.seq >= expected) {
                in_flight = None;
            }
        }
    }
}

/// A seat that may act chooses one of its legal actions and sends it.
async fn act(viewers: &mut [Viewer; 3], rng: &mut StdRng, action_no: &mut u64, args: &Args) -> Result<InFlight> {
    let ready: Vec<usize> = (0..2)
        .filter(|i| viewers[*i].is_up() && !viewers[*i].view.legal_actions.is_empty())
        .collect();
    let i = ready[rng.random_range(0..ready.len())];
    let actions = &viewers[i].view.legal_actions;
    let action = actions[rng.random_range(0..actions.len())];
    *action_no += 1;
    let sent = InFlight {
        actor: i,
        sent: Instant::now(),
        based_on: viewers[i].seq,
        action_id: format!("l{action_no}"),
        action,
        measured: false,
    };
    let msg = ClientMsg::Action {
        based_on: u32::try_from(sent.based_on)?,
        action_id: sent.action_id.clone(),
        action,
    };
    if let Err(e) = viewers[i].send(&msg).await {
        // the connection is going: its loss comes next, and the resume sends the action again
        if !args.reconnect {
            return Err(e);
        }
    }
    Ok(sent)
}

/// A frame on viewer `k`'s connection.
fn on_frame(
    viewers: &mut [Viewer; 3],
    k: usize,
    frame: Frame,
    args: &Args,
    stats: &Stats,
    target: &Target,
) -> Result<()> {
    match frame.kind.as_str() {
        "error" => {
            if args.reconnect && frame.code == Some(ErrorCode::ShuttingDown) {
                // its server stops or the room moved to another: the connection closes next
                stats.told_to_reconnect();
                return Ok(());
            }
            let code = frame.code.map_or("?", ErrorCode::as_str);
            stats.error(code);
            bail!("server error {code}: {:?}", frame.message);
        }
        "welcome" => {
            let v = &mut viewers[k];
            v.seq = frame.seq.context("seq")?;
            v.view = frame.view.unwrap_or_default();
        }
        "update" => {
            let v = &mut viewers[k];
            v.seq = frame.seq.context("seq")?;
            // (the spectator's view is not read: only its seq, to resume)
            if k < 2 {
                v.view.apply(frame.changes.unwrap_or_default());
            }
        }
        "ack" if args.record_acks => {
            let (Some(id), Some(seq)) = (frame.action_id, frame.seq) else {
                bail!("an ack without its action id or seq");
            };
            stats.ack(&target.code, id, seq);
        }
        _ => {}
    }
    Ok(())
}
