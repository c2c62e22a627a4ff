//! What every store must do with accounts (`AccountStore`): values load back as written; an
//! account is created with its passkey and session or not at all (a username key taken — also by
//! a deleted account — or a credential id registered); ceremonies, sign-in links and email
//! confirmations work once and not after they expired; sessions of one account only; the last way
//! to sign in is kept; a seat is kept by one account; the sign-in mails' limit; a deleted account
//! keeps its key and its seats and nothing personal; the purge, as of the "now" it is given.

use anyhow::{Context, Result, ensure};
use evr_store::{
    AccountCreated, AccountId, AccountSeat, AccountStore, NewAccount, PasskeyRemoved, SeatKept, StoredAccount,
    StoredCeremony, StoredPasskey, StoredSeat, StoredSession,
};

use crate::core::{Opened, stores};

pub(crate) const NOW: i64 = 1_790_000_000_000;
pub(crate) const MINUTE: i64 = 60_000;
pub(crate) const HOUR: i64 = 60 * MINUTE;
pub(crate) const DAY: i64 = 24 * HOUR;

pub(crate) fn accounts(store: &dyn evr_store::Store) -> Result<&dyn AccountStore> {
    store.accounts().context("this store keeps no accounts")
}

pub(crate) fn id(n: u8) -> AccountId {
    [n; 16]
}

pub(crate) fn new_account(n: u8, key: &str) -> NewAccount {
    NewAccount {
        id: id(n),
        username: format!("{key}-{n}"),
        username_key: key.into(),
        created_at: NOW + i64::from(n),
    }
}

pub(crate) fn passkey(account: u8, credential: u8, created_at: i64) -> StoredPasskey {
    StoredPasskey {
        credential_id: vec![credential; 20],
        account: id(account),
        passkey: format!("{{\"cred\":{credential},\"counter\":0}}"),
        label: format!("Firefox on Linux {credential}"),
        created_at,
        last_used_at: None,
    }
}

pub(crate) fn session(account: u8, n: u8, created_at: i64) -> StoredSession {
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
pub(crate) fn create(a: &dyn AccountStore, n: u8, key: &str) -> Result<AccountCreated> {
    Ok(a.create_account(&new_account(n, key), &passkey(n, n, NOW), &session(n, n, NOW))?)
}

pub(crate) fn ceremony(n: u8, account: Option<u8>, expires_at: i64) -> StoredCeremony {
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
