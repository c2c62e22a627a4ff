// The players' clocks, in a room with a time control, on the players' and spectators' screens: each
// side's time left, counting down smoothly while it runs (from the server's last word, which every
// update and every reconnect renews), red under 30 seconds. In a room played over days each side
// owing a decision shows its deadline instead: the time left and the moment, in this viewer's time
// zone, red in the last fifth (when the server's "time is running out" reminder goes).
import { useEffect, useState } from "preact/hooks";
import { lang, sideName, t } from "../i18n";
import { deadlineText, timeLeft } from "../i18n/time";
import { FACTIONS, type Faction } from "../net/protocol";
import type { GameStore } from "../state/store";

/** Under this many milliseconds a clock is shown in red (and with tenths under ten seconds). */
const LOW_MS = 30_000;

/** `ms` as people read a clock: `1:05:09`, `9:41`, `0:07.3`. */
export function formatClock(ms: number): string {
  const clamped = Math.max(0, ms);
  const total = Math.floor(clamped / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  if (h > 0) return `${h}:${pad(m)}:${pad(s)}`;
  if (clamped < 10_000) return `0:${pad(s)}.${Math.floor((clamped % 1000) / 100)}`;
  return `${m}:${pad(s)}`;
}

/** Each side's time left at page time `now`. */
export function clockLeft(store: GameStore, now: number): [number, number] | null {
  const c = store.clock.value;
  if (!c) return null;
  const spent = Math.max(0, now - c.at);
  return [0, 1].map((i) => Math.max(0, c.view.remaining_ms[i]! - (c.view.running[i] ? spent : 0))) as [number, number];
}

/** The last fifth of a decision's days: shown in red. */
export function deadlineLow(msLeft: number, daysPerDecision: number, dayMs = DAY_MS): boolean {
  return msLeft < (daysPerDecision * dayMs) / 5;
}

const DAY_MS = 86_400_000;

export function Clocks({ store }: { store: GameStore }) {
  const c = store.clock.value;
  const [now, setNow] = useState(() => Date.now());
  const running = !!c && (c.view.running[0] || c.view.running[1]);
  const days = c?.view.days_per_decision ?? null;
  useEffect(() => {
    if (!running) return;
    // days left change slowly: a second is fine, and spares a phone
    const id = setInterval(() => setNow(Date.now()), days === null ? 100 : 1000);
    return () => clearInterval(id);
  }, [running, days]);
  const left = clockLeft(store, running ? now : (c?.at ?? now));
  if (!c || !left) return null;
  const me = store.me.value;
  if (days !== null) return <Deadlines store={store} left={left} days={days} />;
  return (
    <section class="clocks" aria-label={t("clock.title")}>
      {FACTIONS.map((f: Faction, i) => {
        const ms = left[i]!;
        const on = c.view.running[i];
        return (
          <span key={f} class={`clock ${f}${on ? " running" : ""}${ms < LOW_MS ? " low" : ""}`}>
            <span class="who">
              {sideName(f)}
              {me === f ? t("common.youMark") : ""}
            </span>{" "}
            {on && (
              <span class="run-mark" aria-hidden="true">
                ▶
              </span>
            )}
            <span class="time" role="timer" aria-live="off">
              {formatClock(ms)}
            </span>
            {on && <span class="run-text"> {t("clock.running")}</span>}
          </span>
        );
      })}
    </section>
  );
}

/** A room played over days: each side's deadline, the running side filled and marked like a live clock. */
function Deadlines({ store, left, days }: { store: GameStore; left: [number, number]; days: number }) {
  const c = store.clock.value!;
  const me = store.me.value;
  const l = lang.value;
  return (
    <section class="clocks deadlines" aria-label={t("corr.title")}>
      {FACTIONS.map((f: Faction, i) => {
        const on = c.view.running[i];
        const at = c.view.deadline_unix_ms[i];
        const ms = left[i]!;
        const low = on && deadlineLow(ms, days);
        return (
          <span key={f} class={`clock deadline ${f}${on ? " running" : ""}${low ? " low" : ""}`}>
            <span class="who">
              {sideName(f)}
              {me === f ? t("common.youMark") : ""}
            </span>{" "}
            {on && (
              <span class="run-mark" aria-hidden="true">
                ▶
              </span>
            )}
            {on && at !== null ? (
              <>
                <span class="time" role="timer" aria-live="off">
                  {timeLeft(l, ms)}
                </span>{" "}
                <time class="until" dateTime={new Date(at).toISOString()}>
                  {deadlineText(l, at)}
                </time>
                <span class="run-text"> {t("corr.toMove")}</span>
              </>
            ) : (
              <span class="idle">{t("corr.waiting")}</span>
            )}
          </span>
        );
      })}
    </section>
  );
}
