//! Friends and challenges: a friend request by username is accepted, declined, removed; requests
//! crossing make friends; a friend request from a room both accounts keep; presence (online, at a
//! table) is shown to friends only — a third account sees neither; a block ends the friendship
//! and stops requests and challenges; a challenge accepted makes a room whose two seats each
//! player takes on their own device through their account, and the game starts; a second accept
//! is refused; the setting "nobody"; the record between two friends after a finished game. (The
//! challenges' expiry is the store's, tested with a given "now": `evr-store`'s contract tests.)

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, Result};
use evr_protocol::Role;
use evr_rules::Faction;
use serde_json::{Value, json};

use crate::support::passkey::{self, Answer, request};
use crate::support::{self, Client};

async fn get(addr: SocketAddr, path: &str, session: &str) -> Result<Value> {
    let a = request(addr, "GET", path, None, Some(session)).await?;
    anyhow::ensure!(a.status == 200, "GET {path}: {} {}", a.status, a.body);
    a.json()
}

pub(crate) async fn post(addr: SocketAddr, path: &str, body: Value, session: &str) -> Result<Answer> {
    request(addr, "POST", path, Some(&body), Some(session)).await
}

/// `a` and `b` (sessions) become friends: `a` asks `b_name`, `b` accepts `a_name`.
pub(crate) async fn befriend(addr: SocketAddr, a: &str, a_name: &str, b: &str, b_name: &str) -> Result<()> {
    let asked = post(addr, "/api/account/friends", json!({"username": b_name}), a).await?;
    assert_eq!(asked.status, 200, "{}", asked.body);
    assert_eq!(asked.json()?["status"], "requested");
    let accepted = post(addr, "/api/account/friends/accept", json!({"username": a_name}), b).await?;
    assert_eq!(accepted.status, 204, "{}", accepted.body);
    Ok(())
}

/// A challenge from the session `from` to `to`: the Rebel side for the challenger, unrated, no
/// spectators; its id.
pub(crate) async fn challenge(addr: SocketAddr, from: &str, to: &str) -> Result<String> {
    let made = post(
        addr,
        "/api/account/challenges",
        json!({"username": to, "side": "rebel", "rated": false, "spectators": "off"}),
        from,
    )
    .await?;
    assert_eq!(made.status, 201, "{}", made.body);
    Ok(made.json()?["id"].as_str().context("an id")?.to_string())
}

fn names(list: &Value, which: &str) -> Vec<String> {
    list[which]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|f| f["username"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn friend_requests_are_accepted_declined_removed_and_crossing_ones_make_friends() -> Result<()> {
    let server = support::start("friends-requests").await?;
    let addr = server.addr;
    let (_, leia) = passkey::register(addr, "Leia").await?;
    let (_, han) = passkey::register(addr, "Han").await?;
    let (_, lando) = passkey::register(addr, "Lando").await?;

    // asked by username (ignoring case), seen both ways, accepted
    let asked = post(addr, "/api/account/friends", json!({"username": "han"}), &leia).await?;
    assert_eq!(asked.json()?, json!({"username": "Han", "status": "requested"}));
    assert_eq!(
        names(&get(addr, "/api/account/friends", &leia).await?, "outgoing"),
        ["Han"]
    );
    let hans = get(addr, "/api/account/friends", &han).await?;
    assert_eq!(names(&hans, "incoming"), ["Leia"], "{hans}");
    let accepted = post(addr, "/api/account/friends/accept", json!({"username": "Leia"}), &han).await?;
    assert_eq!(accepted.status, 204, "{}", accepted.body);
    assert_eq!(
        names(&get(addr, "/api/account/friends", &leia).await?, "friends"),
        ["Han"]
    );
    let again = post(addr, "/api/account/friends/accept", json!({"username": "Leia"}), &han).await?;
    assert_eq!((again.status, Answer::code(&again)), (404, "no_friend_request".into()));

    // declined: nothing left on either side
    post(addr, "/api/account/friends", json!({"username": "Leia"}), &lando).await?;
    let declined = post(
        addr,
        "/api/account/friends/decline",
        json!({"username": "Lando"}),
        &leia,
    )
    .await?;
    assert_eq!(declined.status, 204, "{}", declined.body);
    let landos = get(addr, "/api/account/friends", &lando).await?;
    assert!(names(&landos, "outgoing").is_empty(), "{landos}");

    // two requests crossing: friends at once
    post(addr, "/api/account/friends", json!({"username": "Han"}), &lando).await?;
    let crossed = post(addr, "/api/account/friends", json!({"username": "Lando"}), &han).await?;
    assert_eq!(crossed.json()?["status"], "friends");
    assert_eq!(
        names(&get(addr, "/api/account/friends", &lando).await?, "friends"),
        ["Han"]
    );

    // removed: gone both ways
    let removed = post(addr, "/api/account/friends/remove", json!({"username": "Leia"}), &han).await?;
    assert_eq!(removed.status, 204, "{}", removed.body);
    assert!(names(&get(addr, "/api/account/friends", &leia).await?, "friends").is_empty());

    // no such player, oneself, not signed in
    let nobody = post(addr, "/api/account/friends", json!({"username": "Jabba"}), &leia).await?;
    assert_eq!((nobody.status, Answer::code(&nobody)), (404, "player_not_found".into()));
    let me = post(addr, "/api/account/friends", json!({"username": "Leia"}), &leia).await?;
    assert_eq!((me.status, Answer::code(&me)), (404, "player_not_found".into()));
    let anonymous = request(addr, "GET", "/api/account/friends", None, None).await?;
    assert_eq!(
        (anonymous.status, Answer::code(&anonymous)),
        (401, "not_signed_in".into())
    );
    server.stop().await
}

#[tokio::test]
async fn presence_is_shown_to_friends_only_and_a_block_stops_requests_and_challenges() -> Result<()> {
    let server = support::start("friends-presence").await?;
    let addr = server.addr;
    let (_, luke) = passkey::register(addr, "Luke").await?;
    let (_, mara) = passkey::register(addr, "Mara").await?;
    let (_, jabba) = passkey::register(addr, "Jabba").await?;
    befriend(addr, &luke, "Luke", &mara, "Mara").await?;

    let lukes = get(addr, "/api/account/friends", &luke).await?;
    let friend = &lukes["friends"][0];
    assert_eq!(friend["username"], "Mara", "{lukes}");
    assert_eq!(friend["online"], true, "Mara signed in just now: {lukes}");
    assert_eq!(friend["at_table"], false, "no room yet: {lukes}");

    // a third account sees neither of them, not even once it asked to be a friend
    let jabbas = get(addr, "/api/account/friends", &jabba).await?;
    assert!(names(&jabbas, "friends").is_empty(), "{jabbas}");
    post(addr, "/api/account/friends", json!({"username": "Luke"}), &jabba).await?;
    let jabbas = get(addr, "/api/account/friends", &jabba).await?;
    assert_eq!(
        jabbas["outgoing"][0],
        json!({"username": "Luke", "since_ms": jabbas["outgoing"][0]["since_ms"]})
    );
    assert!(
        !jabbas.to_string().contains("online") && !jabbas.to_string().contains("at_table"),
        "{jabbas}"
    );
    let record = request(addr, "GET", "/api/account/friends/Luke/record", None, Some(&jabba)).await?;
    assert_eq!((record.status, Answer::code(&record)), (403, "not_friends".into()));

    // a friend at a table is shown at it: the room of a challenge accepted
    let id = challenge(addr, &luke, "Mara").await?;
    let accepted = post(addr, &format!("/api/account/challenges/{id}/accept"), json!({}), &mara).await?;
    assert_eq!(accepted.status, 200, "{}", accepted.body);
    let lukes = get(addr, "/api/account/friends", &luke).await?;
    assert_eq!(lukes["friends"][0]["at_table"], true, "{lukes}");
    assert!(
        !get(addr, "/api/account/friends", &jabba)
            .await?
            .to_string()
            .contains("at_table")
    );

    // Luke blocks Jabba: Jabba's request is gone, and Jabba's new ones go nowhere
    let blocked = post(addr, "/api/account/friends/block", json!({"username": "Jabba"}), &luke).await?;
    assert_eq!(blocked.status, 204, "{}", blocked.body);
    let lukes = get(addr, "/api/account/friends", &luke).await?;
    assert!(names(&lukes, "incoming").is_empty(), "{lukes}");
    assert_eq!(names(&lukes, "blocked"), ["Jabba"]);
    let ignored = post(addr, "/api/account/friends", json!({"username": "Luke"}), &jabba).await?;
    assert_eq!(
        ignored.json()?["status"],
        "requested",
        "the blocked one is told nothing"
    );
    assert!(names(&get(addr, "/api/account/friends", &luke).await?, "incoming").is_empty());
    let refused = post(addr, "/api/account/friends", json!({"username": "Jabba"}), &luke).await?;
    assert_eq!((refused.status, Answer::code(&refused)), (409, "player_blocked".into()));

    // Mara blocks Luke: the friendship ends, Luke leaves her list, she leaves his, no challenges
    post(
        addr,
        "/api/account/challenges",
        json!({"username": "Mara", "side": "random", "rated": true, "spectators": "off"}),
        &luke,
    )
    .await?;
    post(addr, "/api/account/friends/block", json!({"username": "Luke"}), &mara).await?;
    let lukes = get(addr, "/api/account/friends", &luke).await?;
    assert!(names(&lukes, "friends").is_empty(), "{lukes}");
    assert!(
        get(addr, "/api/account/challenges", &mara).await?["incoming"]
            .as_array()
            .is_some_and(Vec::is_empty)
    );
    let challenge = post(
        addr,
        "/api/account/challenges",
        json!({"username": "Mara", "side": "rebel", "rated": false, "spectators": "off"}),
        &luke,
    )
    .await?;
    assert_eq!(
        (challenge.status, Answer::code(&challenge)),
        (403, "not_friends".into())
    );
    server.stop().await
}

#[tokio::test]
async fn a_challenge_accepted_makes_a_room_each_player_takes_through_their_account() -> Result<()> {
    let server = support::start("friends-challenge").await?;
    let addr = server.addr;
    let (_, rey) = passkey::register(addr, "Rey").await?;
    let (_, kylo) = passkey::register(addr, "Kylo").await?;
    let (_, finn) = passkey::register(addr, "Finn").await?;
    befriend(addr, &rey, "Rey", &kylo, "Kylo").await?;

    // only friends
    let body = json!({
        "username": "Kylo", "side": "imperial", "rated": true, "spectators": "anyone_with_link",
        "clock": {"days_per_decision": 3},
    });
    let refused = post(addr, "/api/account/challenges", body.clone(), &finn).await?;
    assert_eq!((refused.status, Answer::code(&refused)), (403, "not_friends".into()));
    let bad = post(addr, "/api/account/challenges", json!({"username": "Kylo", "side": "rebel", "rated": false, "spectators": "off", "clock": {"bank_secs": 99999, "increment_secs": 0}}), &rey).await?;
    assert_eq!((bad.status, Answer::code(&bad)), (400, "bad_message".into()));

    let made = post(addr, "/api/account/challenges", body.clone(), &rey).await?;
    assert_eq!(made.status, 201, "{}", made.body);
    let made = made.json()?;
    assert_eq!(
        (made["from"].as_str(), made["to"].as_str()),
        (Some("Rey"), Some("Kylo"))
    );
    let id = made["id"].as_str().context("an id")?.to_string();
    // challenges are ordered by when they were made, to the millisecond: the second one a
    // millisecond later at least (two made within one millisecond were listed in either order)
    tokio::time::sleep(Duration::from_millis(3)).await;
    let older = post(
        addr,
        "/api/account/challenges",
        json!({"username": "Kylo", "side": "random", "rated": false, "spectators": "off"}),
        &rey,
    )
    .await?;
    assert_eq!(older.status, 201);

    // both see them, newest first; the challenged as incoming
    let kylos = get(addr, "/api/account/challenges", &kylo).await?;
    assert_eq!(kylos["incoming"].as_array().map(Vec::len), Some(2), "{kylos}");
    assert_eq!(kylos["incoming"][1]["id"], id.as_str(), "newest first: {kylos}");
    assert_eq!(kylos["incoming"][1]["rated"], true);
    assert_eq!(kylos["incoming"][1]["clock"], json!({"days_per_decision": 3}));
    assert_eq!(kylos["who_may_challenge"], "friends");
    let reys = get(addr, "/api/account/challenges", &rey).await?;
    assert_eq!(reys["outgoing"].as_array().map(Vec::len), Some(2), "{reys}");
    assert!(
        get(addr, "/api/account/challenges", &finn).await?["incoming"]
            .as_array()
            .is_some_and(Vec::is_empty)
    );

    // nobody but the challenged accepts it
    let path = format!("/api/account/challenges/{id}/accept");
    let theirs = post(addr, &path, json!({}), &rey).await?;
    assert_eq!(
        (theirs.status, Answer::code(&theirs)),
        (404, "challenge_not_found".into())
    );
    let accepted = post(addr, &path, json!({}), &kylo).await?;
    assert_eq!(accepted.status, 200, "{}", accepted.body);
    let accepted = accepted.json()?;
    let code = accepted["code"].as_str().context("a room code")?.to_string();
    assert_eq!(accepted["seat"], "rebel", "Rey chose the Empire: {accepted}");
    let twice = post(addr, &path, json!({}), &kylo).await?;
    assert_eq!(
        (twice.status, Answer::code(&twice)),
        (404, "challenge_not_found".into()),
        "a second accept"
    );
    let kylos = get(addr, "/api/account/challenges", &kylo).await?;
    assert_eq!(kylos["incoming"].as_array().map(Vec::len), Some(1), "{kylos}");
    assert_eq!(kylos["accepted"], json!([]), "Kylo sent none: {kylos}");
    // the challenger's list says which room its accepted challenge made
    let reys = get(addr, "/api/account/challenges", &rey).await?;
    assert_eq!(
        reys["accepted"],
        json!([{"id": id, "to": "Kylo", "code": code}]),
        "{reys}"
    );
    assert!(get(addr, "/api/account/challenges", &finn).await?["accepted"] == json!([]));

    // both seats are taken and kept: each player's device takes theirs through the account
    let status = support::get::<evr_protocol::RoomStatus>(addr, &format!("/api/rooms/{code}"))
        .await?
        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    assert!(!status.seat_free, "nobody can join a challenge's room: {status:?}");
    let seat_path = format!("/api/rooms/{code}/account-seat");
    let mut tokens = Vec::new();
    for session in [&rey, &kylo] {
        let seated = post(addr, &seat_path, json!({}), session).await?;
        assert_eq!(seated.status, 200, "{}", seated.body);
        tokens.push(seated.json()?["token"].as_str().context("a token")?.to_string());
    }
    let refused = post(addr, &seat_path, json!({}), &finn).await?;
    assert_eq!((refused.status, Answer::code(&refused)), (403, "seat_not_kept".into()));
    let (mut a, wa) = Client::hello(addr, &code, Some(&tokens[0]), None).await?;
    let (mut b, wb) = Client::hello(addr, &code, Some(&tokens[1]), None).await?;
    assert_eq!(wa.you, Role::Seat(Faction::Imperial));
    assert_eq!(wb.you, Role::Seat(Faction::Rebel));
    assert_eq!(wa.room.names[Faction::Imperial].as_deref(), Some("Rey"));
    assert_eq!(wa.room.names[Faction::Rebel].as_deref(), Some("Kylo"));
    assert_eq!(
        wa.room.options.clock,
        Some(evr_protocol::TimeControl::Correspondence(
            evr_protocol::Correspondence { days_per_decision: 3 }
        ))
    );
    // the game is on: moves are played and acknowledged
    let (seq, _) = support::play_random(&mut a, &mut b, &wa, &wb, 4, 7).await?;
    assert!(seq >= 4, "four moves played: {seq}");

    // the other one: declined by Kylo (not by Rey), then gone
    let other = get(addr, "/api/account/challenges", &kylo).await?["incoming"][0]["id"]
        .as_str()
        .context("the other")?
        .to_string();
    let decline = format!("/api/account/challenges/{other}/decline");
    let not_rey = post(addr, &decline, json!({}), &rey).await?;
    assert_eq!(not_rey.status, 404);
    assert_eq!(post(addr, &decline, json!({}), &kylo).await?.status, 204);
    assert!(
        get(addr, "/api/account/challenges", &rey).await?["outgoing"]
            .as_array()
            .is_some_and(Vec::is_empty)
    );

    // withdrawn by the challenger only; "nobody" closes the door
    let third = format!("/api/account/challenges/{}", challenge(addr, &rey, "Kylo").await?);
    assert_eq!(request(addr, "DELETE", &third, None, Some(&kylo)).await?.status, 404);
    assert_eq!(request(addr, "DELETE", &third, None, Some(&rey)).await?.status, 204);
    let closed = post(
        addr,
        "/api/account/challenges/settings",
        json!({"who_may_challenge": "nobody"}),
        &kylo,
    )
    .await?;
    assert_eq!(closed.status, 204, "{}", closed.body);
    assert_eq!(
        get(addr, "/api/account/challenges", &kylo).await?["who_may_challenge"],
        "nobody"
    );
    let refused = post(addr, "/api/account/challenges", body, &rey).await?;
    assert_eq!(
        (refused.status, Answer::code(&refused)),
        (403, "challenges_closed".into())
    );
    server.stop().await
}

#[tokio::test]
async fn the_record_between_friends_counts_a_finished_game_by_side() -> Result<()> {
    let mut config = evr_server::Config::for_tests(support::temp_dir("friends-record"));
    config.disconnect_grace_secs = 1;
    let server = support::start_with(config).await?;
    let addr = server.addr;
    let (_, poe) = passkey::register(addr, "Poe").await?;
    let (_, zorii) = passkey::register(addr, "Zorii").await?;
    befriend(addr, &poe, "Poe", &zorii, "Zorii").await?;

    // a room both keep, from a challenge; a friend request from a room needs a seat of it
    let id = challenge(addr, &poe, "Zorii").await?;
    let accepted = post(addr, &format!("/api/account/challenges/{id}/accept"), json!({}), &zorii)
        .await?
        .json()?;
    let code = accepted["code"].as_str().context("a code")?.to_string();
    let seat_path = format!("/api/rooms/{code}/account-seat");
    let poe_token = post(addr, &seat_path, json!({}), &poe).await?.json()?["token"]
        .as_str()
        .context("a token")?
        .to_string();
    let zorii_token = post(addr, &seat_path, json!({}), &zorii).await?.json()?["token"]
        .as_str()
        .context("a token")?
        .to_string();

    // Poe (the Rebels) stays; Zorii leaves; Poe claims the win once the grace period passed
    let (mut p, _) = Client::hello(addr, &code, Some(&poe_token), None).await?;
    let (z, _) = Client::hello(addr, &code, Some(&zorii_token), None).await?;
    drop(z);
    let room = p.claim_win_once_allowed().await?;
    assert_eq!(room.forfeit_winner, Some(Faction::Rebel));
    tokio::time::sleep(Duration::from_millis(100)).await;

    let poes = get(addr, "/api/account/friends/Zorii/record", &poe).await?;
    assert_eq!(
        poes["as_rebel"],
        json!({"won": 1, "lost": 0, "drawn": 0, "unfinished": 0}),
        "{poes}"
    );
    assert_eq!(
        poes["as_imperial"],
        json!({"won": 0, "lost": 0, "drawn": 0, "unfinished": 0}),
        "{poes}"
    );
    assert_eq!(poes["last_games"][0]["code"], code.as_str());
    assert_eq!(poes["last_games"][0]["game_number"], 1);
    assert_eq!(poes["last_games"][0]["you"], "rebel");
    assert_eq!(poes["last_games"][0]["end"], "won");
    let zoriis = get(addr, "/api/account/friends/poe/record", &zorii).await?;
    assert_eq!(zoriis["as_imperial"]["lost"], 1, "{zoriis}");
    assert_eq!(zoriis["last_games"][0]["end"], "lost");

    // the game over, nobody is at a table any more
    assert_eq!(
        get(addr, "/api/account/friends", &poe).await?["friends"][0]["at_table"],
        false
    );

    // friends again from the room after a removal: the other seat's account
    post(addr, "/api/account/friends/remove", json!({"username": "Zorii"}), &poe).await?;
    let asked = post(addr, "/api/account/friends", json!({"room": code}), &zorii).await?;
    assert_eq!(asked.json()?, json!({"username": "Poe", "status": "requested"}));
    let (_, stranger) = passkey::register(addr, "Stranger").await?;
    let refused = post(addr, "/api/account/friends", json!({"room": code}), &stranger).await?;
    assert_eq!((refused.status, Answer::code(&refused)), (403, "seat_not_kept".into()));
    let nobody = post(addr, "/api/account/friends", json!({}), &stranger).await?;
    assert_eq!((nobody.status, Answer::code(&nobody)), (400, "bad_message".into()));
    server.stop().await
}

#[tokio::test]
async fn a_page_of_another_site_changes_no_friend_nor_challenge() -> Result<()> {
    let server = support::start("friends-origin").await?;
    let addr = server.addr;
    let (_, bodhi) = passkey::register(addr, "Bodhi").await?;
    let (_, cassian) = passkey::register(addr, "Cassian").await?;
    befriend(addr, &bodhi, "Bodhi", &cassian, "Cassian").await?;
    let id = challenge(addr, &bodhi, "Cassian").await?;
    let (friends_before, challenges_before) = (
        get(addr, "/api/account/friends", &cassian).await?,
        get(addr, "/api/account/challenges", &cassian).await?,
    );
    let evil = "Origin: https://evil.example\r\n";
    let name = json!({"username": "Bodhi"});
    let routes: Vec<(&str, String, Option<Value>)> = vec![
        (
            "POST",
            "/api/account/friends".into(),
            Some(json!({"username": "Bodhi"})),
        ),
        ("POST", "/api/account/friends/remove".into(), Some(name.clone())),
        ("POST", "/api/account/friends/block".into(), Some(name.clone())),
        (
            "POST",
            "/api/account/challenges/settings".into(),
            Some(json!({"who_may_challenge": "nobody"})),
        ),
        ("POST", format!("/api/account/challenges/{id}/accept"), Some(json!({}))),
        ("POST", format!("/api/account/challenges/{id}/decline"), Some(json!({}))),
    ];
    for (method, path, body) in &routes {
        let a = passkey::request_with(addr, method, path, body.as_ref(), Some(&cassian), evil).await?;
        assert_eq!(
            (a.status, Answer::code(&a)),
            (403, "origin_not_allowed".into()),
            "{method} {path}"
        );
    }
    let withdraw = format!("/api/account/challenges/{id}");
    let a = passkey::request_with(addr, "DELETE", &withdraw, None, Some(&bodhi), evil).await?;
    assert_eq!((a.status, Answer::code(&a)), (403, "origin_not_allowed".into()));
    assert_eq!(get(addr, "/api/account/friends", &cassian).await?, friends_before);
    assert_eq!(get(addr, "/api/account/challenges", &cassian).await?, challenges_before);
    server.stop().await
}

#[tokio::test]
async fn a_deleted_account_leaves_its_friends_lists_and_its_challenges_make_no_room() -> Result<()> {
    let server = support::start("friends-deleted").await?;
    let addr = server.addr;
    let (_, maz) = passkey::register(addr, "Maz").await?;
    let (_, rose) = passkey::register(addr, "Rose").await?;
    befriend(addr, &maz, "Maz", &rose, "Rose").await?;
    let id = challenge(addr, &maz, "Rose").await?;
    let deleted = post(addr, "/api/account/delete", json!({"username": "Maz"}), &maz).await?;
    assert_eq!(deleted.status, 204, "{}", deleted.body);
    let roses = get(addr, "/api/account/friends", &rose).await?;
    assert!(names(&roses, "friends").is_empty(), "{roses}");
    let challenges = get(addr, "/api/account/challenges", &rose).await?;
    assert!(
        challenges["incoming"].as_array().is_some_and(Vec::is_empty),
        "{challenges}"
    );
    let accepted = post(addr, &format!("/api/account/challenges/{id}/accept"), json!({}), &rose).await?;
    assert_eq!(
        (accepted.status, Answer::code(&accepted)),
        (404, "challenge_not_found".into())
    );
    let rooms = get(addr, "/api/account/rooms", &rose).await?;
    assert_eq!(rooms["rooms"], json!([]), "no room was made");
    server.stop().await
}
