//! R-5 Dominance.

use crate::support::*;

#[test]
fn r5_1_strategies_are_revealed_to_everyone() {
    // Support stops Dominance at its choice, so the revealed state can be looked at.
    let g = freedom(REBEL, &TEN, &EIGHT, Support, DirectAssault);
    assert_eq!(phase(&g), PhaseName::Dominance);
    for v in Viewer::ALL {
        assert_eq!(seen_by(&g, v, REBEL).strategy, StrategySlot::Known(Support), "{v:?}");
        assert_eq!(
            seen_by(&g, v, IMPERIAL).strategy,
            StrategySlot::Known(DirectAssault),
            "{v:?}"
        );
    }
    assert_eq!(last_result(&g).strategies, [Some(Support), Some(DirectAssault)]);
    assert!(log(&g, SPECTATOR).contains(&LogEntry::StrategiesRevealed {
        strategies: ByFaction::from([Some(Support), Some(DirectAssault)]),
        totals: ByFaction::from([10, 8]),
        eligible: ByFaction::from([true, true]),
    }));
}

#[test]
fn r5_1_a_player_over_the_objective_is_ineligible() {
    let g = freedom(REBEL, &TWELVE, &["Military 2"], Bureaucracy, Bureaucracy);
    let r = last_result(&g);
    assert_eq!(r.totals_at_reveal, [12, 2]);
    assert_eq!(r.eligible, [false, true]);
    assert_eq!(r.winner, Some(IMPERIAL));
    assert_eq!(influence(&g, REBEL), 2, "the loser's Bureaucracy did not resolve");
    assert_eq!(influence(&g, IMPERIAL), 4);
}

#[test]
fn r5_1_an_ineligible_infiltration_is_not_recorded() {
    let g = freedom(REBEL, &TWELVE, &["Military 2"], Infiltration, Bureaucracy);
    assert_eq!(g.round(), 2);
    assert!(!public(&g, IMPERIAL).modifiers.infiltrated);
    assert_eq!(view(&g, SPECTATOR).planning.unwrap().chooser.imperial, Some(IMPERIAL));
}

#[test]
fn r5_1_an_ineligible_direct_assault_adds_nothing() {
    let g = freedom(REBEL, &TWELVE, &["Military 2"], DirectAssault, Bureaucracy);
    let r = last_result(&g);
    assert_eq!(r.direct_assault, [false, false]);
    assert_eq!(r.totals, [12, 2]);
}

#[test]
fn r5_1_eligibility_is_fixed_at_the_reveal() {
    let g = freedom(REBEL, &TEN, &["Military 2"], DirectAssault, Bureaucracy);
    let r = last_result(&g);
    assert_eq!(r.eligible, [true, true]);
    assert_eq!(r.totals, [12, 2]);
    assert_eq!(r.bust, [true, false]);
}

#[test]
fn r5_2_direct_assault_adds_two_before_victory() {
    let g = freedom(REBEL, &EIGHT, &NINE, DirectAssault, Bureaucracy);
    let r = last_result(&g);
    assert_eq!(r.totals_at_reveal, [8, 9]);
    assert_eq!(r.direct_assault, [true, false]);
    assert_eq!(r.totals, [10, 9]);
    assert_eq!(r.winner, Some(REBEL));
}

#[test]
fn r5_2_direct_assault_can_bust_its_owner() {
    let g = freedom(IMPERIAL, &EIGHT, &TEN, Bureaucracy, DirectAssault);
    let r = last_result(&g);
    assert_eq!(r.totals, [8, 12]);
    assert_eq!(r.bust, [false, true]);
    assert_eq!(r.winner, Some(REBEL));
    assert_eq!(r.reason, Some(WinReason::OpponentBust));
}

#[test]
fn r5_2_support_resolves_before_victory() {
    let mut g = freedom(REBEL, &EIGHT, &TEN, Support, Bureaucracy);
    assert_eq!(phase(&g), PhaseName::Dominance);
    assert_eq!(view(&g, SPECTATOR).pending.unwrap().owner, REBEL);
    let r = last_result(&g);
    assert_eq!((r.winner, r.reason), (None, None), "victory is not determined yet");
    answer(&mut g, REBEL, Choice::NO_CARDS);
    let r = last_result(&g);
    assert_eq!(r.winner, Some(IMPERIAL));
    assert_eq!(g.round(), 2);
}

#[test]
fn r5_3_the_higher_total_wins() {
    for (rebel, imperial, winner) in [(&TEN, &EIGHT, REBEL), (&EIGHT, &TEN, IMPERIAL)] {
        let r = last_result(&freedom(REBEL, rebel, imperial, Bureaucracy, Bureaucracy));
        assert_eq!(r.bust, [false, false]);
        assert_eq!(r.winner, Some(winner));
        assert_eq!(r.reason, Some(WinReason::HigherTotal));
    }
}

#[test]
fn r5_3_tie_goes_to_balance_side() {
    for side in Faction::BOTH {
        let r = last_result(&freedom(
            side,
            &EIGHT,
            &["Recon 4", "The Force 4"],
            Bureaucracy,
            Bureaucracy,
        ));
        assert_eq!(r.totals, [8, 8]);
        assert_eq!(r.winner, Some(side));
        assert_eq!(r.reason, Some(WinReason::TieBalanceToken));
    }
}

#[test]
fn r5_3_with_exactly_one_bust_the_other_player_wins() {
    let r = last_result(&freedom(REBEL, &TWELVE, &["Military 2"], Bureaucracy, Bureaucracy));
    assert_eq!(r.bust, [true, false]);
    assert_eq!(r.winner, Some(IMPERIAL), "2 beats 12 when 12 is over 11");
    assert_eq!(r.reason, Some(WinReason::OpponentBust));
}

#[test]
fn r5_3_both_bust_nobody_wins() {
    let g = freedom(REBEL, &TWELVE, &THIRTEEN, Bureaucracy, Bureaucracy);
    let r = last_result(&g);
    assert_eq!(r.bust, [true, true]);
    assert_eq!(r.winner, None);
    assert_eq!(r.reason, Some(WinReason::BothBust));
    assert!(public(&g, REBEL).won_events.is_empty());
    assert!(public(&g, IMPERIAL).won_events.is_empty());
}

#[test]
fn r5_4_deception_swaps_the_would_be_winner_and_loser() {
    let r = last_result(&freedom(REBEL, &TEN, &EIGHT, Bureaucracy, Deception));
    assert_eq!(r.would_be_winner, Some(REBEL));
    assert!(r.deception);
    assert_eq!(r.winner, Some(IMPERIAL));
    assert_eq!(r.reason, Some(WinReason::Deception));
}

#[test]
fn r5_4_deception_by_the_would_be_winner_makes_them_lose() {
    let r = last_result(&freedom(REBEL, &TEN, &EIGHT, Deception, Bureaucracy));
    assert_eq!(r.would_be_winner, Some(REBEL));
    assert_eq!(r.winner, Some(IMPERIAL));
}

#[test]
fn r5_4_deception_swaps_a_tie_won_on_the_balance_token() {
    let r = last_result(&freedom(
        IMPERIAL,
        &EIGHT,
        &["Recon 4", "The Force 4"],
        Deception,
        Bureaucracy,
    ));
    assert_eq!(r.would_be_winner, Some(IMPERIAL));
    assert_eq!(r.winner, Some(REBEL));
}

#[test]
fn r5_4_deception_does_nothing_when_a_player_is_bust() {
    let r = last_result(&freedom(REBEL, &EIGHT, &TWELVE, Deception, Bureaucracy));
    assert_eq!(r.bust, [false, true]);
    assert!(!r.deception);
    assert_eq!(r.winner, Some(REBEL));
}

#[test]
fn r5_4_a_bust_from_direct_assault_stops_deception() {
    // Imperial is eligible at the reveal (10) and busts with Direct Assault (12).
    let r = last_result(&freedom(REBEL, &EIGHT, &TEN, Deception, DirectAssault));
    assert_eq!(r.eligible, [true, true]);
    assert_eq!(r.bust, [false, true]);
    assert_eq!(r.winner, Some(REBEL));
    assert!(!r.deception);
}

#[test]
fn r5_4_two_deceptions_cancel_out() {
    let r = last_result(&freedom(REBEL, &TEN, &EIGHT, Deception, Deception));
    assert!(!r.deception);
    assert_eq!(r.winner, Some(REBEL));
    assert_eq!(r.reason, Some(WinReason::HigherTotal));
}

#[test]
fn r5_4_no_winner_means_no_loser() {
    // Acquire the Death Star Plans (objective 13): the loser would lose 2 influence.
    let g = round(
        json!({
            "event_deck": ["Acquire the Death Star Plans"],
            "balance": "rebel",
            "rebel": {"deck": ["Military 5", "Diplomacy 5", "Recon 5"]},
            "imperial": {"deck": ["Military 5", "Diplomacy 5", "Recon 4"]},
        }),
        Bureaucracy,
        Bureaucracy,
    );
    let r = last_result(&g);
    assert_eq!(r.winner, None);
    assert_eq!(influence(&g, REBEL), 2, "no Bureaucracy gain, no event loss");
    assert_eq!(influence(&g, IMPERIAL), 2);
}

#[test]
fn r5_5_bureaucracy_pays_the_loser() {
    let g = freedom(REBEL, &TEN, &EIGHT, Bureaucracy, Bureaucracy);
    assert_eq!(influence(&g, IMPERIAL), 2 + 2, "the loser's Bureaucracy");
    assert_eq!(
        influence(&g, REBEL),
        2 + 2,
        "the event's influence only, no Bureaucracy"
    );
}

#[test]
fn r5_5_bureaucracy_follows_the_deception_swap() {
    let g = freedom(REBEL, &TEN, &EIGHT, Bureaucracy, Deception);
    assert_eq!(last_result(&g).winner, Some(IMPERIAL));
    assert_eq!(influence(&g, REBEL), 4, "the Rebel lost after the swap");
    assert_eq!(influence(&g, IMPERIAL), 4);
}

#[test]
fn r5_5_infiltration_is_recorded_for_the_next_round() {
    let g = freedom(REBEL, &EIGHT, &TEN, Infiltration, Bureaucracy);
    assert_eq!(g.round(), 2);
    assert!(public(&g, IMPERIAL).modifiers.infiltrated);
    assert!(!public(&g, REBEL).modifiers.infiltrated);
    assert_eq!(
        view(&g, SPECTATOR).planning.unwrap().chooser,
        [Some(REBEL), Some(REBEL)]
    );
}

#[test]
fn r5_6_the_winner_takes_the_event_and_its_influence() {
    let g = freedom(REBEL, &TEN, &EIGHT, Deception, Deception);
    let rebel = public(&g, REBEL);
    assert_eq!(rebel.won_events, [event("Diplomatic Freedom")]);
    assert_eq!(rebel.vp, 1);
    assert_eq!(g.vp(REBEL), 1);
    assert_eq!(rebel.influence, 4);
    assert_eq!(public(&g, IMPERIAL).vp, 0);
    assert_eq!(public(&g, IMPERIAL).influence, 2);
}

#[test]
fn r5_6_reaching_seven_vp_wins_before_the_event_effect() {
    // Fall of a Hero would make the loser move a character to the reserve.
    let mut g = struggle(
        json!({
            "event_deck": ["Fall of a Hero"],
            "balance": "rebel",
            "rebel": {"deck": ["Military 5", "Military 4"], "vp": 6},
            "imperial": {"deck": ["Boba Fett"]},
        }),
        Bureaucracy,
        Bureaucracy,
    );
    play_cards(&mut g, 2, 1);
    end_struggle(&mut g);
    let o = g.outcome().expect("the game is over");
    assert_eq!(o.winner, Some(REBEL));
    assert_eq!(o.reason, OutcomeReason::VictoryPoints);
    assert_eq!(o.vp, [7, 0]);
    assert_eq!(pending_step(&g), None);
    assert_eq!(in_play(&g, IMPERIAL), ["Boba Fett"], "no character went to the reserve");
    assert_eq!(view(&g, SPECTATOR).balance, Some(REBEL), "no balance step");
    assert_eq!(influence(&g, REBEL), 4, "the award itself happened");
}

#[test]
fn r5_6_with_no_winner_the_event_goes_to_the_bottom_of_the_event_deck() {
    let mut g = struggle(
        json!({
            "event_deck": ["Diplomatic Freedom", "Battle of Hoth"],
            "balance": "rebel",
            "rebel": {"deck": TWELVE},
            "imperial": {"deck": THIRTEEN},
        }),
        Bureaucracy,
        Bureaucracy,
    );
    play_cards(&mut g, 3, 3);
    let events = end_struggle(&mut g);
    assert!(seen(&events, SPECTATOR).contains(&LogEntry::EventToBottom {
        event: event("Diplomatic Freedom")
    }));
    let deck = g.testing_event_deck();
    assert_eq!(deck.last(), Some(&event("Diplomatic Freedom")));
    assert_eq!(deck.len(), 23, "Battle of Hoth left the top");
    assert_eq!(view(&g, SPECTATOR).event.unwrap().event, event("Battle of Hoth"));
}

#[test]
fn r5_7_seven_vp_ends_the_game() {
    let mut g = freedom(REBEL, &TEN, &EIGHT, Bureaucracy, Bureaucracy);
    assert!(!g.is_over(), "1 VP");
    let mut g2 = struggle(
        json!({
            "event_deck": ["Diplomatic Freedom"],
            "balance": "imperial",
            "imperial": {"deck": TEN, "vp": 6},
            "rebel": {"deck": EIGHT},
        }),
        Bureaucracy,
        Bureaucracy,
    );
    play_cards(&mut g2, 2, 2);
    end_struggle(&mut g2);
    let o = g2.outcome().unwrap();
    assert_eq!((o.winner, o.vp), (Some(IMPERIAL), ByFaction::from([0, 7])));
    assert_eq!(phase(&g2), PhaseName::GameOver);
    assert!(g2.seats_to_act().is_empty());
    assert_refused(&mut g2, IMPERIAL, Action::PlayCard, "game_over");
    assert_refused(
        &mut g2,
        REBEL,
        Action::ChooseStrategy {
            target: REBEL,
            strategy: Deception,
        },
        "game_over",
    );
    // The unfinished game goes on.
    assert!(!g.seats_to_act().is_empty());
    choose(&mut g, Deception, Deception);
}

#[test]
fn r5_7_six_vp_is_not_enough() {
    let g = round(
        json!({
            "event_deck": ["Diplomatic Freedom"],
            "balance": "rebel",
            "rebel": {"deck": TEN, "vp": 5},
            "imperial": {"deck": EIGHT},
        }),
        Bureaucracy,
        Bureaucracy,
    );
    assert_eq!(g.vp(REBEL), 6);
    assert!(!g.is_over());
    assert_eq!(g.round(), 2);
}

#[test]
fn r5_8_cleanup_gathers_every_resource_card_into_the_deck() {
    let mut g = struggle(
        json!({
            "event_deck": ["Battle of Hoth"],
            "balance": "rebel",
            "rebel": {"deck": ["Military 3", "Yoda"]},
            "imperial": {"deck": ["Recon 2", "Recon 3"]},
        }),
        Bureaucracy,
        Bureaucracy,
    );
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Military 3"); // Recon 2 to the Imperial discard pile
    play(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    pass(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Yoda");
    finish_round(&mut g);
    for (f, reserve_size) in [(REBEL, 7u32), (IMPERIAL, 8)] {
        let p = public(&g, f);
        assert!(p.play_area.is_empty());
        assert!(p.discard_pile.is_empty());
        assert_eq!(p.reserve_size, reserve_size);
        assert_eq!(p.deck_size, 24 - reserve_size);
    }
    assert!(deck(&g, IMPERIAL).contains(&"Recon 2"));
    assert!(deck(&g, REBEL).contains(&"Yoda"));
}

#[test]
fn r5_8_the_reserve_stays_out_of_the_deck() {
    let g = freedom(REBEL, &TEN, &EIGHT, Bureaucracy, Bureaucracy);
    let reserve = reserve(&g, REBEL);
    assert_eq!(reserve.len(), 8);
    assert!(deck(&g, REBEL).iter().all(|c| !reserve.contains(c)));
    assert_eq!(sorted(deck(&g, REBEL)), sorted(basics()));
}

#[test]
fn r5_9_the_token_turns_to_the_side_with_fewer_vp() {
    let g = freedom(REBEL, &TEN, &EIGHT, Bureaucracy, Bureaucracy);
    assert_eq!(view(&g, SPECTATOR).balance, Some(IMPERIAL), "Rebel 1 VP, Imperial 0");
}

#[test]
fn r5_9_fewer_vp_even_for_the_round_winner() {
    let g = round(
        json!({
            "event_deck": ["Diplomatic Freedom"],
            "balance": "rebel",
            "rebel": {"deck": EIGHT, "vp": 3},
            "imperial": {"deck": TEN},
        }),
        Bureaucracy,
        Bureaucracy,
    );
    assert_eq!(last_result(&g).winner, Some(IMPERIAL));
    assert_eq!(view(&g, SPECTATOR).balance, Some(IMPERIAL), "Imperial 1 VP, Rebel 3");
}

#[test]
fn r5_9_on_equal_vp_the_token_turns_to_the_loser() {
    let g = round(
        json!({
            "event_deck": ["Diplomatic Freedom"],
            "balance": "imperial",
            "rebel": {"deck": EIGHT, "vp": 1},
            "imperial": {"deck": TEN},
        }),
        Bureaucracy,
        Bureaucracy,
    );
    assert_eq!(last_result(&g).winner, Some(IMPERIAL));
    assert_eq!((g.vp(REBEL), g.vp(IMPERIAL)), (1, 1));
    assert_eq!(view(&g, SPECTATOR).balance, Some(REBEL));
}

#[test]
fn r5_9_on_equal_vp_with_no_winner_the_token_stays() {
    for side in Faction::BOTH {
        let g = freedom(side, &TWELVE, &THIRTEEN, Bureaucracy, Bureaucracy);
        assert_eq!(last_result(&g).winner, None);
        assert_eq!(view(&g, SPECTATOR).balance, Some(side));
    }
}

#[test]
fn r5_9_no_winner_with_unequal_vp_still_turns_the_token() {
    let g = round(
        json!({
            "event_deck": ["Diplomatic Freedom"],
            "balance": "imperial",
            "rebel": {"deck": TWELVE},
            "imperial": {"deck": THIRTEEN, "vp": 2},
        }),
        Bureaucracy,
        Bureaucracy,
    );
    assert_eq!(last_result(&g).winner, None);
    assert_eq!(view(&g, SPECTATOR).balance, Some(REBEL));
}

#[test]
fn r5_9_the_tie_break_reads_the_token_before_it_turns() {
    let g = freedom(IMPERIAL, &EIGHT, &["Recon 4", "The Force 4"], Bureaucracy, Bureaucracy);
    assert_eq!(last_result(&g).winner, Some(IMPERIAL));
    assert_eq!(view(&g, SPECTATOR).balance, Some(REBEL));
}

#[test]
fn r5_10_the_chosen_strategy_becomes_used() {
    let g = freedom(REBEL, &TEN, &EIGHT, Deception, Infiltration);
    assert_eq!(used(&g, REBEL), [Deception]);
    assert_eq!(used(&g, IMPERIAL), [Infiltration]);
    assert_eq!(unused(&g, REBEL).len(), 4);
}

#[test]
fn r5_10_the_fifth_used_strategy_returns_all_five() {
    let g = round(
        json!({
            "event_deck": ["Diplomatic Freedom"],
            "balance": "rebel",
            "rebel": {"deck": TEN, "unused_strategies": ["bureaucracy"]},
            "imperial": {"deck": EIGHT, "unused_strategies": ["bureaucracy", "support"]},
        }),
        Bureaucracy,
        Bureaucracy,
    );
    assert_eq!(g.round(), 2);
    assert!(used(&g, REBEL).is_empty());
    assert_eq!(unused(&g, REBEL), Strategy::ALL.to_vec());
    assert_eq!(
        used(&g, IMPERIAL),
        [Deception, DirectAssault, Infiltration, Bureaucracy]
    );
    assert_eq!(unused(&g, IMPERIAL), [Support]);
}

#[test]
fn r5_11_after_round_100_more_vp_wins() {
    assert_eq!(evr_rules::ROUND_LIMIT, 100);
    let g = round(
        json!({
            "round": 100,
            "event_deck": ["Diplomatic Freedom"],
            "balance": "rebel",
            "rebel": {"deck": EIGHT, "vp": 3},
            "imperial": {"deck": TEN, "vp": 1},
        }),
        Bureaucracy,
        Bureaucracy,
    );
    let o = g.outcome().expect("the game ends after round 100");
    assert_eq!(o.reason, OutcomeReason::RoundLimit);
    assert_eq!(o.vp, [3, 2]);
    assert_eq!(o.winner, Some(REBEL));
}

#[test]
fn r5_11_after_round_100_equal_vp_is_a_draw() {
    let g = round(
        json!({
            "round": 100,
            "event_deck": ["Diplomatic Freedom"],
            "balance": "rebel",
            "rebel": {"deck": EIGHT, "vp": 1},
            "imperial": {"deck": TEN},
        }),
        Bureaucracy,
        Bureaucracy,
    );
    let o = g.outcome().unwrap();
    assert_eq!(o.reason, OutcomeReason::RoundLimit);
    assert_eq!((o.winner, o.vp), (None, ByFaction::from([1, 1])));
}

#[test]
fn r5_11_round_99_is_not_the_end() {
    let g = round(
        json!({
            "round": 99,
            "event_deck": ["Diplomatic Freedom"],
            "balance": "rebel",
            "rebel": {"deck": EIGHT},
            "imperial": {"deck": TEN},
        }),
        Bureaucracy,
        Bureaucracy,
    );
    assert!(!g.is_over());
    assert_eq!(g.round(), 100);
}

#[test]
fn r5_6_the_event_effect_resolves_after_the_award() {
    // Support (before victory) first, then Occupation of Cloud City (after the award).
    let mut g = round(
        json!({
            "event_deck": ["Occupation of Cloud City"],
            "balance": "rebel",
            "rebel": {"deck": ["Military 3", "Military 2"]},
            "imperial": {"deck": ["Military 2", "Diplomacy 2"]},
        }),
        Support,
        Bureaucracy,
    );
    assert_eq!(
        view(&g, SPECTATOR).pending.unwrap().source,
        evr_rules::ChoiceSource::Strategy { strategy: Support }
    );
    assert_eq!(last_result(&g).winner, None);
    answer(&mut g, REBEL, Choice::NO_CARDS);
    assert_eq!(
        view(&g, SPECTATOR).pending.unwrap().source,
        evr_rules::ChoiceSource::Event {
            event: event("Occupation of Cloud City")
        }
    );
    assert_eq!(last_result(&g).winner, Some(REBEL));
    assert_eq!(public(&g, REBEL).won_events, [event("Occupation of Cloud City")]);
    assert_eq!(influence(&g, REBEL), 3);
    answer(&mut g, REBEL, Choice::NO_CARDS);
    assert_eq!(g.round(), 2);
}
