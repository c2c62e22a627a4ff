//! What every `Store` must do with seats (`store_contract.rs` holds the rest, and the helpers): a
//! room's join code, the count of wrong codes and the names load back as written; a new invite
//! replaces the secrets and starts the count again; a seat's transfer link replaces its older one
//! and is used up by the write that seats a device, once; a seat kept on one device drops its other
//! devices and its link, and no other seat's; a seat's chat message keeps its name; and every one of
//! these writes under an old claim is fenced and changes nothing.

use anyhow::{Result, ensure};
use evr_store::StoredChat;
use evr_store::{FIRST_EPOCH, StoreError, StoredDevice, StoredSeat, StoredTransfer, WriteOp};

use crate::core::{CODE, Opened, chat_message, load, room_with_actions, stores, write};

fn transfer(seat: StoredSeat, secret: u8, expires_at: i64) -> WriteOp {
    WriteOp::IssueTransfer {
        code: CODE.into(),
        seat,
        secret_hash: vec![secret; 32],
        expires_at,
    }
}

fn keep(seat: StoredSeat, token: u8) -> WriteOp {
    WriteOp::KeepOneDevice {
        code: CODE.into(),
        seat,
        token_hash: vec![token; 32],
    }
}

fn take(seat: StoredSeat, secret: u8, token: u8) -> WriteOp {
    WriteOp::TakeSeat {
        code: CODE.into(),
        seat,
        secret_hash: vec![secret; 32],
        token_hash: vec![token; 32],
        added_at: 1_790_000_500,
    }
}

#[tokio::test]
async fn join_codes_names_and_invites_load_back_as_written() -> Result<()> {
    for Opened { name, store } in stores("seats_invite").await? {
        room_with_actions(&store, CODE, 1).await?;
        let room = load(&store, CODE)?;
        ensure!(
            room.join_code_hash == Some(vec![4; 32]) && room.join_failures == 0,
            "{name}: the join code as created"
        );
        ensure!(
            room.creator_name.as_deref() == Some("Ana") && room.guest_name.is_none(),
            "{name}: the creator's name"
        );
        for _ in 0..3 {
            write(&store, WriteOp::WrongJoinCode { code: CODE.into() }).await?;
        }
        ensure!(load(&store, CODE)?.join_failures == 3, "{name}: wrong codes counted");
        write(
            &store,
            WriteOp::NewInvite {
                code: CODE.into(),
                invite_hash: vec![5; 32],
                join_code_hash: vec![6; 32],
            },
        )
        .await?;
        let room = load(&store, CODE)?;
        ensure!(
            room.invite_hash == vec![5; 32] && room.join_code_hash == Some(vec![6; 32]) && room.join_failures == 0,
            "{name}: a new invite replaces both secrets and starts the count again"
        );
        write(
            &store,
            WriteOp::SetGuest {
                code: CODE.into(),
                guest_hash: vec![3; 32],
                guest_name: Some("<b>Ben</b>".into()),
            },
        )
        .await?;
        write(
            &store,
            WriteOp::SetName {
                code: CODE.into(),
                seat: StoredSeat::Creator,
                name: None,
            },
        )
        .await?;
        let room = load(&store, CODE)?;
        ensure!(
            room.creator_name.is_none() && room.guest_name.as_deref() == Some("<b>Ben</b>"),
            "{name}: a name cleared, a name kept as the text it is"
        );
        let mut said = chat_message(1);
        said.name = Some("Ben".into());
        write(
            &store,
            WriteOp::Chat {
                code: CODE.into(),
                chat: StoredChat {
                    game_no: 1,
                    message: said.clone(),
                },
            },
        )
        .await?;
        ensure!(
            load(&store, CODE)?.chat
                == vec![StoredChat {
                    game_no: 1,
                    message: said
                }],
            "{name}: a seat's chat message keeps its writer's name"
        );
        store.close();
    }
    Ok(())
}

#[tokio::test]
async fn a_transfer_link_is_replaced_by_a_newer_one_and_seats_one_device_once() -> Result<()> {
    for Opened { name, store } in stores("seats_transfer").await? {
        room_with_actions(&store, CODE, 1).await?;
        write(&store, transfer(StoredSeat::Creator, 7, 1_000)).await?;
        write(&store, transfer(StoredSeat::Creator, 8, 2_000)).await?;
        write(&store, transfer(StoredSeat::Guest, 9, 3_000)).await?;
        let room = load(&store, CODE)?;
        let mut links = room.transfers.clone();
        links.sort_by_key(|t| t.expires_at);
        ensure!(
            links
                == vec![
                    StoredTransfer {
                        seat: StoredSeat::Creator,
                        secret_hash: vec![8; 32],
                        expires_at: 2_000
                    },
                    StoredTransfer {
                        seat: StoredSeat::Guest,
                        secret_hash: vec![9; 32],
                        expires_at: 3_000
                    },
                ],
            "{name}: one link per seat, the newest: {links:?}"
        );
        // the replaced link seats nobody; the live one seats one device, once
        let replaced = store.submit(FIRST_EPOCH, take(StoredSeat::Creator, 7, 20)).await?;
        ensure!(
            matches!(replaced, Err(StoreError::Fenced)),
            "{name}: a replaced link is refused"
        );
        write(&store, take(StoredSeat::Creator, 8, 21)).await?;
        let again = store.submit(FIRST_EPOCH, take(StoredSeat::Creator, 8, 22)).await?;
        ensure!(
            matches!(again, Err(StoreError::Fenced)),
            "{name}: a used link is refused"
        );
        let room = load(&store, CODE)?;
        ensure!(
            room.devices
                == vec![StoredDevice {
                    seat: StoredSeat::Creator,
                    token_hash: vec![21; 32],
                    added_at: 1_790_000_500,
                }],
            "{name}: exactly one device: {:?}",
            room.devices
        );
        ensure!(
            room.transfers.len() == 1 && room.transfers[0].seat == StoredSeat::Guest,
            "{name}: the used link is gone, the other seat's stays"
        );
        store.close();
    }
    Ok(())
}

#[tokio::test]
async fn a_seat_kept_on_one_device_drops_its_other_devices_and_its_link() -> Result<()> {
    for Opened { name, store } in stores("seats_keep_one").await? {
        room_with_actions(&store, CODE, 1).await?;
        let guest_before = load(&store, CODE)?.guest_hash;
        // the creator's seat on two more devices and a link not used; the guest's on one more
        for (secret, token) in [(7, 21), (8, 22)] {
            write(&store, transfer(StoredSeat::Creator, secret, 1_000)).await?;
            write(&store, take(StoredSeat::Creator, secret, token)).await?;
        }
        write(&store, transfer(StoredSeat::Creator, 9, 1_000)).await?;
        write(&store, transfer(StoredSeat::Guest, 10, 1_000)).await?;
        write(&store, take(StoredSeat::Guest, 10, 40)).await?;
        write(&store, transfer(StoredSeat::Guest, 11, 1_000)).await?;

        // the creator keeps the device it was moved to last
        write(&store, keep(StoredSeat::Creator, 22)).await?;
        let room = load(&store, CODE)?;
        ensure!(
            room.creator_hash == vec![22; 32],
            "{name}: the kept device's token is the seat's: {:?}",
            room.creator_hash
        );
        ensure!(
            room.devices.iter().all(|d| d.seat == StoredSeat::Guest) && room.devices.len() == 1,
            "{name}: the creator's other devices are gone, the guest's stays: {:?}",
            room.devices
        );
        ensure!(
            room.transfers.len() == 1 && room.transfers[0].seat == StoredSeat::Guest,
            "{name}: the creator's link is gone, the guest's stays: {:?}",
            room.transfers
        );
        ensure!(
            room.guest_hash == guest_before,
            "{name}: the guest's first token is untouched"
        );

        // the guest keeps its first device: only its other device and link go
        let first = guest_before.clone().unwrap_or_default();
        write(
            &store,
            WriteOp::KeepOneDevice {
                code: CODE.into(),
                seat: StoredSeat::Guest,
                token_hash: first.clone(),
            },
        )
        .await?;
        let room = load(&store, CODE)?;
        ensure!(
            room.devices.is_empty() && room.transfers.is_empty() && room.guest_hash == Some(first),
            "{name}: the guest is on its first device alone: {room:?}"
        );
        ensure!(
            room.creator_hash == vec![22; 32],
            "{name}: the creator's seat is untouched"
        );
        store.close();
    }
    Ok(())
}

#[tokio::test]
async fn every_seat_write_under_an_old_claim_is_fenced() -> Result<()> {
    for Opened { name, store } in stores("seats_fenced").await? {
        room_with_actions(&store, CODE, 1).await?;
        write(&store, transfer(StoredSeat::Guest, 9, 3_000)).await?;
        store.claim_room(CODE)?;
        let old = |op: WriteOp| store.submit(FIRST_EPOCH, op);
        let refused = [
            old(WriteOp::SetName {
                code: CODE.into(),
                seat: StoredSeat::Guest,
                name: Some("Eve".into()),
            }),
            old(WriteOp::NewInvite {
                code: CODE.into(),
                invite_hash: vec![5; 32],
                join_code_hash: vec![6; 32],
            }),
            old(WriteOp::WrongJoinCode { code: CODE.into() }),
            old(transfer(StoredSeat::Creator, 7, 1_000)),
            old(take(StoredSeat::Guest, 9, 30)),
            old(keep(StoredSeat::Guest, 31)),
        ];
        for (i, answer) in refused.into_iter().enumerate() {
            ensure!(
                matches!(answer.await?, Err(StoreError::Fenced)),
                "{name}: seat write {i} under the old claim is fenced"
            );
        }
        let room = load(&store, CODE)?;
        ensure!(
            room.guest_name.is_none()
                && room.invite_hash == vec![1; 32]
                && room.join_failures == 0
                && room.devices.is_empty()
                && room.transfers.len() == 1
                && room.transfers[0].secret_hash == vec![9; 32],
            "{name}: nothing was written, the guest's link is still there: {room:?}"
        );
        // the owner's write goes through
        store.submit(FIRST_EPOCH + 1, take(StoredSeat::Guest, 9, 30)).await??;
        ensure!(
            load(&store, CODE)?.devices.len() == 1,
            "{name}: the owner seats the device"
        );
        store.close();
    }
    Ok(())
}

fn add_device(seat: StoredSeat, token: u8, added_at: i64) -> WriteOp {
    WriteOp::AddDevice {
        code: CODE.into(),
        seat,
        token_hash: vec![token; 32],
        added_at,
    }
}

#[tokio::test]
async fn a_device_of_the_seats_account_loads_back_and_is_fenced_under_an_old_claim() -> Result<()> {
    for Opened { name, store } in stores("seats_add_device").await? {
        room_with_actions(&store, CODE, 1).await?;
        // a device added under the room's claim, without a link, loads back with the seat's devices
        write(&store, add_device(StoredSeat::Guest, 50, 1_790_000_600)).await?;
        let room = load(&store, CODE)?;
        ensure!(
            room.devices
                == vec![StoredDevice {
                    seat: StoredSeat::Guest,
                    token_hash: vec![50; 32],
                    added_at: 1_790_000_600,
                }],
            "{name}: the device is the guest's: {:?}",
            room.devices
        );
        // under an old claim: refused, nothing written
        store.claim_room(CODE)?;
        let stale = store
            .submit(FIRST_EPOCH, add_device(StoredSeat::Creator, 51, 1_790_000_700))
            .await?;
        ensure!(
            matches!(stale, Err(StoreError::Fenced)),
            "{name}: a device added under an old claim is fenced: {stale:?}"
        );
        ensure!(
            load(&store, CODE)?.devices.len() == 1,
            "{name}: the fenced device was not written"
        );
        // the owner's goes through, and both devices are the seats'
        store
            .submit(FIRST_EPOCH + 1, add_device(StoredSeat::Creator, 51, 1_790_000_700))
            .await??;
        let mut devices = load(&store, CODE)?.devices;
        devices.sort_by_key(|d| d.added_at);
        ensure!(
            devices.len() == 2 && devices[1].seat == StoredSeat::Creator && devices[1].token_hash == vec![51; 32],
            "{name}: the owner adds the creator's device: {devices:?}"
        );
        // no room, no device
        let orphan = store
            .submit(
                FIRST_EPOCH,
                WriteOp::AddDevice {
                    code: "NOROOM23".into(),
                    seat: StoredSeat::Guest,
                    token_hash: vec![52; 32],
                    added_at: 1,
                },
            )
            .await?;
        ensure!(orphan.is_err(), "{name}: a device of a room never stored is refused");
        store.close();
    }
    Ok(())
}
