//! R-4 Struggle.

use crate::support::*;

fn hoth(balance: Faction, rebel: &[&str], imperial: &[&str]) -> Game {
    struggle(
        json!({
            "event_deck": ["Battle of Hoth"],
            "balance": balance,
            "rebel": {"deck": rebel},
            "imperial": {"deck": imperial},
        }),
        Bureaucracy,
        Bureaucracy,
    )
}

/// Control of Endor: capacity 2.
fn endor(balance: Faction, rebel: &[&str], imperial: &[&str]) -> Game {
    struggle(
        json!({
            "event_deck": ["Control of Endor"],
            "balance": balance,
            "rebel": {"deck": rebel},
            "imperial": {"deck": imperial},
        }),
        Bureaucracy,
        Bureaucracy,
    )
}

#[test]
fn r4_1_the_balance_side_takes_the_first_turn() {
    for (side, f) in [("rebel", REBEL), ("imperial", IMPERIAL)] {
        let mut g = struggle(json!({ "balance": side }), Bureaucracy, Bureaucracy);
        assert_eq!(turn(&g), f);
        assert_eq!(g.seats_to_act(), vec![f]);
        assert_refused(&mut g, f.opponent(), Action::PlayCard, "not_your_turn");
    }
}

#[test]
fn r4_1_turns_alternate() {
    let mut g = hoth(IMPERIAL, &[], &[]);
    let mut expected = IMPERIAL;
    for _ in 0..6 {
        assert_eq!(turn(&g), expected);
        play(&mut g, expected);
        expected = expected.opponent();
    }
}

#[test]
fn r4_2_play_a_card_puts_the_top_card_into_play_ready() {
    let mut g = hoth(REBEL, &["Recon 4", "Military 2"], &[]);
    play(&mut g, REBEL);
    assert_eq!(in_play(&g, REBEL), ["Recon 4"]);
    assert!(is_ready(&g, REBEL, "Recon 4"));
    assert_eq!(deck(&g, REBEL)[0], "Military 2");
    assert_eq!(public(&g, REBEL).deck_size, 15);
    assert_eq!(turn(&g), IMPERIAL, "one action per turn");
}

#[test]
fn r4_2_play_a_card_is_refused_with_a_full_play_area() {
    let mut g = endor(REBEL, &["Military 2", "Military 3"], &[]);
    set_up_play(&mut g, 2, 1, REBEL);
    assert!(!g.legal_actions(REBEL).contains(&Action::PlayCard));
    assert_refused(&mut g, REBEL, Action::PlayCard, "capacity_full");
}

#[test]
fn r4_2_use_a_power_exhausts_one_of_your_ready_cards() {
    let mut g = hoth(REBEL, &["Yoda"], &[]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    assert!(
        g.legal_actions(REBEL)
            .contains(&Action::UsePower { card: card("Yoda") })
    );
    power(&mut g, REBEL, "Yoda");
    assert!(!is_ready(&g, REBEL, "Yoda"));
    assert_eq!(influence(&g, REBEL), 3);
}

#[test]
fn r4_2_use_a_power_is_refused_for_cards_not_ready_or_not_in_play() {
    let mut g = hoth(REBEL, &["Yoda"], &[]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Yoda");
    play(&mut g, IMPERIAL);
    let use_card = |n: &str| Action::UsePower { card: card(n) };
    assert!(!g.legal_actions(REBEL).contains(&use_card("Yoda")));
    assert_refused(&mut g, REBEL, use_card("Yoda"), "card_not_ready");
    assert_refused(&mut g, REBEL, use_card("Military 5"), "card_not_in_play_area");
    assert_refused(&mut g, REBEL, use_card("Boba Fett"), "unknown_card");
}

#[test]
fn r4_2_spend_influence_readies_an_exhausted_card_for_one_influence() {
    let mut g = hoth(REBEL, &["Luke Skywalker", "Military 2"], &[]);
    set_up_play(&mut g, 2, 1, REBEL);
    power(&mut g, REBEL, "Luke Skywalker");
    answer(&mut g, REBEL, pick(REBEL, "Military 2"));
    pass(&mut g, IMPERIAL);
    assert_eq!(g.total(REBEL), 1);
    let ready_luke = Action::SpendInfluence {
        card: card("Luke Skywalker"),
    };
    assert!(g.legal_actions(REBEL).contains(&ready_luke));
    ok(&mut g, REBEL, ready_luke);
    assert!(is_ready(&g, REBEL, "Luke Skywalker"));
    assert_eq!(g.total(REBEL), 6);
    assert_eq!(influence(&g, REBEL), 1);
    assert_eq!(turn(&g), IMPERIAL);
}

#[test]
fn r4_2_spend_influence_is_refused_for_ready_cards_and_without_influence() {
    let mut g = struggle(
        json!({
            "balance": "rebel",
            "rebel": {"deck": ["Yoda", "Military 2"], "influence": 0},
        }),
        Bureaucracy,
        Bureaucracy,
    );
    set_up_play(&mut g, 2, 1, REBEL);
    let ready = |n: &str| Action::SpendInfluence { card: card(n) };
    assert_refused(&mut g, REBEL, ready("Military 2"), "card_not_exhausted");
    power(&mut g, REBEL, "Military 2"); // discards the only Imperial card
    play(&mut g, IMPERIAL);
    assert!(
        !g.legal_actions(REBEL)
            .iter()
            .any(|a| matches!(a, Action::SpendInfluence { .. }))
    );
    assert_refused(&mut g, REBEL, ready("Military 2"), "no_influence");
    assert_refused(&mut g, REBEL, ready("Military 5"), "card_not_in_play_area");
}

#[test]
fn r4_2_pass_is_an_action() {
    let mut g = hoth(REBEL, &["Military 2"], &[]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    assert!(g.legal_actions(REBEL).contains(&Action::Pass));
    pass(&mut g, REBEL);
    assert_eq!(turn(&g), IMPERIAL);
    assert!(view(&g, SPECTATOR).last_action_was_pass);
}

#[test]
fn r4_3_a_player_with_an_empty_play_area_must_play_a_card() {
    let mut g = hoth(REBEL, &[], &[]);
    assert_eq!(g.legal_actions(REBEL), [Action::PlayCard]);
    assert_refused(&mut g, REBEL, Action::Pass, "must_play_card");
    assert_refused(
        &mut g,
        REBEL,
        Action::UsePower {
            card: card("Military 2"),
        },
        "must_play_card",
    );
    play(&mut g, REBEL);
    assert_eq!(g.legal_actions(IMPERIAL), [Action::PlayCard], "after the Rebel played");
}

#[test]
fn r4_3_a_player_whose_cards_were_all_discarded_must_play_again() {
    let mut g = hoth(REBEL, &["Military 3"], &["Recon 2"]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Military 3");
    assert!(in_play(&g, IMPERIAL).is_empty());
    assert_eq!(g.legal_actions(IMPERIAL), [Action::PlayCard]);
    assert_refused(&mut g, IMPERIAL, Action::Pass, "must_play_card");
}

#[test]
fn r4_4_a_pass_right_after_the_opponents_pass_ends_the_struggle() {
    let mut g = hoth(REBEL, &["Military 5"], &["Military 2"]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    pass(&mut g, REBEL);
    assert_eq!(phase(&g), PhaseName::Struggle);
    let events = pass(&mut g, IMPERIAL);
    assert!(seen(&events, SPECTATOR).contains(&LogEntry::StruggleEnded {
        reason: evr_rules::log::StruggleEnd::BothPassed
    }));
    assert_ne!(phase(&g), PhaseName::Struggle);
    assert_eq!(last_result(&g).totals, [5, 2]);
}

#[test]
fn r4_4_a_player_who_passed_may_act_on_later_turns() {
    let mut g = hoth(
        REBEL,
        &["Military 5", "Military 4"],
        &["Military 2", "Military 3", "Recon 2"],
    );
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    pass(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    pass(&mut g, REBEL);
    assert_eq!(phase(&g), PhaseName::Struggle, "the passes were not consecutive");
    play(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    assert_eq!(in_play(&g, REBEL), ["Military 5", "Military 4"]);
    pass(&mut g, IMPERIAL);
    pass(&mut g, REBEL);
    assert_ne!(phase(&g), PhaseName::Struggle);
}

#[test]
fn r4_5_an_empty_deck_is_refilled_only_when_it_must_be_drawn_from() {
    let mut g = lando_cycle(&["Military 2"], 4, Bureaucracy);
    let rebel = public(&g, REBEL);
    assert_eq!(rebel.deck_size, 0, "no reshuffle when the deck ran out");
    assert_eq!(rebel.discard_pile.len(), 12);
    let former_discard = discard_pile(&g, REBEL);
    pass(&mut g, IMPERIAL);
    let events = play(&mut g, REBEL);
    assert!(seen(&events, SPECTATOR).contains(&LogEntry::DiscardPileUnderDeck {
        faction: REBEL,
        cards: 12
    }));
    let rebel = public(&g, REBEL);
    assert!(rebel.discard_pile.is_empty());
    assert_eq!(rebel.deck_size, 11);
    let drawn = *in_play(&g, REBEL).last().unwrap();
    assert!(former_discard.contains(&drawn));
}

#[test]
fn r4_5_cards_left_in_the_deck_stay_on_top_of_the_reshuffled_pile() {
    let mut g = lando_cycle(&["Military 2"], 3, Bureaucracy);
    assert_eq!(deck(&g, REBEL), ["Recon 5"]);
    assert_eq!(discard_pile(&g, REBEL).len(), 11);
    let former_discard = discard_pile(&g, REBEL);
    pass(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Recon 2");
    answer(&mut g, REBEL, Choice::Deck { owner: REBEL });
    let seen_cards = view(&g, Viewer::Seat(REBEL)).pending.unwrap().seen_cards.unwrap();
    assert_eq!(seen_cards.len(), 2);
    assert_eq!(
        seen_cards[0],
        cref(REBEL, "Recon 5"),
        "the last deck card is still on top"
    );
    assert!(former_discard.contains(&name(seen_cards[1].card)));
    assert_eq!(public(&g, REBEL).deck_size, 12);
    assert!(discard_pile(&g, REBEL).is_empty());
}

#[test]
fn r4_5_looking_at_the_opponents_deck_reshuffles_the_opponents_discard_pile() {
    let mut g = lando_cycle(&["Recon 2"], 4, Bureaucracy);
    power(&mut g, IMPERIAL, "Recon 2");
    answer(&mut g, IMPERIAL, Choice::Deck { owner: REBEL });
    assert_eq!(public(&g, REBEL).deck_size, 12);
    assert!(discard_pile(&g, REBEL).is_empty());
    assert!(discard_pile(&g, IMPERIAL).is_empty());
    let seen_cards = view(&g, Viewer::Seat(IMPERIAL)).pending.unwrap().seen_cards.unwrap();
    assert_eq!(seen_cards.len(), 2);
    assert!(seen_cards.iter().all(|c| c.owner == REBEL));
}

#[test]
fn r4_5_cards_discarded_by_the_same_action_are_reshuffled_too() {
    let mut g = lando_cycle(&["Military 2"], 4, Bureaucracy);
    pass(&mut g, IMPERIAL);
    spend(&mut g, REBEL, "Lando Calrissian");
    pass(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Lando Calrissian");
    let recons = ["Recon 2", "Recon 3", "Recon 4", "Recon 5"];
    let events = answer(&mut g, REBEL, pick_all(&recons.map(|n| (REBEL, n))));
    assert!(seen(&events, SPECTATOR).contains(&LogEntry::DiscardPileUnderDeck {
        faction: REBEL,
        cards: 16
    }));
    assert_eq!(in_play(&g, REBEL).len(), 5);
    assert_eq!(public(&g, REBEL).deck_size, 12);
    assert_eq!(g.card_count(REBEL), 24);
}

#[test]
fn r4_6_capacity_counts_exhausted_cards() {
    let mut g = endor(REBEL, &["Yoda", "Military 2"], &[]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Yoda");
    pass(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    pass(&mut g, IMPERIAL);
    assert_eq!(public(&g, REBEL).capacity_left, 0);
    assert_refused(&mut g, REBEL, Action::PlayCard, "capacity_full");
}

#[test]
fn r4_6_obi_wan_cannot_put_a_card_into_a_full_play_area() {
    let mut g = endor(REBEL, &["Diplomacy 2", "Obi-Wan Kenobi", "Military 2"], &[]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Diplomacy 2"); // its only target is itself
    assert_eq!(discard_pile(&g, REBEL), ["Diplomacy 2"]);
    pass(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    pass(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    pass(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Obi-Wan Kenobi");
    assert_eq!(pending_step(&g), None);
    assert_eq!(in_play(&g, REBEL), ["Obi-Wan Kenobi", "Military 2"]);
    assert_eq!(discard_pile(&g, REBEL), ["Diplomacy 2"]);
}

#[test]
fn r4_6_jabba_cannot_play_into_a_full_play_area() {
    let mut g = endor(IMPERIAL, &[], &["Jabba the Hutt", "Military 2", "Military 5"]);
    set_up_play(&mut g, 1, 2, IMPERIAL);
    power(&mut g, IMPERIAL, "Jabba the Hutt");
    answer(&mut g, IMPERIAL, Choice::NO_CARDS);
    assert_eq!(pending_step(&g), None, "no play step without room");
    assert_eq!(in_play(&g, IMPERIAL), ["Jabba the Hutt", "Military 2"]);
    assert_eq!(deck(&g, IMPERIAL)[0], "Military 5");
}

#[test]
fn r4_7_a_required_power_offers_no_way_out() {
    let mut g = hoth(REBEL, &["Military 3"], &["Recon 2", "Recon 3"]);
    set_up_play(&mut g, 1, 2, REBEL);
    power(&mut g, REBEL, "Military 3");
    assert!(!options(&g, REBEL).contains(&Choice::NO_CARDS));
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
fn r4_7_up_to_allows_none() {
    let mut g = hoth(REBEL, &["Chewbacca"], &["Recon 2"]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Chewbacca");
    assert!(options(&g, REBEL).contains(&Choice::NO_CARDS));
    answer(&mut g, REBEL, Choice::NO_CARDS);
    assert!(is_ready(&g, IMPERIAL, "Recon 2"));
}

#[test]
fn r4_7_a_power_that_cannot_do_anything_just_exhausts_the_card() {
    let mut g = hoth(REBEL, &["Obi-Wan Kenobi"], &[]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    let before = public(&g, IMPERIAL);
    power(&mut g, REBEL, "Obi-Wan Kenobi");
    assert_eq!(pending_step(&g), None);
    assert!(!is_ready(&g, REBEL, "Obi-Wan Kenobi"));
    assert_eq!(in_play(&g, REBEL), ["Obi-Wan Kenobi"]);
    assert_eq!(public(&g, IMPERIAL), before);
    assert_eq!(turn(&g), IMPERIAL);
}

#[test]
fn r4_7_a_single_possible_answer_is_applied_at_once() {
    // README ruling 12.
    let mut g = hoth(REBEL, &["Military 3"], &["Recon 2"]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Military 3");
    assert_eq!(pending_step(&g), None);
    assert_eq!(discard_pile(&g, IMPERIAL), ["Recon 2"]);
}

#[test]
fn r4_8_a_banned_power_exhausts_the_card_and_does_nothing() {
    let mut g = struggle(
        json!({
            "event_deck": ["Attack on Echo Base"],
            "balance": "rebel",
            "rebel": {"deck": ["Diplomacy 4", "Military 2"]},
        }),
        Bureaucracy,
        Bureaucracy,
    );
    set_up_play(&mut g, 2, 1, REBEL);
    assert!(g.legal_actions(REBEL).contains(&Action::UsePower {
        card: card("Diplomacy 4")
    }));
    let events = power(&mut g, REBEL, "Diplomacy 4");
    assert!(seen(&events, SPECTATOR).contains(&LogEntry::PowerUsed {
        faction: REBEL,
        card: card("Diplomacy 4"),
        banned: true
    }));
    assert_eq!(pending_step(&g), None);
    assert_eq!(in_play(&g, REBEL), ["Diplomacy 4", "Military 2"]);
    assert!(!is_ready(&g, REBEL, "Diplomacy 4"));
    assert!(discard_pile(&g, REBEL).is_empty());
    assert_eq!(turn(&g), IMPERIAL);
}

#[test]
fn r4_8_banned_cards_still_count_their_value() {
    // Attack on Echo Base: objective 9.
    let g = round(
        json!({
            "event_deck": ["Attack on Echo Base"],
            "balance": "imperial",
            "rebel": {"deck": ["Diplomacy 4", "Diplomacy 5"]},
            "imperial": {"deck": ["Military 4", "Military 3"]},
        }),
        Bureaucracy,
        Bureaucracy,
    );
    let r = last_result(&g);
    assert_eq!(r.totals, [9, 7]);
    assert_eq!(r.winner, Some(REBEL));
}

#[test]
fn r4_9_a_struggle_ends_after_400_actions() {
    assert_eq!(evr_rules::STRUGGLE_ACTION_LIMIT, 400);
    let mut g = hoth(REBEL, &["Yoda"], &["Military 2"]);
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    // Rebel never passes (Yoda, then ready Yoda again), so passes never follow each other.
    let step = |g: &mut Game| match turn(g) {
        IMPERIAL => pass(g, IMPERIAL),
        _ if is_ready(g, REBEL, "Yoda") => power(g, REBEL, "Yoda"),
        _ => spend(g, REBEL, "Yoda"),
    };
    while view(&g, SPECTATOR).struggle_actions < 399 {
        step(&mut g);
        assert_eq!(phase(&g), PhaseName::Struggle);
    }
    let events = step(&mut g);
    assert!(seen(&events, SPECTATOR).contains(&LogEntry::StruggleEnded {
        reason: evr_rules::log::StruggleEnd::ActionLimit
    }));
    assert_eq!(g.round(), 2);
}

#[test]
fn r4_9_answering_a_choice_is_part_of_the_action() {
    // README ruling 13.
    let mut g = hoth(REBEL, &["Military 3"], &["Recon 2", "Recon 3"]);
    set_up_play(&mut g, 1, 2, REBEL);
    let before = view(&g, SPECTATOR).struggle_actions;
    power(&mut g, REBEL, "Military 3");
    answer(&mut g, REBEL, pick(IMPERIAL, "Recon 3"));
    assert_eq!(view(&g, SPECTATOR).struggle_actions, before + 1);
}

#[test]
fn r4_1_the_token_turned_at_cleanup_decides_the_next_first_player() {
    let mut g = freedom(REBEL, &TEN, &EIGHT, Bureaucracy, Bureaucracy);
    assert_eq!(last_result(&g).winner, Some(REBEL));
    assert_eq!(view(&g, SPECTATOR).balance, Some(IMPERIAL));
    choose(&mut g, Deception, Deception);
    assert_eq!(turn(&g), IMPERIAL);
}

#[test]
fn r4_2_struggle_actions_are_refused_outside_the_struggle() {
    let mut g = game(json!({"rebel": {"deck": ["Yoda"]}}));
    for action in [
        Action::PlayCard,
        Action::Pass,
        Action::UsePower { card: card("Yoda") },
        Action::SpendInfluence { card: card("Yoda") },
    ] {
        assert_refused(&mut g, REBEL, action, "wrong_phase");
    }
    assert_refused(
        &mut g,
        REBEL,
        Action::ChooseCharacters {
            characters: mask(&["Han Solo", "Leia Organa", "Luke Skywalker", "Yoda"]),
        },
        "wrong_phase",
    );
    choose(&mut g, Bureaucracy, Bureaucracy);
    assert_refused(
        &mut g,
        REBEL,
        Action::ChooseStrategy {
            target: REBEL,
            strategy: Support,
        },
        "wrong_phase",
    );
}

#[test]
fn r4_7_military_with_no_opponent_card_just_exhausts() {
    // The Imperial empties their own play area with Diplomacy 2 (its only target is itself).
    let mut g = hoth(IMPERIAL, &["Military 3"], &["Diplomacy 2"]);
    play(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    power(&mut g, IMPERIAL, "Diplomacy 2");
    assert!(in_play(&g, IMPERIAL).is_empty());
    power(&mut g, REBEL, "Military 3");
    assert_eq!(pending_step(&g), None);
    assert!(!is_ready(&g, REBEL, "Military 3"));
    assert_eq!(discard_pile(&g, IMPERIAL), ["Diplomacy 2"]);
    assert_eq!(turn(&g), IMPERIAL);
}
