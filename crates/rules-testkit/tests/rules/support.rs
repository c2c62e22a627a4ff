//! Helpers for the per-rule tests: explicit setups, driving a struggle, reading zones by card name,
//! and checking that a refused action changes nothing.
//!
//! Setups are JSON in the form of `evr_rules::Setup` (card, event and strategy names as on the wire).
//! Decks are listed top first; cards a test does not list lie beneath in a seeded random order, so a
//! test lists every card it draws.

#![allow(dead_code)]

pub use evr_rules::log::{LogEntry, Zone};
pub use evr_rules::view::{PlayerView, StrategySlot};
pub use evr_rules::{
    Action, ByFaction, Card, CardMask, CardRef, CardSet, Choice, Destination, EventCard, EventOrder, Faction, Game,
    GameSeed, Mode, OutcomeReason, PhaseName, RoundResult, Setup, Strategy, View, Viewer, WinReason, catalog,
};
use serde_json::Value;
pub use serde_json::json;

pub const REBEL: Faction = Faction::Rebel;
pub const IMPERIAL: Faction = Faction::Imperial;
pub const SPECTATOR: Viewer = Viewer::Spectator;

pub use Strategy::{Bureaucracy, Deception, DirectAssault, Infiltration, Support};

// ----- names -----

pub fn card(name: &str) -> Card {
    catalog()
        .expect("catalog")
        .card_by_name(name)
        .unwrap_or_else(|| panic!("no card named {name:?}"))
}

pub fn event(name: &str) -> EventCard {
    catalog()
        .expect("catalog")
        .event_by_name(name)
        .unwrap_or_else(|| panic!("no event named {name:?}"))
}

pub fn name(c: Card) -> &'static str {
    &catalog().expect("catalog").card(c).name
}

pub fn event_name(e: EventCard) -> &'static str {
    &catalog().expect("catalog").event(e).name
}

pub fn names(cards: impl IntoIterator<Item = Card>) -> Vec<&'static str> {
    cards.into_iter().map(name).collect()
}

/// Sorted names, for comparing zones whose order does not matter.
pub fn sorted(mut v: Vec<&'static str>) -> Vec<&'static str> {
    v.sort_unstable();
    v
}

pub fn cref(owner: Faction, card_name: &str) -> CardRef {
    CardRef::new(owner, card(card_name))
}

/// The answer "this one card".
pub fn pick(owner: Faction, card_name: &str) -> Choice {
    Choice::card(cref(owner, card_name))
}

/// The answer "these cards".
pub fn pick_all(cards: &[(Faction, &str)]) -> Choice {
    Choice::Cards {
        cards: CardSet::of(cards.iter().map(|(f, n)| cref(*f, n))),
    }
}

pub fn mask(card_names: &[&str]) -> CardMask {
    CardMask::of(card_names.iter().map(|n| card(n)))
}

pub fn characters_of(f: Faction) -> Vec<&'static str> {
    names(Card::characters_of(f))
}

pub fn basics() -> Vec<&'static str> {
    names(Card::basics())
}

// ----- setups -----

/// A full game at the Planning phase of round 1 (unless the setup says otherwise). A side whose
/// setup names neither `characters` nor `reserve` has exactly the characters listed in its deck in
/// its deck; its other characters are in its reserve.
pub fn game(setup: Value) -> Game {
    try_game(setup).unwrap_or_else(|e| panic!("invalid setup: {e}"))
}

pub fn try_game(mut setup: Value) -> Result<Game, evr_rules::SetupError> {
    let obj = setup.as_object_mut().expect("a setup is a JSON object");
    obj.entry("start").or_insert(json!("planning"));
    let planning = obj["start"] == json!("planning");
    for side in ["rebel", "imperial"] {
        let s = obj.entry(side).or_insert(json!({}));
        let s = s.as_object_mut().expect("a side is a JSON object");
        if planning && !s.contains_key("characters") && !s.contains_key("reserve") {
            let listed: Vec<Value> = s
                .get("deck")
                .and_then(Value::as_array)
                .map(|deck| {
                    deck.iter()
                        .filter(|c| c.as_str().is_some_and(|n| card(n).is_character()))
                        .cloned()
                        .collect()
                })
                .unwrap_or_default();
            s.insert("characters".into(), Value::Array(listed));
        }
    }
    let setup: Setup = serde_json::from_value(setup).expect("the setup parses");
    Game::from_setup(&setup)
}

/// A tutorial game, at the start of its struggle.
pub fn tutorial(mut setup: Value) -> Game {
    setup
        .as_object_mut()
        .expect("object")
        .insert("mode".into(), json!("tutorial"));
    let setup: Setup = serde_json::from_value(setup).expect("the setup parses");
    Game::from_setup(&setup).expect("valid tutorial setup")
}

/// A full game from `setup`, with both strategies chosen: the struggle has started.
pub fn struggle(setup: Value, rebel: Strategy, imperial: Strategy) -> Game {
    let mut g = game(setup);
    choose(&mut g, rebel, imperial);
    assert_eq!(phase(&g), PhaseName::Struggle);
    g
}

/// Both players choose their own strategy (Rebel first).
pub fn choose(g: &mut Game, rebel: Strategy, imperial: Strategy) {
    ok(
        g,
        REBEL,
        Action::ChooseStrategy {
            target: REBEL,
            strategy: rebel,
        },
    );
    ok(
        g,
        IMPERIAL,
        Action::ChooseStrategy {
            target: IMPERIAL,
            strategy: imperial,
        },
    );
}

pub fn choose_for(g: &mut Game, seat: Faction, target: Faction, strategy: Strategy) {
    ok(g, seat, Action::ChooseStrategy { target, strategy });
}

// ----- actions -----

/// Applies an action that must be accepted.
pub fn ok(g: &mut Game, seat: Faction, action: Action) -> Vec<evr_rules::Event> {
    g.apply(seat, action)
        .unwrap_or_else(|e| panic!("{seat:?} {action:?} refused: {e} ({})", e.code()))
}

pub fn play(g: &mut Game, seat: Faction) -> Vec<evr_rules::Event> {
    ok(g, seat, Action::PlayCard)
}

pub fn power(g: &mut Game, seat: Faction, card_name: &str) -> Vec<evr_rules::Event> {
    ok(g, seat, Action::UsePower { card: card(card_name) })
}

pub fn spend(g: &mut Game, seat: Faction, card_name: &str) -> Vec<evr_rules::Event> {
    ok(g, seat, Action::SpendInfluence { card: card(card_name) })
}

pub fn pass(g: &mut Game, seat: Faction) -> Vec<evr_rules::Event> {
    ok(g, seat, Action::Pass)
}

pub fn answer(g: &mut Game, seat: Faction, choice: Choice) -> Vec<evr_rules::Event> {
    ok(g, seat, Action::Answer { choice })
}

/// From the start of a struggle: the player on turn plays while they still need cards, and
/// passes otherwise, until Rebel has played `rebel` cards and Imperial `imperial`. The last action
/// is always a play, so the struggle is still on.
pub fn play_cards(g: &mut Game, rebel: usize, imperial: usize) {
    let mut need = ByFaction::new(rebel, imperial);
    while need.values().any(|n| *n > 0) {
        let seat = turn(g);
        if need[seat] > 0 {
            play(g, seat);
            need[seat] -= 1;
        } else {
            pass(g, seat);
        }
    }
}

/// Makes it `seat`'s turn: the other player passes if it is theirs. The previous action must not
/// have been a pass (that would end the struggle).
pub fn give_turn(g: &mut Game, seat: Faction) {
    if turn(g) != seat {
        assert!(
            !view(g, SPECTATOR).last_action_was_pass,
            "a pass now would end the struggle"
        );
        pass(g, seat.opponent());
    }
    assert_eq!(turn(g), seat);
}

/// Plays `rebel` and `imperial` cards (see [`play_cards`]), then gives the turn to `seat`.
pub fn set_up_play(g: &mut Game, rebel: usize, imperial: usize, seat: Faction) {
    play_cards(g, rebel, imperial);
    give_turn(g, seat);
}

/// Ends the struggle with two passes in a row (a player with an empty play area plays instead).
/// Returns the events of those actions (the round log is cleared when the next round starts).
pub fn end_struggle(g: &mut Game) -> Vec<evr_rules::Event> {
    let mut events = Vec::new();
    while phase(g) == PhaseName::Struggle && view(g, SPECTATOR).pending.is_none() {
        let seat = turn(g);
        if g.view(SPECTATOR).seat_view(seat).play_area.is_empty() {
            events.extend(play(g, seat));
        } else {
            events.extend(pass(g, seat));
        }
    }
    events
}

/// A round of a full game: both players choose their strategy, play exactly the cards listed in
/// their setup decks (alternating, from the balance side), then pass. Stops wherever the
/// Dominance phase needs a choice, or at the next round's Planning phase.
pub fn round(setup: Value, rebel: Strategy, imperial: Strategy) -> Game {
    let listed = |side: &str| {
        setup
            .get(side)
            .and_then(|s| s.get("deck"))
            .and_then(Value::as_array)
            .map_or(0, Vec::len)
    };
    let (r, i) = (listed("rebel"), listed("imperial"));
    let mut g = struggle(setup, rebel, imperial);
    play_cards(&mut g, r, i);
    end_struggle(&mut g);
    g
}

/// Drives a round to its end with both players passing, answering nothing: for rounds whose
/// Dominance phase needs no choice.
pub fn finish_round(g: &mut Game) -> Vec<evr_rules::Event> {
    let round = g.round();
    let events = end_struggle(g);
    assert!(
        g.is_over() || g.round() == round + 1,
        "the round did not end: a choice is pending: {:?}",
        view(g, SPECTATOR).pending
    );
    events
}

// ----- reading the game -----

pub fn view(g: &Game, viewer: Viewer) -> View {
    g.view(viewer)
}

pub fn phase(g: &Game) -> PhaseName {
    g.view(SPECTATOR).phase
}

pub fn turn(g: &Game) -> Faction {
    g.view(SPECTATOR).turn.expect("a struggle is on")
}

/// `f` as the spectator sees them (public information only).
pub fn public(g: &Game, f: Faction) -> PlayerView {
    g.view(SPECTATOR).seat_view(f).clone()
}

/// `f` as `viewer` sees them.
pub fn seen_by(g: &Game, viewer: Viewer, f: Faction) -> PlayerView {
    g.view(viewer).seat_view(f).clone()
}

pub trait SeatView {
    fn seat_view(&self, f: Faction) -> &PlayerView;
}

impl SeatView for View {
    fn seat_view(&self, f: Faction) -> &PlayerView {
        match f {
            Faction::Rebel => &self.rebel,
            Faction::Imperial => &self.imperial,
        }
    }
}

/// Names of the cards in `f`'s play area, in the order they entered.
pub fn in_play(g: &Game, f: Faction) -> Vec<&'static str> {
    public(g, f).play_area.iter().map(|c| name(c.card)).collect()
}

/// Whether `f`'s card in play is ready.
pub fn is_ready(g: &Game, f: Faction, card_name: &str) -> bool {
    public(g, f)
        .play_area
        .iter()
        .find(|c| c.card == card(card_name))
        .unwrap_or_else(|| panic!("{card_name} is not in the {f:?} play area"))
        .ready
}

pub fn discard_pile(g: &Game, f: Faction) -> Vec<&'static str> {
    names(g.testing_discard(f))
}

/// The deck, top first (hidden state, for assertions).
pub fn deck(g: &Game, f: Faction) -> Vec<&'static str> {
    names(g.testing_deck(f))
}

pub fn reserve(g: &Game, f: Faction) -> Vec<&'static str> {
    names(g.testing_reserve(f).iter())
}

pub fn influence(g: &Game, f: Faction) -> u32 {
    public(g, f).influence
}

pub fn used(g: &Game, f: Faction) -> Vec<Strategy> {
    public(g, f).used_strategies
}

/// Unused strategies, as their owner sees them.
pub fn unused(g: &Game, f: Faction) -> Vec<Strategy> {
    seen_by(g, Viewer::Seat(f), f)
        .unused_strategies
        .expect("a player knows their unused strategies")
}

pub fn last_result(g: &Game) -> RoundResult {
    *g.view(SPECTATOR).rounds.last().expect("a round was decided")
}

/// The answers `seat` may give to the pending choice.
pub fn options(g: &Game, seat: Faction) -> Vec<Choice> {
    g.legal_actions(seat)
        .into_iter()
        .map(|a| match a {
            Action::Answer { choice } => choice,
            other => panic!("{seat:?} has no pending choice but may {other:?}"),
        })
        .collect()
}

pub fn pending_step(g: &Game) -> Option<evr_rules::PendingStep> {
    g.view(SPECTATOR).pending.map(|p| p.step)
}

/// This round's log as `viewer` sees it.
pub fn log(g: &Game, viewer: Viewer) -> Vec<LogEntry> {
    g.round_log().iter().map(|e| e.project(viewer)).collect()
}

/// Events returned by one action, as `viewer` sees them.
pub fn seen(events: &[evr_rules::Event], viewer: Viewer) -> Vec<LogEntry> {
    events.iter().map(|e| e.project(viewer)).collect()
}

/// Everything about the game: the three views and the hidden zones.
pub fn snapshot(g: &Game) -> String {
    let views: Vec<String> = Viewer::ALL
        .iter()
        .map(|v| serde_json::to_string(&g.view(*v)).expect("a view serializes"))
        .collect();
    let hidden: Vec<String> = Faction::BOTH
        .iter()
        .map(|f| {
            format!(
                "{:?} {:?} {:?} {:?}",
                g.testing_deck(*f),
                g.testing_discard(*f),
                g.testing_reserve(*f),
                g.testing_chosen_strategy(*f)
            )
        })
        .collect();
    format!(
        "{}\n{}\n{:?}\n{:?}",
        views.join("\n"),
        hidden.join("\n"),
        g.testing_event_deck(),
        g.outcome()
    )
}

/// `action` is refused with `code`, and the game is exactly as before.
pub fn assert_refused(g: &mut Game, seat: Faction, action: Action, code: &str) {
    let before = snapshot(g);
    let err = g
        .apply(seat, action)
        .expect_err(&format!("{seat:?} {action:?} should be refused"));
    assert_eq!(err.code(), code, "{seat:?} {action:?}: {err}");
    assert_eq!(snapshot(g), before, "a refused action changed the game");
    assert!(
        !g.legal_actions(seat).contains(&action),
        "a refused action is listed as legal"
    );
}

/// Lando Calrissian cycles the Rebel deck down (R-4.5 tests), in a Rebel Uprising round
/// (capacity 6) with the balance token on the Rebel side. The Rebel deck holds the 16 basic cards
/// and Lando: Lando, Military 2-5, Diplomacy 2-5, The Force 2-5, Recon 2-5 (top first). Imperial's
/// deck starts with `imperial_deck`; Imperial plays one card, then passes.
///
/// Rebel plays Lando and Military 2-5, then uses Lando three times (spending influence to ready
/// him in between): Military 2-5 out, Diplomacy 2-5 in; Diplomacy 2-5 out, The Force 2-5 in; then
/// the first `last` of The Force 2-5 out and as many Recon cards in. With `last` = 4 the Rebel
/// deck is empty and the discard pile holds Military, Diplomacy and The Force 2-5 (12 cards). The
/// Imperial player is on turn, and the previous action was not a pass.
pub fn lando_cycle(imperial_deck: &[&str], last: usize, rebel_strategy: Strategy) -> Game {
    let rebel_deck = [
        "Lando Calrissian",
        "Military 2",
        "Military 3",
        "Military 4",
        "Military 5",
        "Diplomacy 2",
        "Diplomacy 3",
        "Diplomacy 4",
        "Diplomacy 5",
        "The Force 2",
        "The Force 3",
        "The Force 4",
        "The Force 5",
        "Recon 2",
        "Recon 3",
        "Recon 4",
        "Recon 5",
    ];
    let mut g = struggle(
        json!({
            "event_deck": ["Rebel Uprising"],
            "balance": "rebel",
            "rebel": {"deck": rebel_deck, "influence": 10},
            "imperial": {"deck": imperial_deck},
        }),
        rebel_strategy,
        Bureaucracy,
    );
    play(&mut g, REBEL);
    play(&mut g, IMPERIAL);
    for _ in 0..4 {
        play(&mut g, REBEL);
        pass(&mut g, IMPERIAL);
    }
    let uses: [&[&str]; 3] = [
        &["Military 2", "Military 3", "Military 4", "Military 5"],
        &["Diplomacy 2", "Diplomacy 3", "Diplomacy 4", "Diplomacy 5"],
        &["The Force 2", "The Force 3", "The Force 4", "The Force 5"][..last],
    ];
    for (i, out) in uses.iter().enumerate() {
        if i > 0 {
            pass(&mut g, IMPERIAL);
            spend(&mut g, REBEL, "Lando Calrissian");
            pass(&mut g, IMPERIAL);
        }
        power(&mut g, REBEL, "Lando Calrissian");
        let cards: Vec<(Faction, &str)> = out.iter().map(|n| (REBEL, *n)).collect();
        answer(&mut g, REBEL, pick_all(&cards));
    }
    assert_eq!(turn(&g), IMPERIAL);
    g
}

/// A struggle in `event` with both strategies Bureaucracy (no choice in Dominance).
pub fn in_event(event_name: &str, balance: Faction, rebel: &[&str], imperial: &[&str]) -> Game {
    struggle(
        json!({
            "event_deck": [event_name],
            "balance": balance,
            "rebel": {"deck": rebel},
            "imperial": {"deck": imperial},
        }),
        Bureaucracy,
        Bureaucracy,
    )
}

/// The two lists hold the same choices, in any order.
pub fn assert_same_choices(got: Vec<Choice>, expected: Vec<Choice>) {
    let key = |c: &Choice| format!("{c:?}");
    let mut got: Vec<String> = got.iter().map(key).collect();
    let mut expected: Vec<String> = expected.iter().map(key).collect();
    got.sort();
    expected.sort();
    assert_eq!(got, expected);
}

pub fn strategy_choices(strategies: &[Strategy]) -> Vec<Choice> {
    strategies.iter().map(|s| Choice::Strategy { strategy: *s }).collect()
}

/// A Diplomatic Freedom round (capacity 3, objective 11, 1 VP, 2 influence, no effect): each
/// player plays exactly `rebel` / `imperial`, then both pass.
pub fn freedom(balance: Faction, rebel: &[&str], imperial: &[&str], rs: Strategy, is: Strategy) -> Game {
    round(
        json!({
            "event_deck": ["Diplomatic Freedom", "Battle of Hoth"],
            "balance": balance,
            "rebel": {"deck": rebel},
            "imperial": {"deck": imperial},
        }),
        rs,
        is,
    )
}

pub const TEN: [&str; 2] = ["Military 5", "Diplomacy 5"];
pub const NINE: [&str; 2] = ["Military 4", "Diplomacy 5"];
pub const EIGHT: [&str; 2] = ["Military 4", "Diplomacy 4"];
pub const TWELVE: [&str; 3] = ["Military 5", "Diplomacy 5", "Recon 2"];
pub const THIRTEEN: [&str; 3] = ["Military 5", "Diplomacy 5", "Recon 3"];
