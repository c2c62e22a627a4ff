//! What every store must do with accounts, later in their life: an email address confirmed once
//! and in time, the sign-in mails' limit, a deleted account keeping its key and seats and nothing
//! personal, the purge as of the "now" it is given, and (PostgreSQL) two nodes doing at once what
//! must happen once. The first part is `accounts.rs`, whose helpers these use.

use anyhow::{Context, Result, ensure};
use evr_store::{AccountCreated, AccountStore, MailAllowed, PasskeyRemoved, StoredAccount, StoredSeat};

use crate::accounts::{DAY, HOUR, MINUTE, NOW, accounts, ceremony, create, id, new_account, passkey, session};
use crate::core::{Opened, stores};

#[tokio::test]
async fn an_email_address_is_confirmed_once_in_time_and_found_only_then() -> Result<()> {
    for Opened { name, store } in stores("accounts_email").await? {
        let a = accounts(store.as_ref())?;
        create(a, 1, "leia")?;
        create(a, 2, "han")?;
        a.set_email(&id(1), "leia@example.org", &[21; 32], NOW + DAY)?;
        let set = a.account(&id(1))?.context("account")?;
        ensure!(
            set.email.as_deref() == Some("leia@example.org") && !set.email_confirmed,
            "{name}: set, unconfirmed: {set:?}"
        );
        ensure!(
            a.account_by_email("leia@example.org")?.is_none(),
            "{name}: an unconfirmed address finds nobody"
        );
        ensure!(a.confirm_email(&[29; 32], NOW)?.is_none(), "{name}: a wrong secret");
        ensure!(a.confirm_email(&[21; 32], NOW + DAY + 1)?.is_none(), "{name}: expired");
        ensure!(
            !a.account(&id(1))?.context("account")?.email_confirmed,
            "{name}: still unconfirmed"
        );
        ensure!(
            a.confirm_email(&[21; 32], NOW + HOUR)? == Some(id(1)),
            "{name}: confirmed"
        );
        ensure!(a.confirm_email(&[21; 32], NOW + HOUR)?.is_none(), "{name}: once");
        ensure!(
            a.account_by_email("leia@example.org")?.map(|x| x.id) == Some(id(1)),
            "{name}: found by its confirmed address"
        );
        ensure!(
            a.account_by_email("han@example.org")?.is_none(),
            "{name}: no such address"
        );
        // a new address replaces it, unconfirmed: the old one finds nobody
        a.set_email(&id(1), "leia@rebellion.example", &[22; 32], NOW + DAY)?;
        let replaced = a.account(&id(1))?.context("account")?;
        ensure!(
            replaced.email.as_deref() == Some("leia@rebellion.example") && !replaced.email_confirmed,
            "{name}: replaced: {replaced:?}"
        );
        ensure!(
            a.account_by_email("leia@example.org")?.is_none(),
            "{name}: the replaced address finds nobody"
        );
        ensure!(
            a.confirm_email(&[22; 32], NOW)? == Some(id(1)),
            "{name}: the new one confirmed"
        );
        // a deleted account is found by no address
        a.set_email(&id(2), "han@example.org", &[23; 32], NOW + DAY)?;
        a.confirm_email(&[23; 32], NOW)?;
        ensure!(a.account_by_email("han@example.org")?.is_some(), "{name}: han's");
        a.delete_account(&id(2), NOW + HOUR)?;
        ensure!(
            a.account_by_email("han@example.org")?.is_none(),
            "{name}: a deleted account is not found"
        );
        store.close();
    }
    Ok(())
}

#[tokio::test]
async fn sign_in_mails_are_refused_past_the_limit_within_the_window() -> Result<()> {
    for Opened { name, store } in stores("accounts_mail_limit").await? {
        let a = accounts(store.as_ref())?;
        let (key, other) = ([31u8; 32], [32u8; 32]);
        for i in 0..3 {
            ensure!(
                a.count_sign_in_mail(&key, NOW + i * MINUTE, HOUR, 3)? == MailAllowed::Yes,
                "{name}: mail {i} counted"
            );
        }
        ensure!(
            a.count_sign_in_mail(&key, NOW + 10 * MINUTE, HOUR, 3)? == MailAllowed::AddressLimit,
            "{name}: the fourth in the hour refused"
        );
        ensure!(
            a.count_sign_in_mail(&other, NOW + 10 * MINUTE, HOUR, 3)? == MailAllowed::Yes,
            "{name}: another address has its own count"
        );
        // the refused one was not counted: once the first leaves the window, one more is allowed
        ensure!(
            a.count_sign_in_mail(&key, NOW + HOUR, HOUR, 3)? == MailAllowed::Yes,
            "{name}: the first left the window"
        );
        ensure!(
            a.count_sign_in_mail(&key, NOW + HOUR + 30_000, HOUR, 3)? == MailAllowed::AddressLimit,
            "{name}: full again"
        );
        // counted from several threads at once: exactly the limit passes
        let third = [33u8; 32];
        let allowed = std::thread::scope(|s| {
            let tries: Vec<_> = (0..8)
                .map(|_| s.spawn(|| a.count_sign_in_mail(&third, NOW, HOUR, 3)))
                .collect();
            let mut allowed = 0;
            for t in tries {
                let answer = t.join().map_err(|_| anyhow::anyhow!("a thread panicked"))??;
                allowed += usize::from(answer == MailAllowed::Yes);
            }
            Ok::<_, anyhow::Error>(allowed)
        })?;
        ensure!(allowed == 3, "{name}: {allowed} of 8 concurrent mails allowed, not 3");
        store.close();
    }
    Ok(())
}

#[tokio::test]
async fn a_deleted_account_keeps_its_key_and_seats_and_nothing_personal() -> Result<()> {
    for Opened { name, store } in stores("accounts_delete").await? {
        let a = accounts(store.as_ref())?;
        create(a, 1, "leia")?;
        create(a, 2, "han")?;
        a.add_passkey(&passkey(1, 3, NOW + MINUTE))?;
        a.create_session(&session(1, 11, NOW + MINUTE))?;
        a.set_email(&id(1), "leia@example.org", &[21; 32], NOW + DAY)?;
        a.confirm_email(&[21; 32], NOW)?;
        a.put_ceremony(&ceremony(5, Some(1), NOW + HOUR))?;
        a.put_ceremony(&ceremony(6, Some(2), NOW + HOUR))?;
        a.put_sign_in_link(&id(1), &[41; 32], NOW + HOUR)?;
        a.put_sign_in_link(&id(2), &[42; 32], NOW + HOUR)?;
        a.keep_seat(&id(1), "KJCHM97E", StoredSeat::Creator, NOW)?;
        a.keep_seat(&id(1), "MXR4T2QA", StoredSeat::Guest, NOW + MINUTE)?;
        a.keep_seat(&id(2), "KJCHM97E", StoredSeat::Guest, NOW)?;

        let seats = a.delete_account(&id(1), NOW + DAY)?;
        let codes: Vec<&str> = seats.iter().map(|s| s.code.as_str()).collect();
        ensure!(
            codes == ["MXR4T2QA", "KJCHM97E"],
            "{name}: its seats returned: {seats:?}"
        );
        let deleted = a.account(&id(1))?.context("the account's row stays")?;
        ensure!(
            deleted
                == StoredAccount {
                    id: id(1),
                    username: None,
                    created_at: NOW + 1,
                    deleted_at: Some(NOW + DAY),
                    email: None,
                    email_confirmed: false,
                },
            "{name}: erased: {deleted:?}"
        );
        ensure!(
            a.account_by_username_key("leia")?.map(|x| x.id) == Some(id(1)),
            "{name}: the key stays reserved"
        );
        ensure!(a.passkeys(&id(1))?.is_empty(), "{name}: passkeys gone");
        ensure!(a.passkey(&[1; 20])?.is_none(), "{name}: the first passkey gone");
        ensure!(a.sessions(&id(1))?.is_empty(), "{name}: sessions gone");
        ensure!(a.take_ceremony(&[5; 32], NOW)?.is_none(), "{name}: its ceremony gone");
        ensure!(a.use_sign_in_link(&[41; 32], NOW)?.is_none(), "{name}: its link gone");
        ensure!(a.account_seats(&id(1))? == seats, "{name}: the seats stay listed");
        ensure!(
            a.seat_account("KJCHM97E", StoredSeat::Creator)? == Some(id(1)),
            "{name}: the seat still is the deleted account's"
        );
        // the other account is untouched
        ensure!(
            a.account(&id(2))?.and_then(|x| x.username).as_deref() == Some("han-2")
                && a.passkeys(&id(2))?.len() == 1
                && a.sessions(&id(2))?.len() == 1
                && a.account_seats(&id(2))?.len() == 1,
            "{name}: han keeps everything"
        );
        ensure!(a.take_ceremony(&[6; 32], NOW)?.is_some(), "{name}: han's ceremony");
        ensure!(a.use_sign_in_link(&[42; 32], NOW)? == Some(id(2)), "{name}: han's link");
        store.close();
    }
    Ok(())
}

#[tokio::test]
async fn the_purge_deletes_what_expired_or_idled_as_of_its_now() -> Result<()> {
    for Opened { name, store } in stores("accounts_purge").await? {
        let a = accounts(store.as_ref())?;
        create(a, 1, "leia")?; // session 1: created NOW, expires NOW + 30 days
        let idle = 7 * DAY;
        // expired at once; idle (seen last at NOW + HOUR); seen recently
        let mut short = session(1, 11, NOW);
        short.expires_at = NOW + DAY;
        a.create_session(&short)?;
        a.create_session(&session(1, 12, NOW + HOUR))?;
        a.create_session(&session(1, 13, NOW))?;
        a.touch_session(&[13; 32], NOW + 9 * DAY)?;
        a.put_ceremony(&ceremony(5, None, NOW + 9 * DAY))?;
        a.put_ceremony(&ceremony(6, None, NOW + 11 * DAY))?;
        a.put_sign_in_link(&id(1), &[41; 32], NOW + 9 * DAY)?;
        a.put_sign_in_link(&id(1), &[42; 32], NOW + 11 * DAY)?;
        a.set_email(&id(1), "leia@example.org", &[21; 32], NOW + 9 * DAY)?;
        let key = [31u8; 32];
        a.count_sign_in_mail(&key, NOW + 8 * DAY, 2 * DAY, 2)?;
        a.count_sign_in_mail(&key, NOW + 9 * DAY + HOUR, 2 * DAY, 2)?;

        // at NOW + 10 days: 11 expired, 1 and 12 idle for 7 days, 13 seen a day ago
        let purged = a.purge_accounts(NOW + 10 * DAY, idle)?;
        ensure!(purged == 3, "{name}: three sessions purged, not {purged}");
        let left: Vec<Vec<u8>> = a.sessions(&id(1))?.into_iter().map(|s| s.id_hash).collect();
        ensure!(left == vec![vec![13; 32]], "{name}: the recent one stays: {left:?}");
        ensure!(
            a.take_ceremony(&[6; 32], NOW + 10 * DAY)?.is_some(),
            "{name}: the live ceremony stays"
        );
        ensure!(
            a.take_ceremony(&[5; 32], NOW)?.is_none(),
            "{name}: the expired ceremony was purged (found with an earlier now otherwise)"
        );
        ensure!(
            a.use_sign_in_link(&[41; 32], NOW)?.is_none(),
            "{name}: the expired link was purged"
        );
        ensure!(
            a.use_sign_in_link(&[42; 32], NOW + 10 * DAY)? == Some(id(1)),
            "{name}: the live link stays"
        );
        // the expired confirmation secret is gone (it confirms nothing even with an earlier now);
        // the address stays, unconfirmed
        ensure!(a.confirm_email(&[21; 32], NOW)?.is_none(), "{name}: secret purged");
        let account = a.account(&id(1))?.context("account")?;
        ensure!(
            account.email.as_deref() == Some("leia@example.org") && !account.email_confirmed,
            "{name}: the address stays unconfirmed: {account:?}"
        );
        // the mail counted more than a day before was dropped: with a 2-day window, only the
        // recent one counts now, so one more is allowed and then none
        ensure!(
            a.count_sign_in_mail(&key, NOW + 10 * DAY, 2 * DAY + HOUR, 2)? == MailAllowed::Yes,
            "{name}: the old count was purged"
        );
        ensure!(
            a.count_sign_in_mail(&key, NOW + 10 * DAY, 2 * DAY + HOUR, 2)? == MailAllowed::AddressLimit,
            "{name}: the recent one still counts"
        );
        store.close();
    }
    Ok(())
}

/// Runs `each(i, store)` on `n` threads at once, the stores taken in turn from `nodes`.
fn at_once<T: Send>(
    nodes: &[&dyn AccountStore],
    n: usize,
    each: impl Fn(usize, &dyn AccountStore) -> Result<T> + Sync,
) -> Result<Vec<T>> {
    std::thread::scope(|s| {
        let each = &each;
        let tries: Vec<_> = (0..n)
            .map(|i| {
                let node = nodes[i % nodes.len()];
                s.spawn(move || each(i, node))
            })
            .collect();
        tries
            .into_iter()
            .map(|t| t.join().map_err(|_| anyhow::anyhow!("a thread panicked"))?)
            .collect()
    })
}

/// Two nodes on one PostgreSQL (SQLite is one node's): whatever must happen once happens once
/// when both try at the same time.
#[tokio::test]
async fn two_nodes_on_one_postgres_do_once_what_must_happen_once() -> Result<()> {
    let url = match std::env::var("EVR_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => url,
        _ => {
            eprintln!("EVR_TEST_POSTGRES is not set: two PostgreSQL nodes are not tested here");
            return Ok(());
        }
    };
    let database = "contract_accounts_nodes";
    let first = crate::support::postgres::fresh_store(&url, database).await?;
    let second = crate::support::postgres::same_database(&url, database).await?;
    let nodes = [accounts(&first)?, accounts(&second)?];

    for round in 0..5u8 {
        // one username key asked for on both nodes at once: one account, the other refused
        let key = format!("rogue{round}");
        let created = at_once(&nodes, 2, |i, a| {
            let n = 10 + round * 2 + i as u8;
            Ok(a.create_account(&new_account(n, &key), &passkey(n, n, NOW), &session(n, n, NOW))?)
        })?;
        ensure!(
            created.contains(&AccountCreated::Created) && created.contains(&AccountCreated::UsernameTaken),
            "round {round}: one created, one refused: {created:?}"
        );
        let owner = nodes[0].account_by_username_key(&key)?.context("the account")?.id;

        // its last two passkeys removed on both nodes at once: one goes, the last stays
        nodes[0].add_passkey(&passkey(owner[0], 100 + round, NOW + MINUTE))?;
        let removed = at_once(&nodes, 2, |i, a| {
            let credential = if i == 0 {
                vec![owner[0]; 20]
            } else {
                vec![100 + round; 20]
            };
            Ok(a.remove_passkey(&owner, &credential)?)
        })?;
        ensure!(
            removed.contains(&PasskeyRemoved::Removed) && removed.contains(&PasskeyRemoved::LastWay),
            "round {round}: one removed, the last kept: {removed:?}"
        );
        ensure!(nodes[1].passkeys(&owner)?.len() == 1, "round {round}: one passkey left");

        // one ceremony and one sign-in link taken on both nodes at once: once each
        nodes[0].put_ceremony(&ceremony(200 + round, None, NOW + HOUR))?;
        nodes[1].put_sign_in_link(&owner, &[200 + round; 32], NOW + HOUR)?;
        let taken = at_once(&nodes, 6, |_, a| {
            Ok((
                a.take_ceremony(&[200 + round; 32], NOW)?.is_some(),
                a.use_sign_in_link(&[200 + round; 32], NOW)?.is_some(),
            ))
        })?;
        let ceremonies = taken.iter().filter(|t| t.0).count();
        let links = taken.iter().filter(|t| t.1).count();
        ensure!(
            ceremonies == 1 && links == 1,
            "round {round}: {ceremonies} ceremonies and {links} links taken"
        );

        // sign-in mails to one address counted on both nodes at once: exactly the limit passes
        let mail_key = [round; 32];
        let allowed = at_once(&nodes, 8, |_, a| Ok(a.count_sign_in_mail(&mail_key, NOW, HOUR, 3)?))?;
        let yes = allowed.iter().filter(|a| **a == MailAllowed::Yes).count();
        ensure!(yes == 3, "round {round}: {yes} of 8 mails allowed, not 3");
    }
    evr_store::Store::close(&first);
    evr_store::Store::close(&second);
    Ok(())
}
