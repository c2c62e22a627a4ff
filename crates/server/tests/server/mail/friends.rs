//! The challenge mail, against the real SMTP sink: a challenge to an account with a confirmed
//! address mails it once ("X challenges you", a link to the site and nothing secret); a second
//! challenge from the same friend while the first is open mails nothing more; an account without
//! a confirmed address gets none.

use anyhow::{Context, Result, ensure};
use serde_json::json;

use super::sink::{self, ORIGIN, address, mails_to, wait_for};
use crate::support::{self, passkey};

#[tokio::test]
#[ignore = "needs the SMTP sink: scripts/test.sh runs it"]
async fn a_challenge_is_mailed_once_to_a_confirmed_address() -> Result<()> {
    let server = support::start_with(sink::config("friends-mail")?).await?;
    let addr = server.addr;
    let (_, bo) = passkey::register_at(addr, ORIGIN, "Bo").await?;
    let (_, din) = passkey::register_at(addr, ORIGIN, "Din").await?;
    let email = address("din");

    // Din confirms an address
    let set = json!({"email": email, "language": "en"});
    let asked = passkey::request(addr, "POST", "/api/account/email", Some(&set), Some(&din)).await?;
    ensure!(asked.status == 202, "{} {}", asked.status, asked.body);
    let confirmation = wait_for(&email, 1).await?.remove(0);
    let link = confirmation.link(&format!("{ORIGIN}/#/account/confirm/"))?;
    let secret = link.rsplit('/').next().context("a secret")?;
    let body = json!({"secret": secret});
    let confirmed = passkey::request(addr, "POST", "/api/account/email/confirm", Some(&body), None).await?;
    ensure!(confirmed.status == 204, "{} {}", confirmed.status, confirmed.body);

    // friends; Bo challenges Din twice, Din challenges Bo (who has no address)
    let asked = json!({"username": "Din"});
    passkey::request(addr, "POST", "/api/account/friends", Some(&asked), Some(&bo)).await?;
    let accept = json!({"username": "Bo"});
    passkey::request(addr, "POST", "/api/account/friends/accept", Some(&accept), Some(&din)).await?;
    let challenge = json!({"username": "Din", "side": "rebel", "rated": false, "spectators": "off"});
    for _ in 0..2 {
        let made = passkey::request(addr, "POST", "/api/account/challenges", Some(&challenge), Some(&bo)).await?;
        ensure!(made.status == 201, "{} {}", made.status, made.body);
    }
    let back = json!({"username": "Bo", "side": "random", "rated": true, "spectators": "off"});
    let made = passkey::request(addr, "POST", "/api/account/challenges", Some(&back), Some(&din)).await?;
    ensure!(made.status == 201, "{} {}", made.status, made.body);

    let mails = wait_for(&email, 2).await?;
    let mail = &mails[1];
    ensure!(mail.subject.contains("Bo challenges you"), "{}", mail.subject);
    for words in ["Bo", "帝國軍vs反抗軍", "帝国軍 vs. 反乱軍"] {
        ensure!(mail.body.contains(words), "{words} in {}", mail.body);
    }
    let site = mail.link(ORIGIN)?;
    ensure!(
        site == format!("{ORIGIN}/"),
        "a link to the site and nothing more: {site}"
    );
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    ensure!(mails_to(&email)?.len() == 2, "the second challenge mailed nothing more");
    server.stop().await
}
