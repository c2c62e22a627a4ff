//! # evr-rules — the rules of *Star Wars: Empire vs. Rebellion*
//!
//! A pure, deterministic state machine: no IO, no clock, no global randomness. The same seed and
//! the same actions give the same game, byte for byte. The rules contract is
//! `docs/spec/rules.md`; every rule id (`R-…`) has tests named after it.
//!
//! ```
//! use evr_rules::{Faction, Game, Mode, Viewer};
//!
//! let mut game = Game::new(Mode::Full, 42).unwrap();
//! // Both players secretly choose 4 characters (R-2.4): take the first legal choice each.
//! for seat in Faction::BOTH {
//!     let choice = game.legal_actions(seat)[0];
//!     game.apply(seat, choice).unwrap();
//! }
//! // A spectator sees the public information only.
//! let view = game.view(Viewer::Spectator);
//! assert_eq!(view.round, 1);
//! assert!(view.rebel.characters.is_none());
//! ```
//!
//! - [`Game::legal_actions`] lists every action a seat may take now;
//! - [`Game::apply`] applies one, returning the [`Event`]s it caused, or a [`RuleError`] and no
//!   change at all;
//! - [`Game::view`] builds what one [`Viewer`] may know, from allow-list types ([`View`]);
//! - [`Event::project`] gives the log entry a viewer may see.

pub mod action;
mod by_faction;
pub mod cards;
pub mod catalog;
pub mod error;
pub mod faction;
mod game;
pub mod log;
pub mod log_text;
mod rng;
mod seed;
#[cfg(feature = "ts")]
mod typescript;
pub mod view;
pub mod view_changes;

pub use action::{Action, Choice, Destination, EventOrder};
pub use by_faction::ByFaction;
pub use cards::{CardMask, CardRef, CardSet};
pub use catalog::{Card, Catalog, DataError, EventCard, EventEffect, Power, catalog};
pub use error::RuleError;
pub use faction::{Audience, Faction, Viewer};
pub use game::{
    ChoiceSource, Game, PendingStep, ROUND_LIMIT, STRUGGLE_ACTION_LIMIT, Setup, SetupError, SideSetup, Start, VP_TO_WIN,
};
pub use log::{Event, LogEntry};
pub use seed::GameSeed;
pub use strategy::{Strategy, StrategySet};
pub use view::{Mode, Modifiers, Outcome, OutcomeReason, PhaseName, RoundResult, View, WinReason};
pub use view_changes::ViewChanges;

pub mod strategy;

/// Whether this build of the engine carries its testing accessors (reading hidden zones,
/// re-randomizing what a viewer may not know). Only `crates/rules-testkit` and the engine's own unit
/// tests do; the server refuses to compile against such a build.
pub const TESTING_ACCESSORS: bool = cfg!(any(test, evr_testkit));
