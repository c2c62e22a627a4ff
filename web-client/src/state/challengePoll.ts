// The challenges' poll (issue 30): signed in, the page asks `GET /api/account/challenges` every 15 s
// while its tab is visible, so a challenge shows at once while the page is open without a socket of
// its own; a hidden tab asks nothing (a background tab is not a player waiting), and asks at once when
// it is shown again. The server answers cheaply (proto/PROTOCOL.md says a page may ask every 15 s).
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

/** Runs `ask` now (when visible) and every `POLL_MS` while the tab is visible, one at a time; returns
 *  how to stop. A failed ask is tried again at the next tick. */
export function pollWhileVisible(ask: () => Promise<unknown>, env: PollEnv, every = POLL_MS): () => void {
  let timer: unknown = null;
  let stopped = false;
  let asking = false;
  const schedule = () => {
    if (timer !== null) env.clearTimeout(timer);
    timer = stopped || !env.visible() ? null : env.setTimeout(tick, every);
  };
  const tick = () => {
    timer = null;
    if (stopped || !env.visible() || asking) return;
    asking = true;
    ask()
      .catch(() => undefined)
      .finally(() => {
        asking = false;
        schedule();
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
  return () => {
    stopped = true;
    unlisten();
    if (timer !== null) env.clearTimeout(timer);
  };
}
