//! A seat's devices: a player lists the devices their seat is played on and signs the others out.
//! A signed-out device's token stops working at once and for good — its open connection is closed
//! with `bad_token`, its requests are refused, after a restart too — and the seat's unused link to
//! another device goes with it; the other seat is untouched.

use anyhow::{Result, anyhow, ensure};
use evr_protocol::{ErrorCode, Role, SeatDevice};
use evr_rules::Mode;

use crate::support::{self, Client, seats};

/// A device that was given the seat with a link from `token`'s device: its own token.
async fn move_seat(addr: std::net::SocketAddr, code: &str, token: &str) -> Result<String> {
    let link = seats::transfer(addr, code, Some(token))
        .await?
        .map_err(|e| anyhow!("a link: {e:?}"))?;
    let taken = seats::take(addr, code, &seats::transfer_secret(&link))
        .await?
        .map_err(|e| anyhow!("the link seats the device: {e:?}"))?;
    Ok(taken.token)
}

/// The refusal a connection saying hello with `token` gets.
async fn hello_refused(addr: std::net::SocketAddr, code: &str, token: &str) -> Result<ErrorCode> {
    let mut c = Client::connect(addr, code).await?;
    c.send(&support::hello(Some(token), None)).await?;
    c.recv_error().await
}

#[tokio::test]
async fn a_seat_signs_its_other_devices_out_and_their_tokens_stop_working() -> Result<()> {
    let dir = support::temp_dir("devices");
    let server = support::start_with(evr_server::Config::for_tests(dir.clone())).await?;
    let addr = server.addr;
    let s = support::create_and_join(addr, Mode::Full).await?;
    let laptop = s.creator_token.clone();
    let phone = move_seat(addr, &s.code, &laptop).await?;
    let tablet = move_seat(addr, &s.code, &laptop).await?;
    let guest_phone = move_seat(addr, &s.code, &s.guest_token).await?;

    // the list, asked from the phone while the laptop and the tablet are connected
    let (mut on_laptop, _) = Client::hello(addr, &s.code, Some(&laptop), None).await?;
    let (mut on_tablet, _) = Client::hello(addr, &s.code, Some(&tablet), None).await?;
    let (mut guest, _) = Client::hello(addr, &s.code, Some(&s.guest_token), None).await?;
    seats::transfer(addr, &s.code, Some(&laptop))
        .await?
        .map_err(|e| anyhow!("a link not used: {e:?}"))?;
    let listed = seats::devices(addr, &s.code, Some(&phone))
        .await?
        .map_err(|e| anyhow!("the phone's list: {e:?}"))?;
    let shape: Vec<(bool, bool, bool)> = listed
        .devices
        .iter()
        .map(|d| (d.this_device, d.added_at.is_some(), d.connected))
        .collect();
    assert_eq!(
        shape,
        vec![(false, false, true), (true, true, false), (false, true, true)],
        "the laptop (first, connected), the phone (this one), the tablet (connected): {listed:?}"
    );
    assert!(listed.link_expires_at.is_some(), "the unused link is listed");
    // only a seat's token lists a seat's devices
    for token in [None, Some("0123456789abcdef0123456789abcdef"), Some(s.code.as_str())] {
        let refused = seats::devices(addr, &s.code, token).await?;
        assert_eq!(
            refused.err().map(|(s, e)| (s, e.code)),
            Some((403, ErrorCode::BadToken))
        );
        let refused = seats::sign_out_others(addr, &s.code, token).await?;
        assert_eq!(
            refused.err().map(|(s, e)| (s, e.code)),
            Some((403, ErrorCode::BadToken))
        );
    }

    // the phone signs the others out: the laptop's and the tablet's connections are told and closed
    let out = seats::sign_out_others(addr, &s.code, Some(&phone))
        .await?
        .map_err(|e| anyhow!("sign out: {e:?}"))?;
    assert_eq!(out.devices, 2);
    for (name, c) in [("laptop", &mut on_laptop), ("tablet", &mut on_tablet)] {
        assert_eq!(c.recv_error().await?, ErrorCode::BadToken, "the {name} is told");
        assert!(c.is_closed().await, "the {name}'s connection is closed");
    }
    let listed = seats::devices(addr, &s.code, Some(&phone))
        .await?
        .map_err(|e| anyhow!("{e:?}"))?;
    assert_eq!(
        listed.devices,
        vec![SeatDevice {
            this_device: true,
            added_at: None,
            connected: false
        }],
        "the phone alone, holding the seat's token now"
    );
    assert_eq!(listed.link_expires_at, None, "the unused link is gone");
    ensure!(!guest.is_closed().await, "the guest's connection stays open");

    // the signed-out tokens do nothing any more, before and after a restart; the phone plays on
    let check = |addr| {
        let (code, laptop, tablet, phone) = (s.code.clone(), laptop.clone(), tablet.clone(), phone.clone());
        let (guest_token, guest_phone) = (s.guest_token.clone(), guest_phone.clone());
        async move {
            for token in [&laptop, &tablet] {
                assert_eq!(hello_refused(addr, &code, token).await?, ErrorCode::BadToken);
                let refused = seats::transfer(addr, &code, Some(token)).await?;
                assert_eq!(refused.err().map(|(_, e)| e.code), Some(ErrorCode::BadToken));
                let refused = seats::summary(addr, &code, Some(token)).await?;
                assert!(refused.is_err(), "a signed-out token has no seat summary");
                let refused = seats::sign_out_others(addr, &code, Some(token)).await?;
                assert_eq!(refused.err().map(|(_, e)| e.code), Some(ErrorCode::BadToken));
            }
            for (token, seat) in [(&phone, s.creator), (&guest_token, s.guest), (&guest_phone, s.guest)] {
                let (_c, w) = Client::hello(addr, &code, Some(token), None).await?;
                assert_eq!(w.you, Role::Seat(seat));
            }
            anyhow::Ok(())
        }
    };
    check(addr).await?;
    drop((on_laptop, on_tablet, guest));
    server.stop().await?;
    let server = support::start_with(evr_server::Config::for_tests(dir)).await?;
    check(server.addr).await?;
    server.stop().await
}

#[tokio::test]
async fn the_link_made_before_the_others_were_signed_out_seats_nobody() -> Result<()> {
    let server = support::start("devices-link").await?;
    let addr = server.addr;
    let s = support::create_and_join(addr, Mode::Full).await?;
    // a leaked token makes a link, then the owner signs every other device out
    let leaked = move_seat(addr, &s.code, &s.creator_token).await?;
    let link = seats::transfer(addr, &s.code, Some(&leaked))
        .await?
        .map_err(|e| anyhow!("{e:?}"))?;
    seats::sign_out_others(addr, &s.code, Some(&s.creator_token))
        .await?
        .map_err(|e| anyhow!("{e:?}"))?;
    let taken = seats::take(addr, &s.code, &seats::transfer_secret(&link)).await?;
    assert_eq!(
        taken.err().map(|(s, e)| (s, e.code)),
        Some((410, ErrorCode::TransferLinkInvalid))
    );
    // the seat's first device signing out the others keeps its token
    let (_c, w) = Client::hello(addr, &s.code, Some(&s.creator_token), None).await?;
    assert_eq!(w.you, Role::Seat(s.creator));
    server.stop().await
}
