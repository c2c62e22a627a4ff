//! Powers of resource cards and the resolution of every pending choice step.

use super::pending::{ChoiceSource, Step};
use super::{Game, InPlay, Pending};
use crate::action::{Choice, Destination};
use crate::cards::{CardMask, CardRef};
use crate::catalog::{Card, Power};
use crate::faction::{Audience, Faction};
use crate::log::{LogEntry, Zone};

impl Game {
    /// Resolves the power of `actor`'s `card`, which has just been exhausted.
    pub(crate) fn resolve_power(&mut self, actor: Faction, card: Card) {
        let source = ChoiceSource::Card {
            card: CardRef::new(actor, card),
        };
        let opp = actor.opponent();
        let offer = |g: &mut Game, owner: Faction, step: Step| g.offer(Pending { owner, source, step });
        match self.cat.card(card).power {
            Power::Military => offer(self, actor, Step::DiscardOpponentCard),
            Power::Diplomacy => offer(self, actor, Step::DiscardOwnCard),
            Power::Recon => offer(self, actor, Step::ChooseDeck { search: false }),
            Power::TheForce => offer(self, actor, Step::ExhaustAnyCard),
            Power::Chewbacca => offer(self, actor, Step::ExhaustOpponentCards),
            Power::HanSolo => {
                self.emit(LogEntry::DeckSearched { by: actor, deck: actor });
                if self.has_room(actor) {
                    self.ensure_deck(actor, 1);
                    offer(self, actor, Step::SearchDeckForCard);
                } else {
                    // with a full play area, look through and shuffle, take nothing.
                    self.shuffle_deck(actor);
                    self.emit(LogEntry::DeckShuffled {
                        faction: actor,
                        reason: crate::log::ShuffleReason::Power,
                    });
                }
            }
            Power::LandoCalrissian => offer(self, actor, Step::DiscardOwnCardsThenPlay),
            Power::LeiaOrgana => offer(self, actor, Step::PlaceReserveCharacter),
            Power::LukeSkywalker => offer(self, actor, Step::DiscardOwnAndOrOpponentCard),
            Power::ObiWanKenobi => offer(self, actor, Step::TakeFromDiscardPile),
            Power::R2D2AndC3PO => {
                self.discard_chosen_strategy(actor, actor);
                offer(self, actor, Step::NewStrategy);
            }
            Power::Yoda => self.gain_influence(actor, 1),
            Power::AdmiralPiett => offer(self, actor, Step::PutDiscardOnDeck),
            Power::BobaFett => offer(self, actor, Step::BobaFettDiscard),
            Power::DarthVader => offer(self, actor, Step::DiscardExhaustedCard),
            Power::EmperorPalpatine => {
                self.discard_chosen_strategy(opp, actor);
                offer(self, opp, Step::NewStrategy);
            }
            Power::GeneralVeers => self.general_veers(actor),
            Power::GrandMoffTarkin => self.lose_influence(opp, 2),
            Power::Ig88 => offer(self, actor, Step::ChooseDeck { search: true }),
            Power::JabbaTheHutt => {
                self.ensure_deck(actor, 1);
                let saw_top = self.look_at_top(actor, actor, 1) > 0;
                offer(self, actor, Step::JabbaDiscard { saw_top });
            }
        }
    }

    /// Offers a choice, resolving it at once when there is nothing to choose: no option means the
    /// step cannot be carried out, one option means it is forced.
    pub(crate) fn offer(&mut self, p: Pending) {
        let mut options = Vec::new();
        self.options_into(&p, &mut options);
        match options.as_slice() {
            [] => self.resolve(p, None),
            [only] => {
                let only = *only;
                self.resolve(p, Some(only));
            }
            _ => self.pending = Some(p),
        }
    }

    /// `by` privately looks at the top `n` cards of `deck`; returns how many there were.
    fn look_at_top(&mut self, by: Faction, deck: Faction, n: usize) -> usize {
        let seen = CardMask::of(self.top_cards(deck, n));
        let count = seen.len();
        if count > 0 {
            let p = self.pm(deck);
            p.top_known = p.top_known.with_seat(by);
        }
        self.emit_secret(
            Audience::seat(by),
            LogEntry::DeckLooked {
                by,
                deck,
                count: count as u32,
                cards: Some(seen),
            },
            LogEntry::DeckLooked {
                by,
                deck,
                count: count as u32,
                cards: None,
            },
        );
        count
    }

    /// `owner`'s chosen strategy goes to their used strategies (R-5.10 applies).
    fn discard_chosen_strategy(&mut self, owner: Faction, by: Faction) {
        let p = self.pm(owner);
        if let Some(strategy) = p.chosen.take() {
            p.used.insert(strategy);
            p.chosen_known = Audience::seat(owner);
            self.emit(LogEntry::StrategyDiscarded {
                faction: owner,
                strategy,
                by,
            });
            self.retrieve_if_all_used(owner);
        }
    }

    ///
    fn general_veers(&mut self, actor: Faction) {
        let Some(top) = self.take_top(actor) else { return };
        self.pm(actor).discard.push(top);
        self.emit(LogEntry::CardDiscarded {
            card: CardRef::new(actor, top),
            from: Zone::DeckTop,
            by: actor,
        });
        let threshold = self.cat.card(top).ready_value;
        let opp = actor.opponent();
        let victims: Vec<Card> = self
            .p(opp)
            .play
            .iter()
            .filter(|c| self.value(**c) < threshold)
            .map(|c| c.card)
            .collect();
        for card in victims {
            self.discard_from_play(CardRef::new(opp, card), actor, false);
        }
    }

    /// Carries out one step with the chosen answer (`None`: there was nothing to choose).
    pub(crate) fn resolve(&mut self, p: Pending, choice: Option<Choice>) {
        let me = p.owner;
        let actor = p.actor();
        let picked: Vec<CardRef> = match choice {
            Some(Choice::Cards { cards }) => cards.iter().collect(),
            _ => Vec::new(),
        };
        match p.step {
            Step::DiscardOpponentCard | Step::DiscardOwnCard | Step::DiscardOwnAndOrOpponentCard => {
                for c in picked {
                    self.discard_from_play(c, actor, false);
                }
            }
            Step::DiscardExhaustedCard => {
                for c in picked {
                    self.discard_from_play(c, actor, true);
                }
            }
            Step::ExhaustAnyCard | Step::ExhaustOpponentCards => {
                for c in picked {
                    self.exhaust(c, actor);
                }
            }
            Step::DiscardOwnCardsThenPlay => {
                let n = picked.len();
                for c in picked {
                    self.discard_from_play(c, actor, false);
                }
                for _ in 0..n {
                    if self.has_room(me) {
                        self.draw_to_play(me);
                    }
                }
            }
            Step::PlaceReserveCharacter => {
                if let Some(Choice::Character { card, to }) = choice {
                    match to {
                        Destination::PlayArea => {
                            let pl = self.pm(me);
                            pl.reserve.remove(card);
                            pl.reserve_public.remove(card);
                            pl.play.push(InPlay { card, ready: true });
                            self.emit(LogEntry::CardToPlayArea {
                                faction: me,
                                card,
                                from: Zone::Reserve,
                            });
                        }
                        Destination::Deck => self.reserve_to_deck(me, card),
                    }
                }
            }
            Step::TakeFromDiscardPile => {
                for c in picked {
                    let pl = self.pm(c.owner);
                    if let Some(i) = pl.discard.iter().position(|d| *d == c.card) {
                        pl.discard.remove(i);
                        pl.play.push(InPlay {
                            card: c.card,
                            ready: true,
                        });
                        self.emit(LogEntry::CardToPlayArea {
                            faction: c.owner,
                            card: c.card,
                            from: Zone::DiscardPile,
                        });
                    }
                }
            }
            Step::PutDiscardOnDeck => {
                for c in picked {
                    let pl = self.pm(c.owner);
                    if let Some(i) = pl.discard.iter().position(|d| *d == c.card) {
                        pl.discard.remove(i);
                        pl.deck.push(c.card);
                        pl.top_known = Audience::EVERYONE;
                        self.emit(LogEntry::CardOnTop {
                            by: actor,
                            deck: c.owner,
                            card: Some(c.card),
                            from: Zone::DiscardPile,
                        });
                    }
                }
            }
            Step::BobaFettDiscard => {
                let discarded = !picked.is_empty();
                for c in picked {
                    self.discard_from_play(c, actor, false);
                }
                self.offer(Pending {
                    step: Step::BobaFettExhaust { discarded },
                    ..p
                });
            }
            Step::BobaFettExhaust { .. } => {
                for c in picked {
                    self.exhaust(c, actor);
                }
            }
            Step::ChooseDeck { search } => {
                if let Some(Choice::Deck { owner: deck }) = choice {
                    self.ensure_deck(deck, 2);
                    if search {
                        self.ig88_search(p, deck);
                    } else {
                        let seen = self.look_at_top(me, deck, 2) as u8;
                        if seen > 0 {
                            self.offer(Pending {
                                step: Step::ReconDiscard { deck, seen },
                                ..p
                            });
                        }
                    }
                }
            }
            Step::ReconDiscard { deck, seen } => {
                if let Some(c) = picked.first() {
                    self.recon_discard(me, deck, c.card, seen);
                }
            }
            Step::Ig88Pick { deck } => {
                if let Some(Choice::DiscardAndTop { discard, top }) = choice {
                    let pl = self.pm(deck);
                    pl.deck.retain(|c| *c != discard.card && *c != top.card);
                    pl.discard.push(discard.card);
                    self.emit(LogEntry::CardDiscarded {
                        card: discard,
                        from: Zone::Deck,
                        by: me,
                    });
                    self.shuffle_deck(deck);
                    let pl = self.pm(deck);
                    pl.deck.push(top.card);
                    pl.top_known = Audience::seat(me);
                    self.emit_card_put_on_top(me, deck, Some(top.card));
                }
            }
            Step::SearchDeckForCard => {
                for c in picked {
                    let pl = self.pm(me);
                    pl.deck.retain(|d| *d != c.card);
                    pl.play.push(InPlay {
                        card: c.card,
                        ready: true,
                    });
                    self.emit(LogEntry::CardToPlayArea {
                        faction: me,
                        card: c.card,
                        from: Zone::Deck,
                    });
                }
                self.shuffle_deck(me);
                self.emit(LogEntry::DeckShuffled {
                    faction: me,
                    reason: crate::log::ShuffleReason::Power,
                });
            }
            Step::JabbaDiscard { saw_top } => {
                for c in picked {
                    self.discard_from_play(c, actor, false);
                }
                if saw_top {
                    self.offer(Pending {
                        step: Step::JabbaPlay,
                        ..p
                    });
                }
            }
            Step::JabbaPlay => {
                if choice == Some(Choice::Play { play: true }) {
                    self.draw_to_play(me);
                }
            }
            Step::NewStrategy => {
                if let Some(Choice::Strategy { strategy }) = choice {
                    let pl = self.pm(me);
                    pl.unused.remove(strategy);
                    pl.chosen = Some(strategy);
                    pl.chosen_known = Audience::seat(me);
                    self.emit_secret(
                        Audience::seat(me),
                        LogEntry::NewStrategyChosen {
                            faction: me,
                            strategy: Some(strategy),
                        },
                        LogEntry::NewStrategyChosen {
                            faction: me,
                            strategy: None,
                        },
                    );
                }
            }
            Step::AddReserveCharacter => {
                for c in picked {
                    self.reserve_to_deck(me, c.card);
                }
            }
            Step::DisplayOfPower => {
                if let Some(Choice::Strategy { strategy }) = choice {
                    let loser = me.opponent();
                    let pl = self.pm(loser);
                    pl.unused.remove(strategy);
                    pl.used.insert(strategy);
                    self.emit(LogEntry::StrategyDiscarded {
                        faction: loser,
                        strategy,
                        by: me,
                    });
                    self.retrieve_if_all_used(loser);
                }
            }
            Step::CharacterToReserve => {
                for c in picked {
                    self.character_to_reserve(me, c.card);
                }
            }
            Step::ReorderEvents { count } => {
                if let Some(Choice::EventOrder { events }) = choice {
                    let n = count as usize;
                    let len = self.event_deck.len();
                    if events.len() == n && n <= len {
                        // Top first in the answer; the deck's top is its last element.
                        for (i, e) in events.iter().enumerate() {
                            self.event_deck[len - 1 - i] = e;
                        }
                        self.events_known[me] = n;
                        self.events_known[me.opponent()] = 0;
                        self.emit_secret(
                            Audience::seat(me),
                            LogEntry::EventsReordered {
                                by: me,
                                count: count as u32,
                                order: Some(events),
                            },
                            LogEntry::EventsReordered {
                                by: me,
                                count: count as u32,
                                order: None,
                            },
                        );
                    }
                }
            }
        }
    }

    /// discard one of the seen top cards; the other stays on top, known to the looker.
    fn recon_discard(&mut self, me: Faction, deck: Faction, card: Card, seen: u8) {
        let pl = self.pm(deck);
        let len = pl.deck.len();
        let Some(i) = pl.deck.iter().rposition(|c| *c == card) else {
            return;
        };
        let was_top = i + 1 == len;
        pl.deck.remove(i);
        pl.discard.push(card);
        pl.top_known = match (seen, was_top) {
            (2, true) => Audience::seat(me),
            (2, false) => pl.top_known.with_seat(me),
            _ => Audience::NOBODY,
        };
        self.emit(LogEntry::CardDiscarded {
            card: CardRef::new(deck, card),
            from: Zone::Deck,
            by: me,
        });
        if seen == 2 {
            let kept = self.p(deck).deck.last().copied();
            self.emit_card_put_on_top(me, deck, kept);
        }
    }

    /// `by` put a card of `deck` back on top, seen by `by` only (Recon, IG-88).
    fn emit_card_put_on_top(&mut self, by: Faction, deck: Faction, card: Option<Card>) {
        self.emit_secret(
            Audience::seat(by),
            LogEntry::CardOnTop {
                by,
                deck,
                card,
                from: Zone::Deck,
            },
            LogEntry::CardOnTop {
                by,
                deck,
                card: None,
                from: Zone::Deck,
            },
        );
    }

    /// with two or more cards the looker picks; a single card is discarded (RULING, README).
    fn ig88_search(&mut self, p: Pending, deck: Faction) {
        let me = p.owner;
        self.emit(LogEntry::DeckSearched { by: me, deck });
        match self.p(deck).deck.len() {
            0 => {}
            1 => {
                if let Some(card) = self.take_top(deck) {
                    self.pm(deck).discard.push(card);
                    self.emit(LogEntry::CardDiscarded {
                        card: CardRef::new(deck, card),
                        from: Zone::Deck,
                        by: me,
                    });
                }
            }
            _ => self.offer(Pending {
                step: Step::Ig88Pick { deck },
                ..p
            }),
        }
    }

    /// a character of `f` goes to the reserve. From the play area or discard pile
    /// everyone sees it; from the deck it is secret and the deck is shuffled, so that nobody's
    /// knowledge of the top card depends on which card it was.
    fn character_to_reserve(&mut self, f: Faction, card: Card) {
        let pl = self.pm(f);
        let from = if let Some(i) = pl.play_index(card) {
            pl.play.remove(i);
            Zone::PlayArea
        } else if let Some(i) = pl.discard.iter().position(|c| *c == card) {
            pl.discard.remove(i);
            Zone::DiscardPile
        } else if let Some(i) = pl.deck.iter().position(|c| *c == card) {
            pl.deck.remove(i);
            Zone::Deck
        } else {
            return;
        };
        pl.reserve.insert(card);
        if from == Zone::Deck {
            self.shuffle_deck(f);
            self.emit_secret(
                Audience::seat(f),
                LogEntry::CharacterToReserve {
                    faction: f,
                    card: Some(card),
                    from,
                    by: f,
                },
                LogEntry::CharacterToReserve {
                    faction: f,
                    card: None,
                    from,
                    by: f,
                },
            );
        } else {
            self.pm(f).reserve_public.insert(card);
            self.emit(LogEntry::CharacterToReserve {
                faction: f,
                card: Some(card),
                from,
                by: f,
            });
        }
    }
}
