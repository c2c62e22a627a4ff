//! The ratings' arithmetic: Glickman's worked example, the side advantage, time away, display.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use evr_ratings::{
    GameScore, Rating, START, SideAdvantage, after_time_away, expected_score, is_established, is_provisional,
    rate_game, shown,
};
use evr_rules::Faction;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, glicko2_rating_period};

fn rating(rating: f64, deviation: f64) -> Rating {
    Rating {
        rating,
        deviation,
        volatility: 0.06,
    }
}

fn close(a: f64, b: f64, within: f64) -> bool {
    (a - b).abs() <= within
}

#[test]
fn glickmans_worked_example_gives_his_figures() {
    // glicko2.pdf, "Example calculation": τ = 0.5, one rating period of three games
    let player = rating(1500.0, 200.0);
    let results = [
        (rating(1400.0, 30.0), Outcomes::WIN),
        (rating(1550.0, 100.0), Outcomes::LOSS),
        (rating(1700.0, 300.0), Outcomes::LOSS),
    ];
    let config = Glicko2Config {
        tau: evr_ratings::TAU,
        ..Glicko2Config::new()
    };
    let after = glicko2_rating_period(&player, &results, &config);
    assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
    assert!(close(after.deviation, 151.52, 0.01), "{after:?}");
    assert!(close(after.volatility, 0.05999, 0.00001), "{after:?}");
}

#[test]
fn without_an_advantage_a_game_is_plain_glicko2_for_both_players() {
    let (a, b) = (rating(1600.0, 80.0), rating(1500.0, 120.0));
    let (rebel, imperial) = rate_game(&a, &b, GameScore::Won(Faction::Imperial), SideAdvantage::NONE);
    let (plain_a, plain_b) = skillratings::glicko2::glicko2(&a, &b, &Outcomes::LOSS, &Glicko2Config::new());
    assert_eq!((rebel, imperial), (plain_a, plain_b));
    assert!(rebel.rating < a.rating && imperial.rating > b.rating);
}

#[test]
fn winning_with_the_favoured_side_gains_less_and_losing_with_it_costs_more() {
    let equal = rating(1500.0, 100.0);
    let edge = SideAdvantage::from_rebel_score(0.55);
    assert!(close(edge.rebel_points, 34.86, 0.01), "{edge:?}");
    // two certain equal players: the measured score (with deviations, Glicko's g pulls it to ½)
    let certain = rating(1500.0, 1.0);
    assert!(close(expected_score(&certain, &certain, edge), 0.55, 1e-4));
    let e = expected_score(&equal, &equal, edge);
    assert!(e > 0.5 && e < 0.55, "{e}");
    let (won_plain, _) = rate_game(&equal, &equal, GameScore::Won(Faction::Rebel), SideAdvantage::NONE);
    let (won_favoured, lost_against) = rate_game(&equal, &equal, GameScore::Won(Faction::Rebel), edge);
    assert!(
        won_favoured.rating < won_plain.rating,
        "the favoured side's win is worth less"
    );
    let (lost_favoured, _) = rate_game(&equal, &equal, GameScore::Won(Faction::Imperial), edge);
    let (lost_plain, _) = rate_game(&equal, &equal, GameScore::Won(Faction::Imperial), SideAdvantage::NONE);
    assert!(
        lost_favoured.rating < lost_plain.rating,
        "the favoured side's loss costs more"
    );
    // the Imperial who lost to the favoured side loses less than to an equal side
    let (_, imperial_plain) = rate_game(&equal, &equal, GameScore::Won(Faction::Rebel), SideAdvantage::NONE);
    assert!(lost_against.rating > imperial_plain.rating);
    // a draw: the favoured side loses points, the other gains
    let (rebel, imperial) = rate_game(&equal, &equal, GameScore::Draw, edge);
    assert!(rebel.rating < 1500.0 && imperial.rating > 1500.0);
    // an Imperial edge is the mirror image
    let mirror = SideAdvantage::from_rebel_score(0.45);
    let (r, i) = rate_game(&equal, &equal, GameScore::Draw, mirror);
    assert!(
        close(r.rating - 1500.0, 1500.0 - rebel.rating, 1e-9)
            && close(i.rating - 1500.0, 1500.0 - imperial.rating, 1e-9)
    );
}

#[test]
fn time_away_makes_a_rating_uncertain_again_and_new_players_are_provisional() {
    let established = rating(1720.0, 60.0);
    assert!(is_established(&established) && !is_provisional(&established));
    assert_eq!(shown(&established), "1720");
    let month = after_time_away(&established, 30);
    assert!(month.deviation > 60.0 && month.rating == 1720.0);
    let long = after_time_away(&established, 120);
    assert!(is_provisional(&long), "four months away: provisional again ({long:?})");
    assert_eq!(shown(&long), "1720?");
    assert_eq!(after_time_away(&established, 1_000_000).deviation, START.deviation);
    assert_eq!(shown(&START), "1500?");
}

#[test]
fn a_measured_edge_is_used_only_once_its_interval_leaves_out_an_even_game() {
    use evr_ratings::SidesMeasured;
    // BENCHMARKS' first look: 117 of 200, Wilson [51.6%, 65.1%], +60 points
    let first = SidesMeasured {
        games: 200,
        rebel_wins: 117,
        draws: 0,
    };
    let (low, high) = first.interval();
    assert!(close(low, 0.516, 0.001) && close(high, 0.651, 0.001), "{low} {high}");
    assert!(
        close(first.advantage().rebel_points, 59.6, 0.5),
        "{:?}",
        first.advantage()
    );
    // 55 of 100: the interval holds 50%, so no edge
    let unsure = SidesMeasured {
        games: 100,
        rebel_wins: 55,
        draws: 0,
    };
    assert_eq!(unsure.advantage(), SideAdvantage::NONE);
    // the Imperial favoured: a negative edge
    let imperial = SidesMeasured {
        games: 1000,
        rebel_wins: 400,
        draws: 20,
    };
    assert!(imperial.advantage().rebel_points < -60.0, "{:?}", imperial.advantage());
    assert!(close(imperial.rebel_score(), 0.41, 1e-9));
}
