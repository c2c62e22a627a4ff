//! Card data: the single data file `data/cards.json` (cards.md), parsed and validated once.
//!
//! Cards are identified by name. The 16 basic cards have the same names in both factions, the 16
//! characters are unique, so a [`Card`] (an index into the 32 names) plus an owning faction
//! identifies every physical resource card.

use std::sync::LazyLock;

use serde::Deserialize;

use crate::faction::Faction;

/// Number of resource cards each faction owns.
pub const CARDS_PER_FACTION: usize = 24;
/// Basic cards per faction.
pub const BASIC_CARDS: usize = 16;
/// Characters per faction.
pub const CHARACTERS_PER_FACTION: usize = 8;
/// Distinct resource card names across both factions.
pub const CARD_NAMES: usize = BASIC_CARDS + 2 * CHARACTERS_PER_FACTION;
/// Number of event cards.
pub const EVENT_COUNT: usize = 24;
/// The VP of all events add up to this (cards.md).
pub const TOTAL_EVENT_VP: u32 = 42;

/// The power printed on a resource card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Power {
    Military,
    Diplomacy,
    Recon,
    TheForce,
    Chewbacca,
    HanSolo,
    LandoCalrissian,
    LeiaOrgana,
    LukeSkywalker,
    ObiWanKenobi,
    #[serde(rename = "r2_d2_and_c_3po")]
    R2D2AndC3PO,
    Yoda,
    AdmiralPiett,
    BobaFett,
    DarthVader,
    EmperorPalpatine,
    GeneralVeers,
    GrandMoffTarkin,
    #[serde(rename = "ig_88")]
    Ig88,
    JabbaTheHutt,
}

impl Power {
    fn is_basic(self) -> bool {
        matches!(
            self,
            Power::Military | Power::Diplomacy | Power::Recon | Power::TheForce
        )
    }

    fn faction_of_character(self) -> Option<Faction> {
        use Power::*;
        match self {
            Military | Diplomacy | Recon | TheForce => None,
            Chewbacca | HanSolo | LandoCalrissian | LeiaOrgana | LukeSkywalker | ObiWanKenobi | R2D2AndC3PO | Yoda => {
                Some(Faction::Rebel)
            }
            AdmiralPiett | BobaFett | DarthVader | EmperorPalpatine | GeneralVeers | GrandMoffTarkin | Ig88
            | JabbaTheHutt => Some(Faction::Imperial),
        }
    }
}

/// An event card's effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum EventEffect {
    None,
    BanDiplomacy,
    BanRecon,
    BanMilitary,
    BanTheForce,
    BanCharactersExceptLukeAndVader,
    LoserLosesTwoInfluence,
    WinnerReordersTopThreeEvents,
    LoserStrategyRandomNextRound,
    WinnerDiscardsLoserUnusedStrategy,
    LoserMovesCharacterToReserve,
    WinnerMovesCharacterToReserve,
    LoserStrategyFirstNextRound,
    WinnerMayAddReserveCharacter,
    WinnerRetrievesAllStrategies,
}

impl EventEffect {
    /// Whether this event bans `power` for the round.
    pub fn bans(self, power: Power) -> bool {
        match self {
            EventEffect::BanDiplomacy => power == Power::Diplomacy,
            EventEffect::BanRecon => power == Power::Recon,
            EventEffect::BanMilitary => power == Power::Military,
            EventEffect::BanTheForce => power == Power::TheForce,
            EventEffect::BanCharactersExceptLukeAndVader => {
                !power.is_basic() && power != Power::LukeSkywalker && power != Power::DarthVader
            }
            _ => false,
        }
    }
}

/// A resource card name: an index into the catalog's 32 names (basic cards first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(pub(crate) u8);

impl Card {
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }

    pub fn is_character(self) -> bool {
        self.index() >= BASIC_CARDS
    }

    /// The faction that owns this name, or `None` for basic cards (both own one).
    pub fn character_faction(self) -> Option<Faction> {
        match self.index() {
            i if i < BASIC_CARDS => None,
            i if i < BASIC_CARDS + CHARACTERS_PER_FACTION => Some(Faction::Rebel),
            _ => Some(Faction::Imperial),
        }
    }

    /// Whether `faction` owns a card with this name.
    pub fn belongs_to(self, faction: Faction) -> bool {
        self.character_faction().is_none_or(|f| f == faction)
    }

    /// All 24 card names of a faction: 16 basic cards then its 8 characters.
    pub fn all_of(faction: Faction) -> impl Iterator<Item = Card> {
        let first_character = BASIC_CARDS + faction.ordinal() * CHARACTERS_PER_FACTION;
        (0..BASIC_CARDS)
            .chain(first_character..first_character + CHARACTERS_PER_FACTION)
            .map(|i| Card(i as u8))
    }

    /// The 8 characters of a faction.
    pub fn characters_of(faction: Faction) -> impl Iterator<Item = Card> {
        Card::all_of(faction).filter(|c| c.is_character())
    }

    /// The 16 basic cards (same names for both factions).
    pub fn basics() -> impl Iterator<Item = Card> {
        (0..BASIC_CARDS).map(|i| Card(i as u8))
    }
}

/// An event card: an index into the catalog's 24 events.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EventCard(pub(crate) u8);

impl EventCard {
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }

    pub fn all() -> impl Iterator<Item = EventCard> {
        (0..EVENT_COUNT).map(|i| EventCard(i as u8))
    }
}

/// What the data file says about one resource card name.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardInfo {
    pub name: String,
    pub power: Power,
    /// Value while ready.
    pub ready_value: u32,
    /// Value while exhausted: the same number for basic cards, 1 for characters.
    pub exhausted_value: u32,
}

/// What the data file says about one event card.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventInfo {
    pub name: String,
    /// Maximum number of cards in a play area.
    pub capacity: u32,
    /// The highest total that does not bust.
    pub objective: u32,
    pub vp: u32,
    pub influence: u32,
    pub effect: EventEffect,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CardFile {
    #[serde(rename = "_comment")]
    _comment: String,
    basic_cards: Vec<CardInfo>,
    characters: CharacterFile,
    tutorial_event: String,
    events: Vec<EventInfo>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CharacterFile {
    rebel: Vec<CardInfo>,
    imperial: Vec<CardInfo>,
}

/// The card data file does not describe the game (cards.md).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DataError {
    #[error("card data is not valid JSON: {0}")]
    Json(String),
    #[error("card data: {0}")]
    Invalid(String),
}

/// The validated card data.
#[derive(Debug)]
pub struct Catalog {
    cards: Vec<CardInfo>,
    events: Vec<EventInfo>,
    tutorial_event: EventCard,
}

/// The data file, embedded at build time so the engine does no IO.
pub const CARD_DATA_JSON: &str = include_str!("../data/cards.json");

static CATALOG: LazyLock<Result<Catalog, DataError>> = LazyLock::new(|| Catalog::from_json(CARD_DATA_JSON));

/// The embedded, validated catalog.
pub fn catalog() -> Result<&'static Catalog, DataError> {
    CATALOG.as_ref().map_err(Clone::clone)
}

impl Catalog {
    /// Parses and validates card data (the checks of cards.md).
    pub fn from_json(json: &str) -> Result<Catalog, DataError> {
        let file: CardFile = serde_json::from_str(json).map_err(|e| DataError::Json(e.to_string()))?;
        let invalid = |msg: String| Err(DataError::Invalid(msg));

        if file.basic_cards.len() != BASIC_CARDS {
            return invalid(format!(
                "{} basic cards, expected {BASIC_CARDS}",
                file.basic_cards.len()
            ));
        }
        for basic_power in [Power::Military, Power::Diplomacy, Power::Recon, Power::TheForce] {
            let n = file.basic_cards.iter().filter(|c| c.power == basic_power).count();
            if n != 4 {
                return invalid(format!("{n} basic cards with power {basic_power:?}, expected 4"));
            }
        }
        for card in &file.basic_cards {
            if card.ready_value != card.exhausted_value {
                return invalid(format!("{}: a basic card keeps its value when exhausted", card.name));
            }
        }
        let mut cards = file.basic_cards;
        for (faction, characters) in [
            (Faction::Rebel, file.characters.rebel),
            (Faction::Imperial, file.characters.imperial),
        ] {
            if characters.len() != CHARACTERS_PER_FACTION {
                return invalid(format!(
                    "{} {} characters, expected 8",
                    characters.len(),
                    faction.name()
                ));
            }
            for c in &characters {
                if c.power.faction_of_character() != Some(faction) {
                    return invalid(format!(
                        "{}: power {:?} is not a {} character power",
                        c.name,
                        c.power,
                        faction.name()
                    ));
                }
            }
            cards.extend(characters);
        }
        for (i, card) in cards.iter().enumerate() {
            if card.name.is_empty() || cards[..i].iter().any(|o| o.name == card.name) {
                return invalid(format!("card name {:?} is empty or repeated", card.name));
            }
            if (i < BASIC_CARDS) != card.power.is_basic() {
                return invalid(format!("{}: basic cards come first, characters after", card.name));
            }
        }
        let characters = &cards[BASIC_CARDS..];
        for (i, c) in characters.iter().enumerate() {
            if characters[..i].iter().any(|o| o.power == c.power) {
                return invalid(format!("{}: power {:?} appears twice", c.name, c.power));
            }
        }
        let per_faction = BASIC_CARDS + CHARACTERS_PER_FACTION;
        if per_faction != CARDS_PER_FACTION {
            return invalid(format!("{per_faction} cards per faction, expected 24"));
        }

        let events = file.events;
        if events.len() != EVENT_COUNT {
            return invalid(format!("{} events, expected {EVENT_COUNT}", events.len()));
        }
        for (i, e) in events.iter().enumerate() {
            if e.vp + e.influence != 3 {
                return invalid(format!(
                    "{}: VP + influence is {}, expected 3",
                    e.name,
                    e.vp + e.influence
                ));
            }
            if e.capacity == 0 || e.objective == 0 || e.name.is_empty() {
                return invalid(format!("{}: capacity and objective must be positive", e.name));
            }
            if events[..i].iter().any(|o| o.name == e.name) {
                return invalid(format!("event name {:?} is repeated", e.name));
            }
        }
        let vp: u32 = events.iter().map(|e| e.vp).sum();
        if vp != TOTAL_EVENT_VP {
            return invalid(format!("event VP add up to {vp}, expected {TOTAL_EVENT_VP}"));
        }
        let Some(tutorial) = events.iter().position(|e| e.name == file.tutorial_event) else {
            return invalid(format!("tutorial event {:?} is not an event", file.tutorial_event));
        };
        Ok(Catalog {
            cards,
            events,
            tutorial_event: EventCard(tutorial as u8),
        })
    }

    pub fn card(&self, card: Card) -> &CardInfo {
        &self.cards[card.index()]
    }

    pub fn event(&self, event: EventCard) -> &EventInfo {
        &self.events[event.index()]
    }

    /// The event of the tutorial.
    pub fn tutorial_event(&self) -> EventCard {
        self.tutorial_event
    }

    pub fn card_by_name(&self, name: &str) -> Option<Card> {
        self.cards.iter().position(|c| c.name == name).map(|i| Card(i as u8))
    }

    pub fn event_by_name(&self, name: &str) -> Option<EventCard> {
        self.events
            .iter()
            .position(|e| e.name == name)
            .map(|i| EventCard(i as u8))
    }
}
