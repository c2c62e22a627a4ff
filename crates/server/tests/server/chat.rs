//! The room's chat over real sockets: the players' channel reaches everyone; the spectators'
//! reaches the seats only once the game is over (never during it); refusals change nothing; the
//! chat survives a restart and arrives again on joining.

use anyhow::{Context, Result, ensure};
use evr_protocol::{ChatAuthor, ChatBody, ChatChannel, ChatMessage, ClientMsg, ErrorCode, Phrase, ServerMsg};
use evr_rules::Mode;

use crate::support::{self, Client};

fn say(channel: ChatChannel, body: ChatBody, name: Option<&str>) -> ClientMsg {
    ClientMsg::Chat {
        channel,
        body,
        name: name.map(str::to_string),
    }
}

fn text(t: &str) -> ChatBody {
    ChatBody::Text { text: t.to_string() }
}

async fn recv_chat(c: &mut Client) -> Result<Vec<ChatMessage>> {
    c.recv_until("chat", |m| match m {
        ServerMsg::Chat { messages } => Some(messages),
        _ => None,
    })
    .await
}

/// The chat a client's welcome carried.
fn welcome_chat(c: &Client) -> Result<Vec<ChatMessage>> {
    c.frames
        .iter()
        .find_map(|f| match f {
            ServerMsg::Welcome { chat, .. } => Some(chat.clone()),
            _ => None,
        })
        .context("a welcome")
}

/// Where in a client's frames the chat message `id` arrived (`None`: never).
fn arrival(c: &Client, id: u64) -> Option<usize> {
    c.frames
        .iter()
        .position(|f| matches!(f, ServerMsg::Chat { messages } if messages.iter().any(|m| m.id == id)))
}

#[tokio::test]
async fn the_spectators_chat_reaches_the_seats_only_once_the_game_is_over() -> Result<()> {
    let server = support::start("chat-visibility").await?;
    let addr = server.addr;
    let seats = support::create_and_join(addr, Mode::Full).await?;
    let (mut a, wa) = Client::hello(addr, &seats.code, Some(&seats.creator_token), None).await?;
    let (mut b, wb) = Client::hello(addr, &seats.code, Some(&seats.guest_token), None).await?;
    let (mut s1, _) = Client::hello(addr, &seats.code, None, None).await?;
    let (mut s2, _) = Client::hello(addr, &seats.code, None, None).await?;

    // a seat's quick phrase: everyone reads it, as that seat's side
    a.send(&say(
        ChatChannel::Players,
        ChatBody::Phrase {
            phrase: Phrase::GoodLuck,
        },
        None,
    ))
    .await?;
    for c in [&mut a, &mut b, &mut s1, &mut s2] {
        let got = recv_chat(c).await?;
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].from, ChatAuthor::Seat(seats.creator));
        // the game it was written in: readers tell their own lines by it after sides swap
        assert_eq!(got[0].game, 1);
        assert_eq!(
            got[0].body,
            ChatBody::Phrase {
                phrase: Phrase::GoodLuck
            }
        );
    }
    // a spectator's message, with markup in it (stored as typed; clients show text as text)
    let markup = "<img src=x onerror=alert(1)> I saw the deck!";
    s1.send(&say(ChatChannel::Spectators, text(markup), Some("Ana")))
        .await?;
    for c in [&mut s1, &mut s2] {
        let got = recv_chat(c).await?;
        assert_eq!(got[0].from, ChatAuthor::Spectator("Ana".into()));
        assert_eq!(got[0].body, text(markup));
    }
    let spectators_id = 2;
    // the players go on talking and playing: the spectators' message never reaches them now
    b.send(&say(ChatChannel::Players, text("hi there"), None)).await?;
    for c in [&mut a, &mut b, &mut s1, &mut s2] {
        assert_eq!(
            recv_chat(c).await?[0].id,
            3,
            "the next message a reader gets is the players'"
        );
    }
    let (c3, reloaded) = Client::hello(addr, &seats.code, Some(&seats.creator_token), None).await?;
    assert_eq!(
        reloaded.view.phase, wa.view.phase,
        "a seat reconnecting during the game…"
    );
    let during = welcome_chat(&c3)?;
    assert_eq!(
        during.iter().map(|m| m.id).collect::<Vec<_>>(),
        vec![1, 3],
        "…gets the players' chat without the spectators'"
    );
    drop(c3);

    let (_, end) = support::play_random(&mut a, &mut b, &wa, &wb, 5000, 7).await?;
    ensure!(end[0].outcome.is_some(), "the game ended");
    for c in [&mut a, &mut b] {
        let over = c
            .frames
            .iter()
            .position(|f| matches!(f, ServerMsg::Update { changes, .. } if changes.outcome.as_ref().is_some_and(Option::is_some)))
            .context("the last update")?;
        if arrival(c, spectators_id).is_none() {
            let got = recv_chat(c).await?;
            assert_eq!(got.iter().map(|m| m.id).collect::<Vec<_>>(), vec![spectators_id]);
        }
        let at = arrival(c, spectators_id).context("the spectators' message arrived")?;
        assert!(at > over, "a seat reads the spectators only after the game is over");
    }
    // after the game a reconnecting seat gets both channels
    let (c4, _) = Client::hello(addr, &seats.code, Some(&seats.guest_token), None).await?;
    let chat = welcome_chat(&c4)?;
    assert_eq!(chat.iter().map(|m| m.id).collect::<Vec<_>>(), vec![1, 2, 3]);
    server.stop().await
}

#[tokio::test]
async fn refused_messages_change_nothing_and_the_chat_survives_a_restart() -> Result<()> {
    let dir = support::temp_dir("chat-restart");
    let server = support::start_with(evr_server::Config::for_tests(dir.clone())).await?;
    let addr = server.addr;
    let seats = support::create_and_join(addr, Mode::Full).await?;
    let (mut a, _) = Client::hello(addr, &seats.code, Some(&seats.creator_token), None).await?;
    let (mut s, _) = Client::hello(addr, &seats.code, None, None).await?;

    let refusals = [
        (
            0,
            say(ChatChannel::Spectators, text("psst"), None),
            ErrorCode::ChatNotAllowed,
        ),
        (
            1,
            say(ChatChannel::Players, text("hello"), Some("Ana")),
            ErrorCode::ChatNotAllowed,
        ),
        (1, say(ChatChannel::Spectators, text("hello"), None), ErrorCode::BadChat),
        (
            1,
            say(ChatChannel::Spectators, text("hello"), Some(&"n".repeat(25))),
            ErrorCode::BadChat,
        ),
        (
            0,
            say(ChatChannel::Players, text(&"x".repeat(301)), None),
            ErrorCode::BadChat,
        ),
        (0, say(ChatChannel::Players, text("   "), None), ErrorCode::BadChat),
        // what names refuse: text that reorders the line around it
        (
            0,
            say(ChatChannel::Players, text("gg \u{202e}exe.evil"), None),
            ErrorCode::BadChat,
        ),
        (
            1,
            say(ChatChannel::Spectators, text("a\u{2067}b"), Some("Ana")),
            ErrorCode::BadChat,
        ),
    ];
    for (who, msg, code) in refusals {
        let c = if who == 0 { &mut a } else { &mut s };
        c.send(&msg).await?;
        assert_eq!(c.recv_error().await?, code, "{msg:?}");
    }
    // a fresh connection of the seat: a burst of five, then the limit
    let (mut a2, _) = Client::hello(addr, &seats.code, Some(&seats.creator_token), None).await?;
    let mut sent = 0;
    let mut limited = false;
    for i in 0..8 {
        a2.send(&say(ChatChannel::Players, text(&format!("m{i}")), None))
            .await?;
        match a2
            .recv_until("chat or error", |m| match m {
                ServerMsg::Chat { .. } => Some(None),
                ServerMsg::Error { code, .. } => Some(Some(code)),
                _ => None,
            })
            .await?
        {
            None => sent += 1,
            Some(ErrorCode::ChatRateLimited) => {
                limited = true;
                break;
            }
            Some(other) => anyhow::bail!("unexpected {other:?}"),
        }
    }
    assert!(limited, "the allowance runs out");
    assert!((5..=6).contains(&sent), "a burst of five ({sent})");
    s.send(&say(ChatChannel::Spectators, text("nice"), Some("Ana"))).await?;
    s.recv_until("its own message", |m| match m {
        ServerMsg::Chat { messages } if messages.iter().any(|m| m.body == text("nice")) => Some(()),
        _ => None,
    })
    .await?;
    server.stop().await?;

    // a restart: everything stored comes back, in order, nothing refused among it
    let server = support::start_with(evr_server::Config::for_tests(dir)).await?;
    let (s2, _) = Client::hello(server.addr, &seats.code, None, None).await?;
    let chat = welcome_chat(&s2)?;
    assert_eq!(chat.len(), sent + 1, "every stored message and only those: {chat:?}");
    assert!(chat.windows(2).all(|p| p[0].id < p[1].id));
    assert_eq!(chat.last().map(|m| m.body.clone()), Some(text("nice")));
    server.stop().await
}

#[tokio::test]
async fn invisible_text_and_names_are_refused_and_change_nothing() -> Result<()> {
    let server = support::start("chat-invisible").await?;
    let addr = server.addr;
    let seats = support::create_and_join(addr, Mode::Full).await?;
    let (mut a, _) = Client::hello(addr, &seats.code, Some(&seats.creator_token), None).await?;
    let (mut s, _) = Client::hello(addr, &seats.code, None, None).await?;
    // a line of nothing (U+200B, the Hangul filler, braille blanks) and a separator that is no `\n`
    for bad in ["\u{200B}", "\u{3164}", "\u{2800}\n\u{2800}", "a\u{2028}b"] {
        a.send(&say(ChatChannel::Players, text(bad), None)).await?;
        assert_eq!(a.recv_error().await?, ErrorCode::BadChat, "{bad:?}");
    }
    // a spectator under an invisible name, or a look-alike of another's
    for name in ["\u{3164}", "Ana\u{200B}"] {
        s.send(&say(ChatChannel::Spectators, text("hi"), Some(name))).await?;
        assert_eq!(s.recv_error().await?, ErrorCode::BadChat, "{name:?}");
    }
    // nothing was stored or sent: the next message is the room's first, and a newcomer has only it
    a.send(&say(ChatChannel::Players, text("gg 🎉"), None)).await?;
    let got = recv_chat(&mut s).await?;
    assert_eq!(got.iter().map(|m| m.id).collect::<Vec<_>>(), vec![1]);
    let (late, _) = Client::hello(addr, &seats.code, None, None).await?;
    assert_eq!(welcome_chat(&late)?.iter().map(|m| m.id).collect::<Vec<_>>(), vec![1]);
    server.stop().await
}
