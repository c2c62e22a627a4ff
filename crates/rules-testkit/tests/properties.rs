//! Property tests over thousands of seeded random games (full games, the tutorial, and games from
//! random explicit setups): every game ends; cards, events, strategies, totals, VP and influence are
//! consistent at every step; `legal_actions` and `apply` agree (every listed action is accepted,
//! unlisted ones and listed ones by the wrong seat are refused without any change); a game replays
//! exactly from its seed and action list.
//!
//! The acting seat is drawn among `seats_to_act()`, so simultaneous phases interleave both ways.

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

// The engine with its testing accessors, under the name every user of the engine knows.
extern crate evr_rules_testkit as evr_rules;

use std::collections::BTreeMap;

use evr_rules::view::StrategySlot;
use evr_rules::{
    Action, ByFaction, Card, CardMask, CardRef, CardSet, Choice, Destination, Event, EventCard, EventOrder, Faction,
    Game, Mode, OutcomeReason, PhaseName, ROUND_LIMIT, STRUGGLE_ACTION_LIMIT, Strategy, VP_TO_WIN, View, Viewer,
    catalog,
};
use proptest::prelude::{Just, ProptestConfig, any, prop, prop_assert, prop_oneof, proptest};
use proptest::strategy::Strategy as Gen;
use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

/// The suite runs in release; an unoptimized `cargo test` plays this many times fewer games.
const SCALE: u64 = if cfg!(debug_assertions) { 8 } else { 1 };

mod common;
use common::{Kind, all_cards, any_card, any_faction, any_ref, new_game, pick_seat};

/// Every game ends well before this many actions: the round limit times a struggle at its
/// action limit plus Planning and Dominance.
const MAX_ACTIONS: usize = (ROUND_LIMIT as usize) * (STRUGGLE_ACTION_LIMIT as usize + 40) + 100;

// ----- random (mostly unlisted) actions -----

fn any_strategy(rng: &mut ChaCha8Rng) -> Strategy {
    Strategy::ALL[rng.random_range(0..5usize)]
}

fn any_event_order(rng: &mut ChaCha8Rng) -> EventOrder {
    let mut all: Vec<EventCard> = EventCard::all().collect();
    all.shuffle(rng);
    EventOrder::new(&all[..rng.random_range(0..=3usize)]).unwrap()
}

fn any_choice(rng: &mut ChaCha8Rng) -> Choice {
    match rng.random_range(0..7u8) {
        0 => Choice::Cards {
            cards: CardSet::of((0..rng.random_range(0..4)).map(|_| any_ref(rng))),
        },
        1 => Choice::Deck {
            owner: any_faction(rng),
        },
        2 => Choice::DiscardAndTop {
            discard: any_ref(rng),
            top: any_ref(rng),
        },
        3 => Choice::Character {
            card: any_card(rng),
            to: if rng.random_bool(0.5) {
                Destination::PlayArea
            } else {
                Destination::Deck
            },
        },
        4 => Choice::Strategy {
            strategy: any_strategy(rng),
        },
        5 => Choice::EventOrder {
            events: any_event_order(rng),
        },
        _ => Choice::Play {
            play: rng.random_bool(0.5),
        },
    }
}

/// An action of any variant with random contents.
fn any_action(rng: &mut ChaCha8Rng) -> Action {
    match rng.random_range(0..7u8) {
        0 => {
            let mut pool = all_cards();
            pool.shuffle(rng);
            let n = if rng.random_bool(0.5) {
                4
            } else {
                rng.random_range(0..9)
            };
            // Half of the time only characters (of either side), to come close to a legal choice.
            if rng.random_bool(0.5) {
                pool.retain(|c| c.is_character());
            }
            Action::ChooseCharacters {
                characters: CardMask::of(pool.into_iter().take(n)),
            }
        }
        1 => Action::ChooseStrategy {
            target: any_faction(rng),
            strategy: any_strategy(rng),
        },
        2 => Action::PlayCard,
        3 => Action::UsePower { card: any_card(rng) },
        4 => Action::SpendInfluence { card: any_card(rng) },
        5 => Action::Pass,
        _ => Action::Answer {
            choice: any_choice(rng),
        },
    }
}

fn toggle(set: CardSet, r: CardRef) -> CardSet {
    let mut v: Vec<CardRef> = set.iter().filter(|c| *c != r).collect();
    if !set.contains(r) {
        v.push(r);
    }
    CardSet::of(v)
}

/// A near miss: a listed action with one detail changed.
fn mutate(rng: &mut ChaCha8Rng, a: Action) -> Action {
    match a {
        Action::ChooseCharacters { characters } => {
            let c = any_card(rng);
            let mut m = characters;
            if m.contains(c) {
                m.remove(c);
            } else {
                m.insert(c);
            }
            Action::ChooseCharacters { characters: m }
        }
        Action::ChooseStrategy { target, strategy } => {
            if rng.random_bool(0.5) {
                Action::ChooseStrategy {
                    target: target.opponent(),
                    strategy,
                }
            } else {
                Action::ChooseStrategy {
                    target,
                    strategy: any_strategy(rng),
                }
            }
        }
        Action::PlayCard => Action::UsePower { card: any_card(rng) },
        Action::Pass => Action::PlayCard,
        Action::UsePower { card } => {
            if rng.random_bool(0.5) {
                Action::SpendInfluence { card }
            } else {
                Action::UsePower { card: any_card(rng) }
            }
        }
        Action::SpendInfluence { card } => {
            if rng.random_bool(0.5) {
                Action::UsePower { card }
            } else {
                Action::SpendInfluence { card: any_card(rng) }
            }
        }
        Action::Answer { choice } => Action::Answer {
            choice: match choice {
                Choice::Cards { cards } => {
                    let r = match cards.iter().next() {
                        // The same card in the other faction's name, or a random one.
                        Some(c) if rng.random_bool(0.5) => CardRef::new(c.owner.opponent(), c.card),
                        _ => any_ref(rng),
                    };
                    Choice::Cards {
                        cards: toggle(cards, r),
                    }
                }
                Choice::Deck { owner } => {
                    if rng.random_bool(0.5) {
                        Choice::Deck {
                            owner: owner.opponent(),
                        }
                    } else {
                        Choice::card(any_ref(rng))
                    }
                }
                Choice::DiscardAndTop { discard, top } => match rng.random_range(0..3u8) {
                    0 => Choice::DiscardAndTop { discard, top: discard },
                    1 => Choice::DiscardAndTop {
                        discard: any_ref(rng),
                        top,
                    },
                    _ => Choice::DiscardAndTop {
                        discard: top,
                        top: discard,
                    },
                },
                Choice::Character { card, to } => {
                    if rng.random_bool(0.5) {
                        Choice::Character {
                            card,
                            to: match to {
                                Destination::Deck => Destination::PlayArea,
                                Destination::PlayArea => Destination::Deck,
                            },
                        }
                    } else {
                        Choice::Character {
                            card: any_card(rng),
                            to,
                        }
                    }
                }
                Choice::Strategy { .. } => Choice::Strategy {
                    strategy: any_strategy(rng),
                },
                Choice::EventOrder { events } => {
                    let mut v: Vec<EventCard> = events.iter().collect();
                    match rng.random_range(0..3u8) {
                        0 => {
                            v.pop();
                        }
                        1 => v.shuffle(rng),
                        _ => {
                            if let Some(x) = v.first_mut() {
                                *x = EventCard::all().nth(rng.random_range(0..24)).unwrap();
                            }
                        }
                    }
                    Choice::EventOrder {
                        events: EventOrder::new(&v).unwrap(),
                    }
                }
                Choice::Play { play } => {
                    if rng.random_bool(0.5) {
                        Choice::Play { play: !play }
                    } else {
                        Choice::NO_CARDS
                    }
                }
            },
        },
    }
}

// ----- invariants -----

fn views(g: &Game) -> [View; 3] {
    Viewer::ALL.map(|v| g.view(v))
}

fn json<T: serde::Serialize>(x: &T) -> String {
    serde_json::to_string(x).unwrap()
}

/// Everything observable about a game, hidden parts included (the RNG is checked by replay).
#[derive(Debug, PartialEq, Eq)]
struct Snapshot {
    views: [String; 3],
    legal: [Vec<Action>; 2],
    seats: Vec<Faction>,
    decks: [Vec<Card>; 2],
    discards: [Vec<Card>; 2],
    reserves: [CardMask; 2],
    chosen: [Option<Strategy>; 2],
    event_deck: Vec<EventCard>,
    round_log: Vec<Event>,
    debug: String,
}

fn snapshot(g: &Game) -> Snapshot {
    Snapshot {
        views: Viewer::ALL.map(|v| json(&g.view(v))),
        legal: Faction::BOTH.map(|f| g.legal_actions(f)),
        seats: g.seats_to_act(),
        decks: Faction::BOTH.map(|f| g.testing_deck(f)),
        discards: Faction::BOTH.map(|f| g.testing_discard(f)),
        reserves: Faction::BOTH.map(|f| g.testing_reserve(f)),
        chosen: Faction::BOTH.map(|f| g.testing_chosen_strategy(f)),
        event_deck: g.testing_event_deck(),
        round_log: g.round_log().to_vec(),
        debug: format!("{g:?}"),
    }
}

/// Where two snapshots differ, briefly (`None` when they are equal).
fn snapshot_diff(a: &Snapshot, b: &Snapshot) -> Option<String> {
    if a == b {
        return None;
    }
    let mut out = Vec::new();
    for (i, (x, y)) in a.views.iter().zip(&b.views).enumerate() {
        if x != y {
            let at = x.bytes().zip(y.bytes()).take_while(|(p, q)| p == q).count();
            let from = at.saturating_sub(80);
            let clip = |s: &str| s.get(from..(at + 80).min(s.len())).unwrap_or_default().to_string();
            out.push(format!(
                "view of {:?} differs at byte {at}: …{}… vs …{}…",
                Viewer::ALL[i],
                clip(x),
                clip(y)
            ));
        }
    }
    let fields: [(&str, bool); 9] = [
        ("legal actions", a.legal != b.legal),
        ("seats to act", a.seats != b.seats),
        ("decks", a.decks != b.decks),
        ("discard piles", a.discards != b.discards),
        ("reserves", a.reserves != b.reserves),
        ("chosen strategies", a.chosen != b.chosen),
        ("event deck", a.event_deck != b.event_deck),
        ("round log", a.round_log != b.round_log),
        ("complete state (Debug)", a.debug != b.debug),
    ];
    out.extend(fields.iter().filter(|(_, d)| *d).map(|(n, _)| format!("{n} differ")));
    Some(out.join("; "))
}

fn assert_same_snapshot(a: &Snapshot, b: &Snapshot, ctx: &str) {
    if let Some(d) = snapshot_diff(a, b) {
        panic!("{ctx}: {d}");
    }
}

fn sorted(mut v: Vec<Card>) -> Vec<Card> {
    v.sort();
    v
}

/// Checks every invariant of the state; `ctx` names the game and step in failures.
fn check_invariants(g: &Game, ctx: &str) {
    let cat = catalog().unwrap();
    let [rebel_view, imperial_view, spectator] = views(g);
    let seat_views = ByFaction::new(&rebel_view, &imperial_view);
    let tutorial = g.mode() == Mode::Tutorial;

    for f in Faction::BOTH {
        let pv = match f {
            Faction::Rebel => &spectator.rebel,
            Faction::Imperial => &spectator.imperial,
        };
        // Cards are conserved: every card of the faction is in exactly one zone.
        let deck = g.testing_deck(f);
        let discard = g.testing_discard(f);
        let reserve = g.testing_reserve(f);
        let mut cards: Vec<Card> = deck.clone();
        cards.extend(pv.play_area.iter().map(|c| c.card));
        cards.extend(discard.iter().copied());
        cards.extend(reserve.iter());
        let chosen_everything = spectator.phase != PhaseName::CharacterChoice;
        let expected: Vec<Card> = if tutorial {
            Card::basics().collect()
        } else if chosen_everything {
            Card::all_of(f).collect()
        } else {
            Vec::new()
        };
        assert_eq!(sorted(cards), sorted(expected.clone()), "{ctx}: {f:?}'s cards");
        assert_eq!(g.card_count(f), expected.len(), "{ctx}: card_count({f:?})");
        if chosen_everything && !tutorial {
            assert_eq!(g.card_count(f), 24, "{ctx}");
        }
        if tutorial {
            assert_eq!(g.card_count(f), 16, "{ctx}");
        }
        assert_eq!(pv.deck_size as usize, deck.len(), "{ctx}: deck size");
        assert_eq!(pv.discard_pile, discard, "{ctx}: discard pile");
        assert_eq!(pv.reserve_size as usize, reserve.len(), "{ctx}: reserve size");

        // Totals and current values.
        let mut sum = 0;
        for c in &pv.play_area {
            let info = cat.card(c.card);
            let value = if c.ready {
                info.ready_value
            } else {
                info.exhausted_value
            };
            assert_eq!(c.value, value, "{ctx}: value of {:?}", c.card);
            assert!(c.card.belongs_to(f), "{ctx}");
            sum += value;
        }
        assert_eq!(pv.total, sum, "{ctx}: total of {f:?}");
        assert_eq!(g.total(f), sum, "{ctx}: Game::total({f:?})");
        if let Some(e) = &spectator.event {
            assert!(pv.play_area.len() <= e.capacity as usize, "{ctx}: capacity (R-4.6)");
            assert_eq!(
                pv.capacity_left as usize,
                e.capacity as usize - pv.play_area.len(),
                "{ctx}"
            );
        }

        // VP: the sum of the won events' VP.
        let vp: u32 = pv.won_events.iter().map(|e| cat.event(*e).vp).sum();
        assert_eq!(pv.vp, vp, "{ctx}: VP of {f:?}");
        assert_eq!(g.vp(f), vp, "{ctx}: Game::vp({f:?})");
        // Influence is never negative: an underflow would wrap to a huge number.
        assert!(pv.influence < 1000, "{ctx}: influence {} of {f:?}", pv.influence);
        if tutorial {
            assert_eq!(pv.influence, 0, "{ctx}: no influence in the tutorial");
            assert!(pv.won_events.is_empty(), "{ctx}");
        }

        // Strategies: unused, used and chosen split the five, as the owner sees them.
        let own = seat_views[f];
        let opv = match f {
            Faction::Rebel => &own.rebel,
            Faction::Imperial => &own.imperial,
        };
        if !tutorial {
            let unused = opv
                .unused_strategies
                .clone()
                .expect("the owner sees their unused strategies");
            let mut all: Vec<Strategy> = unused.clone();
            all.extend(opv.used_strategies.iter().copied());
            match opv.strategy {
                StrategySlot::Known(s) => all.push(s),
                StrategySlot::None => {}
                StrategySlot::Hidden => panic!("{ctx}: the owner always knows their strategy (R-7.6)"),
            }
            all.sort();
            assert_eq!(all, Strategy::ALL.to_vec(), "{ctx}: {f:?}'s strategies");
            assert_eq!(opv.unused_strategy_count as usize, unused.len(), "{ctx}");
            assert_eq!(
                g.testing_chosen_strategy(f),
                match opv.strategy {
                    StrategySlot::Known(s) => Some(s),
                    _ => None,
                },
                "{ctx}"
            );
        }
    }

    assert!(
        g.round() <= ROUND_LIMIT,
        "{ctx}: round {} beyond the limit (R-5.11)",
        g.round()
    );
    // At most one player has 7 VP or more, and only once the game is over.
    let vps = Faction::BOTH.map(|f| g.vp(f));
    assert!(vps.iter().filter(|v| **v >= VP_TO_WIN).count() <= 1, "{ctx}: {vps:?}");
    match g.outcome() {
        None => {
            assert!(!g.is_over(), "{ctx}");
            assert!(vps.iter().all(|v| *v < VP_TO_WIN), "{ctx}: 7 VP but the game goes on");
        }
        Some(o) => {
            assert!(g.is_over(), "{ctx}");
            assert_eq!(o.vp, vps, "{ctx}: outcome VP");
            match o.reason {
                OutcomeReason::VictoryPoints => {
                    let w = o.winner.expect("a VP victory has a winner");
                    assert!(g.vp(w) >= VP_TO_WIN, "{ctx}: winner below 7 VP");
                    assert!(g.vp(w.opponent()) < VP_TO_WIN, "{ctx}");
                }
                OutcomeReason::Tutorial => assert!(tutorial, "{ctx}"),
                OutcomeReason::RoundLimit | OutcomeReason::EventDeckEmpty => {
                    let expect = match vps[0].cmp(&vps[1]) {
                        std::cmp::Ordering::Greater => Some(Faction::Rebel),
                        std::cmp::Ordering::Less => Some(Faction::Imperial),
                        std::cmp::Ordering::Equal => None,
                    };
                    assert_eq!(o.winner, expect, "{ctx}: R-5.11");
                }
            }
            assert_eq!(spectator.phase, PhaseName::GameOver, "{ctx}");
        }
    }

    // Events: the 24 are split between the won events, the event deck and the current event. The
    // current event stays shown after it was awarded or put at the bottom, until the next
    // round reveals another.
    let mut events: Vec<EventCard> = g.testing_event_deck();
    assert_eq!(spectator.event_deck_size as usize, events.len(), "{ctx}");
    if tutorial {
        assert!(events.is_empty(), "{ctx}: the tutorial has no event deck");
        assert_eq!(spectator.event.map(|e| e.event), Some(cat.tutorial_event()), "{ctx}");
    } else {
        events.extend(spectator.rebel.won_events.iter().copied());
        events.extend(spectator.imperial.won_events.iter().copied());
        let current = spectator.event.map(|e| e.event);
        let current_elsewhere = current.is_some_and(|c| events.contains(&c));
        let mut distinct = events.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), events.len(), "{ctx}: an event is in two places");
        let count = events.len() + usize::from(current.is_some() && !current_elsewhere);
        assert_eq!(count, 24, "{ctx}: won + event deck + current event");
        if current_elsewhere {
            // Only after the award: the round's result is decided.
            let decided = spectator
                .rounds
                .last()
                .is_some_and(|r| Some(r.event) == current && r.reason.is_some());
            assert!(decided, "{ctx}: current event left early");
        }
    }

    // Who may act: `seats_to_act` lists exactly the seats with legal actions; a pending choice
    // belongs to its owner alone.
    let legal = ByFaction::from_fn(|f| g.legal_actions(f));
    let seats: Vec<Faction> = Faction::BOTH.into_iter().filter(|f| !legal[*f].is_empty()).collect();
    assert_eq!(g.seats_to_act(), seats, "{ctx}: seats_to_act");
    if g.is_over() {
        assert!(seats.is_empty(), "{ctx}: actions after the end");
    } else {
        assert!(!seats.is_empty(), "{ctx}: nobody can act");
    }
    if let Some(p) = &spectator.pending {
        assert_eq!(seats, vec![p.owner], "{ctx}: only the owner answers a pending choice");
        assert!(
            legal[p.owner].iter().all(|a| matches!(a, Action::Answer { .. })),
            "{ctx}"
        );
        assert!(
            legal[p.owner].len() >= 2,
            "{ctx}: a forced choice was not applied (ruling 12)"
        );
    }
    for f in Faction::BOTH {
        let mut buf = vec![Action::Pass; 3];
        g.legal_actions_into(f, &mut buf);
        assert_eq!(buf, legal[f], "{ctx}: legal_actions_into");
        assert_eq!(seat_views[f].legal_actions, legal[f], "{ctx}: view's legal actions");
        let mut dedup = legal[f].clone();
        dedup.sort_by_key(json);
        dedup.dedup();
        assert_eq!(dedup.len(), legal[f].len(), "{ctx}: an action is listed twice");
    }
    if spectator.phase == PhaseName::Struggle && spectator.pending.is_none() {
        assert!(spectator.turn.is_some(), "{ctx}");
        assert!(spectator.struggle_actions < STRUGGLE_ACTION_LIMIT, "{ctx}: R-4.9");
    }
}

// ----- playing -----

/// The result of playing one game: its actions, the events they produced, the final state.
struct Played {
    actions: Vec<(Faction, Action)>,
    events: Vec<Event>,
    game: Game,
}

/// Replays the actions from a fresh game of the same kind and seed and checks that everything
/// observable is identical.
fn check_replay(kind: Kind, seed: u64, played: &Played) {
    let mut g = new_game(kind, seed).unwrap();
    let mut events = Vec::new();
    for (i, (seat, a)) in played.actions.iter().enumerate() {
        let out = g
            .apply(*seat, *a)
            .unwrap_or_else(|e| panic!("{kind:?} {seed}: replay of action {i} {a:?} refused: {e}"));
        events.extend(out);
    }
    assert!(
        events == played.events,
        "{kind:?} {seed}: the replayed event stream differs"
    );
    assert_same_snapshot(
        &snapshot(&g),
        &snapshot(&played.game),
        &format!("{kind:?} {seed}: the replayed game differs"),
    );
}

#[derive(Default)]
struct Stats {
    games: usize,
    actions: usize,
    max_actions: usize,
    rounds: u64,
    accepted_on_clones: usize,
    refused: usize,
    wrong_seat_refused: usize,
    unlisted_but_legal: usize,
    errors: BTreeMap<&'static str, usize>,
    pending_steps: BTreeMap<String, usize>,
    outcomes: BTreeMap<String, usize>,
}

fn step_name(v: &View) -> Option<String> {
    let p = v.pending.as_ref()?;
    let s = format!("{:?}", p.step);
    Some(s.split([' ', '{']).next().unwrap_or_default().to_string())
}

struct Options {
    /// Listed actions applied to clones of each state.
    clones_per_step: usize,
    /// Unlisted actions tried on the game itself at each step (each refusal must change nothing).
    unlisted_per_step: usize,
    /// Whether to check all invariants at every step.
    invariants: bool,
}

/// Plays one random game, checking at every step what `opts` asks for.
fn play_game(kind: Kind, seed: u64, opts: &Options, stats: &mut Stats) -> Option<Played> {
    let mut g = new_game(kind, seed)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ kind as u64);
    let mut actions = Vec::new();
    let mut events = Vec::new();
    while !g.is_over() {
        let ctx = format!("{kind:?} seed {seed} action {}", actions.len());
        assert!(actions.len() < MAX_ACTIONS, "{ctx}: the game does not end");
        if opts.invariants {
            check_invariants(&g, &ctx);
        }
        let seat = pick_seat(&g, &mut rng);
        let legal = g.legal_actions(seat);
        if let Some(s) = step_name(&g.view(Viewer::Spectator)) {
            *stats.pending_steps.entry(s).or_default() += 1;
        }

        // Every listed action is accepted (on clones of this state).
        let mut tried = legal.clone();
        tried.shuffle(&mut rng);
        for a in tried.iter().take(opts.clones_per_step) {
            let mut c = g.clone();
            c.apply(seat, *a)
                .unwrap_or_else(|e| panic!("{ctx}: listed {a:?} of {seat:?} refused: {e}"));
            stats.accepted_on_clones += 1;
        }

        // Unlisted actions, and listed actions of the wrong seat, are refused and change nothing.
        if opts.unlisted_per_step > 0 {
            let before = snapshot(&g);
            let mut attempts: Vec<(Faction, Action)> = Vec::new();
            for i in 0..opts.unlisted_per_step {
                let who = any_faction(&mut rng);
                let own = g.legal_actions(who);
                let a = if i % 2 == 0 && !own.is_empty() {
                    {
                        let pick = own[rng.random_range(0..own.len())];
                        mutate(&mut rng, pick)
                    }
                } else {
                    any_action(&mut rng)
                };
                attempts.push((who, a));
            }
            let other = seat.opponent();
            let wrong = legal[rng.random_range(0..legal.len())];
            let wrong_seat_index = attempts.len();
            attempts.push((other, wrong));
            for (i, (who, a)) in attempts.into_iter().enumerate() {
                if g.legal_actions(who).contains(&a) {
                    // Legal after all (a mutation can land on another listed action).
                    let mut c = g.clone();
                    c.apply(who, a)
                        .unwrap_or_else(|e| panic!("{ctx}: listed {a:?} of {who:?} refused: {e}"));
                    stats.unlisted_but_legal += 1;
                    continue;
                }
                match g.apply(who, a) {
                    Ok(_) => panic!("{ctx}: unlisted {a:?} of {who:?} was accepted"),
                    Err(e) => {
                        assert!(!e.code().is_empty());
                        *stats.errors.entry(e.code()).or_default() += 1;
                    }
                }
                assert_same_snapshot(
                    &snapshot(&g),
                    &before,
                    &format!("{ctx}: refused {a:?} of {who:?} changed the game"),
                );
                stats.refused += 1;
                if i == wrong_seat_index {
                    stats.wrong_seat_refused += 1;
                }
            }
        }

        let a = legal[rng.random_range(0..legal.len())];
        let out = g
            .apply(seat, a)
            .unwrap_or_else(|e| panic!("{ctx}: listed {a:?} of {seat:?} refused: {e}"));
        events.extend(out);
        actions.push((seat, a));
    }
    let ctx = format!("{kind:?} seed {seed} at the end");
    if opts.invariants {
        check_invariants(&g, &ctx);
    }
    for f in Faction::BOTH {
        assert!(g.legal_actions(f).is_empty(), "{ctx}");
        for a in [Action::Pass, Action::PlayCard] {
            assert!(g.apply(f, a).is_err(), "{ctx}: {a:?} after the end");
        }
    }
    stats.games += 1;
    stats.actions += actions.len();
    stats.max_actions = stats.max_actions.max(actions.len());
    stats.rounds += u64::from(g.round());
    if let Some(o) = g.outcome() {
        *stats.outcomes.entry(format!("{:?}", o.reason)).or_default() += 1;
    }
    Some(Played {
        actions,
        events,
        game: g,
    })
}

fn report(name: &str, s: &Stats) {
    eprintln!(
        "{name}: {} games, {} actions (max {}), {:.2} rounds/game, {} listed actions accepted on clones, \
         {} refusals ({} wrong seat), {} random actions were legal",
        s.games,
        s.actions,
        s.max_actions,
        s.rounds as f64 / s.games.max(1) as f64,
        s.accepted_on_clones,
        s.refused,
        s.wrong_seat_refused,
        s.unlisted_but_legal
    );
    eprintln!("  outcomes {:?}", s.outcomes);
    eprintln!("  errors {:?}", s.errors);
    eprintln!("  pending steps {:?}", s.pending_steps);
}

// ----- the tests -----

/// Thousands of games: every game ends within the bound, all invariants hold at every step,
/// every listed action is accepted, and each game replays exactly from its seed and actions.
#[test]
fn random_games_end_keep_invariants_and_replay() {
    let opts = Options {
        clones_per_step: 3,
        unlisted_per_step: 0,
        invariants: true,
    };
    let mut stats = Stats::default();
    let mut setups = 0;
    for (kind, n) in [(Kind::Full, 4000u64), (Kind::Tutorial, 1000), (Kind::Setup, 2000)] {
        for seed in 0..n / SCALE {
            let seed = seed + 1_000_000 * kind as u64;
            let Some(played) = play_game(kind, seed, &opts, &mut stats) else {
                continue;
            };
            if kind == Kind::Setup {
                setups += 1;
            }
            check_replay(kind, seed, &played);
        }
    }
    report("random games", &stats);
    assert!(
        setups as u64 > 1000 / SCALE,
        "too many random setups were invalid: {setups} valid"
    );
    assert_eq!(stats.outcomes.get("Tutorial").copied(), Some((1000 / SCALE) as usize));
    assert!(stats.outcomes.get("VictoryPoints").copied().unwrap_or(0) as u64 > 5000 / SCALE);
    // The random games reach every kind of pending choice.
    for step in [
        "DiscardOpponentCard",
        "DiscardOwnCard",
        "ExhaustAnyCard",
        "ExhaustOpponentCards",
        "DiscardOwnCardsThenPlay",
        "DiscardOwnAndOrOpponentCard",
        "PlaceReserveCharacter",
        "TakeFromDiscardPile",
        "PutDiscardOnDeck",
        "DiscardExhaustedCard",
        "BobaFettDiscard",
        "BobaFettExhaust",
        "ChooseDeck",
        "ReconDiscard",
        "Ig88Pick",
        "SearchDeckForCard",
        "JabbaDiscard",
        "JabbaPlay",
        "NewStrategy",
        "AddReserveCharacter",
        "DisplayOfPower",
        "CharacterToReserve",
        "ReorderEvents",
    ] {
        assert!(
            stats.pending_steps.get(step).copied().unwrap_or(0) > 0,
            "no random game reached the pending step {step}"
        );
    }
}

/// Unlisted actions (random actions of every variant, near misses of listed ones) and listed
/// actions by the wrong seat are refused and leave the game untouched; the refusals are tried on
/// the game itself, and the replay without them proves that not even the RNG moved.
#[test]
fn unlisted_actions_are_refused_without_any_change() {
    let opts = Options {
        clones_per_step: 0,
        unlisted_per_step: 4,
        invariants: false,
    };
    let mut stats = Stats::default();
    for (kind, n) in [(Kind::Full, 400u64), (Kind::Tutorial, 150), (Kind::Setup, 250)] {
        for seed in 0..n / SCALE {
            let seed = seed + 7_000_000 + 1_000_000 * kind as u64;
            if let Some(played) = play_game(kind, seed, &opts, &mut stats) {
                check_replay(kind, seed, &played);
            }
        }
    }
    report("unlisted actions", &stats);
    assert!(stats.refused as u64 > 100_000 / SCALE, "{}", stats.refused);
    assert!(stats.wrong_seat_refused as u64 > 20_000 / SCALE);
    // Refusals came for many different reasons.
    for code in [
        "wrong_phase",
        "not_your_turn",
        "choice_pending",
        "not_your_choice",
        "choice_not_offered",
        "unknown_card",
        "card_not_in_play_area",
        "no_pending_choice",
        "invalid_character_choice",
        "already_chosen",
        "strategy_not_available",
    ] {
        assert!(
            stats.errors.get(code).copied().unwrap_or(0) > 0,
            "no refusal {code}: {:?}",
            stats.errors
        );
    }
}

/// Cloning a game in the middle and continuing both with the same actions gives the same game
/// (the RNG is cloned with its position, R-9.5).
#[test]
fn a_clone_continues_exactly_like_the_original() {
    for seed in 0..200u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut g = Game::new(Mode::Full, seed).unwrap();
        let stop = rng.random_range(0..120);
        for _ in 0..stop {
            if g.is_over() {
                break;
            }
            let seat = pick_seat(&g, &mut rng);
            let legal = g.legal_actions(seat);
            g.apply(seat, legal[rng.random_range(0..legal.len())]).unwrap();
        }
        let mut c = g.clone();
        while !g.is_over() {
            let seat = pick_seat(&g, &mut rng);
            let legal = g.legal_actions(seat);
            let a = legal[rng.random_range(0..legal.len())];
            let e1 = g.apply(seat, a).unwrap();
            let e2 = c.apply(seat, a).unwrap();
            assert!(e1 == e2, "seed {seed}: events differ after cloning");
        }
        assert_same_snapshot(&snapshot(&g), &snapshot(&c), &format!("seed {seed}: clone"));
    }
}

/// The seed decides everything: the same seed gives the same game, different seeds give
/// different decks.
#[test]
fn the_seed_decides_the_shuffles() {
    let mut distinct = std::collections::BTreeSet::new();
    for seed in 0..50u64 {
        let a = Game::new(Mode::Full, seed).unwrap();
        let b = Game::new(Mode::Full, seed).unwrap();
        assert_same_snapshot(&snapshot(&a), &snapshot(&b), &format!("seed {seed}"));
        distinct.insert(a.testing_event_deck());
        let t = Game::new(Mode::Tutorial, seed).unwrap();
        assert_same_snapshot(
            &snapshot(&t),
            &snapshot(&Game::new(Mode::Tutorial, seed).unwrap()),
            &format!("tutorial seed {seed}"),
        );
    }
    assert!(distinct.len() > 45, "event decks barely depend on the seed");
}

// ----- proptest: shrinkable sequences -----

fn arb_faction() -> impl Gen<Value = Faction> {
    prop_oneof![Just(Faction::Rebel), Just(Faction::Imperial)]
}

fn arb_card() -> impl Gen<Value = Card> {
    let all = all_cards();
    (0..all.len()).prop_map(move |i| all[i])
}

fn arb_ref() -> impl Gen<Value = CardRef> {
    (arb_faction(), arb_card()).prop_map(|(f, c)| CardRef::new(f, c))
}

fn arb_strategy() -> impl Gen<Value = Strategy> {
    (0..5usize).prop_map(|i| Strategy::ALL[i])
}

fn arb_choice() -> impl Gen<Value = Choice> {
    prop_oneof![
        prop::collection::vec(arb_ref(), 0..4).prop_map(|v| Choice::Cards { cards: CardSet::of(v) }),
        arb_faction().prop_map(|owner| Choice::Deck { owner }),
        (arb_ref(), arb_ref()).prop_map(|(discard, top)| Choice::DiscardAndTop { discard, top }),
        (arb_card(), any::<bool>()).prop_map(|(card, p)| Choice::Character {
            card,
            to: if p { Destination::PlayArea } else { Destination::Deck },
        }),
        arb_strategy().prop_map(|strategy| Choice::Strategy { strategy }),
        prop::collection::vec(0..24usize, 0..4).prop_map(|v| {
            let mut events: Vec<EventCard> = v.into_iter().map(|i| EventCard::all().nth(i).unwrap()).collect();
            events.dedup();
            Choice::EventOrder {
                events: EventOrder::new(&events).unwrap(),
            }
        }),
        any::<bool>().prop_map(|play| Choice::Play { play }),
    ]
}

fn arb_action() -> impl Gen<Value = Action> {
    prop_oneof![
        prop::collection::vec(arb_card(), 0..9).prop_map(|v| Action::ChooseCharacters {
            characters: CardMask::of(v)
        }),
        prop::collection::vec(
            (0..8usize).prop_map(|i| Card::characters_of(Faction::Rebel).nth(i).unwrap()),
            4..5
        )
        .prop_map(|v| Action::ChooseCharacters {
            characters: CardMask::of(v)
        }),
        (arb_faction(), arb_strategy()).prop_map(|(target, strategy)| Action::ChooseStrategy { target, strategy }),
        Just(Action::PlayCard),
        arb_card().prop_map(|card| Action::UsePower { card }),
        arb_card().prop_map(|card| Action::SpendInfluence { card }),
        Just(Action::Pass),
        arb_choice().prop_map(|choice| Action::Answer { choice }),
    ]
}

/// Plays `steps` random actions (choices drawn from `picks`, then from the seed).
fn play_to(kind: Kind, seed: u64, picks: &[u32], steps: usize) -> Option<Game> {
    let mut g = new_game(kind, seed)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for i in 0..steps {
        if g.is_over() {
            break;
        }
        let seats = g.seats_to_act();
        let r = picks.get(i).copied().unwrap_or_else(|| rng.random());
        let seat = seats[(r as usize >> 16) % seats.len()];
        let legal = g.legal_actions(seat);
        g.apply(seat, legal[(r as usize & 0xFFFF) % legal.len()]).unwrap();
    }
    Some(g)
}

/// Failing cases are saved beside this file (proptest cannot find `lib.rs` from an integration test).
fn persistence() -> Option<Box<dyn proptest::test_runner::FailurePersistence>> {
    Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct(
        "tests/properties.proptest-regressions",
    )))
}

fn arb_kind() -> impl Gen<Value = Kind> {
    prop_oneof![6 => Just(Kind::Full), 1 => Just(Kind::Tutorial), 3 => Just(Kind::Setup)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000 / SCALE as u32, failure_persistence: persistence(), ..ProptestConfig::default() })]

    /// Any action at any reachable state: accepted exactly when listed; refused without change.
    #[test]
    fn prop_any_action_is_accepted_iff_listed(
        kind in arb_kind(),
        seed in 0..1_000_000u64,
        picks in prop::collection::vec(any::<u32>(), 0..40),
        steps in 0..250usize,
        seat in arb_faction(),
        action in arb_action(),
    ) {
        let Some(mut g) = play_to(kind, seed, &picks, steps) else { return Ok(()) };
        let listed = g.legal_actions(seat).contains(&action);
        let before = snapshot(&g);
        match g.apply(seat, action) {
            Ok(_) => prop_assert!(listed, "unlisted {:?} accepted", action),
            Err(e) => {
                prop_assert!(!listed, "listed {:?} refused: {}", action, e);
                let d = snapshot_diff(&snapshot(&g), &before);
                prop_assert!(d.is_none(), "refused {:?} of {:?} changed the game: {}", action, seat, d.unwrap_or_default());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300 / SCALE as u32, failure_persistence: persistence(), ..ProptestConfig::default() })]

    /// Shrinkable games: the invariants hold along any sequence of choices.
    #[test]
    fn prop_invariants_along_any_choice_sequence(
        kind in arb_kind(),
        seed in 0..1_000_000u64,
        picks in prop::collection::vec(any::<u32>(), 0..300),
    ) {
        let Some(mut g) = new_game(kind, seed) else { return Ok(()) };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut n = 0;
        while !g.is_over() {
            prop_assert!(n < MAX_ACTIONS);
            check_invariants(&g, &format!("{kind:?} {seed} step {n}"));
            let seats = g.seats_to_act();
            let r = picks.get(n).copied().unwrap_or_else(|| rng.random());
            let seat = seats[(r as usize >> 16) % seats.len()];
            let legal = g.legal_actions(seat);
            g.apply(seat, legal[(r as usize & 0xFFFF) % legal.len()]).unwrap();
            n += 1;
        }
        check_invariants(&g, &format!("{kind:?} {seed} end"));
    }
}
