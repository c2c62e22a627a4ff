//! Which actions are legal (`legal_actions`) and why an action is refused (`validate`). The two
//! agree: the property tests check that every listed action is accepted and others are refused.

use super::{Game, Phase};
use crate::action::{Action, Choice};
use crate::cards::CardMask;
use crate::catalog::{CHARACTERS_PER_FACTION, Card};
use crate::error::RuleError;
use crate::faction::Faction;

/// how many characters go into the deck.
pub const CHARACTERS_CHOSEN: usize = 4;

impl Game {
    /// Every action `seat` may take now, in a stable order. Empty when it is not `seat`'s move.
    pub fn legal_actions(&self, seat: Faction) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(seat, &mut out);
        out
    }

    /// [`Game::legal_actions`] into a reused buffer.
    pub fn legal_actions_into(&self, seat: Faction, out: &mut Vec<Action>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        if let Some(p) = &self.pending {
            if p.owner == seat {
                let mut options = Vec::new();
                self.options_into(p, &mut options);
                out.extend(options.into_iter().map(|choice| Action::Answer { choice }));
            }
            return;
        }
        let me = self.p(seat);
        match self.phase {
            Phase::CharacterChoice => {
                if me.characters.is_none() {
                    let chars: Vec<Card> = Card::characters_of(seat).collect();
                    for bits in 0u32..(1 << CHARACTERS_PER_FACTION) {
                        if bits.count_ones() as usize == CHARACTERS_CHOSEN {
                            let characters = CardMask::of(
                                chars
                                    .iter()
                                    .enumerate()
                                    .filter(|(i, _)| bits & (1 << i) != 0)
                                    .map(|(_, c)| *c),
                            );
                            out.push(Action::ChooseCharacters { characters });
                        }
                    }
                }
            }
            Phase::Planning => {
                let open = self.open_strategy_targets();
                for target in Faction::BOTH {
                    if open[target] && self.strategy_chooser(target) == Some(seat) {
                        for strategy in self.p(target).unused.iter() {
                            out.push(Action::ChooseStrategy { target, strategy });
                        }
                    }
                }
            }
            Phase::Struggle => {
                if self.turn != seat {
                    return;
                }
                let can_play = self.has_room(seat) && !(me.deck.is_empty() && me.discard.is_empty());
                if can_play {
                    out.push(Action::PlayCard);
                }
                if me.play.is_empty() {
                    // must play; with nothing to play, must pass.
                    if !can_play {
                        out.push(Action::Pass);
                    }
                    return;
                }
                for c in &me.play {
                    if c.ready {
                        out.push(Action::UsePower { card: c.card });
                    }
                }
                if me.influence > 0 {
                    for c in &me.play {
                        if !c.ready {
                            out.push(Action::SpendInfluence { card: c.card });
                        }
                    }
                }
                out.push(Action::Pass);
            }
            Phase::Dominance | Phase::GameOver => {}
        }
    }

    /// Why `seat` may not take `action` now, or `Ok` if it may.
    pub(crate) fn validate(&self, seat: Faction, action: Action) -> Result<(), RuleError> {
        if self.outcome.is_some() {
            return Err(RuleError::GameOver);
        }
        if let Action::Answer { choice } = action {
            return self.validate_answer(seat, choice);
        }
        if self.pending.is_some() {
            return Err(RuleError::ChoicePending);
        }
        let me = self.p(seat);
        match action {
            Action::ChooseCharacters { characters } => {
                if self.phase != Phase::CharacterChoice {
                    return Err(RuleError::WrongPhase);
                }
                if me.characters.is_some() {
                    return Err(RuleError::AlreadyChosen);
                }
                if characters.iter().any(|c| !c.is_character() || !c.belongs_to(seat)) {
                    return Err(RuleError::UnknownCard);
                }
                if characters.len() != CHARACTERS_CHOSEN {
                    return Err(RuleError::InvalidCharacterChoice);
                }
                Ok(())
            }
            Action::ChooseStrategy { target, strategy } => {
                if self.phase != Phase::Planning {
                    return Err(RuleError::WrongPhase);
                }
                let t = self.p(target);
                if t.chosen.is_some() {
                    return Err(RuleError::AlreadyChosen);
                }
                if self.strategy_chooser(target) != Some(seat) {
                    return Err(RuleError::NotYourChoice);
                }
                if !self.open_strategy_targets()[target] {
                    return Err(RuleError::WaitForLocatedStrategy);
                }
                if !t.unused.contains(strategy) {
                    return Err(RuleError::StrategyNotAvailable);
                }
                Ok(())
            }
            Action::PlayCard | Action::UsePower { .. } | Action::SpendInfluence { .. } | Action::Pass => {
                if self.phase != Phase::Struggle {
                    return Err(RuleError::WrongPhase);
                }
                if self.turn != seat {
                    return Err(RuleError::NotYourTurn);
                }
                let can_play = self.has_room(seat) && !(me.deck.is_empty() && me.discard.is_empty());
                match action {
                    Action::PlayCard if !self.has_room(seat) => Err(RuleError::CapacityFull),
                    Action::PlayCard if !can_play => Err(RuleError::DeckEmpty),
                    Action::PlayCard => Ok(()),
                    Action::Pass if me.play.is_empty() && can_play => Err(RuleError::MustPlayCard),
                    Action::Pass => Ok(()),
                    Action::UsePower { card } | Action::SpendInfluence { card } => {
                        if !card.belongs_to(seat) {
                            return Err(RuleError::UnknownCard);
                        }
                        let Some(i) = me.play_index(card) else {
                            return Err(if me.play.is_empty() && can_play {
                                RuleError::MustPlayCard
                            } else {
                                RuleError::CardNotInPlayArea
                            });
                        };
                        let ready = me.play[i].ready;
                        match action {
                            Action::UsePower { .. } if !ready => Err(RuleError::CardNotReady),
                            Action::SpendInfluence { .. } if ready => Err(RuleError::CardNotExhausted),
                            Action::SpendInfluence { .. } if me.influence == 0 => Err(RuleError::NoInfluence),
                            _ => Ok(()),
                        }
                    }
                    _ => Ok(()),
                }
            }
            Action::Answer { .. } => Ok(()),
        }
    }

    fn validate_answer(&self, seat: Faction, choice: Choice) -> Result<(), RuleError> {
        let Some(p) = &self.pending else {
            return Err(RuleError::NoPendingChoice);
        };
        if p.owner != seat {
            return Err(RuleError::NotYourChoice);
        }
        let mut options = Vec::new();
        self.options_into(p, &mut options);
        if options.contains(&choice) {
            Ok(())
        } else {
            Err(RuleError::ChoiceNotOffered)
        }
    }
}
