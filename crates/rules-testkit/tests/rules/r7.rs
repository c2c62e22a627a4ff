//! R-7 Strategy cards.

use crate::support::*;

#[test]
fn r7_0_an_optional_part_may_be_declined() {
    let mut g = freedom(REBEL, &TEN, &EIGHT, Support, Bureaucracy);
    let opts = options(&g, REBEL);
    assert_eq!(opts.len(), 1 + 8, "no character, or one of the eight in the reserve");
    assert!(opts.contains(&Choice::NO_CARDS));
    answer(&mut g, REBEL, Choice::NO_CARDS);
    assert_eq!(public(&g, REBEL).reserve_size, 8);
    assert_eq!(g.round(), 2);
}

#[test]
fn r7_0_a_required_effect_is_carried_out_even_against_its_owner() {
    // Direct Assault busts its own player; nobody is asked.
    let mut g = struggle(
        json!({
            "event_deck": ["Diplomatic Freedom"],
            "balance": "rebel",
            "rebel": {"deck": TEN},
            "imperial": {"deck": EIGHT},
        }),
        DirectAssault,
        Bureaucracy,
    );
    play_cards(&mut g, 2, 2);
    let events = end_struggle(&mut g);
    assert!(seen(&events, SPECTATOR).contains(&LogEntry::DirectAssault {
        faction: REBEL,
        total: 12
    }));
    assert_eq!(last_result(&g).winner, Some(IMPERIAL));
    assert_eq!(g.round(), 2, "no choice was offered");
}

#[test]
fn r7_1_deception_makes_the_would_be_loser_win() {
    let g = freedom(REBEL, &EIGHT, &TEN, Deception, Bureaucracy);
    let r = last_result(&g);
    assert_eq!(r.would_be_winner, Some(IMPERIAL));
    assert_eq!(r.winner, Some(REBEL));
    assert_eq!(public(&g, REBEL).won_events, [event("Diplomatic Freedom")]);
    assert_eq!(influence(&g, IMPERIAL), 4, "Imperial lost and got Bureaucracy");
}

#[test]
fn r7_1_deception_needs_both_players_within_the_objective() {
    let r = last_result(&freedom(REBEL, &TWELVE, &THIRTEEN, Bureaucracy, Deception));
    assert_eq!(r.winner, None, "both bust: nobody wins, Deception or not");
    let r = last_result(&freedom(REBEL, &TWELVE, &EIGHT, Bureaucracy, Deception));
    assert_eq!(r.winner, Some(IMPERIAL), "the bust player stays the loser");
}

#[test]
fn r7_1_if_both_chose_deception_neither_resolves() {
    let r = last_result(&freedom(IMPERIAL, &EIGHT, &TEN, Deception, Deception));
    assert_eq!(r.strategies, [Some(Deception), Some(Deception)]);
    assert_eq!(r.winner, Some(IMPERIAL));
    assert!(!r.deception);
}

#[test]
fn r7_1_an_ineligible_deception_does_not_resolve() {
    // The Rebel's Deception does not resolve, so the two do not cancel out; the Imperial's alone
    // swaps nothing because the Rebel is bust.
    let r = last_result(&freedom(REBEL, &TWELVE, &EIGHT, Deception, Deception));
    assert_eq!(r.eligible, [false, true]);
    assert_eq!(r.winner, Some(IMPERIAL));
}

#[test]
fn r7_2_direct_assault_adds_two_to_your_total() {
    let r = last_result(&freedom(REBEL, &EIGHT, &NINE, DirectAssault, Bureaucracy));
    assert_eq!(r.totals, [10, 9]);
    assert_eq!(r.winner, Some(REBEL));
}

#[test]
fn r7_2_if_both_chose_direct_assault_both_add_two() {
    let r = last_result(&freedom(REBEL, &EIGHT, &NINE, DirectAssault, DirectAssault));
    assert_eq!(r.direct_assault, [true, true]);
    assert_eq!(r.totals, [10, 11]);
    assert_eq!(r.winner, Some(IMPERIAL));
}

#[test]
fn r7_3_infiltration_chooses_the_opponents_next_strategy() {
    let mut g = freedom(REBEL, &EIGHT, &TEN, Infiltration, Bureaucracy);
    assert_eq!(g.round(), 2);
    assert!(g.legal_actions(IMPERIAL).is_empty());
    let rebel = g.legal_actions(REBEL);
    assert!(rebel.contains(&Action::ChooseStrategy {
        target: IMPERIAL,
        strategy: Support
    }));
    assert!(
        !rebel.contains(&Action::ChooseStrategy {
            target: IMPERIAL,
            strategy: Bureaucracy
        }),
        "Bureaucracy is a used Imperial strategy now"
    );
    choose_for(&mut g, REBEL, IMPERIAL, Support);
    choose_for(&mut g, REBEL, REBEL, Deception);
    assert_eq!(g.testing_chosen_strategy(IMPERIAL), Some(Support));
    assert_eq!(phase(&g), PhaseName::Struggle);
}

#[test]
fn r7_3_if_both_chose_infiltration_each_chooses_the_others() {
    let mut g = freedom(REBEL, &EIGHT, &TEN, Infiltration, Infiltration);
    let v = view(&g, SPECTATOR);
    assert!(v.rebel.modifiers.infiltrated && v.imperial.modifiers.infiltrated);
    assert!(
        g.legal_actions(REBEL)
            .iter()
            .all(|a| matches!(a, Action::ChooseStrategy { target: IMPERIAL, .. }))
    );
    choose_for(&mut g, IMPERIAL, REBEL, Deception);
    choose_for(&mut g, REBEL, IMPERIAL, Bureaucracy);
    assert_eq!(phase(&g), PhaseName::Struggle);
}

#[test]
fn r7_4_bureaucracy_pays_the_loser_two_influence() {
    let g = freedom(REBEL, &TEN, &EIGHT, Infiltration, Bureaucracy);
    assert_eq!(influence(&g, IMPERIAL), 4);
}

#[test]
fn r7_4_bureaucracy_pays_the_winner_nothing() {
    let g = freedom(REBEL, &TEN, &EIGHT, Bureaucracy, Infiltration);
    assert_eq!(influence(&g, REBEL), 2 + 2, "the event's influence only");
    assert_eq!(influence(&g, IMPERIAL), 2);
}

#[test]
fn r7_5_support_shuffles_a_reserve_character_into_the_deck_secretly() {
    let mut g = freedom(REBEL, &TEN, &EIGHT, Support, Bureaucracy);
    let events = answer(&mut g, REBEL, pick(REBEL, "Yoda"));
    let secret = |c: Option<&str>| LogEntry::ReserveToDeck {
        faction: REBEL,
        card: c.map(card),
    };
    assert!(seen(&events, Viewer::Seat(REBEL)).contains(&secret(Some("Yoda"))));
    assert!(seen(&events, Viewer::Seat(IMPERIAL)).contains(&secret(None)));
    assert!(seen(&events, SPECTATOR).contains(&secret(None)));
    assert_eq!(g.round(), 2);
    assert!(!reserve(&g, REBEL).contains(&"Yoda"));
    assert!(deck(&g, REBEL).contains(&"Yoda"));
    assert_eq!(public(&g, REBEL).deck_size, 17);
}

#[test]
fn r7_5_both_supports_resolve_first_player_first() {
    // README ruling 2.
    let mut g = freedom(IMPERIAL, &TEN, &EIGHT, Support, Support);
    assert_eq!(view(&g, SPECTATOR).pending.unwrap().owner, IMPERIAL);
    assert!(g.legal_actions(REBEL).is_empty());
    answer(&mut g, IMPERIAL, pick(IMPERIAL, "Darth Vader"));
    assert_eq!(view(&g, SPECTATOR).pending.unwrap().owner, REBEL);
    answer(&mut g, REBEL, Choice::NO_CARDS);
    assert_eq!(g.round(), 2);
    assert!(deck(&g, IMPERIAL).contains(&"Darth Vader"));
}

#[test]
fn r7_5_an_ineligible_support_does_not_resolve() {
    let g = freedom(REBEL, &TWELVE, &EIGHT, Support, Bureaucracy);
    assert_eq!(g.round(), 2, "no choice was offered");
    assert_eq!(public(&g, REBEL).reserve_size, 8);
}

#[test]
fn r7_5_support_with_an_empty_reserve_does_nothing() {
    let g = round(
        json!({
            "event_deck": ["Diplomatic Freedom"],
            "balance": "rebel",
            "rebel": {"deck": TEN, "reserve": []},
            "imperial": {"deck": EIGHT},
        }),
        Support,
        Bureaucracy,
    );
    assert_eq!(g.round(), 2);
}

#[test]
fn r7_6_a_player_always_sees_their_own_strategies() {
    let mut g = game(json!({"rebel": {"infiltrated": true, "used_strategies": ["deception"]}}));
    choose_for(&mut g, IMPERIAL, REBEL, Support);
    let own = seen_by(&g, Viewer::Seat(REBEL), REBEL);
    assert_eq!(
        own.strategy,
        StrategySlot::Known(Support),
        "chosen for them by the opponent"
    );
    assert_eq!(
        own.unused_strategies,
        Some(vec![DirectAssault, Infiltration, Bureaucracy])
    );
    assert_eq!(own.used_strategies, [Deception]);
    choose_for(&mut g, IMPERIAL, IMPERIAL, Bureaucracy);
    let own = seen_by(&g, Viewer::Seat(IMPERIAL), IMPERIAL);
    assert_eq!(own.strategy, StrategySlot::Known(Bureaucracy));
    assert_eq!(own.unused_strategies.unwrap().len(), 4);
    // The Rebel does not know the Imperial's unused strategies: they would reveal the chosen one.
    assert_eq!(seen_by(&g, Viewer::Seat(REBEL), IMPERIAL).unused_strategies, None);
}
