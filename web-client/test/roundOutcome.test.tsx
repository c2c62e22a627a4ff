// @vitest-environment happy-dom
// A round's result is shown only once the engine has decided it (issue 21): `roundOutcome` and the
// panels built on it, in every language. The same rule over whole engine-played games is checked by
// engine/roundOutcome.test.tsx.
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LANGS, type Lang, setLanguage, translate } from "../src/i18n";
import type { PendingView, RoundResult, View } from "../src/net/protocol";
import { roundOutcome, vpByRound } from "../src/state/derived";
import { GameStore } from "../src/state/store";
import { RoundSummary } from "../src/ui/Event";
import { GameOver } from "../src/ui/GameOver";
import { Table } from "../src/ui/Table";
import { makeView, noGamesFetch, welcome } from "./fakes";

/** Round 2 as the engine holds it at the reveal: the Imperial's Direct Assault not yet added, nobody
 *  bust, no winner, 0 VP — placeholders until victory is determined. */
const revealed: RoundResult = {
  round: 2,
  event: "Battle of Hoth",
  objective: 17,
  strategies: ["support", "direct_assault"],
  totals_at_reveal: [14, 15],
  eligible: [true, true],
  direct_assault: [false, false],
  totals: [14, 15],
  bust: [false, false],
  would_be_winner: null,
  deception: false,
  winner: null,
  reason: null,
  vp_after: [0, 0],
};

/** The same round once decided: the Direct Assault makes 17, the Imperial wins. */
const decided: RoundResult = {
  ...revealed,
  direct_assault: [false, true],
  totals: [14, 17],
  would_be_winner: "imperial",
  winner: "imperial",
  reason: "higher_total",
};

const support: PendingView = {
  owner: "rebel",
  source: { kind: "strategy", strategy: "support" },
  step: { step: "add_reserve_character" },
  options: null,
  seen_cards: null,
  seen_events: null,
};

/** The table while the Rebel chooses its Support, as the Imperial sees it. */
const waitingView = (): View =>
  makeView({
    viewer: { seat: "imperial" },
    phase: "dominance",
    round: 2,
    turn: null,
    pending: support,
    rounds: [{ ...decided, round: 1, vp_after: [0, 3] }, revealed],
  });

let root: HTMLElement;
beforeEach(() => {
  root = document.createElement("div");
  document.body.appendChild(root);
  vi.stubGlobal("fetch", noGamesFetch);
});
afterEach(() => {
  render(null, root);
  root.remove();
  setLanguage("en");
  vi.unstubAllGlobals();
});

describe("roundOutcome", () => {
  it("is undetermined until the engine gives a reason, naming the choice it waits for", () => {
    const o = roundOutcome(waitingView(), 2);
    expect(o).toMatchObject({ state: "undetermined", totals_at_reveal: [14, 15], eligible: [true, true] });
    expect(o?.state === "undetermined" && o.waiting).toEqual({ owner: "rebel", source: support.source });
    expect(o).not.toHaveProperty("winner");
    expect(o).not.toHaveProperty("totals");
    expect(roundOutcome(waitingView(), 3)).toBeNull();
  });

  it("is decided with the engine's fields; its VP only once the engine has written them", () => {
    // decided, an event effect's choice pending: the round's cleanup (which writes vp_after) is to come
    const v = makeView({ phase: "dominance", round: 2, pending: support, rounds: [decided] });
    expect(roundOutcome(v, 2)).toMatchObject({
      state: "decided",
      winner: "imperial",
      totals: [14, 17],
      vp_after: null,
    });
    expect(vpByRound(v)).toEqual([]);
    const next = makeView({ phase: "planning", round: 3, rounds: [{ ...decided, vp_after: [0, 3] }] });
    expect(roundOutcome(next, 2)).toMatchObject({ state: "decided", vp_after: [0, 3] });
    expect(vpByRound(next)).toEqual([{ round: 2, vp: [0, 3] }]);
    // the undetermined round has no point on the chart, the decided one before it has
    expect(vpByRound(waitingView())).toEqual([{ round: 1, vp: [0, 3] }]);
  });
});

describe("the round panel while the winner is not known", () => {
  const decidedWords = (l: Lang) => [
    translate(l, "dominance.noWinner"),
    translate(l, "dominance.toBottom"),
    translate(l, "dominance.winner", { side: translate(l, "factionShort.imperial") }),
    translate(l, "dominance.directAssault"),
    translate(l, "table.bust"),
  ];

  for (const { id } of LANGS) {
    it(`says who is choosing what, and no result (${id})`, () => {
      setLanguage(id);
      act(() => render(<RoundSummary outcome={roundOutcome(waitingView(), 2)!} />, root));
      const text = root.textContent ?? "";
      const who = translate(id, "pending.other", { side: translate(id, "factionShort.rebel"), source: "" });
      expect(text).toContain(who);
      expect(text).toContain(translate(id, "dominance.decidedNext"));
      for (const w of decidedWords(id)) expect(text).not.toContain(w);
    });
  }

  it("on the table: the reveal's totals, the choice, no winner; then the decided result", () => {
    setLanguage("en");
    const store = new GameStore();
    store.apply(welcome(3, waitingView()));
    act(() => render(<Table store={store} />, root));
    const panel = () => root.querySelector(".dominance")?.textContent ?? "";
    expect(panel()).toContain("Rebel is choosing: Support — the winner is decided next");
    expect(panel()).not.toMatch(/wins the event|Nobody|\+2 Direct Assault|face down/);
    act(() => store.apply({ type: "update", seq: 4, changes: { pending: null, rounds: [decided] }, events: [] }));
    expect(panel()).toContain("Imperial wins the event — higher total");
    expect(panel()).toContain("15 +2 Direct Assault = 17");
  });

  it("on the table the round's result comes before a choice, brief while the viewer's choice is open", () => {
    setLanguage("en");
    const store = new GameStore();
    store.apply(welcome(3, waitingView()));
    act(() => render(<Table store={store} />, root));
    const side = () => [...root.querySelector(".board-side")!.children].map((e) => e.className);
    // the other side's choice: a notice after the whole result (its going moves nothing)
    expect(side().findIndex((c) => c.includes("notice"))).toBeGreaterThan(side().indexOf("panel dominance"));
    expect(root.querySelector(".dominance")!.textContent).toContain(translate("en", "dominance.explain"));
    // the viewer's own choice: under a brief result, the strategies turned up without their texts
    const mine = { ...support, options: [{ kind: "play", play: false }] } as PendingView;
    act(() => store.apply({ type: "update", seq: 4, changes: { pending: mine }, events: [] }));
    const brief = side().findIndex((c) => c.includes("dominance brief"));
    expect(brief).toBeGreaterThan(-1);
    expect(side().findIndex((c) => c === "dialog")).toBeGreaterThan(brief);
    const panel = root.querySelector(".dominance")!;
    expect(panel.textContent).not.toContain(translate("en", "dominance.explain"));
    expect(panel.querySelectorAll(".reveal-card .what")).toHaveLength(2);
    expect(panel.querySelector(".reveal-card .does")).toBeNull();
    expect(panel.querySelector(".sr-only > table.reveal")).not.toBeNull();
    // shown again for the same round, the strategies are not turned up a second time
    expect(panel.classList.contains("still")).toBe(true);
  });

  it("at the game's end (a claimed win) the undecided round says so, not who was choosing", () => {
    setLanguage("en");
    const store = new GameStore();
    store.apply(welcome(3, waitingView()));
    act(() => render(<GameOver store={store} />, root));
    const panel = root.querySelector(".dominance")?.textContent ?? "";
    expect(panel).toContain("The winner of this round has not been decided.");
    expect(panel).not.toMatch(/is choosing|wins the event|Nobody/);
  });
});
