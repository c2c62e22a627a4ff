//! The flow of a game: character choice, Planning, the struggle's turns and
//! Dominance.

use rand::RngExt;
use rand::seq::SliceRandom;

use super::{DominanceStep, Game, InPlay, Pending, Phase, ROUND_LIMIT, STRUGGLE_ACTION_LIMIT, VP_TO_WIN};
use crate::by_faction::ByFaction;
use crate::cards::CardMask;
use crate::catalog::{Card, EventEffect};
use crate::faction::{Audience, Faction};
use crate::log::{Chooser, LogEntry, Modifier, ShuffleReason, StruggleEnd};
use crate::strategy::{Strategy, StrategySet};
use crate::view::{Mode, Modifiers, Outcome, OutcomeReason, RoundResult, WinReason};

use super::pending::{ChoiceSource, Step};

impl Game {
    // ----- character choice -----

    pub(crate) fn choose_characters(&mut self, f: Faction, characters: CardMask) {
        self.pm(f).characters = Some(characters);
        self.emit_secret(
            Audience::seat(f),
            LogEntry::CharactersChosen {
                faction: f,
                characters: Some(characters),
            },
            LogEntry::CharactersChosen {
                faction: f,
                characters: None,
            },
        );
        if Faction::BOTH.iter().all(|f| self.p(*f).characters.is_some()) {
            for f in Faction::BOTH {
                self.build_deck(f);
            }
            self.start_round();
        }
    }

    /// the 16 basic cards and the 4 chosen characters, shuffled; the rest is the reserve.
    fn build_deck(&mut self, f: Faction) {
        let chosen = self.p(f).characters.unwrap_or_default();
        let p = self.pm(f);
        p.deck.clear();
        p.deck.extend(Card::basics());
        p.deck.extend(chosen.iter());
        p.reserve = CardMask::of(Card::characters_of(f).filter(|c| !chosen.contains(*c)));
        p.reserve_public = CardMask::EMPTY;
        self.shuffle_deck(f);
        self.emit(LogEntry::DeckShuffled {
            faction: f,
            reason: ShuffleReason::Setup,
        });
    }

    // ----- Planning -----

    pub(crate) fn start_round(&mut self) {
        self.round += 1;
        self.round_log.clear();
        let Some(event) = self.event_deck.pop() else {
            // Unreachable with the 24 events (see the README); ends the game rather than stalling.
            self.end_by_vp(OutcomeReason::EventDeckEmpty);
            return;
        };
        self.events_known = self.events_known.map(|known| known.saturating_sub(1));
        self.event = Some(event);
        self.phase = Phase::Planning;
        self.emit(LogEntry::RoundStarted {
            round: self.round,
            event,
        });
        for f in Faction::BOTH {
            let p = self.pm(f);
            p.modifiers = std::mem::take(&mut p.next_modifiers);
            p.chosen = None;
            p.chosen_known = Audience::seat(f);
            let m = p.modifiers;
            self.choosers[f] = if m.infiltrated {
                Chooser::Opponent
            } else if m.diversion {
                Chooser::Random
            } else {
                Chooser::Owner
            };
        }
        self.advance_planning();
    }

    /// Targets whose strategy may be chosen now: a located player's comes first.
    pub(crate) fn open_strategy_targets(&self) -> ByFaction<bool> {
        let unchosen = |f: Faction| self.p(f).chosen.is_none();
        if let Some(l) = Faction::BOTH
            .into_iter()
            .find(|f| self.p(*f).modifiers.located && unchosen(*f))
        {
            return ByFaction::from_fn(|f| f == l);
        }
        ByFaction::from_fn(unchosen)
    }

    /// Who chooses `target`'s strategy this round.
    pub(crate) fn strategy_chooser(&self, target: Faction) -> Option<Faction> {
        match self.choosers[target] {
            Chooser::Owner => Some(target),
            Chooser::Opponent => Some(target.opponent()),
            Chooser::Random => None,
        }
    }

    fn advance_planning(&mut self) {
        loop {
            let open = self.open_strategy_targets();
            if !open.rebel && !open.imperial {
                self.start_struggle();
                return;
            }
            let mut drew = false;
            for t in Faction::BOTH {
                if open[t] && self.choosers[t] == Chooser::Random {
                    let unused = self.p(t).unused;
                    let n = self.rng.random_range(0..unused.len().max(1));
                    if let Some(s) = unused.nth(n) {
                        self.set_strategy(t, s, Chooser::Random);
                        drew = true;
                    }
                }
            }
            if !drew {
                return;
            }
        }
    }

    pub(crate) fn choose_strategy(&mut self, seat: Faction, target: Faction, s: Strategy) {
        let chooser = if seat == target {
            Chooser::Owner
        } else {
            Chooser::Opponent
        };
        self.set_strategy(target, s, chooser);
        self.advance_planning();
    }

    fn set_strategy(&mut self, target: Faction, s: Strategy, chooser: Chooser) {
        let p = self.pm(target);
        p.unused.remove(s);
        p.chosen = Some(s);
        let revealed = p.modifiers.located;
        let known = if revealed {
            Audience::EVERYONE
        } else if chooser == Chooser::Opponent {
            Audience::seat(target).with_seat(target.opponent())
        } else {
            Audience::seat(target)
        };
        p.chosen_known = known;
        self.emit_secret(
            known,
            LogEntry::StrategyChosen {
                target,
                chooser,
                strategy: Some(s),
                revealed,
            },
            LogEntry::StrategyChosen {
                target,
                chooser,
                strategy: None,
                revealed,
            },
        );
    }

    // ----- the struggle -----

    pub(crate) fn start_struggle(&mut self) {
        self.phase = Phase::Struggle;
        self.turn = self.balance.unwrap_or(Faction::Rebel);
        self.last_was_pass = false;
        self.struggle_actions = 0;
        self.emit(LogEntry::StruggleStarted { first: self.turn });
    }

    pub(crate) fn use_power(&mut self, f: Faction, card: Card) {
        let p = self.pm(f);
        let Some(i) = p.play_index(card) else { return };
        p.play[i].ready = false;
        let power = self.cat.card(card).power;
        let banned = self.is_banned(power);
        self.emit(LogEntry::PowerUsed {
            faction: f,
            card,
            banned,
        });
        if !banned {
            self.resolve_power(f, card);
        }
        if self.pending.is_none() {
            self.finish_action(false);
        }
    }

    pub(crate) fn spend_influence(&mut self, f: Faction, card: Card) {
        let p = self.pm(f);
        let Some(i) = p.play_index(card) else { return };
        p.play[i] = InPlay { card, ready: true };
        p.influence -= 1;
        let influence_left = p.influence;
        self.emit(LogEntry::CardReadied {
            faction: f,
            card,
            influence_left,
        });
        self.finish_action(false);
    }

    /// After a struggle action: R-4.4 (two passes in a row end it), R-4.9, else the turn passes.
    pub(crate) fn finish_action(&mut self, was_pass: bool) {
        self.struggle_actions += 1;
        if was_pass && self.last_was_pass {
            self.end_struggle(StruggleEnd::BothPassed);
            return;
        }
        self.last_was_pass = was_pass;
        if self.struggle_actions >= STRUGGLE_ACTION_LIMIT {
            self.end_struggle(StruggleEnd::ActionLimit);
            return;
        }
        self.turn = self.turn.opponent();
    }

    /// A pending choice was answered and nothing else is pending: carry on.
    pub(crate) fn after_choice(&mut self) {
        match self.phase {
            Phase::Struggle => self.finish_action(false),
            Phase::Dominance => self.continue_dominance(),
            _ => {}
        }
    }

    fn end_struggle(&mut self, reason: StruggleEnd) {
        self.emit(LogEntry::StruggleEnded { reason });
        if self.mode == Mode::Tutorial {
            self.end_tutorial();
        } else {
            self.begin_dominance();
        }
    }

    /// the higher total not exceeding the objective wins; no VP are awarded.
    fn end_tutorial(&mut self) {
        let obj = self.objective();
        let totals = ByFaction::from_fn(|f| self.total(f));
        let bust = totals.map(|t| t > obj);
        let winner = match (bust.rebel, bust.imperial) {
            (false, false) if totals.rebel > totals.imperial => Some(Faction::Rebel),
            (false, false) if totals.imperial > totals.rebel => Some(Faction::Imperial),
            (false, true) => Some(Faction::Rebel),
            (true, false) => Some(Faction::Imperial),
            _ => None,
        };
        self.finish_game(winner, OutcomeReason::Tutorial);
    }

    // ----- Dominance -----

    fn begin_dominance(&mut self) {
        self.phase = Phase::Dominance;
        let obj = self.objective();
        let totals = ByFaction::from_fn(|f| self.total(f));
        let strategies = ByFaction::from_fn(|f| self.p(f).chosen);
        let eligible = totals.map(|t| t <= obj);
        for f in Faction::BOTH {
            self.pm(f).chosen_known = Audience::EVERYONE;
        }
        let Some(event) = self.event else { return };
        self.results.push(RoundResult {
            round: self.round,
            event,
            objective: obj,
            strategies,
            totals_at_reveal: totals,
            eligible,
            direct_assault: ByFaction::splat(false),
            totals,
            bust: ByFaction::splat(false),
            would_be_winner: None,
            deception: false,
            winner: None,
            reason: None,
            vp_after: ByFaction::splat(0),
        });
        self.emit(LogEntry::StrategiesRevealed {
            strategies,
            totals,
            eligible,
        });
        self.dominance_step = DominanceStep::Support(0);
        self.continue_dominance();
    }

    /// Whether `f`'s strategy is `s` and resolves (R-5.1: eligible players only).
    fn resolves(&self, f: Faction, s: Strategy) -> bool {
        self.results
            .last()
            .is_some_and(|r| r.eligible[f] && r.strategies[f] == Some(s))
    }

    pub(crate) fn continue_dominance(&mut self) {
        loop {
            if self.phase != Phase::Dominance || self.pending.is_some() {
                return;
            }
            match self.dominance_step {
                DominanceStep::Support(n) if n < 2 => {
                    self.dominance_step = DominanceStep::Support(n + 1);
                    // RULING (README): both Supports resolve in turn order, first player first.
                    let first = self.balance.unwrap_or(Faction::Rebel);
                    let f = if n == 0 { first } else { first.opponent() };
                    if self.resolves(f, Strategy::Support) {
                        self.offer(Pending {
                            owner: f,
                            source: ChoiceSource::Strategy {
                                strategy: Strategy::Support,
                            },
                            step: Step::AddReserveCharacter,
                        });
                    }
                }
                DominanceStep::Support(_) => {
                    self.dominance_step = DominanceStep::Victory;
                }
                DominanceStep::Victory => {
                    self.dominance_step = DominanceStep::Effect;
                    self.determine_victory();
                }
                DominanceStep::Effect => {
                    self.dominance_step = DominanceStep::Cleanup;
                    self.resolve_event_effect();
                }
                DominanceStep::Cleanup => {
                    self.cleanup();
                    return;
                }
            }
        }
    }

    ///
    fn determine_victory(&mut self) {
        let Some(mut r) = self.results.last().copied() else {
            return;
        };
        let obj = r.objective;
        // Direct Assault adds 2 (Support already resolved).
        for f in Faction::BOTH {
            if self.resolves(f, Strategy::DirectAssault) {
                r.direct_assault[f] = true;
                r.totals[f] += 2;
                self.emit(LogEntry::DirectAssault {
                    faction: f,
                    total: r.totals[f],
                });
            }
        }
        r.bust = r.totals.map(|t| t > obj);
        // the would-be winner.
        let balance = self.balance.unwrap_or(Faction::Rebel);
        let (would_be, reason) = match (r.bust.rebel, r.bust.imperial) {
            (false, false) if r.totals.rebel > r.totals.imperial => (Some(Faction::Rebel), WinReason::HigherTotal),
            (false, false) if r.totals.imperial > r.totals.rebel => (Some(Faction::Imperial), WinReason::HigherTotal),
            (false, false) => (Some(balance), WinReason::TieBalanceToken),
            (false, true) => (Some(Faction::Rebel), WinReason::OpponentBust),
            (true, false) => (Some(Faction::Imperial), WinReason::OpponentBust),
            (true, true) => (None, WinReason::BothBust),
        };
        r.would_be_winner = would_be;
        // exactly one resolving Deception and nobody bust swaps the result.
        let deceivers = Faction::BOTH
            .iter()
            .filter(|f| self.resolves(**f, Strategy::Deception))
            .count();
        let swap = deceivers == 1 && !r.bust.rebel && !r.bust.imperial;
        r.deception = swap;
        r.winner = if swap {
            would_be.map(Faction::opponent)
        } else {
            would_be
        };
        r.reason = Some(if swap { WinReason::Deception } else { reason });
        if let Some(last) = self.results.last_mut() {
            *last = r;
        }
        self.emit(LogEntry::RoundDecided { result: r });
        let winner = r.winner;
        let loser = winner.map(Faction::opponent);

        // Bureaucracy, then Infiltration for next round.
        for f in Faction::BOTH {
            if self.resolves(f, Strategy::Bureaucracy) && loser == Some(f) {
                self.gain_influence(f, 2);
            }
        }
        for f in Faction::BOTH {
            if self.resolves(f, Strategy::Infiltration) {
                self.set_modifier(f.opponent(), Modifier::Infiltrated);
            }
        }

        // the award.
        let Some(event) = self.event else { return };
        let info = self.cat.event(event);
        match winner {
            Some(w) => {
                self.pm(w).won.push(event);
                self.emit(LogEntry::EventWon {
                    faction: w,
                    event,
                    vp: info.vp,
                    influence: info.influence,
                });
                if info.influence > 0 {
                    self.gain_influence(w, info.influence);
                }
                if self.vp(w) >= VP_TO_WIN {
                    self.finish_game(Some(w), OutcomeReason::VictoryPoints);
                }
            }
            None => {
                self.event_deck.insert(0, event);
                self.emit(LogEntry::EventToBottom { event });
                self.dominance_step = DominanceStep::Cleanup;
            }
        }
    }

    fn set_modifier(&mut self, f: Faction, modifier: Modifier) {
        let m = &mut self.pm(f).next_modifiers;
        match modifier {
            Modifier::Infiltrated => m.infiltrated = true,
            Modifier::Diversion => m.diversion = true,
            Modifier::Located => m.located = true,
        }
        self.emit(LogEntry::ModifierSet { faction: f, modifier });
    }

    /// the won event's effect.
    fn resolve_event_effect(&mut self) {
        let (Some(event), Some(w)) = (self.event, self.results.last().and_then(|r| r.winner)) else {
            return;
        };
        let l = w.opponent();
        let source = ChoiceSource::Event { event };
        match self.cat.event(event).effect {
            EventEffect::LoserLosesTwoInfluence => self.lose_influence(l, 2),
            EventEffect::WinnerReordersTopThreeEvents => {
                let count = self.event_deck.len().min(3) as u8;
                if count > 0 {
                    self.offer(Pending {
                        owner: w,
                        source,
                        step: Step::ReorderEvents { count },
                    });
                }
            }
            EventEffect::LoserStrategyRandomNextRound => self.set_modifier(l, Modifier::Diversion),
            EventEffect::WinnerDiscardsLoserUnusedStrategy => {
                self.offer(Pending {
                    owner: w,
                    source,
                    step: Step::DisplayOfPower,
                });
            }
            EventEffect::LoserMovesCharacterToReserve => {
                self.offer(Pending {
                    owner: l,
                    source,
                    step: Step::CharacterToReserve,
                });
            }
            EventEffect::WinnerMovesCharacterToReserve => {
                self.offer(Pending {
                    owner: w,
                    source,
                    step: Step::CharacterToReserve,
                });
            }
            EventEffect::LoserStrategyFirstNextRound => self.set_modifier(l, Modifier::Located),
            EventEffect::WinnerMayAddReserveCharacter => {
                self.offer(Pending {
                    owner: w,
                    source,
                    step: Step::AddReserveCharacter,
                });
            }
            EventEffect::WinnerRetrievesAllStrategies => {
                // this round's strategy included, so has nothing to move.
                let p = self.pm(w);
                p.chosen = None;
                p.used = StrategySet::EMPTY;
                p.unused = StrategySet::ALL;
                self.emit(LogEntry::StrategiesRetrieved { faction: w });
            }
            EventEffect::None
            | EventEffect::BanDiplomacy
            | EventEffect::BanRecon
            | EventEffect::BanMilitary
            | EventEffect::BanTheForce
            | EventEffect::BanCharactersExceptLukeAndVader => {}
        }
    }

    /// then the next round.
    fn cleanup(&mut self) {
        for f in Faction::BOTH {
            let p = &mut self.players[f];
            let play = std::mem::take(&mut p.play);
            p.deck.extend(play.iter().map(|c| c.card));
            p.deck.append(&mut p.discard);
            p.deck.shuffle(&mut self.rng);
            p.top_known = Audience::NOBODY;
            self.emit(LogEntry::DeckShuffled {
                faction: f,
                reason: ShuffleReason::Cleanup,
            });
        }
        // the balance token.
        let vp = ByFaction::from_fn(|f| self.vp(f));
        let loser = self.results.last().and_then(|r| r.winner).map(Faction::opponent);
        let target = if vp.rebel < vp.imperial {
            Some(Faction::Rebel)
        } else if vp.imperial < vp.rebel {
            Some(Faction::Imperial)
        } else {
            loser
        };
        if let Some(t) = target {
            let moved = self.balance != Some(t);
            self.balance = Some(t);
            self.emit(LogEntry::BalanceToken { faction: t, moved });
        } else if let Some(b) = self.balance {
            self.emit(LogEntry::BalanceToken {
                faction: b,
                moved: false,
            });
        }
        // chosen strategies become used.
        for f in Faction::BOTH {
            let p = self.pm(f);
            if let Some(s) = p.chosen.take() {
                p.used.insert(s);
                self.emit(LogEntry::StrategyUsed {
                    faction: f,
                    strategy: s,
                });
                self.retrieve_if_all_used(f);
            }
        }
        if let Some(r) = self.results.last_mut() {
            r.vp_after = vp;
        }
        if self.round >= ROUND_LIMIT {
            self.end_by_vp(OutcomeReason::RoundLimit);
            return;
        }
        self.start_round();
    }

    /// more VP wins, equal VP is a draw.
    fn end_by_vp(&mut self, reason: OutcomeReason) {
        let vp = ByFaction::from_fn(|f| self.vp(f));
        let winner = match vp.rebel.cmp(&vp.imperial) {
            std::cmp::Ordering::Greater => Some(Faction::Rebel),
            std::cmp::Ordering::Less => Some(Faction::Imperial),
            std::cmp::Ordering::Equal => None,
        };
        self.finish_game(winner, reason);
    }

    pub(crate) fn finish_game(&mut self, winner: Option<Faction>, reason: OutcomeReason) {
        let vp = ByFaction::from_fn(|f| self.vp(f));
        if let Some(r) = self.results.last_mut() {
            r.vp_after = vp;
        }
        let outcome = Outcome { winner, reason, vp };
        self.outcome = Some(outcome);
        self.phase = Phase::GameOver;
        self.pending = None;
        self.emit(LogEntry::GameOver { outcome });
    }
}

impl Modifiers {
    pub fn any(self) -> bool {
        self.infiltrated || self.diversion || self.located
    }
}
