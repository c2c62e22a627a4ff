//! The omniscient viewer (a revealed replay only): it sees each side exactly as that side's own
//! seat does, and besides every deck's order, the whole event deck in order, both chosen strategies
//! and every log entry unredacted. Checked on states reached by random play.

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

// The engine with its testing accessors, under the name every user of the engine knows.
extern crate evr_rules_testkit as evr_rules;

use evr_rules::view::StrategySlot;
use evr_rules::{Faction, Game, Viewer};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

mod common;
use common::{Kind, new_game};

fn check(g: &Game, ctx: &str) {
    let all = g.view(Viewer::Omniscient);
    assert!(
        all.legal_actions.is_empty(),
        "{ctx}: nobody acts through the omniscient view"
    );
    assert_eq!(
        all.known_next_events,
        g.testing_event_deck(),
        "{ctx}: the event deck in order"
    );
    for f in Faction::BOTH {
        let own = g.view(Viewer::Seat(f));
        let (mine, told) = (own.player(f), all.player(f));
        assert_eq!(told.characters, mine.characters, "{ctx}: {f:?}'s characters");
        assert_eq!(told.deck_contents, mine.deck_contents, "{ctx}: {f:?}'s deck contents");
        assert_eq!(told.reserve_known, mine.reserve_known, "{ctx}: {f:?}'s reserve");
        assert_eq!(
            told.unused_strategies, mine.unused_strategies,
            "{ctx}: {f:?}'s strategies"
        );
        assert_eq!(told.deck_order, Some(g.testing_deck(f)), "{ctx}: {f:?}'s deck order");
        assert_eq!(mine.deck_order, None, "{ctx}: no seat sees a deck's order");
        assert_eq!(
            told.deck_top,
            g.testing_deck(f).first().copied(),
            "{ctx}: {f:?}'s top card"
        );
        match g.testing_chosen_strategy(f) {
            Some(s) => assert_eq!(told.strategy, StrategySlot::Known(s), "{ctx}: {f:?}'s strategy"),
            None => assert_eq!(told.strategy, StrategySlot::None, "{ctx}"),
        }
    }
    if let Some(p) = &all.pending {
        let owners = g
            .view(Viewer::Seat(p.owner))
            .pending
            .expect("the owner sees its choice");
        assert_eq!(p, &owners, "{ctx}: the pending choice as its owner sees it");
    }
    for (i, e) in g.round_log().iter().enumerate() {
        for viewer in Viewer::ALL {
            let seen = e.project(viewer);
            if seen != e.project(Viewer::Omniscient) {
                assert!(!e.is_public(), "{ctx}: log entry {i} is public yet differs");
            }
        }
        assert_eq!(
            all.log[i],
            e.project(Viewer::Omniscient),
            "{ctx}: the view's log is the unredacted one"
        );
    }
}

#[test]
fn the_omniscient_view_shows_every_secret_and_the_order_of_every_deck() {
    let mut states = 0;
    for kind in [Kind::Full, Kind::Tutorial, Kind::Setup] {
        for seed in 0..40u64 {
            let Some(mut g) = new_game(kind, seed) else { continue };
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for step in 0..400 {
                check(&g, &format!("{kind:?} seed {seed} step {step}"));
                states += 1;
                let Some(seat) = g.seats_to_act().into_iter().next() else {
                    break;
                };
                let legal = g.view(Viewer::Seat(seat)).legal_actions;
                let a = legal[rng.random_range(0..legal.len())];
                g.apply(seat, a).unwrap();
            }
        }
    }
    assert!(states > 5000, "enough states checked ({states})");
}
