//! Players' display names: given when creating or joining, or set later over the WebSocket;
//! checked (1–24 characters once trimmed, one line, nothing that reorders text), stored, and told
//! to everyone in `room.names`, by side — following the seats when sides swap at a rematch — on
//! each seat's chat message, in the archive and in the replay. Markup is only text.

use anyhow::{Result, anyhow};
use evr_protocol::{
    CREATE_ROOM_PATH, ChatBody, ChatChannel, ClientMsg, CreateRoom, CreatedRoom, ErrorCode, GameArchive, JoinRequest,
    ReplayEyes, ServerMsg, games_path,
};
use evr_rules::{ByFaction, Mode};
use serde_json::json;

use crate::support::{self, Client, seats};

/// Markup in a name (23 characters): stored and sent as the text it is.
const MARKUP: &str = "<img src=x onerror=f()>";

async fn create_named(addr: std::net::SocketAddr, mode: Mode, name: Option<&str>) -> Result<CreatedRoom> {
    let body = CreateRoom {
        options: support::options(mode),
        name: name.map(str::to_string),
    };
    support::post(addr, CREATE_ROOM_PATH, &body)
        .await?
        .map_err(|e| anyhow!("create: {e:?}"))
}

#[tokio::test]
async fn names_are_checked_stored_and_shown_to_everyone_by_side() -> Result<()> {
    let dir = support::temp_dir("names");
    let server = support::start_with(evr_server::Config::for_tests(dir.clone())).await?;
    let addr = server.addr;
    // refused names change nothing
    for bad in ["", "   ", "line\nbreak", "\u{202E}reversed", &"n".repeat(25)] {
        let (status, refusal) = support::post_raw(
            addr,
            CREATE_ROOM_PATH,
            json!({"side": "rebel", "mode": "tutorial", "spectators": "anyone_with_link", "name": bad}),
        )
        .await?;
        assert_eq!((status, refusal["code"].as_str()), (400, Some("bad_name")), "{bad:?}");
    }
    let (status, refusal) = support::post_raw(
        addr,
        CREATE_ROOM_PATH,
        json!({"side": "rebel", "mode": "tutorial", "spectators": "anyone_with_link", "colour": "red"}),
    )
    .await?;
    assert_eq!(
        (status, refusal["code"].as_str()),
        (400, Some("bad_message")),
        "unknown options"
    );

    let created = create_named(addr, Mode::Tutorial, Some("  Ana ")).await?;
    let join = |name: &str| JoinRequest {
        invite: Some(support::invite_secret(&created).unwrap_or_default()),
        join_code: None,
        name: Some(name.into()),
    };
    let refused = seats::join(addr, &created.code, &join("tab\there")).await?;
    assert_eq!(refused.err().map(|(s, e)| (s, e.code)), Some((400, ErrorCode::BadName)));
    let joined = seats::join(addr, &created.code, &join(MARKUP))
        .await?
        .map_err(|e| anyhow!("join: {e:?}"))?;
    let (creator, guest) = (created.seat, joined.seat);
    let names = |c: Option<&str>, g: Option<&str>| {
        let mut n = ByFaction::new(None, None);
        n[creator] = c.map(str::to_string);
        n[guest] = g.map(str::to_string);
        n
    };

    let (mut watcher, ww) = Client::hello(addr, &created.code, None, None).await?;
    assert_eq!(
        ww.room.names,
        names(Some("Ana"), Some(MARKUP)),
        "trimmed, markup kept as text"
    );
    let (mut a, wa) = Client::hello(addr, &created.code, Some(&created.token), None).await?;
    let (mut b, wb) = Client::hello(addr, &created.code, Some(&joined.token), None).await?;

    // later, over the WebSocket: a spectator has no seat to name; a bad name changes nothing
    watcher
        .send(&ClientMsg::SetName {
            name: Some("Spy".into()),
        })
        .await?;
    assert_eq!(watcher.recv_error().await?, ErrorCode::SpectatorCannotAct);
    b.send(&ClientMsg::SetName {
        name: Some("x".repeat(25)),
    })
    .await?;
    assert_eq!(b.recv_error().await?, ErrorCode::BadName);
    b.send(&ClientMsg::SetName {
        name: Some("Bea".into()),
    })
    .await?;
    for c in [&mut a, &mut b, &mut watcher] {
        assert_eq!(c.recv_room().await?.names, names(Some("Ana"), Some("Bea")));
    }
    // a seat's chat message carries its name as it was
    a.send(&ClientMsg::Chat {
        channel: ChatChannel::Players,
        body: ChatBody::Text { text: "gl".into() },
        name: None,
    })
    .await?;
    let said = watcher
        .recv_until("chat", |m| match m {
            ServerMsg::Chat { messages } => Some(messages),
            _ => None,
        })
        .await?;
    assert_eq!(said[0].name.as_deref(), Some("Ana"));
    a.send(&ClientMsg::SetName { name: None }).await?;
    assert_eq!(
        watcher.recv_room().await?.names,
        names(None, Some("Bea")),
        "cleared: shown as the side"
    );

    // the game to its end: the archive and the replay name the players by side
    support::play_random(&mut a, &mut b, &wa, &wb, 5000, 5).await?;
    let archive: GameArchive = support::get(addr, &games_path(&created.code))
        .await?
        .map_err(|e| anyhow!("archive: {e:?}"))?;
    assert_eq!(archive.games[0].names, names(None, Some("Bea")));
    let steps = support::replay_steps(addr, &created.code, ReplayEyes::Spectator, None).await?;
    assert_eq!(steps.names, names(None, Some("Bea")));

    // a rematch swaps sides; names stay with their seats
    a.send(&ClientMsg::Rematch).await?;
    b.send(&ClientMsg::Rematch).await?;
    let next = watcher
        .recv_until("the rematch", |m| match m {
            ServerMsg::Welcome { room, .. } => Some(room),
            _ => None,
        })
        .await?;
    assert_eq!(next.names[guest.opponent()].as_deref(), Some("Bea"));

    // stored: a restarted server tells the same names
    drop((a, b, watcher));
    server.stop().await?;
    let server = support::start_with(evr_server::Config::for_tests(dir)).await?;
    let (_w, again) = Client::hello(server.addr, &created.code, None, None).await?;
    assert_eq!(again.room.names, next.names);
    server.stop().await
}

/// Names that show nothing, or look like another name: refused wherever a name is given.
const INVISIBLE: [&str; 5] = ["\u{200B}", "\u{3164}", "\u{2800}", "Ana\u{200B}", "a\u{2028}b"];

#[tokio::test]
async fn invisible_and_look_alike_names_are_refused_everywhere_and_change_nothing() -> Result<()> {
    let server = support::start("names-invisible").await?;
    let addr = server.addr;
    for bad in INVISIBLE {
        let (status, refusal) = support::post_raw(
            addr,
            CREATE_ROOM_PATH,
            json!({"side": "rebel", "mode": "tutorial", "spectators": "anyone_with_link", "name": bad}),
        )
        .await?;
        assert_eq!(
            (status, refusal["code"].as_str()),
            (400, Some("bad_name")),
            "creating as {bad:?}"
        );
    }
    let created = create_named(addr, Mode::Tutorial, Some("Ana")).await?;
    let join = |name: &str| JoinRequest {
        invite: Some(support::invite_secret(&created).unwrap_or_default()),
        join_code: None,
        name: Some(name.into()),
    };
    for bad in INVISIBLE {
        let refused = seats::join(addr, &created.code, &join(bad)).await?;
        assert_eq!(
            refused.err().map(|(s, e)| (s, e.code)),
            Some((400, ErrorCode::BadName)),
            "joining as {bad:?}"
        );
    }
    // the refused joins took no seat: the free one is still there
    let joined = seats::join(addr, &created.code, &join("Bea"))
        .await?
        .map_err(|e| anyhow!("join: {e:?}"))?;
    let mut both = ByFaction::new(None, None);
    both[created.seat] = Some("Ana".to_string());
    both[joined.seat] = Some("Bea".to_string());

    let (mut b, _) = Client::hello(addr, &created.code, Some(&joined.token), None).await?;
    for bad in INVISIBLE {
        b.send(&ClientMsg::SetName { name: Some(bad.into()) }).await?;
        assert_eq!(b.recv_error().await?, ErrorCode::BadName, "renaming to {bad:?}");
    }
    // nothing changed: a newcomer is told the names as they were
    let (_w, seen) = Client::hello(addr, &created.code, None, None).await?;
    assert_eq!(seen.room.names, both);
    server.stop().await
}
