// @vitest-environment happy-dom
// The client's round results against the real engine: random whole games played by the engine
// (`evr views`, crates/cli/src/views.rs), each viewer's messages replayed through the client's own
// store, and at every step the round outcome the client derives compared with the `round_decided`
// entry the viewer's log carries for that round. Whatever the client shows before that entry has
// come is a guess; whatever it shows after must be the engine's.
//
//   target/release/evr views --games 200 --fields viewer,mode,phase,round,rounds,pending,outcome,log > /tmp/views.jsonl
//   EVR_ENGINE_VIEWS=/tmp/views.jsonl npx vitest run -c vitest.engine.config.ts
import { render } from "preact";
import { describe, expect, it } from "vitest";
import { setLanguage } from "../src/i18n";
import type { LogEntry, RoundResult, ServerMsg, View } from "../src/net/protocol";
import { type RoundOutcome, roundOutcome, vpByRound } from "../src/state/derived";
import { GameStore } from "../src/state/store";
import { RoundSummary } from "../src/ui/Event";
import { welcome } from "../test/fakes";

// The tests run in Node; reading the file needs no Node type declarations this way.
interface NodeProcess {
  env: Record<string, string | undefined>;
  getBuiltinModule(id: "node:fs"): { readFileSync(path: string, encoding: "utf8"): string };
}
const proc = (globalThis as unknown as { process: NodeProcess }).process;

/** One game as one viewer received it (`evr views`). */
interface ViewerGame {
  seed: number;
  viewer: View["viewer"];
  view: View;
  updates: { changes: Extract<ServerMsg, { type: "update" }>["changes"]; events: LogEntry[] }[];
}

// At least this many games, and this many moments with a round waiting for a choice before its
// winner is known, or the test proves nothing.
const MIN_GAMES = 200;
const MIN_UNDETERMINED = 500;
// The view's fields the store, `roundOutcome` and `vpByRound` read (`evr views --fields`).
const NEEDED_FIELDS = ["phase", "round", "rounds", "pending", "outcome", "log"] as const;

type Decided = Extract<RoundOutcome, { state: "decided" }>;

/** The fields a decided outcome shares with the engine's result, as the engine has them. */
function engineFields(r: RoundResult): Omit<Decided, "state" | "vp_after"> {
  const { vp_after: _, ...rest } = r;
  return { ...rest, reason: r.reason! };
}

function shownFields(o: Decided): Omit<Decided, "state" | "vp_after"> {
  const { state: _s, vp_after: _v, ...rest } = o;
  return rest;
}

/** `expect(actual).toEqual(wanted)`, only called on a difference: a million `expect`s take seconds. */
function same(actual: unknown, wanted: unknown, message: string): void {
  if (!equal(actual, wanted)) expect(actual, message).toEqual(wanted);
}
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!a || !b || typeof a !== "object" || typeof b !== "object") return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

// Rendering every step would take minutes: every undetermined moment and each round's first
// decided moment are rendered, which covers both states in every viewer's eyes.
const panel = document.createElement("div");
/** The text of the panel the table shows for `round` (Table.tsx: RoundSummary of the round's outcome). */
function panelText(view: View, round: number): string {
  render(<RoundSummary outcome={roundOutcome(view, round)!} tutorial={view.mode === "tutorial"} />, panel);
  return panel.textContent ?? "";
}

/** Words the panel may say only once the engine has decided the round (English). */
const ONLY_WHEN_DECIDED = [/wins the event/, /Nobody wins/, / takes /, /goes face down/, /\+2 Direct Assault/, /BUST/];

interface Tally {
  games: number;
  steps: number;
  decidedChecks: number;
  undetermined: number;
  rendered: number;
  chartPoints: number;
}

function loadGames(): ViewerGame[] {
  const path = proc.env.EVR_ENGINE_VIEWS;
  if (!path) throw new Error("EVR_ENGINE_VIEWS is not set: run `evr views` (see the top of this file)");
  const text = proc.getBuiltinModule("node:fs").readFileSync(path, "utf8");
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as ViewerGame);
}

/** The welcome this viewer would get as the game starts. */
function welcomeOf(g: ViewerGame): ServerMsg {
  const msg = welcome(0, g.view, null, g.view.log);
  if (msg.type === "welcome") {
    msg.you =
      g.viewer === "spectator" || g.viewer === "omniscient"
        ? { role: "spectator" }
        : { role: "seat", faction: g.viewer.seat };
  }
  return msg;
}

/** Replays one viewer's game through the store and checks every step; adds to `t`. */
function checkGame(g: ViewerGame, t: Tally): void {
  const who = `seed ${g.seed}, viewer ${JSON.stringify(g.viewer)}`;
  for (const f of NEEDED_FIELDS) {
    if (!(f in g.view)) throw new Error(`${who}: the views lack "${f}" (see --fields at the top of this file)`);
  }
  // Where each round's `round_decided` comes in this viewer's log: step 0 is the welcome.
  const decidedAt = new Map<number, { step: number; result: RoundResult }>();
  const logs = [g.view.log, ...g.updates.map((u) => u.events)];
  logs.forEach((events, step) => {
    for (const e of events) if (e.type === "round_decided") decidedAt.set(e.result.round, { step, result: e.result });
  });
  const store = new GameStore();
  store.apply(welcomeOf(g));
  const views: View[] = [store.view.value!];
  g.updates.forEach((u, i) => {
    store.apply({ type: "update", seq: i + 1, changes: u.changes, events: u.events });
    views.push(store.view.value!);
  });
  const last = views[views.length - 1]!;
  expect(last.outcome, `${who}: the game did not end`).not.toBeNull();
  // VP at the end of each round, as the engine has them once the game is over.
  const finalVp = new Map(last.rounds.map((r) => [r.round, r.vp_after] as const));
  // Every round played is decided in this viewer's log, and is in the view when that entry comes.
  for (const r of last.rounds) expect(decidedAt.has(r.round), `${who}: round ${r.round} never decided`).toBe(true);
  for (const [round, { step }] of decidedAt) {
    expect(
      views[step]!.rounds.some((r) => r.round === round),
      `${who}, step ${step}: round ${round}`,
    ).toBe(true);
  }

  views.forEach((view, step) => {
    t.steps++;
    const at = `${who}, step ${step}`;
    for (const r of view.rounds) {
      const o = roundOutcome(view, r.round);
      const known = decidedAt.get(r.round);
      const decided = known !== undefined && known.step <= step;
      if (!decided) {
        const text = panelText(view, r.round);
        t.rendered++;
        for (const w of ONLY_WHEN_DECIDED) {
          expect(text, `${at}: the panel of round ${r.round}, not yet decided in the log, says ${w}`).not.toMatch(w);
        }
        expect(o?.state, `${at}: round ${r.round} is shown as ${o?.state} before the log decides it`).toBe(
          "undetermined",
        );
        if (o?.state !== "undetermined") continue;
        // In an engine-played game a round waits only for a choice (R-5.2: Support): name it.
        const p = view.pending;
        expect(p, `${at}: round ${r.round} undetermined with nothing pending`).not.toBeNull();
        expect(o.waiting, `${at}: what round ${r.round} waits for`).toEqual({ owner: p!.owner, source: p!.source });
        expect(text, `${at}: the panel of round ${r.round}`).toContain("the winner is decided next");
        t.undetermined++;
        continue;
      }
      if (o?.state !== "decided") {
        expect(o?.state, `${at}: round ${r.round} is decided in the log`).toBe("decided");
        continue;
      }
      same(shownFields(o), engineFields(known.result), `${at}: round ${r.round}`);
      if (o.vp_after) same(o.vp_after, finalVp.get(r.round), `${at}: VP after round ${r.round}`);
      t.decidedChecks++;
      if (known.step === step) {
        const text = panelText(view, r.round);
        t.rendered++;
        const line = o.winner
          ? `${o.winner === "rebel" ? "Rebel" : "Imperial"} wins the event`
          : "Nobody wins the event";
        expect(text, `${at}: the panel of round ${r.round}`).toContain(line);
        o.direct_assault.forEach((da, i) => {
          const sum = `${o.totals_at_reveal[i]} +2 Direct Assault = ${o.totals[i]}`;
          if (da) expect(text, `${at}: the panel of round ${r.round}`).toContain(sum);
        });
      }
    }
    // The chart: a point only for a round the log has decided, at the VP the round ends with.
    for (const p of vpByRound(view)) {
      const known = decidedAt.get(p.round);
      if (!known || known.step > step) expect.fail(`${at}: chart point for round ${p.round}, not decided in the log`);
      same(p.vp, finalVp.get(p.round), `${at}: chart point of round ${p.round}`);
      t.chartPoints++;
    }
  });
  t.games++;
}

describe("round results against the engine", () => {
  it("every round outcome the client shows is the engine's round_decided, and none before it", () => {
    setLanguage("en");
    const games = loadGames();
    const t: Tally = { games: 0, steps: 0, decidedChecks: 0, undetermined: 0, rendered: 0, chartPoints: 0 };
    for (const g of games) checkGame(g, t);
    render(null, panel);
    const seeds = new Set(games.map((g) => g.seed)).size;
    expect(games.length, "three viewers per game").toBe(3 * seeds);
    console.info(
      `${seeds} games, ${t.games} viewer games, ${t.steps} steps; ${t.decidedChecks} decided outcomes checked, ` +
        `${t.undetermined} undetermined moments, ${t.rendered} panels rendered, ${t.chartPoints} chart points`,
    );
    expect(seeds, "games played").toBeGreaterThanOrEqual(MIN_GAMES);
    expect(t.undetermined, "moments with a round's winner not yet known").toBeGreaterThanOrEqual(MIN_UNDETERMINED);
  });
});
