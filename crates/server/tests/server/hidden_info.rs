//! Non-interference on the wire: two matches that differ only in one player's hidden choices give
//! the other player and the spectators byte-identical frame streams — with a clock running and
//! chat in both channels (the clocks' times and the messages' dates, which depend on when the
//! test ran, are masked; everything else is compared byte for byte).

use anyhow::Result;
use evr_protocol::{
    ChatBody, ChatChannel, ClientMsg, LiveClock, Phrase, RoomOptions, ServerMsg, SideChoice, TimeControl,
};
use evr_rules::{Action, Mode};
use serde_json::{Value, json};

use crate::support::{self, Client};

/// Waits until every client has the update `seq`.
async fn all_see(clients: &mut [&mut Client], seq: u32) -> Result<()> {
    for c in clients.iter_mut() {
        c.recv_until("the update", |m| match m {
            ServerMsg::Update { seq: s, .. } if s == seq => Some(()),
            _ => None,
        })
        .await?;
    }
    Ok(())
}

/// An action written as it travels (card names as the rulebook spells them).
fn action(json: Value) -> Result<Action> {
    Ok(serde_json::from_value(json)?)
}

/// Plays the secret part of round 1 with the Rebel's choices given; returns the raw frames of the
/// Imperial player and of the spectator, with the room code masked.
async fn secret_phase(rebel_characters: [&str; 4], rebel_strategy: &str) -> Result<(Vec<String>, Vec<String>)> {
    let mut config = evr_server::Config::for_tests(support::temp_dir("noninterference"));
    config.test_fixed_seed = Some(0x0e_57_ea_57);
    let server = support::start_with(config).await?;
    let options = RoomOptions {
        side: SideChoice::Imperial,
        clock: Some(TimeControl::Live(LiveClock {
            bank_secs: 600,
            increment_secs: 5,
        })),
        ..support::options(Mode::Full)
    };
    let created = support::create_room(server.addr, &options).await?;
    let code = created.code.clone();
    let joined = support::join_room(server.addr, &code, Some(&support::invite_secret(&created)?))
        .await?
        .map_err(|e| anyhow::anyhow!("join refused: {e:?}"))?;
    let imperial_token = created.token;
    let rebel_token = joined.token;

    let (mut spectator, _) = Client::hello(server.addr, &code, None, None).await?;
    let (mut imperial, _) = Client::hello(server.addr, &code, Some(&imperial_token), None).await?;
    let (mut rebel, _) = Client::hello(server.addr, &code, Some(&rebel_token), None).await?;

    let steps: [(bool, Value); 4] = [
        (
            true,
            json!({"type": "choose_characters", "characters": rebel_characters}),
        ),
        (
            false,
            json!({"type": "choose_characters", "characters": ["Darth Vader", "Boba Fett", "IG-88", "General Veers"]}),
        ),
        (
            true,
            json!({"type": "choose_strategy", "target": "rebel", "strategy": rebel_strategy}),
        ),
        (
            false,
            json!({"type": "choose_strategy", "target": "imperial", "strategy": "direct_assault"}),
        ),
    ];
    let chat = |channel, body, name: Option<&str>| ClientMsg::Chat {
        channel,
        body,
        name: name.map(str::to_string),
    };
    for (seq, (by_rebel, step)) in steps.into_iter().enumerate() {
        let seq = seq as u32;
        let actor = if by_rebel { &mut rebel } else { &mut imperial };
        actor
            .send(&support::action(seq, format!("n{seq}"), action(step)?))
            .await?;
        all_see(&mut [&mut rebel, &mut imperial, &mut spectator], seq + 1).await?;
        // the same words in both matches, in both channels, after each decision
        let (said, by) = match seq {
            0 => (
                chat(
                    ChatChannel::Players,
                    ChatBody::Phrase {
                        phrase: Phrase::Thinking,
                    },
                    None,
                ),
                &mut rebel,
            ),
            1 => (
                chat(
                    ChatChannel::Spectators,
                    ChatBody::Text {
                        text: "what will they pick?".into(),
                    },
                    Some("Ana"),
                ),
                &mut spectator,
            ),
            _ => (
                chat(
                    ChatChannel::Players,
                    ChatBody::Text {
                        text: "good luck".into(),
                    },
                    None,
                ),
                &mut imperial,
            ),
        };
        by.send(&said).await?;
        by.recv_until("its chat", |m| matches!(m, ServerMsg::Chat { .. }).then_some(()))
            .await?;
    }
    server.stop().await?;
    let mask = |frames: &[String]| -> Result<Vec<String>> {
        frames.iter().map(|f| mask_times(&f.replace(&code, "ROOM"))).collect()
    };
    Ok((mask(&imperial.raw)?, mask(&spectator.raw)?))
}

/// The frame with the clocks' times and the messages' dates zeroed: they depend on when the test
/// ran, not on anything in the game.
fn mask_times(frame: &str) -> Result<String> {
    fn walk(v: &mut Value) {
        match v {
            Value::Object(map) => {
                for (k, x) in map.iter_mut() {
                    if k == "remaining_ms" || k == "at" {
                        *x = json!(0);
                    } else {
                        walk(x);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(walk),
            _ => {}
        }
    }
    let mut v: Value = serde_json::from_str(frame)?;
    walk(&mut v);
    Ok(v.to_string())
}

#[tokio::test]
async fn the_other_seat_and_spectators_receive_identical_bytes() -> Result<()> {
    let (imperial_1, spectator_1) =
        secret_phase(["Han Solo", "Chewbacca", "Yoda", "Luke Skywalker"], "deception").await?;
    let (imperial_2, spectator_2) = secret_phase(
        ["Leia Organa", "Obi-Wan Kenobi", "R2-D2 and C-3PO", "Lando Calrissian"],
        "support",
    )
    .await?;
    assert!(imperial_1.len() >= 6, "the stream covers the secret phase");
    let carries = |frames: &[String], what: &str| frames.iter().any(|f| f.contains(what));
    assert!(
        carries(&imperial_1, "remaining_ms") && carries(&spectator_1, "remaining_ms"),
        "with clocks"
    );
    assert!(
        carries(&imperial_1, "good luck") && carries(&spectator_1, "thinking"),
        "with chat"
    );
    assert!(carries(&spectator_1, "what will they pick?"), "the spectators' channel");
    assert!(
        !carries(&imperial_1, "what will they pick?"),
        "never the spectators' words to a seat during the game"
    );
    assert_eq!(
        imperial_1, imperial_2,
        "the Imperial player's frames depend on the Rebel's secrets"
    );
    assert_eq!(
        spectator_1, spectator_2,
        "the spectator's frames depend on the Rebel's secrets"
    );
    // The Rebel's character choice appears in no frame, and its strategy is face down.
    for f in imperial_1.iter().chain(&spectator_1) {
        for secret in ["Han Solo", "Chewbacca", "Yoda", "Luke Skywalker"] {
            assert!(!f.contains(secret), "a frame names the Rebel's secret {secret}: {f}");
        }
    }
    for frames in [&imperial_1, &spectator_1] {
        // the view these frames built: the welcome's, each update's changes applied
        let mut view = Value::Null;
        for f in frames {
            let f: Value = serde_json::from_str(f)?;
            match (&f["view"], f["changes"].as_object()) {
                (Value::Object(_), _) => view = f["view"].clone(),
                (_, Some(changes)) => {
                    for (k, v) in changes {
                        view[k] = v.clone();
                    }
                }
                _ => {}
            }
        }
        assert_eq!(view["phase"], "struggle");
        assert_eq!(view["rebel"]["strategy"], json!({"state": "hidden"}));
    }
    Ok(())
}
