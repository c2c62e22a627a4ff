//! Every answer carries the browser's second line of defence (`crates/server/src/defences.rs`):
//! the page runs only the server's own scripts and styles and talks only to its own origin, no
//! site may frame it, a file is only what its type says, and no address is told to another site.
//! The mail pages allow their one inline style sheet by its hash, and nothing else inline. A page of
//! another site changes nothing: every state-changing route refuses its `Origin`, the API reads JSON only.

use anyhow::{Context, Result, ensure};
use base64::Engine;
use evr_rules::Mode;
use sha2::{Digest, Sha256};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::refusals::exchange;
use crate::support;

/// The policy the app is served with, as a reviewer reads it.
const POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; \
     connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";

/// Header `name`'s value in a lowercased head.
fn header<'h>(head: &'h str, name: &str) -> Option<&'h str> {
    head.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(':').map(str::trim))
}

#[tokio::test]
async fn every_answer_tells_the_browser_to_run_only_our_code_and_never_in_a_frame() -> Result<()> {
    let server = support::start("defences").await?;
    let addr = server.addr;
    let seats = support::create_and_join(addr, Mode::Tutorial).await?;
    let code = &seats.code;
    let paths = [
        "/".to_owned(),
        format!("/r/{code}"),
        format!("/api/rooms/{code}"),
        format!("/api/rooms/{code}/games"),
        "/api/rooms/ZZZZZZZZ".to_owned(),
        "/favicon.svg".to_owned(),
        "/nowhere.js".to_owned(),
        "/healthz".to_owned(),
    ];
    for path in &paths {
        let (status, head, _) = exchange(addr, &format!("GET {path} HTTP/1.1"), b"").await?;
        ensure!(
            header(&head, "content-security-policy") == Some(POLICY.to_lowercase().as_str()),
            "{path} ({status}): {head}"
        );
        for (name, value) in [
            ("x-content-type-options", "nosniff"),
            ("referrer-policy", "no-referrer"),
            ("x-frame-options", "deny"),
        ] {
            ensure!(
                header(&head, name) == Some(value),
                "{path} ({status}): {name} in {head}"
            );
        }
    }
    // A mail link's page (here one that leads nowhere): its inline style sheet, allowed by its
    // hash; scripts, frames and the rest as for the app.
    let (status, head, body) = exchange(addr, &format!("GET /mail/confirm/{} HTTP/1.1", "0".repeat(32)), b"").await?;
    ensure!(status == 404, "a dead link: {status}");
    let style = body
        .split_once("<style>")
        .and_then(|(_, rest)| rest.split_once("</style>"))
        .map(|(css, _)| css)
        .context("the page's style sheet")?;
    let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(style.as_bytes()));
    // (the head is lowercased; a base64 hash is not)
    let expected = POLICY
        .replace("style-src 'self'", &format!("style-src 'sha256-{hash}'"))
        .to_lowercase();
    ensure!(
        header(&head, "content-security-policy") == Some(expected.as_str()),
        "the mail page's policy: {head}"
    );
    ensure!(header(&head, "x-frame-options") == Some("deny"), "{head}");
    server.stop().await
}

/// A request's status and error code, `head` its first line and extra headers (a JSON body).
async fn code_of(addr: std::net::SocketAddr, head: &str, body: &str) -> Result<(u16, Option<String>)> {
    let head = format!("{head}\r\nContent-Type: application/json");
    let (status, _, text) = exchange(addr, &head, body.as_bytes()).await?;
    let code = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v["code"].as_str().map(str::to_owned));
    Ok((status, code))
}

#[tokio::test]
async fn a_page_of_another_site_changes_nothing_on_any_route() -> Result<()> {
    let server = support::start("same-origin").await?;
    let addr = server.addr;
    let created = support::create_room(addr, &support::options(Mode::Full)).await?;
    let (code, token) = (&created.code, &created.token);
    let join_code = created.join_code.clone().context("a friend's room has a join code")?;
    let (rooms_before, _) = support::http(addr, "GET", &format!("/api/rooms/{code}"), None).await?;
    ensure!(rooms_before == 200);
    // every state-changing route, as a page of another site would send it (the requests that need
    // one carry the creator's token or the right join code: only the origin is wrong)
    let evil = "Origin: https://evil.example";
    let bearer = format!("Authorization: Bearer {token}");
    let routes = [
        (
            "POST /api/rooms HTTP/1.1".to_owned(),
            r#"{"mode":"full","side":"rebel","spectators":"off"}"#.to_owned(),
        ),
        (
            format!("POST /api/rooms/{code}/join HTTP/1.1"),
            format!(r#"{{"join_code":"{join_code}"}}"#),
        ),
        (
            format!("POST /api/rooms/{code}/invite HTTP/1.1\r\n{bearer}"),
            String::new(),
        ),
        (
            format!("POST /api/rooms/{code}/transfer HTTP/1.1\r\n{bearer}"),
            String::new(),
        ),
        (
            format!("POST /api/rooms/{code}/take HTTP/1.1"),
            r#"{"secret":"00"}"#.to_owned(),
        ),
        (
            format!("POST /api/rooms/{code}/devices/sign-out-others HTTP/1.1\r\n{bearer}"),
            String::new(),
        ),
        (
            format!("PUT /api/rooms/{code}/reminders HTTP/1.1\r\n{bearer}"),
            r#"{"email":"ana@example.org","language":"en"}"#.to_owned(),
        ),
        (
            format!("DELETE /api/rooms/{code}/reminders HTTP/1.1\r\n{bearer}"),
            String::new(),
        ),
        (
            "POST /mail/confirm/0123456789abcdef0123456789abcdef HTTP/1.1".to_owned(),
            String::new(),
        ),
        (
            "POST /mail/unsubscribe/0123456789abcdef0123456789abcdef HTTP/1.1".to_owned(),
            String::new(),
        ),
    ];
    for (head, body) in &routes {
        assert_eq!(
            code_of(addr, &format!("{head}\r\n{evil}"), body).await?,
            (403, Some("origin_not_allowed".to_owned())),
            "{head}"
        );
    }
    // nothing changed: the seat is free, the join code still works, no link was made
    let devices = support::seats::devices(addr, code, Some(token))
        .await?
        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    assert_eq!((devices.devices.len(), devices.link_expires_at), (1, None));
    let joined = support::seats::join_by_code(addr, code, &join_code, None).await?;
    assert!(joined.is_ok(), "the join code was not spent: {joined:?}");
    // the page's own origin (the address the request was sent to) is welcome; so is a program
    // (`exchange` sends the request to the address `x`)
    let (status, _, _) = exchange(
        addr,
        "POST /api/rooms HTTP/1.1\r\nContent-Type: application/json\r\nOrigin: http://x",
        routes[0].1.as_bytes(),
    )
    .await?;
    assert_eq!(status, 201, "a page of this address creates a room");
    // the API reads JSON only: a text/plain body, which any page may send without asking, is refused
    let (status, _, text) = exchange(
        addr,
        "POST /api/rooms HTTP/1.1\r\nContent-Type: text/plain",
        routes[0].1.as_bytes(),
    )
    .await?;
    assert_eq!(status, 400, "{text}");
    ensure!(text.contains("application/json"), "{text}");
    // a WebSocket from a page of another site is refused too
    let mut request = format!("ws://{addr}/ws/{code}").into_client_request()?;
    request.headers_mut().insert("origin", "https://evil.example".parse()?);
    let refused = tokio_tungstenite::connect_async(request).await;
    ensure!(refused.is_err(), "a WebSocket from another site is refused");
    server.stop().await
}
