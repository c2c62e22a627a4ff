//! Pending choices: a step of a power, strategy or event effect that waits for one
//! player's answer. Every allowed answer is enumerated by [`Game::options_into`], so validation is
//! membership and the options are exactly what `legal_actions` lists.

use serde::{Deserialize, Serialize};

use super::Game;
use crate::action::{Choice, Destination, EventOrder};
use crate::cards::{CardMask, CardRef, CardSet};
use crate::catalog::{Card, EventCard};
use crate::faction::Faction;
use crate::strategy::Strategy;

/// What caused a pending choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ChoiceSource {
    Card { card: CardRef },
    Strategy { strategy: Strategy },
    Event { event: EventCard },
}

/// Which step is waiting; the data the step needs that is not in the zones themselves.
/// Steps store positions ("the top two cards"), never hidden card identities.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    /// Military: discard one card from the opponent's play area.
    DiscardOpponentCard,
    /// Diplomacy: discard one card from your own play area.
    DiscardOwnCard,
    /// The Force: exhaust one ready card in either play area.
    ExhaustAnyCard,
    /// Chewbacca: exhaust up to two ready cards in the opponent's play area.
    ExhaustOpponentCards,
    /// Lando Calrissian: discard any number of your cards, then play that many.
    DiscardOwnCardsThenPlay,
    /// Luke Skywalker: discard one of your cards, one of the opponent's, or one of each.
    DiscardOwnAndOrOpponentCard,
    /// Leia Organa: a reserve character into the play area or the deck.
    PlaceReserveCharacter,
    /// Obi-Wan Kenobi: a card from your discard pile into your play area.
    TakeFromDiscardPile,
    /// Admiral Piett: a card from either discard pile onto its owner's deck.
    PutDiscardOnDeck,
    /// Darth Vader: discard one exhausted card from either play area.
    DiscardExhaustedCard,
    /// Boba Fett, first part: discard one card from the opponent's play area (or not).
    BobaFettDiscard,
    /// Boba Fett, second part: exhaust one ready card in either play area (or not).
    BobaFettExhaust { discarded: bool },
    /// Recon or IG-88: whose deck to look at.
    ChooseDeck { search: bool },
    /// Recon: which of the `seen` top cards of `deck` to discard.
    ReconDiscard { deck: Faction, seen: u8 },
    /// IG-88: which card of `deck` to discard and which to put on top.
    Ig88Pick { deck: Faction },
    /// Han Solo: which card of your deck to put into play.
    SearchDeckForCard,
    /// Jabba the Hutt, first part: discard one of your cards (or not). `saw_top`: a top card
    /// was seen.
    JabbaDiscard { saw_top: bool },
    /// Jabba the Hutt, second part: play the seen top card (or not).
    JabbaPlay,
    /// R2-D2 and C-3PO, Emperor Palpatine: choose a new strategy.
    NewStrategy,
    /// Support, Occupation of Cloud City, Rebel Uprising: a reserve character into the deck (or not).
    AddReserveCharacter,
    /// Display of Power: one of the loser's unused strategies to their used strategies.
    DisplayOfPower,
    /// Fall of a Hero, Negotiate with the Hutts: one of your characters to your reserve.
    CharacterToReserve,
    /// Balance of the Force: the new order of the top `count` events.
    ReorderEvents { count: u8 },
}

/// A choice waiting for `owner`'s answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pending {
    pub owner: Faction,
    pub source: ChoiceSource,
    pub step: Step,
}

impl Pending {
    /// The faction whose card, strategy or won event caused this choice.
    pub fn actor(&self) -> Faction {
        match self.source {
            ChoiceSource::Card { card } => card.owner,
            _ => self.owner,
        }
    }
}

impl Game {
    fn play_refs(&self, f: Faction) -> impl Iterator<Item = CardRef> + '_ {
        self.p(f).play.iter().map(move |c| CardRef::new(f, c.card))
    }

    fn ready_refs(&self, f: Faction) -> impl Iterator<Item = CardRef> + '_ {
        self.p(f)
            .play
            .iter()
            .filter(|c| c.ready)
            .map(move |c| CardRef::new(f, c.card))
    }

    fn exhausted_refs(&self, f: Faction) -> impl Iterator<Item = CardRef> + '_ {
        self.p(f)
            .play
            .iter()
            .filter(|c| !c.ready)
            .map(move |c| CardRef::new(f, c.card))
    }

    /// The top `n` cards of `f`'s deck, top first.
    pub(crate) fn top_cards(&self, f: Faction, n: usize) -> impl Iterator<Item = Card> + '_ {
        self.p(f).deck.iter().rev().take(n).copied()
    }

    /// A deck's contents in catalog order (never in deck order).
    pub(crate) fn deck_mask(&self, f: Faction) -> CardMask {
        CardMask::of(self.p(f).deck.iter().copied())
    }

    /// Every allowed answer to `p`, in an order that reveals nothing about hidden orders.
    pub(crate) fn options_into(&self, p: &Pending, out: &mut Vec<Choice>) {
        out.clear();
        let me = p.owner;
        let opp = me.opponent();
        let cards = |out: &mut Vec<Choice>, it: &mut dyn Iterator<Item = CardRef>| {
            out.extend(it.map(Choice::card));
        };
        match p.step {
            Step::DiscardOpponentCard => cards(out, &mut self.play_refs(opp)),
            Step::DiscardOwnCard => cards(out, &mut self.play_refs(me)),
            Step::ExhaustAnyCard => cards(out, &mut self.ready_refs(me).chain(self.ready_refs(opp))),
            Step::ExhaustOpponentCards => {
                let ready: Vec<CardRef> = self.ready_refs(opp).collect();
                out.push(Choice::NO_CARDS);
                for (i, a) in ready.iter().enumerate() {
                    out.push(Choice::card(*a));
                    for b in &ready[i + 1..] {
                        out.push(Choice::Cards {
                            cards: CardSet::of([*a, *b]),
                        });
                    }
                }
            }
            Step::DiscardOwnCardsThenPlay => {
                let own: Vec<CardRef> = self.play_refs(me).collect();
                for bits in 0u32..(1 << own.len()) {
                    let set = CardSet::of(
                        own.iter()
                            .enumerate()
                            .filter(|(i, _)| bits & (1 << i) != 0)
                            .map(|(_, c)| *c),
                    );
                    out.push(Choice::Cards { cards: set });
                }
            }
            Step::DiscardOwnAndOrOpponentCard => {
                let own: Vec<CardRef> = self.play_refs(me).collect();
                let theirs: Vec<CardRef> = self.play_refs(opp).collect();
                out.extend(own.iter().map(|c| Choice::card(*c)));
                out.extend(theirs.iter().map(|c| Choice::card(*c)));
                for a in &own {
                    for b in &theirs {
                        out.push(Choice::Cards {
                            cards: CardSet::of([*a, *b]),
                        });
                    }
                }
            }
            Step::PlaceReserveCharacter => {
                let room = self.has_room(me);
                for c in self.p(me).reserve.iter() {
                    if room {
                        out.push(Choice::Character {
                            card: c,
                            to: Destination::PlayArea,
                        });
                    }
                    out.push(Choice::Character {
                        card: c,
                        to: Destination::Deck,
                    });
                }
            }
            Step::TakeFromDiscardPile => {
                if self.has_room(me) {
                    let pile = CardMask::of(self.p(me).discard.iter().copied());
                    out.extend(pile.iter().map(|c| Choice::card(CardRef::new(me, c))));
                }
            }
            Step::PutDiscardOnDeck => {
                for f in Faction::BOTH {
                    let pile = CardMask::of(self.p(f).discard.iter().copied());
                    out.extend(pile.iter().map(|c| Choice::card(CardRef::new(f, c))));
                }
            }
            Step::DiscardExhaustedCard => {
                cards(out, &mut self.exhausted_refs(me).chain(self.exhausted_refs(opp)));
            }
            Step::BobaFettDiscard => {
                cards(out, &mut self.play_refs(opp));
                let can_exhaust = self.ready_refs(me).chain(self.ready_refs(opp)).next().is_some();
                if can_exhaust || out.is_empty() {
                    out.push(Choice::NO_CARDS);
                }
            }
            Step::BobaFettExhaust { discarded } => {
                cards(out, &mut self.ready_refs(me).chain(self.ready_refs(opp)));
                if discarded || out.is_empty() {
                    out.push(Choice::NO_CARDS);
                }
            }
            Step::ChooseDeck { .. } => {
                out.extend(Faction::BOTH.map(|owner| Choice::Deck { owner }));
            }
            Step::ReconDiscard { deck, seen } => {
                let seen: Vec<Card> = self.top_cards(deck, seen as usize).collect();
                out.extend(seen.iter().map(|c| Choice::card(CardRef::new(deck, *c))));
            }
            Step::Ig88Pick { deck } => {
                let all: Vec<Card> = self.deck_mask(deck).iter().collect();
                for d in &all {
                    for t in &all {
                        if d != t {
                            out.push(Choice::DiscardAndTop {
                                discard: CardRef::new(deck, *d),
                                top: CardRef::new(deck, *t),
                            });
                        }
                    }
                }
            }
            Step::SearchDeckForCard => {
                let all = self.deck_mask(me);
                out.extend(all.iter().map(|c| Choice::card(CardRef::new(me, c))));
            }
            Step::JabbaDiscard { .. } => {
                out.push(Choice::NO_CARDS);
                cards(out, &mut self.play_refs(me));
            }
            Step::JabbaPlay => {
                if self.has_room(me) && !self.p(me).deck.is_empty() {
                    out.push(Choice::Play { play: true });
                    out.push(Choice::Play { play: false });
                }
            }
            Step::NewStrategy => {
                out.extend(self.p(me).unused.iter().map(|strategy| Choice::Strategy { strategy }));
            }
            Step::AddReserveCharacter => {
                if !self.p(me).reserve.is_empty() {
                    out.push(Choice::NO_CARDS);
                    let reserve = self.p(me).reserve;
                    out.extend(reserve.iter().map(|c| Choice::card(CardRef::new(me, c))));
                }
            }
            Step::DisplayOfPower => {
                out.extend(self.p(opp).unused.iter().map(|strategy| Choice::Strategy { strategy }));
            }
            Step::CharacterToReserve => {
                let pl = self.p(me);
                let mut chars = CardMask::of(
                    pl.deck
                        .iter()
                        .copied()
                        .chain(pl.discard.iter().copied())
                        .chain(pl.play.iter().map(|c| c.card)),
                );
                chars = chars.intersect(CardMask::of(Card::characters_of(me)));
                out.extend(chars.iter().map(|c| Choice::card(CardRef::new(me, c))));
            }
            Step::ReorderEvents { count } => {
                let top: Vec<EventCard> = self.event_deck.iter().rev().take(count as usize).copied().collect();
                permutations(&top, &mut |perm| {
                    if let Some(events) = EventOrder::new(perm) {
                        out.push(Choice::EventOrder { events });
                    }
                });
            }
        }
    }
}

/// Calls `f` with every permutation of `items` (at most 3 here), starting with the identity.
fn permutations(items: &[EventCard], f: &mut dyn FnMut(&[EventCard])) {
    fn go(prefix: &mut Vec<EventCard>, rest: &mut Vec<EventCard>, f: &mut dyn FnMut(&[EventCard])) {
        if rest.is_empty() {
            f(prefix);
            return;
        }
        for i in 0..rest.len() {
            let e = rest.remove(i);
            prefix.push(e);
            go(prefix, rest, f);
            prefix.pop();
            rest.insert(i, e);
        }
    }
    go(&mut Vec::new(), &mut items.to_vec(), f);
}
