//! What one viewer may know, as plain serializable data. These types are the only game data
//! that may leave the server; each field is public information or the viewer's own knowledge.

use serde::{Deserialize, Serialize};

use crate::action::{Action, Choice};
use crate::by_faction::ByFaction;
use crate::cards::{CardMask, CardRef};
use crate::catalog::{Card, EventCard, EventEffect};
use crate::faction::{Faction, Viewer};
use crate::game::{ChoiceSource, Game, PendingStep, Phase};
use crate::log::LogEntry;
use crate::strategy::Strategy;

/// Full game or the rulebook's tutorial.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    #[default]
    Full,
    Tutorial,
}

/// Planning modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Modifiers {
    /// The opponent chooses this player's strategy.
    pub infiltrated: bool,
    /// This player's strategy is drawn at random.
    pub diversion: bool,
    /// This player's strategy is chosen first and revealed.
    pub located: bool,
}

/// Why the would-be winner won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum WinReason {
    HigherTotal,
    TieBalanceToken,
    OpponentBust,
    Deception,
    BothBust,
}

/// The Dominance phase of one round: all public once strategies are revealed.
/// Per-faction arrays are `[rebel, imperial]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RoundResult {
    pub round: u32,
    pub event: EventCard,
    pub objective: u32,
    pub strategies: ByFaction<Option<Strategy>>,
    pub totals_at_reveal: ByFaction<u32>,
    /// total not above the objective at the reveal; only eligible strategies resolve.
    pub eligible: ByFaction<bool>,
    pub direct_assault: ByFaction<bool>,
    /// Totals after.
    pub totals: ByFaction<u32>,
    pub bust: ByFaction<bool>,
    pub would_be_winner: Option<Faction>,
    /// Deception swapped the would-be winner and loser.
    pub deception: bool,
    pub winner: Option<Faction>,
    /// `None` until victory is determined.
    pub reason: Option<WinReason>,
    /// VP at the end of the round.
    pub vp_after: ByFaction<u32>,
}

/// How the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum OutcomeReason {
    ///
    VictoryPoints,
    ///
    Tutorial,
    ///
    RoundLimit,
    /// Defensive: the event deck ran out (unreachable with the real events; see the README).
    EventDeckEmpty,
}

/// The end of the game. `winner: None` is a draw (or nobody won the tutorial's struggle).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Outcome {
    pub winner: Option<Faction>,
    pub reason: OutcomeReason,
    pub vp: ByFaction<u32>,
}

/// The phase, as shown to clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum PhaseName {
    CharacterChoice,
    Planning,
    Struggle,
    Dominance,
    GameOver,
}

/// An event card's printed data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EventView {
    pub event: EventCard,
    pub capacity: u32,
    pub objective: u32,
    pub vp: u32,
    pub influence: u32,
    pub effect: EventEffect,
}

/// A card in a play area (public).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CardInPlay {
    pub card: Card,
    pub ready: bool,
    /// Current value.
    pub value: u32,
}

/// A strategy slot as the viewer knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "state", content = "strategy", rename_all = "snake_case")]
pub enum StrategySlot {
    /// Nothing chosen (yet) this round.
    None,
    /// Chosen, face down, unknown to the viewer.
    Hidden,
    /// Chosen and known to the viewer.
    Known(Strategy),
}

/// One player as the viewer knows them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PlayerView {
    pub faction: Faction,
    pub influence: u32,
    pub vp: u32,
    pub won_events: Vec<EventCard>,
    pub play_area: Vec<CardInPlay>,
    pub total: u32,
    /// Cards that still fit in the play area this round.
    pub capacity_left: u32,
    pub deck_size: u32,
    /// The card on top of the deck, if the viewer knows it.
    pub deck_top: Option<Card>,
    /// The deck's contents in card order (never its order): only its owner sees them.
    pub deck_contents: Option<CardMask>,
    /// The deck in order, top first: only [`Viewer::Omniscient`] (a revealed replay) sees it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub deck_order: Option<Vec<Card>>,
    /// Oldest first; the last card is on top.
    pub discard_pile: Vec<Card>,
    pub reserve_size: u32,
    /// All of it for its owner; for others, the characters everyone saw go there.
    pub reserve_known: CardMask,
    /// Whether the character choice has been made.
    pub characters_chosen: bool,
    /// The chosen characters: their owner only.
    pub characters: Option<CardMask>,
    /// Unused strategies, when the viewer knows them.
    pub unused_strategies: Option<Vec<Strategy>>,
    pub unused_strategy_count: u32,
    pub used_strategies: Vec<Strategy>,
    pub strategy: StrategySlot,
    /// Modifiers in force this round.
    pub modifiers: Modifiers,
    /// Modifiers already set for next round.
    pub next_modifiers: Modifiers,
}

/// A pending choice. Options and privately seen cards only for its owner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PendingView {
    pub owner: Faction,
    pub source: ChoiceSource,
    pub step: PendingStep,
    /// Every allowed answer (owner only).
    pub options: Option<Vec<Choice>>,
    /// Cards the owner privately sees for this choice, top first where order matters (owner only).
    pub seen_cards: Option<Vec<CardRef>>,
    /// Events the owner privately sees, top first (owner only).
    pub seen_events: Option<Vec<EventCard>>,
}

/// Who still has to choose which strategy (Planning).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PlanningView {
    /// Per target `[rebel, imperial]`: who chooses it (`None`: drawn at random).
    pub chooser: ByFaction<Option<Faction>>,
    /// Per target: whose choice may be made now (a located player's first).
    pub open: ByFaction<bool>,
}

/// Everything one viewer may know about the game now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct View {
    pub viewer: Viewer,
    pub mode: Mode,
    pub phase: PhaseName,
    pub round: u32,
    pub event: Option<EventView>,
    pub event_deck_size: u32,
    /// The top events of the event deck the viewer knows, top first.
    pub known_next_events: Vec<EventCard>,
    pub balance: Option<Faction>,
    /// Whose turn it is (struggle only).
    pub turn: Option<Faction>,
    /// The previous struggle action was a pass: another pass ends the struggle.
    pub last_action_was_pass: bool,
    pub struggle_actions: u32,
    pub rebel: PlayerView,
    pub imperial: PlayerView,
    pub planning: Option<PlanningView>,
    pub pending: Option<PendingView>,
    /// Finished rounds, and this round once its strategies are revealed.
    pub rounds: Vec<RoundResult>,
    pub outcome: Option<Outcome>,
    /// What the viewer may do now (empty for spectators).
    pub legal_actions: Vec<Action>,
    /// This round's log as the viewer may know it (empty in a live `update`, whose `events` extend
    /// the log a client already holds).
    pub log: Vec<LogEntry>,
}

impl View {
    /// Faction `f` as the viewer knows it.
    pub fn player(&self, f: Faction) -> &PlayerView {
        match f {
            Faction::Rebel => &self.rebel,
            Faction::Imperial => &self.imperial,
        }
    }
}

impl Game {
    /// The view of `viewer`.
    pub fn view(&self, viewer: Viewer) -> View {
        self.view_with_log(viewer, true)
    }

    /// The view of `viewer` without this round's log (`log` empty): for a client that already
    /// holds the log and extends it with each update's events, it is the same view in fewer bytes.
    pub fn view_without_log(&self, viewer: Viewer) -> View {
        self.view_with_log(viewer, false)
    }

    fn view_with_log(&self, viewer: Viewer, with_log: bool) -> View {
        let phase = match self.phase {
            Phase::CharacterChoice => PhaseName::CharacterChoice,
            Phase::Planning => PhaseName::Planning,
            Phase::Struggle => PhaseName::Struggle,
            Phase::Dominance => PhaseName::Dominance,
            Phase::GameOver => PhaseName::GameOver,
        };
        let known_events = match viewer {
            Viewer::Seat(s) => self.events_known[s],
            Viewer::Spectator => 0,
            Viewer::Omniscient => self.event_deck.len(),
        };
        View {
            viewer,
            mode: self.mode,
            phase,
            round: self.round,
            event: self.event.map(|event| {
                let e = self.cat.event(event);
                EventView {
                    event,
                    capacity: e.capacity,
                    objective: e.objective,
                    vp: e.vp,
                    influence: e.influence,
                    effect: e.effect,
                }
            }),
            event_deck_size: self.event_deck.len() as u32,
            known_next_events: self.event_deck.iter().rev().take(known_events).copied().collect(),
            balance: self.balance,
            turn: (self.phase == Phase::Struggle).then_some(self.turn),
            last_action_was_pass: self.phase == Phase::Struggle && self.last_was_pass,
            struggle_actions: self.struggle_actions,
            rebel: self.player_view(Faction::Rebel, viewer),
            imperial: self.player_view(Faction::Imperial, viewer),
            planning: (self.phase == Phase::Planning).then(|| PlanningView {
                chooser: ByFaction::from_fn(|t| self.strategy_chooser(t)),
                open: self.open_strategy_targets(),
            }),
            pending: self.pending_view(viewer),
            rounds: self.results.clone(),
            outcome: self.outcome,
            legal_actions: viewer.seat().map(|s| self.legal_actions(s)).unwrap_or_default(),
            log: if with_log {
                self.round_log.iter().map(|e| e.project(viewer)).collect()
            } else {
                Vec::new()
            },
        }
    }

    fn player_view(&self, f: Faction, viewer: Viewer) -> PlayerView {
        let p = self.p(f);
        let own = viewer.sees_secrets_of(f);
        let strategy_known = p.chosen_known.contains(viewer);
        let strategy = match p.chosen {
            None => StrategySlot::None,
            Some(s) if strategy_known => StrategySlot::Known(s),
            Some(_) => StrategySlot::Hidden,
        };
        let unused_known = own || p.chosen.is_none() || strategy_known;
        PlayerView {
            faction: f,
            influence: p.influence,
            vp: self.vp(f),
            won_events: p.won.clone(),
            play_area: p
                .play
                .iter()
                .map(|c| CardInPlay {
                    card: c.card,
                    ready: c.ready,
                    value: self.value(*c),
                })
                .collect(),
            total: self.total(f),
            capacity_left: self.capacity().saturating_sub(p.play.len()) as u32,
            deck_size: p.deck.len() as u32,
            deck_top: if p.top_known.contains(viewer) {
                p.deck.last().copied()
            } else {
                None
            },
            deck_contents: own.then(|| self.deck_mask(f)),
            deck_order: (viewer == Viewer::Omniscient).then(|| p.deck.iter().rev().copied().collect()),
            discard_pile: p.discard.clone(),
            reserve_size: p.reserve.len() as u32,
            reserve_known: if own {
                p.reserve
            } else {
                p.reserve_public.intersect(p.reserve)
            },
            characters_chosen: p.characters.is_some(),
            characters: if own { p.characters } else { None },
            unused_strategies: unused_known.then(|| p.unused.iter().collect()),
            unused_strategy_count: p.unused.len() as u32,
            used_strategies: p.used.iter().collect(),
            strategy,
            modifiers: p.modifiers,
            next_modifiers: p.next_modifiers,
        }
    }
}

impl Game {
    fn pending_view(&self, viewer: Viewer) -> Option<PendingView> {
        let p = self.pending.as_ref()?;
        let own = viewer.sees_secrets_of(p.owner);
        let me = p.owner;
        let (seen_cards, seen_events) = if own {
            let refs = |f: Faction, cards: &mut dyn Iterator<Item = Card>| -> Option<Vec<CardRef>> {
                Some(cards.map(|c| CardRef::new(f, c)).collect())
            };
            match p.step {
                PendingStep::ReconDiscard { deck, seen } => {
                    (refs(deck, &mut self.top_cards(deck, seen as usize)), None)
                }
                PendingStep::Ig88Pick { deck } => (refs(deck, &mut self.deck_mask(deck).iter()), None),
                PendingStep::SearchDeckForCard => (refs(me, &mut self.deck_mask(me).iter()), None),
                PendingStep::JabbaDiscard { saw_top: true } | PendingStep::JabbaPlay => {
                    (refs(me, &mut self.top_cards(me, 1)), None)
                }
                PendingStep::ReorderEvents { count } => (
                    None,
                    Some(self.event_deck.iter().rev().take(count as usize).copied().collect()),
                ),
                _ => (None, None),
            }
        } else {
            (None, None)
        };
        let options = own.then(|| {
            let mut out = Vec::new();
            self.options_into(p, &mut out);
            out
        });
        Some(PendingView {
            owner: p.owner,
            source: p.source,
            step: p.step,
            options,
            seen_cards,
            seen_events,
        })
    }
}
