//! Determinization for bots: a complete `Game` sampled uniformly-ish among those consistent with
//! what one seat's [`View`] shows. Everything public is copied from the view; everything hidden
//! from that seat (deck orders, the opponent's deck/reserve split, the opponent's face-down
//! strategy, the event deck below the known events, the random stream) is drawn from `seed`.
//!
//! The sampled game's `view(seat)` equals the given view, with one representation detail: the
//! round log is rebuilt from the seat's projection of it (each entry as a public event), so the
//! seat's log is identical while other viewers' logs are not reproduced. Knowledge the seat does
//! not have about the *opponent's* knowledge (e.g. whether the opponent knows the top card of
//! the seat's deck) is set to the most plausible value; it only changes the opponent's view.

use rand::RngExt;
use rand::seq::SliceRandom;

use super::pending::Step;
use super::{DominanceStep, Game, InPlay, Pending, Phase, Player, SetupError};
use crate::by_faction::ByFaction;
use crate::cards::CardMask;
use crate::catalog::{Card, EventCard, catalog};
use crate::faction::{Audience, Faction, Viewer};
use crate::log::{Chooser, Event};
use crate::strategy::{Strategy, StrategySet};
use crate::view::{Mode, PhaseName, PlayerView, StrategySlot, View};

fn bad<T>(msg: impl Into<String>) -> Result<T, SetupError> {
    Err(SetupError::Invalid(msg.into()))
}

fn set_of(list: &[Strategy]) -> StrategySet {
    StrategySet::of(list.iter().copied())
}

impl Game {
    /// A full game consistent with `view` (a seat's view), hidden parts drawn from `seed`.
    pub fn sample_from_view(view: &View, seed: u64) -> Result<Game, SetupError> {
        let Viewer::Seat(me) = view.viewer else {
            return bad("a spectator's view cannot be determinized");
        };
        let cat = catalog()?;
        let mut rng = crate::rng::GameRng::seed_from_u64(seed);
        let phase = match view.phase {
            PhaseName::CharacterChoice => Phase::CharacterChoice,
            PhaseName::Planning => Phase::Planning,
            PhaseName::Struggle => Phase::Struggle,
            PhaseName::Dominance => Phase::Dominance,
            PhaseName::GameOver => Phase::GameOver,
        };
        let pending = view.pending.as_ref().map(|p| Pending {
            owner: p.owner,
            source: p.source,
            step: p.step,
        });
        let own_pending = pending.filter(|p| p.owner == me);
        let pv = |f: Faction| -> &PlayerView {
            match f {
                Faction::Rebel => &view.rebel,
                Faction::Imperial => &view.imperial,
            }
        };

        // Cards of a pending choice the seat sees, top first, per deck.
        let mut seen_top: ByFaction<Vec<Card>> = ByFaction::default();
        let mut deck_known: ByFaction<Option<CardMask>> = ByFaction::default();
        let mut seen_events: Vec<EventCard> = Vec::new();
        if let (Some(p), Some(pview)) = (own_pending, view.pending.as_ref()) {
            let seen: Vec<Card> = pview.seen_cards.iter().flatten().map(|r| r.card).collect();
            match p.step {
                Step::ReconDiscard { deck, .. } => seen_top[deck] = seen,
                Step::Ig88Pick { deck } => deck_known[deck] = Some(CardMask::of(seen)),
                Step::JabbaDiscard { saw_top: true } | Step::JabbaPlay => seen_top[me] = seen,
                Step::ReorderEvents { .. } => seen_events = pview.seen_events.clone().unwrap_or_default(),
                _ => {}
            }
        }

        let mut players = ByFaction::from_fn(Player::new);
        for f in Faction::BOTH {
            let v = pv(f);
            let own = f == me;
            let p = &mut players[f];
            p.influence = v.influence;
            p.won = v.won_events.clone();
            p.modifiers = v.modifiers;
            p.next_modifiers = v.next_modifiers;
            p.discard = v.discard_pile.clone();
            p.play = v
                .play_area
                .iter()
                .map(|c| InPlay {
                    card: c.card,
                    ready: c.ready,
                })
                .collect();
            p.used = set_of(&v.used_strategies);
            // Strategies: unused, used and chosen split the five (the tutorial has none).
            match (v.strategy, &v.unused_strategies) {
                (StrategySlot::Known(s), Some(unused)) => {
                    p.chosen = Some(s);
                    p.unused = set_of(unused);
                }
                (StrategySlot::None, Some(unused)) => {
                    p.chosen = None;
                    p.unused = set_of(unused);
                }
                (StrategySlot::Hidden, _) | (StrategySlot::Known(_), None) => {
                    let mut pool: Vec<Strategy> = Strategy::ALL
                        .into_iter()
                        .filter(|s| !p.used.contains(*s))
                        .filter(|s| v.unused_strategies.as_ref().is_none_or(|u| !u.contains(s)))
                        .collect();
                    if let StrategySlot::Known(s) = v.strategy {
                        pool.retain(|x| *x == s);
                    }
                    let Some(&s) = pool.get(rng.random_range(0..pool.len().max(1))) else {
                        return bad("no strategy can be the hidden chosen one");
                    };
                    p.chosen = Some(s);
                    p.unused = match &v.unused_strategies {
                        Some(u) => set_of(u),
                        None => StrategySet::of(Strategy::ALL.into_iter().filter(|x| *x != s && !p.used.contains(*x))),
                    };
                }
                (StrategySlot::None, None) => return bad("unused strategies unknown with nothing chosen"),
            }
            if p.unused.len() as u32 != v.unused_strategy_count {
                return bad(format!("{}: unused strategies do not add up", f.name()));
            }
            p.chosen_known = match v.strategy {
                StrategySlot::Known(_)
                    if matches!(phase, Phase::Dominance | Phase::GameOver) || v.modifiers.located =>
                {
                    Audience::EVERYONE
                }
                StrategySlot::Known(_) if !own => Audience::seat(f).with_seat(me),
                StrategySlot::Known(_) if v.modifiers.infiltrated => Audience::seat(f).with_seat(f.opponent()),
                _ => Audience::seat(f),
            };
            // Resource cards.
            if phase == Phase::CharacterChoice {
                p.characters = if own {
                    v.characters
                } else if v.characters_chosen {
                    let mut all: Vec<Card> = Card::characters_of(f).collect();
                    all.shuffle(&mut rng);
                    Some(CardMask::of(all.into_iter().take(4)))
                } else {
                    None
                };
                if v.deck_size != 0 || v.reserve_size != 0 || !v.play_area.is_empty() || !v.discard_pile.is_empty() {
                    return bad("cards outside the box before the character choice");
                }
                continue;
            }
            let universe: Vec<Card> = match view.mode {
                Mode::Full => Card::all_of(f).collect(),
                Mode::Tutorial => Card::basics().collect(),
            };
            let visible = CardMask::of(p.play.iter().map(|c| c.card).chain(p.discard.iter().copied()));
            let mut top: Vec<Card> = if !seen_top[f].is_empty() {
                seen_top[f].clone()
            } else {
                v.deck_top.into_iter().collect()
            };
            if let Some(t) = v.deck_top
                && top.first() != Some(&t)
            {
                return bad("the known top card disagrees with the seen cards");
            }
            let (deck_set, reserve) = if own {
                let Some(contents) = v.deck_contents else {
                    return bad("own deck contents missing");
                };
                (contents, v.reserve_known)
            } else {
                let known_res = v.reserve_known;
                let mut hidden: Vec<Card> = universe
                    .iter()
                    .copied()
                    .filter(|c| !visible.contains(*c) && !known_res.contains(*c))
                    .collect();
                if let Some(d) = deck_known[f] {
                    // The whole deck was seen: the rest is the reserve.
                    let res = CardMask::of(hidden.iter().copied().filter(|c| !d.contains(*c)));
                    (d, CardMask::of(known_res.iter().chain(res.iter())))
                } else {
                    // Cards certainly in the deck (seen on top) cannot be in the reserve.
                    let fixed = CardMask::of(top.iter().copied());
                    let need = (v.reserve_size as usize).saturating_sub(known_res.len());
                    hidden.shuffle(&mut rng);
                    let mut res = known_res;
                    let mut deck = fixed;
                    let mut placed = 0;
                    for c in hidden {
                        if fixed.contains(c) {
                            continue;
                        }
                        if placed < need && c.is_character() {
                            res.insert(c);
                            placed += 1;
                        } else {
                            deck.insert(c);
                        }
                    }
                    (deck, res)
                }
            };
            if deck_set.len() as u32 != v.deck_size || reserve.len() as u32 != v.reserve_size {
                return bad(format!("{}: deck or reserve sizes do not add up", f.name()));
            }
            top.truncate(deck_set.len());
            if top.iter().any(|c| !deck_set.contains(*c)) {
                return bad("a seen card is not in the deck");
            }
            let fixed = CardMask::of(top.iter().copied());
            let mut deck: Vec<Card> = deck_set.iter().filter(|c| !fixed.contains(*c)).collect();
            deck.shuffle(&mut rng);
            deck.extend(top.iter().rev());
            p.deck = deck;
            p.reserve = reserve;
            p.reserve_public = if own { CardMask::EMPTY } else { v.reserve_known };
            p.top_known = if v.deck_top.is_some() {
                Audience::seat(me)
            } else {
                Audience::NOBODY
            };
            p.characters = match view.mode {
                Mode::Full if own => v.characters,
                Mode::Full => Some(CardMask::of(Card::characters_of(f).filter(|c| !reserve.contains(*c)))),
                Mode::Tutorial => None,
            };
        }

        // The event deck: every event not won and not current, known ones on top.
        let event = view.event.map(|e| e.event);
        let mut event_deck: Vec<EventCard> = Vec::with_capacity(24);
        if view.mode == Mode::Full {
            let won: Vec<EventCard> = Faction::BOTH.iter().flat_map(|f| pv(*f).won_events.clone()).collect();
            let mut top: Vec<EventCard> = if seen_events.len() >= view.known_next_events.len() {
                seen_events
            } else {
                view.known_next_events.clone()
            };
            top.truncate(view.event_deck_size as usize);
            let mut rest: Vec<EventCard> = EventCard::all()
                .filter(|e| !won.contains(e) && Some(*e) != event && !top.contains(e))
                .collect();
            rest.shuffle(&mut rng);
            // A round without a winner puts its event at the bottom while it is still current.
            if let Some(e) = event
                && rest.len() + top.len() + 1 == view.event_deck_size as usize
            {
                rest.insert(0, e);
            }
            event_deck = rest;
            event_deck.extend(top.iter().rev());
            if event_deck.len() != view.event_deck_size as usize {
                return bad("the event deck size does not add up");
            }
        }
        let mut events_known = ByFaction::splat(0);
        events_known[me] = view.known_next_events.len();

        let choosers = ByFaction::from_fn(|f| {
            let m = pv(f).modifiers;
            if m.infiltrated {
                Chooser::Opponent
            } else if m.diversion {
                Chooser::Random
            } else {
                Chooser::Owner
            }
        });
        // Where Dominance resumes once the pending choice is answered (see `continue_dominance`).
        let first = view.balance.unwrap_or(Faction::Rebel);
        let dominance_step = match pending {
            Some(Pending {
                source: super::ChoiceSource::Strategy { .. },
                owner,
                ..
            }) if phase == Phase::Dominance => DominanceStep::Support(if owner == first { 1 } else { 2 }),
            _ if phase == Phase::Dominance => DominanceStep::Cleanup,
            _ => DominanceStep::Support(0),
        };

        let game = Game {
            cat,
            rng: crate::rng::GameRng::seed_from_u64(rng.random()),
            mode: view.mode,
            phase,
            round: view.round,
            players,
            event_deck,
            events_known,
            event,
            balance: view.balance,
            turn: view.turn.unwrap_or(first),
            last_was_pass: view.last_action_was_pass,
            struggle_actions: view.struggle_actions,
            pending,
            choosers,
            dominance_step,
            results: view.rounds.clone(),
            outcome: view.outcome,
            round_log: view.log.iter().map(|e| Event::public(*e)).collect(),
            out: Vec::new(),
        };
        Ok(game)
    }
}
