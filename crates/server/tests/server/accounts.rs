//! Accounts: a passkey registers an account and signs it in on another device; the session lives
//! in an `HttpOnly; SameSite=Lax` cookie, a sign-in always makes a new one, and a session ended
//! from another device is refused at its next request; a ceremony works once and a forged answer
//! is refused; usernames are unique ignoring case and look-alikes; the seats a device holds follow
//! the account to another device; the last passkey stays; the account's data and its deletion.
//! The passkey is a software one (`support/passkey.rs`); the browser's is in the e2e test.

use anyhow::{Context, Result, ensure};
use evr_protocol::Role;
use evr_rules::Mode;
use serde_json::{Value, json};

use crate::support::passkey::{self, SoftPasskey, request};
use crate::support::{self, Client};

async fn account(addr: std::net::SocketAddr, session: &str) -> Result<Value> {
    let a = request(addr, "GET", "/api/account", None, Some(session)).await?;
    ensure!(a.status == 200, "GET /api/account: {} {}", a.status, a.body);
    a.json()
}

#[tokio::test]
async fn a_passkey_registers_an_account_and_signs_it_in_with_a_new_session_each_time() -> Result<()> {
    let server = support::start("accounts-register").await?;
    let addr = server.addr;

    let begun = request(
        addr,
        "POST",
        "/api/account/register/begin",
        Some(&json!({"username": "Leia"})),
        None,
    )
    .await?;
    let options = begun.json()?;
    assert_eq!(
        options["options"]["publicKey"]["authenticatorSelection"]["residentKey"], "required",
        "a discoverable passkey, so that signing in needs no username"
    );
    let (mut key, credential) = SoftPasskey::create(&options["options"], &passkey::origin(addr), "leia")?;
    let done = request(
        addr,
        "POST",
        "/api/account/register/finish",
        Some(&json!({"ceremony": options["ceremony"], "credential": credential})),
        // a session id chosen before the sign-in (by whoever could set a cookie) is not kept
        Some("0123456789abcdef0123456789abcdef"),
    )
    .await?;
    assert_eq!(done.status, 201, "{}", done.body);
    let cookie = done.set_cookies.first().context("a cookie")?;
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=31536000"] {
        assert!(cookie.contains(attribute), "{attribute} in {cookie}");
    }
    assert!(!cookie.contains("Secure"), "not over http: {cookie}");
    let first = done.session().context("a session")?;
    assert_ne!(first, "0123456789abcdef0123456789abcdef", "a new session id at sign-in");
    let fixed = request(
        addr,
        "GET",
        "/api/account",
        None,
        Some("0123456789abcdef0123456789abcdef"),
    )
    .await?;
    assert_eq!(
        (fixed.status, passkey::Answer::code(&fixed)),
        (401, "not_signed_in".into())
    );

    let state = request(addr, "GET", "/api/session", None, Some(&first)).await?.json()?;
    assert_eq!(state["account"]["username"], "Leia");
    assert_eq!(state["passkey_rp_id"], "localhost");

    // another device signs in with the same passkey: another session
    let second = passkey::sign_in(addr, &mut key).await?;
    assert_ne!(second, first);
    let details = account(addr, &second).await?;
    assert_eq!(details["username"], "Leia");
    let sessions = details["sessions"].as_array().context("sessions")?;
    assert_eq!(sessions.len(), 2, "{details}");
    assert_eq!(sessions[0]["current"], true, "this device first");
    assert_eq!(sessions[0]["label"], "Chrome on Linux");
    assert!(details["passkeys"][0]["last_used_at_ms"].is_number(), "{details}");

    // the second device ends the first's session: its next request is refused
    let first_handle = sessions[1]["id"].as_str().context("a handle")?;
    let ended = request(
        addr,
        "DELETE",
        &format!("/api/account/sessions/{first_handle}"),
        None,
        Some(&second),
    )
    .await?;
    assert_eq!(ended.status, 204, "{}", ended.body);
    let refused = request(addr, "GET", "/api/account", None, Some(&first)).await?;
    assert_eq!(
        (refused.status, passkey::Answer::code(&refused)),
        (401, "not_signed_in".into())
    );
    let state = request(addr, "GET", "/api/session", None, Some(&first)).await?.json()?;
    assert_eq!(state["account"], Value::Null);

    // and signing out clears this device's cookie and ends its session
    let out = request(addr, "POST", "/api/account/sign-out", Some(&json!({})), Some(&second)).await?;
    assert_eq!(out.status, 204);
    assert_eq!(out.session().as_deref(), Some(""), "the cookie is cleared");
    assert_eq!(
        request(addr, "GET", "/api/account", None, Some(&second)).await?.status,
        401
    );
    server.stop().await
}

#[tokio::test]
async fn a_ceremony_works_once_and_a_forged_answer_signs_nobody_in() -> Result<()> {
    let server = support::start("accounts-ceremony").await?;
    let addr = server.addr;
    let (mut key, _) = passkey::register(addr, "han").await?;

    let begun = request(addr, "POST", "/api/account/sign-in/begin", Some(&json!({})), None)
        .await?
        .json()?;
    let mut credential = key.get(&begun["options"], &passkey::origin(addr))?;
    // a signature of other data
    let genuine = credential.clone();
    credential["response"]["signature"] = genuine["response"]["clientDataJSON"].clone();
    let forged = json!({"ceremony": begun["ceremony"], "credential": credential});
    let answer = request(addr, "POST", "/api/account/sign-in/finish", Some(&forged), None).await?;
    assert_eq!(
        (answer.status, passkey::Answer::code(&answer)),
        (400, "passkey_refused".into()),
        "{}",
        answer.body
    );
    assert!(answer.session().is_none());
    // the ceremony was used by that attempt
    let again = json!({"ceremony": begun["ceremony"], "credential": genuine});
    let answer = request(addr, "POST", "/api/account/sign-in/finish", Some(&again), None).await?;
    assert_eq!(
        (answer.status, passkey::Answer::code(&answer)),
        (410, "ceremony_expired".into()),
        "{}",
        answer.body
    );

    // an answer whose user handle names another account than its passkey's is refused
    let begun = request(addr, "POST", "/api/account/sign-in/begin", Some(&json!({})), None)
        .await?
        .json()?;
    let mut other_user = key.get(&begun["options"], &passkey::origin(addr))?;
    other_user["response"]["userHandle"] = json!("AAAAAAAAAAAAAAAAAAAAAA");
    let answer = request(
        addr,
        "POST",
        "/api/account/sign-in/finish",
        Some(&json!({"ceremony": begun["ceremony"], "credential": other_user})),
        None,
    )
    .await?;
    assert_eq!(
        (answer.status, passkey::Answer::code(&answer)),
        (400, "passkey_refused".into()),
        "{}",
        answer.body
    );

    // a page of another origin (the passkey's client data names it) is refused
    let begun = request(addr, "POST", "/api/account/sign-in/begin", Some(&json!({})), None)
        .await?
        .json()?;
    let elsewhere = key.get(&begun["options"], "http://evil.example")?;
    let answer = request(
        addr,
        "POST",
        "/api/account/sign-in/finish",
        Some(&json!({"ceremony": begun["ceremony"], "credential": elsewhere})),
        None,
    )
    .await?;
    assert_eq!(
        (answer.status, passkey::Answer::code(&answer)),
        (400, "passkey_refused".into())
    );
    server.stop().await
}

#[tokio::test]
async fn usernames_are_unique_ignoring_case_and_look_alikes_and_some_are_reserved() -> Result<()> {
    let server = support::start("accounts-usernames").await?;
    let addr = server.addr;
    passkey::register(addr, "Luke").await?;
    for (typed, status, code) in [
        ("luke", 409, "username_taken"),
        ("1uke", 409, "username_taken"),
        ("Ｌｕｋｅ", 409, "username_taken"),
        ("Admin", 409, "username_reserved"),
        ("x", 400, "bad_username"),
        ("luke skywalker", 400, "bad_username"),
    ] {
        let a = request(
            addr,
            "POST",
            "/api/account/register/begin",
            Some(&json!({"username": typed})),
            None,
        )
        .await?;
        assert_eq!(
            (a.status, passkey::Answer::code(&a)),
            (status, code.to_string()),
            "{typed}: {}",
            a.body
        );
    }
    server.stop().await
}

#[tokio::test]
async fn the_seats_a_device_holds_follow_the_account_to_another_device() -> Result<()> {
    let server = support::start("accounts-seats").await?;
    let addr = server.addr;
    let s = support::create_and_join(addr, Mode::Full).await?;
    let (mut key, laptop) = passkey::register(addr, "Rey").await?;
    let keep = json!({"seats": [
        {"code": s.code, "token": s.creator_token},
        {"code": s.code, "token": "not a token of this room"},
    ]});
    let kept = request(addr, "POST", "/api/account/seats", Some(&keep), Some(&laptop))
        .await?
        .json()?;
    assert_eq!(kept["seats"][0]["outcome"], "kept", "{kept}");
    assert_eq!(kept["seats"][1]["outcome"], "not_a_seat", "{kept}");
    let again = request(addr, "POST", "/api/account/seats", Some(&keep), Some(&laptop))
        .await?
        .json()?;
    assert_eq!(again["seats"][0]["outcome"], "already");

    // another account cannot take it, nor read it
    let (_, other) = passkey::register(addr, "Kylo").await?;
    let theirs = request(addr, "POST", "/api/account/seats", Some(&keep), Some(&other))
        .await?
        .json()?;
    assert_eq!(theirs["seats"][0]["outcome"], "other_account");
    let path = format!("/api/rooms/{}/account-seat", s.code);
    let refused = request(addr, "GET", &path, None, Some(&other)).await?;
    assert_eq!(
        (refused.status, passkey::Answer::code(&refused)),
        (403, "seat_not_kept".into())
    );
    let refused = request(addr, "POST", &path, Some(&json!({})), Some(&other)).await?;
    assert_eq!(
        (refused.status, passkey::Answer::code(&refused)),
        (403, "seat_not_kept".into())
    );
    let refused = request(addr, "GET", &path, None, None).await?;
    assert_eq!(
        (refused.status, passkey::Answer::code(&refused)),
        (401, "not_signed_in".into())
    );

    // a phone signed in to the account lists the room and takes the seat with a token of its own
    let phone = passkey::sign_in(addr, &mut key).await?;
    let rooms = request(addr, "GET", "/api/account/rooms", None, Some(&phone))
        .await?
        .json()?;
    assert_eq!(rooms["rooms"][0]["code"], s.code.as_str(), "{rooms}");
    let summary = request(addr, "GET", &path, None, Some(&phone)).await?.json()?;
    assert_eq!(summary["you"], serde_json::to_value(s.creator)?, "{summary}");
    let seated = request(addr, "POST", &path, Some(&json!({})), Some(&phone)).await?;
    assert_eq!(seated.status, 200, "{}", seated.body);
    let token = seated.json()?["token"].as_str().context("a token")?.to_string();
    assert_ne!(token, s.creator_token);
    let (_, welcome) = Client::hello(addr, &s.code, Some(&token), None).await?;
    assert_eq!(welcome.you, Role::Seat(s.creator), "the phone holds the creator's seat");
    server.stop().await
}

#[tokio::test]
async fn the_last_passkey_stays_and_another_can_be_added() -> Result<()> {
    let server = support::start("accounts-passkeys").await?;
    let addr = server.addr;
    let (first_key, session) = passkey::register(addr, "Finn").await?;
    let first_id = account(addr, &session).await?["passkeys"][0]["id"]
        .as_str()
        .context("an id")?
        .to_string();
    let path = format!("/api/account/passkeys/{first_id}");
    let refused = request(addr, "DELETE", &path, None, Some(&session)).await?;
    assert_eq!(
        (refused.status, passkey::Answer::code(&refused)),
        (409, "last_way_to_sign_in".into())
    );

    let begun = request(
        addr,
        "POST",
        "/api/account/passkeys/begin",
        Some(&json!({})),
        Some(&session),
    )
    .await?
    .json()?;
    let excluded = begun["options"]["publicKey"]["excludeCredentials"][0]["id"].clone();
    assert_eq!(
        excluded,
        first_id.as_str(),
        "the authenticator is told which passkey the account has"
    );
    let (mut second_key, credential) = SoftPasskey::create(&begun["options"], &passkey::origin(addr), "finn 2")?;
    let added = request(
        addr,
        "POST",
        "/api/account/passkeys/finish",
        Some(&json!({"ceremony": begun["ceremony"], "credential": credential})),
        Some(&session),
    )
    .await?;
    assert_eq!(added.status, 201, "{}", added.body);
    assert_eq!(request(addr, "DELETE", &path, None, Some(&session)).await?.status, 204);
    // the removed passkey signs nobody in; the new one does
    let mut removed = first_key;
    assert!(passkey::sign_in(addr, &mut removed).await.is_err());
    passkey::sign_in(addr, &mut second_key).await?;
    server.stop().await
}

#[tokio::test]
async fn an_account_downloads_its_data_and_deletes_itself_keeping_its_games() -> Result<()> {
    let server = support::start("accounts-delete").await?;
    let addr = server.addr;
    let s = support::create_and_join(addr, Mode::Full).await?;
    let (mut key, session) = passkey::register(addr, "Poe").await?;
    let keep = json!({"seats": [{"code": s.code, "token": s.creator_token}]});
    request(addr, "POST", "/api/account/seats", Some(&keep), Some(&session)).await?;
    let (mut creator, _) = Client::hello(addr, &s.code, Some(&s.creator_token), None).await?;
    creator
        .send(&evr_protocol::ClientMsg::SetName {
            name: Some("Poe".into()),
        })
        .await?;
    creator
        .recv_until("the name", |m| match m {
            evr_protocol::ServerMsg::Room { room } => room.names[s.creator].clone(),
            _ => None,
        })
        .await?;

    let file = request(addr, "GET", "/api/account/export", None, Some(&session)).await?;
    assert_eq!(file.status, 200, "{}", file.body);
    let file = file.json()?;
    assert_eq!(file["account"]["username"], "Poe");
    assert_eq!(file["rooms"][0]["code"], s.code.as_str(), "{file}");
    assert_eq!(file["rooms"][0]["games"][0]["you"], serde_json::to_value(s.creator)?);

    let wrong = request(
        addr,
        "POST",
        "/api/account/delete",
        Some(&json!({"username": "poe2"})),
        Some(&session),
    )
    .await?;
    assert_eq!(
        (wrong.status, passkey::Answer::code(&wrong)),
        (400, "confirmation_mismatch".into())
    );
    let deleted = request(
        addr,
        "POST",
        "/api/account/delete",
        Some(&json!({"username": "Poe"})),
        Some(&session),
    )
    .await?;
    assert_eq!(deleted.status, 204, "{}", deleted.body);
    assert_eq!(deleted.session().as_deref(), Some(""));
    assert_eq!(
        request(addr, "GET", "/api/account", None, Some(&session)).await?.status,
        401
    );
    assert!(passkey::sign_in(addr, &mut key).await.is_err(), "its passkeys are gone");
    // the name left the seat; the seat's token still plays
    let cleared = creator
        .recv_until("the name cleared", |m| match m {
            evr_protocol::ServerMsg::Room { room } => room.names[s.creator].is_none().then_some(()),
            _ => None,
        })
        .await;
    ensure!(cleared.is_ok(), "the room's name was not cleared");
    let (_, welcome) = Client::hello(addr, &s.code, Some(&s.creator_token), None).await?;
    assert_eq!(welcome.you, Role::Seat(s.creator));
    // and the username stays kept back
    let a = request(
        addr,
        "POST",
        "/api/account/register/begin",
        Some(&json!({"username": "poe"})),
        None,
    )
    .await?;
    assert_eq!((a.status, passkey::Answer::code(&a)), (409, "username_reserved".into()));
    server.stop().await
}

#[tokio::test]
async fn account_requests_are_limited_per_client_address() -> Result<()> {
    let server = support::start("accounts-limits").await?;
    let addr = server.addr;
    let mut statuses = Vec::new();
    for _ in 0..61 {
        statuses.push(
            request(addr, "POST", "/api/account/sign-in/begin", Some(&json!({})), None)
                .await?
                .status,
        );
    }
    assert!(statuses[..60].iter().all(|s| *s == 200), "{statuses:?}");
    assert_eq!(statuses[60], 429);
    server.stop().await
}

#[tokio::test]
async fn a_room_made_signed_in_is_the_accounts_and_bears_its_username() -> Result<()> {
    let server = support::start("accounts-new-room").await?;
    let addr = server.addr;
    let (_, session) = passkey::register(addr, "Chewie").await?;
    let options = serde_json::to_value(support::options(Mode::Full))?;
    let created = request(addr, "POST", "/api/rooms", Some(&options), Some(&session)).await?;
    assert_eq!(created.status, 201, "{}", created.body);
    let created: evr_protocol::CreatedRoom = serde_json::from_str(&created.body)?;
    let rooms = request(addr, "GET", "/api/account/rooms", None, Some(&session))
        .await?
        .json()?;
    assert_eq!(rooms["rooms"][0]["code"], created.code.as_str(), "{rooms}");
    let (_, welcome) = Client::hello(addr, &created.code, Some(&created.token), None).await?;
    assert_eq!(welcome.room.names[created.seat].as_deref(), Some("Chewie"));

    // the guest who joins signed in keeps the other seat, under a name they chose
    let (_, guest) = passkey::register(addr, "Lando").await?;
    let secret = support::invite_secret(&created)?;
    let joined = request(
        addr,
        "POST",
        &format!("/api/rooms/{}/join", created.code),
        Some(&json!({"invite": secret, "name": "Calrissian"})),
        Some(&guest),
    )
    .await?;
    assert_eq!(joined.status, 200, "{}", joined.body);
    let rooms = request(addr, "GET", "/api/account/rooms", None, Some(&guest))
        .await?
        .json()?;
    assert_eq!(rooms["rooms"][0]["code"], created.code.as_str(), "{rooms}");
    let (_, welcome) = Client::hello(addr, &created.code, Some(&created.token), None).await?;
    assert_eq!(
        welcome.room.names[created.seat.opponent()].as_deref(),
        Some("Calrissian")
    );
    server.stop().await
}

#[tokio::test]
async fn a_page_of_another_site_changes_nothing_in_an_account() -> Result<()> {
    let server = support::start("accounts-origin").await?;
    let addr = server.addr;
    let s = support::create_and_join(addr, Mode::Full).await?;
    let (_, session) = passkey::register(addr, "Jyn").await?;
    let before = account(addr, &session).await?;
    let passkey_id = before["passkeys"][0]["id"].as_str().context("a passkey")?.to_string();
    let session_id = before["sessions"][0]["id"].as_str().context("a session")?.to_string();
    let evil = "Origin: https://evil.example\r\n";
    let routes: Vec<(&str, String, Value)> = vec![
        (
            "POST",
            "/api/account/register/begin".into(),
            json!({"username": "Cassian"}),
        ),
        (
            "POST",
            "/api/account/register/finish".into(),
            json!({"ceremony": "x", "credential": {}}),
        ),
        ("POST", "/api/account/sign-in/begin".into(), json!({})),
        (
            "POST",
            "/api/account/sign-in/finish".into(),
            json!({"ceremony": "x", "credential": {}}),
        ),
        ("POST", "/api/account/sign-out".into(), json!({})),
        ("POST", "/api/account/passkeys/begin".into(), json!({})),
        (
            "POST",
            "/api/account/passkeys/finish".into(),
            json!({"ceremony": "x", "credential": {}}),
        ),
        ("DELETE", format!("/api/account/passkeys/{passkey_id}"), Value::Null),
        ("DELETE", format!("/api/account/sessions/{session_id}"), Value::Null),
        ("POST", "/api/account/sessions/sign-out-others".into(), json!({})),
        (
            "POST",
            "/api/account/seats".into(),
            json!({"seats": [{"code": s.code, "token": s.creator_token}]}),
        ),
        ("POST", format!("/api/rooms/{}/account-seat", s.code), json!({})),
        (
            "POST",
            "/api/account/email".into(),
            json!({"email": "jyn@example.org", "language": "en"}),
        ),
        ("POST", "/api/account/email/confirm".into(), json!({"secret": "00"})),
        (
            "POST",
            "/api/account/sign-in/email".into(),
            json!({"email": "jyn@example.org", "language": "en"}),
        ),
        ("POST", "/api/account/sign-in/link".into(), json!({"secret": "00"})),
        ("POST", "/api/account/delete".into(), json!({"username": "Jyn"})),
    ];
    for (method, path, body) in &routes {
        let body = (!body.is_null()).then_some(body);
        let a = passkey::request_with(addr, method, path, body, Some(&session), evil).await?;
        assert_eq!(
            (a.status, passkey::Answer::code(&a)),
            (403, "origin_not_allowed".into()),
            "{method} {path}"
        );
        assert!(a.set_cookies.is_empty(), "{method} {path} set a cookie");
    }
    // nothing changed: the same account, passkeys and sessions, no seat kept
    assert_eq!(account(addr, &session).await?, before);
    let rooms = request(addr, "GET", "/api/account/rooms", None, Some(&session))
        .await?
        .json()?;
    assert_eq!(rooms["rooms"], json!([]));
    server.stop().await
}
