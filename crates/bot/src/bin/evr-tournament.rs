//! `evr-tournament`: seeded games between two bot levels, sides swapped equally. Besides each
//! player's results it reports the sides' (is the Rebel or the Imperial seat favoured, and by how
//! many rating points: `evr-ratings`' side advantage).
//!
//! ```text
//! evr-tournament <level-a> <level-b> [--games N] [--iters N] [--iters-b N] [--seed N]
//!                [--threads N] [--time-ms N] [--split-levels N] [--value-rounds N]
//! ```
//!
//! Levels: random, easy, normal, hard. `--iters` is the ISMCTS iteration budget of a search level
//! (both sides unless `--iters-b` is given); the default is the level's own. `--time-ms` adds a
//! wall-time cap per decision (off by default: results then depend only on the seed);
//! `--split-levels` the search's `BotConfig::split_levels` (0: no kept tree, the search before
//! stop 45, which the sides' measurement plays), `--value-rounds` its `BotConfig::value_rounds` (0:
//! playouts to the end of the game, the search before stop 46, which the sides' measurement plays).
//! Game `i`
//! uses seed `seed * 1_000_003 + i`; A plays the Rebel in even games and the Imperial in odd
//! ones. The report gives A's wins, draws and losses, its score (a draw counts half) with a 95%
//! Wilson interval, and the time per decision (decisions with more than one legal action).

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use evr_bot::{Bot, BotConfig, Level};
use evr_rules::{Faction, Game, Mode, Viewer};

struct Args {
    a: Level,
    b: Level,
    games: usize,
    iters_a: Option<u32>,
    iters_b: Option<u32>,
    seed: u64,
    threads: usize,
    time_ms: Option<u64>,
    split_levels: Option<u8>,
    value_rounds: Option<u8>,
}

fn usage() -> String {
    "usage: evr-tournament <level-a> <level-b> [--games N] [--iters N] [--iters-b N] [--seed N] [--threads N] \
     [--time-ms N] [--split-levels N] [--value-rounds N]\nlevels: random, easy, normal, hard"
        .to_string()
}

fn parse_args() -> Result<Args> {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let mut positional = Vec::new();
    let mut args = Args {
        a: Level::Hard,
        b: Level::Random,
        games: 100,
        iters_a: None,
        iters_b: None,
        seed: 1,
        threads: 2,
        time_ms: None,
        split_levels: None,
        value_rounds: None,
    };
    let mut i = 0;
    while i < raw.len() {
        let flag = raw[i].as_str();
        if !flag.starts_with("--") {
            positional.push(flag.to_string());
            i += 1;
            continue;
        }
        if flag == "--help" {
            bail!(usage());
        }
        let value = raw
            .get(i + 1)
            .with_context(|| format!("{flag} needs a value\n{}", usage()))?;
        let num = || {
            value
                .parse::<u64>()
                .with_context(|| format!("{flag}: not a number: {value}"))
        };
        match flag {
            "--games" => args.games = num()? as usize,
            "--iters" => args.iters_a = Some(num()? as u32),
            "--iters-b" => args.iters_b = Some(num()? as u32),
            "--seed" => args.seed = num()?,
            "--threads" => args.threads = (num()? as usize).max(1),
            "--time-ms" => args.time_ms = Some(num()?),
            "--split-levels" => args.split_levels = Some(u8::try_from(num()?).context("--split-levels: 0 to 255")?),
            "--value-rounds" => args.value_rounds = Some(u8::try_from(num()?).context("--value-rounds: 0 to 255")?),
            _ => bail!("unknown flag {flag}\n{}", usage()),
        }
        i += 2;
    }
    if positional.len() != 2 {
        bail!(usage());
    }
    args.a = Level::parse(&positional[0]).with_context(|| format!("unknown level {}\n{}", positional[0], usage()))?;
    args.b = Level::parse(&positional[1]).with_context(|| format!("unknown level {}\n{}", positional[1], usage()))?;
    if args.iters_b.is_none() {
        args.iters_b = args.iters_a;
    }
    Ok(args)
}

struct GameResult {
    /// 1 A won, 0 draw, -1 B won.
    score: i8,
    /// The side that won (`None`: a draw): whichever player had it.
    winner: Option<Faction>,
    times: [Vec<Duration>; 2],
    decisions: usize,
    /// The slowest decision of each side: its time and what it was about.
    slowest: [(Duration, String); 2],
}

fn config(level: Level, seed: u64, iters: Option<u32>, args: &Args) -> BotConfig {
    let mut c = BotConfig::with_iterations(level, seed, iters.unwrap_or(level.default_iterations()));
    c.time_limit = args.time_ms.map(Duration::from_millis);
    if let Some(n) = args.split_levels {
        c.split_levels = n;
    }
    if let Some(n) = args.value_rounds {
        c.value_rounds = n;
    }
    c
}

fn play(args: &Args, i: usize) -> Result<GameResult> {
    let seed = args.seed.wrapping_mul(1_000_003).wrapping_add(i as u64);
    let mut game = Game::new(Mode::Full, seed).map_err(|e| anyhow::anyhow!("{e}"))?;
    let a_seat = if i.is_multiple_of(2) {
        Faction::Rebel
    } else {
        Faction::Imperial
    };
    let mut bots = [
        Bot::new(config(args.a, seed ^ 0xA, args.iters_a, args)),
        Bot::new(config(args.b, seed ^ 0xB, args.iters_b, args)),
    ];
    let mut times = [Vec::new(), Vec::new()];
    let mut slowest = [(Duration::ZERO, String::new()), (Duration::ZERO, String::new())];
    let mut decisions = 0;
    while !game.is_over() {
        let seats = game.seats_to_act();
        if seats.is_empty() {
            bail!("game {i}: nobody can act");
        }
        for f in seats {
            let who = usize::from(f != a_seat);
            let view = game.view(Viewer::Seat(f));
            if view.legal_actions.is_empty() {
                continue;
            }
            let t = Instant::now();
            let action = bots[who].decide(&view);
            if view.legal_actions.len() > 1 {
                let took = t.elapsed();
                times[who].push(took);
                if took > slowest[who].0 {
                    let step = view
                        .pending
                        .as_ref()
                        .map(|p| format!(", pending {:?}", p.step))
                        .unwrap_or_default();
                    slowest[who] = (
                        took,
                        format!(
                            "game {i}, round {}, {:?}{step}, {} legal actions",
                            view.round,
                            view.phase,
                            view.legal_actions.len()
                        ),
                    );
                }
            }
            decisions += 1;
            game.apply(f, action)
                .map_err(|e| anyhow::anyhow!("game {i}: illegal action {action:?}: {e}"))?;
        }
    }
    let winner = game.outcome().and_then(|o| o.winner);
    let score = match winner {
        Some(w) if w == a_seat => 1,
        Some(_) => -1,
        None => 0,
    };
    Ok(GameResult {
        score,
        winner,
        times,
        decisions,
        slowest,
    })
}

/// 95% Wilson score interval of `p` over `n` trials.
fn wilson(p: f64, n: f64) -> (f64, f64) {
    if n == 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.959_964f64;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

fn percentile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let idx = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[idx.min(sorted.len() - 1)]
}

fn main() -> Result<()> {
    let args = parse_args()?;
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<GameResult>>> = Mutex::new((0..args.games).map(|_| None).collect());
    let started = Instant::now();
    let errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..args.threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= args.games {
                        break;
                    }
                    match play(&args, i) {
                        Ok(r) => {
                            if let Ok(mut v) = results.lock() {
                                v[i] = Some(r);
                            }
                        }
                        Err(e) => {
                            if let Ok(mut v) = errors.lock() {
                                v.push(format!("{e:#}"));
                            }
                        }
                    }
                }
            });
        }
    });
    let errors = errors.into_inner().unwrap_or_default();
    for e in &errors {
        eprintln!("error: {e}");
    }
    let results: Vec<GameResult> = results.into_inner().unwrap_or_default().into_iter().flatten().collect();
    let n = results.len();
    let wins = results.iter().filter(|r| r.score == 1).count();
    let draws = results.iter().filter(|r| r.score == 0).count();
    let losses = n - wins - draws;
    let score = (wins as f64 + draws as f64 / 2.0) / (n.max(1) as f64);
    let (lo, hi) = wilson(score, n as f64);
    let (wlo, whi) = wilson(wins as f64 / n.max(1) as f64, n as f64);
    let iters = |l: Level, it: Option<u32>| match l {
        Level::Normal | Level::Hard => format!(" ({} iterations)", it.unwrap_or(l.default_iterations())),
        _ => String::new(),
    };
    println!(
        "{}{} vs {}{}: {} games, seed {}, {} threads, {:.1} s",
        args.a.name(),
        iters(args.a, args.iters_a),
        args.b.name(),
        iters(args.b, args.iters_b),
        n,
        args.seed,
        args.threads,
        started.elapsed().as_secs_f64()
    );
    println!("A ({}): {wins} wins, {draws} draws, {losses} losses", args.a.name());
    println!(
        "A win rate {:.1}% [95% Wilson {:.1}%, {:.1}%]; score (draw = 1/2) {:.1}% [{:.1}%, {:.1}%]",
        100.0 * wins as f64 / n.max(1) as f64,
        100.0 * wlo,
        100.0 * whi,
        100.0 * score,
        100.0 * lo,
        100.0 * hi
    );
    // the sides, whoever played them (each player had each side in half the games): is a seat favoured?
    let rebel = results.iter().filter(|r| r.winner == Some(Faction::Rebel)).count();
    let imperial = results.iter().filter(|r| r.winner == Some(Faction::Imperial)).count();
    let rebel_score = (rebel as f64 + draws as f64 / 2.0) / (n.max(1) as f64);
    let (rlo, rhi) = wilson(rebel_score, n as f64);
    let points = |p: f64| evr_ratings::SideAdvantage::from_rebel_score(p).rebel_points;
    println!(
        "sides: Rebel {rebel} wins, Imperial {imperial} wins, {draws} draws; Rebel score {:.1}% [95% Wilson {:.1}%, {:.1}%], \
         a Rebel edge of {:+.0} rating points [{:+.0}, {:+.0}]",
        100.0 * rebel_score,
        100.0 * rlo,
        100.0 * rhi,
        points(rebel_score),
        points(rlo),
        points(rhi)
    );
    for (who, level) in [(0, args.a), (1, args.b)] {
        let mut t: Vec<Duration> = results.iter().flat_map(|r| r.times[who].iter().copied()).collect();
        t.sort();
        println!(
            "{} {}: {} decisions with a choice, {} over 1 s, median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            if who == 0 { "A" } else { "B" },
            level.name(),
            t.len(),
            t.iter().filter(|d| **d > Duration::from_secs(1)).count(),
            percentile(&t, 0.5).as_secs_f64() * 1e3,
            percentile(&t, 0.99).as_secs_f64() * 1e3,
            t.last().copied().unwrap_or_default().as_secs_f64() * 1e3
        );
        if let Some((d, what)) = results.iter().map(|r| &r.slowest[who]).max_by_key(|(d, _)| *d) {
            println!("  slowest: {:.2} ms ({what})", d.as_secs_f64() * 1e3);
        }
    }
    let decisions: usize = results.iter().map(|r| r.decisions).sum();
    println!("{decisions} decisions in all");
    if !errors.is_empty() {
        bail!("{} games failed", errors.len());
    }
    Ok(())
}
