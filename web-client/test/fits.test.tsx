// @vitest-environment happy-dom
// What the screens say and where (issue "fits and reads for everyone"): one "only you see this" per
// side, a running clock said in words, presets read as times, a game lost on time names its winner,
// Dominance explained, the fair shuffles said plainly first, the game-over screen's result and next
// steps first with an opponent's rematch offer at the top, card names breaking only between words.
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLanguage } from "../src/i18n";
import type { View } from "../src/net/protocol";
import { roundOutcome } from "../src/state/derived";
import { GameStore } from "../src/state/store";
import { resultText } from "../src/ui/Archive";
import { CardFace, longestWordEm } from "../src/ui/Card";
import { Clocks } from "../src/ui/Clocks";
import { RoundSummary } from "../src/ui/Event";
import { FairnessPanel } from "../src/ui/Fairness";
import { GameOver } from "../src/ui/GameOver";
import { Landing } from "../src/ui/Landing";
import { Table } from "../src/ui/Table";
import { FAIR_COMMITMENT, FAIR_SALT, FAIR_SEED, makeView, noGamesFetch, PRESENCE, ROOM, welcome } from "./fakes";

let root: HTMLElement;
beforeEach(() => {
  root = document.createElement("div");
  document.body.appendChild(root);
  setLanguage("en");
  vi.stubGlobal("fetch", noGamesFetch);
});
afterEach(() => {
  render(null, root);
  root.remove();
  vi.unstubAllGlobals();
});

function storeWith(view: View): GameStore {
  const s = new GameStore();
  s.apply(welcome(3, view));
  s.apply({ type: "presence", presence: PRESENCE });
  return s;
}

describe("a side's strip", () => {
  it("marks what only this player sees once, not on every line", () => {
    const view = makeView({ phase: "struggle", turn: "rebel" });
    view.rebel = {
      ...view.rebel,
      strategy: { state: "known", strategy: "support" },
      characters: ["Han Solo", "Chewbacca", "Leia Organa", "Yoda"] as View["rebel"]["characters"],
    };
    const store = storeWith(view);
    act(() => render(<Table store={store} />, root));
    const strip = root.querySelector(".strip.rebel")!;
    expect(strip.textContent).toContain("Your characters");
    expect(strip.querySelectorAll(".secret-mark").length).toBe(1);
  });
});

describe("clocks", () => {
  it("say which one runs in words, not by an outline alone", () => {
    const store = storeWith(makeView());
    store.apply({
      type: "clock",
      clock: {
        remaining_ms: [60_000, 50_000],
        running: [true, false],
        deadline_unix_ms: [null, null],
        days_per_decision: null,
      },
    });
    act(() => render(<Clocks store={store} />, root));
    const running = root.querySelector(".clock.running")!;
    expect(running.querySelector(".run-text")?.textContent).toContain("(running)");
    expect(running.querySelector(".run-text")?.classList.contains("sr-only")).toBe(false);
    expect(root.querySelectorAll(".run-text").length).toBe(1);
  });

  it("the create form reads its presets as times", () => {
    act(() => render(<Landing />, root));
    const labels = [...root.querySelectorAll('input[name="clock"]')].map((i) => i.closest("label")?.textContent);
    expect(labels).toContain("10 min + 10 s");
    expect(labels).toContain("20 min + 20 s");
  });
});

describe("results", () => {
  it("a game lost on time names its winner", () => {
    // each name isolated from the sentence around it (U+2068 … U+2069)
    expect(resultText(null, "imperial", "time", ["Ana", "Ben"])).toBe(
      "\u2068Ben\u2069 wins — \u2068Ana\u2069 ran out of time.",
    );
  });

  it("Dominance is explained where a round's result is shown", () => {
    const view = makeView({
      phase: "planning",
      round: 2,
      rounds: [
        {
          round: 1,
          event: "Battle of Hoth",
          objective: 17,
          strategies: ["support", "deception"],
          totals_at_reveal: [15, 12],
          eligible: [true, true],
          direct_assault: [false, false],
          totals: [15, 12],
          bust: [false, false],
          would_be_winner: "rebel",
          deception: false,
          winner: "rebel",
          reason: "higher_total",
          vp_after: [3, 0],
        },
      ],
    });
    act(() => render(<RoundSummary outcome={roundOutcome(view, 1)!} />, root));
    expect(root.querySelector(".dominance-explain")?.textContent).toMatch(/^Dominance: both strategies are revealed/);
    // the reveal's two cards, each side's strategy face up with what it does
    const cards = [...root.querySelectorAll(".reveal-cards .reveal-card")];
    expect(cards.map((c) => c.className)).toEqual(["reveal-card rebel", "reveal-card imperial"]);
    expect(cards.map((c) => c.querySelector(".what")?.textContent)).toEqual(["Support", "Deception"]);
    expect(cards[1]!.querySelector(".does")?.textContent).toMatch(/\w/);
    // a tutorial has no strategies: no cards
    act(() => render(<RoundSummary outcome={roundOutcome(view, 1)!} tutorial />, root));
    expect(root.querySelector(".reveal-cards")).toBeNull();
  });

  it("the fair shuffles open with a plain sentence; the hex and the command come below, in their own drawer", () => {
    act(() =>
      render(<FairnessPanel fairness={{ commitment: FAIR_COMMITMENT, seed: FAIR_SEED, salt: FAIR_SALT }} open />, root),
    );
    const first = root.querySelector(".fairness > summary + p")!;
    expect(first.textContent).not.toMatch(/[0-9a-f]{16}|SHA-256|sha256sum/);
    expect(root.querySelector(".fairness > .fair-tech .fair-values")).not.toBeNull();
    expect(root.querySelector(".fairness > .fair-tech .fair-cmd")).not.toBeNull();
  });
});

describe("game over", () => {
  it("the result and the next steps come first; an opponent's rematch offer at the very top", () => {
    const store = storeWith(
      makeView({ phase: "game_over", outcome: { winner: "rebel", reason: "victory_points", vp: [7, 3] } }),
    );
    store.apply({ type: "room", room: { ...ROOM, rematch_requested: [false, true] } });
    act(() => render(<GameOver store={store} />, root));
    const over = root.querySelector(".gameover")!;
    expect(over.firstElementChild?.classList.contains("rematch-offer")).toBe(true);
    expect(over.firstElementChild?.textContent).toContain("Imperial offers a rematch");
    const top = over.querySelector(".over-top")!;
    expect(top.querySelector(".headline")?.textContent).toBe("You win!");
    expect(top.querySelector(".replay-panel")).not.toBeNull();
    // the next steps come right after the offer: not below the chart, the last round or the archive
    expect([...over.children].indexOf(top)).toBe(1);
    expect(top.querySelector("button.primary, .reveal-agree")).not.toBeNull();
  });
});

describe("card names", () => {
  it("break only after a space or a middle dot, and know their widest word", () => {
    expect(longestWordEm("ルーク・スカイウォーカー")).toBe(8);
    expect(longestWordEm("韓．索羅")).toBe(2);
    expect(longestWordEm("Chewbacca")).toBeCloseTo(9 * 0.7);
    setLanguage("ja");
    act(() => render(<CardFace name="Luke Skywalker" owner="rebel" />, root));
    const name = root.querySelector(".card .name")!;
    expect(name.innerHTML).toBe("<span>ルーク・</span><wbr><span>スカイウォーカー</span>");
    expect((name as HTMLElement).style.getPropertyValue("--name-em")).toBe("8.00");
  });
});
