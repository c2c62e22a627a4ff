//! One scripted match: create and join a room, connect two players and a spectator, and play
//! random legal actions to the end, one action in flight at a time (so no action is ever stale).

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use futures_util::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use evr_bot_client::http;

use crate::Args;
use crate::report::Stats;

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The few fields of a server frame the players need; the rest is skipped, not built.
#[derive(serde::Deserialize)]
struct Frame {
    #[serde(rename = "type")]
    kind: String,
    seq: Option<u64>,
    code: Option<String>,
    message: Option<String>,
    view: Option<ViewLite>,
}

#[derive(serde::Deserialize, Default)]
struct ViewLite {
    legal_actions: Vec<Value>,
    outcome: Option<serde::de::IgnoredAny>,
}

struct Seat {
    ws: Ws,
    seq: u64,
    view: ViewLite,
}

async fn connect(addr: SocketAddr, code: &str, token: Option<&str>) -> Result<(Ws, Frame)> {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{code}")).await?;
    ws.send(Message::text(
        json!({"type": "hello", "version": 1, "token": token, "last_seq": null}).to_string(),
    ))
    .await?;
    loop {
        let Some(frame) = parse(ws.next().await)? else { continue };
        match frame.kind.as_str() {
            "welcome" => return Ok((ws, frame)),
            "error" => bail!("hello refused: {:?} {:?}", frame.code, frame.message),
            _ => {}
        }
    }
}

fn parse(msg: Option<Result<Message, tokio_tungstenite::tungstenite::Error>>) -> Result<Option<Frame>> {
    match msg.ok_or_else(|| anyhow!("connection closed"))?? {
        Message::Text(t) => Ok(Some(serde_json::from_str(t.as_str())?)),
        Message::Close(_) => bail!("closed by the server"),
        _ => Ok(None),
    }
}

pub async fn play(
    addr: SocketAddr,
    args: &Args,
    index: u64,
    stats: &Stats,
    setup: &tokio::sync::Semaphore,
) -> Result<()> {
    let permit = setup.acquire().await?;
    let options = json!({"side": "random", "mode": args.mode, "spectators": "anyone_with_link"});
    let (status, created) = http::post(addr, "/api/rooms", &options).await?;
    if status != 201 {
        bail!("create room: {status} {created}");
    }
    let code = created["code"].as_str().context("code")?.to_string();
    let invite = created["invite_url"]
        .as_str()
        .and_then(|u| u.split_once('#'))
        .context("invite")?
        .1
        .to_string();
    let (status, joined) = http::post(addr, &format!("/api/rooms/{code}/join"), &json!({ "invite": invite })).await?;
    if status != 200 {
        bail!("join room: {status} {joined}");
    }
    let (mut spectator, _) = connect(addr, &code, None).await?;
    let (ws_a, wa) = connect(addr, &code, created["token"].as_str()).await?;
    let (ws_b, wb) = connect(addr, &code, joined["token"].as_str()).await?;
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
            return Ok(());
        }
        if in_flight.is_none() {
            let ready: Vec<usize> = (0..2).filter(|i| !seats[*i].view.legal_actions.is_empty()).collect();
            if ready.is_empty() {
                bail!("nobody can act and the game is not over");
            }
            let i = ready[rng.random_range(0..ready.len())];
            let think = rng.random_range(args.think_min_ms..=args.think_max_ms);
            tokio::time::sleep(Duration::from_millis(think)).await;
            let actions = &seats[i].view.legal_actions;
            let action = actions[rng.random_range(0..actions.len())].clone();
            action_no += 1;
            let based_on = seats[i].seq;
            let msg =
                json!({"type": "action", "based_on": based_on, "action_id": format!("l{action_no}"), "action": action});
            seats[i].ws.send(Message::text(msg.to_string())).await?;
            in_flight = Some((i, Instant::now(), based_on + 1));
        }
        let (from, frame) = {
            let [a, b] = &mut seats;
            tokio::select! {
                m = a.ws.next() => (Some(0), parse(m)?),
                m = b.ws.next() => (Some(1), parse(m)?),
                m = spectator.next() => (None, parse(m)?),
            }
        };
        let Some(frame) = frame else { continue };
        match frame.kind.as_str() {
            "error" => {
                let code = frame.code.unwrap_or_else(|| "?".into());
                stats.error(&code);
                bail!("server error {code}: {:?}", frame.message);
            }
            "update" => {
                let Some(k) = from else { continue };
                let seq = frame.seq.context("seq")?;
                seats[k].seq = seq;
                seats[k].view = frame.view.unwrap_or_default();
                if let Some((actor, sent, expected)) = in_flight {
                    if seq == expected && k != actor {
                        stats.latency(sent.elapsed());
                        stats.action();
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
