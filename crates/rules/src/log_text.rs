//! Plain-English sentences for log entries ("Imperial used Recon 3 on the Rebel deck…"). Clients
//! localize from the structured [`LogEntry`]; this text serves the command line and tests.

use crate::cards::{CardMask, CardRef};
use crate::catalog::{Card, Catalog, EventCard};
use crate::faction::Faction;
use crate::log::{Chooser, LogEntry, Modifier, ShuffleReason, StruggleEnd, Zone};
use crate::view::{OutcomeReason, WinReason};

fn card(cat: &Catalog, c: Card) -> &str {
    &cat.card(c).name
}

fn card_ref(cat: &Catalog, c: CardRef) -> String {
    format!("{} {}", c.owner.name(), cat.card(c.card).name)
}

fn event(cat: &Catalog, e: EventCard) -> &str {
    &cat.event(e).name
}

fn cards(cat: &Catalog, m: CardMask) -> String {
    m.iter()
        .map(|c| card(cat, c).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn zone(z: Zone) -> &'static str {
    match z {
        Zone::Deck => "deck",
        Zone::DeckTop => "top of the deck",
        Zone::PlayArea => "play area",
        Zone::DiscardPile => "discard pile",
        Zone::Reserve => "reserve",
    }
}

fn side(f: Option<Faction>) -> &'static str {
    f.map_or("nobody", Faction::name)
}

impl LogEntry {
    /// One plain-English sentence.
    pub fn describe(&self, cat: &Catalog) -> String {
        use LogEntry::*;
        match *self {
            GameStarted { mode, balance } => format!(
                "A {} game started; the balance token shows {}.",
                match mode {
                    crate::view::Mode::Full => "full",
                    crate::view::Mode::Tutorial => "tutorial",
                },
                side(balance)
            ),
            CharactersChosen {
                faction,
                characters: Some(c),
            } => {
                format!("{} chose their characters: {}.", faction.name(), cards(cat, c))
            }
            CharactersChosen {
                faction,
                characters: None,
            } => format!("{} chose their characters.", faction.name()),
            DeckShuffled { faction, reason } => format!(
                "{} shuffled their deck{}.",
                faction.name(),
                match reason {
                    ShuffleReason::Setup => "",
                    ShuffleReason::Cleanup => " (cleanup)",
                    ShuffleReason::Power => " (power)",
                }
            ),
            RoundStarted { round, event: e } => format!("Round {round}: the event is {}.", event(cat, e)),
            StrategyChosen {
                target,
                chooser,
                strategy,
                revealed,
            } => {
                let who = match chooser {
                    Chooser::Owner => format!("{} chose a strategy", target.name()),
                    Chooser::Opponent => format!("{} chose the {} strategy", target.opponent().name(), target.name()),
                    Chooser::Random => format!("The {} strategy was drawn at random", target.name()),
                };
                match strategy {
                    Some(s) if revealed => format!("{who} and revealed it: {}.", s.name()),
                    Some(s) => format!("{who}: {}.", s.name()),
                    None => format!("{who}."),
                }
            }
            StruggleStarted { first } => format!("The struggle begins; {} goes first.", first.name()),
            CardPlayed { faction, card: c } => format!("{} played {}.", faction.name(), card(cat, c)),
            DiscardPileUnderDeck { faction, cards } => {
                format!(
                    "{} shuffled their discard pile ({cards} cards) beneath their deck.",
                    faction.name()
                )
            }
            PowerUsed {
                faction,
                card: c,
                banned,
            } => {
                if banned {
                    format!(
                        "{} exhausted {}; its power is banned this round.",
                        faction.name(),
                        card(cat, c)
                    )
                } else {
                    format!("{} used {}.", faction.name(), card(cat, c))
                }
            }
            CardDiscarded { card: c, from, by } => {
                format!("{} discarded {} from the {}.", by.name(), card_ref(cat, c), zone(from))
            }
            CardExhausted { card: c, by } => format!("{} exhausted {}.", by.name(), card_ref(cat, c)),
            CardReadied {
                faction,
                card: c,
                influence_left,
            } => format!(
                "{} spent 1 influence to ready {} ({influence_left} left).",
                faction.name(),
                card(cat, c)
            ),
            Passed { faction } => format!("{} passed.", faction.name()),
            InfluenceGained { faction, amount, total } => {
                format!("{} gained {amount} influence (now {total}).", faction.name())
            }
            InfluenceLost { faction, amount, total } => {
                format!("{} lost {amount} influence (now {total}).", faction.name())
            }
            DeckLooked {
                by,
                deck,
                count,
                cards: seen,
            } => match seen {
                Some(m) if count > 0 => format!(
                    "{} looked at the top of the {} deck: {}.",
                    by.name(),
                    deck.name(),
                    cards(cat, m)
                ),
                _ => format!(
                    "{} looked at the top {count} card(s) of the {} deck.",
                    by.name(),
                    deck.name()
                ),
            },
            DeckSearched { by, deck } => format!("{} looked through the {} deck.", by.name(), deck.name()),
            CardOnTop {
                by,
                deck,
                card: c,
                from,
            } => match c {
                Some(c) => format!(
                    "{} put {} from the {} on top of the {} deck.",
                    by.name(),
                    card(cat, c),
                    zone(from),
                    deck.name()
                ),
                None => format!("{} put a card on top of the {} deck.", by.name(), deck.name()),
            },
            CardToPlayArea { faction, card: c, from } => {
                format!(
                    "{} put {} from their {} into play.",
                    faction.name(),
                    card(cat, c),
                    zone(from)
                )
            }
            CharacterToReserve {
                faction,
                card: c,
                from,
                by,
            } if by != faction => format!(
                "{} sent {} from the {} {} to the {} reserve.",
                by.name(),
                c.map_or("a character", |c| card(cat, c)),
                faction.name(),
                zone(from),
                faction.name()
            ),
            CharacterToReserve {
                faction, card: c, from, ..
            } => match c {
                Some(c) => format!(
                    "{} moved {} from their {} to their reserve.",
                    faction.name(),
                    card(cat, c),
                    zone(from)
                ),
                None => format!(
                    "{} moved a character from their {} to their reserve.",
                    faction.name(),
                    zone(from)
                ),
            },
            ReserveToDeck { faction, card: c } => match c {
                Some(c) => format!(
                    "{} shuffled {} from their reserve into their deck.",
                    faction.name(),
                    card(cat, c)
                ),
                None => format!(
                    "{} shuffled a character from their reserve into their deck.",
                    faction.name()
                ),
            },
            StrategyDiscarded { faction, strategy, by } => {
                format!(
                    "{} sent the {} strategy {} to the used strategies.",
                    by.name(),
                    faction.name(),
                    strategy.name()
                )
            }
            StrategiesRetrieved { faction } => format!("{} retrieved all five strategies.", faction.name()),
            NewStrategyChosen { faction, strategy } => match strategy {
                Some(s) => format!("{} chose a new strategy: {}.", faction.name(), s.name()),
                None => format!("{} chose a new strategy.", faction.name()),
            },
            StruggleEnded { reason } => match reason {
                StruggleEnd::BothPassed => "Both players passed: the struggle ends.".into(),
                StruggleEnd::ActionLimit => "The struggle reached its action limit and ends.".into(),
            },
            StrategiesRevealed {
                strategies,
                totals,
                eligible,
            } => {
                let one = |f: Faction| {
                    format!(
                        "{} {} (total {}{})",
                        f.name(),
                        strategies[f].map_or("no strategy", |s| s.name()),
                        totals[f],
                        if eligible[f] {
                            ""
                        } else {
                            ", over the objective: it does not resolve"
                        }
                    )
                };
                format!(
                    "Strategies revealed: {}; {}.",
                    one(Faction::Rebel),
                    one(Faction::Imperial)
                )
            }
            DirectAssault { faction, total } => format!("Direct Assault: {} total is now {total}.", faction.name()),
            RoundDecided { result } => {
                let why = match result.reason {
                    Some(WinReason::HigherTotal) => "higher total",
                    Some(WinReason::TieBalanceToken) => "tie, the balance token decides",
                    Some(WinReason::OpponentBust) => "the other side is bust",
                    Some(WinReason::Deception) => "Deception: the loser wins instead",
                    Some(WinReason::BothBust) | None => "both bust",
                };
                format!(
                    "{} wins the round ({why}); totals Rebel {}, Imperial {} against {}.",
                    side(result.winner),
                    result.totals.rebel,
                    result.totals.imperial,
                    result.objective
                )
            }
            EventWon {
                faction,
                event: e,
                vp,
                influence,
            } => {
                format!(
                    "{} won {} ({vp} VP, {influence} influence).",
                    faction.name(),
                    event(cat, e)
                )
            }
            EventToBottom { event: e } => {
                format!("Nobody won; {} goes to the bottom of the event deck.", event(cat, e))
            }
            EventsReordered { by, count, order } => match order {
                Some(o) => format!(
                    "{} put the top {count} events in this order: {}.",
                    by.name(),
                    o.iter()
                        .map(|e| event(cat, e).to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                None => format!(
                    "{} looked at the top {count} events and put them back in some order.",
                    by.name()
                ),
            },
            ModifierSet { faction, modifier } => match modifier {
                Modifier::Infiltrated => {
                    format!(
                        "Next round {} chooses the {} strategy.",
                        faction.opponent().name(),
                        faction.name()
                    )
                }
                Modifier::Diversion => format!("Next round the {} strategy is drawn at random.", faction.name()),
                Modifier::Located => format!("Next round {} chooses and reveals first.", faction.name()),
            },
            BalanceToken { faction, moved } => {
                if moved {
                    format!("The balance token turns to {}.", faction.name())
                } else {
                    format!("The balance token stays on {}.", faction.name())
                }
            }
            StrategyUsed { faction, strategy } => {
                format!("{} {} goes to the used strategies.", faction.name(), strategy.name())
            }
            GameOver { outcome } => {
                let how = match outcome.reason {
                    OutcomeReason::VictoryPoints => "with 7 victory points",
                    OutcomeReason::Tutorial => "the tutorial struggle",
                    OutcomeReason::RoundLimit => "at the round limit",
                    OutcomeReason::EventDeckEmpty => "when the event deck ran out",
                };
                match outcome.winner {
                    Some(w) => format!("{} wins the game ({how}).", w.name()),
                    None => format!("The game ends without a winner ({how})."),
                }
            }
        }
    }
}
