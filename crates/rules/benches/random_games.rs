//! Random legal games to the end, on one thread: games per second, actions per second, the size of
//! a `Game` and the heap it holds.
//!
//! `cargo bench -p evr-rules --bench random_games [-- --secs S] [--games N] [--reps R] [--tutorial]`
//! (or `EVR_BENCH_SECS`, `EVR_BENCH_GAMES`, `EVR_BENCH_REPS`). Default: 5 repetitions of 1 s each,
//! full games; the median repetition is reported. The project's floor is 10,000 complete random games
//! per second on one core in release.

// Benchmark code: a failed unwrap aborts the benchmark, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

use evr_rules::{Action, ByFaction, Faction, Game, Mode};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// Counts heap allocations while `COUNTING` is on (never during the timed runs), so that the heap
/// a `Game` holds and the allocations per action can be reported.
struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCS: AtomicUsize = AtomicUsize::new(0);
static LIVE: AtomicUsize = AtomicUsize::new(0);

// The only unsafe code in the project: a global allocator must be `unsafe impl`; it forwards to
// `System` unchanged.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Relaxed) {
            ALLOCS.fetch_add(1, Relaxed);
            LIVE.fetch_add(layout.size(), Relaxed);
        }
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if COUNTING.load(Relaxed) {
            LIVE.fetch_sub(layout.size(), Relaxed);
        }
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Relaxed) {
            ALLOCS.fetch_add(1, Relaxed);
            LIVE.fetch_add(new_size, Relaxed);
            LIVE.fetch_sub(layout.size(), Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

struct Config {
    secs: f64,
    games: Option<u64>,
    reps: usize,
    mode: Mode,
}

fn config() -> Config {
    let env = |k: &str| std::env::var(k).ok();
    let mut c = Config {
        secs: env("EVR_BENCH_SECS").and_then(|v| v.parse().ok()).unwrap_or(1.0),
        games: env("EVR_BENCH_GAMES").and_then(|v| v.parse().ok()),
        reps: env("EVR_BENCH_REPS").and_then(|v| v.parse().ok()).unwrap_or(5),
        mode: Mode::Full,
    };
    // `cargo bench` passes `--bench`; unknown arguments are ignored.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let next = args.get(i + 1);
        match args[i].as_str() {
            "--secs" => c.secs = next.and_then(|v| v.parse().ok()).unwrap_or(c.secs),
            "--games" => c.games = next.and_then(|v| v.parse().ok()),
            "--reps" => c.reps = next.and_then(|v| v.parse().ok()).unwrap_or(c.reps),
            "--tutorial" => c.mode = Mode::Tutorial,
            _ => {}
        }
        i += 1;
    }
    c.reps = c.reps.max(1);
    c
}

#[derive(Clone, Copy, Default)]
struct Totals {
    games: u64,
    actions: u64,
    rounds: u64,
    elapsed: Duration,
}

impl Totals {
    fn games_per_sec(&self) -> f64 {
        self.games as f64 / self.elapsed.as_secs_f64()
    }
}

/// Plays one random legal game to the end; returns (actions, rounds).
fn play(mode: Mode, seed: u64, rng: &mut SmallRng, seat_buf: &mut ByFaction<Vec<Action>>) -> (u64, u64, Game) {
    let mut game = Game::new(mode, seed).expect("standard setup");
    let mut actions = 0u64;
    while !game.is_over() {
        // What `seats_to_act` computes, without its allocation: both seats' legal actions.
        for f in Faction::BOTH {
            game.legal_actions_into(f, &mut seat_buf[f]);
        }
        let seat = match (seat_buf.rebel.is_empty(), seat_buf.imperial.is_empty()) {
            (false, false) => Faction::BOTH[rng.random_range(0..2usize)],
            (false, true) => Faction::Rebel,
            (true, false) => Faction::Imperial,
            (true, true) => panic!("seed {seed}: nobody can act"),
        };
        let legal = &seat_buf[seat];
        let action = legal[rng.random_range(0..legal.len())];
        black_box(game.apply(seat, action).expect("a listed action is legal"));
        actions += 1;
    }
    let rounds = u64::from(game.round());
    (actions, rounds, game)
}

fn run(c: &Config, rep: usize) -> Totals {
    let mut rng = SmallRng::seed_from_u64(0x5eed ^ rep as u64);
    let mut bufs = ByFaction::from_fn(|_| Vec::with_capacity(128));
    let mut t = Totals::default();
    let base_seed = (rep as u64) << 40;
    let limit = Duration::from_secs_f64(c.secs);
    let start = Instant::now();
    loop {
        let (actions, rounds, game) = play(c.mode, base_seed + t.games, &mut rng, &mut bufs);
        black_box(&game);
        drop(game);
        t.games += 1;
        t.actions += actions;
        t.rounds += rounds;
        let done = match c.games {
            Some(n) => t.games >= n,
            // Checking the clock every 64 games keeps it out of the measurement.
            None => t.games % 64 == 0 && start.elapsed() >= limit,
        };
        if done {
            break;
        }
    }
    t.elapsed = start.elapsed();
    t
}

/// Heap held by a game right after setup, at its end, and by a clone of a finished game; heap
/// allocations per game and per action. Averages over `n` games, measured apart from the timed runs.
struct Heap {
    fresh: f64,
    end: f64,
    clone: f64,
    allocs_per_game: f64,
    allocs_per_action: f64,
}

fn heap_per_game(mode: Mode, n: u64) -> Heap {
    let mut rng = SmallRng::seed_from_u64(99);
    let mut bufs = ByFaction::from_fn(|_| Vec::with_capacity(128));
    let (mut fresh, mut end, mut clone) = (0usize, 0usize, 0usize);
    let (mut allocs, mut actions) = (0usize, 0u64);
    COUNTING.store(true, Relaxed);
    for seed in 0..n {
        let before = LIVE.load(Relaxed);
        let g = Game::new(mode, seed).expect("standard setup");
        fresh += LIVE.load(Relaxed) - before;
        drop(g);
        let before = LIVE.load(Relaxed);
        let allocs_before = ALLOCS.load(Relaxed);
        let (n_actions, _, g) = play(mode, seed, &mut rng, &mut bufs);
        end += LIVE.load(Relaxed) - before;
        allocs += ALLOCS.load(Relaxed) - allocs_before;
        actions += n_actions;
        let before = LIVE.load(Relaxed);
        let copy = g.clone();
        clone += LIVE.load(Relaxed) - before;
        drop(copy);
        drop(g);
    }
    COUNTING.store(false, Relaxed);
    let avg = |x: usize| x as f64 / n as f64;
    Heap {
        fresh: avg(fresh),
        end: avg(end),
        clone: avg(clone),
        allocs_per_game: avg(allocs),
        allocs_per_action: allocs as f64 / actions as f64,
    }
}

fn main() {
    let c = config();
    println!(
        "random_games: mode {:?}, {} repetitions of {}, one thread",
        c.mode,
        c.reps,
        match c.games {
            Some(n) => format!("{n} games"),
            None => format!("{:.1} s", c.secs),
        }
    );
    // Warm-up: the catalog, the allocator, the caches.
    let _ = run(
        &Config {
            secs: 0.2,
            games: None,
            reps: 1,
            mode: c.mode,
        },
        usize::MAX >> 8,
    );
    let mut reps: Vec<Totals> = (0..c.reps).map(|r| run(&c, r)).collect();
    for (i, t) in reps.iter().enumerate() {
        println!(
            "  rep {i}: {:>8} games in {:.3} s = {:>9.0} games/s, {:>10.0} actions/s",
            t.games,
            t.elapsed.as_secs_f64(),
            t.games_per_sec(),
            t.actions as f64 / t.elapsed.as_secs_f64()
        );
    }
    reps.sort_by(|a, b| a.games_per_sec().total_cmp(&b.games_per_sec()));
    let m = reps[reps.len() / 2];
    let secs = m.elapsed.as_secs_f64();
    let h = heap_per_game(c.mode, 200);
    println!("median repetition:");
    println!("  games/s            {:>12.0}", m.games_per_sec());
    println!("  actions/s          {:>12.0}", m.actions as f64 / secs);
    println!("  µs/game            {:>12.2}", 1e6 * secs / m.games as f64);
    println!("  ns/action          {:>12.1}", 1e9 * secs / m.actions as f64);
    println!("  actions/game       {:>12.1}", m.actions as f64 / m.games as f64);
    println!("  rounds/game        {:>12.2}", m.rounds as f64 / m.games as f64);
    println!("size_of::<Game>()    {:>12} bytes", size_of::<Game>());
    println!(
        "heap per game        {:>12.0} bytes after setup, {:.0} at the end, {:.0} per clone of a finished game",
        h.fresh, h.end, h.clone
    );
    println!(
        "memory per game      {:>12.0} bytes (size_of + heap at the end)",
        size_of::<Game>() as f64 + h.end
    );
    println!(
        "heap allocations     {:>12.1} per game, {:.2} per action (apply + legal_actions_into of both seats)",
        h.allocs_per_game, h.allocs_per_action
    );
    let floor = 10_000.0;
    if c.mode == Mode::Full {
        let verdict = if m.games_per_sec() >= floor { "meets" } else { "BELOW" };
        println!("floor: {floor:.0} full games/s on one core: {verdict}");
    }
}
