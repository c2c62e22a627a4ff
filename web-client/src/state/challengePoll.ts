// Keeping the challenges fresh (issue 30): signed in, the page asks `GET /api/account/challenges`
// at once when told to (`poke`: the account's event stream said they changed, ui/social/challenges.ts),
// and on a slow poll while its tab is visible, for what no event tells (a challenge expiring) and for
// a browser whose stream is cut. A hidden tab asks nothing (a background tab is not a player
// waiting) and asks at once when it is shown again. One ask at a time; a poke during an ask asks
// again after it, since that ask may have read the list before the change.
// Framework-free: the visibility and the timers are given, so the tests drive them.

const POLL_MS = 15_000;

export type PollEnv = {
  readonly visible: () => boolean;
  /** Calls `f` when the visibility changes; returns how to stop. */
  readonly onVisibility: (f: () => void) => () => void;
  readonly setTimeout: (f: () => void, ms: number) => unknown;
  readonly clearTimeout: (id: unknown) => void;
};

export const browserPollEnv = (): PollEnv => ({
  visible: () => document.visibilityState === "visible",
  onVisibility: (f) => {
    document.addEventListener("visibilitychange", f);
    return () => document.removeEventListener("visibilitychange", f);
  },
  setTimeout: (f, ms) => globalThis.setTimeout(f, ms),
  clearTimeout: (id) => globalThis.clearTimeout(id as ReturnType<typeof setTimeout>),
});

export type Poll = {
  /** Asks now (after the ask under way, if any), when the tab is visible. */
  readonly poke: () => void;
  readonly stop: () => void;
};

/** Runs `ask` now (when visible) and every `every` ms while the tab is visible, one at a time. A
 *  failed ask is tried again at the next tick. */
export function pollWhileVisible(ask: () => Promise<unknown>, env: PollEnv, every = POLL_MS): Poll {
  let timer: unknown = null;
  let stopped = false;
  let asking = false;
  let again = false;
  const schedule = () => {
    if (timer !== null) env.clearTimeout(timer);
    timer = stopped || !env.visible() ? null : env.setTimeout(tick, every);
  };
  const tick = () => {
    if (asking) {
      again = true;
      return;
    }
    if (timer !== null) env.clearTimeout(timer);
    timer = null;
    if (stopped || !env.visible()) return;
    asking = true;
    ask()
      .catch(() => undefined)
      .finally(() => {
        asking = false;
        if (again) {
          again = false;
          tick();
        } else schedule();
      });
  };
  const unlisten = env.onVisibility(() => {
    if (env.visible()) tick();
    else if (timer !== null) {
      env.clearTimeout(timer);
      timer = null;
    }
  });
  tick();
  return {
    poke: tick,
    stop: () => {
      stopped = true;
      unlisten();
      if (timer !== null) env.clearTimeout(timer);
    },
  };
}
