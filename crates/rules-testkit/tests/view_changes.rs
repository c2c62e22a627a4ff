//! A live update carries only the fields of the view that changed: applied to the view before, they
//! give exactly the view after, for every viewer, on states reached by random play; and they
//! survive JSON, where a field that became empty (`null`) differs from one that did not change.

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

// The engine with its testing accessors, under the name every user of the engine knows.
extern crate evr_rules_testkit as evr_rules;

use evr_rules::view_changes::ViewChanges;
use evr_rules::{View, Viewer};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

mod common;
use common::{Kind, new_game};

#[test]
fn changes_applied_to_the_view_before_give_the_view_after() {
    let (mut moves, mut partial, mut nulls) = (0, 0, 0);
    for kind in [Kind::Full, Kind::Tutorial, Kind::Setup] {
        for seed in 0..30u64 {
            let Some(mut g) = new_game(kind, seed) else { continue };
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for _ in 0..400 {
                let Some(seat) = g.seats_to_act().into_iter().next() else {
                    break;
                };
                let before: Vec<View> = Viewer::ALL.iter().map(|v| g.view_without_log(*v)).collect();
                let legal = g.view(Viewer::Seat(seat)).legal_actions;
                g.apply(seat, legal[rng.random_range(0..legal.len())]).unwrap();
                for (viewer, old) in Viewer::ALL.iter().zip(before) {
                    let new = g.view_without_log(*viewer);
                    let changes = new.changes_since(&old);
                    assert_eq!(changes.is_empty(), new == old, "{kind:?} {seed}: empty iff equal");
                    let wire: ViewChanges = serde_json::from_str(&serde_json::to_string(&changes).unwrap()).unwrap();
                    assert_eq!(wire, changes, "{kind:?} {seed}: the changes survive JSON");
                    let mut applied = old.clone();
                    applied.apply_changes(wire);
                    assert_eq!(
                        applied, new,
                        "{kind:?} {seed}: {viewer:?}'s view rebuilt from the changes"
                    );
                    partial += usize::from(changes.rebel.is_none() || changes.rounds.is_none());
                    nulls += usize::from(
                        [
                            changes.pending.as_ref().map(Option::is_none),
                            changes.planning.as_ref().map(Option::is_none),
                            changes.turn.as_ref().map(Option::is_none),
                        ]
                        .contains(&Some(true)),
                    );
                }
                moves += 1;
            }
        }
    }
    assert!(moves > 5000, "enough moves ({moves})");
    assert!(
        partial > moves,
        "most changes leave some field out ({partial} of {moves})"
    );
    assert!(nulls > 100, "fields that became empty were checked ({nulls})");
}

#[test]
fn an_absent_field_is_unchanged_and_a_null_one_became_empty() {
    let unchanged: ViewChanges = serde_json::from_str("{}").unwrap();
    assert!(unchanged.is_empty());
    let emptied: ViewChanges = serde_json::from_str(r#"{"pending":null,"round":3}"#).unwrap();
    assert_eq!(emptied.pending, Some(None));
    assert_eq!(emptied.round, Some(3));
    assert_eq!(emptied.turn, None);
    assert_eq!(
        serde_json::to_string(&emptied).unwrap(),
        r#"{"round":3,"pending":null}"#
    );
}
