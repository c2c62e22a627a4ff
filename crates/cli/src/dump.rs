//! The scenario author's **omniscient** dump of a game: every hidden zone (deck order, reserve,
//! chosen strategies, the event deck order) next to the public state. It is a debugging tool for
//! scripted games; nothing like it may ever reach a player (the server sends `View`s only).

use serde::Serialize;

use evr_rules::view::{CardInPlay, EventView, PendingView};
use evr_rules::{
    Card, CardMask, EventCard, Faction, Game, Mode, Modifiers, Outcome, PhaseName, RoundResult, Strategy, View, Viewer,
};

/// Everything about a game, known to nobody in a real match.
#[derive(Clone, Debug, Serialize)]
pub struct StateDump {
    /// A reminder for whoever reads the output.
    pub omniscient: &'static str,
    pub mode: Mode,
    pub phase: PhaseName,
    pub round: u32,
    pub event: Option<EventView>,
    /// The event deck, top first (hidden from everyone in a match).
    pub event_deck: Vec<EventCard>,
    pub balance: Option<Faction>,
    /// Whose turn it is (struggle only).
    pub turn: Option<Faction>,
    pub last_action_was_pass: bool,
    pub struggle_actions: u32,
    /// The pending choice with every option, as its owner sees it.
    pub pending: Option<PendingView>,
    pub rebel: SideDump,
    pub imperial: SideDump,
    /// Every round whose Dominance phase has started.
    pub rounds: Vec<RoundResult>,
    /// The last round whose winner has been determined.
    pub last_round: Option<RoundResult>,
    pub outcome: Option<Outcome>,
}

/// One player's zones, hidden ones included.
#[derive(Clone, Debug, Serialize)]
pub struct SideDump {
    pub influence: u32,
    pub vp: u32,
    pub won_events: Vec<EventCard>,
    pub play_area: Vec<CardInPlay>,
    /// The current total.
    pub total: u32,
    pub capacity_left: u32,
    /// The deck, top first.
    pub deck: Vec<Card>,
    pub deck_size: u32,
    /// The discard pile, oldest first (the last card is on top).
    pub discard: Vec<Card>,
    pub reserve: CardMask,
    /// The characters chosen at R-2.4 (`null` before the choice and in the tutorial).
    pub characters: Option<CardMask>,
    pub unused_strategies: Vec<Strategy>,
    pub used_strategies: Vec<Strategy>,
    /// This round's chosen strategy, revealed or not.
    pub chosen_strategy: Option<Strategy>,
    /// Modifiers in force this round.
    pub modifiers: Modifiers,
    /// Modifiers already set for the next round.
    pub next_modifiers: Modifiers,
}

/// The omniscient dump of `game`: the `testing` accessors for hidden zones, each seat's own view
/// for what only its owner knows, the spectator view for the public rest.
pub fn state(game: &Game) -> StateDump {
    let public = game.view(Viewer::Spectator);
    let own = |f: Faction| game.view(Viewer::Seat(f));
    let pending = Faction::BOTH
        .into_iter()
        .filter_map(|f| own(f).pending)
        .find(|p| p.options.is_some());
    let last_round = public.rounds.iter().rev().find(|r| r.reason.is_some()).copied();
    StateDump {
        omniscient: "the scenario author's complete state: hidden zones included, never sent to players",
        mode: public.mode,
        phase: public.phase,
        round: public.round,
        event: public.event,
        event_deck: game.testing_event_deck(),
        balance: public.balance,
        turn: public.turn,
        last_action_was_pass: public.last_action_was_pass,
        struggle_actions: public.struggle_actions,
        pending,
        rebel: side(game, Faction::Rebel, &public, &own(Faction::Rebel)),
        imperial: side(game, Faction::Imperial, &public, &own(Faction::Imperial)),
        rounds: public.rounds.clone(),
        last_round,
        outcome: public.outcome,
    }
}

fn side(game: &Game, f: Faction, public: &View, own: &View) -> SideDump {
    let pick = |v: &View| match f {
        Faction::Rebel => v.rebel.clone(),
        Faction::Imperial => v.imperial.clone(),
    };
    let p = pick(public);
    let mine = pick(own);
    let deck = game.testing_deck(f);
    SideDump {
        influence: p.influence,
        vp: p.vp,
        won_events: p.won_events,
        play_area: p.play_area,
        total: p.total,
        capacity_left: p.capacity_left,
        deck_size: deck.len() as u32,
        deck,
        discard: game.testing_discard(f),
        reserve: game.testing_reserve(f),
        characters: mine.characters,
        unused_strategies: mine.unused_strategies.unwrap_or_default(),
        used_strategies: p.used_strategies,
        chosen_strategy: game.testing_chosen_strategy(f),
        modifiers: p.modifiers,
        next_modifiers: p.next_modifiers,
    }
}
