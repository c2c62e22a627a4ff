//! R-2 Setup (full game) and the tutorial.

use std::collections::HashSet;

use crate::support::*;

fn choose_characters(g: &mut Game, f: Faction, chars: &[&str]) -> Vec<evr_rules::Event> {
    ok(
        g,
        f,
        Action::ChooseCharacters {
            characters: mask(chars),
        },
    )
}

const FOUR_REBELS: [&str; 4] = ["Han Solo", "Leia Organa", "Luke Skywalker", "Yoda"];
const FOUR_IMPERIALS: [&str; 4] = ["Boba Fett", "Darth Vader", "Emperor Palpatine", "IG-88"];

#[test]
fn r2_1_the_event_deck_holds_the_24_events_shuffled() {
    let mut orders = HashSet::new();
    for seed in 0..8 {
        let g = Game::new(Mode::Full, seed).unwrap();
        let deck = g.testing_event_deck();
        assert_eq!(deck.len(), 24);
        assert_eq!(deck.iter().collect::<HashSet<_>>().len(), 24);
        assert_eq!(view(&g, SPECTATOR).event_deck_size, 24);
        orders.insert(deck);
    }
    assert!(orders.len() > 1, "the event deck order does not depend on the seed");
}

#[test]
fn r2_2_both_seats_take_part_from_the_start() {
    let g = Game::new(Mode::Full, 5).unwrap();
    assert_eq!(g.seats_to_act(), vec![REBEL, IMPERIAL]);
    assert_eq!(phase(&g), PhaseName::CharacterChoice);
}

#[test]
fn r2_3_each_player_starts_with_all_five_strategies_unused() {
    let g = Game::new(Mode::Full, 5).unwrap();
    for f in Faction::BOTH {
        assert_eq!(unused(&g, f), Strategy::ALL.to_vec());
        assert_eq!(public(&g, f).unused_strategy_count, 5);
        assert!(used(&g, f).is_empty());
    }
}

#[test]
fn r2_4_the_legal_choices_are_every_set_of_four_own_characters() {
    let g = Game::new(Mode::Full, 5).unwrap();
    for f in Faction::BOTH {
        let actions = g.legal_actions(f);
        assert_eq!(actions.len(), 70, "8 choose 4");
        let distinct: HashSet<_> = actions.iter().collect();
        assert_eq!(distinct.len(), 70);
        for a in actions {
            let Action::ChooseCharacters { characters } = a else {
                panic!("{a:?}")
            };
            assert_eq!(characters.len(), 4);
            assert!(characters.iter().all(|c| c.character_faction() == Some(f)));
        }
    }
}

#[test]
fn r2_4_a_choice_of_other_than_four_own_characters_is_refused() {
    let mut g = Game::new(Mode::Full, 5).unwrap();
    let choice = |chars: &[&str]| Action::ChooseCharacters {
        characters: mask(chars),
    };
    assert_refused(&mut g, REBEL, choice(&FOUR_REBELS[..3]), "invalid_character_choice");
    assert_refused(
        &mut g,
        REBEL,
        choice(&["Han Solo", "Leia Organa", "Luke Skywalker", "Yoda", "Chewbacca"]),
        "invalid_character_choice",
    );
    assert_refused(
        &mut g,
        REBEL,
        choice(&["Han Solo", "Leia Organa", "Luke Skywalker", "Darth Vader"]),
        "unknown_card",
    );
    assert_refused(
        &mut g,
        IMPERIAL,
        choice(&["Military 2", "Darth Vader", "Boba Fett", "IG-88"]),
        "unknown_card",
    );
}

#[test]
fn r2_4_the_choice_is_hidden_from_the_opponent_and_spectators() {
    let mut g = Game::new(Mode::Full, 5).unwrap();
    let events = choose_characters(&mut g, REBEL, &FOUR_REBELS);
    let own = seen_by(&g, Viewer::Seat(REBEL), REBEL);
    assert_eq!(own.characters, Some(mask(&FOUR_REBELS)));
    for viewer in [Viewer::Seat(IMPERIAL), SPECTATOR] {
        let p = seen_by(&g, viewer, REBEL);
        assert!(p.characters_chosen, "that the choice was made is public");
        assert_eq!(p.characters, None);
        assert_eq!(
            seen(&events, viewer),
            [LogEntry::CharactersChosen {
                faction: REBEL,
                characters: None
            }]
        );
    }
}

#[test]
fn r2_4_choices_are_simultaneous_and_final() {
    let mut g = Game::new(Mode::Full, 5).unwrap();
    choose_characters(&mut g, IMPERIAL, &FOUR_IMPERIALS);
    assert_eq!(phase(&g), PhaseName::CharacterChoice, "the Rebel has not chosen yet");
    assert!(g.legal_actions(IMPERIAL).is_empty());
    assert_refused(
        &mut g,
        IMPERIAL,
        Action::ChooseCharacters {
            characters: mask(&["Admiral Piett", "Darth Vader", "Emperor Palpatine", "IG-88"]),
        },
        "already_chosen",
    );
    choose_characters(&mut g, REBEL, &FOUR_REBELS);
    assert_eq!(phase(&g), PhaseName::Planning);
}

#[test]
fn r2_4_the_other_four_characters_form_the_reserve() {
    let mut g = Game::new(Mode::Full, 5).unwrap();
    choose_characters(&mut g, REBEL, &FOUR_REBELS);
    choose_characters(&mut g, IMPERIAL, &FOUR_IMPERIALS);
    assert_eq!(
        reserve(&g, REBEL),
        ["Chewbacca", "Lando Calrissian", "Obi-Wan Kenobi", "R2-D2 and C-3PO"]
    );
    assert_eq!(
        reserve(&g, IMPERIAL),
        ["Admiral Piett", "General Veers", "Grand Moff Tarkin", "Jabba the Hutt"]
    );
    assert_eq!(
        seen_by(&g, Viewer::Seat(REBEL), REBEL).reserve_known,
        g.testing_reserve(REBEL)
    );
    assert!(seen_by(&g, Viewer::Seat(IMPERIAL), REBEL).reserve_known.is_empty());
    assert_eq!(public(&g, REBEL).reserve_size, 4);
}

#[test]
fn r2_5_the_deck_is_the_sixteen_basics_and_the_four_chosen_characters() {
    let mut g = Game::new(Mode::Full, 5).unwrap();
    choose_characters(&mut g, REBEL, &FOUR_REBELS);
    choose_characters(&mut g, IMPERIAL, &FOUR_IMPERIALS);
    for (f, chosen) in [(REBEL, FOUR_REBELS), (IMPERIAL, FOUR_IMPERIALS)] {
        let mut expected = basics();
        expected.extend(chosen);
        assert_eq!(sorted(deck(&g, f)), sorted(expected.clone()));
        let contents = seen_by(&g, Viewer::Seat(f), f).deck_contents.unwrap();
        assert_eq!(sorted(names(contents.iter())), sorted(expected));
    }
}

#[test]
fn r2_5_the_deck_is_shuffled() {
    let orders: HashSet<Vec<Card>> = (0..6)
        .map(|seed| {
            let mut g = Game::new(Mode::Full, seed).unwrap();
            choose_characters(&mut g, REBEL, &FOUR_REBELS);
            choose_characters(&mut g, IMPERIAL, &FOUR_IMPERIALS);
            g.testing_deck(REBEL)
        })
        .collect();
    assert!(orders.len() > 1);
}

#[test]
fn r2_6_each_player_gains_two_influence() {
    let g = Game::new(Mode::Full, 5).unwrap();
    for f in Faction::BOTH {
        assert_eq!(influence(&g, f), 2);
    }
}

#[test]
fn r2_7_the_balance_token_side_is_random() {
    let rebel = (0..200)
        .filter(|seed| view(&Game::new(Mode::Full, *seed).unwrap(), SPECTATOR).balance == Some(REBEL))
        .count();
    assert!((60..=140).contains(&rebel), "Rebel side {rebel} times in 200");
}

#[test]
fn r2_7_the_balance_token_is_set_at_creation_and_public() {
    // README ruling 10.
    let g = Game::new(Mode::Full, 9).unwrap();
    assert_eq!(phase(&g), PhaseName::CharacterChoice);
    let b = view(&g, SPECTATOR).balance;
    assert!(b.is_some());
    for v in Viewer::ALL {
        assert_eq!(view(&g, v).balance, b);
    }
}

// ----- the tutorial -----

fn tutorial_struggle(rebel: &[&str], imperial: &[&str]) -> Game {
    let mut g = tutorial(json!({"rebel": {"deck": rebel}, "imperial": {"deck": imperial}}));
    let mut need = ByFaction::new(rebel.len(), imperial.len());
    while phase(&g) == PhaseName::Struggle {
        let seat = turn(&g);
        if need[seat] > 0 {
            play(&mut g, seat);
            need[seat] -= 1;
        } else {
            pass(&mut g, seat);
        }
    }
    g
}

#[test]
fn r2_8_the_tutorial_event_is_escape_from_tatooine() {
    let g = Game::new(Mode::Tutorial, 1).unwrap();
    let v = view(&g, SPECTATOR);
    assert_eq!(v.mode, Mode::Tutorial);
    let e = v.event.unwrap();
    assert_eq!(e.event, event("Escape From Tatooine"));
    assert_eq!((e.capacity, e.objective), (3, 11));
    assert_eq!(v.phase, PhaseName::Struggle, "no character choice, no Planning");
}

#[test]
fn r2_8_the_tutorial_has_no_characters_strategies_influence_or_token() {
    let g = Game::new(Mode::Tutorial, 1).unwrap();
    assert_eq!(view(&g, SPECTATOR).balance, None);
    for f in Faction::BOTH {
        let own = seen_by(&g, Viewer::Seat(f), f);
        assert_eq!(own.influence, 0);
        assert_eq!(own.reserve_size, 0);
        assert_eq!(own.unused_strategy_count, 0);
        assert!(own.used_strategies.is_empty());
        assert_eq!(own.deck_size, 16);
        assert_eq!(sorted(names(own.deck_contents.unwrap().iter())), sorted(basics()));
        assert_eq!(g.card_count(f), 16);
    }
}

#[test]
fn r2_8_the_tutorial_refuses_setups_with_influence_or_characters() {
    for side in [
        json!({"influence": 2}),
        json!({"reserve": ["Yoda"]}),
        json!({"unused_strategies": ["deception"]}),
    ] {
        let setup: Setup = serde_json::from_value(json!({"mode": "tutorial", "rebel": side})).unwrap();
        assert!(Game::from_setup(&setup).is_err(), "{side}");
    }
}

#[test]
fn r2_8_the_rebel_takes_the_first_turn() {
    for seed in 0..5 {
        let mut g = Game::new(Mode::Tutorial, seed).unwrap();
        assert_eq!(turn(&g), REBEL);
        assert_eq!(g.seats_to_act(), vec![REBEL]);
        assert_refused(&mut g, IMPERIAL, Action::PlayCard, "not_your_turn");
    }
}

#[test]
fn r2_8_the_actions_are_play_use_a_power_and_pass() {
    let mut g = tutorial(json!({"rebel": {"deck": ["Military 3", "Military 4"]}, "imperial": {"deck": ["Recon 2"]}}));
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Military 3");
    play(&mut g, IMPERIAL);
    for a in g.legal_actions(REBEL) {
        assert!(
            matches!(a, Action::PlayCard | Action::UsePower { .. } | Action::Pass),
            "{a:?}"
        );
    }
    assert_refused(
        &mut g,
        REBEL,
        Action::SpendInfluence {
            card: card("Military 3"),
        },
        "no_influence",
    );
}

#[test]
fn r2_8_the_higher_total_not_over_the_objective_wins() {
    let g = tutorial_struggle(&["Military 5", "Diplomacy 5"], &["Military 4", "Diplomacy 4"]);
    let o = g.outcome().expect("the tutorial ends after its struggle");
    assert_eq!(o.winner, Some(REBEL));
    assert_eq!(o.reason, OutcomeReason::Tutorial);
}

#[test]
fn r2_8_one_bust_the_other_player_wins() {
    let g = tutorial_struggle(&["Military 5", "Diplomacy 5", "Recon 2"], &["Military 2"]);
    assert_eq!(g.outcome().unwrap().winner, Some(IMPERIAL), "12 is over 11");
    let g = tutorial_struggle(&["Military 2"], &["Military 5", "Diplomacy 5", "Recon 2"]);
    assert_eq!(g.outcome().unwrap().winner, Some(REBEL));
}

#[test]
fn r2_8_equal_totals_nobody_wins() {
    let g = tutorial_struggle(&["Military 5", "Diplomacy 3"], &["Military 4", "Diplomacy 4"]);
    assert_eq!(g.outcome().unwrap().winner, None);
}

#[test]
fn r2_8_both_bust_nobody_wins() {
    let g = tutorial_struggle(
        &["Military 5", "Diplomacy 5", "Recon 4"],
        &["Military 5", "Diplomacy 5", "Recon 3"],
    );
    assert_eq!(g.outcome().unwrap().winner, None);
}

#[test]
fn r2_8_no_vp_and_the_game_ends_after_one_struggle() {
    let mut g = tutorial_struggle(&["Military 5"], &["Military 2"]);
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(REBEL));
    assert_eq!(o.vp, [0, 0]);
    assert_eq!(phase(&g), PhaseName::GameOver);
    for f in Faction::BOTH {
        assert!(public(&g, f).won_events.is_empty());
        assert!(g.legal_actions(f).is_empty());
    }
    assert_eq!(g.round(), 1);
    assert_refused(&mut g, REBEL, Action::Pass, "game_over");
}
