//! R-9 Information and choices.

use crate::support::*;

fn hoth(balance: Faction, rebel: &[&str], imperial: &[&str]) -> Game {
    in_event("Battle of Hoth", balance, rebel, imperial)
}

#[test]
fn r9_1_deck_contents_and_order_are_hidden_from_others() {
    let g = game(json!({"rebel": {"deck": ["Yoda"]}}));
    assert!(seen_by(&g, Viewer::Seat(REBEL), REBEL).deck_contents.is_some());
    for v in [Viewer::Seat(IMPERIAL), SPECTATOR] {
        let p = seen_by(&g, v, REBEL);
        assert_eq!(p.deck_contents, None);
        assert_eq!(p.deck_top, None);
        assert_eq!(p.deck_size, 17, "sizes are public");
    }
    // Not even the owner knows the order.
    assert_eq!(seen_by(&g, Viewer::Seat(REBEL), REBEL).deck_top, None);
}

#[test]
fn r9_1_the_reserve_is_hidden_from_others() {
    let g = game(json!({"rebel": {"deck": ["Yoda"]}}));
    assert_eq!(seen_by(&g, Viewer::Seat(REBEL), REBEL).reserve_known.len(), 7);
    for v in [Viewer::Seat(IMPERIAL), SPECTATOR] {
        let p = seen_by(&g, v, REBEL);
        assert!(p.reserve_known.is_empty());
        assert_eq!(p.reserve_size, 7);
        assert_eq!(p.characters, None);
    }
}

#[test]
fn r9_1_a_hidden_strategy_hides_the_unused_ones_too() {
    let mut g = game(json!({}));
    choose_for(&mut g, REBEL, REBEL, Support);
    for v in [Viewer::Seat(IMPERIAL), SPECTATOR] {
        let p = seen_by(&g, v, REBEL);
        assert_eq!(p.strategy, StrategySlot::Hidden);
        assert_eq!(p.unused_strategies, None, "they would give the chosen one away");
        assert_eq!(p.unused_strategy_count, 4);
    }
}

#[test]
fn r9_1_privately_seen_cards_are_shown_to_the_looker_only() {
    let mut g = hoth(REBEL, &["Recon 3"], &["Military 2", "Military 5", "Diplomacy 5"]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Recon 3");
    let events = answer(&mut g, REBEL, Choice::Deck { owner: IMPERIAL });
    let looked = |cards: Option<CardMask>| LogEntry::DeckLooked {
        by: REBEL,
        deck: IMPERIAL,
        count: 2,
        cards,
    };
    assert!(seen(&events, Viewer::Seat(REBEL)).contains(&looked(Some(mask(&["Military 5", "Diplomacy 5"])))));
    for v in [Viewer::Seat(IMPERIAL), SPECTATOR] {
        assert!(seen(&events, v).contains(&looked(None)));
        let p = view(&g, v).pending.unwrap();
        assert_eq!((p.seen_cards, p.options), (None, None));
        assert!(view(&g, v).legal_actions.is_empty());
    }
}

#[test]
fn r9_1_the_event_deck_order_is_hidden_from_everyone() {
    let g = game(json!({"event_deck": ["Battle of Hoth", "Battle of Yavin"]}));
    for v in Viewer::ALL {
        let view = view(&g, v);
        assert!(view.known_next_events.is_empty());
        assert_eq!(view.event_deck_size, 23);
    }
}

#[test]
fn r9_2_public_information_is_the_same_for_every_viewer() {
    let mut g = hoth(REBEL, &["Military 3", "Yoda"], &["Recon 2", "Grand Moff Tarkin"]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Military 3");
    play(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    power(&mut g, IMPERIAL, "Grand Moff Tarkin");
    let views: Vec<View> = Viewer::ALL.iter().map(|v| view(&g, *v)).collect();
    for f in Faction::BOTH {
        let public_part = |v: &View| {
            let p = v.seat_view(f);
            format!(
                "{} {} {:?} {:?} {} {} {:?} {} {:?} {} {:?} {:?}",
                p.influence,
                p.vp,
                p.won_events,
                p.play_area,
                p.total,
                p.deck_size,
                p.discard_pile,
                p.reserve_size,
                p.used_strategies,
                p.unused_strategy_count,
                p.modifiers,
                p.next_modifiers,
            )
        };
        assert_eq!(public_part(&views[0]), public_part(&views[2]));
        assert_eq!(public_part(&views[1]), public_part(&views[2]));
    }
    for v in &views {
        assert_eq!(v.event, views[2].event);
        assert_eq!(v.balance, views[2].balance);
        assert_eq!(v.turn, Some(REBEL));
        assert_eq!(v.round, 1);
    }
    assert_eq!(views[2].imperial.discard_pile, [card("Recon 2")]);
    assert_eq!(views[2].rebel.influence, 0);
}

#[test]
fn r9_2_public_knowledge_of_a_reserve_is_cleared_when_a_character_leaves_it_secretly() {
    // README ruling 4: Vader's target is public; after Leia shuffles some reserve character into
    // the deck, nobody else can tell whether it was that one.
    let mut g = hoth(
        REBEL,
        &["Luke Skywalker", "Leia Organa", "Military 4"],
        &["Darth Vader", "Military 2"],
    );
    play_cards(&mut g, 2, 2);
    power(&mut g, REBEL, "Luke Skywalker");
    answer(&mut g, REBEL, pick(IMPERIAL, "Military 2"));
    power(&mut g, IMPERIAL, "Darth Vader");
    answer(&mut g, IMPERIAL, pick(REBEL, "Luke Skywalker"));
    assert_eq!(
        seen_by(&g, Viewer::Seat(IMPERIAL), REBEL).reserve_known,
        mask(&["Luke Skywalker"])
    );
    power(&mut g, REBEL, "Leia Organa");
    answer(
        &mut g,
        REBEL,
        Choice::Character {
            card: card("Yoda"),
            to: Destination::Deck,
        },
    );
    assert!(seen_by(&g, Viewer::Seat(IMPERIAL), REBEL).reserve_known.is_empty());
    assert!(seen_by(&g, SPECTATOR, REBEL).reserve_known.is_empty());
    assert!(reserve(&g, REBEL).contains(&"Luke Skywalker"));
}

#[test]
fn r9_2_the_event_put_at_the_bottom_is_public() {
    let mut g = struggle(
        json!({
            "event_deck": ["Diplomatic Freedom"],
            "balance": "rebel",
            "rebel": {"deck": TWELVE},
            "imperial": {"deck": THIRTEEN},
        }),
        Bureaucracy,
        Bureaucracy,
    );
    play_cards(&mut g, 3, 3);
    let events = end_struggle(&mut g);
    let bottom = LogEntry::EventToBottom {
        event: event("Diplomatic Freedom"),
    };
    for v in Viewer::ALL {
        assert!(seen(&events, v).contains(&bottom), "{v:?}");
    }
}

#[test]
fn r9_3_only_the_owner_of_a_pending_choice_may_answer_it() {
    let mut g = hoth(REBEL, &["Military 3"], &["Recon 2", "Recon 3"]);
    set_up_play(&mut g, 1, 2, REBEL);
    power(&mut g, REBEL, "Military 3");
    assert_eq!(view(&g, SPECTATOR).pending.unwrap().owner, REBEL);
    assert!(g.legal_actions(IMPERIAL).is_empty());
    assert_eq!(g.seats_to_act(), vec![REBEL]);
    assert_refused(
        &mut g,
        IMPERIAL,
        Action::Answer {
            choice: pick(IMPERIAL, "Recon 2"),
        },
        "not_your_choice",
    );
    assert_refused(&mut g, REBEL, Action::Pass, "choice_pending");
    assert_refused(&mut g, IMPERIAL, Action::PlayCard, "choice_pending");
}

#[test]
fn r9_3_an_answer_must_be_one_of_the_options() {
    let mut g = hoth(REBEL, &["Military 3"], &["Recon 2", "Recon 3"]);
    set_up_play(&mut g, 1, 2, REBEL);
    power(&mut g, REBEL, "Military 3");
    for choice in [
        pick(REBEL, "Military 3"),
        pick(IMPERIAL, "Military 5"),
        pick_all(&[(IMPERIAL, "Recon 2"), (IMPERIAL, "Recon 3")]),
        Choice::Deck { owner: IMPERIAL },
        Choice::Play { play: true },
    ] {
        assert_refused(&mut g, REBEL, Action::Answer { choice }, "choice_not_offered");
    }
    let own = view(&g, Viewer::Seat(REBEL)).pending.unwrap();
    assert_eq!(own.options, Some(options(&g, REBEL)));
    answer(&mut g, REBEL, pick(IMPERIAL, "Recon 3"));
    assert_eq!(discard_pile(&g, IMPERIAL), ["Recon 3"]);
}

#[test]
fn r9_3_there_is_nothing_to_answer_without_a_pending_choice() {
    let mut g = hoth(REBEL, &["Military 3"], &[]);
    assert_refused(
        &mut g,
        REBEL,
        Action::Answer {
            choice: Choice::NO_CARDS,
        },
        "no_pending_choice",
    );
}

#[test]
fn r9_4_knowledge_of_a_top_card_lasts_until_it_leaves_the_top() {
    let mut g = hoth(
        REBEL,
        &["Recon 3", "Military 4"],
        &["Military 2", "Military 5", "Diplomacy 5"],
    );
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Recon 3");
    answer(&mut g, REBEL, Choice::Deck { owner: IMPERIAL });
    answer(&mut g, REBEL, pick(IMPERIAL, "Diplomacy 5"));
    pass(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    assert_eq!(
        seen_by(&g, Viewer::Seat(REBEL), IMPERIAL).deck_top,
        Some(card("Military 5")),
        "still known a few actions later"
    );
    play(&mut g, IMPERIAL);
    assert_eq!(in_play(&g, IMPERIAL), ["Military 2", "Military 5"]);
    assert_eq!(seen_by(&g, Viewer::Seat(REBEL), IMPERIAL).deck_top, None);
}

#[test]
fn r9_4_a_shuffle_ends_the_knowledge_of_a_top_card() {
    let mut g = hoth(IMPERIAL, &["Military 2", "Han Solo"], &["Military 3", "Admiral Piett"]);
    play(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    power(&mut g, IMPERIAL, "Military 3"); // the Rebel's Military 2 is discarded
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    pass(&mut g, REBEL);
    power(&mut g, IMPERIAL, "Admiral Piett"); // the only card in a discard pile: forced
    for v in Viewer::ALL {
        assert_eq!(seen_by(&g, v, REBEL).deck_top, Some(card("Military 2")));
    }
    power(&mut g, REBEL, "Han Solo");
    answer(&mut g, REBEL, pick(REBEL, "Recon 5"));
    for v in Viewer::ALL {
        assert_eq!(seen_by(&g, v, REBEL).deck_top, None, "{v:?}");
    }
}

#[test]
fn r9_4_the_cleanup_shuffle_ends_the_knowledge_of_a_top_card() {
    let mut g = hoth(REBEL, &["Recon 3"], &["Military 2", "Military 5", "Diplomacy 5"]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Recon 3");
    answer(&mut g, REBEL, Choice::Deck { owner: IMPERIAL });
    answer(&mut g, REBEL, pick(IMPERIAL, "Diplomacy 5"));
    assert_eq!(
        seen_by(&g, Viewer::Seat(REBEL), IMPERIAL).deck_top,
        Some(card("Military 5"))
    );
    finish_round(&mut g);
    assert_eq!(seen_by(&g, Viewer::Seat(REBEL), IMPERIAL).deck_top, None);
}

/// A game of `seed` driven by a fixed sequence of choices among the legal actions.
fn scripted_game(seed: u64, script: u64, max_actions: usize) -> (Game, Vec<(Faction, Action)>) {
    scripted_from(Game::new(Mode::Full, seed).unwrap(), script, max_actions)
}

/// `g` driven by a fixed sequence of choices among the legal actions.
fn scripted_from(mut g: Game, script: u64, max_actions: usize) -> (Game, Vec<(Faction, Action)>) {
    let mut state = script;
    let mut applied = Vec::new();
    while !g.is_over() && applied.len() < max_actions {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let seats = g.seats_to_act();
        let seat = seats[(state >> 33) as usize % seats.len()];
        let legal = g.legal_actions(seat);
        let action = legal[(state >> 17) as usize % legal.len()];
        ok(&mut g, seat, action);
        applied.push((seat, action));
    }
    (g, applied)
}

#[test]
fn r9_5_the_same_seed_and_actions_replay_the_same_game() {
    let (original, actions) = scripted_game(42, 7, 600);
    let mut replay = Game::new(Mode::Full, 42).unwrap();
    for (seat, action) in &actions {
        ok(&mut replay, *seat, *action);
    }
    assert_eq!(snapshot(&replay), snapshot(&original));
    let (again, _) = scripted_game(42, 7, 600);
    assert_eq!(snapshot(&again), snapshot(&original));
}

#[test]
fn r9_5_randomness_comes_from_the_seed() {
    let a = Game::new(Mode::Full, 1).unwrap();
    let b = Game::new(Mode::Full, 2).unwrap();
    assert_ne!(a.testing_event_deck(), b.testing_event_deck());
    let (a, _) = scripted_game(1, 3, 200);
    let (b, _) = scripted_game(2, 3, 200);
    assert_ne!(snapshot(&a), snapshot(&b));
}

#[test]
fn r9_5_a_keyed_game_replays_exactly() {
    let key = [7u8; 32];
    let (original, actions) = scripted_from(Game::with_seed(Mode::Full, GameSeed::Key(key)).unwrap(), 7, 600);
    let mut replay = Game::with_seed(Mode::Full, GameSeed::Key(key)).unwrap();
    for (seat, action) in &actions {
        ok(&mut replay, *seat, *action);
    }
    assert_eq!(snapshot(&replay), snapshot(&original));
}

#[test]
fn r9_5_different_keys_deal_different_games() {
    let a = Game::with_seed(Mode::Full, GameSeed::Key([1; 32])).unwrap();
    let b = Game::with_seed(Mode::Full, GameSeed::Key([2; 32])).unwrap();
    assert_ne!(a.testing_event_deck(), b.testing_event_deck());
    // one bit of the key is enough
    let mut key = [1u8; 32];
    key[31] ^= 1;
    let c = Game::with_seed(Mode::Full, GameSeed::Key(key)).unwrap();
    assert_ne!(a.testing_event_deck(), c.testing_event_deck());
}

#[test]
fn r9_5_a_legacy_seed_plays_as_games_stored_before_keys() {
    // A stored game of an older release (64-bit seed) replays exactly as `Game::new` played it.
    let (original, actions) = scripted_game(42, 7, 600);
    let mut replay = Game::with_seed(Mode::Full, GameSeed::Legacy(42)).unwrap();
    for (seat, action) in &actions {
        ok(&mut replay, *seat, *action);
    }
    assert_eq!(snapshot(&replay), snapshot(&original));
    // and a key is not a 64-bit seed in disguise
    let keyed = Game::with_seed(Mode::Full, GameSeed::Key([42; 32])).unwrap();
    assert_ne!(
        keyed.testing_event_deck(),
        Game::new(Mode::Full, 42).unwrap().testing_event_deck()
    );
}
