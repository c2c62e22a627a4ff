//! R-1 Components and vocabulary.

use crate::support::*;

const REBEL_CHARACTERS: [&str; 8] = [
    "Chewbacca",
    "Han Solo",
    "Lando Calrissian",
    "Leia Organa",
    "Luke Skywalker",
    "Obi-Wan Kenobi",
    "R2-D2 and C-3PO",
    "Yoda",
];

const IMPERIAL_CHARACTERS: [&str; 8] = [
    "Admiral Piett",
    "Boba Fett",
    "Darth Vader",
    "Emperor Palpatine",
    "General Veers",
    "Grand Moff Tarkin",
    "IG-88",
    "Jabba the Hutt",
];

/// cards.md: name, capacity, objective, VP, influence.
const EVENTS: [(&str, u32, u32, u32, u32); 24] = [
    ("Acquire the Death Star Plans", 3, 13, 2, 1),
    ("Attack on Echo Base", 3, 9, 2, 1),
    ("Balance of the Force", 5, 7, 1, 2),
    ("Battle of Endor", 5, 17, 3, 0),
    ("Battle of Hoth", 5, 17, 3, 0),
    ("Battle of Yavin", 4, 15, 3, 0),
    ("Control of Endor", 2, 9, 1, 2),
    ("Create a Diversion", 2, 5, 1, 2),
    ("Destroy the Shield Generator", 2, 8, 2, 1),
    ("Diplomatic Freedom", 3, 11, 1, 2),
    ("Display of Power", 4, 10, 3, 0),
    ("Duel on Cloud City", 6, 21, 3, 0),
    ("Escape From Tatooine", 3, 11, 1, 2),
    ("Evacuation of Echo Base", 4, 15, 2, 1),
    ("Fall of a Hero", 3, 9, 1, 2),
    ("Heart of the Empire", 4, 13, 1, 2),
    ("Locate the Rebel Base", 5, 9, 1, 2),
    ("Most Desperate Hour", 4, 13, 1, 2),
    ("Negotiate with the Hutts", 3, 13, 3, 0),
    ("Occupation of Cloud City", 2, 5, 2, 1),
    ("Rebel Uprising", 6, 19, 1, 2),
    ("Rescue Mission to Cloud City", 3, 7, 1, 2),
    ("Securing the Rebel Base on Yavin 4", 2, 9, 1, 2),
    ("Ultimate Power in the Universe", 3, 7, 2, 1),
];

fn characters_chosen(seed: u64) -> Game {
    let mut g = Game::new(Mode::Full, seed).unwrap();
    for f in Faction::BOTH {
        let first = g.legal_actions(f)[0];
        ok(&mut g, f, first);
    }
    g
}

#[test]
fn r1_1_two_factions_each_seat_controls_one() {
    let g = Game::new(Mode::Full, 1).unwrap();
    assert_eq!(Faction::BOTH, [REBEL, IMPERIAL]);
    assert_eq!(REBEL.opponent(), IMPERIAL);
    assert_eq!(IMPERIAL.opponent(), REBEL);
    let v = view(&g, SPECTATOR);
    assert_eq!(v.rebel.faction, REBEL);
    assert_eq!(v.imperial.faction, IMPERIAL);
    for f in Faction::BOTH {
        let actions = g.legal_actions(f);
        assert!(!actions.is_empty());
        for a in actions {
            let Action::ChooseCharacters { characters } = a else {
                panic!("unexpected {a:?}")
            };
            assert!(characters.iter().all(|c| c.character_faction() == Some(f)));
        }
    }
}

#[test]
fn r1_1_a_player_cannot_act_for_the_other_faction() {
    let mut g = game(json!({"balance": "rebel", "rebel": {"deck": ["Military 3"]}}));
    assert_refused(
        &mut g,
        REBEL,
        Action::ChooseStrategy {
            target: IMPERIAL,
            strategy: Deception,
        },
        "not_your_choice",
    );
    choose(&mut g, Bureaucracy, Bureaucracy);
    assert_refused(&mut g, IMPERIAL, Action::PlayCard, "not_your_turn");
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    // Darth Vader is an Imperial card: the Rebel player owns no card of that name.
    assert_refused(
        &mut g,
        REBEL,
        Action::UsePower {
            card: card("Darth Vader"),
        },
        "unknown_card",
    );
}

#[test]
fn r1_2_sixteen_basic_cards_four_of_each_kind_valued_two_to_five() {
    let cat = catalog().unwrap();
    assert_eq!(Card::basics().count(), 16);
    for kind in ["Military", "Diplomacy", "Recon", "The Force"] {
        for value in 2..=5 {
            let c = card(&format!("{kind} {value}"));
            assert!(!c.is_character());
            assert_eq!(c.character_faction(), None, "both factions own a {kind} {value}");
            assert_eq!(cat.card(c).ready_value, value);
            assert_eq!(cat.card(c).exhausted_value, value);
        }
    }
}

#[test]
fn r1_2_eight_characters_per_faction_worth_six_ready_one_exhausted() {
    let cat = catalog().unwrap();
    for (f, list) in [(REBEL, REBEL_CHARACTERS), (IMPERIAL, IMPERIAL_CHARACTERS)] {
        assert_eq!(sorted(characters_of(f)), sorted(list.to_vec()));
        for n in list {
            let c = card(n);
            assert!(c.is_character());
            assert_eq!(c.character_faction(), Some(f));
            assert!(!c.belongs_to(f.opponent()));
            assert_eq!(cat.card(c).ready_value, 6, "{n}");
            assert_eq!(cat.card(c).exhausted_value, 1, "{n}");
        }
        assert_eq!(Card::all_of(f).count(), 24);
    }
}

#[test]
fn r1_2_each_player_owns_24_resource_cards_in_play() {
    let g = characters_chosen(7);
    for f in Faction::BOTH {
        assert_eq!(g.card_count(f), 24);
        let p = public(&g, f);
        assert_eq!(p.deck_size + p.reserve_size, 24);
    }
}

#[test]
fn r1_2_character_is_worth_six_ready_and_one_exhausted_in_play() {
    let mut g = struggle(
        json!({"balance": "rebel", "rebel": {"deck": ["Yoda"]}}),
        Bureaucracy,
        Bureaucracy,
    );
    play(&mut g, REBEL);
    assert_eq!(g.total(REBEL), 6);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Yoda");
    assert_eq!(g.total(REBEL), 1);
    assert_eq!(public(&g, REBEL).play_area[0].value, 1);
}

#[test]
fn r1_3_both_factions_have_the_same_five_strategies() {
    let g = Game::new(Mode::Full, 3).unwrap();
    for f in Faction::BOTH {
        assert_eq!(
            unused(&g, f),
            vec![Deception, DirectAssault, Infiltration, Bureaucracy, Support]
        );
        assert!(used(&g, f).is_empty());
    }
    assert_eq!(Strategy::ALL.len(), 5);
}

#[test]
fn r1_4_twenty_four_events_with_the_printed_values() {
    let cat = catalog().unwrap();
    assert_eq!(EventCard::all().count(), 24);
    for (n, capacity, objective, vp, influence) in EVENTS {
        let e = cat.event(event(n));
        assert_eq!(
            (e.capacity, e.objective, e.vp, e.influence),
            (capacity, objective, vp, influence),
            "{n}"
        );
        assert_eq!(e.vp + e.influence, 3, "{n}: VP + influence is 3 on every event");
    }
    assert_eq!(EVENTS.iter().map(|e| e.3).sum::<u32>(), 42);
}

#[test]
fn r1_4_event_effects_match_the_card_data() {
    use evr_rules::EventEffect as E;
    let cat = catalog().unwrap();
    let effects = [
        ("Acquire the Death Star Plans", E::LoserLosesTwoInfluence),
        ("Attack on Echo Base", E::BanDiplomacy),
        ("Balance of the Force", E::WinnerReordersTopThreeEvents),
        ("Battle of Endor", E::BanTheForce),
        ("Battle of Hoth", E::None),
        ("Battle of Yavin", E::None),
        ("Control of Endor", E::None),
        ("Create a Diversion", E::LoserStrategyRandomNextRound),
        ("Destroy the Shield Generator", E::LoserLosesTwoInfluence),
        ("Diplomatic Freedom", E::None),
        ("Display of Power", E::WinnerDiscardsLoserUnusedStrategy),
        ("Duel on Cloud City", E::BanCharactersExceptLukeAndVader),
        ("Escape From Tatooine", E::None),
        ("Evacuation of Echo Base", E::BanRecon),
        ("Fall of a Hero", E::LoserMovesCharacterToReserve),
        ("Heart of the Empire", E::None),
        ("Locate the Rebel Base", E::LoserStrategyFirstNextRound),
        ("Most Desperate Hour", E::BanMilitary),
        ("Negotiate with the Hutts", E::WinnerMovesCharacterToReserve),
        ("Occupation of Cloud City", E::WinnerMayAddReserveCharacter),
        ("Rebel Uprising", E::WinnerMayAddReserveCharacter),
        ("Rescue Mission to Cloud City", E::None),
        ("Securing the Rebel Base on Yavin 4", E::None),
        ("Ultimate Power in the Universe", E::WinnerRetrievesAllStrategies),
    ];
    for (n, effect) in effects {
        assert_eq!(cat.event(event(n)).effect, effect, "{n}");
    }
}

#[test]
fn r1_4_the_event_in_play_shows_its_printed_values() {
    let g = game(json!({"event_deck": ["Display of Power"]}));
    let e = view(&g, SPECTATOR).event.expect("an event is revealed");
    assert_eq!(e.event, event("Display of Power"));
    assert_eq!((e.capacity, e.objective, e.vp, e.influence), (4, 10, 3, 0));
}

#[test]
fn r1_5_influence_is_unlimited() {
    let mut g = struggle(
        json!({"balance": "rebel", "rebel": {"deck": ["Yoda"], "influence": 1000}}),
        Bureaucracy,
        Bureaucracy,
    );
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Yoda");
    assert_eq!(influence(&g, REBEL), 1001);
}

fn tarkin_against(rebel_influence: u32) -> (Game, Vec<evr_rules::Event>) {
    let mut g = struggle(
        json!({
            "balance": "imperial",
            "rebel": {"influence": rebel_influence},
            "imperial": {"deck": ["Grand Moff Tarkin"]},
        }),
        Bureaucracy,
        Bureaucracy,
    );
    play(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    let events = power(&mut g, IMPERIAL, "Grand Moff Tarkin");
    (g, events)
}

#[test]
fn r1_5_losing_more_influence_than_held_loses_all_of_it() {
    let (g, events) = tarkin_against(1);
    assert_eq!(influence(&g, REBEL), 0);
    assert!(seen(&events, SPECTATOR).contains(&LogEntry::InfluenceLost {
        faction: REBEL,
        amount: 1,
        total: 0
    }));
}

#[test]
fn r1_5_influence_is_never_negative() {
    let (g, _) = tarkin_against(0);
    assert_eq!(influence(&g, REBEL), 0);
}

#[test]
fn r1_5_one_balance_token_showing_one_side() {
    for (side, f) in [("rebel", REBEL), ("imperial", IMPERIAL)] {
        let g = game(json!({ "balance": side }));
        assert_eq!(view(&g, SPECTATOR).balance, Some(f));
    }
}

#[test]
fn r1_6_each_player_has_every_zone() {
    let g = characters_chosen(11);
    for f in Faction::BOTH {
        let own = seen_by(&g, Viewer::Seat(f), f);
        assert_eq!(own.deck_size, 20);
        assert_eq!(
            own.deck_contents.expect("the owner knows the deck's contents").len(),
            20
        );
        assert!(own.play_area.is_empty());
        assert!(own.discard_pile.is_empty());
        assert_eq!(own.reserve_size, 4);
        assert_eq!(own.reserve_known.len(), 4);
        assert_eq!(own.unused_strategies.map(|u| u.len()), Some(5));
        assert!(own.used_strategies.is_empty());
        assert_eq!(own.strategy, StrategySlot::None);
        assert!(own.won_events.is_empty());
        assert_eq!(own.influence, 2);
    }
}

#[test]
fn r1_7_a_played_card_enters_ready_with_its_printed_value() {
    let mut g = struggle(
        json!({"balance": "rebel", "rebel": {"deck": ["Military 4"]}}),
        Bureaucracy,
        Bureaucracy,
    );
    play(&mut g, REBEL);
    let c = public(&g, REBEL).play_area[0];
    assert_eq!((name(c.card), c.ready, c.value), ("Military 4", true, 4));
}

#[test]
fn r1_7_an_exhausted_basic_card_keeps_its_value() {
    let mut g = struggle(
        json!({"balance": "rebel", "rebel": {"deck": ["Military 4"]}, "imperial": {"deck": ["Recon 2"]}}),
        Bureaucracy,
        Bureaucracy,
    );
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Military 4");
    let c = public(&g, REBEL).play_area[0];
    assert_eq!((c.ready, c.value), (false, 4));
    assert_eq!(g.total(REBEL), 4);
}

#[test]
fn r1_7_a_card_returning_to_play_enters_ready() {
    let mut g = struggle(
        json!({
            "balance": "rebel",
            "rebel": {"deck": ["Military 3", "Diplomacy 2", "Obi-Wan Kenobi"]},
            "imperial": {"deck": ["Recon 2", "Recon 3"]},
        }),
        Bureaucracy,
        Bureaucracy,
    );
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Military 3"); // the only Imperial card goes
    play(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    pass(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Diplomacy 2");
    answer(&mut g, REBEL, pick(REBEL, "Military 3"));
    pass(&mut g, IMPERIAL);
    play(&mut g, REBEL);
    pass(&mut g, IMPERIAL);
    assert_eq!(discard_pile(&g, REBEL), ["Military 3"]);
    power(&mut g, REBEL, "Obi-Wan Kenobi");
    assert!(is_ready(&g, REBEL, "Military 3"), "it was exhausted when it left play");
}

#[test]
fn r1_8_total_is_the_sum_of_current_values() {
    let mut g = struggle(
        json!({"balance": "rebel", "rebel": {"deck": ["Yoda", "Military 3"]}}),
        Bureaucracy,
        Bureaucracy,
    );
    set_up_play(&mut g, 2, 1, REBEL);
    assert_eq!(public(&g, REBEL).total, 9);
    power(&mut g, REBEL, "Yoda");
    assert_eq!(public(&g, REBEL).total, 1 + 3);
    assert_eq!(g.total(REBEL), 4);
}

#[test]
fn r1_9_diplomacy_may_discard_itself() {
    let mut g = struggle(
        json!({"balance": "rebel", "rebel": {"deck": ["Diplomacy 3", "Military 2"]}}),
        Bureaucracy,
        Bureaucracy,
    );
    set_up_play(&mut g, 2, 1, REBEL);
    power(&mut g, REBEL, "Diplomacy 3");
    assert!(options(&g, REBEL).contains(&pick(REBEL, "Diplomacy 3")));
    answer(&mut g, REBEL, pick(REBEL, "Diplomacy 3"));
    assert_eq!(discard_pile(&g, REBEL), ["Diplomacy 3"]);
    assert_eq!(in_play(&g, REBEL), ["Military 2"]);
}

#[test]
fn r1_9_the_force_cannot_exhaust_itself() {
    let mut g = struggle(
        json!({
            "balance": "rebel",
            "rebel": {"deck": ["The Force 3", "Military 2"]},
            "imperial": {"deck": ["Military 4"]},
        }),
        Bureaucracy,
        Bureaucracy,
    );
    set_up_play(&mut g, 2, 1, REBEL);
    power(&mut g, REBEL, "The Force 3");
    let mut expected = vec![pick(REBEL, "Military 2"), pick(IMPERIAL, "Military 4")];
    let mut got = options(&g, REBEL);
    expected.sort_by_key(|c| format!("{c:?}"));
    got.sort_by_key(|c| format!("{c:?}"));
    assert_eq!(got, expected);
}

#[test]
fn r1_9_luke_skywalker_may_discard_himself() {
    let mut g = struggle(
        json!({"balance": "rebel", "rebel": {"deck": ["Luke Skywalker"]}}),
        Bureaucracy,
        Bureaucracy,
    );
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    power(&mut g, REBEL, "Luke Skywalker");
    answer(&mut g, REBEL, pick(REBEL, "Luke Skywalker"));
    assert_eq!(discard_pile(&g, REBEL), ["Luke Skywalker"]);
}

#[test]
fn r1_9_boba_fett_cannot_exhaust_himself() {
    let mut g = struggle(
        json!({
            "balance": "imperial",
            "imperial": {"deck": ["Boba Fett", "Military 2"]},
            "rebel": {"deck": ["Military 3"]},
        }),
        Bureaucracy,
        Bureaucracy,
    );
    set_up_play(&mut g, 1, 2, IMPERIAL);
    power(&mut g, IMPERIAL, "Boba Fett");
    answer(&mut g, IMPERIAL, Choice::NO_CARDS);
    let opts = options(&g, IMPERIAL);
    assert!(!opts.contains(&pick(IMPERIAL, "Boba Fett")));
    assert!(opts.contains(&pick(IMPERIAL, "Military 2")));
    assert!(opts.contains(&pick(REBEL, "Military 3")));
}
