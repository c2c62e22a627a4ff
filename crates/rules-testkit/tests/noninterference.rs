//! Non-interference: what a viewer sees is a function of what that viewer may know.
//!
//! For states reached by random play (full games, the tutorial, and random explicit setups with
//! Infiltration, Diversion and Locate modifiers and effect events on top of the event deck), and for
//! each viewer (Rebel seat, Imperial seat, spectator): `scramble_hidden_for(viewer)` re-randomizes
//! everything that viewer may not know (other decks' order, the reserve/deck split of characters,
//! character choices, unrevealed strategies, the event deck, secrets in the log, the future random
//! stream). The viewer's view and projected round log must be byte for byte the same afterwards.
//!
//! Stronger form: the same seat then acts in both worlds. Its actions must get the same verdict
//! (accepted, or refused for the same reason), and as long as the log entries the action produces
//! for that seat are the same in both worlds, its views must stay the same.
//!
//! Direct checks: a spectator never sees deck contents, character choices, options or privately seen
//! cards; no viewer sees names of cards in the hidden part of another player's deck or reserve; the
//! secret fields of the projected log are empty for everyone outside their audience.

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

// The engine with its testing accessors, under the name every user of the engine knows.
extern crate evr_rules_testkit as evr_rules;

use std::collections::BTreeMap;

use evr_rules::log::Zone;
use evr_rules::view::StrategySlot;
use evr_rules::{
    Action, ByFaction, Card, CardMask, CardRef, CardSet, Choice, Destination, EventCard, Faction, Game, LogEntry, Mode,
    PendingStep, PhaseName, Strategy, View, Viewer, catalog,
};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use serde_json::Value;

mod common;
use common::{Kind, all_cards, any_ref, new_game, pick_seat};

// ----- random actions (for the verdict checks) -----

/// A random action of any variant, or a near miss of a listed one.
fn probe_action(rng: &mut ChaCha8Rng, listed: &[Action]) -> Action {
    let all = all_cards();
    let card = all[rng.random_range(0..all.len())];
    let strategy = Strategy::ALL[rng.random_range(0..5usize)];
    let f = Faction::BOTH[rng.random_range(0..2usize)];
    if !listed.is_empty() && rng.random_bool(0.5) {
        return match listed[rng.random_range(0..listed.len())] {
            Action::Answer {
                choice: Choice::Cards { cards },
            } => {
                let r = any_ref(rng);
                let mut v: Vec<CardRef> = cards.iter().filter(|c| *c != r).collect();
                if !cards.contains(r) {
                    v.push(r);
                }
                Action::Answer {
                    choice: Choice::Cards { cards: CardSet::of(v) },
                }
            }
            Action::Answer {
                choice: Choice::DiscardAndTop { discard, .. },
            } => Action::Answer {
                choice: Choice::DiscardAndTop {
                    discard,
                    top: any_ref(rng),
                },
            },
            Action::ChooseStrategy { target, .. } => Action::ChooseStrategy { target, strategy },
            Action::UsePower { .. } => Action::UsePower { card },
            _ => Action::SpendInfluence { card },
        };
    }
    match rng.random_range(0..8u8) {
        0 => Action::ChooseCharacters {
            characters: CardMask::of(Card::characters_of(f).filter(|_| rng.random_bool(0.5))),
        },
        1 => Action::ChooseStrategy { target: f, strategy },
        2 => Action::PlayCard,
        3 => Action::UsePower { card },
        4 => Action::SpendInfluence { card },
        5 => Action::Pass,
        6 => Action::Answer {
            choice: Choice::Character {
                card,
                to: Destination::Deck,
            },
        },
        _ => Action::Answer {
            choice: match rng.random_range(0..4u8) {
                0 => Choice::card(any_ref(rng)),
                1 => Choice::Deck { owner: f },
                2 => Choice::Strategy { strategy },
                _ => Choice::Play { play: true },
            },
        },
    }
}

// ----- comparing -----

fn value<T: serde::Serialize>(x: &T) -> Value {
    serde_json::to_value(x).unwrap()
}

fn log_of(g: &Game, viewer: Viewer) -> Vec<LogEntry> {
    g.round_log().iter().map(|e| e.project(viewer)).collect()
}

/// Paths where two JSON values differ (at most a few), for failure messages.
fn diff(a: &Value, b: &Value, path: &str, out: &mut Vec<String>) {
    if out.len() >= 8 || a == b {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                diff(va, y.get(k).unwrap_or(&Value::Null), &format!("{path}.{k}"), out);
            }
            for (k, vb) in y {
                if !x.contains_key(k) {
                    diff(&Value::Null, vb, &format!("{path}.{k}"), out);
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                diff(va, vb, &format!("{path}[{i}]"), out);
            }
        }
        _ => out.push(format!("{path}: {a} != {b}")),
    }
}

fn assert_same(before: &Value, after: &Value, what: &str) {
    if before != after {
        let mut d = Vec::new();
        diff(before, after, "", &mut d);
        panic!(
            "{what}: the viewer's view changed when hidden information was scrambled:\n  {}",
            d.join("\n  ")
        );
    }
}

// ----- what is checked per state -----

#[derive(Default)]
struct Stats {
    states: usize,
    checks: usize,
    /// Scrambles that changed something the viewer may not know (sanity: the scramble scrambles).
    scrambled_hidden: usize,
    /// Seat checks where another viewer's view changed under the scramble.
    others_view_changed: usize,
    /// Actions applied in both worlds whose views were then compared.
    compared_after_action: usize,
    /// Actions that revealed different things in the two worlds (comparison stops there).
    revealed: usize,
    probes: usize,
    situations: BTreeMap<String, usize>,
}

fn situation(stats: &mut Stats, name: impl Into<String>) {
    *stats.situations.entry(name.into()).or_default() += 1;
}

fn hidden_state(g: &Game) -> String {
    format!(
        "{:?}",
        (
            Faction::BOTH.map(|f| (g.testing_deck(f), g.testing_reserve(f), g.testing_chosen_strategy(f))),
            g.testing_event_deck()
        )
    )
}

fn step_name(step: PendingStep) -> String {
    let s = format!("{step:?}");
    s.split([' ', '{']).next().unwrap_or_default().to_string()
}

/// Records which interesting situation a state is in (to require coverage at the end).
fn classify(g: &Game, stats: &mut Stats) {
    let v = g.view(Viewer::Spectator);
    if let Some(p) = &v.pending {
        let phase = format!("{:?}", v.phase);
        situation(stats, format!("pending {} in {phase}", step_name(p.step)));
    }
    if v.phase == PhaseName::Planning {
        for pv in [&v.rebel, &v.imperial] {
            let m = pv.modifiers;
            if m.infiltrated {
                situation(stats, "planning, infiltrated");
            }
            if m.diversion {
                situation(stats, "planning, diversion");
            }
            if m.located {
                situation(stats, "planning, located");
                if pv.strategy != StrategySlot::None {
                    situation(stats, "planning, located strategy revealed");
                }
            }
        }
        if v.rebel.modifiers.infiltrated && v.imperial.modifiers.infiltrated {
            situation(stats, "planning, both infiltrated");
        }
    }
    if v.phase == PhaseName::CharacterChoice && (v.rebel.characters_chosen || v.imperial.characters_chosen) {
        situation(stats, "character choice, one chosen");
    }
    if v.rebel.deck_top.is_some() || v.imperial.deck_top.is_some() {
        situation(stats, "a deck top known to everyone");
    }
    if v.rebel.reserve_known.len() + v.imperial.reserve_known.len() > 0 {
        situation(stats, "a reserve character known to everyone");
    }
    for f in Faction::BOTH {
        let sv = g.view(Viewer::Seat(f));
        if !sv.known_next_events.is_empty() {
            situation(stats, "known next events");
        }
        let opp = match f {
            Faction::Rebel => &sv.imperial,
            Faction::Imperial => &sv.rebel,
        };
        let public_top = match f {
            Faction::Rebel => v.imperial.deck_top,
            Faction::Imperial => v.rebel.deck_top,
        };
        if opp.deck_top.is_some() && public_top.is_none() {
            situation(stats, "the opponent's deck top known privately");
        }
    }
    if g.mode() == Mode::Tutorial {
        situation(stats, "tutorial");
    }
}

/// The basic check: the view and the projected log of `viewer` survive scrambling.
fn check_scramble(g: &Game, viewer: Viewer, seed: u64, stats: &mut Stats, ctx: &str) {
    let view = value(&g.view(viewer));
    let log = value(&log_of(g, viewer));
    let mut s = g.clone();
    s.scramble_hidden_for(viewer, seed);
    assert_same(&view, &value(&s.view(viewer)), &format!("{ctx}, {viewer:?}"));
    assert_same(
        &log,
        &value(&log_of(&s, viewer)),
        &format!("{ctx}, {viewer:?}, round log"),
    );
    // Who has to act is public (a server announces it).
    assert_eq!(g.seats_to_act(), s.seats_to_act(), "{ctx}, {viewer:?}: seats to act");
    if let Some(seat) = viewer.seat() {
        assert_eq!(
            g.legal_actions(seat),
            s.legal_actions(seat),
            "{ctx}, {viewer:?}: legal actions"
        );
        let other = Viewer::Seat(seat.opponent());
        let (before, after) = (g.view(other), s.view(other));
        if before.rebel != after.rebel || before.imperial != after.imperial {
            stats.others_view_changed += 1;
        }
    }
    if hidden_state(&s) != hidden_state(g) {
        stats.scrambled_hidden += 1;
    }
    stats.checks += 1;
}

/// The view with the privately seen cards or events of a Recon, IG-88 or Balance of the Force choice
/// removed (the two worlds may legitimately show different ones: the owner has just seen them).
fn without_seen_cards(v: &View) -> Value {
    let mut j = value(v);
    if let Some(p) = j.get_mut("pending").and_then(Value::as_object_mut) {
        p.insert("seen_cards".into(), Value::Null);
        p.insert("seen_events".into(), Value::Null);
        p.insert("options".into(), Value::Null);
    }
    // The legal actions are the options.
    j["legal_actions"] = Value::Null;
    // Recon shows the top two cards in order: the top is among them.
    if let Some(PendingStep::ReconDiscard { deck, .. }) = v.pending.as_ref().map(|p| p.step) {
        let side = match deck {
            Faction::Rebel => "rebel",
            Faction::Imperial => "imperial",
        };
        j[side]["deck_top"] = Value::Null;
    }
    j
}

/// The stronger form: the same seat acts in the real world and in a scrambled one.
fn check_acting_in_both(g: &Game, seat: Faction, seed: u64, rng: &mut ChaCha8Rng, stats: &mut Stats, ctx: &str) {
    let viewer = Viewer::Seat(seat);
    let mut a = g.clone();
    let mut b = g.clone();
    b.scramble_hidden_for(viewer, seed);
    for step in 0..3 {
        let ctx = format!("{ctx}, {seat:?} acting in both worlds, step {step}");
        let legal = a.legal_actions(seat);
        assert_eq!(legal, b.legal_actions(seat), "{ctx}: legal actions");
        // The same verdict for anything the seat might try: refusals must not tell hidden things.
        for _ in 0..3 {
            let probe = probe_action(rng, &legal);
            if legal.contains(&probe) {
                continue;
            }
            let (ra, rb) = (a.apply(seat, probe), b.apply(seat, probe));
            assert!(ra.is_err(), "{ctx}: unlisted {probe:?} accepted");
            assert_eq!(ra.err(), rb.err(), "{ctx}: {probe:?} refused for different reasons");
            stats.probes += 1;
        }
        if legal.is_empty() {
            return;
        }
        let act = legal[rng.random_range(0..legal.len())];
        let ea = a
            .apply(seat, act)
            .unwrap_or_else(|e| panic!("{ctx}: {act:?} refused: {e}"));
        let eb = b
            .apply(seat, act)
            .unwrap_or_else(|e| panic!("{ctx}: {act:?} refused in the scrambled world: {e}"));
        let la: Vec<LogEntry> = ea.iter().map(|e| e.project(viewer)).collect();
        let lb: Vec<LogEntry> = eb.iter().map(|e| e.project(viewer)).collect();
        if la != lb {
            // The action showed the seat something that differs between the worlds.
            stats.revealed += 1;
            return;
        }
        let (va, vb) = (a.view(viewer), b.view(viewer));
        if va != vb {
            let seen_step = va.pending.as_ref().is_some_and(|p| {
                p.owner == seat
                    && matches!(
                        p.step,
                        PendingStep::ReconDiscard { .. }
                            | PendingStep::Ig88Pick { .. }
                            | PendingStep::ReorderEvents { .. }
                    )
            });
            if seen_step {
                // Recon's two cards, IG-88's deck or the top events: seen only now, and possibly
                // different.
                assert_same(&without_seen_cards(&va), &without_seen_cards(&vb), &ctx);
                stats.revealed += 1;
                return;
            }
            assert_same(
                &value(&va),
                &value(&vb),
                &format!("{ctx}: after {act:?} with the same log"),
            );
        }
        stats.compared_after_action += 1;
    }
}

/// JSON paths of string values equal to `needle` (for failure messages).
fn paths_of(v: &Value, needle: &str, path: String, out: &mut Vec<String>) {
    match v {
        Value::String(s) if s == needle => out.push(path),
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                paths_of(x, needle, format!("{path}[{i}]"), out);
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                paths_of(x, needle, format!("{path}.{k}"), out);
            }
        }
        _ => {}
    }
}

fn where_is(v: &Value, name: &str) -> Vec<String> {
    let mut out = Vec::new();
    paths_of(v, name.trim_matches('"'), String::new(), &mut out);
    out
}

fn names(cat: &evr_rules::Catalog, cards: impl IntoIterator<Item = Card>) -> Vec<(Card, String)> {
    cards
        .into_iter()
        .map(|c| (c, format!("\"{}\"", cat.card(c).name)))
        .collect()
}

/// Direct checks of what a viewer's view may hold.
fn check_direct(g: &Game, viewer: Viewer, ctx: &str) {
    let cat = catalog().unwrap();
    let view = g.view(viewer);
    let mut j = value(&view);
    let spectator = viewer == Viewer::Spectator;
    if spectator {
        assert!(view.legal_actions.is_empty(), "{ctx}: a spectator has no actions");
        assert!(
            view.known_next_events.is_empty(),
            "{ctx}: a spectator knows no event order"
        );
    }
    let revealed_phase = matches!(view.phase, PhaseName::Dominance | PhaseName::GameOver);
    for f in Faction::BOTH {
        if viewer == Viewer::Seat(f) {
            continue;
        }
        let pv = match f {
            Faction::Rebel => &view.rebel,
            Faction::Imperial => &view.imperial,
        };
        assert!(
            pv.deck_contents.is_none(),
            "{ctx}: {viewer:?} sees {f:?}'s deck contents"
        );
        assert!(
            pv.characters.is_none(),
            "{ctx}: {viewer:?} sees {f:?}'s character choice"
        );
        if let Some(top) = pv.deck_top {
            assert_eq!(g.testing_deck(f).first(), Some(&top), "{ctx}: a wrong deck top");
        }
        let reserve = g.testing_reserve(f);
        assert_eq!(
            pv.reserve_known.intersect(reserve),
            pv.reserve_known,
            "{ctx}: reserve_known"
        );
        match pv.strategy {
            StrategySlot::Known(s) => {
                assert_eq!(g.testing_chosen_strategy(f), Some(s), "{ctx}");
                // Revealed at Dominance, revealed first, or chosen by the viewer
                //
                let may_know = revealed_phase || pv.modifiers.located || (!spectator && pv.modifiers.infiltrated);
                assert!(may_know, "{ctx}: {viewer:?} knows {f:?}'s strategy");
            }
            StrategySlot::Hidden => {
                assert!(
                    pv.unused_strategies.is_none(),
                    "{ctx}: unused strategies give the hidden one away"
                );
                assert!(!revealed_phase, "{ctx}: strategies are revealed at Dominance (R-5.1)");
            }
            StrategySlot::None => {}
        }
        // No card name of the hidden part of the deck or reserve appears in the player's view
        // (outside the round log, which may name cards that were public earlier this round).
        let pj = value(pv).to_string();
        let deck = g.testing_deck(f);
        let mut rest = j.clone();
        rest.as_object_mut().unwrap().remove("log");
        if view.pending.as_ref().is_some_and(|p| Viewer::Seat(p.owner) == viewer) {
            // The viewer's own choice lists what they privately see (Recon, IG-88).
            rest.as_object_mut().unwrap().remove("pending");
            rest.as_object_mut().unwrap().remove("legal_actions");
        }
        let rest_json = rest;
        let rest = rest_json.to_string();
        let hidden_deck = if pv.deck_top.is_some() { &deck[1..] } else { &deck[..] };
        let hidden_reserve = reserve.iter().filter(|c| !pv.reserve_known.contains(*c));
        for (c, name) in names(cat, hidden_deck.iter().copied().chain(hidden_reserve)) {
            assert!(
                !pj.contains(&name),
                "{ctx}: {viewer:?} sees hidden {name} in {f:?}'s view at {:?}",
                where_is(&value(pv), &name)
            );
            if c.is_character() {
                // Character names are unique: not anywhere in the view but the log and the
                // viewer's own pending choice (which may show privately seen cards).
                assert!(
                    !rest.contains(&name),
                    "{ctx}: {viewer:?} sees hidden character {name} at {:?}",
                    where_is(&rest_json, &name)
                );
            }
        }
    }
    if let Some(p) = &view.pending {
        if viewer != Viewer::Seat(p.owner) {
            assert!(
                p.options.is_none(),
                "{ctx}: {viewer:?} sees the options of {:?}",
                p.owner
            );
            assert!(
                p.seen_cards.is_none() && p.seen_events.is_none(),
                "{ctx}: {viewer:?} sees seen cards"
            );
        } else {
            let listed: Vec<Action> = p
                .options
                .clone()
                .unwrap()
                .into_iter()
                .map(|choice| Action::Answer { choice })
                .collect();
            assert_eq!(listed, view.legal_actions, "{ctx}: options and legal actions");
        }
    }
    // The spectator's JSON has no private fields filled in at all.
    if spectator {
        for side in ["rebel", "imperial"] {
            let pj = &j[side];
            assert!(pj["deck_contents"].is_null(), "{ctx}");
            assert!(pj["characters"].is_null(), "{ctx}");
        }
        if !j["pending"].is_null() {
            assert!(j["pending"]["options"].is_null(), "{ctx}");
            assert!(j["pending"]["seen_cards"].is_null(), "{ctx}");
            assert!(j["pending"]["seen_events"].is_null(), "{ctx}");
        }
    }
    // Secret fields of the projected log are empty outside their audience.
    let me = viewer.seat();
    let not_me = |f: &Value| me.is_none_or(|m| value(&m) != *f);
    for entry in j["log"].as_array_mut().unwrap().drain(..) {
        let t = entry["type"].as_str().unwrap();
        let secret = match t {
            "characters_chosen" if not_me(&entry["faction"]) => Some("characters"),
            "strategy_chosen" => {
                let target: Faction = serde_json::from_value(entry["target"].clone()).unwrap();
                let chose_it = entry["chooser"] == "opponent" && me == Some(target.opponent());
                let entitled = entry["revealed"] == Value::Bool(true) || me == Some(target) || chose_it;
                (!entitled).then_some("strategy")
            }
            "deck_looked" if not_me(&entry["by"]) => Some("cards"),
            "card_on_top" if not_me(&entry["by"]) && entry["from"] != "discard_pile" => Some("card"),
            "character_to_reserve" if not_me(&entry["faction"]) && entry["from"] == "deck" => Some("card"),
            "reserve_to_deck" if not_me(&entry["faction"]) => Some("card"),
            "new_strategy_chosen" if not_me(&entry["faction"]) => Some("strategy"),
            "events_reordered" if not_me(&entry["by"]) => Some("order"),
            _ => None,
        };
        if let Some(field) = secret {
            assert!(
                entry[field].is_null(),
                "{ctx}: {viewer:?} sees the secret {field} of {entry}"
            );
        }
    }
}

/// What one viewer may know, rebuilt only from the log entries that viewer was shown (across the
/// whole game): an oracle for the knowledge the engine keeps in flags (who knows a deck's top, the
/// public part of a reserve, who knows a chosen strategy, the known event order). The scramble
/// trusts those flags, so over-sharing through them is caught here.
#[derive(Clone, Debug)]
struct Knowledge {
    viewer: Viewer,
    /// The card known to be on top of each deck.
    top: ByFaction<Option<Card>>,
    /// Recon in progress: the top two cards, seen together.
    top_two: ByFaction<Option<CardMask>>,
    /// The deck is being searched (Han Solo, IG-88): IG-88 will shuffle it.
    searched: ByFaction<bool>,
    /// Characters seen to go into the reserve and certainly still there.
    reserve: ByFaction<CardMask>,
    strategy: ByFaction<StrategySlot>,
    /// Strategies were revealed this round (Dominance).
    revealed: bool,
    next_events: Vec<EventCard>,
    /// The latest entries, for failure messages.
    recent: std::collections::VecDeque<LogEntry>,
}

impl Knowledge {
    fn new(viewer: Viewer) -> Knowledge {
        Knowledge {
            viewer,
            top: ByFaction::splat(None),
            top_two: ByFaction::splat(None),
            searched: ByFaction::splat(false),
            reserve: ByFaction::splat(CardMask::EMPTY),
            strategy: ByFaction::splat(StrategySlot::None),
            revealed: false,
            next_events: Vec::new(),
            recent: Default::default(),
        }
    }

    fn lose_top(&mut self, f: Faction) {
        self.top[f] = None;
        self.top_two[f] = None;
    }

    /// The top card `c` of `f`'s deck left it: a viewer who knew a different top was wrong.
    fn top_left(&mut self, f: Faction, c: Card, ctx: &str) {
        if let Some(t) = self.top[f] {
            assert_eq!(
                t,
                c,
                "{ctx}: {f:?}'s deck top was known to {:?} as {t:?} but {c:?} left it; its recent log:\n{}",
                self.viewer,
                self.recent()
            );
        }
        self.lose_top(f);
        self.searched[f] = false;
    }

    fn recent(&self) -> String {
        let cat = catalog().unwrap();
        self.recent
            .iter()
            .map(|e| format!("  {}", e.describe(cat)))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn update(&mut self, e: &LogEntry, ctx: &str) {
        if self.recent.len() == 40 {
            self.recent.pop_front();
        }
        self.recent.push_back(*e);
        match *e {
            LogEntry::RoundStarted { event, .. } => {
                self.strategy = ByFaction::splat(StrategySlot::None);
                self.revealed = false;
                if !self.next_events.is_empty() {
                    let known = self.next_events.remove(0);
                    assert_eq!(known, event, "{ctx}: the known next event was not the next one");
                }
            }
            LogEntry::StrategyChosen { target, strategy, .. } => {
                self.strategy[target] = strategy.map_or(StrategySlot::Hidden, StrategySlot::Known);
            }
            LogEntry::NewStrategyChosen { faction, strategy } => {
                self.strategy[faction] = strategy.map_or(StrategySlot::Hidden, StrategySlot::Known);
            }
            // R2-D2 and C-3PO, Emperor Palpatine (Display of Power, at Dominance, discards an unused one).
            LogEntry::StrategyDiscarded { faction, .. } if !self.revealed => {
                self.strategy[faction] = StrategySlot::None;
            }
            LogEntry::StrategiesRevealed { strategies, .. } => {
                self.revealed = true;
                self.strategy = strategies.map(|s| s.map_or(StrategySlot::None, StrategySlot::Known));
            }
            // R-8.10 (at Dominance) takes this round's strategy back.
            LogEntry::StrategiesRetrieved { faction } if self.revealed => {
                self.strategy[faction] = StrategySlot::None;
            }
            LogEntry::StrategyUsed { faction, .. } => self.strategy[faction] = StrategySlot::None,
            LogEntry::DeckShuffled { faction, .. } => {
                self.lose_top(faction);
                self.searched[faction] = false;
            }
            LogEntry::ReserveToDeck { faction, .. } => {
                // Ruling 4: nobody else can tell which character left the reserve.
                self.reserve[faction] = CardMask::EMPTY;
                self.lose_top(faction);
            }
            LogEntry::CharacterToReserve {
                faction, card, from, ..
            } => {
                if from == Zone::Deck {
                    self.lose_top(faction);
                } else if let Some(c) = card {
                    self.reserve[faction].insert(c);
                }
            }
            LogEntry::CardToPlayArea { faction, card, from } => match from {
                Zone::Reserve => self.reserve[faction].remove(card),
                // Han Solo takes any card of the deck, then shuffles it.
                Zone::Deck => self.lose_top(faction),
                _ => {}
            },
            LogEntry::CardPlayed { faction, card } => self.top_left(faction, card, ctx),
            LogEntry::CardDiscarded { card, from, .. } => {
                let f = card.owner;
                match from {
                    Zone::DeckTop => self.top_left(f, card.card, ctx),
                    // IG-88: the deck is shuffled before the new top is put on it.
                    Zone::Deck if self.searched[f] => self.lose_top(f),
                    // Recon: only the discarded card left; the other stays on top.
                    Zone::Deck => {
                        if self.top[f] == Some(card.card) {
                            self.lose_top(f);
                        }
                        self.top_two[f] = None;
                    }
                    _ => {}
                }
            }
            LogEntry::CardOnTop { deck, card, .. } => {
                match card {
                    Some(c) => self.top[deck] = Some(c),
                    None if self.searched[deck] => self.top[deck] = None,
                    // Recon put the other card back: if the viewer knew the top, it is still there
                    // (otherwise the discard already told them it left).
                    None => {}
                }
                self.top_two[deck] = None;
                self.searched[deck] = false;
            }
            LogEntry::DeckLooked {
                deck,
                count,
                cards: Some(m),
                ..
            } => {
                self.searched[deck] = false;
                match count {
                    1 => self.top[deck] = m.iter().next(),
                    2 => self.top_two[deck] = Some(m),
                    _ => {}
                }
            }
            LogEntry::DeckLooked { deck, .. } => self.searched[deck] = false,
            LogEntry::DeckSearched { deck, .. } => self.searched[deck] = true,
            LogEntry::EventsReordered { order, .. } => {
                // Ruling 5: a reorder by someone else makes an earlier one stale.
                self.next_events = order.map(|o| o.iter().collect()).unwrap_or_default();
            }
            _ => {}
        }
    }
}

/// Compares the view's knowledge fields with what the viewer's log justifies.
fn check_knowledge(g: &Game, viewer: Viewer, k: &Knowledge, ctx: &str) {
    let view = g.view(viewer);
    for f in Faction::BOTH {
        let pv = match f {
            Faction::Rebel => &view.rebel,
            Faction::Imperial => &view.imperial,
        };
        match k.top_two[f] {
            Some(m) => assert!(
                pv.deck_top.is_some_and(|t| m.contains(t)),
                "{ctx}: {viewer:?} looked at {f:?}'s top two cards {m:?} but sees top {:?}; its recent log:\n{}",
                pv.deck_top,
                k.recent()
            ),
            None => assert_eq!(
                pv.deck_top,
                k.top[f],
                "{ctx}: {viewer:?}'s view of {f:?}'s deck top differs from what its log told it; its recent log:\n{}",
                k.recent()
            ),
        }
        if viewer != Viewer::Seat(f) {
            assert_eq!(
                pv.reserve_known,
                k.reserve[f],
                "{ctx}: {viewer:?}'s view of {f:?}'s reserve differs from what its log told it; its recent log:\n{}",
                k.recent()
            );
        }
        assert_eq!(
            pv.strategy,
            k.strategy[f],
            "{ctx}: {viewer:?}'s view of {f:?}'s strategy differs from what its log told it; its recent log:\n{}",
            k.recent()
        );
        let own = viewer == Viewer::Seat(f);
        assert_eq!(
            pv.unused_strategies.is_some(),
            own || pv.strategy != StrategySlot::Hidden,
            "{ctx}: {viewer:?} and {f:?}'s unused strategies"
        );
    }
    assert_eq!(
        view.known_next_events,
        k.next_events,
        "{ctx}: {viewer:?}'s known next events differ from what its log told it; its recent log:\n{}",
        k.recent()
    );
}

/// Plays random games, checking states at random points (and every state with a pending choice
/// or Planning modifiers, which are rarer).
fn run(kind: Kind, seeds: std::ops::Range<u64>, rate: f64, stats: &mut Stats) {
    for seed in seeds {
        let Some(mut g) = new_game(kind, seed) else { continue };
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x51DE_5EED ^ kind as u64);
        let mut n = 0usize;
        let mut knowledge = Viewer::ALL.map(Knowledge::new);
        for (k, viewer) in knowledge.iter_mut().zip(Viewer::ALL) {
            for e in g.round_log() {
                k.update(&e.project(viewer), &format!("{kind:?} seed {seed} setup"));
            }
        }
        loop {
            let interesting = {
                let v = g.view(Viewer::Spectator);
                v.pending.is_some()
                    || (v.phase == PhaseName::Planning && (v.rebel.modifiers.any() || v.imperial.modifiers.any()))
            };
            if g.is_over() || interesting || rng.random_bool(rate) {
                let ctx = format!("{kind:?} seed {seed} after {n} actions");
                classify(&g, stats);
                for (i, viewer) in Viewer::ALL.into_iter().enumerate() {
                    let scramble_seed = seed.wrapping_mul(31).wrapping_add(n as u64 * 3 + i as u64);
                    check_scramble(&g, viewer, scramble_seed, stats, &ctx);
                    check_direct(&g, viewer, &ctx);
                    check_knowledge(&g, viewer, &knowledge[i], &ctx);
                    if let Some(seat) = viewer.seat() {
                        check_acting_in_both(&g, seat, scramble_seed ^ 0xFF, &mut rng, stats, &ctx);
                    }
                }
                stats.states += 1;
            }
            if g.is_over() {
                break;
            }
            let seat = pick_seat(&g, &mut rng);
            let legal = g.legal_actions(seat);
            let events = g.apply(seat, legal[rng.random_range(0..legal.len())]).unwrap();
            n += 1;
            let ctx = format!("{kind:?} seed {seed} action {n}");
            for (k, viewer) in knowledge.iter_mut().zip(Viewer::ALL) {
                for e in &events {
                    k.update(&e.project(viewer), &ctx);
                }
            }
            // The round log holds this round's events: those just returned end it (or, when the
            // action started a new round, it is the end of them).
            let log = g.round_log();
            let tail = &log[log.len().saturating_sub(events.len())..];
            let head = &events[events.len().saturating_sub(log.len())..];
            assert!(
                tail == &events[..] || head == log,
                "{ctx}: round log and returned events disagree"
            );
        }
    }
}

fn report(name: &str, s: &Stats) {
    eprintln!(
        "{name}: {} states, {} viewer checks ({} scrambles changed hidden state, {} changed another \
         viewer's view), {} actions compared in both worlds, {} revealed differences, {} probes",
        s.states, s.checks, s.scrambled_hidden, s.others_view_changed, s.compared_after_action, s.revealed, s.probes
    );
    for (k, v) in &s.situations {
        eprintln!("  {v:>6}  {k}");
    }
}

/// The suite runs in release; an unoptimized `cargo test` plays this many times fewer games.
const SCALE: u64 = if cfg!(debug_assertions) { 4 } else { 1 };

#[test]
fn views_and_logs_do_not_depend_on_hidden_information() {
    let mut stats = Stats::default();
    run(Kind::Full, 0..500 / SCALE, 0.08, &mut stats);
    run(Kind::Tutorial, 0..150 / SCALE, 0.3, &mut stats);
    run(Kind::Setup, 0..600 / SCALE, 0.08, &mut stats);
    let at_least = |n: usize| n / SCALE as usize;
    report("non-interference", &stats);

    // The test is not vacuous: the scramble changes hidden state, and other viewers notice.
    assert!(stats.checks > at_least(20_000), "{}", stats.checks);
    assert!(
        stats.scrambled_hidden * 10 > stats.checks * 9,
        "the scramble rarely changes anything"
    );
    assert!(
        stats.others_view_changed > at_least(1000),
        "scrambling for one seat never shows in the other's view"
    );
    assert!(
        stats.compared_after_action > at_least(10_000),
        "{}",
        stats.compared_after_action
    );
    assert!(stats.revealed > at_least(1000));
    assert!(stats.probes > at_least(10_000));
    let required = [
        "character choice, one chosen",
        "planning, infiltrated",
        "planning, both infiltrated",
        "planning, diversion",
        "planning, located",
        "planning, located strategy revealed",
        "a deck top known to everyone",
        "a reserve character known to everyone",
        "known next events",
        "the opponent's deck top known privately",
        "tutorial",
        "pending DiscardOpponentCard in Struggle",
        "pending DiscardOwnCard in Struggle",
        "pending ExhaustAnyCard in Struggle",
        "pending ExhaustOpponentCards in Struggle",
        "pending DiscardOwnCardsThenPlay in Struggle",
        "pending DiscardOwnAndOrOpponentCard in Struggle",
        "pending PlaceReserveCharacter in Struggle",
        "pending TakeFromDiscardPile in Struggle",
        "pending PutDiscardOnDeck in Struggle",
        "pending DiscardExhaustedCard in Struggle",
        "pending BobaFettDiscard in Struggle",
        "pending BobaFettExhaust in Struggle",
        "pending ChooseDeck in Struggle",
        "pending ReconDiscard in Struggle",
        "pending Ig88Pick in Struggle",
        "pending SearchDeckForCard in Struggle",
        "pending JabbaDiscard in Struggle",
        "pending JabbaPlay in Struggle",
        "pending NewStrategy in Struggle",
        "pending AddReserveCharacter in Dominance",
        "pending DisplayOfPower in Dominance",
        "pending CharacterToReserve in Dominance",
        "pending ReorderEvents in Dominance",
    ];
    for r in required {
        assert!(stats.situations.contains_key(r), "no state checked with {r}");
    }
}

/// Cards seen privately are kept by the scramble exactly as far as the viewer saw them, and no
/// further: the viewer's own deck order is not its owner's knowledge (face down, R-1.6).
#[test]
fn the_scramble_keeps_exactly_what_the_viewer_knows() {
    let mut own_deck_reordered = 0;
    let mut opponent_reserve_changed = 0;
    for seed in 0..300u64 {
        let mut g = Game::new(Mode::Full, seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..rng.random_range(2..60) {
            if g.is_over() {
                break;
            }
            let seat = pick_seat(&g, &mut rng);
            let legal = g.legal_actions(seat);
            g.apply(seat, legal[rng.random_range(0..legal.len())]).unwrap();
        }
        if g.is_over() || g.view(Viewer::Spectator).phase == PhaseName::CharacterChoice {
            continue;
        }
        for f in Faction::BOTH {
            let mut s = g.clone();
            s.scramble_hidden_for(Viewer::Seat(f), seed + 1);
            // Own cards: the same deck contents and reserve; the order may change.
            let mut a = g.testing_deck(f);
            let mut b = s.testing_deck(f);
            if a != b {
                own_deck_reordered += 1;
            }
            a.sort();
            b.sort();
            assert_eq!(a, b, "seed {seed}: own deck contents");
            assert_eq!(g.testing_reserve(f), s.testing_reserve(f), "seed {seed}: own reserve");
            assert_eq!(
                g.testing_chosen_strategy(f),
                s.testing_chosen_strategy(f),
                "seed {seed}"
            );
            // Public zones of the opponent are kept; their reserve may trade characters with their
            // deck, but its size is public.
            let o = f.opponent();
            assert_eq!(g.testing_discard(o), s.testing_discard(o), "seed {seed}");
            assert_eq!(g.testing_deck(o).len(), s.testing_deck(o).len(), "seed {seed}");
            assert_eq!(g.testing_reserve(o).len(), s.testing_reserve(o).len(), "seed {seed}");
            if g.testing_reserve(o) != s.testing_reserve(o) {
                opponent_reserve_changed += 1;
            }
        }
    }
    assert!(own_deck_reordered > 200, "{own_deck_reordered}");
    assert!(opponent_reserve_changed > 200, "{opponent_reserve_changed}");
}
