//! What every store must do with accounts (`AccountStore`): values load back as written; an
//! account is created with its passkey and session or not at all (a username key taken — also by
//! a deleted account — or a credential id registered); ceremonies, sign-in links and email
//! confirmations work once and not after they expired; sessions of one account only; the last way
//! to sign in is kept; a seat is kept by one account; the sign-in mails' limit; a deleted account
//! keeps its key and its seats and nothing personal; the purge, as of the "now" it is given.

use anyhow::{Context, Result, ensure};
use evr_store::{
    AccountCreated, AccountId, AccountSeat, AccountStore, MailAllowed, NewAccount, PasskeyRemoved, SeatKept,
    StoredAccount, StoredCeremony, StoredPasskey, StoredSeat, StoredSession,
};

use crate::core::{Opened, stores};

const NOW: i64 = 1_790_000_000_000;
const MINUTE: i64 = 60_000;
const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;

fn accounts(store: &dyn evr_store::Store) -> Result<&dyn AccountStore> {
    store.accounts().context("this store keeps no accounts")
}

fn id(n: u8) -> AccountId {
    [n; 16]
}

fn new_account(n: u8, key: &str) -> NewAccount {
    NewAccount {
        id: id(n),
        username: format!("{key}-{n}"),
        username_key: key.into(),
        created_at: NOW + i64::from(n),
    }
}

fn passkey(account: u8, credential: u8, created_at: i64) -> StoredPasskey {
    StoredPasskey {
        credential_id: vec![credential; 20],
        account: id(account),
        passkey: format!("{{\"cred\":{credential},\"counter\":0}}"),
        label: format!("Firefox on Linux {credential}"),
        created_at,
        last_used_at: None,
    }
}

fn session(account: u8, n: u8, created_at: i64) -> StoredSession {
    StoredSession {
        id_hash: vec![n; 32],
        account: id(account),
        label: format!("device {n}"),
        created_at,
        last_seen_at: created_at,
        expires_at: created_at + 30 * DAY,
    }
}

/// Account `n` with username key `key`, its passkey `n` and its session `n`.
fn create(a: &dyn AccountStore, n: u8, key: &str) -> Result<AccountCreated> {
    Ok(a.create_account(&new_account(n, key), &passkey(n, n, NOW), &session(n, n, NOW))?)
}

fn ceremony(n: u8, account: Option<u8>, expires_at: i64) -> StoredCeremony {
    StoredCeremony {
        id_hash: vec![n; 32],
        kind: if account.is_some() { "add_passkey" } else { "register" }.into(),
        account: account.map(id),
        username: account.is_none().then(|| "luke".to_string()),
        state: format!("{{\"challenge\":{n}}}"),
        expires_at,
    }
}

#[tokio::test]
async fn an_account_its_passkeys_and_sessions_load_back_as_written() -> Result<()> {
    for Opened { name, store } in stores("accounts_values").await? {
        let a = accounts(store.as_ref())?;
        ensure!(a.account(&id(1))?.is_none(), "{name}: no account yet");
        ensure!(create(a, 1, "leia")? == AccountCreated::Created, "{name}: created");
        let expected = StoredAccount {
            id: id(1),
            username: Some("leia-1".into()),
            created_at: NOW + 1,
            deleted_at: None,
            email: None,
            email_confirmed: false,
        };
        ensure!(a.account(&id(1))?.as_ref() == Some(&expected), "{name}: by id");
        ensure!(
            a.account_by_username_key("leia")?.as_ref() == Some(&expected),
            "{name}: by key"
        );
        ensure!(a.account_by_username_key("luke")?.is_none(), "{name}: no other key");
        ensure!(
            a.passkey(&[1; 20])?.as_ref() == Some(&passkey(1, 1, NOW)),
            "{name}: the first passkey"
        );
        ensure!(a.passkey(&[9; 20])?.is_none(), "{name}: no such passkey");
        ensure!(
            a.session(&[1; 32])? == Some(session(1, 1, NOW)),
            "{name}: the first session"
        );
        ensure!(a.session(&[9; 32])?.is_none(), "{name}: no such session");

        // a second passkey, oldest first; a sign-in updates its state and when it was used
        ensure!(a.add_passkey(&passkey(1, 2, NOW + MINUTE))?, "{name}: added");
        a.passkey_used(&[2; 20], "{\"counter\":7}", NOW + HOUR)?;
        let keys = a.passkeys(&id(1))?;
        let mut used = passkey(1, 2, NOW + MINUTE);
        used.passkey = "{\"counter\":7}".into();
        used.last_used_at = Some(NOW + HOUR);
        ensure!(
            keys == vec![passkey(1, 1, NOW), used],
            "{name}: passkeys oldest first: {keys:?}"
        );
        ensure!(a.passkeys(&id(2))?.is_empty(), "{name}: another account has none");

        // a touched session
        a.touch_session(&[1; 32], NOW + 2 * HOUR)?;
        let touched = a.session(&[1; 32])?.context("session")?;
        ensure!(
            touched.last_seen_at == NOW + 2 * HOUR && touched.expires_at == NOW + 30 * DAY,
            "{name}: touched: {touched:?}"
        );
        store.close();
    }
    Ok(())
}

#[tokio::test]
async fn a_taken_username_key_or_credential_id_refuses_the_account_and_writes_nothing() -> Result<()> {
    for Opened { name, store } in stores("accounts_taken").await? {
        let a = accounts(store.as_ref())?;
        ensure!(create(a, 1, "leia")? == AccountCreated::Created, "{name}: the first");
        // the same key, another id, passkey and session: refused, none of the three written
        ensure!(
            create(a, 2, "leia")? == AccountCreated::UsernameTaken,
            "{name}: the key is taken"
        );
        ensure!(
            a.account(&id(2))?.is_none() && a.passkey(&[2; 20])?.is_none() && a.session(&[2; 32])?.is_none(),
            "{name}: nothing of the refused account was written"
        );
        // a new key with a registered credential id: refused, nothing written
        let refused = a.create_account(&new_account(3, "han"), &passkey(3, 1, NOW), &session(3, 3, NOW))?;
        ensure!(refused == AccountCreated::PasskeyTaken, "{name}: the passkey is taken");
        ensure!(
            a.account(&id(3))?.is_none()
                && a.account_by_username_key("han")?.is_none()
                && a.session(&[3; 32])?.is_none(),
            "{name}: nothing of the second refused account was written"
        );
        ensure!(
            a.passkey(&[1; 20])?.map(|p| p.account) == Some(id(1)),
            "{name}: the passkey is still the first account's"
        );
        // adding a registered credential id to an account: refused
        ensure!(!a.add_passkey(&passkey(3, 1, NOW))?, "{name}: add_passkey refused");
        // a deleted account's key stays taken
        ensure!(create(a, 4, "lando")? == AccountCreated::Created, "{name}: lando");
        a.delete_account(&id(4), NOW + DAY)?;
        ensure!(
            create(a, 5, "lando")? == AccountCreated::UsernameTaken,
            "{name}: a deleted account's key is taken"
        );
        ensure!(a.account(&id(5))?.is_none(), "{name}: nothing written");
        // the key freed from the refused attempts can be used
        ensure!(create(a, 3, "han")? == AccountCreated::Created, "{name}: han");
        store.close();
    }
    Ok(())
}

#[tokio::test]
async fn a_ceremony_and_a_sign_in_link_work_once_and_not_once_expired() -> Result<()> {
    for Opened { name, store } in stores("accounts_once").await? {
        let a = accounts(store.as_ref())?;
        create(a, 1, "leia")?;
        a.put_ceremony(&ceremony(1, None, NOW + 5 * MINUTE))?;
        a.put_ceremony(&ceremony(2, Some(1), NOW + 5 * MINUTE))?;
        a.put_ceremony(&ceremony(3, None, NOW + MINUTE))?;
        ensure!(
            a.take_ceremony(&[1; 32], NOW)? == Some(ceremony(1, None, NOW + 5 * MINUTE)),
            "{name}: the register ceremony"
        );
        ensure!(a.take_ceremony(&[1; 32], NOW)?.is_none(), "{name}: taken once");
        ensure!(
            a.take_ceremony(&[2; 32], NOW)? == Some(ceremony(2, Some(1), NOW + 5 * MINUTE)),
            "{name}: the add_passkey ceremony, with its account"
        );
        ensure!(
            a.take_ceremony(&[3; 32], NOW + 2 * MINUTE)?.is_none(),
            "{name}: expired"
        );
        ensure!(
            a.take_ceremony(&[3; 32], NOW)?.is_none(),
            "{name}: an expired ceremony is deleted when tried"
        );
        ensure!(a.take_ceremony(&[9; 32], NOW)?.is_none(), "{name}: no such ceremony");

        a.put_sign_in_link(&id(1), &[11; 32], NOW + 15 * MINUTE)?;
        a.put_sign_in_link(&id(1), &[12; 32], NOW + MINUTE)?;
        ensure!(
            a.use_sign_in_link(&[11; 32], NOW)? == Some(id(1)),
            "{name}: the link signs in"
        );
        ensure!(a.use_sign_in_link(&[11; 32], NOW)?.is_none(), "{name}: once");
        ensure!(
            a.use_sign_in_link(&[12; 32], NOW + 2 * MINUTE)?.is_none(),
            "{name}: expired"
        );
        ensure!(
            a.use_sign_in_link(&[12; 32], NOW)?.is_none(),
            "{name}: an expired link is deleted when tried"
        );
        ensure!(a.use_sign_in_link(&[13; 32], NOW)?.is_none(), "{name}: no such link");

        // taken from several threads at once: exactly one gets it
        a.put_sign_in_link(&id(1), &[14; 32], NOW + 15 * MINUTE)?;
        a.put_ceremony(&ceremony(4, None, NOW + 5 * MINUTE))?;
        let (links, ceremonies) = std::thread::scope(|s| {
            let tries: Vec<_> = (0..6)
                .map(|_| {
                    s.spawn(|| {
                        (
                            a.use_sign_in_link(&[14; 32], NOW).map(|l| l.is_some()),
                            a.take_ceremony(&[4; 32], NOW).map(|c| c.is_some()),
                        )
                    })
                })
                .collect();
            let mut got = (0, 0);
            for t in tries {
                let (link, ceremony) = t.join().map_err(|_| anyhow::anyhow!("a thread panicked"))?;
                got.0 += usize::from(link?);
                got.1 += usize::from(ceremony?);
            }
            Ok::<_, anyhow::Error>(got)
        })?;
        ensure!(
            links == 1 && ceremonies == 1,
            "{name}: used once: {links} links, {ceremonies} ceremonies"
        );
        store.close();
    }
    Ok(())
}

#[tokio::test]
async fn sessions_are_listed_newest_first_and_deleted_only_for_their_account() -> Result<()> {
    for Opened { name, store } in stores("accounts_sessions").await? {
        let a = accounts(store.as_ref())?;
        create(a, 1, "leia")?;
        create(a, 2, "han")?;
        a.create_session(&session(1, 11, NOW + HOUR))?;
        a.create_session(&session(1, 12, NOW + 2 * HOUR))?;
        let listed: Vec<Vec<u8>> = a.sessions(&id(1))?.into_iter().map(|s| s.id_hash).collect();
        ensure!(
            listed == vec![vec![12; 32], vec![11; 32], vec![1; 32]],
            "{name}: newest first: {listed:?}"
        );
        ensure!(
            !a.delete_session(&id(2), &[11; 32])?,
            "{name}: another account cannot delete it"
        );
        ensure!(a.session(&[11; 32])?.is_some(), "{name}: still there");
        ensure!(a.delete_session(&id(1), &[11; 32])?, "{name}: its account deletes it");
        ensure!(!a.delete_session(&id(1), &[11; 32])?, "{name}: gone");
        ensure!(a.session(&[11; 32])?.is_none(), "{name}: deleted");
        // sign out everywhere else: the kept one and the other account's stay
        ensure!(a.delete_other_sessions(&id(1), &[12; 32])? == 1, "{name}: one other");
        let left: Vec<Vec<u8>> = a.sessions(&id(1))?.into_iter().map(|s| s.id_hash).collect();
        ensure!(left == vec![vec![12; 32]], "{name}: the kept one: {left:?}");
        ensure!(a.sessions(&id(2))?.len() == 1, "{name}: the other account's stays");
        store.close();
    }
    Ok(())
}

#[tokio::test]
async fn the_last_way_to_sign_in_is_kept() -> Result<()> {
    for Opened { name, store } in stores("accounts_last_way").await? {
        let a = accounts(store.as_ref())?;
        create(a, 1, "leia")?;
        create(a, 2, "han")?;
        ensure!(
            a.remove_passkey(&id(1), &[1; 20])? == PasskeyRemoved::LastWay,
            "{name}: the only passkey, no email"
        );
        ensure!(a.passkey(&[1; 20])?.is_some(), "{name}: kept");
        ensure!(
            a.remove_passkey(&id(2), &[1; 20])? == PasskeyRemoved::NoSuch,
            "{name}: another account's passkey"
        );
        ensure!(a.passkey(&[1; 20])?.is_some(), "{name}: still kept");
        ensure!(
            a.remove_passkey(&id(1), &[9; 20])? == PasskeyRemoved::NoSuch,
            "{name}: no such passkey"
        );
        a.add_passkey(&passkey(1, 3, NOW + MINUTE))?;
        ensure!(
            a.remove_passkey(&id(1), &[1; 20])? == PasskeyRemoved::Removed,
            "{name}: one of two"
        );
        ensure!(
            a.remove_passkey(&id(1), &[3; 20])? == PasskeyRemoved::LastWay,
            "{name}: now the last"
        );
        // an unconfirmed address is no way to sign in; a confirmed one is
        a.set_email(&id(1), "leia@example.org", &[21; 32], NOW + DAY)?;
        ensure!(
            a.remove_passkey(&id(1), &[3; 20])? == PasskeyRemoved::LastWay,
            "{name}: the address is not confirmed"
        );
        ensure!(a.confirm_email(&[21; 32], NOW)? == Some(id(1)), "{name}: confirmed");
        ensure!(
            a.remove_passkey(&id(1), &[3; 20])? == PasskeyRemoved::Removed,
            "{name}: with a confirmed address the last passkey may go"
        );
        ensure!(a.passkeys(&id(1))?.is_empty(), "{name}: none left");
        store.close();
    }
    Ok(())
}

#[tokio::test]
async fn a_seat_is_kept_by_one_account() -> Result<()> {
    for Opened { name, store } in stores("accounts_seats").await? {
        let a = accounts(store.as_ref())?;
        create(a, 1, "leia")?;
        create(a, 2, "han")?;
        ensure!(
            a.keep_seat(&id(1), "KJCHM97E", StoredSeat::Creator, NOW)? == SeatKept::Kept,
            "{name}: kept"
        );
        ensure!(
            a.keep_seat(&id(1), "KJCHM97E", StoredSeat::Creator, NOW + HOUR)? == SeatKept::Already,
            "{name}: already"
        );
        ensure!(
            a.keep_seat(&id(2), "KJCHM97E", StoredSeat::Creator, NOW + HOUR)? == SeatKept::OtherAccount,
            "{name}: another account's"
        );
        ensure!(
            a.keep_seat(&id(2), "KJCHM97E", StoredSeat::Guest, NOW + MINUTE)? == SeatKept::Kept,
            "{name}: the other seat"
        );
        ensure!(
            a.keep_seat(&id(1), "MXR4T2QA", StoredSeat::Guest, NOW + 2 * MINUTE)? == SeatKept::Kept,
            "{name}: a seat of another room"
        );
        ensure!(
            a.seat_account("KJCHM97E", StoredSeat::Creator)? == Some(id(1))
                && a.seat_account("KJCHM97E", StoredSeat::Guest)? == Some(id(2))
                && a.seat_account("MXR4T2QA", StoredSeat::Creator)?.is_none(),
            "{name}: each seat's account"
        );
        let seats = a.account_seats(&id(1))?;
        ensure!(
            seats
                == vec![
                    AccountSeat {
                        code: "MXR4T2QA".into(),
                        seat: StoredSeat::Guest,
                        added_at: NOW + 2 * MINUTE
                    },
                    AccountSeat {
                        code: "KJCHM97E".into(),
                        seat: StoredSeat::Creator,
                        added_at: NOW
                    },
                ],
            "{name}: newest first, the first keeping time: {seats:?}"
        );
        store.close();
    }
    Ok(())
}

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
