//! R-6 Powers of resource cards.

use serde_json::Value;

use crate::support::*;

/// Battle of Hoth: capacity 5, objective 17, no effect.
fn hoth(balance: Faction, rebel: &[&str], imperial: &[&str]) -> Game {
    in_event("Battle of Hoth", balance, rebel, imperial)
}

/// Control of Endor: capacity 2.
fn endor(balance: Faction, rebel: &[&str], imperial: &[&str]) -> Game {
    in_event("Control of Endor", balance, rebel, imperial)
}

// ----- Military -----

#[test]
fn r6_1_military_discards_a_ready_or_exhausted_opponent_card() {
    let mut g = hoth(REBEL, &["Military 3"], &["Grand Moff Tarkin", "Recon 2"]);
    set_up_play(&mut g, 1, 2, IMPERIAL);
    power(&mut g, IMPERIAL, "Grand Moff Tarkin");
    power(&mut g, REBEL, "Military 3");
    assert_same_choices(
        options(&g, REBEL),
        vec![pick(IMPERIAL, "Grand Moff Tarkin"), pick(IMPERIAL, "Recon 2")],
    );
    answer(&mut g, REBEL, pick(IMPERIAL, "Grand Moff Tarkin"));
    assert_eq!(discard_pile(&g, IMPERIAL), ["Grand Moff Tarkin"]);
    assert_eq!(in_play(&g, IMPERIAL), ["Recon 2"]);
    assert_eq!(in_play(&g, REBEL), ["Military 3"]);
}

#[test]
fn r6_1_military_cannot_discard_your_own_card() {
    let mut g = hoth(REBEL, &["Military 3", "Military 4"], &["Recon 2", "Recon 3"]);
    set_up_play(&mut g, 2, 2, REBEL);
    power(&mut g, REBEL, "Military 3");
    assert_refused(
        &mut g,
        REBEL,
        Action::Answer {
            choice: pick(REBEL, "Military 4"),
        },
        "choice_not_offered",
    );
}

// ----- Diplomacy -----

#[test]
fn r6_2_diplomacy_discards_one_of_your_own_cards() {
    let mut g = hoth(REBEL, &["Diplomacy 3", "Military 4"], &["Recon 2"]);
    set_up_play(&mut g, 2, 1, REBEL);
    power(&mut g, REBEL, "Diplomacy 3");
    assert_same_choices(
        options(&g, REBEL),
        vec![pick(REBEL, "Diplomacy 3"), pick(REBEL, "Military 4")],
    );
    answer(&mut g, REBEL, pick(REBEL, "Military 4"));
    assert_eq!(discard_pile(&g, REBEL), ["Military 4"]);
    assert_eq!(in_play(&g, REBEL), ["Diplomacy 3"]);
    assert_eq!(in_play(&g, IMPERIAL), ["Recon 2"]);
}

// ----- Recon -----

#[test]
fn r6_3_recon_looks_at_two_discards_one_and_puts_the_other_back_secretly() {
    let mut g = hoth(REBEL, &["Recon 3"], &["Military 2", "Military 5", "Diplomacy 5"]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Recon 3");
    assert_eq!(
        options(&g, REBEL),
        [Choice::Deck { owner: REBEL }, Choice::Deck { owner: IMPERIAL }]
    );
    answer(&mut g, REBEL, Choice::Deck { owner: IMPERIAL });
    let pending = view(&g, Viewer::Seat(REBEL)).pending.unwrap();
    assert_eq!(
        pending.seen_cards,
        Some(vec![cref(IMPERIAL, "Military 5"), cref(IMPERIAL, "Diplomacy 5")])
    );
    assert_same_choices(
        options(&g, REBEL),
        vec![pick(IMPERIAL, "Military 5"), pick(IMPERIAL, "Diplomacy 5")],
    );
    let events = answer(&mut g, REBEL, pick(IMPERIAL, "Diplomacy 5"));
    assert_eq!(discard_pile(&g, IMPERIAL), ["Diplomacy 5"]);
    assert_eq!(deck(&g, IMPERIAL)[0], "Military 5");
    assert_eq!(public(&g, IMPERIAL).deck_size, 14);
    assert_eq!(
        seen_by(&g, Viewer::Seat(REBEL), IMPERIAL).deck_top,
        Some(card("Military 5"))
    );
    assert_eq!(seen_by(&g, Viewer::Seat(IMPERIAL), IMPERIAL).deck_top, None);
    assert_eq!(seen_by(&g, SPECTATOR, IMPERIAL).deck_top, None);
    let discarded = LogEntry::CardDiscarded {
        card: cref(IMPERIAL, "Diplomacy 5"),
        from: Zone::Deck,
        by: REBEL,
    };
    let on_top = |c: Option<&str>| LogEntry::CardOnTop {
        by: REBEL,
        deck: IMPERIAL,
        card: c.map(card),
        from: Zone::Deck,
    };
    assert_eq!(seen(&events, SPECTATOR), [discarded, on_top(None)]);
    assert_eq!(seen(&events, Viewer::Seat(IMPERIAL)), [discarded, on_top(None)]);
    assert_eq!(
        seen(&events, Viewer::Seat(REBEL)),
        [discarded, on_top(Some("Military 5"))]
    );
}

#[test]
fn r6_3_recon_on_your_own_deck_may_discard_the_second_card() {
    let mut g = hoth(REBEL, &["Recon 3", "Military 4", "Military 5"], &[]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Recon 3");
    answer(&mut g, REBEL, Choice::Deck { owner: REBEL });
    answer(&mut g, REBEL, pick(REBEL, "Military 5"));
    assert_eq!(discard_pile(&g, REBEL), ["Military 5"]);
    assert_eq!(deck(&g, REBEL)[0], "Military 4");
    assert_eq!(
        seen_by(&g, Viewer::Seat(REBEL), REBEL).deck_top,
        Some(card("Military 4"))
    );
    assert_eq!(seen_by(&g, Viewer::Seat(IMPERIAL), REBEL).deck_top, None);
}

#[test]
fn r6_3_recon_discarding_the_top_card_leaves_the_other_on_top_known_to_the_looker() {
    let mut g = hoth(IMPERIAL, &["Military 2", "Military 5", "Diplomacy 5"], &["Recon 3"]);
    play(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    power(&mut g, IMPERIAL, "Recon 3");
    answer(&mut g, IMPERIAL, Choice::Deck { owner: REBEL });
    answer(&mut g, IMPERIAL, pick(REBEL, "Military 5"));
    assert_eq!(discard_pile(&g, REBEL), ["Military 5"]);
    assert_eq!(deck(&g, REBEL)[0], "Diplomacy 5");
    assert_eq!(
        seen_by(&g, Viewer::Seat(IMPERIAL), REBEL).deck_top,
        Some(card("Diplomacy 5"))
    );
    assert_eq!(seen_by(&g, Viewer::Seat(REBEL), REBEL).deck_top, None);
}

// ----- The Force -----

#[test]
fn r6_4_the_force_exhausts_a_ready_card_whose_power_does_not_resolve() {
    let mut g = hoth(REBEL, &["The Force 3", "Military 2"], &["Military 4", "Recon 2"]);
    play_cards(&mut g, 2, 2);
    power(&mut g, REBEL, "The Force 3");
    assert_same_choices(
        options(&g, REBEL),
        vec![
            pick(REBEL, "Military 2"),
            pick(IMPERIAL, "Military 4"),
            pick(IMPERIAL, "Recon 2"),
        ],
    );
    answer(&mut g, REBEL, pick(IMPERIAL, "Military 4"));
    assert!(!is_ready(&g, IMPERIAL, "Military 4"));
    assert_eq!(g.total(IMPERIAL), 6, "an exhausted basic card keeps its value");
    assert_eq!(pending_step(&g), None);
    assert_eq!(
        in_play(&g, REBEL),
        ["The Force 3", "Military 2"],
        "Military 4's power did not resolve"
    );
    assert_eq!(turn(&g), IMPERIAL);
}

#[test]
fn r6_4_the_force_may_exhaust_your_own_card() {
    let mut g = hoth(REBEL, &["The Force 3", "Yoda"], &["Military 4"]);
    set_up_play(&mut g, 2, 1, REBEL);
    power(&mut g, REBEL, "The Force 3");
    answer(&mut g, REBEL, pick(REBEL, "Yoda"));
    assert!(!is_ready(&g, REBEL, "Yoda"));
    assert_eq!(influence(&g, REBEL), 2, "Yoda's power did not resolve");
    assert_eq!(g.total(REBEL), 3 + 1);
}

// ----- Chewbacca -----

#[test]
fn r6_5_chewbacca_exhausts_up_to_two_ready_opponent_cards() {
    let mut g = hoth(REBEL, &["Chewbacca"], &["Military 2", "Military 3", "Military 4"]);
    play_cards(&mut g, 1, 3);
    power(&mut g, REBEL, "Chewbacca");
    let opts = options(&g, REBEL);
    assert_eq!(opts.len(), 1 + 3 + 3, "none, one of three, or two of three");
    assert!(opts.contains(&Choice::NO_CARDS));
    answer(
        &mut g,
        REBEL,
        pick_all(&[(IMPERIAL, "Military 2"), (IMPERIAL, "Military 3")]),
    );
    assert!(!is_ready(&g, IMPERIAL, "Military 2"));
    assert!(!is_ready(&g, IMPERIAL, "Military 3"));
    assert!(is_ready(&g, IMPERIAL, "Military 4"));
    assert_eq!(in_play(&g, REBEL), ["Chewbacca"], "their powers did not resolve");
}

#[test]
fn r6_5_chewbacca_offers_only_ready_opponent_cards() {
    let mut g = hoth(
        REBEL,
        &["Chewbacca", "Military 5"],
        &["Grand Moff Tarkin", "Military 3"],
    );
    play_cards(&mut g, 2, 2);
    give_turn(&mut g, IMPERIAL);
    power(&mut g, IMPERIAL, "Grand Moff Tarkin");
    power(&mut g, REBEL, "Chewbacca");
    assert_same_choices(options(&g, REBEL), vec![Choice::NO_CARDS, pick(IMPERIAL, "Military 3")]);
}

// ----- Han Solo -----

#[test]
fn r6_6_han_solo_puts_any_card_of_the_deck_into_play() {
    let mut g = hoth(REBEL, &["Han Solo"], &[]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Han Solo");
    let own = view(&g, Viewer::Seat(REBEL)).pending.unwrap();
    let seen_cards = own.seen_cards.expect("Han Solo sees the whole deck");
    assert_eq!(
        sorted(seen_cards.iter().map(|c| name(c.card)).collect()),
        sorted(basics())
    );
    assert_eq!(options(&g, REBEL).len(), 16);
    let theirs = view(&g, Viewer::Seat(IMPERIAL)).pending.unwrap();
    assert_eq!((theirs.seen_cards, theirs.options), (None, None));
    let events = answer(&mut g, REBEL, pick(REBEL, "Recon 5"));
    assert_eq!(in_play(&g, REBEL), ["Han Solo", "Recon 5"]);
    assert!(is_ready(&g, REBEL, "Recon 5"));
    assert_eq!(public(&g, REBEL).deck_size, 15);
    assert!(!deck(&g, REBEL).contains(&"Recon 5"));
    assert!(seen(&events, SPECTATOR).contains(&LogEntry::DeckShuffled {
        faction: REBEL,
        reason: evr_rules::log::ShuffleReason::Power
    }));
}

#[test]
fn r6_6_han_solo_with_a_full_play_area_looks_and_shuffles_but_takes_nothing() {
    // README ruling 6.
    let mut g = endor(REBEL, &["Han Solo", "Military 2"], &[]);
    set_up_play(&mut g, 2, 1, REBEL);
    let events = power(&mut g, REBEL, "Han Solo");
    assert_eq!(pending_step(&g), None);
    assert_eq!(in_play(&g, REBEL), ["Han Solo", "Military 2"]);
    assert_eq!(public(&g, REBEL).deck_size, 15);
    let log = seen(&events, SPECTATOR);
    assert!(log.contains(&LogEntry::DeckSearched { by: REBEL, deck: REBEL }));
    assert!(log.contains(&LogEntry::DeckShuffled {
        faction: REBEL,
        reason: evr_rules::log::ShuffleReason::Power
    }));
}

// ----- Lando Calrissian -----

fn lando_in_play() -> Game {
    let mut g = hoth(
        REBEL,
        &[
            "Lando Calrissian",
            "Military 2",
            "Military 3",
            "Diplomacy 4",
            "Diplomacy 5",
        ],
        &[],
    );
    set_up_play(&mut g, 3, 1, REBEL);
    power(&mut g, REBEL, "Lando Calrissian");
    g
}

#[test]
fn r6_7_lando_discards_any_number_of_own_cards_then_plays_that_many() {
    let mut g = lando_in_play();
    let opts = options(&g, REBEL);
    assert_eq!(opts.len(), 8, "every subset of three cards");
    assert!(opts.contains(&Choice::NO_CARDS));
    answer(
        &mut g,
        REBEL,
        pick_all(&[(REBEL, "Lando Calrissian"), (REBEL, "Military 2")]),
    );
    assert_eq!(sorted(discard_pile(&g, REBEL)), ["Lando Calrissian", "Military 2"]);
    assert_eq!(in_play(&g, REBEL), ["Military 3", "Diplomacy 4", "Diplomacy 5"]);
    assert!(is_ready(&g, REBEL, "Diplomacy 4") && is_ready(&g, REBEL, "Diplomacy 5"));
}

#[test]
fn r6_7_lando_discarding_nothing_plays_nothing() {
    let mut g = lando_in_play();
    answer(&mut g, REBEL, Choice::NO_CARDS);
    assert_eq!(in_play(&g, REBEL), ["Lando Calrissian", "Military 2", "Military 3"]);
    assert_eq!(deck(&g, REBEL)[0], "Diplomacy 4");
}

// ----- Leia Organa -----

fn leia(event_name: &str, rebel_deck: &[&str], rebel_cards: usize) -> Game {
    let mut g = in_event(event_name, REBEL, rebel_deck, &[]);
    set_up_play(&mut g, rebel_cards, 1, REBEL);
    power(&mut g, REBEL, "Leia Organa");
    g
}

fn leia_choice(c: &str, to: Destination) -> Choice {
    Choice::Character { card: card(c), to }
}

#[test]
fn r6_8_leia_puts_a_reserve_character_into_play() {
    let mut g = leia("Battle of Hoth", &["Leia Organa"], 1);
    assert_eq!(options(&g, REBEL).len(), 7 * 2);
    answer(&mut g, REBEL, leia_choice("Yoda", Destination::PlayArea));
    assert_eq!(in_play(&g, REBEL), ["Leia Organa", "Yoda"]);
    assert!(is_ready(&g, REBEL, "Yoda"));
    assert!(!reserve(&g, REBEL).contains(&"Yoda"));
    assert_eq!(public(&g, REBEL).reserve_size, 6);
}

#[test]
fn r6_8_leia_shuffles_a_reserve_character_into_the_deck_secretly() {
    let mut g = leia("Battle of Hoth", &["Leia Organa"], 1);
    let events = answer(&mut g, REBEL, leia_choice("Yoda", Destination::Deck));
    assert!(deck(&g, REBEL).contains(&"Yoda"));
    assert_eq!(public(&g, REBEL).deck_size, 17);
    assert_eq!(public(&g, REBEL).reserve_size, 6);
    let secret = |c: Option<&str>| LogEntry::ReserveToDeck {
        faction: REBEL,
        card: c.map(card),
    };
    assert!(seen(&events, Viewer::Seat(REBEL)).contains(&secret(Some("Yoda"))));
    assert!(seen(&events, Viewer::Seat(IMPERIAL)).contains(&secret(None)));
    assert!(seen(&events, SPECTATOR).contains(&secret(None)));
}

#[test]
fn r6_8_with_a_full_play_area_leia_can_only_shuffle() {
    let g = leia("Control of Endor", &["Leia Organa", "Military 2"], 2);
    let opts = options(&g, REBEL);
    assert_eq!(opts.len(), 7);
    assert!(opts.iter().all(|c| matches!(
        c,
        Choice::Character {
            to: Destination::Deck,
            ..
        }
    )));
}

#[test]
fn r6_8_with_an_empty_reserve_leia_does_nothing() {
    let mut g = struggle(
        json!({"balance": "rebel", "rebel": {"deck": ["Leia Organa"], "reserve": []}}),
        Bureaucracy,
        Bureaucracy,
    );
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Leia Organa");
    assert_eq!(pending_step(&g), None);
    assert_eq!(in_play(&g, REBEL), ["Leia Organa"]);
    assert_eq!(public(&g, REBEL).deck_size, 23);
}

// ----- Luke Skywalker -----

fn luke() -> Game {
    let mut g = hoth(REBEL, &["Luke Skywalker", "Military 2"], &["Military 3"]);
    set_up_play(&mut g, 2, 1, REBEL);
    power(&mut g, REBEL, "Luke Skywalker");
    g
}

#[test]
fn r6_9_luke_discards_own_opponent_or_one_of_each() {
    let mut g = luke();
    assert_same_choices(
        options(&g, REBEL),
        vec![
            pick(REBEL, "Luke Skywalker"),
            pick(REBEL, "Military 2"),
            pick(IMPERIAL, "Military 3"),
            pick_all(&[(REBEL, "Luke Skywalker"), (IMPERIAL, "Military 3")]),
            pick_all(&[(REBEL, "Military 2"), (IMPERIAL, "Military 3")]),
        ],
    );
    answer(
        &mut g,
        REBEL,
        pick_all(&[(REBEL, "Military 2"), (IMPERIAL, "Military 3")]),
    );
    assert_eq!(discard_pile(&g, REBEL), ["Military 2"]);
    assert_eq!(discard_pile(&g, IMPERIAL), ["Military 3"]);
    assert_eq!(in_play(&g, REBEL), ["Luke Skywalker"]);
}

#[test]
fn r6_9_luke_must_discard_at_least_one_card() {
    let mut g = luke();
    assert_refused(
        &mut g,
        REBEL,
        Action::Answer {
            choice: Choice::NO_CARDS,
        },
        "choice_not_offered",
    );
}

#[test]
fn r6_9_luke_may_discard_only_an_opponent_card() {
    let mut g = luke();
    answer(&mut g, REBEL, pick(IMPERIAL, "Military 3"));
    assert_eq!(in_play(&g, REBEL), ["Luke Skywalker", "Military 2"]);
    assert!(in_play(&g, IMPERIAL).is_empty());
}

// ----- Obi-Wan Kenobi -----

#[test]
fn r6_10_obi_wan_puts_any_card_of_your_discard_pile_into_play() {
    let mut g = hoth(
        REBEL,
        &["Diplomacy 2", "Military 3", "Diplomacy 3", "Obi-Wan Kenobi"],
        &["Military 2"],
    );
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    pass(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Diplomacy 2");
    answer(&mut g, REBEL, pick(REBEL, "Military 3"));
    pass(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    pass(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Diplomacy 3");
    answer(&mut g, REBEL, pick(REBEL, "Diplomacy 2"));
    pass(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    // A third card for the pile, discarded by the opponent this time.
    power(&mut g, IMPERIAL, "Military 2");
    answer(&mut g, IMPERIAL, pick(REBEL, "Diplomacy 3"));
    assert_eq!(discard_pile(&g, REBEL), ["Military 3", "Diplomacy 2", "Diplomacy 3"]);
    power(&mut g, REBEL, "Obi-Wan Kenobi");
    assert_same_choices(
        options(&g, REBEL),
        vec![
            pick(REBEL, "Military 3"),
            pick(REBEL, "Diplomacy 2"),
            pick(REBEL, "Diplomacy 3"),
        ],
    );
    answer(&mut g, REBEL, pick(REBEL, "Military 3"));
    assert_eq!(in_play(&g, REBEL), ["Obi-Wan Kenobi", "Military 3"]);
    assert!(is_ready(&g, REBEL, "Military 3"));
    assert_eq!(discard_pile(&g, REBEL), ["Diplomacy 2", "Diplomacy 3"]);
}

#[test]
fn r6_10_obi_wan_takes_only_from_your_own_discard_pile() {
    let mut g = hoth(
        REBEL,
        &["Diplomacy 2", "Military 3", "Obi-Wan Kenobi"],
        &["Recon 2", "Recon 3"],
    );
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    pass(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Military 3"); // Recon 2, the only Imperial card, is discarded
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Diplomacy 2");
    answer(&mut g, REBEL, pick(REBEL, "Diplomacy 2"));
    pass(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    pass(&mut g, IMPERIAL);
    assert_eq!(discard_pile(&g, IMPERIAL), ["Recon 2"]);
    power(&mut g, REBEL, "Obi-Wan Kenobi");
    assert_eq!(pending_step(&g), None, "Diplomacy 2 was the only choice");
    assert_eq!(in_play(&g, REBEL), ["Military 3", "Obi-Wan Kenobi", "Diplomacy 2"]);
    assert_eq!(discard_pile(&g, IMPERIAL), ["Recon 2"]);
}

// ----- R2-D2 and C-3PO -----

fn r2d2(setup: Value, chosen: Strategy) -> Game {
    let mut g = struggle(setup, chosen, Bureaucracy);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "R2-D2 and C-3PO");
    g
}

#[test]
fn r6_11_r2d2_replaces_your_chosen_strategy_secretly() {
    let mut g = r2d2(
        json!({"balance": "rebel", "rebel": {"deck": ["R2-D2 and C-3PO"]}}),
        Bureaucracy,
    );
    assert_eq!(used(&g, REBEL), [Bureaucracy]);
    assert_eq!(g.testing_chosen_strategy(REBEL), None);
    assert_eq!(view(&g, SPECTATOR).pending.unwrap().owner, REBEL);
    assert_eq!(
        options(&g, REBEL),
        strategy_choices(&[Deception, DirectAssault, Infiltration, Support])
    );
    let events = answer(&mut g, REBEL, Choice::Strategy { strategy: Support });
    assert_eq!(g.testing_chosen_strategy(REBEL), Some(Support));
    assert_eq!(
        seen_by(&g, Viewer::Seat(REBEL), REBEL).strategy,
        StrategySlot::Known(Support)
    );
    assert_eq!(
        seen_by(&g, Viewer::Seat(IMPERIAL), REBEL).strategy,
        StrategySlot::Hidden
    );
    assert_eq!(seen_by(&g, SPECTATOR, REBEL).strategy, StrategySlot::Hidden);
    assert!(
        seen(&events, Viewer::Seat(IMPERIAL)).contains(&LogEntry::NewStrategyChosen {
            faction: REBEL,
            strategy: None
        })
    );
    assert_eq!(turn(&g), IMPERIAL);
}

#[test]
fn r6_11_the_new_strategy_is_the_one_that_resolves() {
    let mut g = struggle(
        json!({
            "balance": "rebel",
            "event_deck": ["Battle of Hoth"],
            "rebel": {"deck": ["R2-D2 and C-3PO", "Military 4"]},
            "imperial": {"deck": ["Military 2", "Military 4"]},
        }),
        Bureaucracy,
        Bureaucracy,
    );
    play_cards(&mut g, 2, 2);
    power(&mut g, REBEL, "R2-D2 and C-3PO");
    answer(
        &mut g,
        REBEL,
        Choice::Strategy {
            strategy: DirectAssault,
        },
    );
    end_struggle(&mut g);
    let r = last_result(&g);
    assert_eq!(r.strategies, [Some(DirectAssault), Some(Bureaucracy)]);
    assert_eq!(r.totals, [1 + 4 + 2, 6]);
    assert_eq!(r.winner, Some(REBEL));
    assert_eq!(used(&g, REBEL), [DirectAssault, Bureaucracy]);
}

#[test]
fn r6_11_the_same_strategy_returns_when_all_five_are_used() {
    let mut g = r2d2(
        json!({
            "balance": "rebel",
            "rebel": {"deck": ["R2-D2 and C-3PO"], "unused_strategies": ["bureaucracy"]},
        }),
        Bureaucracy,
    );
    assert!(used(&g, REBEL).is_empty(), "R-5.10: all five came back at once");
    assert_eq!(options(&g, REBEL), strategy_choices(&Strategy::ALL));
    answer(&mut g, REBEL, Choice::Strategy { strategy: Bureaucracy });
    assert_eq!(g.testing_chosen_strategy(REBEL), Some(Bureaucracy));
    assert_eq!(unused(&g, REBEL), [Deception, DirectAssault, Infiltration, Support]);
}

// ----- Yoda -----

#[test]
fn r6_12_yoda_gains_one_influence() {
    let mut g = hoth(REBEL, &["Yoda"], &[]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    let events = power(&mut g, REBEL, "Yoda");
    assert_eq!(influence(&g, REBEL), 3);
    assert_eq!(influence(&g, IMPERIAL), 2);
    assert!(seen(&events, SPECTATOR).contains(&LogEntry::InfluenceGained {
        faction: REBEL,
        amount: 1,
        total: 3
    }));
}

// ----- Admiral Piett -----

/// Rebel discard pile: Military 2; Imperial discard pile: Military 3; Piett is being used.
fn piett() -> Game {
    let mut g = hoth(
        IMPERIAL,
        &["Military 2", "Military 4"],
        &["Military 3", "Admiral Piett"],
    );
    play(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    power(&mut g, IMPERIAL, "Military 3"); // the Rebel's only card
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Military 4");
    answer(&mut g, REBEL, pick(IMPERIAL, "Military 3"));
    power(&mut g, IMPERIAL, "Admiral Piett");
    g
}

#[test]
fn r6_13_piett_puts_a_card_from_either_discard_pile_on_top_of_its_owners_deck() {
    let mut g = piett();
    assert_same_choices(
        options(&g, IMPERIAL),
        vec![pick(REBEL, "Military 2"), pick(IMPERIAL, "Military 3")],
    );
    let events = answer(&mut g, IMPERIAL, pick(REBEL, "Military 2"));
    assert_eq!(deck(&g, REBEL)[0], "Military 2");
    assert!(discard_pile(&g, REBEL).is_empty());
    assert_eq!(discard_pile(&g, IMPERIAL), ["Military 3"]);
    for v in Viewer::ALL {
        assert_eq!(seen_by(&g, v, REBEL).deck_top, Some(card("Military 2")), "{v:?}");
    }
    assert!(seen(&events, SPECTATOR).contains(&LogEntry::CardOnTop {
        by: IMPERIAL,
        deck: REBEL,
        card: Some(card("Military 2")),
        from: Zone::DiscardPile,
    }));
    play(&mut g, REBEL);
    assert_eq!(in_play(&g, REBEL), ["Military 4", "Military 2"]);
}

#[test]
fn r6_13_piett_may_take_from_your_own_discard_pile() {
    let mut g = piett();
    answer(&mut g, IMPERIAL, pick(IMPERIAL, "Military 3"));
    assert_eq!(deck(&g, IMPERIAL)[0], "Military 3");
    assert_eq!(
        seen_by(&g, Viewer::Seat(REBEL), IMPERIAL).deck_top,
        Some(card("Military 3"))
    );
}

// ----- Boba Fett -----

fn boba() -> Game {
    let mut g = hoth(REBEL, &["Military 2", "Military 3"], &["Boba Fett"]);
    play_cards(&mut g, 2, 1);
    power(&mut g, IMPERIAL, "Boba Fett");
    g
}

#[test]
fn r6_14_boba_fett_discards_then_exhausts() {
    let mut g = boba();
    assert_same_choices(
        options(&g, IMPERIAL),
        vec![Choice::NO_CARDS, pick(REBEL, "Military 2"), pick(REBEL, "Military 3")],
    );
    answer(&mut g, IMPERIAL, pick(REBEL, "Military 2"));
    assert_same_choices(options(&g, IMPERIAL), vec![Choice::NO_CARDS, pick(REBEL, "Military 3")]);
    answer(&mut g, IMPERIAL, pick(REBEL, "Military 3"));
    assert_eq!(discard_pile(&g, REBEL), ["Military 2"]);
    assert!(!is_ready(&g, REBEL, "Military 3"));
    assert_eq!(turn(&g), REBEL);
}

#[test]
fn r6_14_boba_fett_may_only_discard() {
    let mut g = boba();
    answer(&mut g, IMPERIAL, pick(REBEL, "Military 2"));
    answer(&mut g, IMPERIAL, Choice::NO_CARDS);
    assert!(is_ready(&g, REBEL, "Military 3"));
}

#[test]
fn r6_14_boba_fett_skipping_the_discard_must_exhaust() {
    let mut g = boba();
    answer(&mut g, IMPERIAL, Choice::NO_CARDS);
    assert_same_choices(
        options(&g, IMPERIAL),
        vec![pick(REBEL, "Military 2"), pick(REBEL, "Military 3")],
    );
    answer(&mut g, IMPERIAL, pick(REBEL, "Military 3"));
    assert!(discard_pile(&g, REBEL).is_empty());
    assert!(!is_ready(&g, REBEL, "Military 3"));
}

#[test]
fn r6_14_boba_fett_must_discard_when_nothing_can_be_exhausted() {
    let mut g = hoth(REBEL, &["Yoda"], &["Boba Fett"]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Yoda");
    power(&mut g, IMPERIAL, "Boba Fett");
    assert_eq!(pending_step(&g), None, "the discard is the only thing Boba Fett can do");
    assert_eq!(discard_pile(&g, REBEL), ["Yoda"]);
    assert!(in_play(&g, REBEL).is_empty());
}

// ----- Darth Vader -----

#[test]
fn r6_15_vader_sends_an_exhausted_character_to_its_owners_reserve() {
    let mut g = hoth(REBEL, &["Yoda", "Military 2"], &["Darth Vader"]);
    play_cards(&mut g, 2, 1);
    give_turn(&mut g, REBEL);
    power(&mut g, REBEL, "Yoda");
    power(&mut g, IMPERIAL, "Darth Vader");
    assert_same_choices(
        options(&g, IMPERIAL),
        vec![pick(REBEL, "Yoda"), pick(IMPERIAL, "Darth Vader")],
    );
    answer(&mut g, IMPERIAL, pick(REBEL, "Yoda"));
    assert!(reserve(&g, REBEL).contains(&"Yoda"));
    assert!(discard_pile(&g, REBEL).is_empty());
    assert_eq!(in_play(&g, REBEL), ["Military 2"]);
    for v in Viewer::ALL {
        assert!(seen_by(&g, v, REBEL).reserve_known.contains(card("Yoda")), "{v:?}");
    }
}

#[test]
fn r6_15_vader_sends_an_exhausted_basic_card_to_the_discard_pile() {
    let mut g = hoth(IMPERIAL, &["Military 3"], &["Military 2", "Darth Vader"]);
    play_cards(&mut g, 1, 2);
    power(&mut g, REBEL, "Military 3");
    answer(&mut g, REBEL, pick(IMPERIAL, "Military 2"));
    power(&mut g, IMPERIAL, "Darth Vader");
    answer(&mut g, IMPERIAL, pick(REBEL, "Military 3"));
    assert_eq!(discard_pile(&g, REBEL), ["Military 3"]);
}

#[test]
fn r6_15_vader_as_the_only_exhausted_card_must_take_himself() {
    let mut g = hoth(REBEL, &["Military 2"], &["Darth Vader"]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    pass(&mut g, REBEL);
    power(&mut g, IMPERIAL, "Darth Vader");
    assert_eq!(pending_step(&g), None);
    assert!(reserve(&g, IMPERIAL).contains(&"Darth Vader"));
    assert!(in_play(&g, IMPERIAL).is_empty());
    assert!(
        seen_by(&g, Viewer::Seat(REBEL), IMPERIAL)
            .reserve_known
            .contains(card("Darth Vader"))
    );
}

// ----- Emperor Palpatine -----

fn palpatine(rebel: Value, rebel_strategy: Strategy) -> Game {
    let mut g = struggle(
        json!({
            "balance": "imperial",
            "rebel": rebel,
            "imperial": {"deck": ["Emperor Palpatine"]},
        }),
        rebel_strategy,
        Bureaucracy,
    );
    play(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    power(&mut g, IMPERIAL, "Emperor Palpatine");
    g
}

#[test]
fn r6_16_palpatine_makes_the_opponent_replace_their_strategy() {
    let mut g = palpatine(json!({}), DirectAssault);
    assert_eq!(used(&g, REBEL), [DirectAssault]);
    assert_eq!(view(&g, SPECTATOR).pending.unwrap().owner, REBEL);
    assert!(g.legal_actions(IMPERIAL).is_empty());
    assert_refused(
        &mut g,
        IMPERIAL,
        Action::Answer {
            choice: Choice::Strategy { strategy: Deception },
        },
        "not_your_choice",
    );
    assert_eq!(
        options(&g, REBEL),
        strategy_choices(&[Deception, Infiltration, Bureaucracy, Support])
    );
    answer(&mut g, REBEL, Choice::Strategy { strategy: Support });
    assert_eq!(g.testing_chosen_strategy(REBEL), Some(Support));
    assert_eq!(
        seen_by(&g, Viewer::Seat(IMPERIAL), REBEL).strategy,
        StrategySlot::Hidden
    );
    assert_eq!(turn(&g), REBEL, "the turn passes once the choice is made");
}

#[test]
fn r6_16_the_same_strategy_returns_when_all_five_are_used() {
    let mut g = palpatine(json!({"unused_strategies": ["deception"]}), Deception);
    assert!(used(&g, REBEL).is_empty());
    assert_eq!(options(&g, REBEL), strategy_choices(&Strategy::ALL));
    answer(&mut g, REBEL, Choice::Strategy { strategy: Deception });
    assert_eq!(g.testing_chosen_strategy(REBEL), Some(Deception));
}

// ----- General Veers -----

#[test]
fn r6_17_veers_discards_the_top_card_then_every_lower_opponent_card() {
    let mut g = hoth(
        REBEL,
        &["Military 2", "Diplomacy 4", "Military 5"],
        &["General Veers", "Military 4"],
    );
    play_cards(&mut g, 3, 1);
    let events = power(&mut g, IMPERIAL, "General Veers");
    assert_eq!(discard_pile(&g, IMPERIAL), ["Military 4"]);
    assert_eq!(discard_pile(&g, REBEL), ["Military 2"]);
    assert_eq!(
        in_play(&g, REBEL),
        ["Diplomacy 4", "Military 5"],
        "4 is not lower than 4"
    );
    assert!(seen(&events, SPECTATOR).contains(&LogEntry::CardDiscarded {
        card: cref(IMPERIAL, "Military 4"),
        from: Zone::DeckTop,
        by: IMPERIAL,
    }));
}

#[test]
fn r6_17_a_character_on_top_counts_its_ready_value_six() {
    let mut g = hoth(
        REBEL,
        &["Yoda", "Chewbacca", "Military 5"],
        &["General Veers", "Grand Moff Tarkin"],
    );
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    pass(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    pass(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Yoda");
    power(&mut g, IMPERIAL, "General Veers");
    assert_eq!(discard_pile(&g, IMPERIAL), ["Grand Moff Tarkin"]);
    assert_eq!(
        discard_pile(&g, REBEL),
        ["Yoda", "Military 5"],
        "exhausted Yoda is worth 1"
    );
    assert_eq!(in_play(&g, REBEL), ["Chewbacca"]);
}

// ----- Grand Moff Tarkin -----

#[test]
fn r6_18_tarkin_makes_the_opponent_lose_two_influence() {
    let mut g = struggle(
        json!({"balance": "imperial", "rebel": {"influence": 3}, "imperial": {"deck": ["Grand Moff Tarkin"]}}),
        Bureaucracy,
        Bureaucracy,
    );
    play(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    power(&mut g, IMPERIAL, "Grand Moff Tarkin");
    assert_eq!(influence(&g, REBEL), 1);
    assert_eq!(influence(&g, IMPERIAL), 2);
}

// ----- IG-88 -----

#[test]
fn r6_19_ig88_picks_two_cards_discards_one_and_puts_the_other_on_top() {
    let mut g = hoth(IMPERIAL, &["Military 2", "Yoda"], &["IG-88"]);
    play(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    power(&mut g, IMPERIAL, "IG-88");
    answer(&mut g, IMPERIAL, Choice::Deck { owner: REBEL });
    let own = view(&g, Viewer::Seat(IMPERIAL)).pending.unwrap();
    let seen_cards = own.seen_cards.expect("IG-88 looks through the deck");
    assert_eq!(seen_cards.len(), 16);
    assert!(seen_cards.contains(&cref(REBEL, "Yoda")));
    assert_eq!(view(&g, Viewer::Seat(REBEL)).pending.unwrap().seen_cards, None);
    assert_eq!(options(&g, IMPERIAL).len(), 16 * 15);
    let events = answer(
        &mut g,
        IMPERIAL,
        Choice::DiscardAndTop {
            discard: cref(REBEL, "Yoda"),
            top: cref(REBEL, "Recon 4"),
        },
    );
    assert_eq!(discard_pile(&g, REBEL), ["Yoda"]);
    assert_eq!(deck(&g, REBEL)[0], "Recon 4");
    assert_eq!(public(&g, REBEL).deck_size, 15);
    assert_eq!(
        seen_by(&g, Viewer::Seat(IMPERIAL), REBEL).deck_top,
        Some(card("Recon 4"))
    );
    assert_eq!(seen_by(&g, Viewer::Seat(REBEL), REBEL).deck_top, None);
    assert_eq!(seen_by(&g, SPECTATOR, REBEL).deck_top, None);
    assert!(seen(&events, SPECTATOR).contains(&LogEntry::CardDiscarded {
        card: cref(REBEL, "Yoda"),
        from: Zone::Deck,
        by: IMPERIAL,
    }));
    assert!(seen(&events, Viewer::Seat(REBEL)).contains(&LogEntry::CardOnTop {
        by: IMPERIAL,
        deck: REBEL,
        card: None,
        from: Zone::Deck,
    }));
}

#[test]
fn r6_19_ig88_shuffles_the_deck_before_putting_the_card_on_top() {
    let mut g = hoth(IMPERIAL, &[], &["IG-88"]);
    play(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    power(&mut g, IMPERIAL, "IG-88");
    answer(&mut g, IMPERIAL, Choice::Deck { owner: REBEL });
    let before: Vec<&str> = deck(&g, REBEL)
        .into_iter()
        .filter(|c| *c != "Military 5" && *c != "Recon 2")
        .collect();
    answer(
        &mut g,
        IMPERIAL,
        Choice::DiscardAndTop {
            discard: cref(REBEL, "Military 5"),
            top: cref(REBEL, "Recon 2"),
        },
    );
    let after = deck(&g, REBEL);
    assert_eq!(after[0], "Recon 2");
    assert_eq!(sorted(after[1..].to_vec()), sorted(before.clone()));
    assert_ne!(after[1..], before[..], "the other 14 cards were shuffled");
}

#[test]
fn r6_19_ig88_may_search_your_own_deck() {
    let mut g = hoth(IMPERIAL, &[], &["IG-88"]);
    play(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    power(&mut g, IMPERIAL, "IG-88");
    answer(&mut g, IMPERIAL, Choice::Deck { owner: IMPERIAL });
    answer(
        &mut g,
        IMPERIAL,
        Choice::DiscardAndTop {
            discard: cref(IMPERIAL, "Military 5"),
            top: cref(IMPERIAL, "Diplomacy 2"),
        },
    );
    assert_eq!(discard_pile(&g, IMPERIAL), ["Military 5"]);
    assert_eq!(deck(&g, IMPERIAL)[0], "Diplomacy 2");
    assert_eq!(
        seen_by(&g, Viewer::Seat(IMPERIAL), IMPERIAL).deck_top,
        Some(card("Diplomacy 2"))
    );
}

#[test]
fn r6_19_ig88_on_a_short_deck_reshuffles_the_discard_pile_beneath_first() {
    let mut g = lando_cycle(&["IG-88"], 3, Bureaucracy);
    assert_eq!(deck(&g, REBEL), ["Recon 5"]);
    power(&mut g, IMPERIAL, "IG-88");
    answer(&mut g, IMPERIAL, Choice::Deck { owner: REBEL });
    assert_eq!(options(&g, IMPERIAL).len(), 12 * 11);
    answer(
        &mut g,
        IMPERIAL,
        Choice::DiscardAndTop {
            discard: cref(REBEL, "Recon 5"),
            top: cref(REBEL, "Military 2"),
        },
    );
    assert_eq!(discard_pile(&g, REBEL), ["Recon 5"]);
    assert_eq!(deck(&g, REBEL)[0], "Military 2");
    assert_eq!(public(&g, REBEL).deck_size, 11);
}

// ----- Jabba the Hutt -----

fn jabba(event_name: &str) -> Game {
    let mut g = in_event(
        event_name,
        IMPERIAL,
        &[],
        &["Jabba the Hutt", "Military 2", "Military 5"],
    );
    set_up_play(&mut g, 1, 2, IMPERIAL);
    power(&mut g, IMPERIAL, "Jabba the Hutt");
    g
}

#[test]
fn r6_20_jabba_looks_at_the_top_card_may_discard_then_may_play_it() {
    let mut g = jabba("Battle of Hoth");
    let own = view(&g, Viewer::Seat(IMPERIAL)).pending.unwrap();
    assert_eq!(own.seen_cards, Some(vec![cref(IMPERIAL, "Military 5")]));
    assert_eq!(view(&g, Viewer::Seat(REBEL)).pending.unwrap().seen_cards, None);
    assert_same_choices(
        options(&g, IMPERIAL),
        vec![
            Choice::NO_CARDS,
            pick(IMPERIAL, "Jabba the Hutt"),
            pick(IMPERIAL, "Military 2"),
        ],
    );
    answer(&mut g, IMPERIAL, pick(IMPERIAL, "Military 2"));
    assert_eq!(
        options(&g, IMPERIAL),
        [Choice::Play { play: true }, Choice::Play { play: false }]
    );
    answer(&mut g, IMPERIAL, Choice::Play { play: true });
    assert_eq!(in_play(&g, IMPERIAL), ["Jabba the Hutt", "Military 5"]);
    assert_eq!(discard_pile(&g, IMPERIAL), ["Military 2"]);
}

#[test]
fn r6_20_jabba_may_do_neither() {
    let mut g = jabba("Battle of Hoth");
    answer(&mut g, IMPERIAL, Choice::NO_CARDS);
    answer(&mut g, IMPERIAL, Choice::Play { play: false });
    assert_eq!(in_play(&g, IMPERIAL), ["Jabba the Hutt", "Military 2"]);
    assert_eq!(deck(&g, IMPERIAL)[0], "Military 5");
    assert_eq!(
        seen_by(&g, Viewer::Seat(IMPERIAL), IMPERIAL).deck_top,
        Some(card("Military 5"))
    );
    assert_eq!(seen_by(&g, Viewer::Seat(REBEL), IMPERIAL).deck_top, None);
}

#[test]
fn r6_20_jabba_discards_before_playing_so_a_full_play_area_can_make_room() {
    let mut g = jabba("Control of Endor");
    answer(&mut g, IMPERIAL, pick(IMPERIAL, "Jabba the Hutt"));
    answer(&mut g, IMPERIAL, Choice::Play { play: true });
    assert_eq!(in_play(&g, IMPERIAL), ["Military 2", "Military 5"]);
    assert_eq!(discard_pile(&g, IMPERIAL), ["Jabba the Hutt"]);
}

#[test]
fn r6_15_vader_may_send_your_own_exhausted_character_to_your_reserve() {
    let mut g = hoth(REBEL, &["Military 2"], &["Boba Fett", "Darth Vader"]);
    play_cards(&mut g, 1, 2);
    give_turn(&mut g, IMPERIAL);
    power(&mut g, IMPERIAL, "Boba Fett");
    answer(&mut g, IMPERIAL, Choice::NO_CARDS);
    // The exhaust step must exhaust: Military 2 or Darth Vader are ready; take Military 2.
    answer(&mut g, IMPERIAL, pick(REBEL, "Military 2"));
    pass(&mut g, REBEL);
    power(&mut g, IMPERIAL, "Darth Vader");
    assert_same_choices(
        options(&g, IMPERIAL),
        vec![
            pick(REBEL, "Military 2"),
            pick(IMPERIAL, "Boba Fett"),
            pick(IMPERIAL, "Darth Vader"),
        ],
    );
    answer(&mut g, IMPERIAL, pick(IMPERIAL, "Boba Fett"));
    assert!(reserve(&g, IMPERIAL).contains(&"Boba Fett"));
    assert!(discard_pile(&g, IMPERIAL).is_empty());
}

#[test]
fn r6_20_the_card_jabba_plays_enters_ready() {
    let mut g = jabba("Battle of Hoth");
    answer(&mut g, IMPERIAL, Choice::NO_CARDS);
    answer(&mut g, IMPERIAL, Choice::Play { play: true });
    assert!(is_ready(&g, IMPERIAL, "Military 5"));
    assert_eq!(
        seen_by(&g, Viewer::Seat(IMPERIAL), IMPERIAL).deck_top,
        None,
        "a new top card"
    );
}

#[test]
fn r6_9_luke_alone_against_an_empty_play_area_must_discard_himself() {
    let mut g = hoth(IMPERIAL, &["Luke Skywalker"], &["Diplomacy 2"]);
    play(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    power(&mut g, IMPERIAL, "Diplomacy 2"); // its only target is itself
    power(&mut g, REBEL, "Luke Skywalker");
    assert_eq!(pending_step(&g), None, "the only possible discard is forced");
    assert_eq!(discard_pile(&g, REBEL), ["Luke Skywalker"]);
}

#[test]
fn r6_14_boba_fett_with_an_empty_opponent_play_area_must_exhaust() {
    let mut g = hoth(IMPERIAL, &["Diplomacy 2"], &["Boba Fett", "Military 4"]);
    play(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Diplomacy 2");
    assert!(in_play(&g, REBEL).is_empty());
    power(&mut g, IMPERIAL, "Boba Fett");
    // Nothing to discard: the exhaust step is the only part left, and it is required (its only
    // option, Boba Fett's own Military 4, is applied at once).
    assert_eq!(pending_step(&g), None);
    assert!(!is_ready(&g, IMPERIAL, "Military 4"));
}
