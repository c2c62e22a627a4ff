//! R-3 Round structure: Planning.

use std::collections::HashMap;

use crate::support::*;

fn choose_action(target: Faction, strategy: Strategy) -> Action {
    Action::ChooseStrategy { target, strategy }
}

fn slot(g: &Game, viewer: Viewer, f: Faction) -> StrategySlot {
    seen_by(g, viewer, f).strategy
}

#[test]
fn r3_1_the_top_event_becomes_the_current_event() {
    let g = game(json!({"event_deck": ["Battle of Hoth", "Battle of Yavin"]}));
    assert_eq!(view(&g, SPECTATOR).event.unwrap().event, event("Battle of Hoth"));
    assert_eq!(g.testing_event_deck()[0], event("Battle of Yavin"));
    assert_eq!(view(&g, SPECTATOR).event_deck_size, 23);
}

#[test]
fn r3_1_the_event_is_shown_to_both_players_before_strategies_are_chosen() {
    let g = game(json!({"event_deck": ["Attack on Echo Base"]}));
    assert_eq!(phase(&g), PhaseName::Planning);
    for v in Viewer::ALL {
        let e = view(&g, v).event.expect("revealed");
        assert_eq!(e.event, event("Attack on Echo Base"));
        assert_eq!(e.effect, evr_rules::EventEffect::BanDiplomacy);
    }
    assert!(log(&g, SPECTATOR).contains(&LogEntry::RoundStarted {
        round: 1,
        event: event("Attack on Echo Base")
    }));
}

#[test]
fn r3_1_each_round_reveals_the_next_event() {
    let mut g = struggle(
        json!({"event_deck": ["Battle of Hoth", "Battle of Yavin"], "balance": "rebel"}),
        Bureaucracy,
        Bureaucracy,
    );
    finish_round(&mut g);
    assert_eq!(g.round(), 2);
    assert_eq!(view(&g, SPECTATOR).event.unwrap().event, event("Battle of Yavin"));
}

#[test]
fn r3_2_each_player_chooses_one_of_their_unused_strategies() {
    let g = game(json!({"rebel": {"used_strategies": ["deception", "support"]}}));
    assert_eq!(
        g.legal_actions(REBEL),
        [DirectAssault, Infiltration, Bureaucracy]
            .map(|s| choose_action(REBEL, s))
            .to_vec()
    );
    assert_eq!(
        g.legal_actions(IMPERIAL),
        Strategy::ALL.map(|s| choose_action(IMPERIAL, s)).to_vec()
    );
}

#[test]
fn r3_2_a_used_strategy_cannot_be_chosen() {
    let mut g = game(json!({"rebel": {"used_strategies": ["deception"]}}));
    assert_refused(&mut g, REBEL, choose_action(REBEL, Deception), "strategy_not_available");
}

#[test]
fn r3_2_a_player_cannot_choose_the_opponents_strategy() {
    let mut g = game(json!({}));
    assert_refused(&mut g, IMPERIAL, choose_action(REBEL, Deception), "not_your_choice");
}

#[test]
fn r3_2_a_chosen_strategy_is_secret_and_committed() {
    let mut g = game(json!({}));
    choose_for(&mut g, REBEL, REBEL, Infiltration);
    assert_eq!(slot(&g, Viewer::Seat(REBEL), REBEL), StrategySlot::Known(Infiltration));
    assert_eq!(slot(&g, Viewer::Seat(IMPERIAL), REBEL), StrategySlot::Hidden);
    assert_eq!(slot(&g, SPECTATOR, REBEL), StrategySlot::Hidden);
    assert!(g.legal_actions(REBEL).is_empty());
    assert_refused(&mut g, REBEL, choose_action(REBEL, Support), "already_chosen");
    assert_eq!(phase(&g), PhaseName::Planning);
}

#[test]
fn r3_2_the_struggle_starts_when_both_have_chosen_in_either_order() {
    let mut g = game(json!({}));
    choose_for(&mut g, IMPERIAL, IMPERIAL, Support);
    assert_eq!(phase(&g), PhaseName::Planning);
    assert_eq!(slot(&g, Viewer::Seat(REBEL), IMPERIAL), StrategySlot::Hidden);
    choose_for(&mut g, REBEL, REBEL, Deception);
    assert_eq!(phase(&g), PhaseName::Struggle);
    assert_eq!(slot(&g, Viewer::Seat(IMPERIAL), REBEL), StrategySlot::Hidden);
}

#[test]
fn r3_3_an_infiltrated_players_strategy_is_chosen_by_the_opponent() {
    let mut g = game(json!({"rebel": {"infiltrated": true, "used_strategies": ["deception", "support"]}}));
    assert!(g.legal_actions(REBEL).is_empty());
    assert_refused(&mut g, REBEL, choose_action(REBEL, Bureaucracy), "not_your_choice");
    let imperial = g.legal_actions(IMPERIAL);
    for s in [DirectAssault, Infiltration, Bureaucracy] {
        assert!(imperial.contains(&choose_action(REBEL, s)));
    }
    assert!(
        !imperial.contains(&choose_action(REBEL, Deception)),
        "only unused strategies"
    );
    assert_eq!(
        view(&g, SPECTATOR).planning.unwrap().chooser,
        [Some(IMPERIAL), Some(IMPERIAL)]
    );
    choose_for(&mut g, IMPERIAL, REBEL, DirectAssault);
    assert_eq!(g.testing_chosen_strategy(REBEL), Some(DirectAssault));
}

#[test]
fn r3_3_an_infiltrated_strategy_is_known_to_both_players_only() {
    let mut g = game(json!({"rebel": {"infiltrated": true}}));
    choose_for(&mut g, IMPERIAL, REBEL, Bureaucracy);
    assert_eq!(slot(&g, Viewer::Seat(REBEL), REBEL), StrategySlot::Known(Bureaucracy));
    assert_eq!(
        slot(&g, Viewer::Seat(IMPERIAL), REBEL),
        StrategySlot::Known(Bureaucracy)
    );
    assert_eq!(slot(&g, SPECTATOR, REBEL), StrategySlot::Hidden);
}

#[test]
fn r3_3_both_infiltrated_each_chooses_the_others_strategy() {
    let mut g = game(json!({"rebel": {"infiltrated": true}, "imperial": {"infiltrated": true}}));
    assert_eq!(
        g.legal_actions(REBEL),
        Strategy::ALL.map(|s| choose_action(IMPERIAL, s)).to_vec()
    );
    assert_eq!(
        g.legal_actions(IMPERIAL),
        Strategy::ALL.map(|s| choose_action(REBEL, s)).to_vec()
    );
    choose_for(&mut g, IMPERIAL, REBEL, Support);
    choose_for(&mut g, REBEL, IMPERIAL, Deception);
    assert_eq!(phase(&g), PhaseName::Struggle);
    assert_eq!(g.testing_chosen_strategy(REBEL), Some(Support));
    assert_eq!(g.testing_chosen_strategy(IMPERIAL), Some(Deception));
}

#[test]
fn r3_3_a_diverted_strategy_is_drawn_from_the_unused_ones_known_to_its_owner_only() {
    let mut drawn = HashMap::new();
    for seed in 0..40 {
        let g = game(json!({
            "seed": seed,
            "rebel": {"diversion": true, "unused_strategies": ["bureaucracy", "support"]},
        }));
        let s = g.testing_chosen_strategy(REBEL).expect("drawn at once");
        assert!(matches!(s, Bureaucracy | Support), "{s:?} was used");
        *drawn.entry(s).or_insert(0) += 1;
        assert!(g.legal_actions(REBEL).is_empty());
        assert_eq!(view(&g, SPECTATOR).planning.unwrap().chooser.rebel, None);
        assert_eq!(slot(&g, Viewer::Seat(REBEL), REBEL), StrategySlot::Known(s));
        assert_eq!(slot(&g, Viewer::Seat(IMPERIAL), REBEL), StrategySlot::Hidden);
        assert_eq!(slot(&g, SPECTATOR, REBEL), StrategySlot::Hidden);
    }
    assert_eq!(drawn.len(), 2);
}

#[test]
fn r3_3_a_diverted_strategy_is_drawn_uniformly() {
    let mut drawn: HashMap<Strategy, u32> = HashMap::new();
    for seed in 0..500 {
        let g = game(json!({"seed": seed, "imperial": {"diversion": true}}));
        *drawn.entry(g.testing_chosen_strategy(IMPERIAL).unwrap()).or_insert(0) += 1;
    }
    for s in Strategy::ALL {
        let n = drawn.get(&s).copied().unwrap_or(0);
        assert!((60..=140).contains(&n), "{s:?} drawn {n} times in 500");
    }
}

#[test]
fn r3_3_infiltration_replaces_diversion() {
    // RULING.
    let mut g = game(json!({"rebel": {"infiltrated": true, "diversion": true}}));
    assert_eq!(g.testing_chosen_strategy(REBEL), None, "not drawn at random");
    assert_eq!(view(&g, SPECTATOR).planning.unwrap().chooser.rebel, Some(IMPERIAL));
    choose_for(&mut g, IMPERIAL, REBEL, Deception);
    assert_eq!(g.testing_chosen_strategy(REBEL), Some(Deception));
}

#[test]
fn r3_3_a_located_strategy_is_chosen_first_and_revealed() {
    let mut g = game(json!({"rebel": {"located": true}}));
    assert!(g.legal_actions(IMPERIAL).is_empty());
    assert_refused(
        &mut g,
        IMPERIAL,
        choose_action(IMPERIAL, Deception),
        "wait_for_located_strategy",
    );
    choose_for(&mut g, REBEL, REBEL, DirectAssault);
    for v in Viewer::ALL {
        // README ruling 9: revealed to spectators too.
        assert_eq!(slot(&g, v, REBEL), StrategySlot::Known(DirectAssault), "{v:?}");
    }
    assert_eq!(g.legal_actions(IMPERIAL).len(), 5);
    choose_for(&mut g, IMPERIAL, IMPERIAL, Deception);
    assert_eq!(phase(&g), PhaseName::Struggle);
    assert_eq!(slot(&g, Viewer::Seat(REBEL), IMPERIAL), StrategySlot::Hidden);
}

#[test]
fn r3_3_a_located_and_infiltrated_strategy_is_chosen_first_by_the_infiltrator() {
    let mut g = game(json!({"rebel": {"located": true, "infiltrated": true}}));
    assert_eq!(
        g.legal_actions(IMPERIAL),
        Strategy::ALL.map(|s| choose_action(REBEL, s)).to_vec(),
        "the Imperial's own choice waits"
    );
    choose_for(&mut g, IMPERIAL, REBEL, Bureaucracy);
    assert_eq!(slot(&g, SPECTATOR, REBEL), StrategySlot::Known(Bureaucracy));
    choose_for(&mut g, IMPERIAL, IMPERIAL, Support);
    assert_eq!(phase(&g), PhaseName::Struggle);
}

#[test]
fn r3_3_located_order_holds_when_both_are_infiltrated() {
    // RULING: the located player's strategy is chosen (by the infiltrator) and revealed first.
    let mut g = game(json!({
        "rebel": {"infiltrated": true, "located": true},
        "imperial": {"infiltrated": true},
    }));
    assert!(g.legal_actions(REBEL).is_empty());
    assert_refused(
        &mut g,
        REBEL,
        choose_action(IMPERIAL, Deception),
        "wait_for_located_strategy",
    );
    choose_for(&mut g, IMPERIAL, REBEL, Infiltration);
    for v in Viewer::ALL {
        assert_eq!(slot(&g, v, REBEL), StrategySlot::Known(Infiltration));
    }
    assert!(g.legal_actions(IMPERIAL).is_empty());
    choose_for(&mut g, REBEL, IMPERIAL, Deception);
    assert_eq!(phase(&g), PhaseName::Struggle);
    assert_eq!(slot(&g, Viewer::Seat(REBEL), IMPERIAL), StrategySlot::Known(Deception));
    assert_eq!(
        slot(&g, Viewer::Seat(IMPERIAL), IMPERIAL),
        StrategySlot::Known(Deception)
    );
    assert_eq!(slot(&g, SPECTATOR, IMPERIAL), StrategySlot::Hidden);
}

#[test]
fn r3_3_a_located_and_diverted_strategy_is_drawn_and_revealed_first() {
    let g = game(json!({"imperial": {"located": true, "diversion": true}}));
    let s = g.testing_chosen_strategy(IMPERIAL).expect("drawn at once");
    for v in Viewer::ALL {
        assert_eq!(slot(&g, v, IMPERIAL), StrategySlot::Known(s));
    }
    assert_eq!(g.legal_actions(REBEL).len(), 5);
}

#[test]
fn r3_3_modifiers_last_one_round() {
    let mut g = game(json!({"event_deck": ["Battle of Hoth"], "balance": "rebel", "rebel": {"infiltrated": true}}));
    assert!(view(&g, SPECTATOR).rebel.modifiers.infiltrated);
    choose_for(&mut g, IMPERIAL, REBEL, Bureaucracy);
    choose_for(&mut g, IMPERIAL, IMPERIAL, Bureaucracy);
    finish_round(&mut g);
    assert_eq!(g.round(), 2);
    assert!(!view(&g, SPECTATOR).rebel.modifiers.infiltrated);
    assert_eq!(
        view(&g, SPECTATOR).planning.unwrap().chooser,
        [Some(REBEL), Some(IMPERIAL)]
    );
}

#[test]
fn r3_3_a_re_choice_is_secret_again_even_from_the_infiltrator() {
    let mut g = game(json!({"balance": "rebel", "rebel": {"infiltrated": true, "deck": ["R2-D2 and C-3PO"]}}));
    choose_for(&mut g, IMPERIAL, REBEL, DirectAssault);
    choose_for(&mut g, IMPERIAL, IMPERIAL, Bureaucracy);
    assert_eq!(
        slot(&g, Viewer::Seat(IMPERIAL), REBEL),
        StrategySlot::Known(DirectAssault)
    );
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "R2-D2 and C-3PO");
    answer(&mut g, REBEL, Choice::Strategy { strategy: Support });
    assert_eq!(slot(&g, Viewer::Seat(IMPERIAL), REBEL), StrategySlot::Hidden);
    assert_eq!(slot(&g, Viewer::Seat(REBEL), REBEL), StrategySlot::Known(Support));
}

#[test]
fn r3_3_a_revealed_located_strategy_re_chosen_by_palpatine_is_secret_again() {
    let mut g = game(json!({
        "balance": "imperial",
        "rebel": {"located": true},
        "imperial": {"deck": ["Emperor Palpatine"]},
    }));
    choose(&mut g, Infiltration, Bureaucracy);
    assert_eq!(slot(&g, SPECTATOR, REBEL), StrategySlot::Known(Infiltration));
    play(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    power(&mut g, IMPERIAL, "Emperor Palpatine");
    answer(&mut g, REBEL, Choice::Strategy { strategy: Deception });
    assert_eq!(slot(&g, SPECTATOR, REBEL), StrategySlot::Hidden);
    assert_eq!(slot(&g, Viewer::Seat(IMPERIAL), REBEL), StrategySlot::Hidden);
    assert_eq!(slot(&g, Viewer::Seat(REBEL), REBEL), StrategySlot::Known(Deception));
}
