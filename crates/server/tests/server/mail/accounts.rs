//! An account's address and its sign-in links, against the real SMTP sink: the address is
//! confirmed by its mail's link (once); a sign-in link arrives only for a confirmed address, signs
//! a device in once, and the answer is the same for an address no account has; the mails to one
//! mailbox are limited.

use anyhow::{Context, Result, ensure};
use serde_json::json;

use super::sink::{self, ORIGIN, address, mails_to, wait_for};
use crate::support::{self, passkey};

/// The secret of the first `#/account/{what}/` link of `mail`.
fn secret_of(mail: &sink::Mail, what: &str) -> Result<String> {
    let link = mail.link(&format!("{ORIGIN}/#/account/{what}/"))?;
    link.rsplit('/').next().map(str::to_string).context("a secret")
}

#[tokio::test]
#[ignore = "needs the SMTP sink: scripts/test.sh runs it"]
async fn a_confirmed_address_gets_sign_in_links_that_work_once() -> Result<()> {
    let server = support::start_with(sink::config("accounts-mail")?).await?;
    let addr = server.addr;
    let (_, session) = passkey::register_at(addr, ORIGIN, "Ahsoka").await?;
    let email = address("ahsoka");
    let sign_in = json!({"email": email, "language": "en"});

    // before the address is confirmed, no sign-in link goes to it
    let asked = passkey::request(
        addr,
        "POST",
        "/api/account/email",
        Some(&json!({"email": email, "language": "ja"})),
        Some(&session),
    )
    .await?;
    ensure!(asked.status == 202, "{} {}", asked.status, asked.body);
    let confirmation = wait_for(&email, 1).await?.remove(0);
    ensure!(confirmation.subject.contains("EvR Online"), "{}", confirmation.subject);
    ensure!(
        !confirmation.raw.contains("List-Unsubscribe"),
        "a reply to its reader, not a list"
    );
    let asked = passkey::request(addr, "POST", "/api/account/sign-in/email", Some(&sign_in), None).await?;
    ensure!(asked.status == 202, "{} {}", asked.status, asked.body);

    let secret = secret_of(&confirmation, "confirm")?;
    let body = json!({"secret": secret});
    let confirmed = passkey::request(addr, "POST", "/api/account/email/confirm", Some(&body), None).await?;
    ensure!(confirmed.status == 204, "{} {}", confirmed.status, confirmed.body);
    let again = passkey::request(addr, "POST", "/api/account/email/confirm", Some(&body), None).await?;
    ensure!(
        again.status == 410 && again.body.contains("sign_in_link_invalid"),
        "{}",
        again.body
    );
    ensure!(
        mails_to(&email)?.len() == 1,
        "no sign-in link went to the unconfirmed address"
    );

    // now a sign-in link comes, and signs a device in once
    let asked = passkey::request(addr, "POST", "/api/account/sign-in/email", Some(&sign_in), None).await?;
    ensure!(asked.status == 202, "{} {}", asked.status, asked.body);
    let link_mail = wait_for(&email, 2).await?.remove(1);
    ensure!(link_mail.body.contains("Ahsoka"), "{}", link_mail.body);
    let body = json!({"secret": secret_of(&link_mail, "sign-in")?});
    let signed_in = passkey::request(addr, "POST", "/api/account/sign-in/link", Some(&body), None).await?;
    ensure!(signed_in.status == 200, "{} {}", signed_in.status, signed_in.body);
    let device = signed_in.session().context("a session")?;
    ensure!(device != session, "a session of its own");
    let account = passkey::request(addr, "GET", "/api/account", None, Some(&device)).await?;
    ensure!(
        account.status == 200 && account.body.contains(r#""email_confirmed":true"#),
        "{}",
        account.body
    );
    let reused = passkey::request(addr, "POST", "/api/account/sign-in/link", Some(&body), None).await?;
    ensure!(
        reused.status == 410 && reused.session().is_none(),
        "{} {}",
        reused.status,
        reused.body
    );

    // another account cannot take the confirmed address: the same answer, and no mail
    let (_, other) = passkey::register_at(addr, ORIGIN, "Barriss").await?;
    let taken = json!({"email": email, "language": "en"});
    let asked = passkey::request(addr, "POST", "/api/account/email", Some(&taken), Some(&other)).await?;
    ensure!(asked.status == 202, "{} {}", asked.status, asked.body);

    // an address no account has: the same answer, and no mail
    let stranger = address("stranger");
    let asked = passkey::request(
        addr,
        "POST",
        "/api/account/sign-in/email",
        Some(&json!({"email": stranger, "language": "en"})),
        None,
    )
    .await?;
    ensure!(
        asked.status == 202 && asked.body.is_empty(),
        "{} {}",
        asked.status,
        asked.body
    );

    // five mails a day to one mailbox, however it is spelled
    let spelled = email.to_uppercase();
    let mut statuses = Vec::new();
    for _ in 0..4 {
        let body = json!({"email": spelled, "language": "en"});
        statuses.push(
            passkey::request(addr, "POST", "/api/account/sign-in/email", Some(&body), None)
                .await?
                .status,
        );
    }
    ensure!(statuses == [202, 429, 429, 429], "{statuses:?}");
    // the last link leaves after its answer: waited for; the other account's request sent nothing
    // (it would have been sent before its answer)
    let mails = wait_for(&email, 3).await?;
    ensure!(
        mails.len() == 3,
        "the confirmation, the link, one more link, nothing for the other account: {:?}",
        mails.iter().map(|m| m.subject.clone()).collect::<Vec<_>>()
    );
    ensure!(
        mails_to(&stranger)?.is_empty(),
        "nothing went to an address no account has"
    );
    server.stop().await
}
