//! The server's message handling under random input: frames built at random — legal actions (so
//! games are played to the end, then rematched), stale and mutated actions, chat of every shape,
//! the other messages, and garbage — go through the same path as a socket's (`ws::frame::read`,
//! `ws::dispatch::route`) into a real room actor, from both seats and a spectator.
//!
//! What must hold for every input: nothing panics (the room keeps answering), and an input the room
//! refuses changes nothing — no write reaches the store, nobody else hears anything, `seq` stays.
//!
//! A short run is part of the test suite; the benchmark command runs a million inputs:
//! `EVR_FUZZ_INPUTS=1000000 cargo test --release -p evr-server --lib fuzz -- --nocapture`
//! (`EVR_FUZZ_SEED` picks another sequence).

use std::time::Instant;

use evr_protocol::{ErrorCode, ServerMsg};
use evr_rules::View;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};

use super::tests::{Fixture, Peer};
use crate::ws::dispatch::{Route, route};
use crate::ws::frame;

const CARDS: [&str; 8] = [
    "Military 3",
    "Han Solo",
    "Darth Vader",
    "Yoda",
    "Recon 5",
    "Boba Fett",
    "The Force 2",
    "Nobody",
];

/// A value to put where another was: of another type, out of range, or a near miss.
fn junk(rng: &mut ChaCha8Rng) -> Value {
    match rng.random_range(0..10u8) {
        0 => Value::Null,
        1 => json!(rng.random::<u32>()),
        2 => json!(-1),
        3 => json!(CARDS[rng.random_range(0..CARDS.len())]),
        4 => json!(["rebel", "imperial"][rng.random_range(0..2usize)]),
        5 => json!([]),
        6 => json!({}),
        7 => json!("x".repeat(rng.random_range(0..400usize))),
        8 => json!(true),
        _ => json!(1.5),
    }
}

/// `v` with one of its leaves (or keys) replaced, dropped or added.
fn mutate(rng: &mut ChaCha8Rng, v: &mut Value) {
    match v {
        Value::Object(map) if !map.is_empty() => {
            let keys: Vec<String> = map.keys().cloned().collect();
            let k = &keys[rng.random_range(0..keys.len())];
            match rng.random_range(0..4u8) {
                0 => {
                    map.remove(k);
                }
                1 => {
                    map.insert("extra".into(), junk(rng));
                }
                _ => {
                    if let Some(x) = map.get_mut(k) {
                        if rng.random_bool(0.5) {
                            mutate(rng, x)
                        } else {
                            *x = junk(rng)
                        }
                    }
                }
            }
        }
        Value::Array(items) if !items.is_empty() => {
            let i = rng.random_range(0..items.len());
            if rng.random_bool(0.3) {
                items.remove(i);
            } else {
                mutate(rng, &mut items[i]);
            }
        }
        other => *other = junk(rng),
    }
}

/// One random frame from a connection whose latest view is `view` (seats) at room update `seq`.
fn frame_text(rng: &mut ChaCha8Rng, view: Option<&View>, seq: u32, n: u64) -> String {
    let legal = view.map(|v| v.legal_actions.as_slice()).unwrap_or_default();
    let pick = |rng: &mut ChaCha8Rng| -> Value {
        match legal {
            [] => json!({"type": "play_card"}),
            l => serde_json::to_value(l[rng.random_range(0..l.len())]).unwrap_or(Value::Null),
        }
    };
    let msg = match rng.random_range(0..100u8) {
        // a legal action on the current view: the games go on
        0..=34 => json!({"type": "action", "based_on": seq, "action_id": format!("f{n}"), "action": pick(rng)}),
        // the same, decided on another view
        35..=39 => {
            json!({"type": "action", "based_on": seq.wrapping_add(rng.random_range(1..5u32)), "action_id": format!("f{n}"), "action": pick(rng)})
        }
        // a mutated action (unlisted cards, other seats, missing fields …)
        40..=54 => {
            let mut a = pick(rng);
            mutate(rng, &mut a);
            json!({"type": "action", "based_on": seq, "action_id": format!("f{n}"), "action": a})
        }
        // an action id too long, empty, or repeated
        55..=57 => {
            let ids = [String::new(), "f0".into(), "i".repeat(65)];
            let id = ids[rng.random_range(0..3usize)].clone();
            json!({"type": "action", "based_on": seq, "action_id": id, "action": pick(rng)})
        }
        58..=69 => {
            let channel = ["players", "spectators"][rng.random_range(0..2usize)];
            let body = match rng.random_range(0..4u8) {
                0 => {
                    let phrase = ["good_luck", "rematch", "shout"][rng.random_range(0..3usize)];
                    json!({"kind": "phrase", "phrase": phrase})
                }
                1 => json!({"kind": "text", "text": "<b>hi</b>\u{0}"}),
                _ => json!({"kind": "text", "text": "字".repeat(rng.random_range(0..320usize))}),
            };
            let name =
                [json!(null), json!("Ana"), json!(""), json!("n".repeat(30))][rng.random_range(0..4usize)].clone();
            json!({"type": "chat", "channel": channel, "body": body, "name": name})
        }
        70..=75 => {
            let ty = ["rematch", "claim_win", "reveal_replay", "ping"][rng.random_range(0..4usize)];
            json!({ "type": ty })
        }
        76..=77 => json!({"type": "hello", "version": evr_protocol::PROTOCOL_VERSION, "token": null, "last_seq": null}),
        // a valid message mutated anywhere
        78..=87 => {
            let mut m = json!({"type": "action", "based_on": seq, "action_id": format!("f{n}"), "action": pick(rng)});
            mutate(rng, &mut m);
            m
        }
        // not a message at all
        _ => {
            return match rng.random_range(0..4u8) {
                0 => String::from_utf8_lossy(
                    &(0..rng.random_range(0..64usize))
                        .map(|_| rng.random::<u8>())
                        .collect::<Vec<u8>>(),
                )
                .into_owned(),
                1 => "[".repeat(rng.random_range(1..200usize)),
                2 => format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(17_000)),
                _ => r#"{"type":"action","based_on":"#.into(),
            };
        }
    };
    msg.to_string()
}

#[derive(Default, Debug)]
struct Tally {
    unreadable: u64,
    answered_by_connection: u64,
    accepted: u64,
    refused: u64,
    /// inputs after which some peer saw the game's end (a game ended)
    game_ends: u64,
}

/// What a peer received in one step: whether it was refused, whether anything changed for it, and
/// its newest view and seq.
fn read_peer(peer: &mut Peer, view: &mut Option<View>, seq: &mut u32) -> (Option<ErrorCode>, bool, bool) {
    let mut refused = None;
    let mut changed = false;
    let mut over = false;
    for m in peer.drain() {
        match m {
            ServerMsg::Error { code, .. } => refused = Some(code),
            ServerMsg::Update { seq: s, changes, .. } => {
                over |= changes.outcome.as_ref().is_some_and(Option::is_some);
                if let Some(v) = view.as_mut() {
                    v.apply_changes(*changes);
                }
                *seq = s;
                changed = true;
            }
            ServerMsg::Welcome { seq: s, view: v, .. } => (*seq, *view) = (s, Some(*v)),
            ServerMsg::Ack { .. } | ServerMsg::Chat { .. } | ServerMsg::Room { .. } | ServerMsg::Clock { .. } => {
                changed = true
            }
            ServerMsg::Presence { .. } | ServerMsg::Pong => {}
        }
    }
    (refused, changed, over)
}

#[tokio::test]
async fn random_frames_never_panic_and_what_is_refused_changes_nothing() {
    let inputs: u64 = std::env::var("EVR_FUZZ_INPUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4_000);
    let seed: u64 = std::env::var("EVR_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut f = Fixture::seated(180).await;
    let mut views: [Option<View>; 3] = [None, None, None];
    let mut seqs = [0u32; 3];
    let mut tally = Tally::default();
    let started = Instant::now();
    for n in 0..inputs {
        let who = rng.random_range(0..3usize);
        let conn = [f.creator.conn, f.guest.conn, f.spectator.conn][who];
        let text = frame_text(&mut rng, views[who].as_ref(), seqs[who], n);
        let msg = match frame::read(&text) {
            Ok(msg) => msg,
            Err(_) => {
                tally.unreadable += 1;
                continue;
            }
        };
        let cmd = match route(conn, msg) {
            Route::Room(cmd) => cmd,
            Route::Answer(_) | Route::Refuse(_) => {
                tally.answered_by_connection += 1;
                continue;
            }
        };
        let stored = f.store.committed();
        let seq = seqs[0].max(seqs[1]).max(seqs[2]);
        f.room.tx.send(cmd).await.expect("the room is running: it never panics");
        f.settle().await;
        let peers = [&mut f.creator, &mut f.guest, &mut f.spectator];
        let mut heard = [(None, false, false); 3];
        for (i, p) in peers.into_iter().enumerate() {
            heard[i] = read_peer(p, &mut views[i], &mut seqs[i]);
        }
        let (refused, _, _) = heard[who];
        match refused {
            Some(code) => {
                tally.refused += 1;
                assert_eq!(
                    f.store.committed(),
                    stored,
                    "input {n} ({code:?}) was refused yet stored: {text}"
                );
                for (i, (_, changed, _)) in heard.iter().enumerate() {
                    assert!(
                        !changed,
                        "input {n} ({code:?}) was refused yet peer {i} heard of a change: {text}"
                    );
                }
                assert!(
                    seqs.iter().all(|s| *s <= seq),
                    "input {n} was refused yet seq moved: {text}"
                );
            }
            None => tally.accepted += 1,
        }
        if heard.iter().any(|h| h.2) {
            tally.game_ends += 1;
        }
    }
    // the room still answers, and a fresh connection gets a coherent welcome
    f.settle().await;
    let elapsed = started.elapsed();
    println!(
        "fuzz: {inputs} inputs (seed {seed}) in {:.1} s ({:.0} inputs/s): {tally:?}",
        elapsed.as_secs_f64(),
        inputs as f64 / elapsed.as_secs_f64().max(1e-9)
    );
    assert!(
        tally.accepted > inputs / 20,
        "enough inputs were accepted to play: {tally:?}"
    );
    assert!(
        tally.refused > inputs / 20,
        "enough were refused to test refusals: {tally:?}"
    );
    assert!(tally.unreadable > 0 && tally.answered_by_connection > 0, "{tally:?}");
    if inputs >= 4_000 {
        assert!(tally.game_ends > 0, "games were played to the end: {tally:?}");
    }
}
