//! Reminders by email against a real SMTP server (scripts/mail/smtp_sink.py on aiosmtpd, started by
//! scripts/test.sh; hence `#[ignore]`, run by its own step): the confirmation mail arrives and its
//! link (a button, not the `GET`) confirms; nothing reaches an unconfirmed address; a reminder
//! arrives in its player's language naming the opponent and the room, with the room's link and
//! nothing of the game; an unsubscribe link stops the mail; the limits refuse a flood and send
//! nothing beyond them; an address goes 7 days after its game ended. Reminders are handed to the
//! notifier directly (the room's schedule is tested with the clocks).

mod accounts;
mod sink;
mod spellings;

use anyhow::{Context, Result, ensure};
use evr_protocol::{ClientMsg, ReminderSettings, RemindersSet, RemindersStatus, reminders_path};
use evr_rules::Faction;
use evr_server::mail::{Delivery, sweep};
use evr_server::notify::{Reminder, ReminderKind};
use evr_store::{KEEP_AFTER_GAME_OVER_MS, StoredSeat};
use serde_json::json;

use self::sink::{Mail, ORIGIN, address, mails_to, path_of, wait_for};
use crate::support::{self, Client};

const HOUR: i64 = 3_600_000;

async fn put(addr: std::net::SocketAddr, code: &str, token: &str, email: &str, lang: &str) -> Result<(u16, String)> {
    let body = json!({ "email": email, "language": lang });
    support::http_as(addr, "PUT", &reminders_path(code), Some(&body), Some(token)).await
}

async fn settings(addr: std::net::SocketAddr, code: &str, token: &str) -> Result<ReminderSettings> {
    let (status, text) = support::http_as(addr, "GET", &reminders_path(code), None, Some(token)).await?;
    ensure!(status == 200, "GET reminders: {status} {text}");
    Ok(serde_json::from_str(&text)?)
}

/// Gives `email` for the seat of `token` and follows the confirmation mail's button.
async fn confirmed(addr: std::net::SocketAddr, code: &str, token: &str, email: &str, lang: &str) -> Result<Mail> {
    let (status, text) = put(addr, code, token, email, lang).await?;
    ensure!(status == 202, "PUT reminders: {status} {text}");
    let mail = wait_for(email, 1).await?.remove(0);
    let confirm = path_of(&mail.link(&format!("{ORIGIN}/mail/confirm/"))?)?;
    let (status, page) = support::http(addr, "POST", &confirm, None).await?;
    ensure!(status == 200, "confirming: {status} {page}");
    Ok(mail)
}

fn reminder(code: &str, side: Faction, kind: ReminderKind, opponent: Option<&str>) -> Reminder {
    Reminder {
        room: code.to_string(),
        game_no: 1,
        side,
        kind,
        decision_seq: 3,
        deadline_unix_ms: now_ms() + 51 * HOUR,
        opponent_name: opponent.map(str::to_string),
    }
}

/// A room whose creator plays the Rebel side, and its guest.
async fn rebel_room(addr: std::net::SocketAddr) -> Result<support::Seats> {
    let options = evr_protocol::RoomOptions {
        side: evr_protocol::SideChoice::Rebel,
        ..support::options(evr_rules::Mode::Full)
    };
    let created = support::create_room(addr, &options).await?;
    let joined = support::join_room(addr, &created.code, Some(&support::invite_secret(&created)?))
        .await?
        .map_err(|e| anyhow::anyhow!("join: {e:?}"))?;
    Ok(support::Seats {
        code: created.code,
        creator_token: created.token,
        creator: created.seat,
        guest_token: joined.token,
        guest: joined.seat,
    })
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

#[tokio::test]
#[ignore = "needs the SMTP sink: scripts/test.sh runs it"]
async fn the_confirmation_mail_arrives_and_its_button_confirms() -> Result<()> {
    let config = sink::config("mail-confirm")?;
    let server = support::start_with(config).await?;
    let addr = server.addr;
    let (status, text) = support::http(addr, "GET", "/api/mail", None).await?;
    ensure!(status == 200 && text.contains(r#""enabled":true"#), "{status} {text}");
    let seats = support::create_and_join(addr, evr_rules::Mode::Full).await?;
    let email = address("confirm");
    let (status, text) = put(addr, &seats.code, "not-a-token", &email, "en").await?;
    ensure!(status == 403 && text.contains("bad_token"), "{status} {text}");
    let (status, text) = put(addr, &seats.code, &seats.creator_token, "ana@localhost", "en").await?;
    ensure!(status == 400 && text.contains("bad_email"), "{status} {text}");

    let (status, text) = put(addr, &seats.code, &seats.creator_token, &email, "en").await?;
    ensure!(status == 202, "{status} {text}");
    let set: RemindersSet = serde_json::from_str(&text)?;
    ensure!(set.status == RemindersStatus::ConfirmationSent, "{set:?}");
    // the PUT returns once the SMTP server took the mail
    let mails = mails_to(&email)?;
    ensure!(mails.len() == 1, "one confirmation mail: {mails:?}");
    let mail = &mails[0];
    let shown = format!("{}-{}", &seats.code[..4], &seats.code[4..]);
    ensure!(
        mail.subject.contains(&shown),
        "the room in the subject: {}",
        mail.subject
    );
    ensure!(mail.from.contains("reminders@evr.test"), "{}", mail.from);
    let unsubscribe = mail.link(&format!("{ORIGIN}/mail/unsubscribe/"))?;
    ensure!(
        mail.list_unsubscribe.as_deref() == Some(format!("<{unsubscribe}>").as_str()),
        "List-Unsubscribe: {:?}",
        mail.list_unsubscribe
    );
    ensure!(
        mail.list_unsubscribe_post.as_deref() == Some("List-Unsubscribe=One-Click"),
        "{mail:?}"
    );
    ensure!(
        mail.raw.contains("Auto-Submitted: auto-generated"),
        "no auto-replies: {}",
        mail.raw
    );
    let hint = settings(addr, &seats.code, &seats.creator_token).await?;
    ensure!(
        hint.email_hint.as_deref() == Some("c…@example.org") && !hint.confirmed,
        "masked and unconfirmed: {hint:?}"
    );
    ensure!(
        settings(addr, &seats.code, &seats.guest_token)
            .await?
            .email_hint
            .is_none(),
        "the other seat has none"
    );

    // following the link shows a button and changes nothing (a mail scanner follows links too)
    let confirm = path_of(&mail.link(&format!("{ORIGIN}/mail/confirm/"))?)?;
    let (status, page) = support::http(addr, "GET", &confirm, None).await?;
    ensure!(
        status == 200 && page.contains("<form method=\"post\">"),
        "{status} {page}"
    );
    ensure!(
        !settings(addr, &seats.code, &seats.creator_token).await?.confirmed,
        "a GET confirmed"
    );
    let (status, page) = support::http(addr, "POST", &confirm, None).await?;
    ensure!(status == 200 && page.contains("are on"), "{status} {page}");
    ensure!(
        page.contains(&format!("{ORIGIN}/r/{}", seats.code)),
        "a link back to the room: {page}"
    );
    ensure!(
        settings(addr, &seats.code, &seats.creator_token).await?.confirmed,
        "confirmed"
    );
    let (status, page) = support::http(addr, "POST", "/mail/confirm/0123456789abcdef0123456789abcdef", None).await?;
    ensure!(status == 404, "a made-up link: {status} {page}");

    // the same address again: nothing to confirm, no mail
    let (status, text) = put(addr, &seats.code, &seats.creator_token, &email, "ja").await?;
    ensure!(status == 202 && text.contains("already_confirmed"), "{status} {text}");
    ensure!(mails_to(&email)?.len() == 1, "no second mail");
    // forgotten on request
    let (status, _) = support::http_as(
        addr,
        "DELETE",
        &reminders_path(&seats.code),
        None,
        Some(&seats.creator_token),
    )
    .await?;
    ensure!(status == 204, "DELETE: {status}");
    ensure!(
        settings(addr, &seats.code, &seats.creator_token)
            .await?
            .email_hint
            .is_none(),
        "forgotten"
    );
    server.stop().await
}

#[tokio::test]
#[ignore = "needs the SMTP sink: scripts/test.sh runs it"]
async fn reminders_reach_confirmed_addresses_only_in_their_language() -> Result<()> {
    let config = sink::config("mail-reminders")?;
    let (notifier, _store) = sink::notifier(&config)?;
    let server = support::start_with(config).await?;
    let addr = server.addr;
    let seats = rebel_room(addr).await?;
    let guest = address("guest-ja");
    let creator = address("creator-zh");

    // unconfirmed: only the confirmation mail, never a reminder
    let (status, text) = put(addr, &seats.code, &seats.guest_token, &guest, "ja").await?;
    ensure!(status == 202, "{status} {text}");
    let to_guest = reminder(&seats.code, seats.guest, ReminderKind::YourTurn, Some("Ana"));
    ensure!(
        notifier.deliver(&to_guest).await? == Delivery::NoConfirmedAddress,
        "unconfirmed"
    );
    let no_address = reminder(&seats.code, seats.creator, ReminderKind::YourTurn, None);
    ensure!(
        notifier.deliver(&no_address).await? == Delivery::NoConfirmedAddress,
        "no address"
    );
    ensure!(
        mails_to(&guest)?.len() == 1,
        "only the confirmation mail: {:?}",
        mails_to(&guest)?
    );

    // confirmed: "your turn" in Japanese, naming the opponent and the room, with its link
    let confirm = path_of(&mails_to(&guest)?[0].link(&format!("{ORIGIN}/mail/confirm/"))?)?;
    let (status, _) = support::http(addr, "POST", &confirm, None).await?;
    ensure!(status == 200, "confirm: {status}");
    ensure!(notifier.deliver(&to_guest).await? == Delivery::Sent, "sent");
    let mail = wait_for(&guest, 2).await?.remove(1);
    let shown = format!("{}-{}", &seats.code[..4], &seats.code[4..]);
    // the opponent's name (their own words) in the body only: in a subject it reads as the site's
    ensure!(
        mail.subject.contains("あなたの手番") && !mail.subject.contains("Ana") && mail.subject.contains(&shown),
        "subject: {}",
        mail.subject
    );
    ensure!(
        mail.body.contains("相手：「Ana」"),
        "the opponent in the body: {}",
        mail.body
    );
    // a Message-ID on the site's host, not the machine's
    let id = mail
        .raw
        .lines()
        .find_map(|l| l.strip_prefix("Message-ID: "))
        .with_context(|| format!("a Message-ID: {}", mail.raw))?;
    ensure!(
        id.starts_with('<') && id.ends_with("@evr.test>") && id.len() == 1 + 32 + "@evr.test>".len(),
        "{id}"
    );
    let room_link = format!("{ORIGIN}/r/{}", seats.code);
    ensure!(
        mail.link(&room_link)? == room_link,
        "the room's own link, nothing more: {}",
        mail.body
    );
    ensure!(
        mail.body.contains(" UTC") && mail.body.contains("あと2日3時間"),
        "the deadline: {}",
        mail.body
    );
    let unsubscribe = mail.link(&format!("{ORIGIN}/mail/unsubscribe/"))?;
    ensure!(
        mail.list_unsubscribe.as_deref() == Some(format!("<{unsubscribe}>").as_str()),
        "{mail:?}"
    );

    // "time is running out" in 繁體中文 to the creator, who plays the other side; no name: the side
    confirmed(addr, &seats.code, &seats.creator_token, &creator, "zh-Hant").await?;
    let to_creator = reminder(&seats.code, seats.creator, ReminderKind::TimeRunningOut, None);
    ensure!(notifier.deliver(&to_creator).await? == Delivery::Sent, "sent");
    let mail = wait_for(&creator, 2).await?.remove(1);
    // the creator plays the Rebel side: the opponent is the Imperial player
    let opponent = "帝國軍玩家";
    ensure!(
        mail.subject.contains("時間快到了") && !mail.subject.contains(opponent) && mail.body.contains(opponent),
        "subject: {} / body: {}",
        mail.subject,
        mail.body
    );

    // nothing of the game: a reminder for another room, in another state, reads the same but for
    // the room and the links
    let other = rebel_room(addr).await?;
    let (mut c, w) = Client::hello(addr, &other.code, Some(&other.creator_token), None).await?;
    let first = *w.view.legal_actions.first().context("a first decision")?;
    c.send(&support::action(w.seq, "a1", first)).await?;
    c.recv_ack().await?;
    let creator2 = address("creator-zh-2");
    confirmed(addr, &other.code, &other.creator_token, &creator2, "zh-Hant").await?;
    let mut again = reminder(&other.code, other.creator, ReminderKind::TimeRunningOut, None);
    again.deadline_unix_ms = to_creator.deadline_unix_ms;
    ensure!(notifier.deliver(&again).await? == Delivery::Sent, "sent");
    let mail2 = wait_for(&creator2, 2).await?.remove(1);
    let normalize = |m: &Mail, code: &str| -> Result<String> {
        let secret = m.link(&format!("{ORIGIN}/mail/unsubscribe/"))?;
        let shown = format!("{}-{}", &code[..4], &code[4..]);
        Ok(m.body
            .replace(&secret, "UNSUB")
            .replace(code, "CODE")
            .replace(&shown, "CODE"))
    };
    ensure!(
        normalize(&mail, &seats.code)? == normalize(&mail2, &other.code)?,
        "the body depends on the game:\n{}\n---\n{}",
        mail.body,
        mail2.body
    );
    server.stop().await
}

#[tokio::test]
#[ignore = "needs the SMTP sink: scripts/test.sh runs it"]
async fn an_unsubscribe_link_stops_the_mail() -> Result<()> {
    let config = sink::config("mail-unsubscribe")?;
    let (notifier, _store) = sink::notifier(&config)?;
    let server = support::start_with(config).await?;
    let addr = server.addr;
    let seats = support::create_and_join(addr, evr_rules::Mode::Full).await?;
    let email = address("unsubscribe");
    confirmed(addr, &seats.code, &seats.creator_token, &email, "en").await?;
    let to_creator = reminder(&seats.code, seats.creator, ReminderKind::YourTurn, Some("Bo"));
    ensure!(notifier.deliver(&to_creator).await? == Delivery::Sent, "sent");
    let mail = wait_for(&email, 2).await?.remove(1);
    ensure!(
        mail.subject == format!("Your turn in room {}-{}", &seats.code[..4], &seats.code[4..]),
        "{}",
        mail.subject
    );
    let link = path_of(&mail.link(&format!("{ORIGIN}/mail/unsubscribe/"))?)?;
    // following it shows a button; the address stays until it is pressed
    let (status, page) = support::http(addr, "GET", &link, None).await?;
    ensure!(
        status == 200 && page.contains("<form method=\"post\">"),
        "{status} {page}"
    );
    ensure!(
        settings(addr, &seats.code, &seats.creator_token).await?.confirmed,
        "a GET unsubscribed"
    );
    // a mail program's one-click unsubscribe (RFC 8058)
    let (status, page) = support::http(addr, "POST", &link, None).await?;
    ensure!(status == 200 && page.contains("are off"), "{status} {page}");
    ensure!(
        settings(addr, &seats.code, &seats.creator_token)
            .await?
            .email_hint
            .is_none(),
        "deleted"
    );
    ensure!(
        notifier.deliver(&to_creator).await? == Delivery::NoConfirmedAddress,
        "no more reminders"
    );
    ensure!(mails_to(&email)?.len() == 2, "nothing after the unsubscribe");
    let (status, _) = support::http(addr, "POST", &link, None).await?;
    ensure!(status == 404, "a used link leads nowhere: {status}");
    server.stop().await
}

#[tokio::test]
#[ignore = "needs the SMTP sink: scripts/test.sh runs it"]
async fn the_limits_refuse_a_flood_and_send_nothing_beyond_them() -> Result<()> {
    let server = support::start_with(sink::config("mail-limits")?).await?;
    let addr = server.addr;
    // one address asked for by four rooms: three confirmation mails a day
    let victim = address("victim");
    for i in 0..4 {
        let seats = support::create_and_join(addr, evr_rules::Mode::Full).await?;
        let (status, text) = put(addr, &seats.code, &seats.creator_token, &victim, "en").await?;
        let want = if i < 3 { 202 } else { 429 };
        ensure!(status == want, "request {i} for one address: {status} {text}");
    }
    ensure!(mails_to(&victim)?.len() == 3, "three mails, no more");
    // one room asking for many addresses: five a day
    let seats = support::create_and_join(addr, evr_rules::Mode::Full).await?;
    let many: Vec<String> = (0..6).map(|i| address(&format!("many{i}"))).collect();
    for (i, email) in many.iter().enumerate() {
        let (status, text) = put(addr, &seats.code, &seats.guest_token, email, "en").await?;
        let want = if i < 5 { 202 } else { 429 };
        ensure!(status == want, "address {i} for one room: {status} {text}");
        ensure!(mails_to(email)?.len() == usize::from(i < 5), "mails to address {i}");
    }
    // ten requests an hour from one network address, whatever the room and the address
    let fresh = support::create_and_join(addr, evr_rules::Mode::Full).await?;
    let last = address("eleventh");
    let (status, text) = put(addr, &fresh.code, &fresh.creator_token, &last, "en").await?;
    ensure!(
        status == 429 && text.contains("rate_limited"),
        "the eleventh request: {status} {text}"
    );
    ensure!(mails_to(&last)?.is_empty(), "nothing sent");
    server.stop().await
}

#[tokio::test]
#[ignore = "needs the SMTP sink: scripts/test.sh runs it"]
async fn addresses_are_deleted_seven_days_after_the_game() -> Result<()> {
    let mut config = sink::config("mail-purge")?;
    config.disconnect_grace_secs = 0;
    let (_notifier, store) = sink::notifier(&config)?;
    let server = support::start_with(config).await?;
    let addr = server.addr;
    let ended = support::create_and_join(addr, evr_rules::Mode::Full).await?;
    let playing = support::create_and_join(addr, evr_rules::Mode::Full).await?;
    confirmed(addr, &ended.code, &ended.creator_token, &address("ended"), "en").await?;
    confirmed(addr, &playing.code, &playing.creator_token, &address("playing"), "en").await?;
    // the guest leaves, the creator claims the win: the game is over
    let (mut a, _) = Client::hello(addr, &ended.code, Some(&ended.creator_token), None).await?;
    let (b, _) = Client::hello(addr, &ended.code, Some(&ended.guest_token), None).await?;
    drop(b);
    a.recv_presence_until(|p| !p.seats[ended.guest].connected).await?;
    a.send(&ClientMsg::ClaimWin).await?;
    ensure!(a.recv_room().await?.forfeit_winner == Some(ended.creator), "the win");

    let seen = now_ms();
    sweep(&store, seen).await?;
    let kept = |code: &str| -> Result<bool> {
        Ok(store
            .mail()
            .context("mail")?
            .seat_address(code, StoredSeat::Creator)?
            .is_some())
    };
    sweep(&store, seen + KEEP_AFTER_GAME_OVER_MS - 1).await?;
    ensure!(kept(&ended.code)? && kept(&playing.code)?, "kept until the 7th day");
    let purged = sweep(&store, seen + KEEP_AFTER_GAME_OVER_MS).await?;
    ensure!(purged.after_game == 1, "{purged:?}");
    ensure!(!kept(&ended.code)?, "deleted 7 days after the game");
    ensure!(kept(&playing.code)?, "a game in play keeps its address");
    ensure!(
        settings(addr, &ended.code, &ended.creator_token)
            .await?
            .email_hint
            .is_none(),
        "the API says so too"
    );
    server.stop().await
}
