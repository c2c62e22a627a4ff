//! `evr-arena`: the ladder. Duplicate pairs between players (frozen anchors and today's levels),
//! Elo differences with 95% intervals, a sequential test, and a rating list.
//!
//! ```text
//! evr-arena match  <A> <B> [--pairs N]                          Elo of A over B
//! evr-arena sprt   <A> <B> --elo0 E0 --elo1 E1 [--max-pairs N]  stops at H0, H1 or N pairs
//! evr-arena ladder <P1> <P2> ... [--pairs N] [--adjacent K] [--anchor NAME]
//! evr-arena rate   <results.jsonl>... [--anchor NAME]           the rating list of saved pairs
//! evr-arena values [--games N] [--seed S]                      the playouts' value table (Rust)
//! common: [--seed S] [--threads T] [--out results.jsonl]
//! ```
//!
//! Players: random, greedy, flatmc, frozen-easy, frozen-normal, frozen-hard, easy, normal, hard,
//! with an optional budget `@iN` (iterations or playouts) and/or `,tMS` (wall-time cap), e.g.
//! `flatmc@i4000`, `hard@t800`. Pair `i` uses game seed `seed * 1_000_003 + i` (see
//! `evr_bot::arena`). `ladder` plays every pairing of players at most K apart in the given order
//! (all pairings by default) and fits Bradley–Terry ratings anchored at `--anchor` (default
//! `random`) = 0. `--out` appends one JSON line per pair (`a`, `b`, `seed`, `half_points`) that
//! `rate` reads back. A failing or panicking game prints its seed and fails the run.

use std::collections::BTreeMap;
use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use evr_bot::arena::stats::{MatchResult, Pentanomial, Sprt, SprtState, bradley_terry_intervals};
use evr_bot::arena::{PairRecord, PlayerSpec, pair_seed, play_pair};

struct Opts {
    mode: String,
    players: Vec<PlayerSpec>,
    files: Vec<String>,
    pairs: u64,
    seed: u64,
    threads: usize,
    elo0: f64,
    elo1: f64,
    adjacent: usize,
    anchor: String,
    out: Option<String>,
    games: u32,
}

fn usage() -> &'static str {
    "usage: evr-arena match|sprt|ladder <players...> | rate <files...> | values [--games N] [--pairs N] [--max-pairs N] [--elo0 E] \
     [--elo1 E] [--seed S] [--threads T] [--adjacent K] [--anchor NAME] [--out FILE]"
}

fn parse() -> Result<Opts> {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let mut o = Opts {
        mode: raw.first().cloned().context(usage())?,
        players: Vec::new(),
        files: Vec::new(),
        pairs: 100,
        seed: 1,
        threads: 1,
        elo0: 0.0,
        elo1: 10.0,
        adjacent: usize::MAX,
        anchor: "random".into(),
        out: None,
        games: 200_000,
    };
    let mut i = 1;
    while i < raw.len() {
        let arg = raw[i].as_str();
        if !arg.starts_with("--") {
            if o.mode == "rate" {
                o.files.push(arg.to_string());
            } else {
                o.players.push(PlayerSpec::parse(arg)?);
            }
            i += 1;
            continue;
        }
        let v = raw
            .get(i + 1)
            .with_context(|| format!("{arg} needs a value\n{}", usage()))?;
        let num = || v.parse::<f64>().with_context(|| format!("{arg}: not a number: {v}"));
        match arg {
            "--pairs" | "--max-pairs" => o.pairs = num()? as u64,
            "--seed" => o.seed = v.parse().with_context(|| format!("--seed: {v}"))?,
            "--threads" => o.threads = (num()? as usize).max(1),
            "--elo0" => o.elo0 = num()?,
            "--elo1" => o.elo1 = num()?,
            "--adjacent" => o.adjacent = (num()? as usize).max(1),
            "--anchor" => o.anchor = v.clone(),
            "--out" => o.out = Some(v.clone()),
            "--games" => o.games = num()? as u32,
            _ => bail!("unknown flag {arg}\n{}", usage()),
        }
        i += 2;
    }
    let need = match o.mode.as_str() {
        "match" | "sprt" => 2,
        "ladder" => 2,
        "rate" | "values" => 0,
        _ => bail!(usage()),
    };
    if o.players.len() < need || (need == 2 && o.mode != "ladder" && o.players.len() != 2) {
        bail!(usage());
    }
    Ok(o)
}

/// Plays pairs `0..pairs` of `a` against `b` on `threads` workers, handing each result to
/// `on_pair` in index order; `on_pair` returning false stops the run (pairs under way finish).
fn run_pairs(
    o: &Opts,
    a: &PlayerSpec,
    b: &PlayerSpec,
    mut on_pair: impl FnMut(&PairRecord) -> bool + Send,
) -> Result<u64> {
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let failures: Mutex<Vec<String>> = Mutex::new(Vec::new());
    // Finished pairs waiting for their predecessors, and the next index to hand over.
    let state: Mutex<(BTreeMap<u64, PairRecord>, u64)> = Mutex::new((BTreeMap::new(), 0));
    let on_pair = Mutex::new(&mut on_pair);
    std::thread::scope(|s| {
        for _ in 0..o.threads {
            s.spawn(|| {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= o.pairs {
                        break;
                    }
                    let played = catch_unwind(AssertUnwindSafe(|| play_pair(a, b, o.seed, i)));
                    let record = match played {
                        Ok(Ok(r)) => r,
                        Ok(Err(e)) => {
                            failures.lock().map(|mut f| f.push(format!("pair {i}: {e}"))).ok();
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                        Err(_) => {
                            let seed = pair_seed(o.seed, i);
                            failures
                                .lock()
                                .map(|mut f| f.push(format!("pair {i}: a game panicked (game seed {seed})")))
                                .ok();
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                    };
                    let Ok(mut st) = state.lock() else { break };
                    st.0.insert(i, record);
                    loop {
                        let want = st.1;
                        let Some(r) = st.0.remove(&want) else { break };
                        st.1 += 1;
                        let go_on = on_pair.lock().map(|mut f| f(&r)).unwrap_or(false);
                        if !go_on {
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap_or_default();
    for f in &failures {
        eprintln!("error: {f}");
    }
    if !failures.is_empty() {
        bail!("{} pairs failed (their game seeds are above)", failures.len());
    }
    Ok(state.into_inner().map(|s| s.1).unwrap_or(0))
}

/// Collects the pairs of one match: pentanomial, decision times, and the saved lines.
struct Tally {
    penta: Pentanomial,
    pairs: Vec<u8>,
    times: [Vec<Duration>; 2],
}

impl Tally {
    fn new() -> Tally {
        Tally {
            penta: Pentanomial::default(),
            pairs: Vec::new(),
            times: [Vec::new(), Vec::new()],
        }
    }

    fn add(&mut self, r: &PairRecord, a: &PlayerSpec, b: &PlayerSpec, out: &mut Option<std::fs::File>) {
        let h = r.half_points();
        self.penta.add(h);
        self.pairs.push(h);
        for g in &r.games {
            for who in 0..2 {
                self.times[who].extend(g.times[who].iter().copied());
            }
        }
        if let Some(f) = out {
            let line = serde_json::json!({"a": a.name(), "b": b.name(), "seed": r.seed, "half_points": h});
            writeln!(f, "{line}").ok();
        }
    }

    fn report(&mut self, a: &PlayerSpec, b: &PlayerSpec, took: Duration) {
        let c = self.penta.counts;
        println!(
            "{} vs {}: {} pairs ({} games) in {:.0} s; pair scores 0/0.5/1/1.5/2: {} {} {} {} {}",
            a.name(),
            b.name(),
            self.penta.pairs(),
            2 * self.penta.pairs(),
            took.as_secs_f64(),
            c[0],
            c[1],
            c[2],
            c[3],
            c[4]
        );
        if let Some(e) = self.penta.elo() {
            println!(
                "  score {:.1}%, Elo {:+.0} [95% {:+.0}, {:+.0}] (per-pair variance {:.4})",
                100.0 * e.score,
                e.elo,
                e.lo,
                e.hi,
                e.variance
            );
        }
        for (who, p) in [(0, a), (1, b)] {
            let t = &mut self.times[who];
            t.sort();
            let q = |x: f64| {
                t.get(((t.len().max(1) - 1) as f64 * x).round() as usize)
                    .copied()
                    .unwrap_or_default()
            };
            let mean = t.iter().sum::<Duration>().as_secs_f64() / t.len().max(1) as f64;
            println!(
                "  {}: {} decisions with a choice, mean {:.1} ms, median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
                p.name(),
                t.len(),
                mean * 1e3,
                q(0.5).as_secs_f64() * 1e3,
                q(0.99).as_secs_f64() * 1e3,
                t.last().copied().unwrap_or_default().as_secs_f64() * 1e3
            );
        }
    }
}

fn open_out(o: &Opts) -> Result<Option<std::fs::File>> {
    o.out
        .as_ref()
        .map(|p| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .with_context(|| format!("cannot open {p}"))
        })
        .transpose()
}

fn play_match(o: &Opts, a: &PlayerSpec, b: &PlayerSpec, out: &mut Option<std::fs::File>) -> Result<Tally> {
    let started = Instant::now();
    let mut tally = Tally::new();
    run_pairs(o, a, b, |r| {
        tally.add(r, a, b, out);
        true
    })?;
    tally.report(a, b, started.elapsed());
    Ok(tally)
}

fn sprt(o: &Opts, out: &mut Option<std::fs::File>) -> Result<()> {
    let (a, b) = (&o.players[0], &o.players[1]);
    let test = Sprt::new(o.elo0, o.elo1);
    let (lower, upper) = test.bounds();
    println!(
        "SPRT {} vs {}: H0 elo <= {}, H1 elo >= {}, alpha = beta = 0.05, LLR bounds [{lower:.3}, {upper:.3}], at most {} pairs",
        a.name(),
        b.name(),
        o.elo0,
        o.elo1,
        o.pairs
    );
    let started = Instant::now();
    let mut tally = Tally::new();
    let mut state = SprtState::Continue;
    run_pairs(o, a, b, |r| {
        tally.add(r, a, b, out);
        state = test.state(&tally.penta);
        state == SprtState::Continue
    })?;
    tally.report(a, b, started.elapsed());
    let llr = tally.penta.llr(o.elo0, o.elo1);
    let verdict = match state {
        SprtState::H1 => "H1 accepted: A is better by at least elo1",
        SprtState::H0 => "H0 accepted: A is not better by elo1 (at most elo0)",
        SprtState::Continue => "no decision within the maximum number of pairs",
    };
    println!("  LLR {llr:.3} after {} pairs: {verdict}", tally.penta.pairs());
    Ok(())
}

fn print_ratings(names: &[String], matches: &[MatchResult], anchor: &str) -> Result<()> {
    let anchor_i = names
        .iter()
        .position(|n| n == anchor)
        .with_context(|| format!("the anchor {anchor} played no game"))?;
    let ratings = bradley_terry_intervals(names.len(), matches, anchor_i, 1000, 7);
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|x, y| ratings[*y].0.total_cmp(&ratings[*x].0));
    println!(
        "rating list (Bradley-Terry ML over the games, 1 virtual draw per match; 95% bootstrap over pairs, 1000 resamplings; {anchor} = 0):"
    );
    for i in order {
        let pairs: usize = matches
            .iter()
            .filter(|m| m.a == i || m.b == i)
            .map(|m| m.pairs.len())
            .sum();
        let (r, lo, hi) = ratings[i];
        println!(
            "  {:<22} {:>+6.0}  [{:+.0}, {:+.0}]  {pairs} pairs",
            names[i], r, lo, hi
        );
    }
    Ok(())
}

fn ladder(o: &Opts, out: &mut Option<std::fs::File>) -> Result<()> {
    let names: Vec<String> = o.players.iter().map(PlayerSpec::name).collect();
    let mut matches = Vec::new();
    for i in 0..o.players.len() {
        for j in i + 1..o.players.len() {
            if j - i > o.adjacent {
                continue;
            }
            let t = play_match(o, &o.players[j], &o.players[i], out)?;
            matches.push(MatchResult {
                a: j,
                b: i,
                pairs: t.pairs,
            });
        }
    }
    print_ratings(&names, &matches, &o.anchor)
}

fn rate(o: &Opts) -> Result<()> {
    let mut names: Vec<String> = Vec::new();
    let mut by_pairing: BTreeMap<(usize, usize), Vec<u8>> = BTreeMap::new();
    let index = |n: &str, names: &mut Vec<String>| match names.iter().position(|x| x == n) {
        Some(i) => i,
        None => {
            names.push(n.to_string());
            names.len() - 1
        }
    };
    for f in &o.files {
        let text = std::fs::read_to_string(f).with_context(|| format!("cannot read {f}"))?;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).with_context(|| format!("{f}: {line}"))?;
            let (Some(a), Some(b), Some(h)) = (v["a"].as_str(), v["b"].as_str(), v["half_points"].as_u64()) else {
                bail!("{f}: not a pair line: {line}");
            };
            let (ia, ib) = (index(a, &mut names), index(b, &mut names));
            by_pairing.entry((ia, ib)).or_default().push(h.min(4) as u8);
        }
    }
    let matches: Vec<MatchResult> = by_pairing
        .into_iter()
        .map(|((a, b), pairs)| {
            let mut p = Pentanomial::default();
            pairs.iter().for_each(|h| p.add(*h));
            if let Some(e) = p.elo() {
                println!(
                    "{} vs {}: {} pairs, Elo {:+.0} [{:+.0}, {:+.0}]",
                    names[a],
                    names[b],
                    pairs.len(),
                    e.elo,
                    e.lo,
                    e.hi
                );
            }
            MatchResult { a, b, pairs }
        })
        .collect();
    print_ratings(&names, &matches, &o.anchor)
}

/// Prints `evr_bot::value::TABLE` as measured by `games` games of the playout policy.
fn values(o: &Opts) {
    let fit = evr_bot::value::fit(o.games, o.seed);
    let table = fit.table();
    println!("/// The Rebel's chance to win, in 1/10,000, at the start of a round with `[rebel VP][imperial VP]`");
    println!("/// (`evr-arena values --games {} --seed {}`).", o.games, o.seed);
    println!("pub const TABLE: [[u16; SIDE]; SIDE] = [");
    for row in table {
        let cells: Vec<String> = row.iter().map(|c| format!("{c:>5}")).collect();
        println!("    [{}],", cells.join(", "));
    }
    println!("];");
    let decided: Vec<String> = fit.decided.iter().map(|r| format!("{r:?}")).collect();
    eprintln!("round starts per cell [rebel VP][imperial VP]:\n{}", decided.join("\n"));
}

fn main() -> Result<()> {
    let o = parse()?;
    if o.mode == "values" {
        values(&o);
        return Ok(());
    }
    let mut out = open_out(&o)?;
    println!(
        "evr-arena {}: seed {}, {} thread(s); budgets: {}",
        o.mode,
        o.seed,
        o.threads,
        if o.players.iter().any(|p| p.time_limit.is_some()) {
            "wall-time caps (depends on the machine)"
        } else {
            "iterations only (a pure function of the seed)"
        }
    );
    match o.mode.as_str() {
        "match" => play_match(&o, &o.players[0], &o.players[1], &mut out).map(|_| ()),
        "sprt" => sprt(&o, &mut out),
        "ladder" => ladder(&o, &mut out),
        _ => rate(&o),
    }
}
