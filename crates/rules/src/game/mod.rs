//! The complete game state and its public API. `Game` is deliberately not `Serialize`: what a
//! client may see is built by [`Game::view`] from allow-list view types.

mod check;
mod determinize;
mod flow;
mod pending;
mod powers;
mod setup;
#[cfg(any(test, evr_testkit))]
mod testing;

use rand::seq::SliceRandom;

use crate::action::Action;
use crate::by_faction::ByFaction;
use crate::cards::{CardMask, CardRef};
use crate::catalog::{Card, Catalog, EventCard, Power};
use crate::error::RuleError;
use crate::faction::{Audience, Faction};
use crate::log::{Event, LogEntry, Zone};
use crate::seed::GameSeed;
use crate::strategy::{Strategy, StrategySet};
use crate::view::{Mode, Modifiers, Outcome, RoundResult};

pub(crate) use pending::Pending;
pub use pending::{ChoiceSource, Step as PendingStep};
pub use setup::{Setup, SetupError, SideSetup, Start};

/// a struggle that reaches this many actions ends as if both players passed.
pub const STRUGGLE_ACTION_LIMIT: u32 = 400;
/// the game ends after this many rounds without a winner.
pub const ROUND_LIMIT: u32 = 100;
/// victory points that win the game.
pub const VP_TO_WIN: u32 = 7;

/// A resource card in a play area.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct InPlay {
    pub card: Card,
    pub ready: bool,
}

/// One player's zones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Player {
    /// Resource deck; the top card is the last element.
    pub deck: Vec<Card>,
    /// Play area, in the order the cards entered it.
    pub play: Vec<InPlay>,
    /// Discard pile; the most recent card is the last element.
    pub discard: Vec<Card>,
    pub reserve: CardMask,
    /// Reserve members everyone saw go there and that are certainly still there.
    pub reserve_public: CardMask,
    /// The secret character choice; `None` until made.
    pub characters: Option<CardMask>,
    pub influence: u32,
    pub won: Vec<EventCard>,
    pub unused: StrategySet,
    pub used: StrategySet,
    /// This round's chosen strategy.
    pub chosen: Option<Strategy>,
    /// Who knows `chosen` (its owner always, R-7.6).
    pub chosen_known: Audience,
    /// Modifiers in force for this round's Planning.
    pub modifiers: Modifiers,
    /// Modifiers set this round for the next one.
    pub next_modifiers: Modifiers,
    /// Who knows which card is on top of the deck; cleared whenever the top changes.
    pub top_known: Audience,
}

impl Player {
    fn new(faction: Faction) -> Player {
        Player {
            deck: Vec::with_capacity(24),
            play: Vec::with_capacity(6),
            discard: Vec::with_capacity(24),
            reserve: CardMask::EMPTY,
            reserve_public: CardMask::EMPTY,
            characters: None,
            influence: 0,
            won: Vec::new(),
            unused: StrategySet::ALL,
            used: StrategySet::EMPTY,
            chosen: None,
            chosen_known: Audience::seat(faction),
            modifiers: Modifiers::default(),
            next_modifiers: Modifiers::default(),
            top_known: Audience::NOBODY,
        }
    }

    pub fn play_index(&self, card: Card) -> Option<usize> {
        self.play.iter().position(|c| c.card == card)
    }
}

/// The phase of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    CharacterChoice,
    Planning,
    Struggle,
    Dominance,
    GameOver,
}

/// Where the Dominance phase resumes after a pending choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DominanceStep {
    /// Support of the n-th faction in turn order.
    Support(u8),
    ///
    Victory,
    /// The event's effect.
    Effect,
    Cleanup,
}

/// A match of Empire vs. Rebellion: the complete state, known to nobody.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) cat: &'static Catalog,
    pub(crate) rng: crate::rng::GameRng,
    pub(crate) mode: Mode,
    pub(crate) phase: Phase,
    pub(crate) round: u32,
    pub(crate) players: ByFaction<Player>,
    /// Event deck; the top event is the last element.
    pub(crate) event_deck: Vec<EventCard>,
    /// Per seat: how many events from the top of the event deck it knows.
    pub(crate) events_known: ByFaction<usize>,
    pub(crate) event: Option<EventCard>,
    pub(crate) balance: Option<Faction>,
    pub(crate) turn: Faction,
    /// The previous struggle action was a pass.
    pub(crate) last_was_pass: bool,
    pub(crate) struggle_actions: u32,
    pub(crate) pending: Option<Pending>,
    pub(crate) choosers: ByFaction<crate::log::Chooser>,
    pub(crate) dominance_step: DominanceStep,
    /// Results of finished rounds, and of the current round from its Dominance phase on.
    pub(crate) results: Vec<RoundResult>,
    pub(crate) outcome: Option<Outcome>,
    /// Everything that happened this round (what each side has publicly done).
    pub(crate) round_log: Vec<Event>,
    /// Events of the last action applied (kept, with its capacity, for the next one).
    pub(crate) out: Vec<Event>,
}

impl Game {
    /// A new game from a seed: every shuffle and random draw comes from it.
    pub fn new(mode: Mode, seed: u64) -> Result<Game, SetupError> {
        Game::from_setup(&Setup {
            mode,
            seed,
            ..Setup::default()
        })
    }

    /// A new game whose every shuffle and random draw comes from `seed`.
    pub fn with_seed(mode: Mode, seed: GameSeed) -> Result<Game, SetupError> {
        Game::from_setup_seeded(
            &Setup {
                mode,
                ..Setup::default()
            },
            seed,
        )
    }

    /// Applies `seat`'s action. On error the game is unchanged.
    pub fn apply(&mut self, seat: Faction, action: Action) -> Result<Vec<Event>, RuleError> {
        self.apply_in_place(seat, action)?;
        Ok(self.out.clone())
    }

    /// [`Game::apply`] that lends its events instead of copying them. The computer's playouts
    /// apply millions of actions and read few of their events: this way they allocate nothing
    /// for them (the buffer is the game's, kept from one action to the next). The game is left
    /// exactly as `apply` leaves it.
    pub fn apply_borrowed(&mut self, seat: Faction, action: Action) -> Result<&[Event], RuleError> {
        self.apply_in_place(seat, action)?;
        Ok(&self.out)
    }

    fn apply_in_place(&mut self, seat: Faction, action: Action) -> Result<(), RuleError> {
        self.validate(seat, action)?;
        self.out.clear();
        match action {
            Action::ChooseCharacters { characters } => self.choose_characters(seat, characters),
            Action::ChooseStrategy { target, strategy } => self.choose_strategy(seat, target, strategy),
            Action::PlayCard => {
                self.draw_to_play(seat);
                self.finish_action(false);
            }
            Action::UsePower { card } => self.use_power(seat, card),
            Action::SpendInfluence { card } => self.spend_influence(seat, card),
            Action::Pass => {
                self.emit(LogEntry::Passed { faction: seat });
                self.finish_action(true);
            }
            Action::Answer { choice } => {
                if let Some(p) = self.pending.take() {
                    self.resolve(p, Some(choice));
                    if self.pending.is_none() {
                        self.after_choice();
                    }
                }
            }
        }
        Ok(())
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    pub fn round(&self) -> u32 {
        self.round
    }

    /// What happened so far this round, for projection per viewer.
    pub fn round_log(&self) -> &[Event] {
        &self.round_log
    }

    /// The seats that have something to do now (both during simultaneous choices).
    pub fn seats_to_act(&self) -> Vec<Faction> {
        Faction::BOTH
            .into_iter()
            .filter(|f| !self.legal_actions(*f).is_empty())
            .collect()
    }

    /// Victory points of a faction.
    pub fn vp(&self, faction: Faction) -> u32 {
        self.players[faction].won.iter().map(|e| self.cat.event(*e).vp).sum()
    }

    /// A faction's total: the current values of its play area.
    pub fn total(&self, faction: Faction) -> u32 {
        self.players[faction].play.iter().map(|c| self.value(*c)).sum()
    }

    /// Cards of a faction in every zone (deck, play area, discard pile, reserve). Always 24 once
    /// characters are chosen; the property tests use it to check conservation.
    pub fn card_count(&self, faction: Faction) -> usize {
        let p = &self.players[faction];
        p.deck.len() + p.play.len() + p.discard.len() + p.reserve.len()
    }

    // ----- helpers shared by the phases -----

    pub(crate) fn p(&self, f: Faction) -> &Player {
        &self.players[f]
    }

    pub(crate) fn pm(&mut self, f: Faction) -> &mut Player {
        &mut self.players[f]
    }

    pub(crate) fn value(&self, c: InPlay) -> u32 {
        let info = self.cat.card(c.card);
        if c.ready {
            info.ready_value
        } else {
            info.exhausted_value
        }
    }

    pub(crate) fn capacity(&self) -> usize {
        self.event.map_or(0, |e| self.cat.event(e).capacity as usize)
    }

    pub(crate) fn objective(&self) -> u32 {
        self.event.map_or(0, |e| self.cat.event(e).objective)
    }

    pub(crate) fn has_room(&self, f: Faction) -> bool {
        self.p(f).play.len() < self.capacity()
    }

    pub(crate) fn is_banned(&self, power: Power) -> bool {
        self.event.is_some_and(|e| self.cat.event(e).effect.bans(power))
    }

    pub(crate) fn emit(&mut self, entry: LogEntry) {
        self.record(Event::public(entry));
    }

    pub(crate) fn emit_secret(&mut self, audience: Audience, full: LogEntry, redacted: LogEntry) {
        self.record(Event::secret(audience, full, redacted));
    }

    fn record(&mut self, event: Event) {
        self.round_log.push(event);
        self.out.push(event);
    }

    pub(crate) fn shuffle_deck(&mut self, f: Faction) {
        let p = &mut self.players[f];
        p.deck.shuffle(&mut self.rng);
        p.top_known = Audience::NOBODY;
    }

    /// before a deck is drawn from, looked at or searched for `need` cards, a deck holding
    /// fewer gets its owner's shuffled discard pile placed beneath it.
    pub(crate) fn ensure_deck(&mut self, f: Faction, need: usize) {
        let p = &mut self.players[f];
        if p.deck.len() >= need || p.discard.is_empty() {
            return;
        }
        let mut under = std::mem::take(&mut p.discard);
        under.shuffle(&mut self.rng);
        let cards = under.len() as u32;
        under.append(&mut p.deck);
        p.deck = under;
        self.emit(LogEntry::DiscardPileUnderDeck { faction: f, cards });
    }

    /// Takes the top card of `f`'s deck (after ); the top changes, so nobody knows it now.
    pub(crate) fn take_top(&mut self, f: Faction) -> Option<Card> {
        self.ensure_deck(f, 1);
        let p = self.pm(f);
        let card = p.deck.pop()?;
        p.top_known = Audience::NOBODY;
        Some(card)
    }

    /// Play a card: the top card enters the play area, ready.
    pub(crate) fn draw_to_play(&mut self, f: Faction) {
        if let Some(card) = self.take_top(f) {
            self.pm(f).play.push(InPlay { card, ready: true });
            self.emit(LogEntry::CardPlayed { faction: f, card });
        }
    }

    /// Discards a card from a play area to its owner's discard pile — or, for Darth Vader's
    /// characters, to the reserve.
    pub(crate) fn discard_from_play(&mut self, card: CardRef, by: Faction, to_reserve: bool) {
        let p = &mut self.players[card.owner];
        let Some(i) = p.play_index(card.card) else { return };
        p.play.remove(i);
        if to_reserve && card.card.is_character() {
            p.reserve.insert(card.card);
            p.reserve_public.insert(card.card);
            self.emit(LogEntry::CharacterToReserve {
                faction: card.owner,
                card: Some(card.card),
                from: Zone::PlayArea,
                by,
            });
        } else {
            p.discard.push(card.card);
            self.emit(LogEntry::CardDiscarded {
                card,
                from: Zone::PlayArea,
                by,
            });
        }
    }

    pub(crate) fn exhaust(&mut self, card: CardRef, by: Faction) {
        let p = &mut self.players[card.owner];
        if let Some(i) = p.play_index(card.card) {
            p.play[i].ready = false;
            self.emit(LogEntry::CardExhausted { card, by });
        }
    }

    pub(crate) fn gain_influence(&mut self, f: Faction, amount: u32) {
        let p = self.pm(f);
        p.influence += amount;
        let total = p.influence;
        self.emit(LogEntry::InfluenceGained {
            faction: f,
            amount,
            total,
        });
    }

    /// a player who must lose more influence than they have loses all of it.
    pub(crate) fn lose_influence(&mut self, f: Faction, amount: u32) {
        let p = self.pm(f);
        let lost = amount.min(p.influence);
        p.influence -= lost;
        let total = p.influence;
        self.emit(LogEntry::InfluenceLost {
            faction: f,
            amount: lost,
            total,
        });
    }

    /// whenever all five strategies are used, all five return as unused.
    pub(crate) fn retrieve_if_all_used(&mut self, f: Faction) {
        let p = self.pm(f);
        if p.used == StrategySet::ALL {
            p.used = StrategySet::EMPTY;
            p.unused = StrategySet::ALL;
            self.emit(LogEntry::StrategiesRetrieved { faction: f });
        }
    }

    /// A character goes from the reserve into the deck, secretly, and the deck is shuffled
    /// . Nobody but the owner can tell which one left, so the public
    /// knowledge of the reserve is cleared whatever card it was.
    pub(crate) fn reserve_to_deck(&mut self, f: Faction, card: Card) {
        let p = self.pm(f);
        p.reserve.remove(card);
        p.reserve_public = CardMask::EMPTY;
        p.deck.push(card);
        self.shuffle_deck(f);
        self.emit_secret(
            Audience::seat(f),
            LogEntry::ReserveToDeck {
                faction: f,
                card: Some(card),
            },
            LogEntry::ReserveToDeck { faction: f, card: None },
        );
    }
}
