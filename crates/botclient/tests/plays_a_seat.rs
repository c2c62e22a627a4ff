//! The bot client joins a real server with an invite link and plays its seat to the end against a
//! person-like client choosing random legal actions.

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use anyhow::{Result, anyhow, bail};
use evr_bot::{Bot, BotConfig, Level};
use evr_bot_client::{Invite, join, play_seat};
use futures_util::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

async fn next_frame<S>(ws: &mut S) -> Result<Value>
where
    S: StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    loop {
        match ws.next().await.ok_or_else(|| anyhow!("closed"))?? {
            Message::Text(t) => return Ok(serde_json::from_str(t.as_str())?),
            Message::Close(_) => bail!("closed by the server"),
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_client_joins_by_invite_and_plays_a_whole_game() -> Result<()> {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("botclient-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut config = evr_server::Config::for_tests(dir);
    config.public_origin = String::new();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let shutdown = tokio_util::sync::CancellationToken::new();
    let server = tokio::spawn(evr_server::run(listener, config, shutdown.clone()));

    let (status, created) = evr_bot_client::http::post(
        addr,
        "/api/rooms",
        &json!({"side": "rebel", "mode": "full", "spectators": "off"}),
    )
    .await?;
    assert_eq!(status, 201);
    let code = created["code"].as_str().unwrap_or_default().to_string();
    let invite = Invite::parse(&format!(
        "http://{addr}{}",
        created["invite_url"].as_str().unwrap_or_default()
    ))?;
    assert_eq!(invite.code, code);
    let seat = join(&invite).await?;
    assert_eq!(seat.faction, evr_rules::Faction::Imperial);
    let bot_task = tokio::spawn(async move {
        let mut bot = Bot::new(BotConfig::with_iterations(Level::Easy, 3, 0));
        play_seat(invite.server, &invite.code, &seat.token, &mut bot, 1).await
    });

    // The person: random legal actions, one decision per view.
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{code}")).await?;
    let hello = json!({"type": "hello", "version": 1, "token": created["token"], "last_seq": null});
    ws.send(Message::text(hello.to_string())).await?;
    let mut rng = StdRng::seed_from_u64(5);
    let mut acted_on = None;
    loop {
        let m = next_frame(&mut ws).await?;
        if !matches!(m["type"].as_str(), Some("welcome" | "update")) {
            if m["type"] == "error" && m["code"] == "stale_action" {
                acted_on = None;
            }
            continue;
        }
        let view = &m["view"];
        if !view["outcome"].is_null() {
            break;
        }
        let seq = m["seq"].as_u64();
        let legal = view["legal_actions"].as_array().cloned().unwrap_or_default();
        if !legal.is_empty() && acted_on != seq {
            let action = legal[rng.random_range(0..legal.len())].clone();
            let msg = json!({"type": "action", "based_on": seq, "action_id": format!("p{}", seq.unwrap_or(0)), "action": action});
            ws.send(Message::text(msg.to_string())).await?;
            acted_on = seq;
        }
    }
    let summary = bot_task.await??;
    assert_eq!(summary.games, 1);
    assert!(summary.actions > 10, "the bot played its side: {summary:?}");
    shutdown.cancel();
    server.await??;
    Ok(())
}
