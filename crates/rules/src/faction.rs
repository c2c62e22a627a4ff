//! The two sides, who is looking, and sets of viewers ("audiences") that know a secret.

use serde::{Deserialize, Serialize};

/// One of the two sides of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Faction {
    Rebel,
    Imperial,
}

impl Faction {
    /// Both factions, Rebel first: the order used everywhere a per-faction array appears.
    pub const BOTH: [Faction; 2] = [Faction::Rebel, Faction::Imperial];

    /// Position in the card catalogue and in card bit sets (Rebel 0, Imperial 1). Values kept per
    /// faction are a [`crate::ByFaction`], never an array indexed by this.
    pub(crate) fn ordinal(self) -> usize {
        match self {
            Faction::Rebel => 0,
            Faction::Imperial => 1,
        }
    }

    pub fn opponent(self) -> Faction {
        match self {
            Faction::Rebel => Faction::Imperial,
            Faction::Imperial => Faction::Rebel,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Faction::Rebel => "Rebel",
            Faction::Imperial => "Imperial",
        }
    }
}

/// Who a view or a log entry is built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    /// The player controlling this faction.
    Seat(Faction),
    /// Anyone watching: public information only.
    Spectator,
    /// Everything: every secret of both sides, the decks' and the event deck's order. Never a
    /// live viewer: only the replay of a finished game both players agreed to reveal uses it.
    Omniscient,
}

impl Viewer {
    /// The viewers of live play (not [`Viewer::Omniscient`]).
    pub const ALL: [Viewer; 3] = [
        Viewer::Seat(Faction::Rebel),
        Viewer::Seat(Faction::Imperial),
        Viewer::Spectator,
    ];

    pub fn seat(self) -> Option<Faction> {
        match self {
            Viewer::Seat(f) => Some(f),
            Viewer::Spectator | Viewer::Omniscient => None,
        }
    }

    /// Whether this viewer sees faction `f`'s own secrets (characters, deck contents, options).
    pub fn sees_secrets_of(self, f: Faction) -> bool {
        self == Viewer::Seat(f) || self == Viewer::Omniscient
    }
}

/// A set of viewers: who knows a piece of hidden information.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Audience(u8);

impl Audience {
    pub const NOBODY: Audience = Audience(0);
    pub const EVERYONE: Audience = Audience(0b111);

    fn bit(viewer: Viewer) -> u8 {
        match viewer {
            Viewer::Seat(Faction::Rebel) => 1,
            Viewer::Seat(Faction::Imperial) => 2,
            Viewer::Spectator => 4,
            // knows everything: `contains` answers for it without a bit
            Viewer::Omniscient => 0,
        }
    }

    /// Exactly one seat.
    pub fn seat(faction: Faction) -> Audience {
        Audience(Self::bit(Viewer::Seat(faction)))
    }

    pub fn with(self, viewer: Viewer) -> Audience {
        Audience(self.0 | Self::bit(viewer))
    }

    pub fn with_seat(self, faction: Faction) -> Audience {
        self.with(Viewer::Seat(faction))
    }

    pub fn contains(self, viewer: Viewer) -> bool {
        viewer == Viewer::Omniscient || self.0 & Self::bit(viewer) != 0
    }
}
