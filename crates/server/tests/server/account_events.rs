//! The account's event stream (`GET /api/account/events`): a challenge made, declined or accepted
//! is told at once to both accounts' pages (`event: challenges`, `data: changed`, nothing else) and to nobody else's;
//! a friend request is told to the asked, its acceptance to the asker (`event: friends`), and a
//! decline, a removal, a block or a blocked asker's request to nobody;
//! a stream needs a session; an account holds at most 8 at once, an address opens 30 a minute. (Across nodes:
//! `tests/cluster/ratings.rs`.)

use std::time::Duration;

use anyhow::{Context, Result, ensure};
use serde_json::json;

use crate::friends::{befriend, challenge, post};
use crate::support;
use crate::support::events::Events;
use crate::support::passkey::{self, Answer, request};

#[tokio::test]
async fn a_challenge_is_told_at_once_to_both_players_pages_and_to_nobody_else() -> Result<()> {
    let server = support::start("account-events").await?;
    let addr = server.addr;
    let (_, leia) = passkey::register(addr, "Leia").await?;
    let (_, han) = passkey::register(addr, "Han").await?;
    let (_, lando) = passkey::register(addr, "Lando").await?;
    befriend(addr, &leia, "Leia", &han, "Han").await?;
    befriend(addr, &leia, "Leia", &lando, "Lando").await?;

    // without a session: refused, as every account route
    let refused = Events::open(addr, None)
        .await?
        .err()
        .context("a stream without a session")?;
    ensure!(refused.starts_with("HTTP/1.1 401"), "{refused}");

    let (mut leias, mut hans, mut landos) = (
        Events::signed_in(addr, &leia).await?,
        Events::signed_in(addr, &han).await?,
        Events::signed_in(addr, &lando).await?,
    );

    // Leia challenges Han: both pages are told, Lando's is not
    let id = challenge(addr, &leia, "Han").await?;
    hans.until(1).await.context("Han's page")?;
    leias.until(1).await.context("Leia's page")?;

    // Han declines: Leia's page is told
    let declined = post(addr, &format!("/api/account/challenges/{id}/decline"), json!({}), &han).await?;
    ensure!(declined.status == 204, "{}", declined.body);
    leias.until(2).await.context("Leia's page, after the decline")?;
    hans.until(2).await.context("Han's page, after the decline")?;

    // Leia challenges Lando and he accepts: his page hears of it once it was made and once accepted,
    // and of nothing before (the signals of Han's challenge came first on the same channel)
    let id = challenge(addr, &leia, "Lando").await?;
    landos.until(1).await.context("Lando's page")?;
    let accepted = post(addr, &format!("/api/account/challenges/{id}/accept"), json!({}), &lando).await?;
    ensure!(accepted.status == 200, "{}", accepted.body);
    leias.until(4).await.context("Leia's page, after the accept")?;
    let landos_events = landos.settled(Duration::from_millis(500)).await?;
    ensure!(
        landos_events == 2,
        "Lando's page was told {landos_events} times, of his challenge only (made, accepted): {:?}",
        landos.read
    );
    let hans_events = hans.settled(Duration::from_millis(200)).await?;
    ensure!(
        hans_events == 2,
        "Han's page heard of Lando's challenge: {:?}",
        hans.read
    );
    // an event carries nothing but its name
    let data: Vec<&str> = leias.read.lines().filter(|l| l.starts_with("data:")).collect();
    ensure!(
        data.len() == 4 && data.iter().all(|l| l.trim_end() == "data: changed"),
        "{data:?}"
    );
    Ok(())
}

#[tokio::test]
async fn an_account_holds_at_most_eight_streams_and_an_address_opens_thirty_a_minute() -> Result<()> {
    let server = support::start("account-events-limit").await?;
    let addr = server.addr;
    let (_, mon) = passkey::register(addr, "Mon").await?;
    let mut held = Vec::new();
    for _ in 0..8 {
        held.push(Events::signed_in(addr, &mon).await?);
    }
    let ninth = request(addr, "GET", "/api/account/events", None, Some(&mon)).await?;
    ensure!(
        (ninth.status, Answer::code(&ninth)) == (429, "rate_limited".into()),
        "{} {}",
        ninth.status,
        ninth.body
    );
    // another account is not counted with Mon's
    let (_, bail_) = passkey::register(addr, "Bail").await?;
    Events::signed_in(addr, &bail_).await?;
    drop(held);
    // one address opens 30 a minute, signed in or not: 10 so far, 20 more without a session
    for _ in 0..20 {
        let refused = Events::open(addr, None)
            .await?
            .err()
            .context("a stream without a session")?;
        ensure!(refused.starts_with("HTTP/1.1 401"), "{refused}");
    }
    let refused = Events::open(addr, None).await?.err().context("a 31st stream")?;
    ensure!(refused.starts_with("HTTP/1.1 429"), "{refused}");
    Ok(())
}

#[tokio::test]
async fn a_friend_request_is_told_to_the_asked_its_acceptance_to_the_asker_and_nothing_else() -> Result<()> {
    let server = support::start("account-events-friends").await?;
    let addr = server.addr;
    let (_, mara) = passkey::register(addr, "Mara").await?;
    let (_, luke) = passkey::register(addr, "Luke").await?;
    let (_, jabba) = passkey::register(addr, "Jabba").await?;
    let (mut maras, mut lukes, mut jabbas) = (
        Events::signed_in(addr, &mara).await?,
        Events::signed_in(addr, &luke).await?,
        Events::signed_in(addr, &jabba).await?,
    );
    let ask = |from: String, to: &'static str| async move {
        let asked = post(addr, "/api/account/friends", json!({"username": to}), &from).await?;
        ensure!(asked.status == 200, "{}", asked.body);
        Ok::<_, anyhow::Error>(())
    };
    let name = |who: &'static str| json!({"username": who});

    // Luke asks Mara: her page is told; she accepts: his page is told
    ask(luke.clone(), "Mara").await?;
    maras.until_of("friends", 1).await.context("Mara's page, asked")?;
    let accepted = post(addr, "/api/account/friends/accept", name("Luke"), &mara).await?;
    ensure!(accepted.status == 204, "{}", accepted.body);
    lukes
        .until_of("friends", 1)
        .await
        .context("Luke's page, his request accepted")?;

    // Jabba asks Luke, who declines: Jabba's page is told nothing
    ask(jabba.clone(), "Luke").await?;
    lukes
        .until_of("friends", 2)
        .await
        .context("Luke's page, asked by Jabba")?;
    let declined = post(addr, "/api/account/friends/decline", name("Jabba"), &luke).await?;
    ensure!(declined.status == 204, "{}", declined.body);
    // Luke blocks Jabba, whose new request is stored nowhere: Luke's page is told nothing of it,
    // nor is Jabba's of the block
    let blocked = post(addr, "/api/account/friends/block", name("Jabba"), &luke).await?;
    ensure!(blocked.status == 204, "{}", blocked.body);
    ask(jabba.clone(), "Luke").await?;
    // Mara removes Luke: his page is told nothing (he sees it when he next looks)
    let removed = post(addr, "/api/account/friends/remove", name("Luke"), &mara).await?;
    ensure!(removed.status == 204, "{}", removed.body);
    // a last request, so that everything before it has reached the pages
    ask(jabba.clone(), "Mara").await?;
    maras
        .until_of("friends", 2)
        .await
        .context("Mara's page, asked by Jabba")?;
    for (page, who, expected) in [
        (&mut lukes, "Luke", 2),
        (&mut jabbas, "Jabba", 0),
        (&mut maras, "Mara", 2),
    ] {
        page.read_for(Duration::from_millis(300)).await?;
        let told = page.count_of("friends");
        ensure!(
            told == expected,
            "{who}'s page was told {told} times, {expected} expected: {:?}",
            page.read
        );
        ensure!(page.count() == 0, "{who}'s page heard of challenges: {:?}", page.read);
    }
    Ok(())
}
