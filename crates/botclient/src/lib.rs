//! # evr-bot-client — a computer player over the network
//!
//! [`join`] takes the free seat of a room with its invite secret; [`play_seat`] connects to the
//! room with a seat token and plays with an [`evr_bot::Bot`] until the requested number of games is
//! over, reconnecting when the connection drops. Everything on the wire is the protocol's own types
//! (`evr-protocol`): [`http`] for the JSON API, [`Connection`] for the room's WebSocket; the load
//! generator uses both.

mod connection;
mod dial;
mod error;
pub mod http;

use std::net::SocketAddr;
use std::time::Duration;

use evr_bot::Bot;
use evr_protocol::{ClientMsg, ErrorCode, ServerMsg};
use evr_rules::{Faction, View};

pub use connection::Connection;
pub use dial::Dialer;
pub use error::ClientError;

/// Reconnection attempts in a row (without progress in between) before giving up.
const MAX_RECONNECTS: u32 = 8;

/// How long to wait before reconnection attempt `attempt` (0 for the first after a connection
/// was lost), given `random` in [0, 1): the browser's schedule (`web-client/src/net/backoff.ts`),
/// 500 ms doubling up to 15 s, of which a random half ("equal jitter"), so that the hundreds of
/// players a restarting server tells to reconnect do not all arrive at the same moment.
pub fn reconnect_delay(attempt: u32, random: f64) -> Duration {
    let capped = (500.0 * 2f64.powi(attempt.min(16) as i32)).min(15_000.0);
    Duration::from_secs_f64((capped / 2.0 + capped / 2.0 * random.clamp(0.0, 1.0)) / 1000.0)
}

/// An invite link taken apart: `http://HOST:PORT/r/CODE/join#SECRET`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invite {
    pub server: SocketAddr,
    pub code: String,
    pub secret: String,
}

/// Parses `http://host:port` into a socket address (loopback names included).
pub fn parse_server(url: &str) -> Result<SocketAddr, ClientError> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| ClientError::BadUrl(format!("only http:// servers are supported: {url}")))?;
    let host = rest.split('/').next().unwrap_or_default();
    let host = host.replacen("localhost", "127.0.0.1", 1);
    host.parse()
        .map_err(|_| ClientError::BadUrl(format!("{host} is not HOST:PORT")))
}

impl Invite {
    pub fn parse(url: &str) -> Result<Invite, ClientError> {
        let (before, secret) = url
            .split_once('#')
            .ok_or_else(|| ClientError::BadUrl("the invite link has no #secret".into()))?;
        let server = parse_server(before)?;
        let path = before.splitn(4, '/').nth(3).unwrap_or_default();
        let code = match path.split('/').collect::<Vec<_>>().as_slice() {
            ["r", code, "join"] => code.to_string(),
            _ => return Err(ClientError::BadUrl("the invite link's path is not /r/CODE/join".into())),
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
pub async fn join(invite: &Invite) -> Result<Seat, ClientError> {
    let joined = http::join_room(invite.server, &invite.code, &invite.secret).await?;
    Ok(Seat {
        faction: joined.seat,
        token: joined.token,
    })
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
pub async fn play_seat(
    server: SocketAddr,
    code: &str,
    token: &str,
    bot: &mut Bot,
    games: u32,
) -> Result<Summary, ClientError> {
    let mut summary = Summary::default();
    let mut last_seq: Option<u32> = None;
    let mut attempt = 0u32;
    loop {
        let before = last_seq;
        match play_connection(server, code, token, bot, games, &mut summary, &mut last_seq).await {
            Ok(()) => return Ok(summary),
            Err(e) if attempt < MAX_RECONNECTS && e.is_retryable() => {
                // a connection that got somewhere (a server restarted, a room moved to another
                // node) starts the count again: only failures in a row give up
                if last_seq != before {
                    attempt = 0;
                }
                summary.reconnects += 1;
                let jitter = rand::RngExt::random::<f64>(&mut rand::rng());
                tokio::time::sleep(reconnect_delay(attempt, jitter)).await;
                attempt += 1;
            }
            Err(e) => return Err(e),
        }
    }
}

/// What one connection remembers between messages.
#[derive(Default)]
struct Progress {
    /// The update this seat already acted on (one decision per view).
    acted_on: Option<u32>,
    /// The update whose finished game was counted.
    counted_over: Option<u32>,
    asked_rematch: bool,
}

async fn play_connection(
    server: SocketAddr,
    code: &str,
    token: &str,
    bot: &mut Bot,
    games: u32,
    summary: &mut Summary,
    last_seq: &mut Option<u32>,
) -> Result<(), ClientError> {
    let mut conn = Connection::hello(server, code, Some(token), *last_seq).await?;
    let mut progress = Progress::default();
    while let Some(msg) = conn.recv().await? {
        let seq = match msg {
            ServerMsg::Error {
                code: ErrorCode::StaleAction,
                ..
            } => {
                progress.acted_on = None;
                continue;
            }
            ServerMsg::Error { code, message, .. } => return Err(ClientError::Refused { code, message }),
            ServerMsg::Welcome { seq, .. } => {
                progress.asked_rematch = false;
                seq
            }
            ServerMsg::Update { seq, .. } => seq,
            _ => continue,
        };
        let Some(view) = conn.view().cloned() else { continue };
        *last_seq = Some(seq);
        match next_step(bot, seq, &view, games, summary, &mut progress) {
            Step::Wait => {}
            Step::Done => {
                conn.close().await;
                return Ok(());
            }
            Step::Send(msg) => conn.send(&msg).await?,
        }
    }
    Err(ClientError::Closed)
}

/// What to do after a view.
enum Step {
    Wait,
    Done,
    Send(ClientMsg),
}

fn next_step(bot: &mut Bot, seq: u32, view: &View, games: u32, summary: &mut Summary, p: &mut Progress) -> Step {
    if let Some(outcome) = view.outcome {
        if p.counted_over != Some(seq) {
            p.counted_over = Some(seq);
            summary.games += 1;
            if outcome.winner.is_some() && outcome.winner == view.viewer.seat() {
                summary.won += 1;
            }
        }
        if summary.games >= games {
            return Step::Done;
        }
        if p.asked_rematch {
            return Step::Wait;
        }
        p.asked_rematch = true;
        return Step::Send(ClientMsg::Rematch);
    }
    if view.legal_actions.is_empty() || p.acted_on == Some(seq) {
        return Step::Wait;
    }
    let Some(action) = bot.try_decide(view) else {
        return Step::Wait;
    };
    p.acted_on = Some(seq);
    summary.actions += 1;
    Step::Send(ClientMsg::Action {
        based_on: seq,
        action_id: format!("bot-{seq}-{}", summary.actions),
        action,
    })
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

    #[test]
    fn reconnections_wait_a_growing_delay_of_which_half_is_random() {
        let ms = |attempt, random| reconnect_delay(attempt, random).as_millis();
        // the first: 250–500 ms, spread over the whole range by the random half
        assert_eq!((ms(0, 0.0), ms(0, 0.5), ms(0, 0.999_999)), (250, 375, 499));
        assert_eq!((ms(1, 0.0), ms(3, 0.0)), (500, 2000));
        // capped at 15 s
        assert_eq!((ms(5, 0.0), ms(40, 0.0), ms(40, 0.999_999)), (7500, 7500, 14999));
    }
}
