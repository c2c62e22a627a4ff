//! Counters, the latency histogram and the report: a text summary for people and one JSON line for
//! scripts (also how a driver process hands its figures to the parent that merges them).

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Latencies in buckets 2% wide (log scale): merging across driver processes keeps percentiles
/// within 2%, with constant memory however long the run.
const BUCKET_GROWTH: f64 = 1.02;

fn bucket_of(micros: u64) -> u32 {
    if micros <= 1 {
        0
    } else {
        ((micros as f64).ln() / BUCKET_GROWTH.ln()).floor() as u32
    }
}

fn micros_of(bucket: u32) -> f64 {
    BUCKET_GROWTH.powi(bucket as i32 + 1)
}

/// What one driver measured, as it is merged and printed.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Figures {
    pub matches_finished: u64,
    pub matches_failed: u64,
    pub actions: u64,
    pub errors: BTreeMap<String, u64>,
    pub first_failure: Option<String>,
    /// Latency histogram: bucket → count (action sent → the opponent's view received).
    pub latency: BTreeMap<u32, u64>,
    pub max_latency_us: u64,
    /// The codes of the rooms played in.
    #[serde(default)]
    pub rooms: Vec<String>,
    /// Matches whose three viewers were all connected (the play under way).
    #[serde(default)]
    pub matches_started: u64,
    /// Players by how many times their connection was lost and made again (`--reconnect`).
    #[serde(default)]
    pub player_reconnects: BTreeMap<u32, u64>,
    /// The spectators' reconnections, all together.
    #[serde(default)]
    pub spectator_reconnects: u64,
    /// `shutting_down` messages received (the server stopping, or a room moving to another node).
    #[serde(default)]
    pub told_to_reconnect: u64,
    /// Connection attempts that failed (each tried again later).
    #[serde(default)]
    pub dial_failures: u64,
    /// Every acknowledged action (`--record-acks`).
    #[serde(default)]
    pub acks: Vec<Ack>,
}

/// An action the server acknowledged: it must be in the store, once, at `seq`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ack {
    pub room: String,
    pub action_id: String,
    pub seq: u64,
}

impl Figures {
    pub fn merge(&mut self, other: Figures) {
        self.matches_finished += other.matches_finished;
        self.matches_failed += other.matches_failed;
        self.actions += other.actions;
        for (k, v) in other.errors {
            *self.errors.entry(k).or_default() += v;
        }
        if self.first_failure.is_none() {
            self.first_failure = other.first_failure;
        }
        for (k, v) in other.latency {
            *self.latency.entry(k).or_default() += v;
        }
        self.max_latency_us = self.max_latency_us.max(other.max_latency_us);
        self.rooms.extend(other.rooms);
        self.matches_started += other.matches_started;
        for (k, v) in other.player_reconnects {
            *self.player_reconnects.entry(k).or_default() += v;
        }
        self.spectator_reconnects += other.spectator_reconnects;
        self.told_to_reconnect += other.told_to_reconnect;
        self.dial_failures += other.dial_failures;
        self.acks.extend(other.acks);
    }

    /// Reconnections per player: (mean, max, players counted).
    pub fn reconnects_per_player(&self) -> (f64, u32, u64) {
        let players: u64 = self.player_reconnects.values().sum();
        let total: u64 = self.player_reconnects.iter().map(|(k, n)| u64::from(*k) * n).sum();
        let max = self.player_reconnects.keys().next_back().copied().unwrap_or(0);
        (total as f64 / players.max(1) as f64, max, players)
    }

    pub fn error_count(&self) -> u64 {
        self.errors.values().sum()
    }

    /// The latency at quantile `q` in milliseconds.
    pub fn percentile_ms(&self, q: f64) -> f64 {
        let total: u64 = self.latency.values().sum();
        if total == 0 {
            return 0.0;
        }
        let rank = ((total as f64 - 1.0) * q).round() as u64;
        let mut seen = 0;
        for (b, n) in &self.latency {
            seen += n;
            if seen > rank {
                return micros_of(*b).min(self.max_latency_us as f64) / 1000.0;
            }
        }
        self.max_latency_us as f64 / 1000.0
    }
}

/// Shared by a driver's match tasks.
#[derive(Default)]
pub struct Stats {
    finished: AtomicU64,
    failed: AtomicU64,
    actions: AtomicU64,
    latency: Mutex<BTreeMap<u32, u64>>,
    max_latency_us: AtomicU64,
    errors: Mutex<BTreeMap<String, u64>>,
    first_failure: Mutex<Option<String>>,
    rooms: Mutex<Vec<String>>,
    started: AtomicU64,
    player_reconnects: Mutex<BTreeMap<u32, u64>>,
    spectator_reconnects: AtomicU64,
    told_to_reconnect: AtomicU64,
    dial_failures: AtomicU64,
    acks: Mutex<Vec<Ack>>,
}

impl Stats {
    pub fn finished(&self) {
        self.finished.fetch_add(1, Ordering::Relaxed);
    }

    pub fn failed(&self, why: &str) {
        self.failed.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut f) = self.first_failure.lock() {
            f.get_or_insert_with(|| why.to_string());
        }
        self.error("match_failed");
    }

    /// An action reached the opponent `d` after it was sent.
    pub fn action(&self, d: Duration) {
        self.actions.fetch_add(1, Ordering::Relaxed);
        let us = d.as_micros() as u64;
        self.max_latency_us.fetch_max(us, Ordering::Relaxed);
        if let Ok(mut l) = self.latency.lock() {
            *l.entry(bucket_of(us)).or_default() += 1;
        }
    }

    /// A match is played in room `code`.
    pub fn room(&self, code: &str) {
        if let Ok(mut r) = self.rooms.lock() {
            r.push(code.to_string());
        }
    }

    /// A match has its three viewers connected.
    pub fn started(&self) {
        self.started.fetch_add(1, Ordering::Relaxed);
    }

    /// Matches under way or done (for a watcher of the run's progress).
    pub fn matches_started(&self) -> u64 {
        self.started.load(Ordering::Relaxed)
    }

    /// Actions that reached the opponent so far (for a watcher of the run's progress).
    pub fn actions_so_far(&self) -> u64 {
        self.actions.load(Ordering::Relaxed)
    }

    /// A match ended: how many times each of its players, and its spectator, connected again.
    pub fn reconnected(&self, players: [u32; 2], spectator: u32) {
        if let Ok(mut r) = self.player_reconnects.lock() {
            for n in players {
                *r.entry(n).or_default() += 1;
            }
        }
        self.spectator_reconnects
            .fetch_add(u64::from(spectator), Ordering::Relaxed);
    }

    pub fn told_to_reconnect(&self) {
        self.told_to_reconnect.fetch_add(1, Ordering::Relaxed);
    }

    pub fn dial_failed(&self) {
        self.dial_failures.fetch_add(1, Ordering::Relaxed);
    }

    pub fn ack(&self, room: &str, action_id: String, seq: u64) {
        if let Ok(mut a) = self.acks.lock() {
            a.push(Ack {
                room: room.to_string(),
                action_id,
                seq,
            });
        }
    }

    pub fn error(&self, code: &str) {
        if let Ok(mut e) = self.errors.lock() {
            *e.entry(code.to_string()).or_default() += 1;
        }
    }

    pub fn figures(&self) -> Figures {
        Figures {
            matches_finished: self.finished.load(Ordering::Relaxed),
            matches_failed: self.failed.load(Ordering::Relaxed),
            actions: self.actions.load(Ordering::Relaxed),
            errors: self.errors.lock().map(|e| e.clone()).unwrap_or_default(),
            first_failure: self.first_failure.lock().ok().and_then(|f| f.clone()),
            latency: self.latency.lock().map(|l| l.clone()).unwrap_or_default(),
            max_latency_us: self.max_latency_us.load(Ordering::Relaxed),
            rooms: self.rooms.lock().map(|r| r.clone()).unwrap_or_default(),
            matches_started: self.started.load(Ordering::Relaxed),
            player_reconnects: self.player_reconnects.lock().map(|r| r.clone()).unwrap_or_default(),
            spectator_reconnects: self.spectator_reconnects.load(Ordering::Relaxed),
            told_to_reconnect: self.told_to_reconnect.load(Ordering::Relaxed),
            dial_failures: self.dial_failures.load(Ordering::Relaxed),
            acks: self.acks.lock().map(|a| a.clone()).unwrap_or_default(),
        }
    }
}

/// The server's side of a run, read from `/proc`.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct ServerUse {
    pub cpu_seconds: Option<f64>,
    pub rss_baseline_kib: Option<u64>,
    pub rss_peak_kib: Option<u64>,
    pub rss_growth: Option<RssGrowth>,
}

/// The server's RSS sampled over a run: `(seconds since the start, KiB)`.
#[derive(Clone, Debug, Default)]
pub struct RssSamples {
    samples: Vec<(f64, u64)>,
}

/// How the server's memory moved after the warm-up.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RssGrowth {
    /// RSS when the warm-up ended.
    pub after_warm_up_kib: u64,
    /// The highest RSS after that.
    pub later_peak_kib: u64,
    /// The last RSS sampled.
    pub end_kib: u64,
    /// `later_peak` over `after_warm_up`, in percent.
    pub percent: f64,
}

impl RssSamples {
    pub fn add(&mut self, at: Duration, kib: u64) {
        self.samples.push((at.as_secs_f64(), kib));
    }

    pub fn peak(&self) -> Option<u64> {
        self.samples.iter().map(|(_, k)| *k).max()
    }

    /// The growth after `warm_up`; `None` if the run did not last past it.
    pub fn growth_after(&self, warm_up: Duration) -> Option<RssGrowth> {
        let w = warm_up.as_secs_f64();
        let mut later = self.samples.iter().filter(|(t, _)| *t >= w);
        let (_, start) = *later.next()?;
        let later_peak = later.clone().map(|(_, k)| *k).max().unwrap_or(start).max(start);
        let end = later.next_back().map_or(start, |(_, k)| *k);
        Some(RssGrowth {
            after_warm_up_kib: start,
            later_peak_kib: later_peak,
            end_kib: end,
            percent: 100.0 * (later_peak as f64 - start as f64) / start.max(1) as f64,
        })
    }
}

/// The final JSON line.
#[derive(Serialize)]
pub struct Summary<'a> {
    pub matches: usize,
    pub sockets: usize,
    pub think_ms: [u64; 2],
    pub seconds: f64,
    pub actions: u64,
    pub actions_per_second: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub p999_ms: f64,
    pub max_ms: f64,
    pub matches_finished: u64,
    pub matches_failed: u64,
    pub errors: u64,
    pub error_codes: &'a BTreeMap<String, u64>,
    pub server_cpu_seconds: Option<f64>,
    pub server_cpu_us_per_action: Option<f64>,
    pub server_cpu_percent: Option<f64>,
    pub server_rss_peak_kib: Option<u64>,
    pub server_rss_kib_per_match: Option<f64>,
    pub server_rss_growth: Option<RssGrowth>,
    pub reconnects_per_player_mean: f64,
    pub reconnects_per_player_max: u32,
    pub spectator_reconnects: u64,
    pub told_to_reconnect: u64,
}

impl<'a> Summary<'a> {
    pub fn new(
        matches: usize,
        think_ms: [u64; 2],
        elapsed: Duration,
        f: &'a Figures,
        server: ServerUse,
    ) -> Summary<'a> {
        let secs = elapsed.as_secs_f64().max(1e-9);
        Summary {
            matches,
            sockets: matches * 3,
            think_ms,
            seconds: secs,
            actions: f.actions,
            actions_per_second: f.actions as f64 / secs,
            p50_ms: f.percentile_ms(0.5),
            p99_ms: f.percentile_ms(0.99),
            p999_ms: f.percentile_ms(0.999),
            max_ms: f.max_latency_us as f64 / 1000.0,
            matches_finished: f.matches_finished,
            matches_failed: f.matches_failed,
            errors: f.error_count(),
            error_codes: &f.errors,
            server_cpu_seconds: server.cpu_seconds,
            server_cpu_us_per_action: server
                .cpu_seconds
                .filter(|_| f.actions > 0)
                .map(|c| c * 1e6 / f.actions as f64),
            server_cpu_percent: server.cpu_seconds.map(|c| 100.0 * c / secs),
            server_rss_peak_kib: server.rss_peak_kib,
            server_rss_kib_per_match: match (server.rss_peak_kib, server.rss_baseline_kib) {
                (Some(peak), Some(base)) if matches > 0 => Some(peak.saturating_sub(base) as f64 / matches as f64),
                _ => None,
            },
            server_rss_growth: server.rss_growth,
            reconnects_per_player_mean: f.reconnects_per_player().0,
            reconnects_per_player_max: f.reconnects_per_player().1,
            spectator_reconnects: f.spectator_reconnects,
            told_to_reconnect: f.told_to_reconnect,
        }
    }

    /// For people.
    pub fn text(&self, first_failure: Option<&str>) -> String {
        let mut out = format!(
            "matches: {} live ({} sockets), {} finished, {} failed\n\
             actions: {} in {:.1} s = {:.0} actions/s (think time {}-{} ms)\n\
             latency action -> opponent's view: p50 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms, max {:.2} ms\n\
             errors: {} {:?}\n",
            self.matches,
            self.sockets,
            self.matches_finished,
            self.matches_failed,
            self.actions,
            self.seconds,
            self.actions_per_second,
            self.think_ms[0],
            self.think_ms[1],
            self.p50_ms,
            self.p99_ms,
            self.p999_ms,
            self.max_ms,
            self.errors,
            self.error_codes
        );
        if let Some(f) = first_failure {
            out.push_str(&format!("first failure: {f}\n"));
        }
        if self.reconnects_per_player_max > 0 || self.spectator_reconnects > 0 {
            out.push_str(&format!(
                "reconnections: {:.2} per player (at most {}), {} of spectators; told to reconnect {} times\n",
                self.reconnects_per_player_mean,
                self.reconnects_per_player_max,
                self.spectator_reconnects,
                self.told_to_reconnect
            ));
        }
        match (self.server_cpu_seconds, self.server_cpu_us_per_action) {
            (Some(cpu), per) => out.push_str(&format!(
                "server CPU: {cpu:.1} s ({:.0}% of one core), {} per action\n",
                self.server_cpu_percent.unwrap_or(0.0),
                per.map_or("-".into(), |p| format!("{p:.0} µs"))
            )),
            _ => out.push_str("server CPU: not measured (give --server-pid for a server started apart)\n"),
        }
        if let Some(peak) = self.server_rss_peak_kib {
            out.push_str(&format!(
                "server RSS: {:.1} MiB peak, {} per live match\n",
                peak as f64 / 1024.0,
                self.server_rss_kib_per_match
                    .map_or("-".into(), |k| format!("{k:.1} KiB"))
            ));
        }
        if let Some(g) = self.server_rss_growth {
            out.push_str(&format!(
                "server RSS after the warm-up (the run's first half): {:.1} MiB, highest later {:.1} MiB (+{:.1}%), at the end {:.1} MiB\n",
                g.after_warm_up_kib as f64 / 1024.0,
                g.later_peak_kib as f64 / 1024.0,
                g.percent,
                g.end_kib as f64 / 1024.0
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_from_merged_histograms_stay_within_two_percent() {
        let (a, b) = (Stats::default(), Stats::default());
        for ms in 1..=1000u64 {
            let s = if ms % 2 == 0 { &a } else { &b };
            s.action(Duration::from_millis(ms));
        }
        let mut f = a.figures();
        f.merge(b.figures());
        assert_eq!(f.actions, 1000);
        for (q, want) in [(0.5, 500.0), (0.99, 990.0), (0.999, 999.0)] {
            let got = f.percentile_ms(q);
            assert!((got - want).abs() / want < 0.025, "q{q}: {got} vs {want}");
        }
        assert_eq!(f.max_latency_us, 1_000_000);
    }

    #[test]
    fn reconnections_per_player_merge_into_a_mean_and_a_max() {
        let (a, b) = (Stats::default(), Stats::default());
        a.reconnected([0, 2], 1);
        a.reconnected([1, 1], 0);
        b.reconnected([3, 1], 2);
        let mut f = a.figures();
        f.merge(b.figures());
        let (mean, max, players) = f.reconnects_per_player();
        assert_eq!((max, players, f.spectator_reconnects), (3, 6, 3));
        assert!((mean - 8.0 / 6.0).abs() < 1e-9, "{mean}");
        assert_eq!(Figures::default().reconnects_per_player(), (0.0, 0, 0));
    }

    #[test]
    fn growth_is_measured_from_the_end_of_the_warm_up() {
        let mut s = RssSamples::default();
        for (t, kib) in [(0, 100), (10, 900), (20, 1000), (30, 1040), (40, 1020)] {
            s.add(Duration::from_secs(t), kib);
        }
        assert_eq!(s.peak(), Some(1040));
        let g = s
            .growth_after(Duration::from_secs(20))
            .expect("samples after the warm-up");
        assert_eq!((g.after_warm_up_kib, g.later_peak_kib, g.end_kib), (1000, 1040, 1020));
        assert!((g.percent - 4.0).abs() < 1e-9);
        assert_eq!(s.growth_after(Duration::from_secs(50)), None);
    }
}
