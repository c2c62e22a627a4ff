// `version_mismatch`: the server speaks another protocol version than this page, which was loaded
// from an older (or, during a rolling upgrade, a newer) release. Reloading the page fetches the
// server's own client, so the page reloads itself — a few times at most, since during a rolling
// restart the reload may be answered by a node that still serves the old page (docker/README.md,
// "Upgrades: a rolling restart"). The guard lives in the tab's sessionStorage, which survives a
// reload; without one there is no guard, so no reload either: the message asks the player to.
import type { Connection } from "./connection";
import type { Clock, KeyValueStorage, TimerHandle } from "./env";

const KEY = "evr.versionReloads";
/** Reloads in a row before the page stops and leaves the message on screen. */
export const MAX_VERSION_RELOADS = 3;
/** A mismatch this long after the last reload starts a new series (a later upgrade). */
export const VERSION_RELOAD_RESET_MS = 10 * 60_000;
/** Before each reload of a series: the first soon, the others once the roll has gone further.
 *  Half of each is random, so that a node's players do not all reload in the same instant. */
const DELAYS_MS = [1_000, 5_000, 20_000] as const;

interface Series {
  /** when the last reload of the series was planned (ms since the epoch) */
  at: number;
  count: number;
}

function readSeries(storage: KeyValueStorage, now: number): Series {
  try {
    const s = JSON.parse(storage.getItem(KEY) ?? "null") as Partial<Series> | null;
    if (s && typeof s.at === "number" && typeof s.count === "number" && now - s.at < VERSION_RELOAD_RESET_MS) {
      return { at: s.at, count: s.count };
    }
  } catch {
    /* unreadable: a new series */
  }
  return { at: now, count: 0 };
}

/**
 * Whether to reload after a `version_mismatch`, and after how long (ms); `null`: the guard says no
 * (this tab reloaded `MAX_VERSION_RELOADS` times in a row already, or cannot remember that it did).
 * A planned reload is counted at once, so that the page that comes back knows it.
 */
export function planVersionReload(storage: KeyValueStorage | null, now: number, random: number): number | null {
  if (!storage) return null;
  const series = readSeries(storage, now);
  if (series.count >= MAX_VERSION_RELOADS) return null;
  try {
    storage.setItem(KEY, JSON.stringify({ at: now, count: series.count + 1 }));
  } catch {
    return null;
  }
  const base = DELAYS_MS[Math.min(series.count, DELAYS_MS.length - 1)];
  return Math.round(base / 2 + (base / 2) * Math.min(Math.max(random, 0), 1));
}

export interface VersionReloadDeps {
  /** the tab's sessionStorage (`null` if it cannot be used) */
  storage: KeyValueStorage | null;
  clock: Clock;
  random?: () => number;
  reload: () => void;
}

/** Reloads the page (guarded, see `planVersionReload`) when `conn` is refused with
 *  `version_mismatch`. Returns the unsubscribe, which also cancels a planned reload. */
export function reloadOnVersionMismatch(conn: Connection, deps: VersionReloadDeps): () => void {
  let timer: TimerHandle | null = null;
  const unsubscribe = conn.subscribe((e) => {
    if (e.type !== "status" || e.status !== "failed" || e.code !== "version_mismatch" || timer !== null) return;
    const delay = planVersionReload(deps.storage, deps.clock.now(), (deps.random ?? Math.random)());
    if (delay !== null) timer = deps.clock.setTimeout(deps.reload, delay);
  });
  return () => {
    unsubscribe();
    if (timer !== null) deps.clock.clearTimeout(timer);
  };
}

/** The tab's `sessionStorage` if it works, else `null` (no guard: no automatic reload). */
export function tabStorage(): KeyValueStorage | null {
  try {
    const s = globalThis.sessionStorage;
    if (!s) return null;
    const k = "__evr_probe__";
    s.setItem(k, "1");
    s.removeItem(k);
    return s;
  } catch {
    return null;
  }
}
