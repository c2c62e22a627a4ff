//! Two nodes that both believe they own a room. Node A plays a node cut off from the others: it
//! does not look at the store's claims (`--ownership-check-ms` of an hour) and keeps the room in
//! memory after node B took it over. A's next write is fenced: nothing is stored, A lets the room
//! go and tells its clients, who resume on B where the store left the game. And the other way
//! round, B (which does look) lets go on its own, within seconds, of a room A claims back.

use std::time::Duration;

use anyhow::{Context, Result, ensure};
use evr_protocol::ErrorCode;
use evr_rules::Mode;
use evr_store::{PostgresStore, Store};

use crate::nodes::{Node, postgres_url};
use crate::support::{self, Client};

async fn stored_actions(store: &std::sync::Arc<PostgresStore>, code: &str) -> Result<usize> {
    let (s, c) = (store.clone(), code.to_string());
    let game = tokio::task::spawn_blocking(move || s.load_game(&c, 1))
        .await??
        .context("game 1 is stored")?;
    Ok(game.actions.len())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: scripts/test.sh runs it"]
async fn a_node_that_lost_its_room_cannot_commit_for_it_and_its_clients_move_to_the_owner() -> Result<()> {
    let url = support::postgres::fresh_database(&postgres_url()?, "cluster_partition").await?;
    let logs = support::temp_dir("cluster-partition");
    std::fs::create_dir_all(&logs)?;
    let mut a = Node::new(&url, &["--ownership-check-ms", "3600000"], &logs, "node-a")?;
    let mut b = Node::new(&url, &[], &logs, "node-b")?;
    a.start().await?;
    b.start().await?;
    let store = {
        let url = url.clone();
        std::sync::Arc::new(tokio::task::spawn_blocking(move || PostgresStore::open(&url)).await??)
    };

    // a game under way on A
    let seats = support::create_and_join(a.addr, Mode::Full).await?;
    let (mut p1, w1) = Client::hello(a.addr, &seats.code, Some(&seats.creator_token), None).await?;
    let (mut p2, w2) = Client::hello(a.addr, &seats.code, Some(&seats.guest_token), None).await?;
    let (seq, views) = support::play_random(&mut p1, &mut p2, &w1, &w2, 6, 7).await?;
    let stored = stored_actions(&store, &seats.code).await?;
    ensure!(stored == 6, "six actions stored, {stored}");

    // B takes the room over (a spectator arrives there); A does not notice
    let (mut watcher, ww) = Client::hello(b.addr, &seats.code, None, None).await?;
    ensure!(
        ww.seq == seq,
        "B serves the room from the store at seq {seq}: {}",
        ww.seq
    );

    // A's player acts: fenced, not acknowledged, nothing stored; A lets go of the room
    let mover = if views[0].legal_actions.is_empty() {
        &mut p2
    } else {
        &mut p1
    };
    let view = if views[0].legal_actions.is_empty() {
        &views[1]
    } else {
        &views[0]
    };
    let action = *view.legal_actions.first().context("someone can act")?;
    mover
        .send(&support::action(seq, "from-the-cut-off-node", action))
        .await?;
    let answer = mover
        .recv_until("an ack or an error", |m| match m {
            evr_protocol::ServerMsg::Ack { .. } => Some(None),
            evr_protocol::ServerMsg::Error { code, .. } => Some(Some(code)),
            _ => None,
        })
        .await?;
    ensure!(
        answer == Some(ErrorCode::ShuttingDown),
        "the fenced action is refused with 'reconnect': {answer:?}"
    );
    ensure!(
        stored_actions(&store, &seats.code).await? == stored,
        "the fenced action was not stored"
    );
    for (name, c) in [("the mover", &mut *mover)] {
        ensure!(c.is_closed().await, "{name}'s connection to A is closed");
    }
    let other = if views[0].legal_actions.is_empty() {
        &mut p1
    } else {
        &mut p2
    };
    ensure!(
        other.recv_error().await? == ErrorCode::ShuttingDown,
        "A told its other client to reconnect too"
    );

    // both players resume on the owner, where the store left the game, and play on
    let (mut q1, v1) = Client::hello(b.addr, &seats.code, Some(&seats.creator_token), Some(seq)).await?;
    let (mut q2, v2) = Client::hello(b.addr, &seats.code, Some(&seats.guest_token), Some(seq)).await?;
    ensure!(v1.seq == seq && v2.seq == seq, "resumed at seq {seq}");
    ensure!(
        support::without_log(&v1.view) == views[0] && support::without_log(&v2.view) == views[1],
        "each player's view is what it was on A"
    );
    let (seq_after, _) = support::play_random(&mut q1, &mut q2, &v1, &v2, 3, 8).await?;
    ensure!(seq_after == seq + 3, "the game goes on on B");
    let _ = watcher.recv_update_to(seq_after).await?;

    // A claims the room back (a player reconnects there): B, which looks, lets go by itself
    let (_r1, back) = Client::hello(a.addr, &seats.code, Some(&seats.creator_token), Some(seq_after)).await?;
    ensure!(back.seq == seq_after, "A reloads the room from the store");
    for (name, c) in [("the spectator", &mut watcher), ("the guest", &mut q2)] {
        let code = tokio::time::timeout(Duration::from_secs(5), c.recv_error())
            .await
            .with_context(|| format!("{name} on B was not told within 5 s"))??;
        ensure!(
            code == ErrorCode::ShuttingDown,
            "{name} on B is told to reconnect: {code:?}"
        );
    }
    ensure!(
        stored_actions(&store, &seats.code).await? == stored + 3,
        "every acknowledged action is stored, once"
    );
    Ok(())
}
