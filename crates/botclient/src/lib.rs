//! # evr-bot-client — a computer player over the network
//!
//! [`join`] takes the free seat of a room with its invite secret; [`play_seat`] connects to the
//! room with a seat token and plays with an [`evr_bot::Bot`] until the requested number of games is
//! over, reconnecting when the connection drops.

pub mod http;

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use evr_bot::Bot;
use evr_rules::{Faction, View};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

/// Protocol version spoken.
const PROTOCOL_VERSION: u32 = 1;
/// Reconnection attempts before giving up.
const MAX_RECONNECTS: u32 = 8;

/// An invite link taken apart: `http://HOST:PORT/r/CODE/join#SECRET`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invite {
    pub server: SocketAddr,
    pub code: String,
    pub secret: String,
}

/// Parses `http://host:port` into a socket address (loopback names included).
pub fn parse_server(url: &str) -> Result<SocketAddr> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| anyhow!("only http:// servers are supported: {url}"))?;
    let host = rest.split('/').next().unwrap_or_default();
    let host = host.replacen("localhost", "127.0.0.1", 1);
    host.parse().with_context(|| format!("{host} is not HOST:PORT"))
}

impl Invite {
    pub fn parse(url: &str) -> Result<Invite> {
        let (before, secret) = url
            .split_once('#')
            .ok_or_else(|| anyhow!("the invite link has no #secret"))?;
        let server = parse_server(before)?;
        let path = before.splitn(4, '/').nth(3).unwrap_or_default();
        let code = match path.split('/').collect::<Vec<_>>().as_slice() {
            ["r", code, "join"] => code.to_string(),
            _ => bail!("the invite link's path is not /r/CODE/join"),
        };
        Ok(Invite {
            server,
            code,
            secret: secret.to_string(),
        })
    }
}

/// The seat taken by [`join`].
#[derive(Clone, Debug)]
pub struct Seat {
    pub faction: Faction,
    pub token: String,
}

/// Takes the free seat of the invite's room.
pub async fn join(invite: &Invite) -> Result<Seat> {
    let (status, body) = http::post(
        invite.server,
        &format!("/api/rooms/{}/join", invite.code),
        &json!({ "invite": invite.secret }),
    )
    .await?;
    if status != 200 {
        bail!("join refused ({status}): {}", body["message"]);
    }
    let faction: Faction = serde_json::from_value(body["seat"].clone())?;
    let token = body["token"]
        .as_str()
        .ok_or_else(|| anyhow!("no token in {body}"))?
        .to_string();
    Ok(Seat { faction, token })
}

/// What the server sends, as far as a player needs it.
#[derive(Deserialize)]
struct Frame {
    #[serde(rename = "type")]
    kind: String,
    seq: Option<u32>,
    view: Option<Box<View>>,
    code: Option<String>,
    message: Option<String>,
}

/// How the games went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub games: u32,
    /// Games this seat won (by the rules or by claim).
    pub won: u32,
    pub actions: u32,
    pub reconnects: u32,
}

/// Plays the seat of `token` in room `code` until `games` games are over.
pub async fn play_seat(server: SocketAddr, code: &str, token: &str, bot: &mut Bot, games: u32) -> Result<Summary> {
    let mut summary = Summary::default();
    let mut last_seq: Option<u32> = None;
    let mut attempt = 0u32;
    loop {
        match play_connection(server, code, token, bot, games, &mut summary, &mut last_seq).await {
            Ok(()) => return Ok(summary),
            Err(e) if attempt < MAX_RECONNECTS && e.downcast_ref::<Refused>().is_none() => {
                attempt += 1;
                summary.reconnects += 1;
                tokio::time::sleep(Duration::from_millis(200 * 2u64.pow(attempt.min(5)))).await;
            }
            Err(e) => return Err(e),
        }
    }
}

/// The server refused the seat for good (bad token, unknown room, version): do not retry.
#[derive(Debug, thiserror::Error)]
#[error("refused: {0}")]
struct Refused(String);

async fn play_connection(
    server: SocketAddr,
    code: &str,
    token: &str,
    bot: &mut Bot,
    games: u32,
    summary: &mut Summary,
    last_seq: &mut Option<u32>,
) -> Result<()> {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{server}/ws/{code}")).await?;
    let hello = json!({"type": "hello", "version": PROTOCOL_VERSION, "token": token, "last_seq": *last_seq});
    ws.send(Message::text(hello.to_string())).await?;
    let mut acted_on: Option<u32> = None;
    let mut counted_over: Option<u32> = None;
    let mut asked_rematch = false;
    while let Some(msg) = ws.next().await {
        let text = match msg? {
            Message::Text(t) => t,
            Message::Close(_) => break,
            _ => continue,
        };
        let frame: Frame = serde_json::from_str(text.as_str())?;
        match frame.kind.as_str() {
            "error" => {
                let code = frame.code.unwrap_or_default();
                match code.as_str() {
                    "stale_action" => acted_on = None,
                    "bad_token" | "room_not_found" | "version_mismatch" | "spectators_not_allowed" => {
                        return Err(Refused(format!("{code}: {}", frame.message.unwrap_or_default())).into());
                    }
                    _ => bail!("server error {code}: {}", frame.message.unwrap_or_default()),
                }
            }
            "welcome" | "update" => {
                let (Some(seq), Some(view)) = (frame.seq, frame.view) else {
                    continue;
                };
                *last_seq = Some(seq);
                if frame.kind == "welcome" {
                    asked_rematch = false;
                }
                if let Some(outcome) = view.outcome {
                    if counted_over != Some(seq) {
                        counted_over = Some(seq);
                        summary.games += 1;
                        if outcome.winner.is_some() && outcome.winner == view.viewer.seat() {
                            summary.won += 1;
                        }
                    }
                    if summary.games >= games {
                        let _ = ws.close(None).await;
                        return Ok(());
                    }
                    if !asked_rematch {
                        ws.send(Message::text(json!({"type": "rematch"}).to_string())).await?;
                        asked_rematch = true;
                    }
                    continue;
                }
                if view.legal_actions.is_empty() || acted_on == Some(seq) {
                    continue;
                }
                let Some(action) = bot.try_decide(&view) else { continue };
                acted_on = Some(seq);
                summary.actions += 1;
                let msg = json!({"type": "action", "based_on": seq, "action_id": format!("bot-{seq}-{}", summary.actions), "action": action});
                ws.send(Message::text(msg.to_string())).await?;
            }
            _ => {}
        }
    }
    bail!("the connection closed")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invite_links_are_taken_apart() {
        let i = Invite::parse("http://127.0.0.1:8080/r/Q7XKMB4R2T/join#9a1e77").unwrap();
        assert_eq!(i.server, "127.0.0.1:8080".parse().unwrap());
        assert_eq!((i.code.as_str(), i.secret.as_str()), ("Q7XKMB4R2T", "9a1e77"));
        assert!(Invite::parse("http://127.0.0.1:8080/r/Q7XKMB4R2T/watch").is_err());
        assert!(Invite::parse("https://evr.example/r/Q7XKMB4R2T/join#x").is_err());
        assert_eq!(
            parse_server("http://localhost:9000").unwrap(),
            "127.0.0.1:9000".parse().unwrap()
        );
    }
}
