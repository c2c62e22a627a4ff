//! R-8 Event effects.

use serde_json::Value;

use crate::support::*;

fn banned(events: &[evr_rules::Event], seat: Faction, card_name: &str) -> bool {
    seen(events, SPECTATOR).contains(&LogEntry::PowerUsed {
        faction: seat,
        card: card(card_name),
        banned: true,
    })
}

/// A round of `event_name` where each player plays the listed cards and both passes follow; both
/// players chose Deception, so the strategies cancel out and the higher total wins.
fn won(event_name: &str, rebel: Value, imperial: Value) -> Game {
    round(
        json!({
            "event_deck": [event_name, "Battle of Hoth", "Battle of Yavin", "Heart of the Empire"],
            "balance": "rebel",
            "rebel": rebel,
            "imperial": imperial,
        }),
        Deception,
        Deception,
    )
}

// ----- bans -----

#[test]
fn r8_1_attack_on_echo_base_bans_diplomacy_only() {
    let mut g = in_event(
        "Attack on Echo Base",
        REBEL,
        &["Diplomacy 3", "Military 2"],
        &["Recon 2"],
    );
    set_up_play(&mut g, 2, 1, REBEL);
    let events = power(&mut g, REBEL, "Diplomacy 3");
    assert!(banned(&events, REBEL, "Diplomacy 3"));
    assert_eq!(pending_step(&g), None);
    assert_eq!(in_play(&g, REBEL), ["Diplomacy 3", "Military 2"]);
    pass(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Military 2");
    assert_eq!(discard_pile(&g, IMPERIAL), ["Recon 2"], "Military still works");
}

#[test]
fn r8_1_evacuation_of_echo_base_bans_recon() {
    let mut g = in_event("Evacuation of Echo Base", REBEL, &["Recon 3"], &[]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    let events = power(&mut g, REBEL, "Recon 3");
    assert!(banned(&events, REBEL, "Recon 3"));
    assert_eq!(pending_step(&g), None);
    assert!(discard_pile(&g, REBEL).is_empty() && discard_pile(&g, IMPERIAL).is_empty());
}

#[test]
fn r8_1_most_desperate_hour_bans_military() {
    let mut g = in_event("Most Desperate Hour", REBEL, &["Military 3"], &["Recon 2"]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    let events = power(&mut g, REBEL, "Military 3");
    assert!(banned(&events, REBEL, "Military 3"));
    assert_eq!(in_play(&g, IMPERIAL), ["Recon 2"]);
}

#[test]
fn r8_1_battle_of_endor_bans_the_force() {
    let mut g = in_event("Battle of Endor", IMPERIAL, &["Recon 2"], &["The Force 3"]);
    play(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    let events = power(&mut g, IMPERIAL, "The Force 3");
    assert!(banned(&events, IMPERIAL, "The Force 3"));
    assert!(is_ready(&g, REBEL, "Recon 2"));
}

#[test]
fn r8_1_duel_on_cloud_city_bans_every_character_but_luke_and_vader() {
    let mut g = in_event(
        "Duel on Cloud City",
        REBEL,
        &["Yoda", "Luke Skywalker", "Military 2"],
        &["Emperor Palpatine", "Darth Vader", "Military 3"],
    );
    play_cards(&mut g, 3, 3);
    let events = power(&mut g, REBEL, "Yoda");
    assert!(banned(&events, REBEL, "Yoda"));
    assert_eq!(influence(&g, REBEL), 2);
    let events = power(&mut g, IMPERIAL, "Emperor Palpatine");
    assert!(banned(&events, IMPERIAL, "Emperor Palpatine"));
    assert_eq!(pending_step(&g), None);
    assert_eq!(g.testing_chosen_strategy(REBEL), Some(Bureaucracy));
    let events = power(&mut g, REBEL, "Luke Skywalker");
    assert!(!banned(&events, REBEL, "Luke Skywalker"));
    answer(&mut g, REBEL, pick(IMPERIAL, "Emperor Palpatine"));
    assert_eq!(discard_pile(&g, IMPERIAL), ["Emperor Palpatine"]);
    power(&mut g, IMPERIAL, "Darth Vader");
    answer(&mut g, IMPERIAL, pick(REBEL, "Luke Skywalker"));
    assert!(reserve(&g, REBEL).contains(&"Luke Skywalker"));
    power(&mut g, REBEL, "Military 2");
    answer(&mut g, REBEL, pick(IMPERIAL, "Military 3"));
    assert_eq!(
        discard_pile(&g, IMPERIAL),
        ["Emperor Palpatine", "Military 3"],
        "basic cards work"
    );
}

// ----- the loser loses 2 influence -----

#[test]
fn r8_2_acquire_the_death_star_plans_costs_the_loser_two_influence() {
    let g = won(
        "Acquire the Death Star Plans",
        json!({"deck": TEN}),
        json!({"deck": EIGHT}),
    );
    assert_eq!(last_result(&g).winner, Some(REBEL));
    assert_eq!(influence(&g, REBEL), 2 + 1);
    assert_eq!(influence(&g, IMPERIAL), 0);
}

#[test]
fn r8_2_destroy_the_shield_generator_costs_the_loser_two_influence_at_most_all() {
    // Capacity 2, objective 8.
    let g = won(
        "Destroy the Shield Generator",
        json!({"deck": ["Military 5", "Diplomacy 3"]}),
        json!({"deck": ["Military 4", "Diplomacy 3"], "influence": 1}),
    );
    assert_eq!(last_result(&g).winner, Some(REBEL));
    assert_eq!(influence(&g, IMPERIAL), 0);
    assert_eq!(influence(&g, REBEL), 3);
}

#[test]
fn r8_2_bureaucracy_is_paid_before_the_loss() {
    // before: 0 + 2 - 2 = 0 (the other order would leave 2).
    let g = round(
        json!({
            "event_deck": ["Acquire the Death Star Plans"],
            "balance": "rebel",
            "rebel": {"deck": TEN},
            "imperial": {"deck": EIGHT, "influence": 0},
        }),
        Infiltration,
        Bureaucracy,
    );
    assert_eq!(last_result(&g).winner, Some(REBEL));
    assert_eq!(influence(&g, IMPERIAL), 0);
}

// ----- Balance of the Force -----

fn balance_of_the_force() -> Game {
    // Capacity 5, objective 7.
    let g = won(
        "Balance of the Force",
        json!({"deck": ["Military 4", "Military 3"]}),
        json!({"deck": ["Military 2", "Military 3"]}),
    );
    assert_eq!(last_result(&g).winner, Some(REBEL));
    g
}

#[test]
fn r8_3_the_winner_sees_the_top_three_events_and_reorders_them() {
    let mut g = balance_of_the_force();
    let next = ["Battle of Hoth", "Battle of Yavin", "Heart of the Empire"].map(event);
    let own = view(&g, Viewer::Seat(REBEL)).pending.expect("the winner's choice");
    assert_eq!(own.owner, REBEL);
    assert_eq!(own.seen_events, Some(next.to_vec()));
    for v in [Viewer::Seat(IMPERIAL), SPECTATOR] {
        let p = view(&g, v).pending.unwrap();
        assert_eq!((p.seen_events, p.options), (None, None));
    }
    assert_eq!(options(&g, REBEL).len(), 6, "any order of three");
    let order = [next[2], next[1], next[0]];
    let events = answer(
        &mut g,
        REBEL,
        Choice::EventOrder {
            events: EventOrder::new(&order).unwrap(),
        },
    );
    assert!(
        seen(&events, Viewer::Seat(IMPERIAL)).contains(&LogEntry::EventsReordered {
            by: REBEL,
            count: 3,
            order: None
        })
    );
    // The next round has started with the new top event.
    assert_eq!(g.round(), 2);
    assert_eq!(view(&g, SPECTATOR).event.unwrap().event, event("Heart of the Empire"));
    assert_eq!(g.testing_event_deck()[..2], [next[1], next[0]]);
    assert_eq!(view(&g, Viewer::Seat(REBEL)).known_next_events, [next[1], next[0]]);
    assert!(view(&g, Viewer::Seat(IMPERIAL)).known_next_events.is_empty());
    assert!(view(&g, SPECTATOR).known_next_events.is_empty());
}

#[test]
fn r8_3_the_winner_may_keep_the_order() {
    let mut g = balance_of_the_force();
    let next = ["Battle of Hoth", "Battle of Yavin", "Heart of the Empire"].map(event);
    answer(
        &mut g,
        REBEL,
        Choice::EventOrder {
            events: EventOrder::new(&next).unwrap(),
        },
    );
    assert_eq!(view(&g, SPECTATOR).event.unwrap().event, next[0]);
    assert_eq!(view(&g, Viewer::Seat(REBEL)).known_next_events, [next[1], next[2]]);
}

// ----- Create a Diversion -----

#[test]
fn r8_4_create_a_diversion_draws_the_losers_next_strategy_at_random() {
    // Capacity 2, objective 5.
    let mut g = won(
        "Create a Diversion",
        json!({"deck": ["Military 3", "Military 2"]}),
        json!({"deck": ["Military 2", "Diplomacy 2"]}),
    );
    assert_eq!(last_result(&g).winner, Some(REBEL));
    assert_eq!(g.round(), 2);
    assert!(public(&g, IMPERIAL).modifiers.diversion);
    let drawn = g.testing_chosen_strategy(IMPERIAL).expect("drawn when Planning began");
    assert_ne!(drawn, Deception, "Deception is used");
    assert!(g.legal_actions(IMPERIAL).is_empty());
    assert_eq!(view(&g, SPECTATOR).planning.unwrap().chooser, [Some(REBEL), None]);
    assert_eq!(
        seen_by(&g, Viewer::Seat(IMPERIAL), IMPERIAL).strategy,
        StrategySlot::Known(drawn)
    );
    assert_eq!(
        seen_by(&g, Viewer::Seat(REBEL), IMPERIAL).strategy,
        StrategySlot::Hidden
    );
    choose_for(&mut g, REBEL, REBEL, Support);
    assert_eq!(phase(&g), PhaseName::Struggle);
}

// ----- Display of Power -----

#[test]
fn r8_5_display_of_power_moves_one_unused_strategy_of_the_loser_to_used() {
    let mut g = won("Display of Power", json!({"deck": TEN}), json!({"deck": EIGHT}));
    assert_eq!(view(&g, SPECTATOR).pending.unwrap().owner, REBEL);
    assert_eq!(
        options(&g, REBEL),
        strategy_choices(&[DirectAssault, Infiltration, Bureaucracy, Support])
    );
    answer(&mut g, REBEL, Choice::Strategy { strategy: Support });
    assert_eq!(g.round(), 2);
    assert_eq!(used(&g, IMPERIAL), [Deception, Support]);
    assert_eq!(unused(&g, IMPERIAL), [DirectAssault, Infiltration, Bureaucracy]);
    assert_eq!(used(&g, REBEL), [Deception], "the winner is unaffected");
}

#[test]
fn r8_5_display_of_power_taking_the_last_unused_strategy_returns_all_five() {
    // The Rebel wins by Deception; the Imperial keeps Support unused, Display of Power takes it.
    let g = round(
        json!({
            "event_deck": ["Display of Power"],
            "balance": "rebel",
            "rebel": {"deck": EIGHT},
            "imperial": {"deck": TEN, "unused_strategies": ["bureaucracy", "support"]},
        }),
        Deception,
        Bureaucracy,
    );
    assert_eq!(last_result(&g).winner, Some(REBEL));
    assert_eq!(g.round(), 2, "the only option was applied at once");
    assert!(used(&g, IMPERIAL).is_empty());
    assert_eq!(unused(&g, IMPERIAL), Strategy::ALL.to_vec());
}

#[test]
fn r8_5_display_of_power_with_no_unused_strategy_does_nothing() {
    // README ruling 8.
    let g = round(
        json!({
            "event_deck": ["Display of Power"],
            "balance": "rebel",
            "rebel": {"deck": EIGHT},
            "imperial": {"deck": TEN, "unused_strategies": ["bureaucracy"]},
        }),
        Deception,
        Bureaucracy,
    );
    assert_eq!(last_result(&g).winner, Some(REBEL));
    assert_eq!(g.round(), 2);
    assert_eq!(unused(&g, IMPERIAL), Strategy::ALL.to_vec());
}

// ----- Fall of a Hero, R-8.7 Negotiate with the Hutts -----

fn fall_of_a_hero(imperial: Value) -> Game {
    // Capacity 3, objective 9: the Rebel wins 9 to 6.
    won(
        "Fall of a Hero",
        json!({"deck": ["Military 5", "Military 4"]}),
        imperial,
    )
}

#[test]
fn r8_6_the_loser_moves_a_character_from_play_to_the_reserve_publicly() {
    let mut g = fall_of_a_hero(json!({"deck": ["Boba Fett"], "characters": ["Boba Fett", "Darth Vader"]}));
    assert_eq!(last_result(&g).winner, Some(REBEL));
    assert_eq!(view(&g, SPECTATOR).pending.unwrap().owner, IMPERIAL);
    assert_same_choices(
        options(&g, IMPERIAL),
        vec![pick(IMPERIAL, "Boba Fett"), pick(IMPERIAL, "Darth Vader")],
    );
    let events = answer(&mut g, IMPERIAL, pick(IMPERIAL, "Boba Fett"));
    assert!(seen(&events, SPECTATOR).contains(&LogEntry::CharacterToReserve {
        faction: IMPERIAL,
        card: Some(card("Boba Fett")),
        from: Zone::PlayArea,
        by: IMPERIAL,
    }));
    assert_eq!(g.round(), 2);
    assert!(reserve(&g, IMPERIAL).contains(&"Boba Fett"));
    assert!(
        seen_by(&g, Viewer::Seat(REBEL), IMPERIAL)
            .reserve_known
            .contains(card("Boba Fett"))
    );
    assert_eq!(public(&g, IMPERIAL).deck_size, 17, "16 basic cards and Darth Vader");
}

#[test]
fn r8_6_a_character_from_the_deck_goes_to_the_reserve_secretly() {
    let mut g = fall_of_a_hero(json!({"deck": ["Boba Fett"], "characters": ["Boba Fett", "Darth Vader"]}));
    let events = answer(&mut g, IMPERIAL, pick(IMPERIAL, "Darth Vader"));
    let entry = |c: Option<&str>| LogEntry::CharacterToReserve {
        faction: IMPERIAL,
        card: c.map(card),
        from: Zone::Deck,
        by: IMPERIAL,
    };
    assert!(seen(&events, Viewer::Seat(REBEL)).contains(&entry(None)));
    assert!(seen(&events, SPECTATOR).contains(&entry(None)));
    assert!(seen(&events, Viewer::Seat(IMPERIAL)).contains(&entry(Some("Darth Vader"))));
    assert!(reserve(&g, IMPERIAL).contains(&"Darth Vader"));
    assert!(
        !seen_by(&g, Viewer::Seat(REBEL), IMPERIAL)
            .reserve_known
            .contains(card("Darth Vader"))
    );
}

#[test]
fn r8_6_a_character_may_come_from_the_discard_pile() {
    // Boba Fett is discarded by the Rebel's Military during the struggle.
    let mut g = struggle(
        json!({
            "event_deck": ["Fall of a Hero"],
            "balance": "rebel",
            "rebel": {"deck": ["Military 5", "Military 4"]},
            "imperial": {"deck": ["Boba Fett", "Military 2"]},
        }),
        Deception,
        Deception,
    );
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Military 5");
    play(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    end_struggle(&mut g);
    assert_eq!(last_result(&g).winner, Some(REBEL));
    assert_eq!(pending_step(&g), None, "Boba Fett was the only choice");
    assert_eq!(g.round(), 2);
    assert!(reserve(&g, IMPERIAL).contains(&"Boba Fett"));
    assert!(
        seen_by(&g, Viewer::Seat(REBEL), IMPERIAL)
            .reserve_known
            .contains(card("Boba Fett"))
    );
}

#[test]
fn r8_6_without_a_character_nothing_happens() {
    let g = fall_of_a_hero(json!({"deck": ["Military 3", "Military 2"]}));
    assert_eq!(last_result(&g).winner, Some(REBEL));
    assert_eq!(g.round(), 2);
    assert_eq!(public(&g, IMPERIAL).reserve_size, 8);
}

#[test]
fn r8_7_negotiate_with_the_hutts_makes_the_winner_move_a_character() {
    // Capacity 3, objective 13.
    let mut g = won(
        "Negotiate with the Hutts",
        json!({"deck": ["Yoda", "Military 5"], "characters": ["Yoda", "Han Solo"]}),
        json!({"deck": ["Military 4", "Military 3"]}),
    );
    assert_eq!(last_result(&g).winner, Some(REBEL));
    assert_eq!(view(&g, SPECTATOR).pending.unwrap().owner, REBEL);
    assert_same_choices(options(&g, REBEL), vec![pick(REBEL, "Yoda"), pick(REBEL, "Han Solo")]);
    answer(&mut g, REBEL, pick(REBEL, "Han Solo"));
    assert_eq!(g.round(), 2);
    assert_eq!(public(&g, REBEL).reserve_size, 7);
    assert!(reserve(&g, REBEL).contains(&"Han Solo"));
    assert_eq!(public(&g, IMPERIAL).reserve_size, 8, "the loser is unaffected");
}

// ----- Locate the Rebel Base -----

#[test]
fn r8_8_locate_the_rebel_base_makes_the_loser_choose_and_reveal_first() {
    // Capacity 5, objective 9.
    let mut g = won(
        "Locate the Rebel Base",
        json!({"deck": ["Military 5", "Military 4"]}),
        json!({"deck": ["Military 4", "Military 3"]}),
    );
    assert_eq!(last_result(&g).winner, Some(REBEL));
    assert_eq!(g.round(), 2);
    assert!(public(&g, IMPERIAL).modifiers.located);
    assert!(g.legal_actions(REBEL).is_empty());
    choose_for(&mut g, IMPERIAL, IMPERIAL, Support);
    assert_eq!(
        seen_by(&g, Viewer::Seat(REBEL), IMPERIAL).strategy,
        StrategySlot::Known(Support)
    );
    choose_for(&mut g, REBEL, REBEL, Bureaucracy);
    assert_eq!(phase(&g), PhaseName::Struggle);
}

// ----- Occupation of Cloud City, Rebel Uprising -----

#[test]
fn r8_9_occupation_of_cloud_city_lets_the_winner_shuffle_in_a_reserve_character() {
    // Capacity 2, objective 5.
    let mut g = won(
        "Occupation of Cloud City",
        json!({"deck": ["Military 3", "Military 2"]}),
        json!({"deck": ["Military 2", "Diplomacy 2"]}),
    );
    assert_eq!(last_result(&g).winner, Some(REBEL));
    let opts = options(&g, REBEL);
    assert_eq!(opts.len(), 1 + 8);
    assert!(opts.contains(&Choice::NO_CARDS));
    let events = answer(&mut g, REBEL, pick(REBEL, "Yoda"));
    assert!(
        seen(&events, Viewer::Seat(IMPERIAL)).contains(&LogEntry::ReserveToDeck {
            faction: REBEL,
            card: None
        })
    );
    assert_eq!(g.round(), 2);
    assert!(deck(&g, REBEL).contains(&"Yoda"));
    assert_eq!(public(&g, REBEL).deck_size, 17);
}

#[test]
fn r8_9_rebel_uprising_may_be_declined() {
    // Capacity 6, objective 19.
    let mut g = won("Rebel Uprising", json!({"deck": TEN}), json!({"deck": EIGHT}));
    assert_eq!(last_result(&g).winner, Some(REBEL));
    answer(&mut g, REBEL, Choice::NO_CARDS);
    assert_eq!(g.round(), 2);
    assert_eq!(public(&g, REBEL).reserve_size, 8);
}

#[test]
fn r8_9_with_an_empty_reserve_nothing_happens() {
    let g = won(
        "Rebel Uprising",
        json!({"deck": TEN, "reserve": []}),
        json!({"deck": EIGHT}),
    );
    assert_eq!(last_result(&g).winner, Some(REBEL));
    assert_eq!(g.round(), 2);
}

// ----- Ultimate Power in the Universe -----

#[test]
fn r8_10_ultimate_power_returns_all_the_winners_strategies() {
    // Capacity 3, objective 7.
    let g = won(
        "Ultimate Power in the Universe",
        json!({"deck": ["Military 4", "Military 3"], "used_strategies": ["direct_assault", "infiltration"]}),
        json!({"deck": ["Military 2", "Military 3"], "used_strategies": ["direct_assault"]}),
    );
    assert_eq!(last_result(&g).winner, Some(REBEL));
    assert_eq!(g.round(), 2);
    assert!(used(&g, REBEL).is_empty());
    assert_eq!(unused(&g, REBEL), Strategy::ALL.to_vec());
    assert_eq!(
        used(&g, IMPERIAL),
        [Deception, DirectAssault],
        "the loser's goes to used as usual"
    );
}

#[test]
fn r8_1_a_banned_han_solo_does_not_search_or_shuffle() {
    let mut g = in_event("Duel on Cloud City", REBEL, &["Han Solo"], &[]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    let before = g.testing_deck(REBEL);
    let events = power(&mut g, REBEL, "Han Solo");
    assert!(banned(&events, REBEL, "Han Solo"));
    assert_eq!(seen(&events, SPECTATOR).len(), 1, "only the use itself");
    assert_eq!(g.testing_deck(REBEL), before);
}
