//! What changed in one viewer's [`View`] from one moment to the next: the top-level fields that
//! differ, whole, and nothing else. A live update carries these instead of the whole view (most
//! moves leave the rounds so far, the event card and one side untouched); a client applies them to
//! the view it holds.
//!
//! Both views are the same viewer's allow-list views, so the changes say nothing a view would not:
//! they are a function of two views that viewer may see.

use serde::{Deserialize, Deserializer, Serialize};

use crate::action::Action;
use crate::catalog::EventCard;
use crate::faction::Faction;
use crate::view::{EventView, Outcome, PendingView, PhaseName, PlanningView, PlayerView, RoundResult, View};

/// `Some(inner)` whenever the field is present, so that a present `null` (`Some(None)`: the field
/// became empty) differs from an absent field (`None`: unchanged).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

macro_rules! view_changes {
    (
        always: { $($field:ident: $ty:ty,)* }
        nullable: { $($nfield:ident: $nty:ty,)* }
    ) => {
        /// The fields of a [`View`] that changed; an absent field did not change. `viewer`, `mode` and
        /// `log` are not here: the first two never change, and a live update's log is its `events`.
        #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
        #[cfg_attr(feature = "ts", derive(ts_rs::TS))]
        pub struct ViewChanges {
            $(
                #[serde(default, skip_serializing_if = "Option::is_none")]
                #[cfg_attr(feature = "ts", ts(optional))]
                pub $field: Option<$ty>,
            )*
            $(
                #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
                #[cfg_attr(feature = "ts", ts(optional))]
                pub $nfield: Option<Option<$nty>>,
            )*
        }

        impl View {
            /// The fields of `self` that differ from `before` (the same viewer's earlier view).
            pub fn changes_since(&self, before: &View) -> ViewChanges {
                ViewChanges {
                    $($field: (self.$field != before.$field).then(|| self.$field.clone()),)*
                    $($nfield: (self.$nfield != before.$nfield).then(|| self.$nfield.clone()),)*
                }
            }

            /// Makes `self` the view `changes` were computed to: each changed field replaced.
            pub fn apply_changes(&mut self, changes: ViewChanges) {
                $(if let Some(v) = changes.$field { self.$field = v; })*
                $(if let Some(v) = changes.$nfield { self.$nfield = v; })*
            }
        }

        impl ViewChanges {
            /// Whether nothing changed.
            pub fn is_empty(&self) -> bool {
                true $(&& self.$field.is_none())* $(&& self.$nfield.is_none())*
            }
        }
    };
}

view_changes! {
    always: {
        phase: PhaseName,
        round: u32,
        event_deck_size: u32,
        known_next_events: Vec<EventCard>,
        last_action_was_pass: bool,
        struggle_actions: u32,
        rebel: PlayerView,
        imperial: PlayerView,
        rounds: Vec<RoundResult>,
        legal_actions: Vec<Action>,
    }
    nullable: {
        event: EventView,
        balance: Faction,
        turn: Faction,
        planning: PlanningView,
        pending: PendingView,
        outcome: Outcome,
    }
}
