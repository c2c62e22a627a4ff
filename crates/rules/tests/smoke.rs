use evr_rules::{Faction, Game, Mode, Viewer};
use rand::{RngExt, SeedableRng};

#[test]
fn smoke_random_games() {
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
    let mut rounds = 0;
    let mut actions = 0;
    for seed in 0..300u64 {
        let mut g = Game::new(if seed % 10 == 0 { Mode::Tutorial } else { Mode::Full }, seed).unwrap();
        let mut n = 0;
        while !g.is_over() {
            let seats: Vec<Faction> = g.seats_to_act();
            assert!(
                !seats.is_empty(),
                "stuck: {:?}",
                serde_json::to_string(&g.view(Viewer::Spectator)).unwrap()
            );
            let seat = seats[rng.random_range(0..seats.len())];
            let legal = g.legal_actions(seat);
            let a = legal[rng.random_range(0..legal.len())];
            g.apply(seat, a).unwrap_or_else(|e| panic!("{a:?} refused: {e}"));
            n += 1;
            assert!(n < 100_000);
            if g.mode() == Mode::Full && g.round() > 0 {
                for f in Faction::BOTH {
                    assert_eq!(g.card_count(f), 24);
                }
            }
        }
        rounds += g.round();
        actions += n;
    }
    eprintln!("rounds {rounds} actions {actions}");
}
