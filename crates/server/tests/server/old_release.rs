//! A client of another release during a rolling upgrade. Between releases that keep
//! `PROTOCOL_VERSION` an old page simply goes on (its hello is the same); a release that changes
//! it refuses an old page's hello with `version_mismatch` — fatal, with a message that says to
//! reload — and closes the connection, and the seat is kept: the reloaded page (the new client,
//! the same token in its storage) resumes where the game is. The browser's side, the guarded
//! reload, is web-client/test/versionReload.test.ts.

use anyhow::Result;
use evr_protocol::{ClientMsg, ErrorCode, PROTOCOL_VERSION, ServerMsg};
use evr_rules::Mode;

use crate::support::{self, Client};

#[tokio::test]
async fn a_page_of_the_previous_protocol_is_told_version_mismatch_and_its_seat_is_kept() -> Result<()> {
    let server = support::start("old-release").await?;
    let seats = support::create_and_join(server.addr, Mode::Full).await?;
    let (mut a, wa) = Client::hello(server.addr, &seats.code, Some(&seats.creator_token), None).await?;
    let (mut b, wb) = Client::hello(server.addr, &seats.code, Some(&seats.guest_token), None).await?;
    // the game under way: one action played
    let (actor, other, view) = if wa.view.legal_actions.is_empty() {
        (&mut b, &mut a, &wb.view)
    } else {
        (&mut a, &mut b, &wa.view)
    };
    actor
        .send(&support::action(wa.seq, "first", view.legal_actions[0]))
        .await?;
    let seq = actor.recv_ack().await?;
    other.recv_update_to(seq).await?;

    // the creator's other tab still runs the previous release's page: it resumes with its token
    let mut old = Client::connect(server.addr, &seats.code).await?;
    old.send(&ClientMsg::Hello {
        version: PROTOCOL_VERSION - 1,
        token: Some(seats.creator_token.clone()),
        last_seq: Some(wa.seq),
    })
    .await?;
    let (code, message) = old
        .recv_until("an error", |m| match m {
            ServerMsg::Error { code, message, .. } => Some((code, message)),
            _ => None,
        })
        .await?;
    assert_eq!(code, ErrorCode::VersionMismatch);
    assert!(code.is_fatal(), "the page must not retry the same hello");
    assert!(message.contains("reload"), "the message says what to do: {message}");
    assert!(old.is_closed().await, "the connection is closed");

    // the reloaded page, with the same token, resumes at the game's seq
    let (_new, w) = Client::hello(server.addr, &seats.code, Some(&seats.creator_token), Some(wa.seq)).await?;
    assert_eq!(w.seq, seq, "the seat and the game are as they were");
    server.stop().await
}
