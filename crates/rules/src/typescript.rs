//! TypeScript for the card names (feature `ts`): on the wire a card or an event is its name, so in
//! TypeScript it is the union of every name in the card data. The browser keys its translated names
//! by these unions; a card added to `data/cards.json` does not typecheck until it is translated.

use std::path::PathBuf;

use ts_rs::{Config, TS};

use crate::catalog::{CARD_NAMES, Card, EventCard, catalog};

/// `"A" | "B" | …` of the given names (`string` if the card data cannot be read, which the
/// engine's own tests report).
fn union(names: impl Iterator<Item = String>) -> String {
    let quoted: Vec<String> = names.map(|n| format!("\"{n}\"")).collect();
    if quoted.is_empty() {
        "string".into()
    } else {
        quoted.join(" | ")
    }
}

fn card_names() -> impl Iterator<Item = String> {
    let cat = catalog().ok();
    (0..CARD_NAMES as u8).filter_map(move |i| cat.map(|cat| cat.card(Card(i)).name.clone()))
}

fn event_names() -> impl Iterator<Item = String> {
    let cat = catalog().ok();
    EventCard::all().filter_map(move |e| cat.map(|cat| cat.event(e).name.clone()))
}

macro_rules! named_union {
    ($ty:ty, $name:literal, $doc:literal, $names:expr) => {
        impl TS for $ty {
            type WithoutGenerics = Self;
            type OptionInnerType = Self;

            fn docs() -> Option<String> {
                Some(concat!("/**\n * ", $doc, "\n */\n").into())
            }

            fn name(_: &Config) -> String {
                $name.into()
            }

            fn inline(_: &Config) -> String {
                union($names)
            }

            fn decl(cfg: &Config) -> String {
                format!("type {} = {};", $name, <Self as TS>::inline(cfg))
            }

            fn decl_concrete(cfg: &Config) -> String {
                <Self as TS>::decl(cfg)
            }

            fn output_path() -> Option<PathBuf> {
                Some(concat!($name, ".ts").into())
            }
        }
    };
}

named_union!(
    Card,
    "Card",
    "A resource card name (crates/rules/data/cards.json): 16 basic cards, then 8 characters per faction.",
    card_names()
);
named_union!(
    EventCard,
    "EventCard",
    "An event card name (crates/rules/data/cards.json).",
    event_names()
);
