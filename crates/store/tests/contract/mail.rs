//! What every store must do with the seats' email addresses (`MailStore`): an address is
//! unconfirmed until its link is used (not after it expired), the limits refuse a flood and change
//! nothing when they do, an unsubscribe link deletes its address once, a replaced address's links
//! are dead, and the purge deletes an address exactly 7 days after its game was seen over (and
//! unconfirmed ones whose link expired), as of the "now" it is given.

use anyhow::{Context, Result, ensure};
use evr_store::{
    KEEP_AFTER_GAME_OVER_MS, LIMIT_WINDOW_MS, MailLimits, MailLink, MailStore, NewAddress, Registered, StoredSeat,
};

use crate::core::{CODE, Opened, create_room, stores, write};

const NOW: i64 = 1_790_000_000_000;
const HOUR: i64 = 3_600_000;
const LIMITS: MailLimits = MailLimits {
    per_address: 3,
    addresses_per_room: 5,
};

/// Address `n` (its key `[n; 32]`) for `seat` of room `code`, its links' secrets hashing to
/// `[confirm; 32]` and `[confirm + 100; 32]`.
fn address(code: &str, seat: StoredSeat, n: u8, confirm: u8, now_ms: i64) -> NewAddress {
    NewAddress {
        code: code.into(),
        seat,
        email: format!("player{n}@example.org"),
        email_key: vec![n; 32],
        language: "en".into(),
        confirm_hash: vec![confirm; 32],
        unsubscribe_hash: vec![confirm.wrapping_add(100); 32],
        now_ms,
        confirm_expires_at: now_ms + 24 * HOUR,
    }
}

fn mail(store: &dyn evr_store::Store) -> Result<&dyn MailStore> {
    store.mail().context("this store keeps no addresses")
}

#[tokio::test]
async fn an_address_is_confirmed_only_by_its_link_in_time() -> Result<()> {
    for Opened { name, store } in stores("mail_confirm").await? {
        write(&store, create_room(CODE)).await?;
        let m = mail(store.as_ref())?;
        let first = address(CODE, StoredSeat::Creator, 1, 1, NOW);
        ensure!(
            m.register_address(&first, LIMITS)? == Registered::ConfirmationDue,
            "{name}: registered"
        );
        let stored = m.seat_address(CODE, StoredSeat::Creator)?.context("stored")?;
        ensure!(
            !stored.confirmed && stored.email == "player1@example.org",
            "{name}: {stored:?}"
        );
        ensure!(
            m.seat_address(CODE, StoredSeat::Guest)?.is_none(),
            "{name}: the other seat has none"
        );
        ensure!(
            m.confirm(&[9; 32], NOW)?.is_none(),
            "{name}: a wrong secret confirms nothing"
        );
        ensure!(
            m.confirm(&[1; 32], NOW + 24 * HOUR)?.is_none(),
            "{name}: an expired link confirms nothing"
        );
        ensure!(
            !m.seat_address(CODE, StoredSeat::Creator)?.context("kept")?.confirmed,
            "{name}: still unconfirmed"
        );
        let confirmed = m.confirm(&[1; 32], NOW + HOUR)?.context("confirmed")?;
        ensure!(
            confirmed.confirmed && confirmed.seat == StoredSeat::Creator,
            "{name}: {confirmed:?}"
        );
        // a second click on the link (or a click after it expired) finds it confirmed
        ensure!(
            m.confirm(&[1; 32], NOW + 48 * HOUR)?.is_some(),
            "{name}: confirmed stays confirmed"
        );
        // the same address again: kept confirmed, its language changed, nothing counted
        let mut again = address(CODE, StoredSeat::Creator, 1, 2, NOW + HOUR);
        again.language = "ja".into();
        ensure!(
            m.register_address(&again, LIMITS)? == Registered::AlreadyConfirmed,
            "{name}: already"
        );
        let stored = m.seat_address(CODE, StoredSeat::Creator)?.context("kept")?;
        ensure!(stored.confirmed && stored.language == "ja", "{name}: {stored:?}");
        // another address for the seat: unconfirmed again, and the old link no longer confirms
        let other = address(CODE, StoredSeat::Creator, 2, 3, NOW + HOUR);
        ensure!(
            m.register_address(&other, LIMITS)? == Registered::ConfirmationDue,
            "{name}: replaced"
        );
        ensure!(
            !m.seat_address(CODE, StoredSeat::Creator)?.context("kept")?.confirmed,
            "{name}: unconfirmed"
        );
        ensure!(
            m.confirm(&[1; 32], NOW + HOUR)?.is_none(),
            "{name}: the old link is dead"
        );
    }
    Ok(())
}

#[tokio::test]
async fn limits_refuse_a_flood_and_change_nothing() -> Result<()> {
    for Opened { name, store } in stores("mail_limits").await? {
        let m = mail(store.as_ref())?;
        let rooms = ["KJCHM97A", "KJCHM97B", "KJCHM97C", "KJCHM97D"];
        for code in rooms {
            write(&store, create_room(code)).await?;
        }
        // one address asked by four rooms: three confirmation mails a day
        for (i, code) in rooms.iter().enumerate() {
            let got = m.register_address(
                &address(code, StoredSeat::Guest, 7, 10 + i as u8, NOW + i as i64),
                LIMITS,
            )?;
            let want = if i < 3 {
                Registered::ConfirmationDue
            } else {
                Registered::AddressLimit
            };
            ensure!(got == want, "{name}: mail {i} to one address: {got:?}");
        }
        ensure!(
            m.seat_address(rooms[3], StoredSeat::Guest)?.is_none(),
            "{name}: a refused address is not stored"
        );
        // a day after the first, the first no longer counts
        let later = address(rooms[3], StoredSeat::Guest, 7, 20, NOW + LIMIT_WINDOW_MS + 1);
        ensure!(
            m.register_address(&later, LIMITS)? == Registered::ConfirmationDue,
            "{name}: a day later"
        );

        // one room asking for many addresses: five a day
        write(&store, create_room(CODE)).await?;
        for n in 0..6u8 {
            let got = m.register_address(
                &address(CODE, StoredSeat::Creator, 30 + n, 40 + n, NOW + i64::from(n)),
                LIMITS,
            )?;
            let want = if n < 5 {
                Registered::ConfirmationDue
            } else {
                Registered::RoomLimit
            };
            ensure!(got == want, "{name}: address {n} of one room: {got:?}");
        }
        let kept = m.seat_address(CODE, StoredSeat::Creator)?.context("kept")?;
        ensure!(
            kept.email == "player34@example.org",
            "{name}: the refused one replaced nothing: {kept:?}"
        );
        // an address the room asked for already is not a new one
        let again = address(CODE, StoredSeat::Creator, 30, 50, NOW + 10);
        ensure!(
            m.register_address(&again, LIMITS)? == Registered::ConfirmationDue,
            "{name}: not a sixth"
        );
    }
    Ok(())
}

#[tokio::test]
async fn an_unsubscribe_link_deletes_its_address_once() -> Result<()> {
    for Opened { name, store } in stores("mail_unsubscribe").await? {
        write(&store, create_room(CODE)).await?;
        let m = mail(store.as_ref())?;
        m.register_address(&address(CODE, StoredSeat::Creator, 1, 1, NOW), LIMITS)?;
        m.confirm(&[1; 32], NOW)?.context("confirmed")?;
        m.add_unsubscribe(CODE, StoredSeat::Creator, &[60; 32])?;
        let found = m
            .address_by_link(MailLink::Unsubscribe, &[60; 32])?
            .context("found by a mail's link")?;
        ensure!(found.seat == StoredSeat::Creator, "{name}: {found:?}");
        ensure!(
            m.address_by_link(MailLink::Confirm, &[1; 32])?.is_some(),
            "{name}: by its confirmation link"
        );
        ensure!(
            m.unsubscribe(&[99; 32])?.is_none(),
            "{name}: an unknown link deletes nothing"
        );
        ensure!(
            m.seat_address(CODE, StoredSeat::Creator)?.is_some(),
            "{name}: still there"
        );
        ensure!(
            m.unsubscribe(&[101; 32])?.is_some(),
            "{name}: the confirmation mail's link"
        );
        ensure!(m.seat_address(CODE, StoredSeat::Creator)?.is_none(), "{name}: deleted");
        ensure!(
            m.unsubscribe(&[60; 32])?.is_none(),
            "{name}: the other links went with it"
        );

        // a replaced address's links do not unsubscribe the new one
        m.register_address(&address(CODE, StoredSeat::Guest, 2, 2, NOW), LIMITS)?;
        m.register_address(&address(CODE, StoredSeat::Guest, 3, 3, NOW), LIMITS)?;
        ensure!(
            m.unsubscribe(&[102; 32])?.is_none(),
            "{name}: the old address's link is dead"
        );
        ensure!(
            m.seat_address(CODE, StoredSeat::Guest)?.is_some(),
            "{name}: the new one stays"
        );
        ensure!(m.forget(CODE, StoredSeat::Guest)?, "{name}: forgotten");
        ensure!(!m.forget(CODE, StoredSeat::Guest)?, "{name}: nothing left to forget");
        ensure!(m.unsubscribe(&[103; 32])?.is_none(), "{name}: its link went with it");
    }
    Ok(())
}

#[tokio::test]
async fn addresses_are_purged_seven_days_after_the_game() -> Result<()> {
    for Opened { name, store } in stores("mail_purge").await? {
        let m = mail(store.as_ref())?;
        let (over, playing, rematch) = ("KJCHM97A", "KJCHM97B", "KJCHM97C");
        for (i, code) in [over, playing, rematch].into_iter().enumerate() {
            write(&store, create_room(code)).await?;
            m.register_address(&address(code, StoredSeat::Creator, i as u8, i as u8, NOW), LIMITS)?;
            m.confirm(&[i as u8; 32], NOW)?.context("confirmed")?;
        }
        // never confirmed: gone when its link expires
        m.register_address(&address(playing, StoredSeat::Guest, 9, 9, NOW), LIMITS)?;
        let end = NOW + 5 * HOUR;
        m.set_over(over, true, end)?;
        m.set_over(rematch, true, end)?;
        // seen over again later: the first time counts
        m.set_over(over, true, end + HOUR)?;
        m.set_over(rematch, false, end + HOUR)?;
        let mut rooms = m.rooms_with_addresses()?;
        rooms.sort();
        ensure!(
            rooms
                == vec![
                    (over.to_string(), Some(end)),
                    (playing.to_string(), None),
                    (rematch.to_string(), None)
                ],
            "{name}: {rooms:?}"
        );
        let purged = m.purge(NOW + 2 * HOUR)?;
        ensure!(
            purged.after_game == 0 && purged.unconfirmed == 0,
            "{name}: nothing yet: {purged:?}"
        );
        let purged = m.purge(end + KEEP_AFTER_GAME_OVER_MS - 1)?;
        ensure!(
            purged.after_game == 0 && purged.unconfirmed == 1,
            "{name}: a moment early: {purged:?}"
        );
        ensure!(
            m.seat_address(over, StoredSeat::Creator)?.is_some(),
            "{name}: kept until the 7th day"
        );
        ensure!(
            m.seat_address(playing, StoredSeat::Guest)?.is_none(),
            "{name}: the unconfirmed one went"
        );
        let purged = m.purge(end + KEEP_AFTER_GAME_OVER_MS)?;
        ensure!(purged.after_game == 1, "{name}: 7 days after: {purged:?}");
        ensure!(m.seat_address(over, StoredSeat::Creator)?.is_none(), "{name}: deleted");
        ensure!(
            m.seat_address(playing, StoredSeat::Creator)?.is_some(),
            "{name}: a game in play keeps it"
        );
        ensure!(
            m.seat_address(rematch, StoredSeat::Creator)?.is_some(),
            "{name}: a rematch keeps it"
        );
    }
    Ok(())
}
