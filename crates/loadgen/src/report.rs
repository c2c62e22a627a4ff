//! Counters and the final report.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::Args;

#[derive(Default)]
pub struct Stats {
    finished: AtomicU64,
    failed: AtomicU64,
    actions: AtomicU64,
    /// Microseconds from sending an action to the opponent receiving the resulting view.
    latencies: Mutex<Vec<u64>>,
    errors: Mutex<BTreeMap<String, u64>>,
    first_failure: Mutex<Option<String>>,
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

    pub fn action(&self) {
        self.actions.fetch_add(1, Ordering::Relaxed);
    }

    pub fn latency(&self, d: Duration) {
        if let Ok(mut l) = self.latencies.lock() {
            l.push(d.as_micros() as u64);
        }
    }

    pub fn error(&self, code: &str) {
        if let Ok(mut e) = self.errors.lock() {
            *e.entry(code.to_string()).or_default() += 1;
        }
    }

    pub fn error_count(&self) -> u64 {
        self.errors.lock().map(|e| e.values().sum()).unwrap_or(0)
    }

    pub fn report(
        &self,
        args: &Args,
        elapsed: Duration,
        rss_end_kib: Option<u64>,
        rss_peak_kib: Option<u64>,
    ) -> String {
        let mut lat = self.latencies.lock().map(|l| l.clone()).unwrap_or_default();
        lat.sort_unstable();
        let pct = |p: f64| -> f64 {
            if lat.is_empty() {
                return 0.0;
            }
            let i = ((lat.len() as f64 - 1.0) * p).round() as usize;
            lat[i] as f64 / 1000.0
        };
        let actions = self.actions.load(Ordering::Relaxed);
        let secs = elapsed.as_secs_f64().max(1e-9);
        let errors = self.errors.lock().map(|e| e.clone()).unwrap_or_default();
        let mut out = String::new();
        out.push_str(&format!(
            "matches: {} concurrent, {} finished, {} failed ({} sockets)\n",
            args.matches,
            self.finished.load(Ordering::Relaxed),
            self.failed.load(Ordering::Relaxed),
            args.matches * 3
        ));
        out.push_str(&format!(
            "actions: {actions} in {secs:.1} s = {:.0} actions/s (think time {}-{} ms)\n",
            actions as f64 / secs,
            args.think_min_ms,
            args.think_max_ms
        ));
        out.push_str(&format!(
            "latency action -> opponent's view: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} samples)\n",
            pct(0.5),
            pct(0.99),
            lat.last().map_or(0.0, |m| *m as f64 / 1000.0),
            lat.len()
        ));
        out.push_str(&format!("errors: {} {:?}\n", errors.values().sum::<u64>(), errors));
        if let Ok(Some(f)) = self.first_failure.lock().map(|f| f.clone()) {
            out.push_str(&format!("first failure: {f}\n"));
        }
        match (rss_end_kib, rss_peak_kib) {
            (Some(end), Some(peak)) => out.push_str(&format!(
                "server RSS: {:.1} MiB at the end, {:.1} MiB peak\n",
                end as f64 / 1024.0,
                peak as f64 / 1024.0
            )),
            _ => out.push_str("server RSS: not measured (external server)\n"),
        }
        out
    }
}
