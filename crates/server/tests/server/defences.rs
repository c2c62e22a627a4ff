//! Every answer carries the browser's second line of defence (`crates/server/src/defences.rs`):
//! the page runs only the server's own scripts and styles and talks only to its own origin, no
//! site may frame it, a file is only what its type says, and no address is told to another site.
//! The mail pages allow their one inline style sheet by its hash, and nothing else inline.

use anyhow::{Context, Result, ensure};
use base64::Engine;
use evr_rules::Mode;
use sha2::{Digest, Sha256};

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
