//! One mailbox, one allowance (issue "Safe on the open internet"): the spellings of one address
//! share its 3 confirmation mails a day; an address that cannot be mailed as it is, or that would
//! show as another (quoted, escaped, with direction or invisible characters), is refused before
//! anything is stored or counted. Against the real SMTP sink, like the other mail tests.

use anyhow::{Result, ensure};

use super::sink::{self, address, mails_to};
use super::{put, settings};
use crate::support;

#[tokio::test]
#[ignore = "needs the SMTP sink: scripts/test.sh runs it"]
async fn the_spellings_of_one_mailbox_share_its_three_mails_a_day() -> Result<()> {
    let server = support::start_with(sink::config("mail-spellings")?).await?;
    let addr = server.addr;
    let plain = address("victim");
    let local = plain.trim_end_matches("@example.org");
    let spellings = [
        plain.clone(),
        format!("{}@EXAMPLE.ORG", local.to_uppercase()),
        format!("{local}+1@example.org"),
        // fullwidth letters: IDNA maps the domain to example.org
        format!("{local}+2@ｅｘａｍｐｌｅ.org"),
    ];
    for (i, email) in spellings.iter().enumerate() {
        let seats = support::create_and_join(addr, evr_rules::Mode::Full).await?;
        let (status, text) = put(addr, &seats.code, &seats.creator_token, email, "en").await?;
        let want = if i < 3 { 202 } else { 429 };
        ensure!(status == want, "request {i} for one mailbox ({email}): {status} {text}");
        if i == 3 {
            ensure!(text.contains("rate_limited"), "{text}");
        }
    }
    // mail goes to the local part as typed, at the domain in its ASCII, lower-case form
    let sent_to = [
        plain.clone(),
        format!("{}@example.org", local.to_uppercase()),
        format!("{local}+1@example.org"),
        format!("{local}+2@example.org"),
    ];
    let counts: Vec<usize> = sent_to
        .iter()
        .map(|to| mails_to(to).map(|m| m.len()))
        .collect::<Result<_>>()?;
    ensure!(
        counts == [1, 1, 1, 0],
        "three mails to the mailbox, no more: {counts:?}"
    );
    server.stop().await
}

#[tokio::test]
#[ignore = "needs the SMTP sink: scripts/test.sh runs it"]
async fn quoted_and_deceptive_addresses_are_refused_before_anything_is_stored_or_counted() -> Result<()> {
    let server = support::start_with(sink::config("mail-quoted")?).await?;
    let addr = server.addr;
    let seats = support::create_and_join(addr, evr_rules::Mode::Full).await?;
    let local = address("quoted");
    let local = local.trim_end_matches("@example.org");
    let refused = [
        format!("\"{local}\"@example.org"),
        format!("\"vi\\ctim.{local}\"@example.org"),
        format!("\u{202E}{local}@example.org"),
        format!("{local}\u{200B}@example.org"),
    ];
    for email in &refused {
        let (status, text) = put(addr, &seats.code, &seats.creator_token, email, "en").await?;
        ensure!(
            status == 400 && text.contains("bad_email"),
            "{email:?}: {status} {text}"
        );
    }
    ensure!(
        settings(addr, &seats.code, &seats.creator_token)
            .await?
            .email_hint
            .is_none(),
        "nothing stored for the seat"
    );
    let unquoted = format!("{local}@example.org");
    let stripped = format!("vi\\ctim.{local}@example.org");
    for to in refused.iter().chain([&unquoted, &stripped]) {
        ensure!(mails_to(to)?.is_empty(), "nothing sent to {to:?}");
    }
    // the room's 5 addresses a day are all still there
    for i in 0..5 {
        let email = address(&format!("after{i}"));
        let (status, text) = put(addr, &seats.code, &seats.guest_token, &email, "en").await?;
        ensure!(status == 202, "address {i} after the refusals: {status} {text}");
    }
    server.stop().await
}
